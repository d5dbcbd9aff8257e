/// A column of a database table whose values are JSON.
///
/// A JSON column is a ``ColumnExpression`` that gives access to the JSON
/// operators of ``SQLJSONExpressible``, and that the functions that build
/// JSON parse as JSON:
///
/// ```swift
/// struct Player: Codable, FetchableRecord, PersistableRecord {
///     var id: Int64
///     var info: Data
///     enum Columns {
///         static let id = Column(CodingKeys.id)
///         static let info = JSONColumn(CodingKeys.info)
///     }
/// }
///
/// try db.create(table: "player") { t in
///     t.autoIncrementedPrimaryKey("id")
///     t.column("info", .jsonText)
/// }
///
/// // SELECT "info" ->> 'score' FROM "player"
/// let scores = try Player.select(Player.Columns.info["score"], as: Int.self).fetchAll(db)
///
/// // SELECT JSON_OBJECT('id', "id", 'info', JSONB("info")) FROM "player"
/// let elements: KeyValuePairs<String, any SQLExpressible> = ["id": Player.Columns.id, "info": Player.Columns.info]
/// let objects = try Player.select(Database.jsonObject(elements), as: String.self).fetchAll(db)
/// ```
///
/// In a selection, an ordering or a filter, a JSON column renders as the
/// quoted column name, as ``Column`` does.
///
/// Related SQLite documentation: <https://www.sqlite.org/json1.html>
public struct JSONColumn: ColumnExpression, SQLJSONExpressible, Hashable, Sendable {
    /// The name of the column.
    public var name: String

    /// Creates a JSON column.
    ///
    /// - Parameter name: The name of the column.
    public init(_ name: String) {
        self.name = name
    }

    /// Creates a JSON column named after a coding key.
    ///
    /// ```swift
    /// static let info = JSONColumn(CodingKeys.info)
    /// ```
    ///
    /// - Parameter codingKey: A coding key whose string value is the name
    ///   of the column.
    public init(_ codingKey: some CodingKey) {
        self.name = codingKey.stringValue
    }
}
