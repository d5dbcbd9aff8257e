internal import CairnSQLiteShims

// What stops the statements of an access before they run: the cancellation
// of an async access (`DatabaseAccess.cancellation`), and the time limits of
// `Database+Progress.swift`. Both let rollbacks through, and the statements
// that Cairn runs to restore the connection run inside
// `ignoringAccessCancellation(_:)`.

extension Database {
    /// Throws `SQLITE_INTERRUPT` for a statement that would start after the
    /// task of an async access was cancelled. Rollbacks are let through, and
    /// so is the commit of a transaction that did not write (the end of a
    /// read): a cancelled write is rolled back, a completed read is not
    /// lost.
    func checkCancellation(for statement: Statement) throws {
        guard isAccessCancelled, !endsTransactionSafely(statement) else { return }
        throw makeError(
            resultCode: .SQLITE_INTERRUPT, message: "interrupted: the task of the access was cancelled",
            sql: statement.sql, arguments: statement.arguments)
    }

    /// Whether a statement may run after the access was cancelled or a time
    /// limit passed: rollbacks, and commits or releases that write nothing,
    /// end what was begun without changing the database.
    func endsTransactionSafely(_ statement: Statement) -> Bool {
        switch statement.transactionEffect {
        case .rollbackTransaction, .rollbackSavepoint:
            return true
        case .commitTransaction, .releaseSavepoint:
            if let sqliteConnection, sqlite3_txn_state(sqliteConnection, nil) != SQLITE_TXN_WRITE {
                return true
            }
            return false
        default:
            return false
        }
    }

    /// Whether the task of the current async access was cancelled (see
    /// ``DatabaseAccess/cancellation``): false outside of async accesses,
    /// and inside ``ignoringAccessCancellation(_:)``.
    var isAccessCancelled: Bool {
        DatabaseAccess.withCurrentThreadAccess(to: statementHandles) { $0?.isCancelled ?? false }
    }

    /// Runs `body` without the cancellation of the current async access,
    /// the progress handler and the time limits (see
    /// `Database+Progress.swift`): for the statements that restore the
    /// state of the connection. The pause is counted by the access
    /// (``DatabaseAccess/pausingInterruptions(_:)``); SQLite's progress
    /// handler is removed for its duration.
    func ignoringAccessCancellation<T>(_ body: () throws -> T) rethrows -> T {
        guard let access = DatabaseAccess.withCurrentThreadAccess(to: statementHandles, { $0 }) else {
            // Outside of an access, no progress handler is installed (the
            // end of an access removes it), and nothing cancels.
            return try body()
        }
        return try access.pausingInterruptions { isOutermost in
            guard isOutermost, progressBox != nil else { return try body() }
            pauseProgressHandler()
            defer { resumeProgressHandler() }
            return try body()
        }
    }

    /// Whether the statements of the current access may be interrupted
    /// now: false inside ``ignoringAccessCancellation(_:)``.
    var mayInterruptStatements: Bool {
        DatabaseAccess.withCurrentThreadAccess(to: statementHandles) { !($0?.areInterruptionsPaused ?? false) }
    }
}
