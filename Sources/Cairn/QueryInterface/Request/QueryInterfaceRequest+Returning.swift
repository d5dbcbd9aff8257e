// Batch deletes and updates that return the rows they change, with a
// RETURNING clause.
//
// Related SQLite documentation: <https://www.sqlite.org/lang_returning.html>

extension QueryInterfaceRequest {
    /// The prepared statement of a statement with a RETURNING clause.
    private func returningStatement(
        _ db: Database,
        selection: [any SQLSelectable],
        makeSQL: (SQLGenerationContext) throws -> String) throws -> Statement
    {
        let context = SQLGenerationContext(db)
        var sql = try makeSQL(context)
        sql += " RETURNING " + (try persistenceSelectionSQL(selection, context, tableName: relation.tableName))
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(context.arguments)
        return statement
    }

    // MARK: Delete and fetch

    /// Returns the statement that deletes the rows of the request, and
    /// returns the given selection of each deleted row.
    ///
    /// ```swift
    /// // DELETE FROM "player" WHERE "score" < ? RETURNING "name"
    /// let statement = try Player.filter { $0.score < 100 }.deleteAndFetchStatement(db, selection: [Column("name")])
    /// let names = try String.fetchAll(statement)
    /// ```
    ///
    /// The ordering of the request is ignored, unless it has a limit.
    ///
    /// - Throws: A ``DatabaseError`` when the request cannot delete (with
    ///   DISTINCT, GROUP BY or HAVING), or the selection is empty.
    public func deleteAndFetchStatement(_ db: Database, selection: [any SQLSelectable]) throws -> Statement {
        try returningStatement(db, selection: selection) { try relation.deleteSQL($0) }
    }

