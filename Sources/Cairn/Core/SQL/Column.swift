import Foundation

// Columns: `ColumnExpression`, `Column`, and reading rows by column.

/// A type that names a column.
///
/// ``Column`` adopts it, and so can your own types, such as an enum whose
/// raw values are column names:
///
/// ```swift
/// enum Columns: String, ColumnExpression {
///     case id, name, score
/// }
/// let players = try Player.filter(Columns.score > 1000).fetchAll(db)
/// ```
public protocol ColumnExpression: SQLSpecificExpressible {
    /// The name of the column.
    var name: String { get }
}

extension ColumnExpression {
    /// The column, as an expression: `"name"`.
    public var sqlExpression: SQLExpression {
        .column(name)
    }
}

extension ColumnExpression {
    /// The column, never qualified by a table: in a request that joins
    /// tables, it names a column of the selection, such as an alias
    /// (`ORDER BY "total"`), instead of a column of the table of the
    /// request (`ORDER BY "player"."total"`).
    ///
    /// ```swift
    /// // SELECT "team".*, COUNT(...) AS "playerCount" FROM "team" ...
    /// // ORDER BY "playerCount"
    /// let request = Team.annotated(with: Team.players.count.forKey("playerCount"))
    ///     .order(Column("playerCount").detached)
    /// ```
    public var detached: SQLExpression {
        SQLExpression(impl: .literal(SQL(sql: name.quotedDatabaseIdentifier)))
    }
}

extension ColumnExpression where Self == Column {
    /// The hidden `rowid` column: see ``Column/rowID``.
    ///
    /// ```swift
    /// func keyColumn() -> some ColumnExpression { .rowID }
    /// ```
    public static var rowID: Column { Column.rowID }
}

extension SQLExpressible where Self == Column {
    /// The hidden `rowid` column: see ``Column/rowID``.
    ///
    /// ```swift
    /// func keyExpression() -> some SQLExpressible { .rowID }
    /// ```
    public static var rowID: Column { Column.rowID }
}

extension ColumnExpression where Self: RawRepresentable, Self.RawValue == String {
    /// The raw value.
    public var name: String { rawValue }
}

/// A column of a database table.
///
/// ```swift
/// let nameColumn = Column("name")
/// let players = try Player.filter(nameColumn == "Arthur").fetchAll(db)
/// // SELECT * FROM "player" WHERE "name" = ?
///
/// struct Player: Codable, FetchableRecord, PersistableRecord {
///     var id: Int64
///     var name: String
///     enum Columns {
///         static let id = Column(CodingKeys.id)
///         static let name = Column(CodingKeys.name)
///     }
/// }
/// ```
public struct Column: ColumnExpression, Hashable, Sendable {
    /// The hidden `rowid` column.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createtable.html#rowid>
    public static let rowID = Column("rowid")

    /// The `rank` column of FTS5 full-text tables, for sorting matches by
    /// relevance.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts5.html#sorting_by_auxiliary_function_results>
    public static let rank = Column("rank")

    /// The name of the column.
    public var name: String

    /// Creates a column.
    ///
    /// - Parameter name: The name of the column.
    public init(_ name: String) {
        self.name = name
    }

    /// Creates a column named after a coding key.
    ///
    /// ```swift
    /// static let name = Column(CodingKeys.name)
    /// ```
    public init(_ codingKey: some CodingKey) {
        self.name = codingKey.stringValue
    }

    // MARK: Comparing columns

    /// `lhs = rhs`: an SQL expression, not a Swift comparison.
    ///
    /// ```swift
    /// // SELECT * FROM "book" WHERE "authorId" = "id"
    /// let request = Book.filter(Column("authorId") == Column("id"))
    /// ```
    ///
    /// Columns are `Hashable`, and the operator of `Equatable` would
    /// otherwise turn `filter(Column("a") == Column("b"))` into
    /// `filter(false)`: a boolean is an SQL expression too. The comparison
    /// of `Equatable` remains where a `Bool` is expected.
    public static func == (lhs: Column, rhs: Column) -> SQLExpression {
        SQLExpression(impl: .binary("=", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// `lhs <> rhs`: an SQL expression, not a Swift comparison (see
    /// ``==(_:_:)-(Column,Column)->SQLExpression``).
    public static func != (lhs: Column, rhs: Column) -> SQLExpression {
        SQLExpression(impl: .binary("<>", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// Returns whether two columns have the same name (`Equatable`).
    ///
    /// ```swift
    /// let isRowID: Bool = column == Column.rowID
    /// ```
    @_disfavoredOverload
    public static func == (lhs: Column, rhs: Column) -> Bool {
        lhs.name == rhs.name
    }

}

extension Row {
    /// The value of a column, converted to `Value`: see
    /// ``Row/subscript(_:)-(String)->Value``.
    ///
    /// ```swift
    /// let name: String = row[Column("name")]
    /// ```
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ column: some ColumnExpression) -> Value {
        self[column.name]
    }

    /// The value of a column, read directly from the statement when the row
    /// comes from a cursor.
    @inlinable
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ column: some ColumnExpression) -> Value
    {
        self[column.name]
    }

    /// The value of a column: nil for NULL or a missing column, or an Int64,
    /// Double, String or Data.
    public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
        self[column.name]
    }

    /// Returns the value of a column, converted to `Value`.
    ///
    /// - Throws: A ``RowDecodingError`` when the column is missing (and
    ///   `Value` is not optional), or when the value does not convert.
    @inlinable
    public func decode<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self,
        forColumn column: some ColumnExpression) throws -> Value
    {
        try decode(Value.self, forColumn: column.name)
    }

    /// Whether the row has this column.
    public func hasColumn(_ column: some ColumnExpression) -> Bool {
        hasColumn(column.name)
    }
}
