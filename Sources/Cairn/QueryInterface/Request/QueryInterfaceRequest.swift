/// A request built in Swift, that fetches values of type `RowDecoder`.
///
/// Requests start from a record type or a ``Table``, and each method returns
/// a refined request:
///
/// ```swift
/// // SELECT * FROM "player" WHERE "score" > ? ORDER BY "score" DESC LIMIT 10
/// let request = Player
///     .filter(Column("score") > 1000)
///     .order(Column("score").desc)
///     .limit(10)
/// let players = try request.fetchAll(db)   // [Player]
/// ```
///
/// The generated SQL is deterministic, identifiers are quoted, and values are
/// always bound as statement arguments.
public struct QueryInterfaceRequest<RowDecoder>: FetchRequest, Sendable {
    var relation: SQLRelation

    init(relation: SQLRelation) {
        self.relation = relation
    }

    /// A request for all rows of a table, with the given default selection.
    init(tableName: String, selection: [SQLSelection]) {
        self.relation = SQLRelation(tableName: tableName, selection: selection)
    }

    private func mapRelation(_ transform: (inout SQLRelation) -> Void) -> Self {
        var request = self
        transform(&request.relation)
        return request
    }

    // MARK: Selection

    /// Replaces the selection.
    ///
    /// ```swift
    /// // SELECT "id", "name" FROM "player"
    /// let request = Player.select(Column("id"), Column("name"))
    /// ```
    public func select(_ selection: any SQLSelectable...) -> Self {
        select(selection)
    }

    /// Replaces the selection.
    public func select(_ selection: [any SQLSelectable]) -> Self {
        mapRelation {
            $0.selection = selection.map(\.sqlSelection)
            $0.hasCustomSelection = true
        }
    }

