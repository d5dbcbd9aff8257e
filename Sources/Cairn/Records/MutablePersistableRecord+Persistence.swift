// The persistence methods of records: insert, update, save, upsert, delete,
// exists. Records are found by the primary key of their table.

extension MutablePersistableRecord {
    // MARK: Insert

    /// Inserts the record.
    ///
    /// ```swift
    /// var player = Player(id: nil, name: "Arthur")
    /// try player.insert(db)
    /// // INSERT INTO "player" ("id", "name") VALUES (NULL,'Arthur')
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
    ///   - upsert: When not nil, the statement is an upsert (see
    ///     ``upsert(_:)``) rather than an INSERT.
    ///   - returning: When not nil, the RETURNING clause of the statement,
    ///     and the function that reads its rows.
    ///
    /// Inlinable: specialized for the record type, the callbacks that the
    /// type does not customize cost nothing, and the record is copied
    /// without value witnesses. The encoding and the statement run in
    /// ``insertRow(_:onConflict:upsert:returning:)``, which is not inlined.
    @inlinable
    mutating func performInsert(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        upsert: UpsertClause? = nil,
        returning: PersistenceReturning?) throws
    {
        try withSaveCallbacks(db) { record in
            try record.insertWithCallbacks(db, onConflict: conflictResolution, upsert: upsert, returning: returning)
        }
    }

    /// Runs `save` (an insert or an update, with their own callbacks) on a
    /// copy of the record, inside the save callbacks, and keeps the copy.
    @inlinable
    mutating func withSaveCallbacks(_ db: Database, _ save: (inout Self) throws -> PersistenceSuccess) throws {
        try willSave(db)
        var saved: PersistenceSuccess?
        var record = self
        try aroundSave(db) {
            let success = try save(&record)
            saved = success
            return success
        }
        guard let saved else {
            throw persistenceCallbackMisuse("aroundSave")
        }
        self = record
        didSave(saved)
    }

    /// Inserts the record, and runs the insert callbacks (not the save
    /// callbacks, which surround it).
    @inlinable
    mutating func insertWithCallbacks(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        upsert: UpsertClause?,
        returning: PersistenceReturning?) throws -> PersistenceSuccess
    {
        try willInsert(db)
        var result: InsertionResult?
        try aroundInsert(db) {
            let inserted = try insertRow(db, onConflict: conflictResolution, upsert: upsert, returning: returning)
            result = inserted
            return inserted.success
        }
        // Taken out of the variable, so that the success takes the
        // container without a copy.
        guard let result = result.take() else {
            throw persistenceCallbackMisuse("aroundInsert")
        }
        if result.didInsertRow {
            didInsert(result.success)
            return PersistenceSuccess(result.success)
        }
        return PersistenceSuccess(persistenceContainer: result.success.persistenceContainer)
    }

