// Persistence methods that also fetch what the statement wrote, with its
// RETURNING clause: insertAndFetch, saveAndFetch, updateAndFetch,
// updateChangesAndFetch. The upserts are in
// QueryInterface/Request/MutablePersistableRecord+Upsert.swift (they take
// table aliases and column assignments).
//
// Related SQLite documentation: <https://www.sqlite.org/lang_returning.html>

/// The RETURNING clause of an INSERT or UPDATE of a record, and the
/// function that reads the rows of the statement.
@usableFromInline
struct PersistenceReturning {
    let selection: [any SQLSelectable]
    /// Reads the rows of the statement, whose arguments are set.
    let fetch: (Statement) throws -> Void

    init(selection: [any SQLSelectable], fetch: @escaping (Statement) throws -> Void) {
        self.selection = selection
        self.fetch = fetch
    }

    /// The SQL of the selection, after `RETURNING`.
    func selectionSQL(_ context: SQLGenerationContext, tableName: String) throws -> String {
        try persistenceSelectionSQL(selection, context, tableName: tableName)
    }

    /// Sets the arguments of the statement, and gives it to ``fetch``.
    ///
    /// SQLite makes all the changes of a statement with a RETURNING clause
    /// at its first step. When `fetch` does not step the statement, it runs
    /// here, so that the record is saved all the same; when `fetch` leaves
    /// it unfinished, it is reset, so that its changes are counted.
    func run(_ statement: Statement, arguments: StatementArguments) throws {
        try statement.setArguments(arguments)
        let sqliteStatement = statement.sqliteStatement
        let runCount = sqlite3_stmt_status(sqliteStatement, SQLITE_STMTSTATUS_RUN, 0)
        try fetch(statement)
        if sqlite3_stmt_status(sqliteStatement, SQLITE_STMTSTATUS_RUN, 0) == runCount {
            try statement.execute()
        } else if sqlite3_stmt_busy(sqliteStatement) != 0 {
            sqlite3_reset(sqliteStatement)
        }
    }
}

/// The `ON CONFLICT ... DO UPDATE` clause of an upsert, and what it
/// returns.
@usableFromInline
struct UpsertClause {
    /// The conflict target columns; empty for any uniqueness constraint.
    var conflictTarget: [String] = []
    /// The explicit assignments; nil for the default ones (every column of
    /// the record).
    var assignments: [ColumnAssignment]?
    /// The selection of the RETURNING clause (before the rowid), and the
    /// function that decodes the returned row (without the rowid). Nil
    /// when only the rowid is returned.
    var returning: (selection: [any SQLSelectable], decode: (Row) throws -> Void)?

    @usableFromInline
    init(
        conflictTarget: [String] = [],
        assignments: [ColumnAssignment]? = nil,
        returning: (selection: [any SQLSelectable], decode: (Row) throws -> Void)? = nil)
    {
        self.conflictTarget = conflictTarget
        self.assignments = assignments
        self.returning = returning
    }
}

/// Renders the selection of a RETURNING clause, whose columns are those of
/// `tableName`.
///
/// - Throws: A ``DatabaseError`` when the selection is empty, or cannot be
///   rendered.
func persistenceSelectionSQL(
    _ selection: [any SQLSelectable],
    _ context: SQLGenerationContext,
    tableName: String) throws -> String
{
    let savedTableName = context.currentTableName
    context.currentTableName = tableName
    defer { context.currentTableName = savedTableName }
    let parts = try selection.map { try $0.sqlSelection.sql(context) }
    guard !parts.isEmpty else {
        throw context.db.makeError(
            resultCode: .SQLITE_MISUSE,
            message: "the selection of a RETURNING clause is empty: select at least one column",
            sql: nil, arguments: nil)
    }
    return parts.joined(separator: ", ")
}

extension MutablePersistableRecord {
    /// Returns the record that `body` fetched, or throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)`` when the
    /// statement returned no row.
    func fetchedRecord<T>(_ db: Database, _ body: () throws -> T?) throws -> T {
        guard let returned = try body() else { throw returnedRowNotFound(db) }
        return returned
    }

    /// The error for a statement that returned no row: the primary key of
    /// the record, as far as it encodes it.
    func returnedRowNotFound(_ db: Database) -> RecordError {
        let tableName = type(of: self).databaseTableName
        var key: [String: DatabaseValue] = [:]
        if let container = try? databaseContainer(), let primaryKey = try? db.primaryKey(tableName) {
            for column in primaryKey.columns {
                if let value = container.databaseValue(forColumn: column) { key[column] = value }
            }
        }
        return RecordError.recordNotFound(databaseTableName: tableName, key: key)
    }

    // MARK: Insert and fetch

