import Foundation
internal import CairnSQLiteShims

/// A handle on one BLOB value of the database, read and written in pieces
/// without loading the whole value in memory (incremental blob I/O).
///
/// Open one with ``Database/openBlob(table:column:rowID:schema:readOnly:)``:
///
/// ```swift
/// try dbQueue.read { db in
///     let blob = try db.openBlob(table: "document", column: "content", rowID: 1)
///     var offset = 0
///     while offset < blob.count {
///         let chunk = try blob.read(count: min(65_536, blob.count - offset), at: offset)
///         offset += chunk.count
///     }
/// }
/// ```
///
/// A blob has a fixed size: writing cannot make it grow. To store a large
/// value piece by piece, insert a `zeroblob(N)` of the final size first (SQLite
/// stores it without allocating N bytes), then write the pieces:
///
/// ```swift
/// try dbQueue.write { db in
///     try db.execute(
///         sql: "INSERT INTO document (id, content) VALUES (?, zeroblob(?))",
///         arguments: [1, fileSize])
///     let blob = try db.openBlob(table: "document", column: "content", rowID: 1, readOnly: false)
///     for (offset, piece) in pieces {
///         try blob.write(piece, at: offset)
///     }
/// }
/// ```
///
/// ## Lifetime
///
/// A blob belongs to the database access that opened it (the closure of
/// `read`, `write` or `inDatabase`). It is closed by ``close()``, when it is
/// released, before Cairn begins or ends a transaction or a savepoint
/// (``Database/beginTransaction(_:)``, ``Database/commit()``,
/// ``Database/rollback()``, `inTransaction`, `inSavepoint`, the end of
/// `write`), before a session of the session extension produces or applies
/// a changeset, and at the end of its access. SQLite refuses to commit, or
/// to begin or release a savepoint, while a blob opened for writing is open:
/// this is what lets a `write` block commit the changes of its blobs.
/// Transactions and savepoints run with `execute(sql:)` do not close blobs.
///
/// Using a blob outside of its access, on another thread, or once closed
/// throws a ``DatabaseError`` with the `SQLITE_MISUSE` code: it never reads a
/// handle that was closed. When the row of the blob is changed or deleted by
/// another statement, SQLite expires the blob, and its methods throw a
/// ``DatabaseError`` with the `SQLITE_ABORT` code; ``reopen(rowID:)`` gives it
/// a row again.
///
/// Writes through a blob do not run SQLite's update hook: Cairn tells its
/// transaction observers (``ValueObservation``, ``DatabaseRegionObservation``)
/// that the column of the row changed. SQLite runs the pre-update hook for
/// them, so that sessions of the session extension record them as updates
/// of the row.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/blob_open.html>
public final class DatabaseBlob {
    /// The connection of the blob.
    private let database: Database

    /// The access that opened the blob.
    private let access: DatabaseAccess

    /// The SQLite handle; valid while ``registration`` is not released.
    private let handle: BlobHandle

    /// The registration of the handle on the connection, which closes it
    /// once, inside an access (see `ConnectionResources`).
    private let registration: ConnectionResources.Registration

    /// The name of the table.
    public let table: String

    /// The name of the column.
    public let column: String

    /// The schema of the table: "main", "temp", or the name of an attached
    /// database.
    public let schema: String

    /// Whether the blob was opened for reading only.
    public let isReadOnly: Bool

    /// The rowid of the row whose value the blob reads and writes.
    public private(set) var rowID: Int64

    /// The size of the value, in bytes.
    ///
    /// The corresponding C function is `sqlite3_blob_bytes`.
    public private(set) var count: Int

    fileprivate init(
        database: Database,
        access: DatabaseAccess,
        handle: OpaquePointer,
        table: String,
        column: String,
        schema: String,
        rowID: Int64,
        isReadOnly: Bool)
    {
        self.database = database
        self.access = access
        let handle = BlobHandle(handle)
        self.handle = handle
        self.table = table
        self.column = column
        self.schema = schema
        self.rowID = rowID
        self.isReadOnly = isReadOnly
        self.count = Int(sqlite3_blob_bytes(handle.pointer))
        registration = database.resources.register(endsWithTransaction: true, mayCommit: !isReadOnly) { _ in
            sqlite3_blob_close(handle.pointer)
        }
    }

