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

@inlinable
func integer<T: FixedWidthInteger>(_ type: T.Type, from dbValue: DatabaseValue) -> T? {
    switch dbValue.storage {
    case .int64(let int64): return T(exactly: int64)
    case .double(let double): return integer(T.self, fromDouble: double)
    default: return nil
    }
}

@inlinable
func integer<T: FixedWidthInteger>(_ type: T.Type, sqliteStatement: SQLiteStatement, index: CInt) -> T? {
    switch sqlite3_column_type(sqliteStatement, index) {
    case SQLITE_INTEGER: return T(exactly: sqlite3_column_int64(sqliteStatement, index))
    case SQLITE_FLOAT: return integer(T.self, fromDouble: sqlite3_column_double(sqliteStatement, index))
    default: return nil
    }
}

extension Int: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    /// Converts an INTEGER, or a REAL truncated toward zero; nil if the value
    /// is out of range or of another type.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int? {
        integer(Int.self, from: dbValue)
    }

    /// Reads an INTEGER, or a REAL truncated toward zero; nil if the value is
    /// out of range or of another type.
    ///
    /// The corresponding C functions are `sqlite3_column_int64` and
    /// `sqlite3_column_double`.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = integer(Int.self, sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = value
    }

    /// Same as ``init(sqliteStatement:index:)``, which already returns nil for NULL.
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Int? {
        integer(Int.self, sqliteStatement: sqliteStatement, index: index)
    }
}

extension Int8: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    /// Converts an INTEGER, or a REAL truncated toward zero; nil if the value
    /// is out of range or of another type.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int8? {
        integer(Int8.self, from: dbValue)
    }

    /// Reads an INTEGER, or a REAL truncated toward zero; nil if the value is
    /// out of range or of another type.
    ///
    /// The corresponding C functions are `sqlite3_column_int64` and
    /// `sqlite3_column_double`.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = integer(Int8.self, sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = value
    }

    /// Same as ``init(sqliteStatement:index:)``, which already returns nil for NULL.
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Int8? {
        integer(Int8.self, sqliteStatement: sqliteStatement, index: index)
    }
}

extension Int16: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    /// Converts an INTEGER, or a REAL truncated toward zero; nil if the value
    /// is out of range or of another type.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int16? {
        integer(Int16.self, from: dbValue)
    }

    /// Reads an INTEGER, or a REAL truncated toward zero; nil if the value is
    /// out of range or of another type.
    ///
    /// The corresponding C functions are `sqlite3_column_int64` and
    /// `sqlite3_column_double`.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = integer(Int16.self, sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = value
    }

    /// Same as ``init(sqliteStatement:index:)``, which already returns nil for NULL.
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Int16? {
        integer(Int16.self, sqliteStatement: sqliteStatement, index: index)
    }
}

extension Int32: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    /// Converts an INTEGER, or a REAL truncated toward zero; nil if the value
    /// is out of range or of another type.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int32? {
        integer(Int32.self, from: dbValue)
    }

    /// Reads an INTEGER, or a REAL truncated toward zero; nil if the value is
    /// out of range or of another type.
    ///
    /// The corresponding C functions are `sqlite3_column_int64` and
    /// `sqlite3_column_double`.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = integer(Int32.self, sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = value
    }

    /// Same as ``init(sqliteStatement:index:)``, which already returns nil for NULL.
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Int32? {
        integer(Int32.self, sqliteStatement: sqliteStatement, index: index)
    }
}

extension Int64: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self)) }

    /// Converts an INTEGER, or a REAL truncated toward zero; nil if the value
    /// is out of range or of another type.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int64? {
        integer(Int64.self, from: dbValue)
    }

    /// Reads an INTEGER, or a REAL truncated toward zero; nil if the value is
    /// out of range or of another type.
    ///
    /// The corresponding C functions are `sqlite3_column_int64` and
    /// `sqlite3_column_double`.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = integer(Int64.self, sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = value
    }

    /// Same as ``init(sqliteStatement:index:)``, which already returns nil for NULL.
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Int64? {
        integer(Int64.self, sqliteStatement: sqliteStatement, index: index)
    }
}

extension UInt: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER. Values above `Int64.max` do not fit in an SQLite integer
    /// and are stored as REAL, which may lose precision.
    @inlinable
    public var databaseValue: DatabaseValue {
        if let int64 = Int64(exactly: self) {
            return DatabaseValue(storage: .int64(int64))
        }
        return DatabaseValue(storage: .double(Double(self)))
    }

    /// Converts an INTEGER, or a REAL truncated toward zero; nil if the value
    /// is out of range or of another type.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt? {
        integer(UInt.self, from: dbValue)
    }

    /// Reads an INTEGER, or a REAL truncated toward zero; nil if the value is
    /// out of range or of another type.
    ///
    /// The corresponding C functions are `sqlite3_column_int64` and
    /// `sqlite3_column_double`.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = integer(UInt.self, sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = value
    }

    /// Same as ``init(sqliteStatement:index:)``, which already returns nil for NULL.
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> UInt? {
        integer(UInt.self, sqliteStatement: sqliteStatement, index: index)
    }
}

