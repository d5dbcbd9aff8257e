import Foundation

extension Database {
    /// The kinds of WAL checkpoints.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/wal_checkpoint_v2.html>
    public enum CheckpointMode: CInt, Sendable {
        /// Copies as many frames as possible without waiting for readers or
        /// writers (`SQLITE_CHECKPOINT_PASSIVE`).
        case passive = 0
        /// Waits for writers, then copies all frames that no reader needs
        /// (`SQLITE_CHECKPOINT_FULL`).
        case full = 1
        /// Like `full`, then waits for readers so that the next writer
        /// restarts the WAL file (`SQLITE_CHECKPOINT_RESTART`).
        case restart = 2
        /// Like `restart`, and truncates the WAL file
        /// (`SQLITE_CHECKPOINT_TRUNCATE`).
        case truncate = 3
    }

    /// Runs a WAL checkpoint.
    ///
    /// ```swift
    /// try dbPool.writeWithoutTransaction { db in
    ///     try db.checkpoint(.truncate)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - kind: The kind of checkpoint (default ``CheckpointMode/passive``).
    ///   - dbName: The schema name ("main" by default); nil checkpoints all
    ///     attached databases.
    /// - Returns: The number of frames in the WAL, and the number of frames
    ///   copied into the database file.
    /// - Throws: A ``DatabaseError``, such as `SQLITE_BUSY` when a `full`,
    ///   `restart` or `truncate` checkpoint cannot complete because of a
    ///   reader or writer. A passive checkpoint retries for about 100 ms when
    ///   another connection holds the checkpoint lock (connections take it
    ///   for an instant when they open a WAL snapshot).
    ///
    /// The corresponding C function is `sqlite3_wal_checkpoint_v2`.
    @discardableResult
    public func checkpoint(
        _ kind: CheckpointMode = .passive,
        on dbName: String? = "main") throws -> (walFrameCount: Int, checkpointedFrameCount: Int)
    {
        preconditionInsideAccess()
        guard let sqliteConnection else { throw DatabaseError.connectionIsClosed() }
        var walFrameCount: CInt = -1
        var checkpointedFrameCount: CInt = -1
        var attempts = 0
        while true {
            let code = sqlite3_wal_checkpoint_v2(
                sqliteConnection, dbName, kind.rawValue, &walFrameCount, &checkpointedFrameCount)
            if code == SQLITE_OK {
                return (Int(walFrameCount), Int(checkpointedFrameCount))
            }
            // Connections that open a WAL snapshot hold the checkpoint lock
            // for an instant, and a passive checkpoint does not wait for it:
            // retry for up to about 100 ms.
            attempts += 1
            if code == SQLITE_BUSY && kind == .passive && attempts < 100 {
                usleep(1000)
                continue
            }
            throw lastError(code: code, sql: nil)
        }
    }

    /// Writes a frame in an empty WAL file, without changing the database
    /// content: `sqlite3_snapshot_get` fails on a WAL without frames.
    func writeWALFrameIfEmpty() throws {
        // The file that SQLite opened: `path` may be a URI filename.
        guard let sqliteConnection, let file = sqlite3_db_filename(sqliteConnection, "main") else { return }
        let walPath = String(cString: sqlite3_filename_wal(file))
        let size = (try? FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int) ?? 0
        // 32 bytes of header, then frames.
        guard size <= 32 else { return }
        try inTransaction(.immediate) {
            // Setting the user version to its own value rewrites the header
            // page, and nothing else.
            let version = try Int.fetchOne(self, sql: "PRAGMA user_version") ?? 0
            try execute(sql: "PRAGMA user_version = \(version)")
            return .commit
        }
    }

    /// Reads the schema table, which starts the read of the current
    /// transaction: from then on, the transaction sees the state of that
    /// moment (a deferred transaction reads nothing until its first
    /// statement).
    func startReading() throws {
        _ = try Int.fetchOne(self, sql: "SELECT 1 FROM sqlite_master LIMIT 1")
    }

    /// Starts a read transaction now, so that the connection sees the last
    /// committed state until the transaction ends: a deferred transaction
    /// alone starts reading at its first statement.
    func beginReadTransaction() throws {
        try beginTransaction(.deferred)
        do {
            try startReading()
        } catch {
            rollbackIgnoringErrors()
            throw error
        }
    }
}
