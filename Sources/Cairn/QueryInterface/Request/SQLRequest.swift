/// A request written in SQL, that fetches values of type `RowDecoder`.
///
/// ```swift
/// let request: SQLRequest<Player> = "SELECT * FROM player WHERE score > \(1000)"
/// let players = try request.fetchAll(db)
///
/// let request = SQLRequest<Int>(sql: "SELECT COUNT(*) FROM player")
/// let count = try request.fetchOne(db)
/// ```
///
/// With SQL interpolation, values become statement arguments; records,
/// columns, expressions and requests can be interpolated too:
///
/// ```swift
/// let request: SQLRequest<Player> = """
///     SELECT \(columnsOf: Player.self)
///     FROM \(Player.self)
///     WHERE \(Column("score")) > \(1000)
///     """
/// ```
public struct SQLRequest<RowDecoder>: FetchRequest, Sendable {
    /// The SQL literal of the request.
    public var sqlLiteral: SQL

    /// The adapter of the fetched rows, if any.
    public var adapter: (any RowAdapter)?

    /// Whether the statement is cached.
    var isCached: Bool

    /// Creates a request from SQL and arguments.
    ///
    /// - Parameters:
    ///   - sql: An SQL query.
    ///   - arguments: The statement arguments.
    ///   - adapter: The adapter of the fetched rows.
    ///   - cached: Whether the statement comes from the cache of
    ///     ``Database/cachedStatement(sql:)`` (default false: each prepared
    ///     request gets a statement of its own, since
    ///     ``makePreparedRequest(_:forSingleResult:)`` hands the statement
    ///     out with its arguments). Use it for a request that runs often.
    public init(
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil,
        cached: Bool = false)
    {
        self.init(literal: SQL(sql: sql, arguments: arguments), adapter: adapter, cached: cached)
    }

    /// Creates a request from an SQL literal.
    public init(literal sqlLiteral: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.sqlLiteral = sqlLiteral
        self.adapter = adapter
        self.isCached = cached
    }

    /// The SQL of the request, as a subquery.
    public var sqlSubquery: SQLSubquery {
        let literal = sqlLiteral
        return SQLSubquery { context in try literal.sql(context) }
    }

    /// See ``FetchRequest/makePreparedRequest(_:forSingleResult:)``. The SQL
    /// is used as is: no `LIMIT` is added for single results.
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws -> PreparedRequest {
        let (sql, arguments) = try sqlLiteral.build(db)
        // Not cached: a statement of its own. The prepared request hands its
        // statement, with its arguments bound, to the caller: two prepared
        // requests of the same SQL must not share one statement.
        let statement = isCached ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        return PreparedRequest(statement: statement, adapter: adapter)
    }
}

extension SQLRequest {
    /// Creates a request from an SQL literal, whose interpolated values
    /// are arguments.
    ///
    /// ```swift
    /// let request = SQLRequest<Player>("SELECT * FROM player WHERE name = \(name)")
    /// ```
    ///
    /// - Parameters:
    ///   - sqlLiteral: An SQL literal.
    ///   - adapter: The adapter of the fetched rows, if any.
    ///   - cached: Whether the request reuses a cached statement.
    public init(_ sqlLiteral: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.init(literal: sqlLiteral, adapter: adapter, cached: cached)
    }
}

extension SQLRequest where RowDecoder == Row {
    /// Creates a request of rows from raw SQL and its arguments.
    ///
    /// ```swift
    /// let request = SQLRequest(sql: "SELECT * FROM player WHERE id = ?", arguments: [1])   // SQLRequest<Row>
    /// ```
    ///
    /// See ``init(sql:arguments:adapter:cached:)``.
    public init(
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil,
        cached: Bool = false)
    {
        self.init(literal: SQL(sql: sql, arguments: arguments), adapter: adapter, cached: cached)
    }

    /// Creates a request of rows from an SQL literal.
    ///
    /// ```swift
    /// let request = SQLRequest("SELECT * FROM player WHERE name = \(name)")   // SQLRequest<Row>
    /// ```
    public init(_ sqlLiteral: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.init(literal: sqlLiteral, adapter: adapter, cached: cached)
    }

    /// Creates a request of rows from an SQL literal.
    ///
    /// See ``init(literal:adapter:cached:)``.
    public init(literal sqlLiteral: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.sqlLiteral = sqlLiteral
        self.adapter = adapter
        self.isCached = cached
    }
}

