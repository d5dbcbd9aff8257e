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
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "aroundSave must call its save function")
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
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "aroundInsert must call its insert function")
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
    /// The update callbacks run, surrounded by the save callbacks.
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
        let updatedColumns = try columns ?? Set(databaseContainer().columns)
        try willUpdate(db, columns: updatedColumns)
        var updated: PersistenceSuccess?
        try aroundUpdate(db, columns: updatedColumns) {
            let success = try updateRow(db, onConflict: conflictResolution, columns: columns, returning: returning)
            updated = success
            return success
        }
        guard let updated else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "aroundUpdate must call its update function")
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
        // The columns as the table names them, whatever the case of the
        // encoded keys.
        // (A linear search in the cached names: no allocation per update.)
        let tableColumns = try db.selectedColumnNames(in: tableName)
        sql += assignments
            .map { assignment in
                let name = tableColumns.first { $0.equalsIgnoringASCIICase(assignment.column) } ?? assignment.column
                return name.quotedDatabaseIdentifier + "=?"
            }
            .joined(separator: ", ")
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
        guard try hasPrimaryKeyValue(db) else {
            try performInsert(db, onConflict: conflictResolution, returning: returning)
            return
        }
        // The save callbacks surround the update, and the insert that
        // follows when no row has the key of the record.
        try withSaveCallbacks(db) { record in
            do {
                return try record.updateWithCallbacks(db, onConflict: conflictResolution, columns: nil, returning: returning)
            } catch RecordError.recordNotFound {
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
        return try Int.fetchOne(db.generatedStatement(sql: sql), arguments: StatementArguments(key.map { $0.value })) != nil
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

    /// Whether the record has a non-NULL value for each primary key column.
    private func hasPrimaryKeyValue(_ db: Database) throws -> Bool {
        let container = try databaseContainer()
        let primaryKey = try db.primaryKey(type(of: self).databaseTableName)
        return primaryKey.columns.allSatisfy { column in
            container.databaseValue(forColumn: column).map { !$0.isNull } ?? false
        }
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
