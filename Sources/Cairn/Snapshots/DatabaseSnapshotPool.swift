import Dispatch
import Foundation

/// Connections that see one committed state of a database, never see the
/// changes written afterwards, and read in parallel.
///
/// ```swift
/// let snapshotPool = try dbPool.makeSnapshotPool()
/// try dbPool.write { db in
///     try db.execute(sql: "DELETE FROM player")
/// }
/// // From several threads at once, the same players:
/// let count = try snapshotPool.read { db in
///     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
/// }
/// ```
///
/// A snapshot pool needs a database in WAL mode. Its connections open the
/// same WAL snapshot (`sqlite3_snapshot_get` and `sqlite3_snapshot_open`).
/// To keep checkpoints from overwriting the snapshot, the pool keeps one
/// connection in a read transaction on it for its whole life: the WAL file
/// grows while the pool is alive. If SQLite reports the snapshot lost anyway
/// (after another process reset the WAL file, for instance), reads throw a
/// ``DatabaseError`` with code `SQLITE_ERROR_SNAPSHOT`: they never read a
/// newer state.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/snapshot_open.html>
public final class DatabaseSnapshotPool: DatabaseReader {
    /// The configuration of the connections.
    public let configuration: Configuration

    /// The path of the database file.
    public let path: String

    private let walSnapshot: WALSnapshot

    /// Holds a read transaction on the snapshot, so that checkpoints cannot
    /// overwrite it.
    private let holder: SerializedDatabase

    private let readerPool: ReaderPool<SerializedDatabase>
    /// The readers: a thread that accesses one of them cannot start another
    /// access to the pool.
    private let accessGroup = AccessGroup()
    private let isClosed = Locked(false)
    /// The plan of all reads (see DatabaseAccessPlan.swift): made once.
    private let readPlan: _ReaderAccessPlan

    /// Creates a snapshot pool that sees the current state of a connection:
    /// the state that its current read transaction sees, or, outside of a
    /// transaction, the last committed state.
    ///
    /// ```swift
    /// let snapshotPool = try dbPool.writeWithoutTransaction { db in
    ///     try db.execute(sql: "INSERT INTO player ...")
    ///     return try DatabaseSnapshotPool(db)  // sees the insert
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - db: A connection to a database in WAL mode, outside of any
    ///     transaction, or inside a transaction that has not written.
    ///   - configuration: The configuration of the pool's connections; nil
    ///     for the configuration of `db`.
    /// - Throws: A ``DatabaseError`` when the database is not in WAL mode, is
    ///   an in-memory database, or `db` is inside a transaction that has
    ///   written.
    public convenience init(_ db: Database, configuration: Configuration? = nil) throws {
        let parts = try DatabaseSnapshotPool.holdSnapshot(of: db, configuration: configuration ?? db.configuration)
        self.init(path: db.path, parts: parts)
    }

    /// Creates a snapshot pool that sees the last committed state of a
    /// database file in WAL mode.
    ///
    /// - Parameters:
    ///   - path: The path of a database file in WAL mode.
    ///   - configuration: The configuration of the connections.
    /// - Throws: A ``DatabaseError`` when the file cannot be opened, or is not
    ///   in WAL mode.
    public convenience init(path: String, configuration: Configuration = Configuration()) throws {
        var openingConfiguration = configuration
        openingConfiguration.isQueryOnly = true
        openingConfiguration.journalMode = .default
        let connection = try SerializedDatabase(
            path: path, configuration: openingConfiguration,
            defaultLabel: configuration.label ?? "GRDB.DatabaseSnapshotPool")
        let parts = try connection.sync { db in
            try DatabaseSnapshotPool.holdSnapshot(of: db, configuration: configuration)
        }
        self.init(path: path, parts: parts)
    }

    /// What a snapshot pool is made of.
    private struct Parts: Sendable {
        var configuration: Configuration
        var walSnapshot: WALSnapshot
        var holder: SerializedDatabase
    }

    private init(path: String, parts: Parts) {
        self.path = path
        self.configuration = parts.configuration
        self.walSnapshot = parts.walSnapshot
        self.holder = parts.holder
        let configuration = parts.configuration
        let label = configuration.label ?? "GRDB.DatabaseSnapshotPool"
        let readerCount = Locked(0)
        let accessGroup = self.accessGroup
        let readerPool = ReaderPool<SerializedDatabase>(maximumCount: configuration.maximumReaderCount) {
            let number = readerCount.withLock { count -> Int in
                count += 1
                return count
            }
            return try SerializedDatabase(
                path: path, configuration: configuration,
                defaultLabel: label, purpose: "snapshot.\(number)", accessGroup: accessGroup)
        }
        self.readerPool = readerPool
        // Reads of a snapshot pool are always isolated and read-only:
        // `unsafeRead` is `read`.
        let walSnapshot = parts.walSnapshot
        let isClosed = isClosed
        readPlan = _ReaderAccessPlan(
            source: .pool(readerPool),
            reentrancyCheck: { method in
                if DatabaseAccess.chainContains(group: accessGroup) {
                    stopReentrantAccess(method, of: "snapshot pool", reentrantMethods: "unsafeReentrantRead")
                }
            },
            openCheck: {
                if isClosed.withLock({ $0 }) {
                    throw DatabaseError.connectionIsClosed()
                }
            },
            around: SnapshotAccess(walSnapshot: walSnapshot),
            reentrantConnections: {
                var connections: [SerializedDatabase] = []
                readerPool.forEach { connections.append($0) }
                return connections
            },
            qos: configuration.readQoS.qosClass)
    }

