// The persistence methods of records: insert, update, save, upsert, delete,
// exists. Records are found by the primary key of their table.

extension MutablePersistableRecord {
    // MARK: Insert

    /// Inserts the record.
    ///
    /// ```swift
    /// var player = Player(id: nil, name: "Arthur")
    /// try player.insert(db)
    /// // INSERT INTO "player" ("id", "name") VALUES (NULL, 'Arthur')
    /// ```
    ///
    /// The record's ``MutablePersistableRecord/didInsert(_:)`` receives the
    /// rowid of the new row. With the `ignore` conflict resolution, when the
    /// row is not inserted because of a conflict, `didInsert` is not called.
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - conflictResolution: The conflict resolution; nil for the
    ///     ``persistenceConflictPolicy`` of the record type.
    /// - Throws: A ``DatabaseError``, such as a constraint violation, or the
    ///   error of a callback or of ``EncodableRecord/encode(to:)``.
    @inlinable
    public mutating func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try performInsert(db, onConflict: conflictResolution, returning: nil)
    }

    /// Returns a copy of the record, inserted.
    ///
    /// ```swift
    /// let player = try Player(id: nil, name: "Arthur").inserted(db)
    /// print(player.id) // Some(1)
    /// ```
    ///
    /// - Throws: See ``insert(_:onConflict:)``.
    @inlinable @discardableResult
    public func inserted(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        var record = self
        try record.performInsert(db, onConflict: conflictResolution, returning: nil)
        return record
    }

    /// Inserts the record, and runs the save and insert callbacks.
    ///
    /// - Parameters:
    ///   - upsert: Whether the statement is an upsert (see
    ///     ``upsert(_:)``) rather than an INSERT.
    ///   - returning: When not nil, called with the row that `RETURNING *`
    ///     returns.
    ///
    /// Inlinable: specialized for the record type, the callbacks that the
    /// type does not customize cost nothing, and the record is copied
    /// without value witnesses. The encoding and the statement run in
    /// ``insertRow(_:onConflict:upsert:returning:)``, which is not inlined.
    @inlinable
    mutating func performInsert(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        upsert: Bool = false,
        returning: ((Row) throws -> Void)?) throws
    {
        try willSave(db)
        var saved: PersistenceSuccess?
        var record = self
        try aroundSave(db) {
            try record.willInsert(db)
            var result: InsertionResult?
            try record.aroundInsert(db) {
                let inserted = try record.insertRow(db, onConflict: conflictResolution, upsert: upsert, returning: returning)
                result = inserted
                return inserted.success
            }
            // Taken out of the variable, so that the success takes the
            // container without a copy.
            guard let result = result.take() else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "aroundInsert must call its insert function")
            }
            let success: PersistenceSuccess
            if result.didInsertRow {
                record.didInsert(result.success)
                success = PersistenceSuccess(result.success)
            } else {
                success = PersistenceSuccess(persistenceContainer: result.success.persistenceContainer)
            }
            saved = success
            return success
        }
        guard let saved else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "aroundSave must call its save function")
        }
        self = record
        didSave(saved)
    }

    /// Encodes the record, and runs the INSERT statement.
    @usableFromInline
    func insertRow(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        upsert: Bool,
        returning: ((Row) throws -> Void)?) throws -> InsertionResult
    {
        if upsert {
            let (success, row) = try upsertStatement(db)
            if let row, let returning {
                try returning(row)
            }
            return InsertionResult(success: success, didInsertRow: true)
        }
        // The statement of the previous insert of the record type, whose
        // columns the record probably encodes again.
        // The dynamic type, once: a subclass of `Record` may be used as its
        // superclass, and an unspecialized `type(of:)` is a runtime call.
        let recordType = type(of: self)
        let cached = db.cachedInsertStatement(forRecordType: ObjectIdentifier(recordType))
        let container = try databaseContainer(cached: cached)
        let resolution = conflictResolution ?? recordType.persistenceConflictPolicy.conflictResolutionForInsert
        let tableName = recordType.databaseTableName
        let changesBefore = db.totalChangesCount
        // The rowid alias of the table (nil for `rowid`), read before the
        // INSERT runs: the INSERT is the last statement of the insert.
        let rowIDColumn: String?
        if let returning {
            let sql = insertSQL(tableName: tableName, resolution: resolution, container: container) + " RETURNING *"
            let statement = try db.cachedStatement(sql: sql)
            let primaryKeyRowIDColumn = try db.primaryKey(tableName).rowIDColumn
            rowIDColumn = primaryKeyRowIDColumn == "rowid" ? nil : primaryKeyRowIDColumn
            let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(values: container.values))
            while let row = try cursor.next() {
                try returning(row)
            }
        } else {
            // Reuse the statement of the previous insert of the same record
            // type and columns: no SQL is built, and no cache key is hashed.
            let insert: CachedInsertStatement
            if let cached,
               cached.resolution == resolution,
               cached.tableName == tableName,
               // The container was created with the columns of `cached`.
               container.followsWholeTemplate || container.hasColumns(of: cached.columns),
               sqlite3_stmt_busy(cached.statement.sqliteStatement) == 0
            {
                insert = cached
            } else {
                let statement = try db.internalCachedStatement(sql: insertSQL(tableName: tableName, resolution: resolution, container: container))
                insert = CachedInsertStatement(
                    recordType: recordType, tableName: tableName, resolution: resolution, columns: container.columnTemplate,
                    statement: statement, schemaGeneration: db.schemaCache.generation &- 1)
                db.insertStatements[ObjectIdentifier(recordType)] = insert
            }
            // Read from the schema cache once per schema generation.
            if insert.schemaGeneration != db.schemaCache.generation {
                let primaryKeyRowIDColumn = try db.primaryKey(tableName).rowIDColumn
                insert.rowIDColumn = primaryKeyRowIDColumn == "rowid" ? nil : primaryKeyRowIDColumn
                insert.schemaGeneration = db.schemaCache.generation
            }
            rowIDColumn = insert.rowIDColumn
            // The container has no recycled value left: its value storage
            // holds its values (see `databaseContainer(cached:)`).
            try insert.statement.execute(values: container.valueStorage, in: db)
            // The next container of the record type reuses the storage of
            // the values, once this insert is over.
            insert.recycle(container.valueStorage)
        }
        if resolution == .ignore && db.totalChangesCount == changesBefore {
            return InsertionResult(
                success: InsertionSuccess(rowID: 0, rowIDColumn: nil, persistenceContainer: container),
                didInsertRow: false)
        }
        return InsertionResult(
            success: InsertionSuccess(
                rowID: db.lastInsertedRowID,
                rowIDColumn: rowIDColumn,
                persistenceContainer: container),
            didInsertRow: true)
    }

    /// `INSERT INTO "table" ("a", "b") VALUES (?, ?)`.
    private func insertSQL(
        tableName: String,
        resolution: Database.ConflictResolution,
        container: PersistenceContainer) -> String
    {
        var sql = "INSERT" + resolution.orClause + " INTO " + tableName.quotedDatabaseIdentifier
        if container.isEmpty {
            sql += " DEFAULT VALUES"
        } else {
            sql += " (" + container.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
            sql += " VALUES (" + repeatElement("?", count: container.columns.count).joined(separator: ", ") + ")"
        }
        return sql
    }

    // MARK: Update

    /// Updates the row of the record: all columns, or the given columns.
    ///
    /// ```swift
    /// try player.update(db)
    /// // UPDATE "player" SET "name"=?, "score"=? WHERE "id"=?
    /// try player.update(db, columns: ["score"])
    /// // UPDATE "player" SET "score"=? WHERE "id"=?
    /// ```
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - conflictResolution: The conflict resolution; nil for the
    ///     ``persistenceConflictPolicy`` of the record type.
    ///   - columns: The columns to update; nil for all columns of the
    ///     record.
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` when
    ///   no row has the primary key of the record, a ``DatabaseError``, or
    ///   the error of a callback.
    public func update(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: Set<String>? = nil) throws
    {
        try willSave(db)
        var saved: PersistenceSuccess?
        try aroundSave(db) {
            let updatedColumns = try columns ?? Set(databaseContainer().columns)
            try willUpdate(db, columns: updatedColumns)
            var updated: PersistenceSuccess?
            try aroundUpdate(db, columns: updatedColumns) {
                let success = try updateRow(db, onConflict: conflictResolution, columns: columns)
                updated = success
                return success
            }
            guard let updated else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "aroundUpdate must call its update function")
            }
            didUpdate(updated)
            saved = updated
            return updated
        }
        guard let saved else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "aroundSave must call its save function")
        }
        didSave(saved)
    }

    /// Updates the given columns of the row of the record: see
    /// ``update(_:onConflict:columns:)-(_,_,Set<String>?)``.
    ///
    /// ```swift
    /// let columns = ["name", "score"]
    /// try player.update(db, columns: columns)
    /// ```
    ///
    /// - Throws: See ``update(_:onConflict:columns:)-(_,_,Set<String>?)``.
    @_disfavoredOverload
    public func update(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<String>) throws
    {
        try update(db, onConflict: conflictResolution, columns: Set(columns))
    }

    /// Updates the given columns of the row of the record.
    ///
    /// ```swift
    /// try player.update(db, columns: [Column("score")])
    /// // UPDATE "player" SET "score"=? WHERE "id"=?
    /// ```
    ///
    /// - Throws: See ``update(_:onConflict:columns:)-(_,_,Set<String>?)``.
    public func update(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<some ColumnExpression>) throws
    {
        try update(db, onConflict: conflictResolution, columns: Set(columns.map(\.name)))
    }

    /// Updates the columns whose values differ from another record, and
    /// returns whether something was written.
    ///
    /// ```swift
    /// let old = player
    /// player.score = 1000
    /// try player.updateChanges(db, from: old)
    /// // UPDATE "player" SET "score"=? WHERE "id"=?
    /// ```
    ///
    /// - Returns: Whether the record had changes, and was updated.
    /// - Throws: See ``update(_:onConflict:columns:)``.
    @discardableResult
    public func updateChanges(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        from record: some EncodableRecord) throws -> Bool
    {
        try updateChanges(db, onConflict: conflictResolution, from: record.databaseContainer())
    }

    /// Updates the columns whose values differ from `old`.
    private func updateChanges(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        from old: PersistenceContainer) throws -> Bool
    {
        let changes = try databaseChanges(from: old)
        guard !changes.isEmpty else { return false }
        try update(db, onConflict: conflictResolution, columns: Set(changes.keys))
        return true
    }

    /// Modifies the record, updates the columns that changed, and returns
    /// whether something was written.
    ///
    /// ```swift
    /// try player.updateChanges(db) {
    ///     $0.score = 1000
    /// }
    /// ```
    ///
    /// - Returns: Whether the record had changes, and was updated.
    /// - Throws: See ``update(_:onConflict:columns:)``, and the error of
    ///   `modify`.
    @discardableResult
    public mutating func updateChanges(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        modify: (inout Self) throws -> Void) throws -> Bool
    {
        // Encoded before the modification: for a class, `self` and a copy
        // of it are the same object.
        let old = try databaseContainer()
        try modify(&self)
        return try updateChanges(db, onConflict: conflictResolution, from: old)
    }

    /// Runs the UPDATE statement.
    private func updateRow(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        columns: Set<String>?) throws -> PersistenceSuccess
    {
        let container = try databaseContainer()
        let tableName = type(of: self).databaseTableName
        let key = try primaryKey(db, in: container)
        let resolution = conflictResolution ?? type(of: self).persistenceConflictPolicy.conflictResolutionForUpdate

        // The updated columns, in the order of the container, without the
        // primary key. With nothing to update, the key sets itself, so that
        // a missing row is still noticed.
        let lowercasedColumns = columns.map { Set($0.map { $0.lowercased() }) }
        let keyColumns = Set(key.map { $0.column.lowercased() })
        var assignments = container.storage.map { (column: $0, value: $1) }.filter { entry in
            !keyColumns.contains(entry.column.lowercased())
                && (lowercasedColumns?.contains(entry.column.lowercased()) ?? true)
        }
        if assignments.isEmpty {
            assignments = key.map { (column: $0.column, value: $0.value) }
        }

        var sql = "UPDATE" + resolution.orClause + " " + tableName.quotedDatabaseIdentifier + " SET "
        sql += assignments.map { $0.column.quotedDatabaseIdentifier + "=?" }.joined(separator: ", ")
        sql += " WHERE " + key.map { $0.column.quotedDatabaseIdentifier + "=?" }.joined(separator: " AND ")
        let arguments = StatementArguments(assignments.map { $0.value } + key.map { $0.value })
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
        if db.changesCount == 0 {
            throw RecordError.recordNotFound(databaseTableName: tableName, key: Dictionary(
                key.map { ($0.column, $0.value) }, uniquingKeysWith: { $1 }))
        }
        return PersistenceSuccess(persistenceContainer: container)
    }

    // MARK: Save

    /// Updates the record if it has a primary key that exists in the
    /// database, and inserts it otherwise.
    ///
    /// ```swift
    /// var player = Player(id: nil, name: "Arthur")
    /// try player.save(db) // inserts
    /// player.name = "Barbara"
    /// try player.save(db) // updates
    /// ```
    ///
    /// - Throws: A ``DatabaseError``, or the error of a callback.
    public mutating func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try performSave(db, onConflict: conflictResolution)
    }

    mutating func performSave(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws {
        if try hasPrimaryKeyValue(db) {
            do {
                try update(db, onConflict: conflictResolution)
                return
            } catch RecordError.recordNotFound {
                // Not in the database yet: insert below.
            }
        }
        try performInsert(db, onConflict: conflictResolution, returning: nil)
    }

    /// Returns a copy of the record, saved.
    ///
    /// - Throws: See ``save(_:onConflict:)``.
    @discardableResult
    public func saved(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        var record = self
        try record.performSave(db, onConflict: conflictResolution)
        return record
    }

    // MARK: Upsert

    /// Inserts the record, or updates the row that it conflicts with, in one
    /// statement: `INSERT ... ON CONFLICT DO UPDATE SET ...`.
    ///
    /// All columns but the primary key are updated on conflict. The record's
    /// ``MutablePersistableRecord/didInsert(_:)`` receives the rowid of the
    /// inserted or updated row.
    ///
    /// - Throws: A ``DatabaseError``, or the error of a callback.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_upsert.html>
    public mutating func upsert(_ db: Database) throws {
        _ = try upsertRow(db)
    }

    /// Runs the upsert statement, and returns the row of `RETURNING *`.
    mutating func upsertRow(_ db: Database) throws -> Row? {
        var fetched: Row?
        try performInsert(db, onConflict: nil, upsert: true) { fetched = $0 }
        return fetched
    }

    /// Runs the upsert statement: the insertion, and the row of
    /// `RETURNING *` (nil when `ON CONFLICT DO NOTHING` skipped the row).
    private func upsertStatement(_ db: Database) throws -> (InsertionSuccess, Row?) {
        let container = try databaseContainer()
        let tableName = type(of: self).databaseTableName
        let primaryKey = try db.primaryKey(tableName)
        let keyColumns = Set(primaryKey.columns.map { $0.lowercased() })
        var updated = container.columns.filter { !keyColumns.contains($0.lowercased()) }
        if updated.isEmpty {
            updated = primaryKey.columns.filter { _ in !primaryKey.isRowID }
        }

        var sql = "INSERT INTO " + tableName.quotedDatabaseIdentifier
        if container.isEmpty {
            sql += " DEFAULT VALUES"
        } else {
            sql += " (" + container.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
            sql += " VALUES (" + repeatElement("?", count: container.columns.count).joined(separator: ", ") + ")"
        }
        if updated.isEmpty {
            sql += " ON CONFLICT DO NOTHING"
        } else {
            sql += " ON CONFLICT DO UPDATE SET "
            sql += updated.map { $0.quotedDatabaseIdentifier + " = excluded." + $0.quotedDatabaseIdentifier }
                .joined(separator: ", ")
        }
        sql += " RETURNING rowid, *"
        let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: StatementArguments(values: container.values))
        let rowIDColumn = primaryKey.rowIDColumn == "rowid" ? nil : primaryKey.rowIDColumn
        guard let row else {
            // ON CONFLICT DO NOTHING skipped the row, which is in the
            // database already: the record holds nothing but its rowid.
            let rowID = rowIDColumn.flatMap { container.databaseValue(forColumn: $0) }.flatMap { Int64.fromDatabaseValue($0) }
            return (InsertionSuccess(rowID: rowID ?? 0, rowIDColumn: rowIDColumn, persistenceContainer: container), nil)
        }
        let inserted = InsertionSuccess(rowID: row[0], rowIDColumn: rowIDColumn, persistenceContainer: container)
        let fetched = Row(columnNames: Array(row.columnNames.dropFirst()), values: Array(row.databaseValues.dropFirst()))
        fetched.isFetched = true
        return (inserted, fetched)
    }

    // MARK: Delete

    /// Deletes the row of the record.
    ///
    /// ```swift
    /// try player.delete(db)
    /// // DELETE FROM "player" WHERE "id"=?
    /// ```
    ///
    /// - Returns: Whether a row was deleted.
    /// - Throws: A ``DatabaseError``, or the error of a callback.
    @discardableResult
    public func delete(_ db: Database) throws -> Bool {
        try willDelete(db)
        var deleted: Bool?
        try aroundDelete(db) {
            let container = try databaseContainer()
            let key = try primaryKey(db, in: container)
            let sql = "DELETE FROM " + type(of: self).databaseTableName.quotedDatabaseIdentifier
                + " WHERE " + key.map { $0.column.quotedDatabaseIdentifier + "=?" }.joined(separator: " AND ")
            try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(key.map { $0.value }))
            let result = db.changesCount > 0
            deleted = result
            return result
        }
        guard let deleted else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "aroundDelete must call its delete function")
        }
        didDelete(deleted: deleted)
        return deleted
    }

    // MARK: Exists

    /// Whether a row has the primary key of the record.
    ///
    /// - Throws: A ``DatabaseError``.
    public func exists(_ db: Database) throws -> Bool {
        let container = try databaseContainer()
        let key = try primaryKey(db, in: container)
        let sql = "SELECT 1 FROM " + type(of: self).databaseTableName.quotedDatabaseIdentifier
            + " WHERE " + key.map { $0.column.quotedDatabaseIdentifier + "=?" }.joined(separator: " AND ")
            + " LIMIT 1"
        return try Int.fetchOne(db.cachedStatement(sql: sql), arguments: StatementArguments(key.map { $0.value })) != nil
    }

    // MARK: Primary key

    /// The primary key columns of the table and their values in the record.
    ///
    /// - Throws: ``RecordError/invalidKey(databaseTableName:message:)`` when
    ///   the record does not encode a primary key column.
    private func primaryKey(
        _ db: Database,
        in container: PersistenceContainer) throws -> [(column: String, value: DatabaseValue)]
    {
        let tableName = type(of: self).databaseTableName
        let primaryKey = try db.primaryKey(tableName)
        return try primaryKey.columns.map { column in
            guard let value = container.databaseValue(forColumn: column) else {
                throw RecordError.invalidKey(
                    databaseTableName: tableName,
                    message: "the record does not encode the primary key column \(column)")
            }
            return (column, value)
        }
    }

    /// Whether the record has a non-NULL value for each primary key column.
    private func hasPrimaryKeyValue(_ db: Database) throws -> Bool {
        let container = try databaseContainer()
        let primaryKey = try db.primaryKey(type(of: self).databaseTableName)
        return primaryKey.columns.allSatisfy { column in
            container.databaseValue(forColumn: column).map { !$0.isNull } ?? false
        }
    }
}

