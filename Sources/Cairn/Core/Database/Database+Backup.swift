// Online backups: copying a database, page by page, into another one, with
// SQLite's backup API.

/// The progress of a backup (see ``Database/backup(to:pagesPerStep:progress:)``).
public struct DatabaseBackupProgress: Hashable, Sendable {
    /// The number of pages that remain to be copied.
    public let remainingPageCount: Int

    /// The number of pages of the source database.
    public let totalPageCount: Int

    /// The number of pages copied so far.
    public var completedPageCount: Int {
        totalPageCount - remainingPageCount
    }

    /// Whether the backup is complete: all pages were copied.
    public let isCompleted: Bool

    /// Creates a progress.
    ///
    /// - Parameters:
    ///   - remainingPageCount: The pages left to copy.
    ///   - totalPageCount: The pages of the source.
    ///   - isCompleted: Whether all pages were copied.
    public init(remainingPageCount: Int, totalPageCount: Int, isCompleted: Bool) {
        self.remainingPageCount = remainingPageCount
        self.totalPageCount = totalPageCount
        self.isCompleted = isCompleted
    }
}

extension Database {
    /// Copies the main database of this connection into the main database
    /// of another connection, replacing its content.
    ///
    /// ```swift
    /// try source.read { sourceDb in
    ///     try destination.barrierWriteWithoutTransaction { destinationDb in
    ///         try sourceDb.backup(to: destinationDb)
    ///     }
    /// }
    /// ```
    ///
    /// Both connections must be used from their accesses, as above, and the
    /// destination must not be inside a transaction (this throws
    /// `SQLITE_MISUSE`). Prefer
    /// ``DatabaseReader/backup(to:pagesPerStep:progress:)``, which does it.
    ///
    /// - Parameters:
    ///   - destination: The connection whose database is replaced.
    ///   - pagesPerStep: The number of pages copied at each step; negative
    ///     (the default) copies all pages in one step.
    ///   - progress: Called after each step. When it throws before the
    ///     backup is complete, the backup stops, the destination is left as
    ///     it was, and the error is thrown. An error thrown after the last
    ///     step is ignored: the backup is complete.
    /// - Throws: A ``DatabaseError`` (such as `SQLITE_BUSY` when the
    ///   destination is in use, or `SQLITE_READONLY`), or the error of
    ///   `progress`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/backup.html>
    public func backup(
        to destination: Database,
        pagesPerStep: CInt = -1,
        progress: ((DatabaseBackupProgress) throws -> Void)? = nil) throws
    {
        preconditionInsideAccess()
        destination.preconditionInsideAccess()
        guard let sourceConnection = sqliteConnection, let destinationConnection = destination.sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "backup of a closed connection")
        }
        guard sourceConnection != destinationConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a connection cannot back up into itself")
        }
        guard sqlite3_get_autocommit(destinationConnection) != 0 else {
            // SQLite refuses only once the transaction has begun to read or
            // write: a backup inside a transaction of the destination would
            // not be part of it.
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "the destination of a backup must not be inside a transaction")
        }
        guard let backup = sqlite3_backup_init(destinationConnection, "main", sourceConnection, "main") else {
            // The error is the one of the destination.
            throw destination.lastError(code: sqlite3_errcode(destinationConnection))
        }
        do {
            while true {
                let code = sqlite3_backup_step(backup, pagesPerStep)
                let state = DatabaseBackupProgress(
                    remainingPageCount: Int(sqlite3_backup_remaining(backup)),
                    totalPageCount: Int(sqlite3_backup_pagecount(backup)),
                    isCompleted: code == SQLITE_DONE)
                if code == SQLITE_DONE {
                    // Complete: nothing can be undone any longer.
                    try? progress?(state)
                    break
                }
                guard code == SQLITE_OK else {
                    throw destination.makeError(
                        resultCode: ResultCode(rawValue: code),
                        message: String(cString: sqlite3_errstr(code)),
                        sql: nil, arguments: nil)
                }
                try progress?(state)
            }
        } catch {
            // Leaves the destination as it was.
            sqlite3_backup_finish(backup)
            destination.state.schemaCache.clear()
            throw error
        }
        let code = sqlite3_backup_finish(backup)
        // The destination has a new schema.
        destination.state.schemaCache.clear()
        guard code == SQLITE_OK else {
            throw destination.lastError(code: code)
        }
    }
}
