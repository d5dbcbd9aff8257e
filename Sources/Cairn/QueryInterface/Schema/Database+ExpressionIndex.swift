// Indexes on expressions.

extension Database {
    /// Creates an index on expressions, such as the values of a JSON
    /// column at some paths.
    ///
    /// ```swift
    /// // CREATE INDEX "player_on_country" ON "player"(JSON_EXTRACT("address", '$.country'))
    /// try db.create(
    ///     index: "player_on_country",
    ///     on: "player",
    ///     expressions: [JSONColumn("address").jsonExtract(atPath: "$.country")])
    /// ```
    ///
    /// The values of the expressions are written in the SQL, as SQLite
    /// requires: a schema statement has no parameters.
    ///
    /// - Parameters:
    ///   - name: The index name.
    ///   - table: The indexed table.
    ///   - expressions: The indexed expressions (columns, or expressions of
    ///     the columns of the table).
    ///   - options: `unique`, `ifNotExists`.
    ///   - condition: When not nil, a partial index of the rows that match
    ///     the condition.
    /// - Throws: A ``DatabaseError``, when an expression holds raw SQL
    ///   with arguments, or when SQLite refuses the index (an empty list
    ///   of expressions, a non-deterministic function…).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/expridx.html>
    public func create(
        index name: String,
        on table: String,
        expressions: [any SQLExpressible],
        options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil) throws
    {
        let context = SQLGenerationContext(self, inlinesArguments: true)
        var sql = "CREATE " + (options.contains(.unique) ? "UNIQUE " : "") + "INDEX "
            + (options.contains(.ifNotExists) ? "IF NOT EXISTS " : "")
        sql += name.quotedDatabaseIdentifier + " ON " + table.quotedDatabaseIdentifier
        sql += "(" + (try expressions.map { try $0.sqlExpression.sql(context) }.joined(separator: ", ")) + ")"
        if let condition {
            sql += " WHERE " + (try condition.sqlExpression.sql(context))
        }
        try execute(sql: sql)
    }
}
