import Foundation

// Suspension: while the application is in the background, a connection
// configured with `observesSuspensionNotifications` avoids locking the
// database file (see Configuration.observesSuspensionNotifications).
//
// The suspension flag is shared with the notification observers, which run
// on the thread that posts the notification: it is protected by a lock, and
// only read by statements while the configuration asks for suspensions.

extension Database {
    /// The notification that suspends the connections whose configuration
    /// has ``Configuration/observesSuspensionNotifications`` set.
    ///
    /// Post it on `NotificationCenter.default` when the application is about
    /// to be suspended. The running statements of those connections are
    /// interrupted, and until ``resumeNotification`` is posted, the
    /// statements that could lock the database throw a ``DatabaseError`` of
    /// code `SQLITE_ABORT`; reads in WAL mode still run.
    ///
    /// ```swift
    /// NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
    /// ```
    ///
    /// Its name is GRDB's, `GRDB.Database.Suspend`: code that posts it by
    /// name suspends Cairn's connections too.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/interrupt.html>
    public static let suspendNotification = Notification.Name("GRDB.Database.Suspend")

    /// The notification that resumes the connections that
    /// ``suspendNotification`` suspended.
    ///
    /// ```swift
    /// NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
    /// ```
    ///
    /// Its name is GRDB's, `GRDB.Database.Resume`.
    public static let resumeNotification = Notification.Name("GRDB.Database.Resume")

    /// Whether the connection is suspended. Safe to read from any thread.
    var isSuspended: Bool {
        suspensionState.load()
    }

    /// Suspends the connection: interrupts its running statement, and makes
    /// the statements that could lock the database throw until ``resume()``.
    /// Safe to call from any thread.
    func suspend() {
        Database.suspend(state: suspensionState, interruptHandle: interruptHandle)
    }

    /// Ends the suspension. Safe to call from any thread.
    func resume() {
        suspensionState.withLock { $0 = false }
    }

    fileprivate static func suspend(state: Locked<Bool>, interruptHandle: Locked<SQLiteConnection?>) {
        let wasSuspended = state.withLock { isSuspended in
            defer { isSuspended = true }
            return isSuspended
        }
        guard !wasSuspended else { return }
        // An interrupted statement fails, which may end its transaction and
        // release its lock. A lock that remains is released by the rollback
        // of the next statement that would keep it (see
        // `checkSuspension(for:)`).
        interruptHandle.withLock { connection in
            if let connection { sqlite3_interrupt(connection) }
        }
    }

    /// Starts listening to ``suspendNotification`` and
    /// ``resumeNotification``, for as long as the returned observer lives.
    func makeSuspensionObserver() -> SuspensionObserver {
        SuspensionObserver(state: suspensionState, interruptHandle: interruptHandle)
    }

    /// Throws when the connection is suspended and `statement` could lock
    /// the database: the current transaction, if any, is rolled back first,
    /// so that its lock is released.
    ///
    /// Rollbacks, commits and releases of savepoints run (they release
    /// locks), so do `PRAGMA query_only` (which ends read-only accesses), and
    /// read-only statements in WAL mode, which do not block other processes.
    ///
    /// - Throws: A ``DatabaseError`` of code `SQLITE_ABORT`.
    func checkSuspension(for statement: Statement) throws {
        guard isSuspended else { return }
        switch statement.transactionEffect {
        case .rollbackTransaction?, .rollbackSavepoint?, .commitTransaction?, .releaseSavepoint?:
            return
        default:
            break
        }
        if statement.sql.lowercased().hasPrefix("pragma query_only") {
            return
        }
        if sqlite3_stmt_readonly(statement.sqliteStatement) != 0 && usesWALJournalMode {
            return
        }
        if isInsideTransaction {
            try? rollback()
        }
        throw makeError(
            resultCode: .SQLITE_ABORT, message: "Database is suspended",
            sql: statement.sql, arguments: statement.arguments)
    }

    /// Throws when the connection is suspended, for work that SQLite runs by
    /// itself and that writes (see `checkValidAccess(forWritesOf:)`).
    ///
    /// - Throws: A ``DatabaseError`` of code `SQLITE_ABORT`.
    func checkSuspension(forWritesOf description: String) throws {
        guard isSuspended else { return }
        if isInsideTransaction {
            try? rollback()
        }
        throw makeError(
            resultCode: .SQLITE_ABORT, message: "Database is suspended: \(description) cannot run",
            sql: nil, arguments: nil)
    }

    /// Whether the main database uses the WAL journal mode, read with the C
    /// interface, so that no statement of Cairn (and no check of this file)
    /// runs.
    private var usesWALJournalMode: Bool {
        guard let sqliteConnection else { return false }
        var sqliteStatement: SQLiteStatement?
        guard sqlite3_prepare_v2(sqliteConnection, "PRAGMA main.journal_mode", -1, &sqliteStatement, nil) == SQLITE_OK,
              let sqliteStatement
        else { return false }
        defer { sqlite3_finalize(sqliteStatement) }
        guard sqlite3_step(sqliteStatement) == SQLITE_ROW, let text = sqlite3_column_text(sqliteStatement, 0) else {
            return false
        }
        return String(cString: text).lowercased() == "wal"
    }
}

/// Suspends and resumes a connection when ``Database/suspendNotification``
/// and ``Database/resumeNotification`` are posted, until it is
/// deinitialized.
final class SuspensionObserver {
    private let observers: [any NSObjectProtocol]

    fileprivate init(state: Locked<Bool>, interruptHandle: Locked<SQLiteConnection?>) {
        let center = NotificationCenter.default
        observers = [
            center.addObserver(forName: Database.suspendNotification, object: nil, queue: nil) { _ in
                Database.suspend(state: state, interruptHandle: interruptHandle)
            },
            center.addObserver(forName: Database.resumeNotification, object: nil, queue: nil) { _ in
                state.withLock { $0 = false }
            },
        ]
    }

    deinit {
        for observer in observers {
            NotificationCenter.default.removeObserver(observer)
        }
    }
}