    /// Replaces the selection with raw SQL.
    ///
    /// ```swift
    /// let request = Player.select(sql: "id, name")
    /// ```
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        select(SQL(sql: sql, arguments: arguments))
    }

    /// Replaces the selection with an SQL literal.
    public func select(literal sqlLiteral: SQL) -> Self {
        select(sqlLiteral)
    }

    /// Replaces the selection, and the type of the fetched values.
    ///
    /// ```swift
    /// // SELECT MAX("score") FROM "player"
    /// let maxScore = try Player.select(max(Column("score")), as: Int.self).fetchOne(db)
    /// ```
    public func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(selection, as: type)
    }

    /// Replaces the selection, and the type of the fetched values.
    public func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        QueryInterfaceRequest<T>(relation: select(selection).relation)
    }

    /// Replaces the selection with raw SQL, and the type of the fetched
    /// values.
    public func select<T>(sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select([SQL(sql: sql, arguments: arguments)], as: type)
    }

    /// Appends to the selection.
    ///
    /// ```swift
    /// // SELECT *, ("score" + "bonus") AS "total" FROM "player"
    /// let request = Player.annotated(with: (Column("score") + Column("bonus")).forKey("total"))
    /// ```
    public func annotated(with selection: any SQLSelectable...) -> Self {
        annotated(with: selection)
    }

    /// Appends to the selection.
    public func annotated(with selection: [any SQLSelectable]) -> Self {
        mapRelation { $0.selection.append(contentsOf: selection.map(\.sqlSelection)) }
    }

    /// Makes the selection DISTINCT.
    public func distinct() -> Self {
        mapRelation { $0.isDistinct = true }
    }

    // MARK: Filtering

    /// Adds a condition, joined with AND to the existing ones.
    ///
    /// ```swift
    /// // SELECT * FROM "player" WHERE "score" > ? AND "name" IS NOT NULL
    /// let request = Player.filter(Column("score") > 1000).filter(Column("name") != nil)
    /// ```
    public func filter(_ predicate: some SQLExpressible) -> Self {
        let expression = predicate.sqlExpression
        return mapRelation { $0.filters.append { _ in expression } }
    }

    /// Adds a condition written in SQL.
    ///
    /// ```swift
    /// let request = Player.filter(sql: "score > ?", arguments: [1000])
    /// ```
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        filter(SQL(sql: sql, arguments: arguments))
    }

    /// Adds a condition written as an SQL literal.
    public func filter(literal sqlLiteral: SQL) -> Self {
        filter(sqlLiteral)
    }

    /// Adds a condition that needs the database to be built.
    func filter(_ promise: @escaping SQLRelation.Promise<SQLExpression>) -> Self {
        mapRelation { $0.filters.append(promise) }
    }

    /// Filters the rows of a full-text table that match a pattern:
    /// `WHERE "table" MATCH ?`. A nil pattern matches nothing.
    ///
    /// ```swift
    /// let documents = try Document.matching("sqlite database").fetchAll(db)
    /// ```
    public func matching(_ pattern: (some DatabaseValueConvertible)?) -> Self {
        guard let pattern else { return none() }
        let tableName = relation.alias ?? relation.tableName
        return filter(SQLExpression(impl: .binary("MATCH", .column(tableName), .value(pattern.databaseValue))))
    }

    /// A request that fetches nothing.
    public func none() -> Self {
        filter(SQLExpression.false)
    }

    // MARK: Ordering

    /// Replaces the ordering.
    ///
    /// ```swift
    /// // SELECT * FROM "player" ORDER BY "score" DESC, "name"
    /// let request = Player.order(Column("score").desc, Column("name"))
    /// ```
    public func order(_ orderings: any SQLOrderingTerm...) -> Self {
        order(orderings)
    }

    /// Replaces the ordering.
    public func order(_ orderings: [any SQLOrderingTerm]) -> Self {
        mapRelation {
            $0.ordering = orderings.map(\.sqlOrdering)
            $0.isReversed = false
        }
    }

    /// Replaces the ordering with raw SQL.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        order([SQL(sql: sql, arguments: arguments)])
    }

    /// Replaces the ordering with an SQL literal.
    public func order(literal sqlLiteral: SQL) -> Self {
        order([sqlLiteral])
    }

    /// Reverses the ordering. A request without ordering is sorted by
    /// primary key, descending.
    ///
    /// Orderings written in raw SQL cannot be reversed: they are kept as
    /// they are.
    public func reversed() -> Self {
        mapRelation { $0.isReversed.toggle() }
    }

    /// Removes the ordering.
    public func unordered() -> Self {
        mapRelation {
            $0.ordering = []
            $0.isReversed = false
        }
    }

    // MARK: Grouping

    /// Groups the rows: `GROUP BY ...`.
    ///
    /// ```swift
    /// // SELECT "teamId", MAX("score") FROM "player" GROUP BY "teamId"
    /// let request = Player.select(Column("teamId"), max(Column("score"))).group(Column("teamId"))
    /// ```
    public func group(_ expressions: any SQLExpressible...) -> Self {
        group(expressions)
    }

    /// Groups the rows: `GROUP BY ...`.
    public func group(_ expressions: [any SQLExpressible]) -> Self {
        let expressions = expressions.map(\.sqlExpression)
        return mapRelation { $0.groupExpressions = [{ _ in expressions }] }
    }

    /// Groups the rows with raw SQL.
    public func group(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        group([SQL(sql: sql, arguments: arguments)])
    }

    /// Adds a condition on groups: `HAVING ...`, joined with AND.
    public func having(_ predicate: some SQLExpressible) -> Self {
        let expression = predicate.sqlExpression
        return mapRelation { $0.havingExpressions.append(expression) }
    }

    /// Adds a condition on groups, written in SQL.
    public func having(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        having(SQL(sql: sql, arguments: arguments))
    }

    // MARK: Limit

    /// Limits the number of fetched rows: `LIMIT limit OFFSET offset`.
    public func limit(_ limit: Int, offset: Int? = nil) -> Self {
        mapRelation { $0.limit = (limit, offset) }
    }

    // MARK: Aliases

    /// Gives the table an alias, so that expressions can refer to it.
    ///
    /// ```swift
    /// let alias = TableAlias(name: "p")
    /// // SELECT "p".* FROM "player" "p" WHERE "p"."score" > ?
    /// let request = Player.aliased(alias).filter(alias[Column("score")] > 1000)
    /// ```
    public func aliased(_ alias: TableAlias) -> Self {
        alias.bind(to: relation.tableName)
        let name = alias.resolvedName
        return mapRelation { relation in
            relation.alias = name
            relation.selection = relation.selection.map { $0.qualified(with: name) }
        }
    }

    // MARK: FetchRequest

    /// The SQL of the request, as a subquery.
    public var sqlSubquery: SQLSubquery {
        let relation = self.relation
        return SQLSubquery { context in try relation.selectSQL(context) }
    }

    /// See ``FetchRequest/makePreparedRequest(_:forSingleResult:)``.
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws -> PreparedRequest {
        let context = SQLGenerationContext(db)
        let sql = try relation.selectSQL(context, singleResult: singleResult)
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(context.arguments)
        return PreparedRequest(statement: statement)
    }

    /// Returns the number of rows the request would fetch.
    ///
    /// ```swift
    /// let count = try Player.filter(Column("score") > 1000).fetchCount(db)
    /// // SELECT COUNT(*) FROM "player" WHERE "score" > ?
    /// ```
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchCount(_ db: Database) throws -> Int {
        let context = SQLGenerationContext(db)
        let sql = try relation.countSQL(context)
        let statement = try db.cachedStatement(sql: sql)
        return try Int.fetchOne(statement, arguments: context.arguments) ?? 0
    }

    // MARK: Batch updates

    /// Deletes the rows of the request.
    ///
    /// ```swift
    /// // DELETE FROM "player" WHERE "score" < ?
    /// try Player.filter(Column("score") < 100).deleteAll(db)
    /// ```
    ///
    /// - Returns: The number of deleted rows.
    /// - Throws: A ``DatabaseError``; deleting the rows of a request with
    ///   DISTINCT, GROUP BY or HAVING is an error.
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int {
        let context = SQLGenerationContext(db)
        let sql = try relation.deleteSQL(context)
        try db.execute(sql: sql, arguments: context.arguments)
        return db.changesCount
    }

    /// Updates the rows of the request.
    ///
    /// ```swift
    /// // UPDATE "player" SET "score" = "score" + ?, "isActive" = ? WHERE "teamId" = ?
    /// try Player
    ///     .filter(Column("teamId") == 1)
    ///     .updateAll(db, Column("score") += 10, Column("isActive").set(to: true))
    /// ```
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - conflictResolution: The conflict resolution of the UPDATE
    ///     statement; nil for none.
    ///   - assignments: The column assignments.
    /// - Returns: The number of updated rows.
    /// - Throws: A ``DatabaseError``.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: ColumnAssignment...) throws -> Int
    {
        try updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates the rows of the request: see
    /// ``updateAll(_:onConflict:_:)-(Database,Database.ConflictResolution?,ColumnAssignment...)``.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> Int
    {
        guard !assignments.isEmpty else { return 0 }
        let context = SQLGenerationContext(db)
        let sql = try relation.updateSQL(context, conflictResolution: conflictResolution, assignments: assignments)
        try db.execute(sql: sql, arguments: context.arguments)
        return db.changesCount
    }
}

