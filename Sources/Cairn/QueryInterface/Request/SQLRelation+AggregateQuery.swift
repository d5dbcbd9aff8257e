// Requests that select an aggregate without grouping run as aggregate
// queries, which return exactly one row: their `fetchOne` needs no
// `LIMIT 1`.
//
//     SELECT MAX("score") FROM "player"
//     SELECT MAX("score") FROM "player" GROUP BY "teamId" LIMIT 1

extension SQLRelation {
    /// Whether SQLite runs the relation as an aggregate query without GROUP
    /// BY, which returns exactly one row: one of its selected expressions
    /// calls an aggregate function (`MAX("score")`, `COUNT(*) + 1`), and the
    /// relation is not grouped. Joins do not change it: they happen before
    /// the aggregation.
    ///
    /// Raw SQL is not parsed: a selection written in SQL is not taken for
    /// an aggregate, and the request keeps its `LIMIT 1`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_select.html#resultset>
    ///
    /// - Throws: The error of a selection that needs the database.
    func isUngroupedAggregate(_ db: Database) throws -> Bool {
        guard groupExpressions.isEmpty, !groupsByPrimaryKey else { return false }
        return try selection.contains { try $0.containsAggregate(db) }
    }
}
