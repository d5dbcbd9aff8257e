import Foundation
internal import CairnSQLiteShims

// Serialized databases: the bytes of a database file, in memory.
//
// `serialize` returns what a file of the database would hold;
// `deserialize` makes a schema of the connection an in-memory database that
// starts from such bytes. The bytes are checked on a private scratch
// connection before the schema is replaced, so that bytes that are not a
// database leave the connection as it was.

extension Database {
    /// Returns the bytes of a database file of the schema: what a file
    /// holding the database would contain, whether the schema is a file, an
    /// in-memory database, or a deserialized one.
    ///
    /// ```swift
    /// let bytes = try dbQueue.read { db in try db.serialize() }
    /// let copy = try DatabaseQueue(deserializing: bytes)
    /// ```
    ///
    /// The bytes are read in one read transaction: they are a consistent
    /// state of the database, with the committed content of the WAL of a
    /// ``DatabasePool``. The page size and the header are those of the
    /// schema; a database in WAL mode gives bytes that say so, and
    /// ``deserialize(_:schema:readOnly:)`` accepts them.
    ///
    /// With encryption (trait `SQLITE_HAS_CODEC`), the bytes are those of
    /// the decrypted pages: a clear-text database, which opens without
    /// passphrase. Protect them as the data itself.
    ///
    /// - Parameter schema: "main" (the default), "temp", or the name of an
    ///   attached database.
    /// - Returns: The bytes; empty for a database that has no page yet.
    /// - Throws: A ``DatabaseError``: `SQLITE_ERROR` when the schema does not
    ///   exist, `SQLITE_NOMEM` when the bytes do not fit in memory.
    ///
    /// The corresponding C function is `sqlite3_serialize`
    /// (see <https://www.sqlite.org/c3ref/serialize.html>).
    public func serialize(schema: String = "main") throws -> Data {
        preconditionInsideAccess()
        guard let connection = sqliteConnection else {
            throw DatabaseError.connectionIsClosed()
        }
        try checkSchemaExists(schema, for: "serialize")
        var size: Int64 = 0
        guard let bytes = sqlite3_serialize(connection, schema, &size, 0) else {
            // -1: a schema that SQLite did not open yet ("temp").
            if size <= 0 { return Data() }
            throw makeError(
                resultCode: .SQLITE_NOMEM,
                message: "cannot serialize the schema \(schema): \(size) bytes could not be allocated",
                sql: nil, arguments: nil)
        }
        // No copy: the Data frees SQLite's buffer.
        return Data(bytesNoCopy: bytes, count: Int(size), deallocator: .custom { bytes, _ in sqlite3_free(bytes) })
    }

    /// Replaces a schema of the connection with an in-memory database that
    /// starts from the bytes of a database file.
    ///
    /// ```swift
    /// try dbQueue.inDatabase { db in
    ///     try db.deserialize(bytes)
    ///     let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
    /// }
    /// ```
    ///
    /// The bytes are copied: changes to the schema change the copy only,
    /// and never the file of the connection, if any. Other connections to
    /// that file (the readers of a ``DatabasePool``) do not see the
    /// deserialized database. To start from bytes, prefer
    /// `DatabaseQueue(deserializing:configuration:)`; to write them into a
    /// file, deserialize them into a queue and back it up into the file
    /// (``DatabaseReader/backup(to:pagesPerStep:progress:)``).
    ///
    /// Bytes of a database in WAL mode are accepted: the in-memory database
    /// uses a rollback journal. Statements prepared on the schema are
    /// prepared again, and transaction observers hear of a change of the
    /// whole database.
    ///
    /// - Parameters:
    ///   - data: The bytes of a database file, as ``serialize(schema:)``
    ///     returns them, or as read from a file. Empty bytes give an empty
    ///     database.
    ///   - schema: "main" (the default), or the name of an attached
    ///     database (`ATTACH DATABASE ':memory:' AS name` attaches an empty
    ///     one). Not "temp".
    ///   - readOnly: Whether writes to the schema fail with
    ///     `SQLITE_READONLY`. While a read-only schema is attached, the
    ///     transactions that lock every schema for writing
    ///     (`BEGIN IMMEDIATE`, the default of `write`) fail too.
    /// - Throws: A ``DatabaseError``, and the connection is left as it was:
    ///   `SQLITE_NOTADB` when the bytes are not a database, `SQLITE_MISUSE`
    ///   inside a transaction, `SQLITE_BUSY` while a cursor is not
    ///   finished, `SQLITE_READONLY` in a read-only access,
    ///   `SQLITE_ERROR` for the "temp" schema or a schema that is not
    ///   attached.
    ///
    /// The corresponding C function is `sqlite3_deserialize`
    /// (see <https://www.sqlite.org/c3ref/deserialize.html>).
    public func deserialize(_ data: Data, schema: String = "main", readOnly: Bool = false) throws {
        preconditionInsideAccess()
        try checkValidAccess(forWritesOf: "a database is deserialized")
        if isReadOnlyAccess {
            throw makeError(
                resultCode: .SQLITE_READONLY,
                message: "cannot deserialize a database in a read-only access", sql: nil, arguments: nil)
        }
        if schema.lowercased() == "temp" {
            throw makeError(
                resultCode: .SQLITE_ERROR,
                message: "cannot deserialize into the temp schema: use main or an attached schema",
                sql: nil, arguments: nil)
        }
        try checkSchemaExists(schema, for: "deserialize (attach it first: ATTACH DATABASE ':memory:' AS name)")
        if isInsideTransaction {
            throw makeError(
                resultCode: .SQLITE_MISUSE,
                message: "cannot deserialize a database inside a transaction: "
                    + "use writeWithoutTransaction or inDatabase, outside of inTransaction",
                sql: nil, arguments: nil)
        }
        try replaceSchema(schema, with: data, readOnly: readOnly)
    }

