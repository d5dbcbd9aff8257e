/// The parts of a SELECT query built by the query interface, and their
/// rendering as SQL.
///
/// A relation may join other relations, its children, keyed by association
/// key (see ``Association``). Each child is joined, included (its columns
/// are selected in a scope of the fetched rows), used as an annotation (its
/// columns are appended to the selection), or prefetched with an extra
/// query (`including(all:)`).
struct SQLRelation: Sendable {
    /// A part of the query that may need the database to be built (the
    /// primary key of a table, for instance).
    typealias Promise<T> = @Sendable (Database) throws -> T

    /// The table.
    var tableName: String

    /// The alias given by the user, if any.
    var alias: AliasIdentity?

    /// The selection.
    var selection: [SQLSelection]

    /// Whether the selection was set by `select` (not the default one).
    var hasCustomSelection = false

    /// The conditions of the WHERE clause (or of the ON clause of a joined
    /// relation), joined with AND.
    var filters: [Promise<SQLExpression>] = []

    /// The ORDER BY terms.
    var ordering: [SQLOrdering] = []

    /// Whether the relation is sorted by primary key (`orderByPrimaryKey()`),
    /// instead of ``ordering``.
    var ordersByPrimaryKey = false

    /// Whether the ordering is reversed.
    var isReversed = false

    /// Whether the ordering ends with terms that make it total
    /// (`withStableOrder()`): the primary key of each table of the request,
    /// or the columns of views and common table expressions.
    var hasStableOrder = false

    /// `withStableOrder()`: the relation, and its children at any depth,
    /// end their ordering with terms that make it total, so that the rows
    /// that `including(all:)` prefetches come in a stable order too, as
    /// GRDB orders them. Children added afterwards keep their own order.
    mutating func makeOrderStable() {
        hasStableOrder = true
        for index in children.indices {
            children[index].relation.makeOrderStable()
        }
    }

    /// Whether a filter selects one primary key or unique key: the
    /// relation has at most one row, and a request for one row needs no
    /// `LIMIT 1`.
    var isFilteredByUniqueKey = false

    /// The GROUP BY expressions.
    var groupExpressions: [Promise<[SQLExpression]>] = []

    /// Whether the relation is grouped by primary key when it has no
    /// other grouping: association aggregates need it.
    var groupsByPrimaryKey = false

    /// The conditions of the HAVING clause, joined with AND.
    var havingExpressions: [SQLExpression] = []

    /// The LIMIT and OFFSET.
    var limit: (limit: Int, offset: Int?)?

    /// Whether the selection is DISTINCT.
    var isDistinct = false

    /// The joined relations, in the order they were added. Keys are
    /// unique: a relation joined again under the same key is merged.
    var children: [Child] = []

    /// Whether the relation is known to select no row (`none()`): its
    /// region is empty.
    var selectsNothing = false

    /// The common table expressions that the relation embeds (see
    /// `commonTableExpressions` for those of the whole request).
    var ctes: [CTEDefinition] = []

    /// A mistake found while the relation was built (two different tables
    /// under one association key, for instance), thrown when it renders.
    var buildError: String?

    init(tableName: String, selection: [SQLSelection]) {
        self.tableName = tableName
        self.selection = selection
    }

    // MARK: Children

    /// A relation joined to its parent.
    struct Child: Sendable {
        /// How the child is joined.
        enum Kind: Sendable {
            /// `JOIN`: rows without a match are excluded.
            case required
            /// `LEFT JOIN`: rows without a match have NULL columns.
            case optional
            /// Fetched by an extra query, and attached to the rows as
            /// prefetched rows (`including(all:)`).
            case prefetch
        }

        /// What the child selects.
        enum Mode: Sendable, Comparable {
            /// Nothing (`joining`).
            case join
            /// Its columns, appended to the columns of the parent
            /// (`annotated(withRequired:)`).
            case annotation
            /// Its columns, in a scope of the fetched rows (`including`).
            case scope
        }

