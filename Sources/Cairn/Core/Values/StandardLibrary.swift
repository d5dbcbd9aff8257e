// Conversions of the standard library types: Bool, the integer types,
// Double, Float and String.

// MARK: - Integers

/// Converts an SQLite integer or real to an integer type, or returns nil when
/// the value is out of the type's range (never wraps). Reals are truncated
/// toward zero, as SQLite's CAST does.
@inlinable
func integer<T: FixedWidthInteger>(_ type: T.Type, fromDouble double: Double) -> T? {
    guard double.isFinite else { return nil }
    return T(exactly: double.rounded(.towardZero))
}

// The standard integer types are Codable: these defaults must be more
// specific than the JSON defaults of Codable values.
extension DatabaseValueConvertible where Self: FixedWidthInteger & Codable {
    /// An INTEGER. Values that do not fit in an SQLite integer (`UInt64`
    /// values above `Int64.max`) are stored as REAL, which may lose
    /// precision.
    @inlinable
    public var databaseValue: DatabaseValue {
        if let int64 = Int64(exactly: self) {
            return DatabaseValue(storage: .int64(int64))
        }
        return DatabaseValue(storage: .double(Double(self)))
    }

    /// Converts an INTEGER, or a REAL truncated toward zero; nil if the value
    /// is out of the type's range or of another type, as in GRDB. (Reading
    /// a column converts the text of a number too: see
    /// ``init(sqliteStatement:index:)``.)
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        switch dbValue.storage {
        case .int64(let int64): return Self(exactly: int64)
        case .double(let double): return integer(Self.self, fromDouble: double)
        default: return nil
        }
    }
}

extension DatabaseValueConvertible where Self: FixedWidthInteger & Codable {
    /// Binds an INTEGER (a REAL for `UInt64` values above `Int64.max`, as
    /// ``databaseValue`` does).
    ///
    /// The corresponding C functions are `sqlite3_bind_int64` and
    /// `sqlite3_bind_double`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        if let int64 = Int64(exactly: self) {
            return sqlite3_bind_int64(sqliteStatement, index, int64)
        }
        return sqlite3_bind_double(sqliteStatement, index, Double(self))
    }
}

extension StatementColumnConvertible where Self: FixedWidthInteger & Codable {
    /// Reads an INTEGER, a REAL truncated toward zero, or a TEXT that holds
    /// a number (`'42'`: the text of a number stored in a column of TEXT
    /// affinity); nil if the value is out of the type's range, is other
    /// text, a BLOB or NULL.
    ///
    /// The corresponding C functions are `sqlite3_column_int64`,
    /// `sqlite3_column_double` and `sqlite3_column_text`.
    @inlinable @inline(__always)
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        // The type and value in one call (see CairnSQLite.c). INTEGER is
        // tested first: a switch let the compiler test REAL first.
        var int64: Int64 = 0
        var double: Double = 0
        let type = _cairn_column_number(sqliteStatement, index, &int64, &double)
        if _fastPath(type == SQLITE_INTEGER) {
            guard let value = Self(exactly: int64) else { return nil }
            self = value
        } else if type == SQLITE_FLOAT {
            guard let value = integer(Self.self, fromDouble: double) else { return nil }
            self = value
        } else if type == SQLITE_TEXT,
                  let value = NumericText(sqliteStatement: sqliteStatement, index: index)?.integer(Self.self)
        {
            self = value
        } else {
            return nil
        }
    }


    /// Same as ``init(sqliteStatement:index:)``, which already returns nil
    /// for NULL: this spares a second read of the column type.
    @inlinable @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self? {
        Self(sqliteStatement: sqliteStatement, index: index)
    }
}

extension Int: DatabaseValueConvertible, StatementColumnConvertible { }
extension Int8: DatabaseValueConvertible, StatementColumnConvertible { }
extension Int16: DatabaseValueConvertible, StatementColumnConvertible { }
extension Int32: DatabaseValueConvertible, StatementColumnConvertible { }
extension Int64: DatabaseValueConvertible, StatementColumnConvertible { }
extension UInt: DatabaseValueConvertible, StatementColumnConvertible { }
extension UInt8: DatabaseValueConvertible, StatementColumnConvertible { }
extension UInt16: DatabaseValueConvertible, StatementColumnConvertible { }
extension UInt32: DatabaseValueConvertible, StatementColumnConvertible { }
extension UInt64: DatabaseValueConvertible, StatementColumnConvertible { }

// MARK: - Bool

extension Bool: DatabaseValueConvertible, StatementColumnConvertible {
    /// The INTEGER 1 for true, 0 for false.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self ? 1 : 0)) }

