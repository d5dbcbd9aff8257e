// Common table expressions: the named subqueries of a `WITH` clause, that
// requests embed with `with(_:)`, fetch from with `all()`, and join with
// `association(to:on:)`.
//
// SQLite: https://sqlite.org/lang_with.html

/// A common table expression: a named subquery that a request defines in
/// its `WITH` clause, and uses as a table.
///
/// `RowDecoder` is the type of the values that ``all()`` fetches (`Row` by
/// default). Give a record type, or an empty enum, to make associations
/// between CTEs type-safe.
///
/// ```swift
/// // WITH "playerName" AS (SELECT 'O''Brien')
/// // SELECT * FROM "player" WHERE "name" = (SELECT * FROM "playerName")
/// let playerNameCTE = CommonTableExpression(
///     named: "playerName",
///     literal: "SELECT \("O'Brien")")
/// let players = try Player
///     .with(playerNameCTE)
///     .filter(Column("name") == playerNameCTE.all())
///     .fetchAll(db)
///
/// // WITH RECURSIVE "counter"("x") AS (VALUES(1) UNION ALL SELECT x+1 FROM counter WHERE x<10)
/// // SELECT * FROM "counter"
/// let counter = CommonTableExpression<Int>(
///     recursive: true,
///     named: "counter",
///     columns: ["x"],
///     sql: "VALUES(1) UNION ALL SELECT x+1 FROM counter WHERE x<10")
/// let numbers = try counter.all().with(counter).fetchAll(db)   // [1, 2, ..., 10]
/// ```
///
/// The arguments of the CTE's request are bound to the statement of the
/// request that embeds it, in order: they are never inlined in the SQL.
public struct CommonTableExpression<RowDecoder>: Sendable {
    /// The name of the CTE, the table name that requests use.
    public var tableName: String

    /// The definition that requests render in their `WITH` clause.
    let definition: CTEDefinition

    /// Creates a CTE from a request.
    ///
    /// ```swift
    /// // WITH "playerName" AS (SELECT "name" FROM "player")
    /// let playerNameCTE = CommonTableExpression(
    ///     named: "playerName",
    ///     request: Player.select(Column("name")))
    /// ```
    ///
    /// - Parameters:
    ///   - recursive: Whether the CTE refers to itself: the request then
    ///     renders `WITH RECURSIVE`.
    ///   - tableName: The name of the CTE.
    ///   - columns: The names of the columns of the CTE; nil or empty for
    ///     the columns of the request.
    ///   - request: The request that gives the rows of the CTE.
    public init(
        recursive: Bool = false,
        named tableName: String,
        columns: [String]? = nil,
        request: some SQLSubqueryable)
    {
        self.tableName = tableName
        definition = CTEDefinition(recursive: recursive, tableName: tableName, columns: columns, request: request)
    }

    /// Creates a CTE from raw SQL and its arguments.
    ///
    /// ```swift
    /// // WITH "pair"("a", "b") AS (SELECT 1, 2)
    /// let pairCTE = CommonTableExpression(named: "pair", columns: ["a", "b"], sql: "SELECT 1, 2")
    /// ```
    ///
    /// - Parameters:
    ///   - recursive: Whether the CTE refers to itself (`WITH RECURSIVE`).
    ///   - tableName: The name of the CTE.
    ///   - columns: The names of the columns of the CTE; nil or empty for
    ///     the columns of the SQL.
    ///   - sql: An SQL query.
    ///   - arguments: The arguments of the SQL query.
    public init(
        recursive: Bool = false,
        named tableName: String,
        columns: [String]? = nil,
        sql: String,
        arguments: StatementArguments = StatementArguments())
    {
        self.init(recursive: recursive, named: tableName, columns: columns,
                  request: SQLRequest<Row>(literal: SQL(sql: sql, arguments: arguments)))
    }

    /// Creates a CTE from an SQL literal, whose interpolated values are
    /// arguments.
    ///
    /// ```swift
    /// // WITH "playerName" AS (SELECT ?)   -- argument: "O'Brien"
    /// let playerNameCTE = CommonTableExpression(named: "playerName", literal: "SELECT \("O'Brien")")
    /// ```
    ///
    /// - Parameters:
    ///   - recursive: Whether the CTE refers to itself (`WITH RECURSIVE`).
    ///   - tableName: The name of the CTE.
    ///   - columns: The names of the columns of the CTE; nil or empty for
    ///     the columns of the SQL.
    ///   - sqlLiteral: An SQL literal.
    public init(
        recursive: Bool = false,
        named tableName: String,
        columns: [String]? = nil,
        literal sqlLiteral: SQL)
    {
        self.init(recursive: recursive, named: tableName, columns: columns,
                  request: SQLRequest<Row>(literal: sqlLiteral))
    }
}