        /// The association key.
        var key: String
        var kind: Kind
        var mode: Mode
        /// How the child table matches its parent.
        var condition: JoinCondition
        var relation: SQLRelation
        /// For a prefetched child: the steps of its association, from the
        /// parent (see `SQLRelation.prefetch`).
        var prefetchSteps: [AssociationStep]? = nil
        /// For an annotation: when it was added to the request. The
        /// columns of annotations follow the order of the calls to
        /// `annotated(withRequired:)` and `annotated(withOptional:)`, not
        /// the order of the joins.
        var annotationRank: Int? = nil
    }

    /// The ranks of annotations, increasing with each call.
    private static let annotationRanks = Locked(0)

    /// A new annotation rank, greater than all previous ones.
    static func nextAnnotationRank() -> Int {
        annotationRanks.withLock { rank in
            rank += 1
            return rank
        }
    }

    /// Adds a child, or merges it with the child of the same key: required
    /// wins over optional, including over joining, all filters apply, and
    /// the last ordering and selection win.
    mutating func add(_ child: Child) {
        guard let index = children.firstIndex(where: { $0.key == child.key }) else {
            children.append(child)
            return
        }
        var existing = children[index]
        guard existing.condition.identity == child.condition.identity else {
            buildError = "the association key \"\(child.key)\" is used by two associations that do not join "
                + "the same way (\(existing.condition.identity), and \(child.condition.identity)): "
                + "give one of them another key with forKey(_:)"
            return
        }
        guard existing.relation.tableName == child.relation.tableName else {
            buildError = "the association key \"\(child.key)\" is used for two different tables, "
                + "\"\(existing.relation.tableName)\" and \"\(child.relation.tableName)\": "
                + "give one of the associations another key with forKey(_:)"
            return
        }
        if (existing.kind == .prefetch) != (child.kind == .prefetch) {
            buildError = "the association key \"\(child.key)\" is used both with including(all:) and "
                + "with another joining method: give one of the associations another key with forKey(_:)"
            return
        }
        if child.kind == .required { existing.kind = .required }
        if existing.mode != .annotation && child.mode == .annotation {
            existing.annotationRank = child.annotationRank
        }
        existing.mode = max(existing.mode, child.mode)
        if child.condition.isCustom {
            // Conditions written by the user (associations to common table
            // expressions): the last one wins.
            existing.condition = child.condition
        }
        // The selection of a joined table that is not included does not
        // count: the last included one wins.
        existing.relation.merge(child.relation, takesSelection: child.mode != .join)
        children[index] = existing
    }

    /// Merges the refinements of another relation of the same table.
    ///
    /// - Parameter takesSelection: Whether the selection of `other`
    ///   replaces this one.
    mutating func merge(_ other: SQLRelation, takesSelection: Bool) {
        if other.hasGroupRefinements {
            buildError = buildError ?? "an association refined with limit, distinct, group, having or an aggregate "
                + "cannot be merged with another one of the same key: give it another key with forKey(_:)"
        }
        filters.append(contentsOf: other.filters)
        selectsNothing = selectsNothing || other.selectsNothing
        hasStableOrder = hasStableOrder || other.hasStableOrder
        isFilteredByUniqueKey = isFilteredByUniqueKey || other.isFilteredByUniqueKey
        for cte in other.ctes {
            addCTE(cte)
        }
        if takesSelection {
            // The last selection wins, the default one included.
            selection = other.selection
            hasCustomSelection = other.hasCustomSelection
        }
        if !other.ordering.isEmpty || other.ordersByPrimaryKey {
            ordering = other.ordering
            ordersByPrimaryKey = other.ordersByPrimaryKey
            isReversed = other.isReversed
        }
        if alias == nil { alias = other.alias }
        if let otherAlias = other.alias, let alias, otherAlias.resolved !== alias.resolved {
            // Both aliases name this table. An alias with a name wins over
            // an alias without one, which then takes its name.
            if alias.userName == nil && otherAlias.userName != nil {
                alias.redirect(to: otherAlias)
                self.alias = otherAlias
            } else {
                otherAlias.redirect(to: alias)
            }
        }
        if buildError == nil { buildError = other.buildError }
        for child in other.children {
            add(child)
        }
    }

    /// Whether the relation has a limit, DISTINCT, grouping or HAVING: the
    /// refinements that only a query of its own (`including(all:)`) can
    /// apply to an association.
    var hasGroupRefinements: Bool {
        limit != nil || isDistinct || !groupExpressions.isEmpty || groupsByPrimaryKey || !havingExpressions.isEmpty
    }

