#if SQLITE_ENABLE_SESSION
import Foundation
internal import CairnSQLiteShims

/// A session records the changes made to some tables of a database
/// connection, and turns them into a ``Changeset`` that another database
/// can apply.
///
/// Available when Cairn is built with the `SQLITE_ENABLE_SESSION` trait.
///
/// ```swift
/// let changeset = try dbQueue.write { db in
///     let session = try DatabaseSession(db)
///     try session.attach("player")
///     try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
///     return try session.changeset()
/// }
/// try otherQueue.write { db in
///     try db.apply(changeset) { conflict in .omit }
/// }
/// ```
///
/// A session records the changes of its connection from the moment it
/// attaches a table: INSERT, UPDATE and DELETE statements, committed or
/// not (a rolled back change stays recorded, see the SQLite documentation).
/// Only tables with a declared PRIMARY KEY are recorded.
///
/// A session belongs to the connection that created it: use it inside an
/// access to that connection (a `read`, `write` or `inDatabase` block).
/// Using it elsewhere, or after its connection closed, throws a
/// ``DatabaseError`` with the `SQLITE_MISUSE` code. A session can be kept
/// between accesses: it records the changes of all of them until it is
/// released.
///
/// Create sessions with this class rather than with `sqlite3session_create`:
/// SQLite gives a connection one pre-update hook, which the session
/// extension takes for its own list of sessions, and which Cairn's
/// transaction observers need too. `DatabaseSession` shares the hook; a
/// session created with the C function on a connection that has observers
/// (or sessions of this class) would corrupt it.
///
/// The corresponding C functions are `sqlite3session_create` and
/// `sqlite3session_delete` (see <https://www.sqlite.org/sessionintro.html>).
public final class DatabaseSession {
    /// The connection of the session.
    let database: Database

    /// The SQLite session.
    private let handle: OpaquePointer

    /// The registration of the SQLite session on the connection, which
    /// deletes it once, inside an access, before the connection closes.
    private let registration: ConnectionResources.Registration

    /// The schema whose changes are recorded: "main", or the name of an
    /// attached database.
    public let schemaName: String

    /// Creates a session that records changes of a schema of the
    /// connection. It records nothing until you attach tables.
    ///
    /// - Parameters:
    ///   - db: A connection, inside an access.
    ///   - schemaName: "main" (the default), "temp", or the name of an
    ///     attached database.
    /// - Throws: A ``DatabaseError``.
    public init(_ db: Database, schemaName: String = "main") throws {
        try db.checkSessionAccess()
        guard let connection = db.sqliteConnection else {
            throw DatabaseError.connectionIsClosed()
        }
        let hub = db.preUpdateHubPointer
        var handle: OpaquePointer?
        let code = _cairn_session_create(connection, hub, schemaName, &handle)
        guard code == SQLITE_OK, let handle else {
            throw db.lastError(code: code)
        }
        self.database = db
        self.handle = handle
        self.schemaName = schemaName
        // The hub lives as long as the connection, which deletes the
        // session before it closes.
        registration = db.resources.register { connection in
            _cairn_session_delete(connection, hub, handle)
            return SQLITE_OK
        }
    }

    deinit {
        // The connection may be in use on another thread: the session is
        // deleted inside an access (at the end of the current one, if
        // Swift releases the session inside an access), or when the
        // connection closes.
        database.connectionResources?.release(registration)
    }

    /// The SQLite session, after checking that it can be used now.
    ///
    /// - Throws: A ``DatabaseError`` outside of an access to the
    ///   connection, or after the connection closed.
    private func checkedHandle() throws -> OpaquePointer {
        try database.checkSessionAccess()
        guard !registration.isReleased else {
            throw database.makeError(
                resultCode: .SQLITE_MISUSE,
                message: "the session was deleted when its connection closed",
                sql: nil, arguments: nil)
        }
        return handle
    }

    // MARK: Recorded tables

    /// Starts recording the changes of a table.
    ///
    /// The table needs a declared PRIMARY KEY: the changes of a table
    /// without one are not recorded (as SQLite documents). Attaching a table
    /// that does not exist yet is allowed: its changes are recorded once it
    /// exists.
    ///
    /// - Parameter tableName: The name of a table.
    /// - Throws: A ``DatabaseError``.
    ///
    /// The corresponding C function is `sqlite3session_attach`.
    public func attach(_ tableName: String) throws {
        let handle = try checkedHandle()
        let code = sqlite3session_attach(handle, tableName)
        guard code == SQLITE_OK else { throw database.lastError(code: code) }
    }

    /// Starts recording the changes of all tables of the schema, those that
    /// exist and those that will be created.
    ///
    /// - Throws: A ``DatabaseError``.
    ///
    /// The corresponding C function is `sqlite3session_attach`, with a NULL
    /// table name.
    public func attachAllTables() throws {
        let handle = try checkedHandle()
        let code = sqlite3session_attach(handle, nil)
        guard code == SQLITE_OK else { throw database.lastError(code: code) }
    }

    // MARK: State