extension CommonTableExpression where RowDecoder == Row {
    /// Creates a CTE from a request, whose ``all()`` request fetches rows.
    ///
    /// See ``init(recursive:named:columns:request:)``.
    public init(
        recursive: Bool = false,
        named tableName: String,
        columns: [String]? = nil,
        request: some SQLSubqueryable)
    {
        self.init(rowRecursive: recursive, named: tableName, columns: columns, request: request)
    }

    /// Creates a CTE from raw SQL, whose ``all()`` request fetches rows.
    ///
    /// See ``init(recursive:named:columns:sql:arguments:)``.
    public init(
        recursive: Bool = false,
        named tableName: String,
        columns: [String]? = nil,
        sql: String,
        arguments: StatementArguments = StatementArguments())
    {
        self.init(rowRecursive: recursive, named: tableName, columns: columns,
                  request: SQLRequest<Row>(literal: SQL(sql: sql, arguments: arguments)))
    }

    /// Creates a CTE from an SQL literal, whose ``all()`` request fetches
    /// rows.
    ///
    /// See ``init(recursive:named:columns:literal:)``.
    public init(
        recursive: Bool = false,
        named tableName: String,
        columns: [String]? = nil,
        literal sqlLiteral: SQL)
    {
        self.init(rowRecursive: recursive, named: tableName, columns: columns,
                  request: SQLRequest<Row>(literal: sqlLiteral))
    }

    /// The common initializer of this extension, under a label that its
    /// public initializers do not share.
    private init(rowRecursive recursive: Bool, named tableName: String, columns: [String]?, request: some SQLSubqueryable) {
        self.tableName = tableName
        self.definition = CTEDefinition(recursive: recursive, tableName: tableName, columns: columns, request: request)
    }
}

extension CommonTableExpression {
    /// The request of all rows of the CTE: `SELECT * FROM "name"`, to
    /// refine like any request, and to fetch once the CTE is embedded.
    ///
    /// ```swift
    /// let rows = try cte.all().with(cte).fetchAll(db)
    /// let subquery = cte.all().filter(Column("score") > 100)
    /// ```
    public func all() -> QueryInterfaceRequest<RowDecoder> {
        QueryInterfaceRequest(tableName: tableName, selection: [AllColumns().sqlSelection])
    }

    /// An expression that tests whether a value is in the CTE, whose
    /// rows must have one column: `"id" IN "cte"`.
    ///
    /// ```swift
    /// // WITH "cte" AS (...) SELECT * FROM "player" WHERE "id" IN "cte"
    /// let request = Player.with(cte).filter(cte.contains(Column("id")))
    /// ```
    public func contains(_ element: some SQLExpressible) -> SQLExpression {
        let name = tableName
        return SQLExpression(impl: .binary("IN", element.sqlExpression, .literal(SQL(elements: [.deferred { _ in
            name.quotedDatabaseIdentifier
        }]))))
    }
}

// MARK: - Definition

/// What a request needs to render a CTE in its `WITH` clause, and to count
/// its columns.
struct CTEDefinition: Sendable {
    /// The name of the CTE.
    var tableName: String
    /// The names of the columns, or nil for those of the request.
    var columns: [String]?
    /// Whether the CTE refers to itself.
    var isRecursive: Bool
    /// The request of the CTE.
    var subquery: SQLSubquery

