/// A type that can be selected: expressions, columns, ``AllColumns``.
public protocol SQLSelectable {
    /// The selection.
    var sqlSelection: SQLSelection { get }
}

/// An element of the selection of a request: `*`, an expression, an
/// expression with an alias, or raw SQL.
public struct SQLSelection: SQLSelectable, Sendable {
    enum Impl: Sendable {
        /// `*`, or `"table".*`.
        case allColumns(qualifier: String?)
        /// The columns of the table but some (lowercased names).
        case allColumnsExcluding(Set<String>)
        /// An expression.
        case expression(SQLExpression)
        /// An expression with an alias: `expr AS "alias"`.
        case aliased(SQLExpression, String)
        /// Raw SQL.
        case literal(SQL)
        /// The primary key columns of the table (`rowid` for a table
        /// without explicit primary key).
        case primaryKey
        /// Selections that need the database to be known
        /// (`selectWhenConnected`).
        case deferred(@Sendable (Database) throws -> [SQLSelection])
    }

    let impl: Impl

    /// The selection itself.
    public var sqlSelection: SQLSelection { self }

    /// Renders the selection.
    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .allColumns(let qualifier):
            return (qualifier ?? context.defaultQualifier).map { $0.quotedDatabaseIdentifier + ".*" } ?? "*"
        case .allColumnsExcluding(let excluded):
            guard let tableName = context.currentTableName else {
                throw context.db.makeError(
                    resultCode: .SQLITE_MISUSE,
                    message: "allColumns(excluding:) can only select the columns of the table of a request",
                    sql: nil, arguments: nil)
            }
            let columns = try context.db.selectedColumnNames(in: tableName).filter { !excluded.contains($0.lowercased()) }
            return try columns.map { try SQLExpression.column($0).sql(context) }.joined(separator: ", ")
        case .expression(let expression):
            return try expression.sql(context)
        case let .aliased(expression, alias):
            return try expression.sql(context) + " AS " + alias.quotedDatabaseIdentifier
        case .literal(let sql):
            return try sql.sql(context)
        case .primaryKey:
            guard let tableName = context.currentTableName else {
                throw context.db.makeError(
                    resultCode: .SQLITE_MISUSE,
                    message: "selectPrimaryKey() can only select the primary key of the table of a request",
                    sql: nil, arguments: nil)
            }
            return try SQLSelection.primaryKeyExpressions(context.db, tableName: tableName)
                .map { try $0.sql(context) }
                .joined(separator: ", ")
        case .deferred(let selections):
            return try selections(context.db).map { try $0.sql(context) }.joined(separator: ", ")
        }
    }

    /// Whether the selection calls an aggregate function outside of raw
    /// SQL (see ``SQLExpression``): `MAX("score")`, `COUNT(*) AS "count"`.
    ///
    /// - Throws: The error of a selection that needs the database.
    func containsAggregate(_ db: Database) throws -> Bool {
        switch impl {
        case .expression(let expression), .aliased(let expression, _):
            return expression.containsAggregate
        case .deferred(let selections):
            return try selections(db).contains { try $0.containsAggregate(db) }
        case .allColumns, .allColumnsExcluding, .literal, .primaryKey:
            return false
        }
    }

    /// Selections that `selection` returns when the request runs.
    static func whenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> SQLSelection {
        SQLSelection(impl: .deferred { db in try selection(db).map(\.sqlSelection) })
    }

    /// The primary key of a table, as expressions: the `rowid` of a table
    /// without explicit primary key.
    static func primaryKeyExpressions(_ db: Database, tableName: String) throws -> [SQLExpression] {
        let primaryKey = try db.primaryKey(tableName)
        if primaryKey.isRowID && primaryKey.columns == ["rowid"] {
            return [SQLExpression(impl: .rowID(qualifier: nil))]
        }
        return primaryKey.columns.map { SQLExpression.column($0) }
    }
}

extension SQLSelectable where Self == AllColumns {
    /// All columns: `*`.
    ///
    /// ```swift
    /// let request = Player.select(.allColumns, Column("score").forKey("points"))
    /// ```
    public static var allColumns: AllColumns { AllColumns() }
}

/// All columns of a table but some, given by name or as columns: see
/// ``SQLSelectable/allColumns(excluding:)-(Collection<String>)``.
public struct AllColumnsExcluding: SQLSelectable, Sendable {
    /// The lowercased names of the excluded columns.
    let excluded: Set<String>

    init(excluded: Set<String>) {
        self.excluded = excluded
    }

    /// Creates the selection of all columns of the table of a request but
    /// some, in the order of the table (names compared without regard to
    /// ASCII case).
    ///
    /// ```swift
    /// // SELECT "id", "score" FROM "player"
    /// let request = Player.select(AllColumnsExcluding(["name"]))
    /// ```
    ///
    /// - Parameter excludedColumns: The names of the columns to leave out.
    public init(_ excludedColumns: some Collection<String>) {
        self.init(excluded: Set(excludedColumns.map { $0.lowercased() }))
    }

    /// The selection.
    public var sqlSelection: SQLSelection {
        SQLSelection(impl: .allColumnsExcluding(excluded))
    }
}

extension SQLSelectable where Self == AllColumnsExcluding {
    /// All columns of the table of the request but some, in the order of
    /// the table (names compared without regard to ASCII case).
    ///
    /// ```swift
    /// // SELECT "id", "score" FROM "player"
    /// let request = Player.select(.allColumns(excluding: ["name"]))
    /// ```
    public static func allColumns(excluding columns: some Collection<String>) -> AllColumnsExcluding {
        AllColumnsExcluding(excluded: Set(columns.map { $0.lowercased() }))
    }

    /// All columns of the table of the request but some, given as columns.
    ///
    /// ```swift
    /// // SELECT "id", "score" FROM "player"
    /// let request = Player.select(.allColumns(excluding: [Column("name")]))
    /// ```
    public static func allColumns(excluding columns: some Collection<any ColumnExpression>) -> AllColumnsExcluding {
        allColumns(excluding: columns.map(\.name))
    }
}

extension SQLSelectable where Self == Column {
    /// The hidden `rowid` column.
    ///
    /// ```swift
    /// let request = Player.select(.rowID, .allColumns)
    /// ```
    public static var rowID: Column { Column.rowID }
}

/// All columns of a table: `*`.
///
/// ```swift
/// // SELECT *, ("score" + "bonus") AS "total" FROM "player"
/// let request = Player.select(AllColumns(), (Column("score") + Column("bonus")).forKey("total"))
/// ```
public struct AllColumns: SQLSelectable, Sendable {
    /// Creates the selection of all columns.
    public init() { }

    /// `*`.
    public var sqlSelection: SQLSelection {
        SQLSelection(impl: .allColumns(qualifier: nil))
    }
}

/// A database value is an expression of its own: it can be selected, sorted
/// and collated (`"arthur".databaseValue.collating(.nocase)`).
extension DatabaseValue: SQLSpecificExpressible {
    /// The value, selected: `SELECT ?`.
    ///
    /// ```swift
    /// let request = Player.select(Column("id"), 1.databaseValue)
    /// ```
    public var sqlSelection: SQLSelection {
        SQLSelection(impl: .expression(sqlExpression))
    }
}
