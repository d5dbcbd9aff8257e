/// The parts of a SELECT query built by the query interface, and their
/// rendering as SQL.
struct SQLRelation: Sendable {
    /// A part of the query that may need the database to be built (the
    /// primary key of a table, for instance).
    typealias Promise<T> = @Sendable (Database) throws -> T

    /// The table.
    var tableName: String

    /// The table alias, if any.
    var alias: String?

    /// The selection.
    var selection: [SQLSelection]

    /// Whether the selection was set by `select` (not the default one).
    var hasCustomSelection = false

    /// The conditions of the WHERE clause, joined with AND.
    var filters: [Promise<SQLExpression>] = []

    /// The ORDER BY terms.
    var ordering: [SQLOrdering] = []

    /// Whether the ordering is reversed.
    var isReversed = false

    /// The GROUP BY expressions.
    var groupExpressions: [Promise<[SQLExpression]>] = []

    /// The conditions of the HAVING clause, joined with AND.
    var havingExpressions: [SQLExpression] = []

    /// The LIMIT and OFFSET.
    var limit: (limit: Int, offset: Int?)?

    /// Whether the selection is DISTINCT.
    var isDistinct = false

    /// The name that qualifies the table in the query.
    var qualifier: String { alias ?? tableName }

    // MARK: Rendering

    /// Renders the SELECT query.
    ///
    /// - Parameters:
    ///   - context: The context that collects the arguments.
    ///   - singleResult: Whether to add `LIMIT 1` when there is no limit.
    ///   - selection: A selection that replaces the relation's own.
    func selectSQL(
        _ context: SQLGenerationContext,
        singleResult: Bool = false,
        selection: [SQLSelection]? = nil) throws -> String
    {
        let selection = selection ?? self.selection
        var sql = "SELECT "
        if isDistinct { sql += "DISTINCT " }
        sql += try selection.map { try $0.sql(context) }.joined(separator: ", ")
        sql += " FROM " + tableName.quotedDatabaseIdentifier
        if let alias, alias != tableName {
            sql += " " + alias.quotedDatabaseIdentifier
        }
        sql += try clausesSQL(context, singleResult: singleResult)
        return sql
    }

    /// Renders WHERE, GROUP BY, HAVING, ORDER BY and LIMIT.
    func clausesSQL(_ context: SQLGenerationContext, singleResult: Bool = false) throws -> String {
        var sql = ""
        if let whereSQL = try whereSQL(context) {
            sql += " WHERE " + whereSQL
        }
        let groups = try groupExpressions.flatMap { try $0(context.db) }
        if !groups.isEmpty {
            sql += " GROUP BY " + (try groups.map { try $0.sql(context) }.joined(separator: ", "))
        }
        if !havingExpressions.isEmpty {
            sql += " HAVING " + (try SQLExpression.associative(.and, havingExpressions).sql(context))
        }
        let orderings = try effectiveOrdering(context.db)
        if !orderings.isEmpty {
            sql += " ORDER BY " + (try orderings.map { try $0.sql(context) }.joined(separator: ", "))
        }
        if let limit {
            sql += " LIMIT \(limit.limit)"
            if let offset = limit.offset {
                sql += " OFFSET \(offset)"
            }
        } else if singleResult {
            sql += " LIMIT 1"
        }
        return sql
    }

    /// Renders the conditions of the WHERE clause, or nil when there is none.
    func whereSQL(_ context: SQLGenerationContext) throws -> String? {
        guard !filters.isEmpty else { return nil }
        let conditions = try filters.map { try $0(context.db) }
        return try SQLExpression.associative(.and, conditions).sql(context)
    }

    /// The ORDER BY terms, reversed when needed. A reversed request without
    /// ordering is sorted by primary key, descending.
    func effectiveOrdering(_ db: Database) throws -> [SQLOrdering] {
        guard isReversed else { return ordering }
        if ordering.isEmpty {
            let primaryKey = try db.primaryKey(tableName)
            return primaryKey.columns.map { name in
                let expression: SQLExpression = primaryKey.isRowID
                    ? SQLExpression(impl: .rowID(qualifier: alias))
                    : .column(name, qualifier: alias)
                return SQLOrdering(impl: .desc(expression))
            }
        }
        return ordering.map(\.reversed)
    }

    /// Whether the relation selects whole rows of its table, without
    /// grouping, distinct or limit: counting and deleting can then use the
    /// table directly.
    var isPlainTableRelation: Bool {
        !isDistinct && groupExpressions.isEmpty && havingExpressions.isEmpty && limit == nil
    }

    /// Renders `SELECT COUNT(*) ...` for the relation.
    func countSQL(_ context: SQLGenerationContext) throws -> String {
        if isPlainTableRelation {
            var relation = self
            relation.ordering = []
            relation.isReversed = false
            return try relation.selectSQL(context, selection: [SQLSelection(impl: .expression(SQLExpression(impl: .countAll)))])
        }
        if isDistinct, groupExpressions.isEmpty, havingExpressions.isEmpty, limit == nil,
           selection.count == 1, case .expression(let expression) = selection[0].impl
        {
            // SELECT COUNT(DISTINCT expr) FROM ...
            var relation = self
            relation.isDistinct = false
            relation.ordering = []
            relation.isReversed = false
            let count = SQLExpression.function("COUNT", [expression], isDistinct: true)
            return try relation.selectSQL(context, selection: [SQLSelection(impl: .expression(count))])
        }
        return "SELECT COUNT(*) FROM (" + (try selectSQL(context)) + ")"
    }
}