    /// The definition of a CTE; empty columns are the columns of the
    /// request.
    init(recursive: Bool, tableName: String, columns: [String]?, request: some SQLSubqueryable) {
        self.tableName = tableName
        self.columns = columns.flatMap { $0.isEmpty ? nil : $0 }
        self.isRecursive = recursive
        self.subquery = request.sqlSubquery
    }
    /// `"name"("a", "b") AS (SELECT ...)`.
    func sql(_ context: SQLGenerationContext) throws -> String {
        var sql = tableName.quotedDatabaseIdentifier
        if let columns {
            sql += "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        }
        return sql + " AS (" + (try subquery.sql(context)) + ")"
    }
}

extension SQLRelation {
    /// The CTEs of the relation and of its joined tables, in the order of
    /// the `WITH` clause: depth-first, each table before its joins. A CTE
    /// replaces an earlier one of the same name, at its place.
    var commonTableExpressions: [CTEDefinition] {
        var result: [CTEDefinition] = []
        func collect(_ relation: SQLRelation) {
            for cte in relation.ctes {
                if let index = result.firstIndex(where: { $0.tableName.equalsIgnoringASCIICase(cte.tableName) }) {
                    result[index] = cte
                } else {
                    result.append(cte)
                }
            }
            for child in relation.children where child.kind != .prefetch {
                collect(child.relation)
            }
        }
        collect(self)
        return result
    }

    /// The relation whose prefetched children (`including(all:)`) also
    /// embed the CTEs of the request, so that their queries, which run on
    /// their own, can use them. The CTEs that a prefetched association
    /// embeds itself win.
    func propagatingCTEsToPrefetches() -> SQLRelation {
        let ctes = commonTableExpressions
        guard !ctes.isEmpty else { return self }
        return propagating(ctes)
    }

    private func propagating(_ inherited: [CTEDefinition]) -> SQLRelation {
        var relation = self
        for index in relation.children.indices {
            var child = relation.children[index]
            if child.kind == .prefetch {
                var prefetched = child.relation
                let own = prefetched.ctes
                prefetched.ctes = inherited
                for cte in own { prefetched.addCTE(cte) }
                child.relation = prefetched.propagating(prefetched.commonTableExpressions)
            } else {
                child.relation = child.relation.propagating(inherited)
            }
            relation.children[index] = child
        }
        return relation
    }

    /// Adds a CTE, replacing the one of the same name.
    mutating func addCTE(_ cte: CTEDefinition) {
        if let index = ctes.firstIndex(where: { $0.tableName.equalsIgnoringASCIICase(cte.tableName) }) {
            ctes[index] = cte
        } else {
            ctes.append(cte)
        }
    }

    /// Renders `WITH [RECURSIVE] ... ` (with a trailing space) for the CTEs
    /// of the relation and its joined tables, or an empty string.
    func withSQL(_ context: SQLGenerationContext) throws -> String {
        try CTEDefinition.withSQL(commonTableExpressions, context)
    }
}

extension CTEDefinition {
    /// Renders `WITH [RECURSIVE] ... ` (with a trailing space) for some
    /// CTEs, or an empty string when there is none.
    static func withSQL(_ ctes: [CTEDefinition], _ context: SQLGenerationContext) throws -> String {
        guard !ctes.isEmpty else { return "" }
        var sql = "WITH "
        if ctes.contains(where: \.isRecursive) { sql += "RECURSIVE " }
        sql += try ctes.map { try $0.sql(context) }.joined(separator: ", ")
        return sql + " "
    }

    /// The column names of the CTE named `tableName` among `ctes`, or nil
    /// when none has this name.
    ///
    /// - Throws: A ``DatabaseError`` that names the CTE, when SQLite cannot
    ///   compile its SQL.
    static func columnNames(of tableName: String, among ctes: [CTEDefinition], _ db: Database) throws -> [String]? {
        guard let cte = ctes.first(where: { $0.tableName.equalsIgnoringASCIICase(tableName) }) else { return nil }
        if let columns = cte.columns { return columns }
        // The statement `WITH <the CTEs of the request> SELECT * FROM cte`:
        // the CTE may refer to the other CTEs, or to itself.
        do {
            let context = SQLGenerationContext(db)
            let sql = try withSQL(ctes, context) + "SELECT * FROM " + cte.tableName.quotedDatabaseIdentifier
            return try db.generatedStatement(sql: sql).columnNames
        } catch let error as DatabaseError {
            throw db.makeError(
                resultCode: error.resultCode,
                message: "Can't compute the number of columns in the \"\(cte.tableName)\" common table expression: "
                    + "\(error.message ?? "\(error)"). Check the syntax of the SQL definition, "
                    + "or provide the explicit list of selected columns with the `columns` parameter "
                    + "in the CommonTableExpression initializer.",
                sql: error.sql, arguments: nil)
        }
    }
}
