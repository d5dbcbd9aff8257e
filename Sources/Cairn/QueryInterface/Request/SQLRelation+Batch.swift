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
    ///
    /// - Parameter subqueryIncludesWith: Whether the subquery, rather than
    ///   the statement, renders the WITH clause.
    private func batchWhereSQL(_ context: SQLGenerationContext, subqueryIncludesWith: Bool = false) throws -> String {
        if selectsRowsByKey {
            var relation = self
            relation.children.removeAll { $0.kind == .prefetch }
            let key = try batchKeyExpressions(context.db)
            let selection = key.map { SQLSelection(impl: .expression($0)) }
            let subquery = try relation.selectSQL(context, selection: selection, includesWith: subqueryIncludesWith)
            let keySQL = try context.withDefaultQualifier(nil) {
                try key.map { try $0.sql(context) }.joined(separator: ", ")
            }
            return " WHERE " + (key.count == 1 ? keySQL : "(" + keySQL + ")") + " IN (" + subquery + ")"
        }
        return try whereSQL(context).map { " WHERE " + $0 } ?? ""
    }

    /// Whether a batch update or delete selects its rows with a subquery.
    private var selectsRowsByKey: Bool {
        // Prefetched associations run their own queries: they do not
        // select rows.
        let hasJoins = children.contains { $0.kind != .prefetch }
        return limit != nil || hasJoins || !groupExpressions.isEmpty || !havingExpressions.isEmpty
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
    ///
    /// The WITH clause starts the statement, or, when the rows are
    /// selected by key, the subquery, as GRDB writes them:
    /// `DELETE FROM "t" WHERE "id" IN (WITH "c" AS (...) SELECT ...)`.
    func deleteSQL(_ context: SQLGenerationContext) throws -> String {
        if selectsRowsByKey {
            return "DELETE FROM " + tableName.quotedDatabaseIdentifier
                + (try batchWhereSQL(context, subqueryIncludesWith: true))
        }
        // The WITH clause first: its arguments come first.
        let withSQL = try self.withSQL(context)
        return withSQL + "DELETE FROM " + tableName.quotedDatabaseIdentifier + (try batchWhereSQL(context))
    }

    /// Renders the UPDATE statement of the relation.
    ///
    /// The WITH clause always starts the statement, so that the
    /// assignments can use the common table expressions. GRDB writes it in
    /// the subquery when the rows are selected by key, where the
    /// assignments cannot see it.
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
