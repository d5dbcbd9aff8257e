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

    /// Replaces the selection with an SQL literal, and the type of the
    /// fetched values.
    ///
    /// ```swift
    /// let names = try Player.all().select(literal: "name", as: String.self).fetchAll(db)
    /// ```
    public func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select([sqlLiteral], as: type)
    }

    /// Replaces the selection with one column of the record type's
    /// `Columns`, and the type of the fetched values.
    ///
    /// ```swift
    /// let names = try Player.all().select({ $0.name }, as: String.self).fetchAll(db)
    /// ```
    public func select<T>(
        _ selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable,
        as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T>
        where RowDecoder: TableRecord
    {
        select([try selection(RowDecoder.databaseComponents)], as: type)
    }

    // MARK: Filtering

    /// Adds a condition that needs the database to be built.
    func filter(_ promise: @escaping SQLRelation.Promise<SQLExpression>) -> Self {
        mapRelation { $0.filters.append(promise) }
    }

    /// The request itself: with ``TableRecord/all()``, it lets methods of
    /// record types and of requests be written the same way.
    ///
    /// ```swift
    /// let request = Player.filter(Column("score") > 1000).all()
    /// ```
    public func all() -> Self { self }

    /// Returns the same request, fetching values of another type: the
    /// records that decode the rows of a joined request, for instance.
    ///
    /// ```swift
    /// struct BookInfo: Decodable, FetchableRecord {
    ///     var book: Book
    ///     var author: Author
    /// }
    /// let request = Book.including(required: Book.author).asRequest(of: BookInfo.self)
    /// let bookInfos = try request.fetchAll(db)   // [BookInfo]
    /// ```
    public func asRequest<T>(of type: T.Type) -> QueryInterfaceRequest<T> {
        QueryInterfaceRequest<T>(relation: relation)
    }

    // MARK: FetchRequest

    /// The SQL of the request, as a subquery.
    public var sqlSubquery: SQLSubquery {
        let relation = self.relation
        return SQLSubquery { context in try relation.selectSQL(context) }
    }

    /// See ``FetchRequest/makePreparedRequest(_:forSingleResult:)``.
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws -> PreparedRequest {
        // The fetches of observations track the rows the filter identifies.
        try makePreparedRequest(db, forSingleResult: singleResult, tracksRows: db.state.recordedRegion != nil)
    }

    /// The region that the request reads: the tables and columns its
    /// statement reads, as SQLite's authorizer reports them, limited to
    /// some rows when the filter identifies them by rowid or by an
    /// INTEGER PRIMARY KEY, as `filter(id:)` and `filter(key:)` do.
    ///
    /// ```swift
    /// try Player.filter(id: 1).databaseRegion(db)   // player(id,name,score)[1]
    /// try Player.filter(Column("score") > 1000).databaseRegion(db)   // player(id,name,score)
    /// ```
    ///
    /// Rows are not tracked in views, `WITHOUT ROWID` tables, requests
    /// that read their table several times (self-joins, subqueries), and
    /// by keys of other kinds: the region is then the whole table.
    ///
    /// - Throws: A ``DatabaseError`` when the request cannot be prepared.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try makePreparedRequest(db, forSingleResult: false, tracksRows: true).statement.databaseRegion
    }

    /// Prepares the request.
    ///
    /// - Parameter tracksRows: Whether the region of the statement is
    ///   limited to the rows that the filter identifies (see
    ///   `SQLRelation.identifiedRowIDs(_:query:)`). Such a statement is
    ///   not shared with the cache of statements, whose region is that of
    ///   their SQL, for any arguments.
    func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool, tracksRows: Bool) throws -> PreparedRequest {
        let context = SQLGenerationContext(db)
        let query = try ResolvedQuery(relation, context)
        let sql = try query.selectSQL(singleResult: singleResult, selection: nil, extraSelection: [])
        // The prefetch queries run on their own: they embed the CTEs of
        // the request too.
        let prefetchingRelation = relation.hasPrefetchedChildren ? relation.propagatingCTEsToPrefetches() : relation
        let rowIDs = tracksRows && !relation.selectsNothing ? try relation.identifiedRowIDs(db, query: query) : nil
        let statement: Statement
        if relation.selectsNothing {
            // A request that selects nothing (`none()`) reads nothing: its
            // region is empty, on a statement of its own.
            statement = try db.makeStatement(sql: sql)
            statement.databaseRegion = DatabaseRegion()
        } else if relation.hasPrefetchedChildren || rowIDs != nil {
            // The region of the statement is limited to the identified
            // rows, and includes the tables that the prefetch queries read,
            // so that observations of the request see their changes: a
            // statement of its own, not a cached one that other requests
            // share.
            statement = try db.makeStatement(sql: sql)
            var region = statement.databaseRegion
            // The subqueries of long lists of values read no table.
            if let rowIDs, statement.selectCount == 1 + context.arraySubqueryCount {
                region = region.restrictingRows(ofTable: relation.tableName, to: rowIDs)
            }
            if relation.hasPrefetchedChildren {
                try prefetchingRelation.formPrefetchRegion(db, into: &region)
            }
            statement.databaseRegion = region
        } else {
            statement = try db.implicitStatement(sql: sql)
        }
        try statement.setArguments(context.arguments)
        var prepared = PreparedRequest(statement: statement, adapter: try query.rowAdapter(columnCount: statement.columnCount))
        if relation.hasPrefetchedChildren {
            let relation = prefetchingRelation
            prepared.supplementaryFetch = { db, rows in
                try relation.prefetch(db, into: rows, scopePath: [])
            }
            prepared.observedSupplementaryFetch = { db, rows, observer in
                try relation.prefetch(db, into: rows, scopePath: [], observer: observer)
            }
        }
        return prepared
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
        let statement = try db.generatedStatement(sql: sql)
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
        return try executeBatch(db, sql: sql, arguments: context.arguments)
    }

    /// Runs a batch update or delete, and returns the number of changed
    /// rows. SQLite does not count the changes of the INSTEAD OF triggers
    /// of a view: for a view, the changes of the statement are those of
    /// its triggers.
    private func executeBatch(_ db: Database, sql: String, arguments: StatementArguments) throws -> Int {
        // Read before the statement: the statement is the last one that
        // the batch runs.
        let isView = try db.isCachedView(relation.tableName)
        let totalChangesBefore = db.totalChangesCount
        try db.execute(sql: sql, arguments: arguments)
        return isView ? db.totalChangesCount - totalChangesBefore : db.changesCount
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
    ///     statement; nil for the update policy of a persistable record
    ///     type (``MutablePersistableRecord/persistenceConflictPolicy``),
    ///     or none.
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
        let sql = try relation.updateSQL(
            context, conflictResolution: updateConflictResolution(conflictResolution), assignments: assignments)
        return try executeBatch(db, sql: sql, arguments: context.arguments)
    }
}

