// Requests that start from a record type: `Player.filter(...)`,
// `Player.order(...)`, key lookups, batch updates and deletes.

extension TableRecord {
    /// The request for all rows of the table.
    ///
    /// ```swift
    /// let players = try Player.all().fetchAll(db)
    /// ```
    public static func all() -> QueryInterfaceRequest<Self> {
        QueryInterfaceRequest(tableName: databaseTableName, selection: databaseSelection.map(\.sqlSelection))
    }

    /// A request that fetches nothing.
    public static func none() -> QueryInterfaceRequest<Self> { all().none() }

    /// See ``SelectionRequest/select(_:)-(SQLSelectable...)``.
    public static func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> {
        all().select(selection)
    }

    /// See ``SelectionRequest/select(_:)-([SQLSelectable])``.
    public static func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> {
        all().select(selection)
    }

    /// See ``QueryInterfaceRequest/select(_:as:)-(SQLSelectable...,_)``.
    ///
    /// ```swift
    /// let maxScore = try Player.select(max(Column("score")), as: Int.self).fetchOne(db)
    /// ```
    public static func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }

    /// See ``QueryInterfaceRequest/select(sql:arguments:)``.
    public static func select(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> {
        all().select(sql: sql, arguments: arguments)
    }

    /// See ``QueryInterfaceRequest/select(literal:)``.
    public static func select(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().select(literal: sqlLiteral)
    }

    /// See ``QueryInterfaceRequest/select(_:as:)-([SQLSelectable],_)``.
    ///
    /// ```swift
    /// let names = try Player.select([Column("name")], as: String.self).fetchAll(db)
    /// ```
    public static func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }

    /// See ``QueryInterfaceRequest/select(sql:arguments:as:)``.
    public static func select<T>(
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        as type: T.Type = T.self) -> QueryInterfaceRequest<T>
    {
        all().select(sql: sql, arguments: arguments, as: type)
    }

    /// See ``QueryInterfaceRequest/select(literal:as:)``.
    public static func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(literal: sqlLiteral, as: type)
    }

    /// The number of columns that ``TableRecord/databaseSelection`` selects
    /// from the table: for row adapters of hand-written joins (see
    /// ``splittingRowAdapters(columnCounts:)``).
    ///
    /// ```swift
    /// let adapters = try splittingRowAdapters(columnCounts: [
    ///     Player.numberOfSelectedColumns(db),
    ///     Team.numberOfSelectedColumns(db)])
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` when the selection cannot be prepared
    ///   (a missing table, for instance).
    public static func numberOfSelectedColumns(_ db: Database) throws -> Int {
        try all().makePreparedRequest(db, forSingleResult: false).statement.columnCount
    }

    /// Selects columns of the record type's `Columns`.
    ///
    /// ```swift
    /// let request = Player.select { [$0.id, $0.name] }
    /// ```
    public static func select(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> QueryInterfaceRequest<Self> {
        try all().select(selection(databaseComponents))
    }

    /// Selects one column of the record type's `Columns`, and changes the
    /// type of the fetched values.
    ///
    /// ```swift
    /// let names = try Player.select({ $0.name }, as: String.self).fetchAll(db)
    /// ```
    public static func select<T>(_ selection: (DatabaseComponents) throws -> any SQLSelectable, as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T> {
        try all().select([selection(databaseComponents)], as: type)
    }

    /// Selects one column of the record type's `Columns`.
    ///
    /// ```swift
    /// let request = Player.select(\.name)   // SELECT "name" FROM "player"
    /// ```
    public static func select(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<Self> {
        try all().select([selection(databaseComponents)])
    }

    /// See ``SelectionRequest/annotated(with:)-(SQLSelectable...)``.
    public static func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> {
        all().annotated(with: selection)
    }

    /// See ``SelectionRequest/annotated(with:)-([SQLSelectable])``.
    ///
    /// ```swift
    /// // SELECT *, "score" + 1 FROM "player"
    /// let request = Player.annotated(with: [Column("score") + 1])
    /// ```
    public static func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> {
        all().annotated(with: selection)
    }

    /// Appends columns built from the record type's `Columns` to the
    /// selection.
    ///
    /// ```swift
    /// // SELECT *, MAX("date") FROM "message"
    /// let request = Message.annotated { [max($0.date)] }
    /// ```
    public static func annotated(with selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> QueryInterfaceRequest<Self> {
        try all().annotated(with: selection(databaseComponents))
    }

    /// Appends one column built from the record type's `Columns` to the
    /// selection.
    ///
    /// ```swift
    /// // SELECT *, MAX("date") FROM "message"
    /// let request = Message.annotated { max($0.date) }
    /// ```
    public static func annotated(with selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<Self> {
        try all().annotated(with: [selection(databaseComponents)])
    }

    /// Groups the rows by expressions built from the record type's
    /// `Columns`.
    ///
    /// ```swift
    /// let request = Message.group { [$0.chatId, $0.authorId] }
    /// ```
    public static func group(_ expressions: (DatabaseComponents) throws -> [any SQLExpressible]) rethrows -> QueryInterfaceRequest<Self> {
        try all().group(expressions(databaseComponents))
    }

    /// Groups the rows by one expression built from the record type's
    /// `Columns`: `Message.group(\.chatId)`.
    public static func group(_ expression: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> QueryInterfaceRequest<Self> {
        try all().group([expression(databaseComponents)])
    }

    /// Groups the rows, with a condition on groups built from the record
    /// type's `Columns`.
    public static func having(_ predicate: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> QueryInterfaceRequest<Self> {
        try all().having(predicate(databaseComponents))
    }

    /// See ``FilteredRequest/filter(_:)-(SQLExpressible)``.
    ///
    /// ```swift
    /// let players = try Player.filter(Column("score") > 1000).fetchAll(db)
    /// ```
    public static func filter(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<Self> {
        all().filter(predicate)
    }

    /// Filters with a condition on the record type's `Columns`.
    ///
    /// ```swift
    /// let players = try Player.filter { $0.score > 1000 }.fetchAll(db)
    /// ```
    public static func filter(_ predicate: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> QueryInterfaceRequest<Self> {
        try all().filter(predicate(databaseComponents))
    }

    /// See ``QueryInterfaceRequest/filter(sql:arguments:)``.
    public static func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> {
        all().filter(sql: sql, arguments: arguments)
    }

    /// See ``QueryInterfaceRequest/filter(literal:)``.
    public static func filter(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().filter(literal: sqlLiteral)
    }

    /// See ``QueryInterfaceRequest/matching(_:)``.
    public static func matching(_ pattern: (some DatabaseValueConvertible)?) -> QueryInterfaceRequest<Self> {
        all().matching(pattern)
    }

    /// See ``OrderedRequest/order(_:)-(SQLOrderingTerm...)``.
    public static func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<Self> {
        all().order(orderings)
    }

    /// Sorts by an array of terms.
    ///
    /// ```swift
    /// let players = try Player.order([Column("score").desc, Column("name")]).fetchAll(db)
    /// ```
    public static func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<Self> {
        all().order(orderings)
    }

    /// Sorts by terms built from the record type's `Columns`.
    ///
    /// ```swift
    /// let players = try Player.order { [$0.score.desc, $0.name] }.fetchAll(db)
    /// ```
    public static func order(_ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> QueryInterfaceRequest<Self> {
        try all().order(orderings(databaseComponents))
    }

    /// Sorts by one term built from the record type's `Columns`.
    public static func order(_ ordering: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> QueryInterfaceRequest<Self> {
        try all().order([ordering(databaseComponents)])
    }

    /// See ``QueryInterfaceRequest/order(sql:arguments:)``.
    public static func order(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> {
        all().order(sql: sql, arguments: arguments)
    }

    /// See ``QueryInterfaceRequest/order(literal:)``.
    public static func order(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().order(literal: sqlLiteral)
    }

    /// See ``QueryInterfaceRequest/limit(_:offset:)``.
    public static func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<Self> {
        all().limit(limit, offset: offset)
    }

    /// See ``QueryInterfaceRequest/aliased(_:)``.
    public static func aliased<T>(_ alias: TableAlias<T>) -> QueryInterfaceRequest<Self> {
        all().aliased(alias)
    }

    /// Returns the number of rows of the table.
    ///
    /// - Throws: A ``DatabaseError``.
    public static func fetchCount(_ db: Database) throws -> Int {
        try all().fetchCount(db)
    }

    /// Deletes all rows of the table.
    ///
    /// - Returns: The number of deleted rows.
    /// - Throws: A ``DatabaseError``.
    @discardableResult
    public static func deleteAll(_ db: Database) throws -> Int {
        try all().deleteAll(db)
    }

    /// Updates all rows of the table.
    ///
    /// ```swift
    /// try Player.updateAll(db, Column("score").set(to: 0))
    /// ```
    ///
    /// - Returns: The number of updated rows.
    /// - Throws: A ``DatabaseError``.
    @discardableResult
    public static func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: ColumnAssignment...) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates all rows of the table: see
    /// ``updateAll(_:onConflict:_:)-(Database,Database.ConflictResolution?,ColumnAssignment...)``.
    @discardableResult
    public static func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates all rows of the table with assignments built from the
    /// record type's `Columns`.
    ///
    /// ```swift
    /// try Player.updateAll(db) { [$0.score.set(to: 0), $0.bonus.set(to: nil)] }
    /// ```
    ///
    /// - Returns: The number of updated rows.
    /// - Throws: A ``DatabaseError``.
    @discardableResult
    public static func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (DatabaseComponents) throws -> [ColumnAssignment]) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments: assignments)
    }

    /// Updates all rows of the table with one assignment built from the
    /// record type's `Columns`.
    ///
    /// ```swift
    /// try Player.updateAll(db) { $0.score += 10 }
    /// ```
    ///
    /// - Returns: The number of updated rows.
    /// - Throws: A ``DatabaseError``.
    @discardableResult
    public static func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (DatabaseComponents) throws -> ColumnAssignment) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignment: assignment)
    }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// Updates the rows of the request with assignments built from the
    /// record type's `Columns`.
    ///
    /// ```swift
    /// try Player.filter { $0.team == "red" }.updateAll(db) { [$0.score.set(to: 0)] }
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
        try updateAll(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }

    /// Updates the rows of the request with one assignment built from the
    /// record type's `Columns`.
    ///
    /// ```swift
    /// // WITH "playerName" AS (...) UPDATE "player" SET "name" = (SELECT * FROM "playerName")
    /// try Player.with(playerNameCTE).updateAll(db) { $0.name.set(to: playerNameCTE.all()) }
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
        try updateAll(db, onConflict: conflictResolution, [assignment(RowDecoder.databaseComponents)])
    }
}

// MARK: - Fetching records

extension FetchRequest where RowDecoder: FetchableRecord {
    /// Returns a cursor over the records of the request.
    ///
    /// - Throws: A ``DatabaseError``; the cursor throws the errors of the
    ///   statement and of decoding.
    @inlinable
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> {
        let prepared = try makePreparedRequest(db, forSingleResult: false)
        try prepared.checkCursorAllowed()
        return try RowDecoder.fetchCursor(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns an array of the records of the request.
    ///
    /// ```swift
    /// let players = try Player.filter(Column("score") > 1000).fetchAll(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    @inlinable
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        try makePreparedRequest(db, forSingleResult: false)._fetchAll(db, as: RowDecoder.self)
    }

    /// Returns the first record of the request, or nil.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    @inlinable
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        try makePreparedRequest(db, forSingleResult: true)._fetchOne(db, as: RowDecoder.self)
    }
}

extension FetchRequest where RowDecoder: FetchableRecord & Hashable {
    /// Returns a set of the records of the request.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    @inlinable
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try makePreparedRequest(db, forSingleResult: false)._fetchSet(db, as: RowDecoder.self)
    }
}

extension FetchableRecord {
    /// Returns a cursor over the records of a request.
    ///
    /// - Throws: A ``DatabaseError``.
    @inlinable
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RecordCursor<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        try prepared.checkCursorAllowed()
        return try fetchCursor(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns an array of the records of a request, whatever its row
    /// decoder.
    ///
    /// ```swift
    /// let request: SQLRequest<Row> = "SELECT * FROM player"
    /// let players = try Player.fetchAll(db, request)
    /// ```
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    @inlinable
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        try request.makePreparedRequest(db, forSingleResult: false)._fetchAll(db, as: Self.self)
    }

    /// Returns the first record of a request, or nil.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    @inlinable
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        try request.makePreparedRequest(db, forSingleResult: true)._fetchOne(db, as: Self.self)
    }
}

extension FetchableRecord where Self: TableRecord {
    /// Returns a cursor over all records of the table.
    ///
    /// - Throws: A ``DatabaseError``.
    @inlinable
    public static func fetchCursor(_ db: Database) throws -> RecordCursor<Self> {
        try all().fetchCursor(db)
    }

    /// Returns all records of the table.
    ///
    /// ```swift
    /// let players = try Player.fetchAll(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    @inlinable
    public static func fetchAll(_ db: Database) throws -> [Self] {
        try all().fetchAll(db)
    }

    /// Returns a record of the table, or nil if it is empty.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    @inlinable
    public static func fetchOne(_ db: Database) throws -> Self? {
        try all().fetchOne(db)
    }
}

extension FetchableRecord where Self: TableRecord & Hashable {
    /// Returns a set of all records of the table.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    @inlinable
    public static func fetchSet(_ db: Database) throws -> Set<Self> {
        try all().fetchSet(db)
    }
}

extension TableRecord {
    /// See ``QueryInterfaceRequest/selectPrimaryKey(as:)``.
    public static func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self) -> QueryInterfaceRequest<PrimaryKey> {
        all().selectPrimaryKey(as: type)
    }
}

extension TableRecord where Self: Identifiable {
    /// See ``QueryInterfaceRequest/selectID()->QueryInterfaceRequest<RowDecoder.ID>``.
    public static func selectID() -> QueryInterfaceRequest<ID> {
        all().selectID()
    }

    /// See ``QueryInterfaceRequest/selectID()->QueryInterfaceRequest<Wrapped>``.
    public static func selectID<Wrapped>() -> QueryInterfaceRequest<Wrapped> where ID == Wrapped? {
        all().selectID()
    }
}
