// The SQL that counts the rows of a relation: `SELECT COUNT(*)` on the
// table itself when the relation selects its plain rows, `COUNT(DISTINCT
// expr)` for a distinct request of one expression, and `SELECT COUNT(*)
// FROM (subquery)` otherwise, as GRDB writes them.

extension SQLRelation {
    /// Renders `SELECT COUNT(*) ...` for the relation.
    func countSQL(_ context: SQLGenerationContext) throws -> String {
        var relation = self
        relation.children.removeAll { $0.kind == .prefetch }
        // A selection that names an expression (`"name" AS "alt"`) may be
        // what a filter refers to: such a request is counted as a subquery.
        let selectsAliases = selection.contains { if case .aliased = $0.impl { return true } else { return false } }
        if relation.isPlainTableRelation && !selectsAliases {
            relation.ordering = []
            relation.ordersByPrimaryKey = false
            relation.isReversed = false
            return try relation.selectSQL(context, selection: [SQLSelection(impl: .expression(SQLExpression(impl: .countAll)))])
        }
        if isDistinct, groupExpressions.isEmpty, !groupsByPrimaryKey, havingExpressions.isEmpty, limit == nil,
           relation.children.isEmpty, selection.count == 1, let expression = selection[0].countedExpression
        {
            // SELECT COUNT(DISTINCT expr) FROM ...
            relation.isDistinct = false
            relation.ordering = []
            relation.ordersByPrimaryKey = false
            relation.isReversed = false
            let count = SQLExpression.aggregate("COUNT", [expression], isDistinct: true)
            return try relation.selectSQL(context, selection: [SQLSelection(impl: .expression(count))])
        }
        let withSQL = try relation.withSQL(context)
        let query = try ResolvedQuery(relation, context)
        return withSQL + "SELECT COUNT(*) FROM ("
            + (try query.selectSQL(singleResult: false, selection: nil, extraSelection: [], includesWith: false)) + ")"
    }
}

extension SQLSelection {
    /// The expression of a selection that `COUNT(DISTINCT ...)` can count:
    /// an expression, with or without alias.
    fileprivate var countedExpression: SQLExpression? {
        switch impl {
        case .expression(let expression), .aliased(let expression, _): return expression
        default: return nil
        }
    }
}