    /// Takes a WAL snapshot of the state `db` sees, and opens a connection
    /// that holds it, before the transaction of `db` ends, so that no
    /// checkpoint can overwrite it meanwhile.
    private static func holdSnapshot(of db: Database, configuration: Configuration) throws -> Parts {
        let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode")
        guard mode?.lowercased() == "wal" else {
            throw db.makeError(
                resultCode: .SQLITE_ERROR,
                message: "a snapshot pool needs a database in the WAL journal mode (it is \(mode ?? "unknown"))",
                sql: nil, arguments: nil)
        }
        var configuration = configuration
        // Read-only, as the readers of a pool (see `DatabasePool`).
        configuration.opensReadWrite = !configuration.readonly
        configuration.readonly = true
        configuration.isQueryOnly = true
        configuration.journalMode = .default
        if case .immediateError = configuration.busyMode {
            configuration.busyMode = .timeout(10)
        }

        // When we start the transaction, sqlite3_snapshot_get starts the read
        // itself: it then avoids the read lock that lets a writer reset a
        // fully checkpointed WAL file, which would destroy the snapshot
        // before the holder opens it.
        let startsTransaction = !db.isInsideTransaction
        if startsTransaction {
            try db.beginTransaction(.deferred)
        }
        defer {
            if startsTransaction { db.rollbackIgnoringErrors() }
        }
        let walSnapshot = try WALSnapshot(db)
        let holder = try SerializedDatabase(
            path: db.path, configuration: configuration,
            defaultLabel: configuration.label ?? "GRDB.DatabaseSnapshotPool", purpose: "holder")
        try holder.sync { db in
            try db.beginTransaction(.deferred)
            do {
                try walSnapshot.open(on: db)
                try db.startReading()
            } catch {
                db.rollbackIgnoringErrors()
                throw error
            }
        }
        return Parts(configuration: configuration, walSnapshot: walSnapshot, holder: holder)
    }

    deinit {
        // Ends the hold on the snapshot, so that checkpoints can proceed.
        holder.async { db in db.rollbackIgnoringErrors() }
    }

    // MARK: Accesses

    /// Runs the reads inside a transaction on the snapshot.
    private struct SnapshotAccess: ReaderAccessWrapper {
        let walSnapshot: WALSnapshot

        func run<T>(_ db: Database, _ value: (Database) throws -> T) throws -> T {
            // The reader has no transaction between reads. Should one have
            // been left open (a rollback that interrupts defeated, see
            // Database.rollbackAfterInterrupts()), it ends here: BEGIN
            // would fail at each read otherwise.
            if db.isInsideTransaction { db.rollbackIgnoringErrors() }
            try db.beginTransaction(.deferred)
            defer { db.rollbackIgnoringErrors() }
            try walSnapshot.open(on: db)
            return try value(db)
        }
    }

    /// See ``DatabaseReader/_readerAccessPlan(_:)``: each read runs on a
    /// connection of the pool, inside a transaction on the snapshot.
    public func _readerAccessPlan(_ kind: _ReaderAccessKind) -> _ReaderAccessPlan {
        readPlan
    }

    /// Closes the connections, after the reads in flight have completed, and
    /// releases the snapshot. Later accesses throw a ``DatabaseError``
    /// ("Connection is closed").
    ///
    /// - Throws: A ``DatabaseError`` if a connection cannot be closed because
    ///   statements or cursors prepared by your code are still alive.
    public func close() throws {
        try readerPool.barrier {
            var readers: [SerializedDatabase] = []
            readerPool.forEach { readers.append($0) }
            for reader in readers {
                try reader.sync { db in try db.close() }
            }
            readerPool.removeAll()
            try holder.sync { db in
                db.rollbackIgnoringErrors()
                try db.close()
            }
            isClosed.withLock { $0 = true }
        }
    }

    /// Interrupts the running reads.
    ///
    /// The corresponding C function is `sqlite3_interrupt`.
    public func interrupt() {
        readerPool.forEach { $0.interrupt() }
    }

}