    /// Encodes the record, and runs the INSERT statement.
    @usableFromInline
    func insertRow(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        upsert: UpsertClause?,
        returning: PersistenceReturning?) throws -> InsertionResult
    {
        if let upsert {
            let success = try upsertStatement(db, upsert)
            return InsertionResult(success: success, didInsertRow: true)
        }
        // The statement of the previous insert of the record type, whose
        // columns the record probably encodes again.
        // The dynamic type, once: a subclass of `Record` may be used as its
        // superclass, and an unspecialized `type(of:)` is a runtime call.
        let recordType = type(of: self)
        let cached = db.cachedInsertStatement(forRecordType: ObjectIdentifier(recordType))
        var container = try databaseContainer(cached: cached)
        let resolution = conflictResolution ?? recordType.persistenceConflictPolicy.conflictResolutionForInsert
        let tableName = recordType.databaseTableName
        let changesBefore = db.totalChangesCount
        // The rowid alias of the table (nil for `rowid`), read before the
        // INSERT runs: the INSERT is the last statement of the insert.
        let rowIDColumn: String?
        if let returning {
            let primaryKeyRowIDColumn = try db.primaryKey(tableName).rowIDColumn
            rowIDColumn = primaryKeyRowIDColumn == "rowid" ? nil : primaryKeyRowIDColumn
            let context = SQLGenerationContext(db)
            let sql = try insertSQL(tableName: tableName, resolution: resolution, container: container)
                + " RETURNING " + returning.selectionSQL(context, tableName: tableName)
            try returning.run(
                db.generatedStatement(sql: sql),
                arguments: StatementArguments(values: container.values) + context.arguments)
            container.setInsertedRowID(db, rowIDColumn: rowIDColumn, resolution: resolution, changesBefore: changesBefore)
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
                let statement = try db.generatedStatement(sql: insertSQL(tableName: tableName, resolution: resolution, container: container))
                insert = CachedInsertStatement(
                    recordType: recordType, tableName: tableName, resolution: resolution, columns: container.columnTemplate,
                    statement: statement, schemaGeneration: db.state.schemaCache.generation &- 1)
                db.insertStatementCache.statements[ObjectIdentifier(recordType)] = insert
            }
            // Read from the schema cache once per schema generation.
            if insert.schemaGeneration != db.state.schemaCache.generation {
                let primaryKeyRowIDColumn = try db.primaryKey(tableName).rowIDColumn
                insert.rowIDColumn = primaryKeyRowIDColumn == "rowid" ? nil : primaryKeyRowIDColumn
                insert.schemaGeneration = db.state.schemaCache.generation
            }
            rowIDColumn = insert.rowIDColumn
            // The container has no recycled value left: its value storage
            // holds its values (see `databaseContainer(cached:)`).
            try insert.statement.execute(values: container.valueStorage, in: db)
            // Before the storage is recycled: the storage is not shared yet,
            // and is modified in place.
            container.setInsertedRowID(db, rowIDColumn: rowIDColumn, resolution: resolution, changesBefore: changesBefore)
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

    /// `INSERT INTO "table" ("a", "b") VALUES (?,?)`.
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
            sql += " VALUES (" + repeatElement("?", count: container.columns.count).joined(separator: ",") + ")"
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
        try performUpdate(db, onConflict: conflictResolution, columns: columns, returning: nil)
    }