    /// Removes the ordering of the relation and of its children, at any
    /// depth (`unordered()`). The stable order stays.
    mutating func removeOrdering() {
        ordering = []
        ordersByPrimaryKey = false
        isReversed = false
        for index in children.indices {
            children[index].relation.removeOrdering()
        }
    }

    /// Whether a child, at any depth, is prefetched.
    var hasPrefetchedChildren: Bool {
        children.contains { $0.kind == .prefetch || $0.relation.hasPrefetchedChildren }
    }

    // MARK: Rendering

    /// Renders the SELECT query.
    ///
    /// - Parameters:
    ///   - context: The context that collects the arguments.
    ///   - singleResult: Whether to add `LIMIT 1` when there is no limit.
    ///   - selection: A selection that replaces the relation's own, and
    ///     the columns of its children.
    ///   - extraSelection: Columns appended to the selection, unqualified
    ///     (prefetch queries append the columns that match rows with their
    ///     parent).
    ///   - includesWith: Whether the query starts with the `WITH` clause of
    ///     its common table expressions.
    func selectSQL(
        _ context: SQLGenerationContext,
        singleResult: Bool = false,
        selection: [SQLSelection]? = nil,
        extraSelection: [SQLSelection] = [],
        includesWith: Bool = true) throws -> String
    {
        let query = try ResolvedQuery(self, context)
        return try query.selectSQL(
            singleResult: singleResult, selection: selection, extraSelection: extraSelection, includesWith: includesWith)
    }

    /// Renders the conditions of the WHERE clause, or nil when there is none.
    func whereSQL(_ context: SQLGenerationContext) throws -> String? {
        guard !filters.isEmpty else { return nil }
        let conditions = try filters.map { try $0(context.db) }
        return try SQLExpression.associative(.and, conditions).sql(context)
    }

    /// The ORDER BY terms of this relation only, as written (not reversed).
    func orderingTerms(_ db: Database) throws -> [SQLOrdering] {
        guard ordersByPrimaryKey else { return ordering }
        return try SQLSelection.primaryKeyExpressions(db, tableName: tableName).map { SQLOrdering(impl: .expression($0)) }
    }

    /// Whether the relation selects whole rows of its table, without
    /// grouping, distinct, limit or joins: counting and deleting can then
    /// use the table directly.
    var isPlainTableRelation: Bool {
        !hasGroupRefinements && children.allSatisfy { $0.kind == .prefetch }
    }
}

extension SQLRelation {
    /// A qualified column; `rowid` is the hidden row id.
    static func column(_ name: String, qualifier: String?) -> SQLExpression {
        if name.equalsIgnoringASCIICase("rowid") {
            return SQLExpression(impl: .rowID(qualifier: qualifier))
        }
        return .column(name, qualifier: qualifier)
    }
}

// MARK: - Resolved query

/// A relation and its joined children, with the name of each table in the
/// query: the table name, or a numbered name when the table is joined
/// several times (`"person1"`, `"person2"`), or the name of a table alias.
struct ResolvedQuery {
    /// A table of the query.
    struct Node {
        var relation: SQLRelation
        /// The keys from the root (empty for the root).
        var path: [String]
        /// The name that qualifies the columns of the table.
        var name: String
        /// Nil for the root.
        var child: SQLRelation.Child?
        /// The index of the parent node (nil for the root).
        var parentIndex: Int?
        /// Whether the join, or the join of an ancestor, is optional.
        var isBehindOptional: Bool
    }

    let context: SQLGenerationContext
    /// The root first, then the joined tables depth-first.
    private(set) var nodes: [Node] = []

    /// The key of a joined association refined with a limit, DISTINCT,
    /// GROUP BY or HAVING, which only `including(all:)` supports.
    private var unsupportedJoin: String?

    init(_ relation: SQLRelation, _ context: SQLGenerationContext) throws {
        self.context = context
        if let buildError = relation.buildError {
            throw context.db.makeError(resultCode: .SQLITE_MISUSE, message: buildError, sql: nil, arguments: nil)
        }
        collect(relation, path: [], child: nil, parentIndex: nil, isBehindOptional: false)
        if let unsupportedJoin {
            throw context.db.makeError(
                resultCode: .SQLITE_MISUSE,
                message: "the association \"\(unsupportedJoin)\" is refined with limit, distinct, group, having "
                    + "or an aggregate: it can only be used with including(all:)",
                sql: nil, arguments: nil)
        }
        try resolveNames()
    }