    /// Inserts the record, and returns the inserted row, decoded: with the
    /// values that the database set (defaults, auto-incremented id…).
    ///
    /// ```swift
    /// let player = Player(id: nil, name: "Arthur")
    /// let inserted = try player.insertAndFetch(db)
    /// // INSERT INTO "player" ("id", "name") VALUES (NULL,'Arthur') RETURNING *
    /// print(inserted.id) // Some(1)
    /// ```
    ///
    /// The callbacks run on a copy of the record: the record itself is not
    /// modified.
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - conflictResolution: The conflict resolution; nil for the
    ///     ``persistenceConflictPolicy`` of the record type.
    /// - Returns: The inserted record.
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` when
    ///   the `ignore` conflict resolution skipped the row, a
    ///   ``DatabaseError``, or the error of a callback.
    public func insertAndFetch(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self
        where Self: FetchableRecord
    {
        var record = self
        return try record.fetchedRecord(db) {
            try record.performInsertAndFetch(db, onConflict: conflictResolution, selection: Self.databaseSelection) {
                try Self.fetchOne($0)
            }
        }
    }

    /// Inserts the record, and returns the inserted row, decoded as another
    /// record type: `RETURNING` the ``TableRecord/databaseSelection`` of
    /// that type.
    ///
    /// ```swift
    /// var partialPlayer = PartialPlayer(name: "Arthur")
    /// let player = try partialPlayer.insertAndFetch(db, as: Player.self)
    /// ```
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - conflictResolution: The conflict resolution; nil for the
    ///     ``persistenceConflictPolicy`` of the record type.
    ///   - returnedType: The type of the returned record.
    /// - Throws: See ``insertAndFetch(_:onConflict:)``.
    public mutating func insertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type) throws -> T
    {
        try fetchedRecord(db) {
            try performInsertAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) {
                try T.fetchOne($0)
            }
        }
    }

    /// Inserts the record, with a RETURNING clause of the given selection,
    /// and returns what `fetch` reads from the statement.
    ///
    /// ```swift
    /// var player = Player(id: nil, name: "Arthur")
    /// let score = try player.insertAndFetch(db, selection: [Column("score")]) { statement in
    ///     try Int.fetchOne(statement)
    /// }
    /// // INSERT INTO "player" ("id", "name") VALUES (NULL,'Arthur') RETURNING "score"
    /// ```
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - conflictResolution: The conflict resolution; nil for the
    ///     ``persistenceConflictPolicy`` of the record type.
    ///   - selection: The returned columns and expressions.
    ///   - fetch: Reads the rows of the statement. When the `ignore`
    ///     conflict resolution skips the row, the statement has no row.
    /// - Throws: A ``DatabaseError``, the error of a callback, or of `fetch`.
    public mutating func insertAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        try performInsertAndFetch(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }

    /// The implementation of the inserts that fetch.
    mutating func performInsertAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        try performAndFetch(selection: selection, fetch: fetch) { record, returning in
            try record.performInsert(db, onConflict: conflictResolution, returning: returning)
        }
    }

    /// Runs `operation` with a RETURNING clause of `selection`, and returns
    /// what `fetch` read from its statement.
    mutating func performAndFetch<T>(
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T,
        _ operation: (inout Self, PersistenceReturning) throws -> Void) throws -> T
    {
        try withoutActuallyEscaping(fetch) { fetch in
            var returned: T?
            try operation(&self, PersistenceReturning(selection: selection) { returned = try fetch($0) })
            guard let returned else {
                // `PersistenceReturning.run` calls `fetch`, or throws.
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the statement was not given to its fetch function")
            }
            return returned
        }
    }

    /// Inserts the record, with a RETURNING clause of the columns that
    /// `select` picks from the ``TableRecord/Columns`` of the record type,
    /// and returns what `fetch` reads from the statement.
    ///
    /// ```swift
    /// let score = try player.insertAndFetch(db) { statement in
    ///     try Int.fetchOne(statement)
    /// } select: {
    ///     [$0.score]
    /// }
    /// ```
    ///
    /// - Throws: See ``insertAndFetch(_:onConflict:selection:fetch:)``.
    public mutating func insertAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        fetch: (Statement) throws -> T,
        select: (DatabaseComponents) throws -> [any SQLSelectable]) throws -> T
    {
        try insertAndFetch(db, onConflict: conflictResolution, selection: select(Self.databaseComponents), fetch: fetch)
    }

    // MARK: Save and fetch

    /// Saves the record (see ``save(_:onConflict:)``), and returns the saved
    /// row, decoded.
    ///
    /// ```swift
    /// let saved = try player.saveAndFetch(db)
    /// ```
    ///
    /// - Throws: See ``insertAndFetch(_:onConflict:)``.
    public func saveAndFetch(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self
        where Self: FetchableRecord
    {
        var record = self
        return try record.fetchedRecord(db) {
            try record.performSaveAndFetch(db, onConflict: conflictResolution, selection: Self.databaseSelection) {
                try Self.fetchOne($0)
            }
        }
    }

    /// Saves the record, and returns the saved row, decoded as another
    /// record type.
    ///
    /// - Throws: See ``insertAndFetch(_:onConflict:)``.
    public mutating func saveAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type) throws -> T
    {
        try fetchedRecord(db) {
            try performSaveAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) {
                try T.fetchOne($0)
            }
        }
    }

    /// Saves the record, with a RETURNING clause of the given selection,
    /// and returns what `fetch` reads from the statement.
    ///
    /// A record with a primary key is updated first, and inserted when no
    /// row has its key: `fetch` may then be called twice, for the UPDATE
    /// and for the INSERT.
    ///
    /// - Throws: See ``insertAndFetch(_:onConflict:selection:fetch:)``.
    public mutating func saveAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        try performSaveAndFetch(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }

    /// The implementation of the saves that fetch.
    mutating func performSaveAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        try performAndFetch(selection: selection, fetch: fetch) { record, returning in
            try record.performSave(db, onConflict: conflictResolution, returning: returning)
        }
    }

    // MARK: Update and fetch

    /// Updates the row of the record, and returns it, decoded.
    ///
    /// ```swift
    /// player.score = 1000
    /// let updated = try player.updateAndFetch(db)
    /// // UPDATE "player" SET "name"=?, "score"=? WHERE "id"=? RETURNING *
    /// ```
    ///
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` when
    ///   no row has the primary key of the record, a ``DatabaseError``, or
    ///   the error of a callback.
    public func updateAndFetch(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self
        where Self: FetchableRecord
    {
        try updateAndFetch(db, onConflict: conflictResolution, as: Self.self)
    }

    /// Updates the row of the record, and returns it, decoded as another
    /// record type.
    ///
    /// - Throws: See ``updateAndFetch(_:onConflict:)``.
    public func updateAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type) throws -> T
    {
        try fetchedRecord(db) {
            try updateAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) {
                try T.fetchOne($0)
            }
        }
    }

    /// Updates the row of the record, with a RETURNING clause of the given
    /// selection, and returns what `fetch` reads from the statement.
    ///
    /// ```swift
    /// let row = try player.updateAndFetch(db, selection: [.allColumns]) { statement in
    ///     try Row.fetchOne(statement)
    /// }
    /// ```
    ///
    /// - Throws: See ``updateAndFetch(_:onConflict:)``, and the error of
    ///   `fetch`.
    public func updateAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        try performUpdateAndFetch(db, onConflict: conflictResolution, columns: nil, selection: selection, fetch: fetch)
    }

    /// Updates the given columns of the row of the record, with a RETURNING
    /// clause of the given selection, and returns what `fetch` reads from
    /// the statement.
    ///
    /// ```swift
    /// let row = try player.updateAndFetch(db, columns: ["score"], selection: [.allColumns]) { statement in
    ///     try Row.fetchOne(statement)
    /// }
    /// // UPDATE "player" SET "score"=? WHERE "id"=? RETURNING *
    /// ```
    ///
    /// - Throws: See ``updateAndFetch(_:onConflict:)``, and the error of
    ///   `fetch`.
    public func updateAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<String>,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        try performUpdateAndFetch(
            db, onConflict: conflictResolution, columns: Set(columns), selection: selection, fetch: fetch)
    }

    /// Updates the given columns of the row of the record, with a RETURNING
    /// clause of the given selection, and returns what `fetch` reads from
    /// the statement.
    ///
    /// ```swift
    /// let row = try player.updateAndFetch(db, columns: [Column("score")], selection: [.allColumns]) { statement in
    ///     try Row.fetchOne(statement)
    /// }
    /// ```
    ///
    /// - Throws: See ``updateAndFetch(_:onConflict:)``, and the error of
    ///   `fetch`.
    public func updateAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<some ColumnExpression>,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        try performUpdateAndFetch(
            db, onConflict: conflictResolution, columns: Set(columns.map(\.name)), selection: selection, fetch: fetch)
    }

    private func performUpdateAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        columns: Set<String>?,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        var record = self
        return try record.performAndFetch(selection: selection, fetch: fetch) { record, returning in
            try record.performUpdate(db, onConflict: conflictResolution, columns: columns, returning: returning)
        }
    }

    // MARK: Update changes and fetch

    /// Modifies the record, updates the columns that changed, and returns
    /// the updated row, decoded; nil when nothing changed (no statement
    /// runs).
    ///
    /// ```swift
    /// let updated = try player.updateChangesAndFetch(db) {
    ///     $0.score = 1000
    /// }
    /// // UPDATE "player" SET "score"=? WHERE "id"=? RETURNING *
    /// ```
    ///
    /// - Throws: See ``updateAndFetch(_:onConflict:)``, and the error of
    ///   `modify`.
    public mutating func updateChangesAndFetch(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        modify: (inout Self) throws -> Void) throws -> Self?
        where Self: FetchableRecord
    {
        try updateChangesAndFetch(db, onConflict: conflictResolution, as: Self.self, modify: modify)
    }

    /// Modifies the record, updates the columns that changed, and returns
    /// the updated row, decoded as another record type; nil when nothing
    /// changed.
    ///
    /// - Throws: See ``updateChangesAndFetch(_:onConflict:modify:)``.
    public mutating func updateChangesAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type,
        modify: (inout Self) throws -> Void) throws -> T?
    {
        let returned = try updateChangesAndFetch(
            db, onConflict: conflictResolution, selection: T.databaseSelection,
            fetch: { try T.fetchOne($0) }, modify: modify)
        guard let returned else { return nil }
        guard let returned else { throw returnedRowNotFound(db) }
        return returned
    }

    /// Modifies the record, updates the columns that changed, with a
    /// RETURNING clause of the given selection, and returns what `fetch`
    /// reads from the statement; nil when nothing changed (`fetch` is not
    /// called).
    ///
    /// ```swift
    /// let row = try player.updateChangesAndFetch(
    ///     db, selection: [.allColumns],
    ///     fetch: { statement in try Row.fetchOne(statement) },
    ///     modify: { $0.score = 1000 })
    /// ```
    ///
    /// - Throws: See ``updateChangesAndFetch(_:onConflict:modify:)``, and
    ///   the error of `fetch`.
    public mutating func updateChangesAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T,
        modify: (inout Self) throws -> Void) throws -> T?
    {
        // Encoded before the modification: for a class, `self` and a copy
        // of it are the same object.
        let old = try databaseContainer()
        try modify(&self)
        let changes = try databaseChanges(from: old)
        guard !changes.isEmpty else { return nil }
        return try performUpdateAndFetch(
            db, onConflict: conflictResolution, columns: Set(changes.keys), selection: selection, fetch: fetch)
    }
}