    deinit {
        // Released inside its access: closed now. Released elsewhere (the
        // blob escaped its access): the connection may be in use on another
        // thread, and closes the handle at the end of its current access,
        // or at the beginning of the next one.
        guard let resources = database.connectionResources else { return }
        if access.isCurrent, let connection = database.sqliteConnection {
            guard let code = resources.releaseNow(registration, connection), !isReadOnly else { return }
            // Outside of a transaction, the close committed: observers hear
            // of it; a failure cannot be thrown from here, the error log has
            // it.
            let outcome = ConnectionResources.ScopedRelease(
                releasedCommitter: true, failure: code == SQLITE_OK ? nil : code)
            if let error = database.closedResources(outcome) {
                Database.errorLogFunction.load()?(error.resultCode, error.message ?? "")
            }
        } else {
            resources.release(registration)
        }
    }

    /// Closes the blob. Closing a closed blob does nothing.
    ///
    /// Outside of a transaction, SQLite commits the changes of a blob
    /// opened for writing when it closes: the error of that commit is thrown
    /// here.
    ///
    /// - Throws: A ``DatabaseError``: `SQLITE_MISUSE` outside of the access
    ///   that opened the blob, or the error of the commit.
    ///
    /// The corresponding C function is `sqlite3_blob_close`.
    public func close() throws {
        try checkAccess()
        guard let connection = database.sqliteConnection,
              let code = database.connectionResources?.releaseNow(registration, connection)
        else { return }
        if !isReadOnly {
            // Outside of a transaction, the close committed.
            database.externalStatementsDidRun(changing: nil)
        }
        guard code == SQLITE_OK else {
            throw database.lastError(code: code)
        }
    }

    // MARK: Reading

    /// Reads bytes of the value.
    ///
    /// - Parameters:
    ///   - count: The number of bytes to read.
    ///   - offset: The offset of the first byte, from the start of the value.
    /// - Returns: `count` bytes.
    /// - Throws: A ``DatabaseError``: `SQLITE_ERROR` when the bytes are not
    ///   all inside the value, `SQLITE_ABORT` when the row changed since the
    ///   blob was opened, `SQLITE_MISUSE` when the blob is closed or used
    ///   outside of its access.
    ///
    /// The corresponding C function is `sqlite3_blob_read`.
    public func read(count: Int, at offset: Int) throws -> Data {
        _ = try checkedHandle()
        try checkRange(count: count, offset: offset, verb: "read")
        var data = Data(count: count)
        try data.withUnsafeMutableBytes { buffer in
            try read(into: buffer, at: offset)
        }
        return data
    }