    private mutating func collect(_ relation: SQLRelation, path: [String], child: SQLRelation.Child?, parentIndex: Int?, isBehindOptional: Bool) {
        let index = nodes.count
        nodes.append(Node(relation: relation, path: path, name: relation.tableName, child: child,
                          parentIndex: parentIndex, isBehindOptional: isBehindOptional))
        for child in relation.children where child.kind != .prefetch {
            if child.relation.hasGroupRefinements {
                unsupportedJoin = child.key
            }
            collect(child.relation, path: path + [child.key], child: child, parentIndex: index,
                    isBehindOptional: isBehindOptional || child.kind == .optional)
        }
    }

    /// Names the tables: aliases with a name keep it, tables that appear
    /// once keep their name, the others are numbered.
    private mutating func resolveNames() throws {
        var used = Set<String>()
        for node in nodes {
            if let name = node.relation.alias?.userName {
                guard used.insert(name.lowercased()).inserted else {
                    throw context.db.makeError(
                        resultCode: .SQLITE_MISUSE,
                        message: "the table alias \"\(name)\" names two tables of the request",
                        sql: nil, arguments: nil)
                }
            }
        }
        var counts: [String: Int] = [:]
        for node in nodes where node.relation.alias?.userName == nil {
            counts[node.relation.tableName.lowercased(), default: 0] += 1
        }
        var numbers: [String: Int] = [:]
        var aliasedNodeNames = Set<String>()
        for index in nodes.indices {
            let relation = nodes[index].relation
            if let name = relation.alias?.userName {
                nodes[index].name = name
            } else {
                let table = relation.tableName
                let key = table.lowercased()
                if counts[key] == 1 && !used.contains(key) {
                    nodes[index].name = table
                    used.insert(key)
                } else {
                    var number = numbers[key, default: 0]
                    var name: String
                    repeat {
                        number += 1
                        name = table + String(number)
                    } while used.contains(name.lowercased())
                    numbers[key] = number
                    used.insert(name.lowercased())
                    nodes[index].name = name
                }
            }
            if let alias = relation.alias {
                alias.bind(to: relation.tableName)
                let key = ObjectIdentifier(alias.resolved)
                if let name = context.aliasNames[key], aliasedNodeNames.contains(name) {
                    throw context.db.makeError(
                        resultCode: .SQLITE_MISUSE,
                        message: "a TableAlias names two tables of the request (\"\(name)\" and \"\(nodes[index].name)\"): "
                            + "use one alias per table",
                        sql: nil, arguments: nil)
                }
                context.aliasNames[key] = nodes[index].name
                aliasedNodeNames.insert(nodes[index].name)
                if !qualifiesColumns {
                    context.unqualifiedAliases.insert(key)
                }
            }
        }
    }

    /// Whether columns must be qualified: the query joins tables, or the
    /// root has an alias with a name.
    var qualifiesColumns: Bool {
        nodes.count > 1 || nodes[0].relation.alias?.userName != nil
    }

    var root: Node { nodes[0] }

    /// Runs `body` with the default qualifier of a node, and the names of
    /// its joined children, for association aggregates.
    func withNode<T>(_ index: Int, _ body: () throws -> T) throws -> T {
        let qualifier = qualifiesColumns ? nodes[index].name : nil
        let savedNames = context.joinedTableNames
        var names: [String: String] = [:]
        let prefix = nodes[index].path
        for node in nodes where node.path.count > prefix.count && Array(node.path.prefix(prefix.count)) == prefix {
            names[node.path.dropFirst(prefix.count).joined(separator: SQLGenerationContext.joinedTablePathSeparator)] = node.name
        }
        context.joinedTableNames = names
        let savedTableName = context.currentTableName
        context.currentTableName = nodes[index].relation.tableName
        defer {
            context.joinedTableNames = savedNames
            context.currentTableName = savedTableName
        }
        return try context.withDefaultQualifier(qualifier, body)
    }