// MARK: - PersistableRecord

extension PersistableRecord {
    /// Inserts the record, and returns the inserted row, decoded as another
    /// record type: see
    /// ``MutablePersistableRecord/insertAndFetch(_:onConflict:as:)``.
    ///
    /// - Throws: See ``MutablePersistableRecord/insertAndFetch(_:onConflict:)``.
    public func insertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type) throws -> T
    {
        var record = self
        return try record.fetchedRecord(db) {
            try record.performInsertAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) {
                try T.fetchOne($0)
            }
        }
    }

    /// Inserts the record, with a RETURNING clause of the given selection,
    /// and returns what `fetch` reads from the statement: see
    /// ``MutablePersistableRecord/insertAndFetch(_:onConflict:selection:fetch:)``.
    ///
    /// - Throws: See ``MutablePersistableRecord/insertAndFetch(_:onConflict:selection:fetch:)``.
    public func insertAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        var record = self
        return try record.performInsertAndFetch(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }

    /// Inserts the record, with a RETURNING clause of the columns that
    /// `select` picks, and returns what `fetch` reads from the statement:
    /// see ``MutablePersistableRecord/insertAndFetch(_:onConflict:fetch:select:)``.
    ///
    /// - Throws: See ``MutablePersistableRecord/insertAndFetch(_:onConflict:selection:fetch:)``.
    public func insertAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        fetch: (Statement) throws -> T,
        select: (DatabaseComponents) throws -> [any SQLSelectable]) throws -> T
    {
        var record = self
        return try record.performInsertAndFetch(
            db, onConflict: conflictResolution, selection: select(Self.databaseComponents), fetch: fetch)
    }

    /// Saves the record, and returns the saved row, decoded as another
    /// record type: see ``MutablePersistableRecord/saveAndFetch(_:onConflict:as:)``.
    ///
    /// - Throws: See ``MutablePersistableRecord/insertAndFetch(_:onConflict:)``.
    public func saveAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type) throws -> T
    {
        var record = self
        return try record.fetchedRecord(db) {
            try record.performSaveAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) {
                try T.fetchOne($0)
            }
        }
    }

    /// Saves the record, with a RETURNING clause of the given selection,
    /// and returns what `fetch` reads from the statement: see
    /// ``MutablePersistableRecord/saveAndFetch(_:onConflict:selection:fetch:)``.
    ///
    /// - Throws: See ``MutablePersistableRecord/insertAndFetch(_:onConflict:selection:fetch:)``.
    public func saveAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        var record = self
        return try record.performSaveAndFetch(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }
}