    /// Binds the INTEGER 1 for true, 0 for false.
    ///
    /// The corresponding C function is `sqlite3_bind_int64`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, self ? 1 : 0)
    }

    /// True for a non-zero INTEGER or REAL, false for zero, nil otherwise,
    /// as in GRDB. (Reading a column converts the text of a number too:
    /// see ``init(sqliteStatement:index:)``.)
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Bool? {
        switch dbValue.storage {
        case .int64(let int64): return int64 != 0
        case .double(let double): return double != 0
        default: return nil
        }
    }

    /// True for a non-zero INTEGER or REAL, or a TEXT that holds a non-zero
    /// number (`'1'`); false for zero (`0`, `'0'`); nil for other text
    /// (`'true'`), a BLOB or NULL.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        var int64: Int64 = 0
        var double: Double = 0
        switch _cairn_column_number(sqliteStatement, index, &int64, &double) {
        case SQLITE_INTEGER: self = int64 != 0
        case SQLITE_FLOAT: self = double != 0
        case SQLITE_TEXT:
            guard let number = NumericText(sqliteStatement: sqliteStatement, index: index) else { return nil }
            self = number.double != 0
        default: return nil
        }
    }

    /// Same as ``init(sqliteStatement:index:)``, which already returns nil for NULL.
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Bool? {
        Bool(sqliteStatement: sqliteStatement, index: index)
    }
}

// MARK: - Double, Float

extension Double: DatabaseValueConvertible, StatementColumnConvertible {
    /// A REAL.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(self)) }

    /// Binds a REAL.
    ///
    /// The corresponding C function is `sqlite3_bind_double`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_double(sqliteStatement, index, self)
    }

    /// Converts a REAL or an INTEGER; nil otherwise, as in GRDB. (Reading a
    /// column converts the text of a number too: see
    /// ``init(sqliteStatement:index:)``.)
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Double? {
        switch dbValue.storage {
        case .int64(let int64): return Double(int64)
        case .double(let double): return double
        default: return nil
        }
    }

    /// Reads a REAL, an INTEGER, or a TEXT that holds a number (`'1.5'`);
    /// nil for other text, a BLOB or NULL.
    ///
    /// The corresponding C functions are `sqlite3_column_double` and
    /// `sqlite3_column_text`.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        var int64: Int64 = 0
        var double: Double = 0
        switch _cairn_column_number(sqliteStatement, index, &int64, &double) {
        case SQLITE_INTEGER: self = Double(int64)
        case SQLITE_FLOAT: self = double
        case SQLITE_TEXT:
            guard let number = NumericText(sqliteStatement: sqliteStatement, index: index) else { return nil }
            self = number.double
        default: return nil
        }
    }

    /// Same as ``init(sqliteStatement:index:)``, which already returns nil for NULL.
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Double? {
        Double(sqliteStatement: sqliteStatement, index: index)
    }
}

extension Float: DatabaseValueConvertible, StatementColumnConvertible {
    /// A REAL.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(Double(self))) }

    /// Binds a REAL.
    ///
    /// The corresponding C function is `sqlite3_bind_double`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_double(sqliteStatement, index, Double(self))
    }

    /// Converts a REAL or an INTEGER; nil otherwise, as in GRDB.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Float? {
        Double.fromDatabaseValue(dbValue).map { Float($0) }
    }

    /// Reads a REAL, an INTEGER, or a TEXT that holds a number; nil
    /// otherwise.
    ///
    /// The corresponding C function is `sqlite3_column_double`.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let double = Double(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = Float(double)
    }

    /// Same as ``init(sqliteStatement:index:)``, which already returns nil for NULL.
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Float? {
        Float(sqliteStatement: sqliteStatement, index: index)
    }
}

// MARK: - String

extension String: DatabaseValueConvertible, StatementColumnConvertible {
    /// A TEXT.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(self)) }