    /// Reads bytes of the value into a buffer of the caller, without any
    /// intermediate copy: as many bytes as the buffer holds.
    ///
    /// ```swift
    /// var buffer = [UInt8](repeating: 0, count: 65_536)
    /// try buffer.withUnsafeMutableBytes { buffer in
    ///     try blob.read(into: buffer, at: 0)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - buffer: The buffer to fill: `buffer.count` bytes are read.
    ///   - offset: The offset of the first byte, from the start of the value.
    /// - Throws: A ``DatabaseError``, as ``read(count:at:)``. The content of
    ///   the buffer is unspecified after an error.
    ///
    /// The corresponding C function is `sqlite3_blob_read`.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws {
        let handle = try checkedHandle()
        try checkRange(count: buffer.count, offset: offset, verb: "read")
        guard let address = buffer.baseAddress, buffer.count > 0 else { return }
        let code = sqlite3_blob_read(handle, address, CInt(buffer.count), CInt(offset))
        guard code == SQLITE_OK else { throw error(code: code) }
    }

    // MARK: Writing

    /// Writes bytes into the value, in place.
    ///
    /// The value cannot grow: the bytes must fit between `offset` and
    /// ``count``. To store a value piece by piece, insert a `zeroblob(N)` of
    /// its size first (see ``DatabaseBlob``).
    ///
    /// - Parameters:
    ///   - bytes: The bytes to write (`Data`, `[UInt8]`, a buffer pointer…).
    ///   - offset: Where the first byte goes, from the start of the value.
    /// - Throws: A ``DatabaseError``: `SQLITE_ERROR` when the bytes do not
    ///   fit in the value (nothing is written), `SQLITE_READONLY` when the
    ///   blob was opened for reading only, `SQLITE_ABORT` when the row
    ///   changed since the blob was opened, `SQLITE_MISUSE` when the blob is
    ///   closed or used outside of its access.
    ///
    /// The corresponding C function is `sqlite3_blob_write`.
    public func write(_ bytes: some DataProtocol, at offset: Int) throws {
        let handle = try checkedHandle()
        guard !isReadOnly else {
            throw database.makeError(
                resultCode: .SQLITE_READONLY,
                message: "the blob of \(table).\(column), row \(rowID), was opened for reading only: "
                    + "open it with readOnly: false to write",
                sql: nil, arguments: nil)
        }
        try checkRange(count: bytes.count, offset: offset, verb: "write")
        try database.checkValidAccess(forWritesOf: "a blob is written")
        if database.isReadOnlyAccess {
            throw database.makeError(
                resultCode: .SQLITE_READONLY,
                message: "cannot write the blob of \(table).\(column), row \(rowID), in a read-only access",
                sql: nil, arguments: nil)
        }
        var position = offset
        for region in bytes.regions {
            try region.withUnsafeBytes { buffer in
                guard let address = buffer.baseAddress, buffer.count > 0 else { return }
                let code = sqlite3_blob_write(handle, address, CInt(buffer.count), CInt(position))
                guard code == SQLITE_OK else { throw error(code: code) }
                position += buffer.count
            }
        }
        // SQLite runs no update hook for blob writes: observers hear of
        // the change here.
        database.activeStatementHooks?.blobDidWrite(
            schema: schema, table: table, column: column, rowID: rowID, in: database)
    }

    // MARK: Moving to another row

    /// Points the blob at the value of the same column in another row,
    /// faster than opening a new blob. A blob whose row changed, or that a
    /// failed reopening expired, can be reopened too.
    ///
    /// - Parameter rowID: The rowid of the other row.
    /// - Throws: A ``DatabaseError``: `SQLITE_ERROR` when the row does not
    ///   exist or its value is not a blob or a text (SQLite then expires the
    ///   blob: reopen it on a valid row, or close it), `SQLITE_MISUSE` when
    ///   the blob is closed or used outside of its access.
    ///
    /// The corresponding C function is `sqlite3_blob_reopen`.
    public func reopen(rowID: Int64) throws {
        var handle = try checkedHandle()
        let code = sqlite3_blob_reopen(handle, rowID)
        if code == SQLITE_ABORT, let connection = database.sqliteConnection {
            // SQLite finalized the statement of the expired blob, which
            // cannot move any longer: a new handle replaces it.
            var newHandle: OpaquePointer?
            let code = sqlite3_blob_open(connection, schema, table, column, rowID, isReadOnly ? 0 : 1, &newHandle)
            guard code == SQLITE_OK, let newHandle else { throw database.lastError(code: code) }
            sqlite3_blob_close(handle)
            self.handle.pointer = newHandle
            handle = newHandle
        } else if code != SQLITE_OK {
            throw database.lastError(code: code)
        }
        self.rowID = rowID
        count = Int(sqlite3_blob_bytes(handle))
    }

    // MARK: Checks

    /// Throws when the blob is used outside of the access that opened it.
    private func checkAccess() throws {
        // The access first: no state of the connection is read on a thread
        // that does not run it.
        guard access.isCurrent else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "a DatabaseBlob was used outside of the database access that opened it: "
                    + "use it inside the read, write or inDatabase block that opened it")
        }
    }

    /// The SQLite handle, after checking that it can be used now.
    private func checkedHandle() throws -> OpaquePointer {
        try checkAccess()
        guard !database.isClosed else {
            throw DatabaseError.connectionIsClosed()
        }
        guard !registration.isReleased else {
            throw database.makeError(
                resultCode: .SQLITE_MISUSE,
                message: "the blob of \(table).\(column), row \(rowID), is closed: blobs close with close(), "
                    + "when Cairn ends a transaction or a savepoint, and at the end of their access",
                sql: nil, arguments: nil)
        }
        return handle.pointer
    }

    /// Throws when `count` bytes at `offset` are not all inside the value.
    private func checkRange(count byteCount: Int, offset: Int, verb: String) throws {
        guard byteCount >= 0, offset >= 0, offset <= count, byteCount <= count - offset else {
            var message = "cannot \(verb) \(byteCount) bytes at offset \(offset) of the blob of "
                + "\(table).\(column), row \(rowID), which holds \(count) bytes"
            if verb == "write" {
                message += ": a blob cannot grow; store a zeroblob of the final size first"
            }
            throw database.makeError(resultCode: .SQLITE_ERROR, message: message, sql: nil, arguments: nil)
        }
    }

    /// The error of a failed read or write.
    private func error(code: CInt) -> DatabaseError {
        if code == SQLITE_ABORT {
            return database.makeError(
                resultCode: .SQLITE_ABORT,
                message: "the row of the blob of \(table).\(column), row \(rowID), was changed or deleted "
                    + "since the blob was opened: reopen it with reopen(rowID:)",
                sql: nil, arguments: nil)
        }
        return database.lastError(code: code)
    }
}