    /// Sets whether the session records changes (it does when it is
    /// created). Changes made while it does not are not recorded.
    ///
    /// - Throws: A ``DatabaseError`` outside of an access to the connection.
    ///
    /// The corresponding C function is `sqlite3session_enable`.
    public func setEnabled(_ enabled: Bool) throws {
        _ = sqlite3session_enable(try checkedHandle(), enabled ? 1 : 0)
    }

    /// Whether the session records changes.
    ///
    /// - Throws: A ``DatabaseError`` outside of an access to the connection.
    public var isEnabled: Bool {
        get throws { sqlite3session_enable(try checkedHandle(), -1) != 0 }
    }

    /// Sets whether the changes recorded from now on are marked indirect
    /// (see ``ChangesetOperation/isIndirect``): changes made by triggers and
    /// foreign key actions are indirect anyway.
    ///
    /// - Throws: A ``DatabaseError`` outside of an access to the connection.
    ///
    /// The corresponding C function is `sqlite3session_indirect`.
    public func setIndirect(_ indirect: Bool) throws {
        _ = sqlite3session_indirect(try checkedHandle(), indirect ? 1 : 0)
    }

    /// Whether the session has recorded no change.
    ///
    /// - Throws: A ``DatabaseError`` outside of an access to the connection.
    ///
    /// The corresponding C function is `sqlite3session_isempty`.
    public var isEmpty: Bool {
        get throws { sqlite3session_isempty(try checkedHandle()) != 0 }
    }

    // MARK: Changesets

    /// The changes recorded so far, as a changeset: for each changed row,
    /// its primary key, and its former and new values.
    ///
    /// - Throws: A ``DatabaseError``.
    ///
    /// The corresponding C function is `sqlite3session_changeset`.
    public func changeset() throws -> Changeset {
        let handle = try checkedHandle()
        return try Changeset(data: sessionOutput { count, buffer in
            sqlite3session_changeset(handle, &count, &buffer)
        })
    }

    /// The changes recorded so far, as a patchset: a smaller changeset that
    /// keeps only the primary keys of deleted rows and the new values of
    /// updated columns. A patchset cannot be inverted, and its conflicts
    /// are detected on primary keys only.
    ///
    /// - Throws: A ``DatabaseError``.
    ///
    /// The corresponding C function is `sqlite3session_patchset`.
    public func patchset() throws -> Changeset {
        let handle = try checkedHandle()
        return try Changeset(data: sessionOutput { count, buffer in
            sqlite3session_patchset(handle, &count, &buffer)
        })
    }

    /// Records, as changes of a table, what it takes to turn the table of
    /// another schema into the table of the session's schema (the two tables
    /// need the same columns and primary key).
    ///
    /// ```swift
    /// try db.execute(sql: "ATTACH DATABASE 'old.sqlite' AS old")
    /// let session = try DatabaseSession(db)
    /// try session.attach("player")
    /// try session.recordDifferences(from: "old", table: "player")
    /// let changeset = try session.changeset()   // turns old.player into main.player
    /// ```
    ///
    /// - Parameters:
    ///   - schemaName: The schema of the other table (an attached database).
    ///   - tableName: The name of the table in both schemas; it must be
    ///     attached to the session.
    /// - Throws: A ``DatabaseError`` when the tables differ in their
    ///   columns or primary key.
    ///
    /// The corresponding C function is `sqlite3session_diff`.
    public func recordDifferences(from schemaName: String, table tableName: String) throws {
        let handle = try checkedHandle()
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3session_diff(handle, schemaName, tableName, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            throw database.makeError(
                resultCode: ResultCode(rawValue: code),
                message: message.map { String(cString: $0) } ?? database.lastErrorMessage,
                sql: nil, arguments: nil)
        }
    }

    /// Copies the output of a session function into `Data`, and frees it.
    private func sessionOutput(_ body: (inout CInt, inout UnsafeMutableRawPointer?) -> CInt) throws -> Data {
        // SQLite reads the changes inside a savepoint, which it cannot
        // begin while a blob opened for writing is open.
        if let error = database.closeTransactionScopedResources() { throw error }
        var count: CInt = 0
        var buffer: UnsafeMutableRawPointer?
        let code = body(&count, &buffer)
        defer { sqlite3_free(buffer) }
        guard code == SQLITE_OK else { throw database.lastError(code: code) }
        guard let buffer, count > 0 else { return Data() }
        return Data(bytes: buffer, count: Int(count))
    }
}

extension Database {
    /// Checks that a session or a changeset can use the connection now.
    ///
    /// - Throws: A ``DatabaseError`` with the `SQLITE_MISUSE` code outside
    ///   of an access to the connection, or when it is closed.
    func checkSessionAccess() throws {
        // The thread-local chain of accesses: no state of the connection is
        // read before the current thread is known to run an access to it.
        guard isInsideAccess else {
            throw makeError(
                resultCode: .SQLITE_MISUSE,
                message: "a session is used outside of an access to its connection: "
                    + "use it inside a read, write or inDatabase block of the queue or pool that created it",
                sql: nil, arguments: nil)
        }
        guard !isClosed else {
            throw DatabaseError.connectionIsClosed()
        }
    }
}
#endif