extension UInt8: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    /// Converts an INTEGER, or a REAL truncated toward zero; nil if the value
    /// is out of range or of another type.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt8? {
        integer(UInt8.self, from: dbValue)
    }

    /// Reads an INTEGER, or a REAL truncated toward zero; nil if the value is
    /// out of range or of another type.
    ///
    /// The corresponding C functions are `sqlite3_column_int64` and
    /// `sqlite3_column_double`.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = integer(UInt8.self, sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = value
    }

    /// Same as ``init(sqliteStatement:index:)``, which already returns nil for NULL.
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> UInt8? {
        integer(UInt8.self, sqliteStatement: sqliteStatement, index: index)
    }
}

extension UInt16: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    /// Converts an INTEGER, or a REAL truncated toward zero; nil if the value
    /// is out of range or of another type.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt16? {
        integer(UInt16.self, from: dbValue)
    }

    /// Reads an INTEGER, or a REAL truncated toward zero; nil if the value is
    /// out of range or of another type.
    ///
    /// The corresponding C functions are `sqlite3_column_int64` and
    /// `sqlite3_column_double`.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = integer(UInt16.self, sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = value
    }

    /// Same as ``init(sqliteStatement:index:)``, which already returns nil for NULL.
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> UInt16? {
        integer(UInt16.self, sqliteStatement: sqliteStatement, index: index)
    }
}

extension UInt32: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    /// Converts an INTEGER, or a REAL truncated toward zero; nil if the value
    /// is out of range or of another type.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt32? {
        integer(UInt32.self, from: dbValue)
    }

    /// Reads an INTEGER, or a REAL truncated toward zero; nil if the value is
    /// out of range or of another type.
    ///
    /// The corresponding C functions are `sqlite3_column_int64` and
    /// `sqlite3_column_double`.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = integer(UInt32.self, sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = value
    }

    /// Same as ``init(sqliteStatement:index:)``, which already returns nil for NULL.
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> UInt32? {
        integer(UInt32.self, sqliteStatement: sqliteStatement, index: index)
    }
}

extension UInt64: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER. Values above `Int64.max` do not fit in an SQLite integer
    /// and are stored as REAL, which may lose precision.
    @inlinable
    public var databaseValue: DatabaseValue {
        if let int64 = Int64(exactly: self) {
            return DatabaseValue(storage: .int64(int64))
        }
        return DatabaseValue(storage: .double(Double(self)))
    }

    /// Converts an INTEGER, or a REAL truncated toward zero; nil if the value
    /// is out of range or of another type.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt64? {
        integer(UInt64.self, from: dbValue)
    }

    /// Reads an INTEGER, or a REAL truncated toward zero; nil if the value is
    /// out of range or of another type.
    ///
    /// The corresponding C functions are `sqlite3_column_int64` and
    /// `sqlite3_column_double`.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = integer(UInt64.self, sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = value
    }

    /// Same as ``init(sqliteStatement:index:)``, which already returns nil for NULL.
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> UInt64? {
        integer(UInt64.self, sqliteStatement: sqliteStatement, index: index)
    }
}

// MARK: - Bool

extension Bool: DatabaseValueConvertible, StatementColumnConvertible {
    /// The INTEGER 1 for true, 0 for false.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self ? 1 : 0)) }

    /// True for a non-zero INTEGER or REAL, false for zero, nil otherwise.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Bool? {
        switch dbValue.storage {
        case .int64(let int64): return int64 != 0
        case .double(let double): return double != 0
        default: return nil
        }
    }

    /// True for a non-zero INTEGER or REAL, false for zero, nil otherwise.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_INTEGER: self = sqlite3_column_int64(sqliteStatement, index) != 0
        case SQLITE_FLOAT: self = sqlite3_column_double(sqliteStatement, index) != 0
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

    /// Converts a REAL or an INTEGER; nil otherwise.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Double? {
        switch dbValue.storage {
        case .int64(let int64): return Double(int64)
        case .double(let double): return double
        default: return nil
        }
    }

    /// Reads a REAL or an INTEGER; nil otherwise.
    ///
    /// The corresponding C function is `sqlite3_column_double`.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_INTEGER, SQLITE_FLOAT: self = sqlite3_column_double(sqliteStatement, index)
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

    /// Converts a REAL or an INTEGER; nil otherwise.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Float? {
        Double.fromDatabaseValue(dbValue).map { Float($0) }
    }

    /// Reads a REAL or an INTEGER; nil otherwise.
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

    /// Converts a TEXT; nil otherwise.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> String? {
        if case .string(let string) = dbValue.storage { return string }
        return nil
    }

    /// Reads a TEXT; nil for other types and for text that is not valid UTF-8.
    ///
    /// The corresponding C functions are `sqlite3_column_text` and
    /// `sqlite3_column_bytes`.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard sqlite3_column_type(sqliteStatement, index) == SQLITE_TEXT else { return nil }
        guard let bytes = sqlite3_column_text(sqliteStatement, index) else {
            self = ""
            return
        }
        let count = Int(sqlite3_column_bytes(sqliteStatement, index))
        guard let string = String(validatingUTF8Bytes: UnsafeRawBufferPointer(start: bytes, count: count)) else {
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