/// The SQLite handle of a blob, shared by the blob and the cleanup that
/// closes it (``DatabaseBlob/reopen(rowID:)`` may replace it). Used inside
/// the accesses of its connection only.
private final class BlobHandle {
    var pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }
}

extension Database {
    /// Opens a BLOB value of the database for incremental reads and writes
    /// (see ``DatabaseBlob``).
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     let blob = try db.openBlob(table: "document", column: "content", rowID: 1)
    ///     let header = try blob.read(count: 16, at: 0)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - table: The name of a table.
    ///   - column: The name of a column of the table.
    ///   - rowID: The rowid of the row.
    ///   - schema: "main" (the default), "temp", or the name of an attached
    ///     database.
    ///   - readOnly: Whether the blob is only read (the default). A blob
    ///     opened for writing starts a write transaction outside of a
    ///     transaction, which ends when the blob closes.
    /// - Returns: The blob, which belongs to the current access.
    /// - Throws: A ``DatabaseError``: when the table, the column or the row
    ///   does not exist, when the value is not a blob or a text, when a
    ///   blob opened for writing is in an indexed column or in a read-only
    ///   access (`SQLITE_READONLY`).
    ///
    /// The corresponding C function is `sqlite3_blob_open`.
    public func openBlob(
        table: String,
        column: String,
        rowID: Int64,
        schema: String = "main",
        readOnly: Bool = true) throws -> DatabaseBlob
    {
        let access = accessForNewCursor
        guard let connection = sqliteConnection else {
            throw DatabaseError.connectionIsClosed()
        }
        if readOnly {
            if state.transaction.wasAborted {
                throw abortedTransactionError(sql: nil, arguments: nil)
            }
        } else {
            try checkValidAccess(forWritesOf: "a blob is opened for writing")
        }
        if !readOnly && isReadOnlyAccess {
            throw makeError(
                resultCode: .SQLITE_READONLY,
                message: "cannot open the blob of \(table).\(column) for writing in a read-only access",
                sql: nil, arguments: nil)
        }
        var handle: OpaquePointer?
        let code = sqlite3_blob_open(connection, schema, table, column, rowID, readOnly ? 0 : 1, &handle)
        guard code == SQLITE_OK, let handle else {
            // SQLite sets the handle to NULL on error.
            throw lastError(code: code)
        }
        return DatabaseBlob(
            database: self, access: access, handle: handle,
            table: table, column: column, schema: schema, rowID: rowID, isReadOnly: readOnly)
    }
}
