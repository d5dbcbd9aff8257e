// Batch updates and deletes of requests.

extension SQLRelation {
    /// The WHERE clause of a batch update or delete. A relation with an
    /// ordering or a limit selects its rows with a rowid subquery.
    private func batchWhereSQL(_ context: SQLGenerationContext, operation: String) throws -> String {
        guard !isDistinct, groupExpressions.isEmpty, havingExpressions.isEmpty else {
            throw context.db.makeError(
                resultCode: .SQLITE_MISUSE,
                message: "cannot \(operation) the rows of a request with DISTINCT, GROUP BY or HAVING",
                sql: nil, arguments: nil)
        }
        if limit != nil || !children.isEmpty {
            // A joined relation selects its rows by rowid.
            var relation = self
            relation.children.removeAll { $0.kind == .prefetch }
            let rowID = SQLSelection(impl: .expression(SQLExpression(impl: .rowID(qualifier: nil))))
            // The statement renders the WITH clause.
            let subquery = try relation.selectSQL(context, selection: [rowID], includesWith: false)
            return " WHERE \"rowid\" IN (" + subquery + ")"
        }
        return try whereSQL(context).map { " WHERE " + $0 } ?? ""
    }

    /// Renders the DELETE statement of the relation.
    func deleteSQL(_ context: SQLGenerationContext) throws -> String {
        // The WITH clause first: its arguments come first.
        let withSQL = try self.withSQL(context)
        return withSQL + "DELETE FROM " + tableName.quotedDatabaseIdentifier + (try batchWhereSQL(context, operation: "delete"))
    }

    /// Renders the UPDATE statement of the relation.
    func updateSQL(
        _ context: SQLGenerationContext,
        conflictResolution: Database.ConflictResolution?,
        assignments: [ColumnAssignment]) throws -> String
    {
        // The WITH clause first: its arguments come first.
        var sql = try withSQL(context)
        sql += "UPDATE" + (conflictResolution?.orClause ?? "") + " " + tableName.quotedDatabaseIdentifier
        sql += " SET " + (try assignments.map { try $0.sql(context) }.joined(separator: ", "))
        sql += try batchWhereSQL(context, operation: "update")
        return sql
    }
}
