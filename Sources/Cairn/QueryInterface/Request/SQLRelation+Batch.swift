// Batch updates and deletes of requests.

extension SQLRelation {
    /// The WHERE clause of a batch update or delete. A relation with a
    /// limit, joins, GROUP BY or HAVING selects its rows by key, with a
    /// subquery: `WHERE "id" IN (SELECT "id" ...)`, as GRDB does for joins
    /// and groups. DISTINCT does not change which rows of one table match,
    /// and is ignored, as GRDB does.
    ///
    /// GRDB writes `ORDER BY ... LIMIT` in the statement itself, which
    /// needs SQLite's `SQLITE_ENABLE_UPDATE_DELETE_LIMIT`, not part of
    /// Cairn's build: a subquery works with any build.
    private func batchWhereSQL(_ context: SQLGenerationContext) throws -> String {
        // Prefetched associations run their own queries: they do not
        // select rows.
        let hasJoins = children.contains { $0.kind != .prefetch }
        if limit != nil || hasJoins || !groupExpressions.isEmpty || !havingExpressions.isEmpty {
            var relation = self
            relation.children.removeAll { $0.kind == .prefetch }
            let key = try batchKeyExpressions(context.db)
            let selection = key.map { SQLSelection(impl: .expression($0)) }
            // The statement renders the WITH clause.
            let subquery = try relation.selectSQL(context, selection: selection, includesWith: false)
            let keySQL = try context.withDefaultQualifier(nil) {
                try key.map { try $0.sql(context) }.joined(separator: ", ")
            }
            return " WHERE " + (key.count == 1 ? keySQL : "(" + keySQL + ")") + " IN (" + subquery + ")"
        }
        return try whereSQL(context).map { " WHERE " + $0 } ?? ""
    }

    /// The columns that identify the rows of the table in a subquery, as
    /// GRDB chooses them: the column that aliases the rowid (`"id"` of an
    /// `INTEGER PRIMARY KEY`), or else the rowid (even when the primary key
    /// is another single column: `"rowid"` is faster), or else the primary
    /// key of a table without rowid.
    ///
    /// GRDB stops the program for a table without rowid whose primary key
    /// has several columns; Cairn compares a row value:
    /// `("a", "b") IN (SELECT "a", "b" ...)`.
    private func batchKeyExpressions(_ db: Database) throws -> [SQLExpression] {
        let rowID = SQLExpression(impl: .rowID(qualifier: nil))
        guard let primaryKey = try? db.primaryKey(tableName) else {
            // A view without primary key: its rowid, if any.
            return [rowID]
        }
        if let rowIDColumn = primaryKey.rowIDColumn { return [.column(rowIDColumn)] }
        if primaryKey.tableHasRowID { return [rowID] }
        return primaryKey.columns.map { SQLExpression.column($0) }
    }

    /// Renders the DELETE statement of the relation.
    func deleteSQL(_ context: SQLGenerationContext) throws -> String {
        // The WITH clause first: its arguments come first.
        let withSQL = try self.withSQL(context)
        return withSQL + "DELETE FROM " + tableName.quotedDatabaseIdentifier + (try batchWhereSQL(context))
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
        sql += try batchWhereSQL(context)
        return sql
    }
}
