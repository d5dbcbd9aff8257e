// Public, not `internal`: @inlinable code of this file calls the helpers. A
// public import is not re-exported to users (see CONTRIBUTING.md).
public import CairnSQLiteShims

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
    /// is out of the type's range or of another type.
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
    /// Reads an INTEGER, a REAL truncated toward zero, or a TEXT that spells
    /// a number (`'42'`, read as SQLite's numeric affinity reads it); nil if
    /// the value is out of the type's range, text that is not a number, or
    /// of another type.
    ///
    /// The corresponding C functions are `sqlite3_column_int64` and
    /// `sqlite3_column_double`.
    @inlinable @inline(__always)
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        // The type and value in one call (see CairnSQLite.c), text that
        // spells a number already converted. INTEGER is tested first: a
        // switch let the compiler test REAL first.
        var int64: Int64 = 0
        var double: Double = 0
        let type = _cairn_column_numeric(sqliteStatement, index, &int64, &double)
        if _fastPath(type == SQLITE_INTEGER) {
            guard let value = Self(exactly: int64) else { return nil }
            self = value
        } else if type == SQLITE_FLOAT {
            guard let value = integer(Self.self, fromDouble: double) else { return nil }
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

    /// True for a non-zero INTEGER or REAL, false for zero, nil otherwise.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Bool? {
        switch dbValue.storage {
        case .int64(let int64): return int64 != 0
        case .double(let double): return double != 0
        default: return nil
        }
    }

    /// True for a non-zero INTEGER or REAL, false for zero, the same for a
    /// TEXT that spells a number (`'1'`, `'0'`); nil otherwise (the text
    /// `'true'` is not a number).
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        var int64: Int64 = 0
        var double: Double = 0
        switch _cairn_column_numeric(sqliteStatement, index, &int64, &double) {
        case SQLITE_INTEGER: self = int64 != 0
        case SQLITE_FLOAT: self = double != 0
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

    /// Converts a REAL or an INTEGER; nil otherwise.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Double? {
        switch dbValue.storage {
        case .int64(let int64): return Double(int64)
        case .double(let double): return double
        default: return nil
        }
    }

    /// Reads a REAL, an INTEGER, or a TEXT that spells a number (`'1.5'`,
    /// read as SQLite's numeric affinity reads it); nil otherwise.
    ///
    /// The corresponding C function is `sqlite3_column_double`.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        var int64: Int64 = 0
        var double: Double = 0
        switch _cairn_column_numeric(sqliteStatement, index, &int64, &double) {
        case SQLITE_INTEGER: self = Double(int64)
        case SQLITE_FLOAT: self = double
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

    /// Converts a REAL or an INTEGER; nil otherwise.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Float? {
        Double.fromDatabaseValue(dbValue).map { Float($0) }
    }

    /// Reads a REAL, an INTEGER, or a TEXT that spells a number; nil
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

    /// Converts a TEXT; nil otherwise.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> String? {
        if case .string(let string) = dbValue.storage { return string }
        return nil
    }

    /// Reads a TEXT, or the text of an INTEGER or REAL as SQLite spells it
    /// (`42` reads `"42"`, `0.5` reads `"0.5"`); nil for blobs, and for
    /// text that is not valid UTF-8.
    ///
    /// The corresponding C functions are `sqlite3_column_text` and
    /// `sqlite3_column_bytes`.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        var bytes: UnsafePointer<UInt8>?
        var count: CInt = 0
        let type = _cairn_column_text(sqliteStatement, index, &bytes, &count)
        guard _fastPath(type == SQLITE_TEXT) else {
            guard type == SQLITE_INTEGER || type == SQLITE_FLOAT,
                  let text = String(numberInColumn: index, of: sqliteStatement)
            else { return nil }
            self = text
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

    /// The text of the INTEGER or REAL value of a column, as
    /// `sqlite3_column_text` spells it (`42`, `0.5`, `1.0e+19`: fifteen
    /// significant digits for reals), without converting the column; nil
    /// when the value is not a number.
    ///
    /// - Precondition: `sqliteStatement` has just returned `SQLITE_ROW`.
    @usableFromInline @inline(never)
    init?(numberInColumn index: CInt, of sqliteStatement: SQLiteStatement) {
        // 32 bytes hold any integer and any real with fifteen digits.
        let text = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) { buffer -> String? in
            guard let base = buffer.baseAddress else { return nil }
            let count = _cairn_column_number_text(sqliteStatement, index, base, 32)
            guard count > 0 else { return nil }
            return String(decoding: UnsafeRawBufferPointer(start: base, count: Int(count)), as: UTF8.self)
        }
        guard let text else { return nil }
        self = text
    }
}
