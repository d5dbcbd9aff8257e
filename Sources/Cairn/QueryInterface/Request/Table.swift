/// A database table, as the starting point of query interface requests that
/// do not need a record type.
///
/// ```swift
/// let playerTable = Table("player")
/// let rows = try playerTable.filter(Column("score") > 1000).fetchAll(db)   // [Row]
/// let count = try playerTable.fetchCount(db)
///
/// // A table whose rows decode as records:
/// let players = try Table<Player>("player").fetchAll(db)                  // [Player]
/// ```
public struct Table<RowDecoder>: Sendable {
    /// The name of the table.
    public let tableName: String

    /// Creates a table whose requests fetch values of type `RowDecoder`.
    ///
    /// ```swift
    /// let playerTable = Table<Player>("player")
    /// ```
    public init(_ tableName: String) {
        self.tableName = tableName
    }

    /// The request for all rows of the table.
    public func all() -> QueryInterfaceRequest<RowDecoder> {
        QueryInterfaceRequest(tableName: tableName, selection: [AllColumns().sqlSelection])
    }

    /// A request that fetches nothing.
    public func none() -> QueryInterfaceRequest<RowDecoder> { all().none() }

    /// See ``SelectionRequest/select(_:)-(SQLSelectable...)``.
    public func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> {
        all().select(selection)
    }

    /// See ``QueryInterfaceRequest/select(_:as:)-(SQLSelectable...,_)``.
    public func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }

    /// See ``QueryInterfaceRequest/select(sql:arguments:)``.
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder> {
        all().select(sql: sql, arguments: arguments)
    }

    /// See ``SelectionRequest/annotated(with:)-(SQLSelectable...)``.
    public func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: selection)
    }

    /// See ``FilteredRequest/filter(_:)-(SQLExpressible)``.
    public func filter(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(predicate)
    }

    /// See ``QueryInterfaceRequest/filter(sql:arguments:)``.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(sql: sql, arguments: arguments)
    }

    /// See ``QueryInterfaceRequest/filter(literal:)``.
    public func filter(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(literal: sqlLiteral)
    }

    /// See ``OrderedRequest/order(_:)-(SQLOrderingTerm...)``.
    public func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<RowDecoder> {
        all().order(orderings)
    }

    /// See ``QueryInterfaceRequest/order(sql:arguments:)``.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder> {
        all().order(sql: sql, arguments: arguments)
    }

    /// See ``AggregatingRequest/group(_:)-(SQLExpressible...)``.
    public func group(_ expressions: any SQLExpressible...) -> QueryInterfaceRequest<RowDecoder> {
        all().group(expressions)
    }

    /// See ``QueryInterfaceRequest/limit(_:offset:)``.
    public func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<RowDecoder> {
        all().limit(limit, offset: offset)
    }

    /// See ``QueryInterfaceRequest/aliased(_:)``.
    public func aliased<T>(_ alias: TableAlias<T>) -> QueryInterfaceRequest<RowDecoder> {
        all().aliased(alias)
    }

    /// Returns the number of rows of the table.
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchCount(_ db: Database) throws -> Int {
        try all().fetchCount(db)
    }

    /// Deletes all rows of the table.
    ///
    /// - Returns: The number of deleted rows.
    /// - Throws: A ``DatabaseError``.
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int {
        try all().deleteAll(db)
    }

    /// Updates all rows of the table.
    ///
    /// - Returns: The number of updated rows.
    /// - Throws: A ``DatabaseError``.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: ColumnAssignment...) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates all rows of the table.
    ///
    /// ```swift
    /// try Table("player").updateAll(db, [Column("score").set(to: 0)])
    /// ```
    ///
    /// - Returns: The number of updated rows.
    /// - Throws: A ``DatabaseError``.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }
}

extension Table where RowDecoder: TableRecord {
    /// Updates all rows of the table with assignments built from the
    /// record type's `Columns`.
    ///
    /// ```swift
    /// try Table<Player>("player").updateAll(db) { [$0.score.set(to: 0)] }
    /// ```
    ///
    /// - Returns: The number of updated rows.
    /// - Throws: A ``DatabaseError``.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, try assignments(RowDecoder.databaseComponents))
    }

    /// Updates all rows of the table with one assignment built from the
    /// record type's `Columns`.
    ///
    /// ```swift
    /// try Table<Player>("player").updateAll(db) { $0.score += 1 }
    /// ```
    ///
    /// - Returns: The number of updated rows.
    /// - Throws: A ``DatabaseError``.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (RowDecoder.DatabaseComponents) throws -> ColumnAssignment) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, [try assignment(RowDecoder.databaseComponents)])
    }
}

extension Table where RowDecoder == Row {
    /// Creates a table whose requests fetch rows.
    ///
    /// ```swift
    /// let rows = try Table("player").fetchAll(db)
    /// ```
    public init(_ tableName: String) {
        self.tableName = tableName
    }

    /// Returns a cursor over all rows of the table.
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchCursor(_ db: Database) throws -> RowCursor {
        try all().fetchCursor(db)
    }

    /// Returns all rows of the table.
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchAll(_ db: Database) throws -> [Row] {
        try all().fetchAll(db)
    }

    /// Returns a set of all rows of the table.
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchSet(_ db: Database) throws -> Set<Row> {
        try all().fetchSet(db)
    }

    /// Returns a row of the table, or nil if it is empty.
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchOne(_ db: Database) throws -> Row? {
        try all().fetchOne(db)
    }
}

// MARK: - Observation

extension Table: DatabaseRegionConvertible {
    /// The whole table.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        DatabaseRegion(table: tableName)
    }
}