    /// Replaces a schema with an in-memory database that starts from
    /// `data`, after the checks of ``deserialize(_:schema:readOnly:)``
    /// (a new read-only queue skips the check of its read-only
    /// configuration).
    func replaceSchema(_ schema: String, with data: Data, readOnly: Bool) throws {
        guard let connection = sqliteConnection else {
            throw DatabaseError.connectionIsClosed()
        }
        // SQLite owns the copy (FREEONCLOSE), and frees it when
        // sqlite3_deserialize fails.
        let count = data.count
        guard let buffer = sqlite3_malloc64(UInt64(max(count, 1)))?.assumingMemoryBound(to: UInt8.self) else {
            throw makeError(
                resultCode: .SQLITE_NOMEM,
                message: "cannot deserialize \(count) bytes: the copy could not be allocated",
                sql: nil, arguments: nil)
        }
        data.copyBytes(to: buffer, count: count)
        if count >= 20 && buffer[18] == 2 && buffer[19] == 2 {
            // WAL mode (file format versions 2): an in-memory database
            // cannot use a WAL, and would fail to open with SQLITE_CANTOPEN.
            // Version 1 is the rollback journal, with the same pages.
            buffer[18] = 1
            buffer[19] = 1
        }
        if let error = Database.checkDatabaseBytes(buffer, count: count) {
            sqlite3_free(buffer)
            throw error
        }

        // Open blobs read the schema.
        if let error = closeTransactionScopedResources() {
            sqlite3_free(buffer)
            throw error
        }
        // SQLite does not check that no statement reads the schema: the
        // statement of an open cursor would go on reading the freed pages
        // of the replaced database.
        if sqlite3_txn_state(connection, schema) != SQLITE_TXN_NONE || Database.hasBusyStatement(connection) {
            sqlite3_free(buffer)
            throw makeError(
                resultCode: .SQLITE_BUSY,
                message: "cannot deserialize while a statement runs (a cursor that is not finished): "
                    + "finish or release it first",
                sql: nil, arguments: nil)
        }
        var flags = UInt32(SQLITE_DESERIALIZE_FREEONCLOSE)
        flags |= UInt32(readOnly ? SQLITE_DESERIALIZE_READONLY : SQLITE_DESERIALIZE_RESIZEABLE)
        let code = sqlite3_deserialize(connection, schema, buffer, Int64(count), Int64(max(count, 1)), flags)
        state.schemaCache.clear()
        guard code == SQLITE_OK else {
            throw lastError(code: code)
        }
        // The new schema may have the schema cookie of the old one: without
        // this, prepared statements would run their old plans (old root
        // pages) on the new database. Setting the authorizer again expires
        // every prepared statement, which SQLite then prepares again.
        removeCachedStatements()
        setUpAuthorizer()
        activeStatementHooks?.databaseWasReplaced(in: self)
    }

    /// Whether a statement of the connection is running (stepped, not
    /// reset nor done).
    private static func hasBusyStatement(_ connection: SQLiteConnection) -> Bool {
        var statement = sqlite3_next_stmt(connection, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { return true }
            statement = sqlite3_next_stmt(connection, current)
        }
        return false
    }

    /// Throws when `schema` is not a schema of the connection ("temp"
    /// exists before SQLite opens it).
    private func checkSchemaExists(_ schema: String, for operation: String) throws {
        guard let connection = sqliteConnection else { return }
        guard schema.lowercased() == "temp" || sqlite3_db_filename(connection, schema) != nil else {
            throw makeError(
                resultCode: .SQLITE_ERROR,
                message: "cannot \(operation): no such schema: \(schema)",
                sql: nil, arguments: nil)
        }
    }

    /// Opens the bytes read-only on a private scratch connection, and reads
    /// their schema: nil when they are a database, the error otherwise.
    /// The bytes are not copied, and not changed.
    private static func checkDatabaseBytes(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) -> DatabaseError? {
        if count == 0 { return nil }
        var scratch: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY | SQLITE_OPEN_NOMUTEX
        defer { sqlite3_close_v2(scratch) }
        guard Database.open(":memory:", &scratch, flags) == SQLITE_OK, let scratch else {
            return DatabaseError(
                resultCode: .SQLITE_NOMEM,
                message: "cannot open a scratch connection to check the bytes of a database")
        }
        var code = sqlite3_deserialize(
            scratch, "main", bytes, Int64(count), Int64(count), UInt32(SQLITE_DESERIALIZE_READONLY))
        if code == SQLITE_OK {
            code = sqlite3_exec(scratch, "SELECT COUNT(*) FROM sqlite_schema", nil, nil, nil)
        }
        guard code == SQLITE_OK else {
            let reason = String(cString: sqlite3_errmsg(scratch))
            return DatabaseError(
                resultCode: ResultCode(rawValue: code == SQLITE_CORRUPT ? SQLITE_NOTADB : code),
                message: "cannot deserialize \(count) bytes: they are not a database (\(reason))")
        }
        return nil
    }
}