    /// The root, then the annotations in the order they were added.
    var rootAndAnnotationIndexes: [Int] {
        let annotations = nodes.indices.filter { nodes[$0].child?.mode == .annotation }
            .sorted { (nodes[$0].child?.annotationRank ?? .max, $0) < (nodes[$1].child?.annotationRank ?? .max, $1) }
        return [0] + annotations
    }

    /// The selected columns of each node: those of the root, its
    /// annotations and the extra columns first, then the scopes,
    /// depth-first.
    func selectionSQL(extraSelection: [SQLSelection]) throws -> [String] {
        var parts: [String] = []
        for index in rootAndAnnotationIndexes {
            parts += try withNode(index) { try nodes[index].relation.selection.map { try $0.sql(context) } }
        }
        parts += try withNode(0) { try extraSelection.map { try $0.sql(context) } }
        for index in nodes.indices where nodes[index].child?.mode == .scope {
            parts += try withNode(index) { try nodes[index].relation.selection.map { try $0.sql(context) } }
        }
        return parts
    }

    /// Renders the query.
    ///
    /// - Parameter includesWith: Whether the query starts with the `WITH`
    ///   clause of its common table expressions; false for a subquery of
    ///   a statement that renders them itself.
    func selectSQL(singleResult: Bool, selection: [SQLSelection]?, extraSelection: [SQLSelection], includesWith: Bool = true) throws -> String {
        let relation = root.relation
        // The WITH clause first: its arguments come first.
        var sql = includesWith ? try relation.withSQL(context) : ""
        sql += "SELECT "
        if relation.isDistinct { sql += "DISTINCT " }
        let parts: [String]
        if let selection {
            parts = try withNode(0) { try (selection + extraSelection).map { try $0.sql(context) } }
        } else {
            parts = try selectionSQL(extraSelection: extraSelection)
        }
        sql += parts.joined(separator: ", ")
        sql += " FROM " + (try fromSQL())
        sql += try clausesSQL(singleResult: singleResult)
        return sql
    }

    /// The table and its joins.
    func fromSQL() throws -> String {
        var sql = tableSQL(nodes[0])
        for index in nodes.indices.dropFirst() {
            let node = nodes[index]
            let child = node.child!
            let parent = nodes[node.parentIndex!]
            if child.kind == .required && parent.isBehindOptional {
                throw context.db.makeError(
                    resultCode: .SQLITE_MISUSE,
                    message: "not implemented: chaining a required association behind an optional association "
                        + "(\"\(child.key)\" is required, and joined to the optional \"\(parent.path.last ?? "")\")",
                    sql: nil, arguments: nil)
            }
            sql += child.kind == .required ? " JOIN " : " LEFT JOIN "
            sql += tableSQL(node)
            var conditions = try child.condition.expression(context.db, joinedName: node.name, parentName: parent.name)
                .map { [$0] } ?? []
            conditions += try node.relation.filters.map { try $0(context.db) }
            // An association to a common table expression may have no
            // condition at all: `JOIN "cte"`.
            guard !conditions.isEmpty else { continue }
            let on = SQLExpression.associative(.and, conditions)
            sql += " ON " + (try withNode(index) { try on.sql(context) })
        }
        return sql
    }

    private func tableSQL(_ node: Node) -> String {
        var sql = node.relation.tableName.quotedDatabaseIdentifier
        if node.name != node.relation.tableName {
            sql += " " + node.name.quotedDatabaseIdentifier
        }
        return sql
    }

