import Foundation
// Public, not `internal`: @inlinable code of this file calls the helpers. A
// public import is not re-exported to users (see CONTRIBUTING.md).
public import CairnSQLiteShims

/// A type whose values can be stored in the database and read back.
///
/// Bool, the integer types, Double, Float, String, Data, Date, DateComponents,
/// UUID, URL, Decimal and ``DatabaseValue`` conform. So do `Optional`
/// (NULL is `nil`), enums whose raw value conforms, and any `Codable` type
/// that declares the conformance (it is stored as JSON text):
///
/// ```swift
/// enum Grape: String, DatabaseValueConvertible {
///     case chardonnay, merlot, riesling
/// }
///
/// struct Address: Codable, DatabaseValueConvertible {
///     var street: String
///     var city: String
/// }
///
/// try db.execute(sql: "INSERT INTO wine (grape) VALUES (?)", arguments: [Grape.merlot])
/// let grapes = try Grape.fetchAll(db, sql: "SELECT grape FROM wine")
/// ```
///
/// Conversions are strict: a value that does not fit (a NULL, text for an
/// integer, 256 for a `UInt8`) makes ``fromDatabaseValue(_:)`` return nil, and
/// throwing APIs throw a ``RowDecodingError`` that names the column and value.
public protocol DatabaseValueConvertible: SQLExpressible, StatementBinding {
    /// The value to store in the database.
    var databaseValue: DatabaseValue { get }

    /// Returns a value initialized from a database value, or nil if the
    /// database value cannot be converted.
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self?

    /// Returns the value to use when a row has no column of the requested
    /// name, or nil when a missing column is an error.
    ///
    /// The default implementation returns nil; `Optional` returns `.some(nil)`
    /// so that `row["missing"] as String?` is nil.
    static func fromMissingColumn() -> Self?

    /// The JSON decoder of values stored as JSON (`Decodable` values that
    /// do not decode from a single database value).
    ///
    /// Override it to change the strategies:
    ///
    /// ```swift
    /// struct Duration: Codable, DatabaseValueConvertible {
    ///     var seconds: Double
    ///     static func databaseJSONDecoder() -> JSONDecoder {
    ///         let decoder = JSONDecoder()
    ///         decoder.nonConformingFloatDecodingStrategy = .convertFromString(
    ///             positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
    ///         return decoder
    ///     }
    /// }
    /// ```
    static func databaseJSONDecoder() -> JSONDecoder

    /// The JSON encoder of values stored as JSON (`Encodable` values).
    ///
    /// Override it to change the strategies; keep `.sortedKeys`, so that
    /// equal values give equal text.
    static func databaseJSONEncoder() -> JSONEncoder
}

extension DatabaseValueConvertible {
    /// Returns nil: a missing column is an error for non-optional values.
    public static func fromMissingColumn() -> Self? { nil }

    /// The JSON decoder of Cairn: Base64 data, dates in milliseconds since
    /// 1970, non-finite numbers as the strings "NaN", "Infinity" and
    /// "-Infinity".
    public static func databaseJSONDecoder() -> JSONDecoder { JSONCoding.makeDecoder() }

    /// The JSON encoder of Cairn: sorted keys, and the strategies of
    /// ``databaseJSONDecoder()``.
    public static func databaseJSONEncoder() -> JSONEncoder { JSONCoding.makeEncoder() }
}

/// A type that can read its value directly from a column of a statement, with
/// the `sqlite3_column_*` functions, without going through ``DatabaseValue``.
///
/// This is the fast path that cursors and row subscripts use for the common
/// types: Bool, the integer types, Double, Float, String and Data. Adopt it for
/// your own types when it matters:
///
/// ```swift
/// struct Cents: DatabaseValueConvertible, StatementColumnConvertible {
///     var value: Int64
///     init?(sqliteStatement: SQLiteStatement, index: CInt) {
///         guard sqlite3_column_type(sqliteStatement, index) == SQLITE_INTEGER else { return nil }
///         value = sqlite3_column_int64(sqliteStatement, index)
///     }
///     // DatabaseValueConvertible requirements...
/// }
/// ```
public protocol StatementColumnConvertible {
    /// Reads a value from a column of the current row of a statement, or
    /// returns nil if the column's value cannot be converted.
    ///
    /// The column is never NULL when this initializer is called.
    ///
    /// - Parameters:
    ///   - sqliteStatement: A statement that has just returned `SQLITE_ROW`.
    ///   - index: A valid column index.
    init?(sqliteStatement: SQLiteStatement, index: CInt)

    /// Reads a value from a column that may be NULL, or returns nil if the
    /// value cannot be converted.
    ///
    /// The default implementation returns nil for NULL, and calls
    /// ``init(sqliteStatement:index:)`` otherwise. `Optional` returns
    /// `.some(nil)` for NULL.
    static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self?
}

extension StatementColumnConvertible {
    /// Returns nil for NULL, and the result of
    /// ``init(sqliteStatement:index:)`` otherwise.
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self? {
        if _cairn_column_type(sqliteStatement, index) == SQLITE_NULL {
            return nil
        }
        return self.init(sqliteStatement: sqliteStatement, index: index)
    }
}

// MARK: - Optional

/// The types whose values represent NULL themselves (``DatabaseValue`` and
/// `Optional`): their `fetchOne` returns that value for a NULL, so that nil
/// only means "no row".
@usableFromInline
protocol NullRepresentable {}

extension Optional: NullRepresentable {}
extension DatabaseValue: NullRepresentable {}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    /// NULL for nil, and the wrapped value's database value otherwise.
    @inlinable
    public var databaseValue: DatabaseValue {
        switch self {
        case .none: return .null
        case .some(let value): return value.databaseValue
        }
    }

    /// The converted wrapped value, `.some(nil)` for a NULL that the wrapped
    /// type does not convert, and nil when the wrapped type cannot convert
    /// the value.
    ///
    /// As in GRDB, the wrapped type has the first word: a type that reads
    /// NULL as a value of its own (``DatabaseValue`` reads it as
    /// ``DatabaseValue/null``) gives that value, not nil.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Wrapped?? {
        if let value = Wrapped.fromDatabaseValue(dbValue) { return .some(value) }
        if dbValue.isNull { return .some(.none) }
        return nil
    }

    /// `.some(nil)`: a missing column reads as nil.
    @inlinable
    public static func fromMissingColumn() -> Wrapped?? { .some(.none) }
}

extension Optional: StatementColumnConvertible where Wrapped: StatementColumnConvertible {
    /// Reads the wrapped value.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = Wrapped(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = .some(value)
    }

    /// `.some(nil)` for NULL, the converted wrapped value otherwise.
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Wrapped?? {
        if _cairn_column_type(sqliteStatement, index) == SQLITE_NULL {
            return .some(.none)
        }
        return Wrapped(sqliteStatement: sqliteStatement, index: index).map { .some($0) }
    }
}