    /// Binds a TEXT, copied by SQLite.
    ///
    /// The corresponding C function is `sqlite3_bind_text64`.
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        bindText(self, to: sqliteStatement, at: index)
    }

    /// Converts a TEXT; nil otherwise, as in GRDB. (Reading a column
    /// converts numbers and UTF-8 blobs too: see
    /// ``init(sqliteStatement:index:)``.)
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> String? {
        if case .string(let string) = dbValue.storage { return string }
        return nil
    }

    /// Reads a TEXT; an INTEGER or a REAL as its SQL text, as SQLite writes
    /// it (`42`, `0.5`, `1.0e+20`); a BLOB of valid UTF-8 as its text. Nil
    /// for NULL, and for text or a BLOB that is not valid UTF-8.
    ///
    /// The corresponding C functions are `sqlite3_column_text` and
    /// `sqlite3_column_bytes`.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        var bytes: UnsafePointer<UInt8>?
        var count: CInt = 0
        let type = _cairn_column_text(sqliteStatement, index, &bytes, &count)
        guard _fastPath(type == SQLITE_TEXT) else {
            guard type != SQLITE_NULL && type != SQLITE_NOMEM,
                  let string = String(convertingNonText: DatabaseValue(sqliteStatement: sqliteStatement, index: index))
            else { return nil }
            self = string
            return
        }
        guard let bytes else {
            self = ""
            return
        }
        guard let string = String(validatingUTF8Bytes: UnsafeRawBufferPointer(start: bytes, count: Int(count))) else {
            return nil
        }
        self = string
    }

    /// Same as ``init(sqliteStatement:index:)``, which already returns nil for NULL.
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> String? {
        String(sqliteStatement: sqliteStatement, index: index)
    }
}

// MARK: - Conversions between storage classes

// Conversions between storage classes that lose nothing, when a column is
// read: a number stored as text (a column of TEXT affinity turns the numbers
// it receives into text) reads as a number, and a number reads as its text
// (a column of NUMERIC or INTEGER affinity turns the text of a number into a
// number). Text that is not a number never reads as one: `'foo'` is not 0.
// `fromDatabaseValue(_:)` converts as GRDB's does, without them.

/// A number written in text as a decimal literal: `42`, `-1.5`, `1.0e+20`.
@usableFromInline
enum NumericText: Sendable {
    case integer(Int64)
    case real(Double)

    /// The number of a text that is exactly a decimal literal: an optional
    /// sign, digits with an optional fraction, an optional exponent. Nil
    /// for other text (spaces, `inf`, `nan`, hexadecimal, words), and for
    /// numbers beyond the range of a Double.
    @usableFromInline
    init?(utf8 bytes: UnsafeRawBufferPointer) {
        let zero = UInt8(ascii: "0"), nine = UInt8(ascii: "9")
        var index = 0
        func skipDigits() -> Int {
            let start = index
            while index < bytes.count, (zero...nine).contains(bytes[index]) { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        var isInteger = true
        var digitCount = skipDigits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            digitCount += skipDigits()
        }
        guard digitCount > 0 else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { return nil }
        }
        guard index == bytes.count else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        if isInteger, let int64 = Int64(text) {
            self = .integer(int64)
        } else if let double = Double(text), double.isFinite {
            // An integer beyond the range of Int64 is a real, as in SQLite.
            self = .real(double)
        } else {
            return nil
        }
    }

    /// The number that a TEXT column holds (see ``init(utf8:)``).
    @usableFromInline @inline(never)
    init?(sqliteStatement: SQLiteStatement, index: CInt) {
        var bytes: UnsafePointer<UInt8>?
        var count: CInt = 0
        guard _cairn_column_text(sqliteStatement, index, &bytes, &count) == SQLITE_TEXT, let bytes else { return nil }
        self.init(utf8: UnsafeRawBufferPointer(start: bytes, count: Int(count)))
    }

    @usableFromInline
    var double: Double {
        switch self {
        case .integer(let int64): return Double(int64)
        case .real(let double): return double
        }
    }

    /// The number as an integer type, a real truncated toward zero; nil
    /// when out of the type's range.
    @usableFromInline
    func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
        switch self {
        case .integer(let int64): return T(exactly: int64)
        case .real(let double): return Cairn.integer(T.self, fromDouble: double)
        }
    }
}

extension String {
    /// The text of a value that is not TEXT: the SQL text of an INTEGER or
    /// a REAL, as SQLite's own conversion writes it, and a BLOB of valid
    /// UTF-8; nil for NULL and other blobs.
    ///
    /// The corresponding C function is `sqlite3_vmprintf` (`%!.15g`, the
    /// format of SQLite's conversion of reals to text).
    @usableFromInline
    init?(convertingNonText dbValue: DatabaseValue) {
        switch dbValue.storage {
        case .null:
            return nil
        case .int64(let int64):
            self = String(int64)
        case .double(let double):
            guard let text = withVaList([double], { sqlite3_vmprintf("%!.15g", $0) }) else { return nil }
            defer { sqlite3_free(text) }
            self = String(cString: text)
        case .string(let string):
            self = string
        case .blob(let data):
            guard let string = data.withUnsafeBytes({ String(validatingUTF8Bytes: $0) }) else { return nil }
            self = string
        }
    }
}