extension MutablePersistableRecord where Self: FetchableRecord {
    /// Inserts the record, and returns the inserted row, decoded, with the
    /// values that the database set (defaults, auto-incremented id…):
    /// `INSERT ... RETURNING *`.
    ///
    /// - Throws: See ``MutablePersistableRecord/insert(_:onConflict:)``.
    @discardableResult
    public func insertAndFetch(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self?
    {
        var record = self
        var fetched: Self?
        try record.performInsert(db, onConflict: conflictResolution) { row in
            fetched = try type(of: self).init(row: row)
        }
        return fetched
    }

    /// Inserts the record, or updates the row that it conflicts with, and
    /// returns the row, decoded: `INSERT ... ON CONFLICT DO UPDATE ...
    /// RETURNING *`.
    ///
    /// - Throws: See ``MutablePersistableRecord/upsert(_:)``.
    @discardableResult
    public func upsertAndFetch(_ db: Database) throws -> Self {
        var record = self
        guard let row = try record.upsertRow(db) else {
            throw RecordError.recordNotFound(databaseTableName: type(of: self).databaseTableName, key: [:])
        }
        return try type(of: self).init(row: row)
    }
}

// MARK: - PersistableRecord

extension PersistableRecord {
    /// Inserts the record: see
    /// ``MutablePersistableRecord/insert(_:onConflict:)``.
    ///
    /// - Throws: A ``DatabaseError``, or the error of a callback.
    @inlinable
    public func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        var record = self
        try record.performInsert(db, onConflict: conflictResolution, returning: nil)
    }

    /// Saves the record: see ``MutablePersistableRecord/save(_:onConflict:)``.
    ///
    /// - Throws: A ``DatabaseError``, or the error of a callback.
    public func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        var record = self
        try record.performSave(db, onConflict: conflictResolution)
    }

    /// Upserts the record: see ``MutablePersistableRecord/upsert(_:)``.
    ///
    /// - Throws: A ``DatabaseError``, or the error of a callback.
    public func upsert(_ db: Database) throws {
        var record = self
        _ = try record.upsertRow(db)
    }
}

/// What the insert of a record did (see
/// `MutablePersistableRecord.insertRow(_:onConflict:upsert:returning:)`).
@usableFromInline
struct InsertionResult {
    /// The success given to `aroundInsert`. When no row was inserted, its
    /// rowid is 0.
    @usableFromInline var success: InsertionSuccess
    /// False when the `ignore` conflict resolution skipped the row.
    @usableFromInline var didInsertRow: Bool

    init(success: InsertionSuccess, didInsertRow: Bool) {
        self.success = success
        self.didInsertRow = didInsertRow
    }
}