// MARK: - Table aliases

/// A name for a table in a request, that lets expressions refer to its
/// columns unambiguously.
///
/// ```swift
/// let alias = TableAlias(name: "p")
/// let request = Player.aliased(alias).filter(alias[Column("score")] > 1000)
/// ```
///
/// An alias created without a name takes the name of the table of the
/// request it aliases.
public final class TableAlias: Sendable {
    private let state: Locked<String?>

    /// Creates an alias.
    ///
    /// - Parameter name: The name of the alias in the SQL; nil uses the name
    ///   of the table.
    public init(name: String? = nil) {
        state = Locked(name)
    }

    func bind(to tableName: String) {
        state.withLock { name in
            if name == nil { name = tableName }
        }
    }

    var resolvedName: String {
        state.load() ?? ""
    }

    /// A column of the aliased table: `"alias"."column"`.
    public subscript(_ column: some ColumnExpression) -> SQLExpression {
        let name = column.name
        return .literal(SQL(elements: [.deferred { [state] _ in
            guard let alias = state.load() else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE,
                    message: "a TableAlias without name is used before the request it aliases")
            }
            return alias.quotedDatabaseIdentifier + "." + name.quotedDatabaseIdentifier
        }]))
    }

    /// A column of the aliased table, by name.
    public subscript(_ columnName: String) -> SQLExpression {
        self[Column(columnName)]
    }

    /// All columns of the aliased table: `"alias".*`.
    public var allColumns: SQLSelection {
        SQLSelection(impl: .literal(SQL(elements: [.deferred { [state] _ in
            (state.load() ?? "").quotedDatabaseIdentifier + ".*"
        }])))
    }
}