    /// Renders WHERE, GROUP BY, HAVING, ORDER BY and LIMIT.
    func clausesSQL(singleResult: Bool) throws -> String {
        let relation = root.relation
        var sql = ""
        if let whereSQL = try withNode(0, { try relation.whereSQL(context) }) {
            sql += " WHERE " + whereSQL
        }
        var groups = try relation.groupExpressions.flatMap { try $0(context.db) }
        if groups.isEmpty && relation.groupsByPrimaryKey {
            groups = try SQLSelection.primaryKeyExpressions(context.db, tableName: relation.tableName)
        }
        if !groups.isEmpty {
            sql += " GROUP BY " + (try withNode(0) { try groups.map { try $0.sql(context) }.joined(separator: ", ") })
        }
        if !relation.havingExpressions.isEmpty {
            sql += " HAVING " + (try withNode(0) {
                try SQLExpression.associative(.and, relation.havingExpressions).sql(context)
            })
        }
        var orderings: [String] = []
        // Reversing reverses the terms of each table; a table without
        // ordering stays unordered.
        for index in nodes.indices {
            let nodeRelation = nodes[index].relation
            var terms = try nodeRelation.orderingTerms(context.db)
            if relation.hasStableOrder || nodeRelation.hasStableOrder {
                if !nodeRelation.ordersByPrimaryKey {
                    terms += try stableOrderTerms(ofNode: index)
                }
            }
            // A table's terms are reversed when the table, or its joining
            // tables, were reversed an odd number of times in all.
            var isReversed = false
            var current: Int? = index
            while let nodeIndex = current {
                if nodes[nodeIndex].relation.isReversed { isReversed.toggle() }
                current = nodes[nodeIndex].parentIndex
            }
            if isReversed {
                terms = terms.map(\.reversed)
            }
            orderings += try withNode(index) { try terms.map { try $0.sql(context) } }
        }
        if !orderings.isEmpty {
            sql += " ORDER BY " + orderings.joined(separator: ", ")
        }
        if let limit = relation.limit {
            sql += " LIMIT \(limit.limit)"
            if let offset = limit.offset {
                sql += " OFFSET \(offset)"
            }
        } else if singleResult {
            // A lookup by key has one row at most, unless joins multiply it.
            var hasOneRowAtMost = nodes.count == 1 && !relation.hasGroupRefinements
            if hasOneRowAtMost && !relation.isFilteredByUniqueKey {
                hasOneRowAtMost = try relation.filtersUniqueKey(context.db)
            }
            // An aggregate without GROUP BY has exactly one row.
            if !hasOneRowAtMost {
                hasOneRowAtMost = try relation.isUngroupedAggregate(context.db)
            }
            if !hasOneRowAtMost {
                sql += " LIMIT 1"
            }
        }
        return sql
    }

    /// The terms that `withStableOrder()` appends for a table of the
    /// request: its primary key (`rowid` for a table without explicit
    /// primary key). A view is sorted by the primary key that
    /// ``Configuration/schemaSource`` gives it. Other views and common table
    /// expressions have no primary key: the request is sorted by all their
    /// columns, by position for the table of the request (`ORDER BY 1, 2,
    /// 3`), by name for a joined one.
    private func stableOrderTerms(ofNode index: Int) throws -> [SQLOrdering] {
        let nodeRelation = nodes[index].relation
        let tableName = nodeRelation.tableName
        let ctes = root.relation.commonTableExpressions
        let cteColumns = try CTEDefinition.columnNames(of: tableName, among: ctes, context.db)
        if cteColumns == nil {
            if try !context.db.viewExists(tableName) {
                return try SQLSelection.primaryKeyExpressions(context.db, tableName: tableName)
                    .map { SQLOrdering(impl: .expression($0)) }
            }
            if let columns = try context.db.schemaSourcePrimaryKey(ofView: tableName) {
                return columns.map { SQLOrdering(impl: .expression(.column($0))) }
            }
        }
        if index == 0 {
            var count = 0
            for selection in nodeRelation.selection {
                // A literal selection has an unknown number of columns:
                // sort by the columns of the table instead.
                guard let selectionCount = try selection.columnCount(context.db, tableName: tableName, ctes: ctes) else {
                    count = -1
                    break
                }
                count += selectionCount
            }
            if count >= 0 {
                return (0..<count).map { SQLOrdering(impl: .expression(SQLExpression(impl: .literal(SQL(sql: "\($0 + 1)"))))) }
            }
        }
        let columns = try cteColumns ?? context.db.selectedColumnNames(in: tableName)
        return columns.map { SQLOrdering(impl: .expression(.column($0))) }
    }

    // MARK: Row adapter