    /// Returns the statement that deletes the rows of the request, and
    /// returns the columns that `select` picks from the record type's
    /// `Columns`.
    ///
    /// ```swift
    /// let statement = try Player.all().deleteAndFetchStatement(db) { [$0.name] }
    /// ```
    ///
    /// - Throws: See ``deleteAndFetchStatement(_:selection:)``.
    public func deleteAndFetchStatement(
        _ db: Database,
        select: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]) throws -> Statement
        where RowDecoder: TableRecord
    {
        try deleteAndFetchStatement(db, selection: select(RowDecoder.databaseComponents))
    }

    /// Deletes the rows of the request, and returns a cursor of the deleted
    /// records.
    ///
    /// ```swift
    /// // DELETE FROM "player" WHERE "score" < ? RETURNING *
    /// let cursor = try Player.filter { $0.score < 100 }.deleteAndFetchCursor(db)
    /// ```
    ///
    /// The rows are deleted as the cursor starts; iterate it inside the
    /// database access.
    ///
    /// - Throws: See ``deleteAndFetchStatement(_:selection:)``.
    public func deleteAndFetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder>
        where RowDecoder: FetchableRecord & TableRecord
    {
        try RowDecoder.fetchCursor(deleteAndFetchStatement(db, selection: RowDecoder.databaseSelection))
    }

    /// Deletes the rows of the request, and returns the deleted records.
    ///
    /// - Throws: See ``deleteAndFetchStatement(_:selection:)``.
    public func deleteAndFetchAll(_ db: Database) throws -> [RowDecoder]
        where RowDecoder: FetchableRecord & TableRecord
    {
        try Array(deleteAndFetchCursor(db))
    }

    /// Deletes the rows of the request, and returns the set of the deleted
    /// records.
    ///
    /// - Throws: See ``deleteAndFetchStatement(_:selection:)``.
    public func deleteAndFetchSet(_ db: Database) throws -> Set<RowDecoder>
        where RowDecoder: FetchableRecord & TableRecord & Hashable
    {
        try Set(deleteAndFetchCursor(db))
    }

    /// Deletes the rows of the request, and returns the ids of the deleted
    /// records (their primary key).
    ///
    /// ```swift
    /// // DELETE FROM "player" WHERE "score" < ? RETURNING "id"
    /// let ids = try Player.filter { $0.score < 100 }.deleteAndFetchIds(db)
    /// ```
    ///
    /// - Throws: See ``deleteAndFetchStatement(_:selection:)``.
    public func deleteAndFetchIds(_ db: Database) throws -> Set<RowDecoder.ID>
        where RowDecoder: TableRecord & Identifiable, RowDecoder.ID: DatabaseValueConvertible
    {
        let primaryKey = SQLSelection(impl: .primaryKey)
        return try RowDecoder.ID.fetchSet(deleteAndFetchStatement(db, selection: [primaryKey]))
    }

    // MARK: Update and fetch

    /// Returns the statement that updates the rows of the request, and
    /// returns the given selection of each updated row.
    ///
    /// ```swift
    /// // UPDATE "player" SET "score" = ? RETURNING "score"
    /// let statement = try Player.all().updateAndFetchStatement(db, [Column("score").set(to: 0)], selection: [Column("score")])
    /// ```
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - conflictResolution: The conflict resolution of the UPDATE
    ///     statement; nil for the policy of the record type, if any.
    ///   - assignments: The column assignments.
    ///   - selection: The returned columns and expressions.
    /// - Throws: A ``DatabaseError`` when the request cannot update (with
    ///   DISTINCT, GROUP BY or HAVING), there is no assignment, or the
    ///   selection is empty.
    public func updateAndFetchStatement(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment],
        selection: [any SQLSelectable]) throws -> Statement
    {
        guard !assignments.isEmpty else {
            throw db.makeError(
                resultCode: .SQLITE_MISUSE, message: "an UPDATE needs at least one column assignment",
                sql: nil, arguments: nil)
        }
        let resolution = updateConflictResolution(conflictResolution)
        return try returningStatement(db, selection: selection) { context in
            try relation.updateSQL(context, conflictResolution: resolution, assignments: assignments)
        }
    }

    /// Returns the statement that updates the rows of the request with
    /// assignments built from the record type's `Columns`, and returns the
    /// columns that `select` picks.
    ///
    /// ```swift
    /// let statement = try Player.all().updateAndFetchStatement(db) {
    ///     [$0.score.set(to: 0)]
    /// } select: {
    ///     [$0.score]
    /// }
    /// ```
    ///
    /// - Throws: See ``updateAndFetchStatement(_:onConflict:_:selection:)``.
    public func updateAndFetchStatement(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment],
        select: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]) throws -> Statement
        where RowDecoder: TableRecord
    {
        try updateAndFetchStatement(
            db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents),
            selection: select(RowDecoder.databaseComponents))
    }

    /// Updates the rows of the request, and returns a cursor of the updated
    /// records.
    ///
    /// ```swift
    /// // UPDATE "player" SET "score" = "score" + ? WHERE "teamId" = ? RETURNING *
    /// let cursor = try Player.filter { $0.teamId == 1 }.updateAndFetchCursor(db, [Column("score") += 10])
    /// ```
    ///
    /// - Throws: See ``updateAndFetchStatement(_:onConflict:_:selection:)``.
    public func updateAndFetchCursor(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> RecordCursor<RowDecoder>
        where RowDecoder: FetchableRecord & TableRecord
    {
        try RowDecoder.fetchCursor(updateAndFetchStatement(
            db, onConflict: conflictResolution, assignments, selection: RowDecoder.databaseSelection))
    }

    /// Updates the rows of the request with assignments built from the
    /// record type's `Columns`, and returns a cursor of the updated
    /// records.
    ///
    /// - Throws: See ``updateAndFetchStatement(_:onConflict:_:selection:)``.
    public func updateAndFetchCursor(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]) throws -> RecordCursor<RowDecoder>
        where RowDecoder: FetchableRecord & TableRecord
    {
        try updateAndFetchCursor(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }

    /// Updates the rows of the request, and returns the updated records.
    ///
    /// - Throws: See ``updateAndFetchStatement(_:onConflict:_:selection:)``.
    public func updateAndFetchAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> [RowDecoder]
        where RowDecoder: FetchableRecord & TableRecord
    {
        try Array(updateAndFetchCursor(db, onConflict: conflictResolution, assignments))
    }

    /// Updates the rows of the request with assignments built from the
    /// record type's `Columns`, and returns the updated records.
    ///
    /// - Throws: See ``updateAndFetchStatement(_:onConflict:_:selection:)``.
    public func updateAndFetchAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]) throws -> [RowDecoder]
        where RowDecoder: FetchableRecord & TableRecord
    {
        try updateAndFetchAll(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }

    /// Updates the rows of the request, and returns the set of the updated
    /// records.
    ///
    /// - Throws: See ``updateAndFetchStatement(_:onConflict:_:selection:)``.
    public func updateAndFetchSet(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> Set<RowDecoder>
        where RowDecoder: FetchableRecord & TableRecord & Hashable
    {
        try Set(updateAndFetchCursor(db, onConflict: conflictResolution, assignments))
    }

    /// Updates the rows of the request with assignments built from the
    /// record type's `Columns`, and returns the set of the updated records.
    ///
    /// - Throws: See ``updateAndFetchStatement(_:onConflict:_:selection:)``.
    public func updateAndFetchSet(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]) throws -> Set<RowDecoder>
        where RowDecoder: FetchableRecord & TableRecord & Hashable
    {
        try updateAndFetchSet(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }

    /// The conflict resolution of a batch update: the given one, or the
    /// update policy of a persistable record type.
    func updateConflictResolution(_ conflictResolution: Database.ConflictResolution?) -> Database.ConflictResolution? {
        if let conflictResolution { return conflictResolution }
        guard let recordType = RowDecoder.self as? any MutablePersistableRecord.Type else { return nil }
        return recordType.persistenceConflictPolicy.conflictResolutionForUpdate
    }
}