extension SQLRequest: ExpressibleByStringInterpolation {
    /// Creates a request from a string literal: raw SQL.
    public init(stringLiteral value: String) {
        self.init(sql: value)
    }

    /// Creates a request from an interpolated string.
    public init(stringInterpolation: SQL.StringInterpolation) {
        self.init(literal: SQL(stringInterpolation: stringInterpolation))
    }
}

// MARK: - SQL interpolation of query interface values

extension SQL.StringInterpolation {
    /// Appends the quoted table name of a record type.
    ///
    /// ```swift
    /// let query: SQL = "SELECT * FROM \(Player.self)"
    /// // SELECT * FROM "player"
    /// ```
    public mutating func appendInterpolation(_ table: (some TableRecord).Type) {
        elements.append(.sql(table.databaseTableName.quotedDatabaseIdentifier, StatementArguments()))
    }

    /// Appends the quoted table name of a record type.
    ///
    /// ```swift
    /// let recordType: any TableRecord.Type = Player.self
    /// let query: SQL = "SELECT * FROM \(recordType)"
    /// ```
    @_disfavoredOverload
    public mutating func appendInterpolation(_ table: any TableRecord.Type) {
        elements.append(.sql(table.databaseTableName.quotedDatabaseIdentifier, StatementArguments()))
    }

    /// Appends the quoted name of a table.
    ///
    /// ```swift
    /// let playerTable = Table("player")
    /// let query: SQL = "SELECT * FROM \(playerTable)"
    /// // SELECT * FROM "player"
    /// ```
    public mutating func appendInterpolation<T>(_ table: Table<T>) {
        elements.append(.sql(table.tableName.quotedDatabaseIdentifier, StatementArguments()))
    }

    /// Appends the quoted table name of a record type.
    public mutating func appendInterpolation(tableOf record: some TableRecord) {
        appendInterpolation(type(of: record))
    }

    /// Appends the quoted table name of the type of a record.
    @_disfavoredOverload
    public mutating func appendInterpolation(tableOf record: any TableRecord) {
        appendInterpolation(type(of: record))
    }

    /// Appends the name of one of SQLite's collations:
    /// `... COLLATE \(Database.CollationName.nocase)`.
    public mutating func appendInterpolation(_ collation: Database.CollationName) {
        elements.append(.sql(collation.rawValue, StatementArguments()))
    }

    /// Appends the columns that a record type selects by default.
    ///
    /// ```swift
    /// let request: SQLRequest<Player> = "SELECT \(columnsOf: Player.self) FROM player"
    /// ```
    ///
    /// - Parameters:
    ///   - recordType: The record type.
    ///   - tableAlias: The qualifier of the columns: a table alias of the
    ///     query; nil for the table name of the record type
    ///     (`"player".*`).
    public mutating func appendInterpolation(columnsOf recordType: (some TableRecord).Type, tableAlias: String? = nil) {
        let selection = recordType.databaseSelection.map(\.sqlSelection)
        let qualifier = tableAlias ?? recordType.databaseTableName
        elements.append(.deferred { context in
            // Unqualified columns take the qualifier: the columns of several
            // tables may be selected side by side.
            try context.withDefaultQualifier(qualifier) {
                try selection.map { try $0.sql(context) }.joined(separator: ", ")
            }
        })
    }

    /// Appends a request, as a subquery, without parentheses.
    ///
    /// ```swift
    /// let maximumScore: SQLRequest<Int> = "SELECT MAX(score) FROM player"
    /// let bestPlayers: SQLRequest<Player> = "SELECT * FROM player WHERE score = (\(maximumScore))"
    /// ```
    public mutating func appendInterpolation(_ request: some SQLSubqueryable) {
        let subquery = request.sqlSubquery
        elements.append(.deferred { context in try subquery.sql(context) })
    }

    /// Appends an ordering term: `"score" DESC`.
    public mutating func appendInterpolation(_ ordering: SQLOrdering) {
        elements.append(.deferred { context in try ordering.sql(context) })
    }

    /// Appends a selection: `"score" AS "total"`.
    public mutating func appendInterpolation(_ selection: SQLSelection) {
        elements.append(.deferred { context in try selection.sql(context) })
    }
}