    /// Updates all columns of the row of the record.
    ///
    /// ```swift
    /// var player = try Player.find(db, id: 1)
    /// player.score = 1000
    /// try player.update(db)
    /// // UPDATE "player" SET "name"=?, "score"=? WHERE "id"=?
    /// ```
    ///
    /// The update callbacks run, surrounded by the save callbacks; they
    /// receive all the columns of the table. The statement sets the columns
    /// that the record encodes, but the primary key, in the order of the
    /// table. A record whose primary key is entirely NULL throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)`` without
    /// running a statement.
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - conflictResolution: The conflict resolution; nil for the
    ///     ``persistenceConflictPolicy`` of the record type.
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` when
    ///   no row has the primary key of the record, a ``DatabaseError``, or
    ///   the error of a callback.
    public func update(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try performUpdate(db, onConflict: conflictResolution, columns: nil, returning: nil)
    }

    /// Updates the row of the record, and runs the save and update
    /// callbacks.
    ///
    /// - Parameter returning: When not nil, the RETURNING clause of the
    ///   statement, and the function that reads its rows.
    func performUpdate(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        columns: Set<String>?,
        returning: PersistenceReturning?) throws
    {
        var record = self
        try record.withSaveCallbacks(db) { record in
            try record.updateWithCallbacks(db, onConflict: conflictResolution, columns: columns, returning: returning)
        }
    }

    /// Updates the row of the record, and runs the update callbacks (not
    /// the save callbacks, which surround it).
    func updateWithCallbacks(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        columns: Set<String>?,
        returning: PersistenceReturning?) throws -> PersistenceSuccess
    {
        // All the columns of the table, as GRDB gives them to the
        // callbacks, when no column is given.
        let updatedColumns = try columns ?? Set(db.selectedColumnNames(in: type(of: self).databaseTableName))
        try willUpdate(db, columns: updatedColumns)
        var updated: PersistenceSuccess?
        try aroundUpdate(db, columns: updatedColumns) {
            let success = try updateRow(db, onConflict: conflictResolution, columns: columns, returning: returning)
            updated = success
            return success
        }
        guard let updated else {
            throw persistenceCallbackMisuse("aroundUpdate")
        }
        didUpdate(updated)
        return updated
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
    /// - Throws: See ``update(_:onConflict:columns:)-(_,_,Set<String>?)``.
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
    /// - Throws: See ``update(_:onConflict:columns:)-(_,_,Set<String>?)``, and the error of
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
        columns: Set<String>?,
        returning: PersistenceReturning?) throws -> PersistenceSuccess
    {
        let container = try databaseContainer()
        let tableName = type(of: self).databaseTableName
        let key = try primaryKey(db, in: container)
        let resolution = conflictResolution ?? type(of: self).persistenceConflictPolicy.conflictResolutionForUpdate

        // A record whose key is entirely NULL matches no row: no statement.
        if key.allSatisfy({ $0.value.isNull }) {
            throw RecordError.recordNotFound(databaseTableName: tableName, key: Dictionary(
                key.map { ($0.column, $0.value) }, uniquingKeysWith: { $1 }))
        }

        // The updated columns, as the table names them and in the order of
        // the table, whatever the case and order of the encoded keys: the
        // given columns that the record encodes, without the primary key.
        // With nothing to update, the key sets itself, so that a missing
        // row is still noticed.
        // (No allocation per column when all columns are updated.)
        let lowercasedColumns = columns.map { Set($0.map { $0.lowercased() }) }
        var assignments: [(column: String, value: DatabaseValue)] = []
        for column in try db.selectedColumnNames(in: tableName) {
            if key.contains(where: { $0.column.equalsIgnoringASCIICase(column) }) { continue }
            if let lowercasedColumns, !lowercasedColumns.contains(column.lowercased()) { continue }
            if let value = container.databaseValue(forColumn: column) {
                assignments.append((column, value))
            }
        }
        if assignments.isEmpty {
            assignments = key.map { (column: $0.column, value: $0.value) }
        }

        var sql = "UPDATE" + resolution.orClause + " " + tableName.quotedDatabaseIdentifier + " SET "
        sql += assignments.map { $0.column.quotedDatabaseIdentifier + "=?" }.joined(separator: ", ")
        sql += " WHERE " + key.map { $0.column.quotedDatabaseIdentifier + "=?" }.joined(separator: " AND ")
        let arguments = StatementArguments(assignments.map { $0.value } + key.map { $0.value })
        // SQLite does not count the changes of a view, made by its INSTEAD
        // OF triggers: for a view, the changes are those of its triggers.
        let isView = try db.isCachedView(tableName)
        let totalChangesBefore = db.totalChangesCount
        if let returning {
            let context = SQLGenerationContext(db)
            sql += " RETURNING " + (try returning.selectionSQL(context, tableName: tableName))
            try returning.run(db.generatedStatement(sql: sql), arguments: arguments + context.arguments)
        } else {
            try db.generatedStatement(sql: sql).execute(arguments: arguments)
        }
        if isView ? db.totalChangesCount == totalChangesBefore : db.changesCount == 0 {
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

    mutating func performSave(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        returning: PersistenceReturning? = nil) throws
    {
        guard let key = try savedPrimaryKey(db) else {
            try performInsert(db, onConflict: conflictResolution, returning: returning)
            return
        }
        // The save callbacks surround the update, and the insert that
        // follows when no row has the key of the record (the error of the
        // update itself: a callback that throws `recordNotFound` for
        // another table or key cancels the save, as in GRDB).
        let tableName = type(of: self).databaseTableName
        try withSaveCallbacks(db) { record in
            do {
                return try record.updateWithCallbacks(db, onConflict: conflictResolution, columns: nil, returning: returning)
            } catch RecordError.recordNotFound(databaseTableName: tableName, key: key) {
                return try record.insertWithCallbacks(db, onConflict: conflictResolution, upsert: nil, returning: returning)
            }
        }
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
        try upsertRow(db)
    }

    /// Runs the upsert statement, with the default conflict target and
    /// assignments.
    mutating func upsertRow(_ db: Database) throws {
        try performInsert(db, onConflict: nil, upsert: UpsertClause(), returning: nil)
    }

    /// Runs the upsert statement, and returns the success of the insertion,
    /// with the rowid of the inserted or updated row.
    ///
    /// `INSERT INTO "t" (...) VALUES (...) ON CONFLICT[(target)] DO UPDATE
    /// SET ... RETURNING [selection, ]"rowid"`: the explicit assignments
    /// first, then every other column of the record that is not in the
    /// conflict target or the primary key, set to its new value
    /// (`"excluded"."column"`), but those marked
    /// ``ColumnExpression/noOverwrite``. With nothing to update, the first
    /// column of the primary key (`"rowid"` for a table without explicit
    /// primary key) is set to itself, as GRDB does, so that the statement
    /// returns the row that exists.
    private func upsertStatement(_ db: Database, _ upsert: UpsertClause) throws -> InsertionSuccess
    {
        var container = try databaseContainer()
        let tableName = type(of: self).databaseTableName
        let primaryKey = try db.primaryKey(tableName)
        let context = SQLGenerationContext(db)

        var sql = "INSERT INTO " + tableName.quotedDatabaseIdentifier
        if container.isEmpty {
            sql += " DEFAULT VALUES"
        } else {
            sql += " (" + container.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
            sql += " VALUES (" + repeatElement("?", count: container.columns.count).joined(separator: ",") + ")"
        }
        var arguments = StatementArguments(values: container.values)
        sql += " ON CONFLICT"
        if !upsert.conflictTarget.isEmpty {
            sql += "(" + upsert.conflictTarget.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        }

        let explicitAssignments = upsert.assignments ?? []
        let explicitColumns = Set(explicitAssignments.map { $0.columnName.lowercased() })
        let keptColumns = Set(upsert.conflictTarget.map { $0.lowercased() } + primaryKey.columns.map { $0.lowercased() })
        var assignments = try explicitAssignments.filter { $0.value != nil }.map { try $0.sql(context) }
        for column in container.columns {
            let lowercased = column.lowercased()
            if keptColumns.contains(lowercased) || explicitColumns.contains(lowercased) { continue }
            assignments.append(column.quotedDatabaseIdentifier + " = \"excluded\"." + column.quotedDatabaseIdentifier)
        }
        if assignments.isEmpty {
            let column = (primaryKey.columns.first ?? "rowid").quotedDatabaseIdentifier
            assignments = [column + " = " + column]
        }
        sql += " DO UPDATE SET " + assignments.joined(separator: ", ")
        let hasRowID = primaryKey.tableHasRowID
        let rowIDColumn = primaryKey.rowIDColumn == "rowid" ? nil : primaryKey.rowIDColumn

        var rowID: Int64 = 0
        if let returning = upsert.returning {
            sql += " RETURNING " + (try persistenceSelectionSQL(returning.selection, context, tableName: tableName))
            if hasRowID { sql += ", \"rowid\"" }
            arguments += context.arguments
            // DO UPDATE always returns the row, inserted or updated.
            guard let row = try Row.fetchOne(db.generatedStatement(sql: sql), arguments: arguments) else {
                throw RecordError.recordNotFound(databaseTableName: tableName, key: [:])
            }
            let returned: Row
            if hasRowID {
                rowID = row[row.count - 1]
                returned = Row(columnNames: Array(row.columnNames.dropLast()), values: Array(row.databaseValues.dropLast()))
            } else {
                returned = row
            }
            returned.isFetched = true
            try returning.decode(returned)
        } else {
            arguments += context.arguments
            if hasRowID {
                sql += " RETURNING \"rowid\""
                rowID = try Int64.fetchOne(db.generatedStatement(sql: sql), arguments: arguments) ?? 0
            } else {
                try db.generatedStatement(sql: sql).execute(arguments: arguments)
            }
        }
        if let rowIDColumn { container[rowIDColumn] = rowID }
        return InsertionSuccess(rowID: rowID, rowIDColumn: rowIDColumn, persistenceContainer: container)
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
            // A record whose key is entirely NULL matches no row: no
            // statement.
            if key.allSatisfy({ $0.value.isNull }) {
                deleted = false
                return false
            }
            let tableName = type(of: self).databaseTableName
            let sql = "DELETE FROM " + tableName.quotedDatabaseIdentifier
                + " WHERE " + key.map { $0.column.quotedDatabaseIdentifier + "=?" }.joined(separator: " AND ")
            // For a view, the changes are those of its INSTEAD OF triggers.
            let isView = try db.isCachedView(tableName)
            let totalChangesBefore = db.totalChangesCount
            try db.generatedStatement(sql: sql).execute(arguments: StatementArguments(key.map { $0.value }))
            let result = isView ? db.totalChangesCount > totalChangesBefore : db.changesCount > 0
            deleted = result
            return result
        }
        guard let deleted else {
            throw persistenceCallbackMisuse("aroundDelete")
        }
        didDelete(deleted: deleted)
        return deleted
    }

    // MARK: Exists

    /// Whether a row has the primary key of the record.
    ///
    /// ```swift
    /// try player.exists(db)
    /// // SELECT EXISTS (SELECT 1 FROM "player" WHERE "id"=?)
    /// ```
    ///
    /// A record whose primary key is entirely NULL does not exist, and no
    /// statement runs.
    ///
    /// - Throws: A ``DatabaseError``.
    public func exists(_ db: Database) throws -> Bool {
        let container = try databaseContainer()
        let key = try primaryKey(db, in: container)
        if key.allSatisfy({ $0.value.isNull }) { return false }
        let sql = "SELECT EXISTS (SELECT 1 FROM " + type(of: self).databaseTableName.quotedDatabaseIdentifier
            + " WHERE " + key.map { $0.column.quotedDatabaseIdentifier + "=?" }.joined(separator: " AND ")
            + ")"
        return try Bool.fetchOne(db.generatedStatement(sql: sql), arguments: StatementArguments(key.map { $0.value })) ?? false
    }

    // MARK: Primary key

    /// The primary key columns of the table and their values in the record.
    /// A column that the record does not encode has the value NULL: such a
    /// record matches no row (an update throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)``).
    ///
    /// - Throws: A ``DatabaseError`` when the table does not exist.
    private func primaryKey(
        _ db: Database,
        in container: PersistenceContainer) throws -> [(column: String, value: DatabaseValue)]
    {
        let primaryKey = try db.primaryKey(type(of: self).databaseTableName)
        return primaryKey.columns.map { column in
            (column, container.databaseValue(forColumn: column) ?? .null)
        }
    }

    /// The primary key of the record, as an update that finds no row
    /// reports it, or nil when all its columns are NULL. With one non-NULL
    /// value at least, `save` tries an update first, as GRDB does.
    private func savedPrimaryKey(_ db: Database) throws -> [String: DatabaseValue]? {
        let key = try primaryKey(db, in: databaseContainer())
        if key.allSatisfy({ $0.value.isNull }) { return nil }
        return Dictionary(key.map { ($0.column, $0.value) }, uniquingKeysWith: { $1 })
    }
}

extension MutablePersistableRecord {
    /// The error of an `around…` callback that did not call its action, or
    /// did not rethrow its error: `SQLITE_MISUSE`, with GRDB's message.
    @usableFromInline
    func persistenceCallbackMisuse(_ callbackName: String) -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: "Incorrect implementation of the `\(Self.self).\(callbackName)` persistence callback: "
                + "the action function was not called, or its error was not rethrown.")
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
        try record.upsertRow(db)
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
