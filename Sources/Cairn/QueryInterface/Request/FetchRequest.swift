/// A request that fetches values of type `RowDecoder`: rows, values or
/// records.
///
/// ``QueryInterfaceRequest`` and ``SQLRequest`` adopt it.
///
/// ```swift
/// let request = Player.filter(Column("score") > 1000)  // QueryInterfaceRequest<Player>
/// let players = try request.fetchAll(db)               // [Player]
/// let count = try request.fetchCount(db)               // Int
/// ```
public protocol FetchRequest<RowDecoder>: SQLSubqueryable, DatabaseRegionConvertible, Sendable {
    /// The type that decodes the fetched rows.
    associatedtype RowDecoder

    /// Returns the prepared statement of the request, with its arguments.
    ///
    /// ```swift
    /// let request = Player.filter(Column("name") == "O'Brien")
    /// let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
    /// print(statement.sql)        // SELECT * FROM "player" WHERE "name" = ?
    /// print(statement.arguments)  // ["O'Brien"]
    /// ```
    ///
    /// The statement of a query interface request comes from the
    /// connection's cache of implicit statements
    /// (``Configuration/implicitStatementCacheCapacity``), which releases its
    /// arguments once it has run: run it once, during the access that
    /// prepared it, and prepare the request again for another run.
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - singleResult: A hint that only one row is needed: query interface
    ///     requests then add `LIMIT 1`.
    /// - Throws: A ``DatabaseError`` when the request cannot be prepared.
    func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool) throws -> PreparedRequest

    /// Returns the number of rows the request would fetch.
    ///
    /// - Throws: A ``DatabaseError``.
    func fetchCount(_ db: Database) throws -> Int
}

extension FetchRequest {
    /// Counts the rows of the request with `SELECT COUNT(*) FROM (request)`.
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchCount(_ db: Database) throws -> Int {
        let literal = SQL(elements: [
            .sql("SELECT COUNT(*) FROM (", StatementArguments()),
            .deferred { context in try self.sqlSubquery.sql(context) },
            .sql(")", StatementArguments()),
        ])
        return try Int.fetchOne(db.cachedStatement(literal: literal, kind: .generated)) ?? 0
    }

    /// Whether the request fetches no row: `SELECT EXISTS (...)`.
    ///
    /// ```swift
    /// // SELECT EXISTS (SELECT * FROM "player" WHERE "score" > ?)
    /// let noBestPlayer = try Player.filter { $0.score > 1000 }.isEmpty(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError``.
    public func isEmpty(_ db: Database) throws -> Bool {
        let literal = SQL(elements: [
            .sql("SELECT EXISTS (", StatementArguments()),
            .deferred { context in try self.sqlSubquery.sql(context) },
            .sql(")", StatementArguments()),
        ])
        return try Bool.fetchOne(db.cachedStatement(literal: literal, kind: .generated)) != true
    }
}

/// The prepared statement of a request, and the adapter of its rows.
public struct PreparedRequest {
    /// The statement, with its arguments set.
    public var statement: Statement

    /// The adapter of the fetched rows, if any.
    public var adapter: (any RowAdapter)?

    /// Fetches the rows that `including(all:)` prefetches, and attaches them
    /// to the fetched rows; nil when the request prefetches nothing.
    @usableFromInline var supplementaryFetch: ((_ db: Database, _ rows: [Row]) throws -> Void)?

    /// Same as ``supplementaryFetch``, with an observer of the prefetch
    /// queries (support for `Database.dumpRequest(_:format:to:)`).
    var observedSupplementaryFetch: ((_ db: Database, _ rows: [Row], _ observer: PrefetchObserver) throws -> Void)?

    /// Creates a prepared request.
    public init(statement: Statement, adapter: (any RowAdapter)? = nil) {
        self.statement = statement
        self.adapter = adapter
    }
}

// MARK: - Subqueries

/// A type that can be embedded in SQL as a subquery: requests.
///
/// A subquery is also an expression, the value of its first row and
/// column: `Column("score") == maximumScoreRequest`.
public protocol SQLSubqueryable: SQLSpecificExpressible {
    /// The subquery.
    var sqlSubquery: SQLSubquery { get }
}

/// A subquery: the SQL of a request, rendered inside another request or
/// SQL literal.
///
/// ```swift
/// let maximumScore = Player.select(max(Column("score")))
/// // SELECT * FROM "player" WHERE "score" = (SELECT MAX("score") FROM "player")
/// let bestPlayers = Player.filter(Column("score") == maximumScore)
/// ```
public struct SQLSubquery: SQLSubqueryable, SQLSpecificExpressible, Sendable {
    let render: @Sendable (SQLGenerationContext) throws -> String

    init(render: @escaping @Sendable (SQLGenerationContext) throws -> String) {
        // A subquery does not qualify its columns with the tables of the
        // request that embeds it, and its WITH clause is its own.
        self.render = { context in
            let definedCTENames = context.definedCTENames
            context.definedCTENames = []
            defer { context.definedCTENames = definedCTENames }
            return try context.withDefaultQualifier(nil) { try render(context) }
        }
    }

    /// The subquery itself.
    public var sqlSubquery: SQLSubquery { self }

    /// The subquery as a scalar expression: `(SELECT ...)`.
    public var sqlExpression: SQLExpression {
        SQLExpression(impl: .parenthesized(.literal(SQL(elements: [.deferred(render)]))))
    }

    /// Renders the SQL of the subquery.
    func sql(_ context: SQLGenerationContext) throws -> String {
        try render(context)
    }

    /// Whether the expression is one of the values of the subquery:
    /// `expression IN (SELECT ...)`.
    public func contains(_ element: some SQLExpressible) -> SQLExpression {
        let render = self.render
        let element = element.sqlExpression
        return .literal(SQL(elements: [.deferred { context in
            // The element is an operand: an operation, a collated value
            // included, is parenthesized (`(? COLLATE NOCASE) IN (...)`).
            (try element.sql(context, parentPrecedence: SQLExpression.operationOperandPrecedence))
                + " IN (" + (try render(context)) + ")"
        }]))
    }

    /// `EXISTS (SELECT ...)`.
    public func exists() -> SQLExpression {
        let render = self.render
        // An operator, so that `!request.exists()` is `NOT EXISTS (…)`.
        let subquery = SQLExpression.literal(SQL(elements: [.deferred { context in try render(context) }]))
        return SQLExpression(impl: .unary("EXISTS", SQLExpression(impl: .parenthesized(subquery)), needsSpace: true))
    }
}

extension SQLSubqueryable {
    /// The subquery, as a scalar expression: `(SELECT ...)`.
    public var sqlExpression: SQLExpression {
        sqlSubquery.sqlExpression
    }

    /// Whether the expression is one of the values of the subquery:
    /// `expression IN (SELECT ...)`.
    ///
    /// ```swift
    /// // "id" IN (SELECT "playerId" FROM "award")
    /// let awarded = Table("award").select(Column("playerId")).contains(Column("id"))
    /// ```
    public func contains(_ element: some SQLExpressible) -> SQLExpression {
        sqlSubquery.contains(element)
    }

    /// `EXISTS (SELECT ...)`.
    public func exists() -> SQLExpression {
        sqlSubquery.exists()
    }
}

// MARK: - Region

extension FetchRequest {
    /// The region that the request reads: the tables and columns its
    /// statement reads, as SQLite's authorizer reports them.
    ///
    /// - Throws: A ``DatabaseError`` when the request cannot be prepared.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try makePreparedRequest(db, forSingleResult: false).statement.databaseRegion
    }
}
