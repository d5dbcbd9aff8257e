extension DatabasePool {
    // MARK: Snapshots

    /// Returns a snapshot: a connection that sees the database as it is now,
    /// and never sees later writes.
    ///
    /// Called from a write access, outside of any transaction, the snapshot
    /// sees the state that the writer has committed so far. Called from
    /// elsewhere, it sees the last committed state.
    ///
    /// - Throws: A ``DatabaseError``.
    public func makeSnapshot() throws -> DatabaseSnapshot {
        if writer.isCurrentAccess {
            writer.reentrantSync { db in
                stopUnless(!db.isInsideTransaction,
                    "makeSnapshot() must not be called from inside a transaction: the snapshot could not see uncommitted changes.")
            }
        }
        try checkNotClosed()
        let number = state.withLock { state -> Int in
            state.snapshotCount += 1
            return state.snapshotCount
        }
        return try DatabaseSnapshot(
            path: path, configuration: readerConfiguration,
            defaultLabel: "GRDB.DatabasePool", purpose: "snapshot.\(number)")
    }

    /// Returns a snapshot pool: connections that see the database as it is
    /// now, never see later writes, and read in parallel.
    ///
    /// Called from a write access, outside of any transaction, the snapshot
    /// pool sees the state that the writer has committed so far. Called from
    /// elsewhere, it sees the last committed state.
    ///
    /// - Throws: A ``DatabaseError``.
    public func makeSnapshotPool() throws -> DatabaseSnapshotPool {
        try checkNotClosed()
        return try unsafeReentrantRead { db in
            try DatabaseSnapshotPool(db, configuration: configuration)
        }
    }
}