extension QueryInterfaceRequest {
    /// Selects the primary key of the table (`rowid` for a table without
    /// explicit primary key), and fetches it as `PrimaryKey`.
    ///
    /// ```swift
    /// // SELECT "id" FROM "player" WHERE "score" > 1000
    /// let ids: [Int64] = try Player.filter { $0.score > 1000 }.selectPrimaryKey().fetchAll(db)
    /// // A composite primary key, as rows:
    /// let keys = try Citizenship.all().selectPrimaryKey(as: Row.self).fetchAll(db)
    /// ```
    ///
    /// - Parameter type: The type of the fetched keys: a value type for a
    ///   primary key of one column, `Row` for any primary key.
    public func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self) -> QueryInterfaceRequest<PrimaryKey> {
        select([SQLSelection(impl: .primaryKey)], as: type)
    }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord & Identifiable {
    /// Selects the primary key of the table, and fetches it as the id type
    /// of the records.
    ///
    /// ```swift
    /// // SELECT "id" FROM "player"
    /// let ids = try Player.all().selectID().fetchAll(db)  // [Player.ID]
    /// ```
    public func selectID() -> QueryInterfaceRequest<RowDecoder.ID> {
        selectPrimaryKey(as: RowDecoder.ID.self)
    }

    /// Selects the primary key of the table, and fetches it as the
    /// wrapped type of the optional id of the records: the primary key of a
    /// row is never NULL.
    ///
    /// ```swift
    /// struct Player: Identifiable, TableRecord { var id: Int64? }
    /// let ids = try Player.all().selectID().fetchAll(db)  // [Int64]
    /// ```
    public func selectID<Wrapped>() -> QueryInterfaceRequest<Wrapped> where RowDecoder.ID == Wrapped? {
        selectPrimaryKey(as: Wrapped.self)
    }
}