    /// The adapter that splits the fetched rows into the scopes of the
    /// included tables; nil when the request includes none.
    ///
    /// - Parameter columnCount: The number of columns of the statement.
    /// - Parameter extraColumnCount: The number of columns appended to the
    ///   selection of the root (see `selectSQL`).
    func rowAdapter(columnCount: Int, extraColumnCount: Int = 0) throws -> (any RowAdapter)? {
        guard nodes.contains(where: { $0.child?.mode == .scope }) else { return nil }
        // The number of columns of each node's selection.
        let ctes = root.relation.commonTableExpressions
        var counts: [Int?] = []
        for node in nodes {
            guard node.parentIndex == nil || node.child!.mode != .join else {
                counts.append(0)
                continue
            }
            var count: Int? = 0
            for selection in node.relation.selection {
                guard let selectionCount = try selection.columnCount(context.db, tableName: node.relation.tableName, ctes: ctes) else {
                    count = nil
                    break
                }
                count! += selectionCount
            }
            counts.append(count)
        }
        let unknown = counts.indices.filter { counts[$0] == nil }
        if unknown.count == 1 {
            counts[unknown[0]] = columnCount - extraColumnCount - counts.compactMap { $0 }.reduce(0, +)
        } else if unknown.count > 1 {
            throw context.db.makeError(
                resultCode: .SQLITE_MISUSE,
                message: "cannot split the columns of a joined request whose selections are written in raw SQL: "
                    + "select columns with Column(...) in the associations, or use one raw SQL selection at most",
                sql: nil, arguments: nil)
        }
        // Root and annotations first, then scopes (see selectionSQL).
        var ranges = [Range<Int>?](repeating: nil, count: nodes.count)
        var start = 0
        var rootCount = extraColumnCount
        for index in rootAndAnnotationIndexes {
            rootCount += counts[index]!
        }
        start = rootCount
        for index in nodes.indices where nodes[index].child?.mode == .scope {
            guard counts[index]! >= 0 else {
                throw context.db.makeError(
                    resultCode: .SQLITE_MISUSE,
                    message: "the columns of the joined request do not match its selections",
                    sql: nil, arguments: nil)
            }
            ranges[index] = start..<(start + counts[index]!)
            start += counts[index]!
        }
        func layout(_ index: Int) -> ScopeLayoutNode {
            var scopes: [String: ScopeLayoutNode] = [:]
            for childIndex in nodes.indices where nodes[childIndex].parentIndex == index {
                let child = nodes[childIndex].child!
                guard child.mode != .annotation else { continue }
                let childLayout = layout(childIndex)
                // A joined table appears as an empty scope when it leads to
                // included tables.
                if child.mode == .scope || !childLayout.scopes.isEmpty {
                    scopes[child.key] = childLayout
                }
            }
            return ScopeLayoutNode(range: index == 0 ? 0..<rootCount : (ranges[index] ?? 0..<0), scopes: scopes)
        }
        let tree = layout(0)
        return tree.adapter
    }
}

/// The columns of a table of a joined request, and the scopes of its joined
/// tables.
struct ScopeLayoutNode {
    var range: Range<Int>
    var scopes: [String: ScopeLayoutNode]

    var adapter: any RowAdapter {
        ScopeAdapter(base: RangeRowAdapter(range), scopes: scopes.mapValues { $0.adapter })
    }
}

extension SQLSelection {
    /// The number of columns of the selection, or nil when it is written in
    /// raw SQL.
    ///
    /// - Parameter ctes: The common table expressions of the request: a
    ///   table of this name is one of them, not a table of the database.
    func columnCount(_ db: Database, tableName: String, ctes: [CTEDefinition]) throws -> Int? {
        switch impl {
        case .allColumns:
            if let names = try CTEDefinition.columnNames(of: tableName, among: ctes, db) { return names.count }
            return try db.selectedColumnCount(in: tableName)
        case .allColumnsExcluding(let excluded):
            let names = try CTEDefinition.columnNames(of: tableName, among: ctes, db) ?? db.selectedColumnNames(in: tableName)
            return names.filter { !excluded.contains($0.lowercased()) }.count
        case .expression, .aliased:
            return 1
        case .literal:
            return nil
        case .primaryKey:
            return try db.primaryKey(tableName).columns.count
        case .deferred(let selections):
            var count = 0
            for selection in try selections(db) {
                guard let selectionCount = try selection.columnCount(db, tableName: tableName, ctes: ctes) else {
                    return nil
                }
                count += selectionCount
            }
            return count
        }
    }
}
