import Dispatch
import Foundation

/// A database connection pool: reads run in parallel with each other and
/// with writes, which are serialized.
///
/// ```swift
/// let dbPool = try DatabasePool(path: "/path/to/database.sqlite")
///
/// try dbPool.write { db in
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
/// }
///
/// // Reads from several threads at once:
/// let count = try dbPool.read { db in
///     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
/// }
/// ```
///
/// A pool uses SQLite's WAL mode: it has one writer connection, and up to
/// ``Configuration/maximumReaderCount`` reader connections, opened when
/// needed and reused. Each read runs inside a transaction, and sees one
/// committed state of the database from its first statement to its last,
/// whatever the writes that run meanwhile.
///
/// Related SQLite documentation: <https://www.sqlite.org/wal.html>
public final class DatabasePool: DatabaseWriter {
    let writer: SerializedDatabase
    private let readerPool: ReaderPool<SerializedDatabase>
    let readerConfiguration: Configuration
    let state = Locked(PoolState())
    /// The readers: a thread that reads from the pool cannot start another
    /// read (it could wait for itself when all readers are busy), nor a
    /// barrier write (it waits for the end of all reads).
    private let readerGroup = AccessGroup()
    /// The writer: a thread that writes cannot start a read (a read that
    /// writes waits for the writer, and the writer would wait for its
    /// reader: the two orders of taking them must not both be allowed),
    /// nor another write (the writer connection stops it).
    private let writerGroup = AccessGroup()
    /// The plans of `read` and `unsafeRead`, and of writes (see
    /// DatabaseAccessPlan.swift): made once.
    private let readPlan: _ReaderAccessPlan
    private let unsafeReadPlan: _ReaderAccessPlan
    private let writePlan: _WriterAccessPlan

    struct PoolState {
        var isClosed = false
        /// The reader connections opened so far: the number in the label of
        /// the next one.
        var readerCount = 0
        /// The snapshots made so far: the number in the label of the next
        /// one (see ``Configuration/label``).
        var snapshotCount = 0
        /// Setups of ``setUpConnections(_:)``, run on each new reader.
        var readerSetups: [@Sendable (Database) -> Void] = []
    }

    /// The configuration of the connections.
    public var configuration: Configuration { writer.configuration }

    /// The path of the database file.
    public let path: String

    /// Opens or creates a database file in WAL mode.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.maximumReaderCount = 10
    /// let dbPool = try DatabasePool(path: "/path/to/database.sqlite", configuration: config)
    /// ```
    ///
    /// With the default ``Database/BusyMode/immediateError`` busy mode,
    /// the connections of the pool still wait a little for the short locks
    /// that WAL connections take from each other (up to 100 ms for the
    /// writer, 10 s for readers), so that no `SQLITE_BUSY` comes from the
    /// pool's own connections.
    ///
    /// - Parameters:
    ///   - path: The path of the database file, created if it does not exist
    ///     (unless the configuration is read-only).
    ///   - configuration: The configuration of the connections.
    /// - Throws: A ``DatabaseError`` if the file cannot be opened, is not a
    ///   database, or cannot use WAL (an in-memory database, or a file
    ///   system without shared memory), or the error of a
    ///   ``Configuration/prepareDatabase(_:)`` setup. A read-only pool does
    ///   not change the journal mode: on a database that is not in WAL
    ///   mode, its readers share the locks of the rollback journal, and
    ///   snapshot pools are not available.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        stopUnless(configuration.maximumReaderCount > 0, "Configuration.maximumReaderCount must be at least 1")
        self.path = path

        var writerConfiguration = configuration
        writerConfiguration.journalMode = .wal
        if case .immediateError = configuration.busyMode {
            // A reader that reads the WAL index header while the writer
            // updates it takes the WAL write lock for a moment, to read the
            // header again: the writer waits for such moments instead of
            // failing with SQLITE_BUSY. A stress test caught it.
            writerConfiguration.busyMode = .timeout(0.1)
        }
        writer = try SerializedDatabase(
            path: path, configuration: writerConfiguration,
            defaultLabel: "GRDB.DatabasePool", purpose: "writer", accessGroup: writerGroup)

        if !configuration.readonly {
            // SQLite cannot take a WAL snapshot of a WAL file without frames,
            // as a database that was just opened has: write one frame (the
            // header page, unchanged) so that snapshot pools always work.
            try writer.sync { db in
                try db.writeWALFrameIfEmpty()
            }
        }

        var readerConfiguration = configuration
        readerConfiguration.journalMode = .wal
        // Readers are read-only, as in GRDB: `db.configuration.readonly` is
        // true in their setups and accesses. Unless the pool is read-only,
        // they open the file read-write, and forbid writes with
        // `PRAGMA query_only`.
        readerConfiguration.readonly = true
        readerConfiguration.opensReadWrite = !configuration.readonly
        readerConfiguration.isQueryOnly = true
        if case .immediateError = configuration.busyMode {
            // In WAL mode, readers only wait for the short moments when the
            // writer or a checkpoint changes the WAL index.
            readerConfiguration.busyMode = .timeout(10)
        }
        self.readerConfiguration = readerConfiguration

        let state = self.state
        let readerGroup = self.readerGroup
        let readerConfigurationCopy = readerConfiguration
        readerPool = ReaderPool(maximumCount: configuration.maximumReaderCount) {
            let number = state.withLock { state -> Int in
                state.readerCount += 1
                return state.readerCount
            }
            let reader = try SerializedDatabase(
                path: path, configuration: readerConfigurationCopy,
                defaultLabel: "GRDB.DatabasePool", purpose: "reader.\(number)", accessGroup: readerGroup)
            let setups = state.withLock { $0.readerSetups }
            if !setups.isEmpty {
                reader.sync { db in setups.forEach { $0(db) } }
            }
            return reader
        }
        #if SQLITE_HAS_CODEC
        // changePassphrase leaves WAL mode, which needs the readers closed.
        let readers = readerPool
        writer.sync { db in db.closeIdleReaders = { readers.removeAvailable() } }
        #endif
        (readPlan, unsafeReadPlan, writePlan) = DatabasePool.makeAccessPlans(
            writer: writer, readerPool: readerPool, groups: [readerGroup, writerGroup], state: state,
            readQoS: configuration.readQoS.qosClass, writeQoS: configuration.writeQoS.qosClass)
    }

    // MARK: Accesses checks

    /// Stops when the current thread runs an access to this pool: a nested
    /// read or barrier write could wait for itself, or see another state
    /// than its caller. A write from a read is allowed: the writer is
    /// another connection, which waits for no reader.
    private static func preconditionNotReentrant(_ method: String, _ groups: [AccessGroup]) {
        if groups.contains(where: { DatabaseAccess.chainContains(group: $0) }) {
            stopReentrantAccess(method, of: "database pool")
        }
    }

    /// Whether the current thread's chain of accesses holds an access to
    /// this pool (its writer or one of its readers): a read of the pool
    /// could then wait for itself (see `preconditionNotReentrant`).
    var isAccessedByCurrentThread: Bool {
        DatabaseAccess.chainContains(group: readerGroup) || DatabaseAccess.chainContains(group: writerGroup)
    }

    func checkNotClosed() throws {
        try DatabasePool.checkNotClosed(state)
    }

    private static func checkNotClosed(_ state: Locked<PoolState>) throws {
        if state.withLock({ $0.isClosed }) {
            throw DatabaseError.connectionIsClosed()
        }
    }

    // MARK: Access plans

    /// Each read runs on a reader connection, in parallel with other reads
    /// and with the writer; `read` opens a transaction, so that the read
    /// sees one committed state. The writes run on the writer connection,
    /// and barrier writes wait for the readers.
    private static func makeAccessPlans(
        writer: SerializedDatabase,
        readerPool: ReaderPool<SerializedDatabase>,
        groups: [AccessGroup],
        state: Locked<PoolState>,
        readQoS: DispatchQoS.QoSClass,
        writeQoS: DispatchQoS.QoSClass) -> (_ReaderAccessPlan, _ReaderAccessPlan, _WriterAccessPlan)
    {
        let reentrancyCheck: @Sendable (String) -> Void = { method in
            DatabasePool.preconditionNotReentrant(method, groups)
        }
        let openCheck: @Sendable () throws -> Void = { try DatabasePool.checkNotClosed(state) }
        let reentrantConnections: @Sendable () -> [SerializedDatabase] = {
            var connections = [writer]
            readerPool.forEach { connections.append($0) }
            return connections
        }
        let readPlan = _ReaderAccessPlan(
            source: .pool(readerPool),
            reentrancyCheck: reentrancyCheck,
            openCheck: openCheck,
            around: IsolatedReaderAccess(),
            reentrantConnections: reentrantConnections,
            qos: readQoS)
        let unsafeReadPlan = _ReaderAccessPlan(
            source: .pool(readerPool),
            reentrancyCheck: reentrancyCheck,
            openCheck: openCheck,
            reentrantConnections: reentrantConnections,
            qos: readQoS)
        let writePlan = _WriterAccessPlan(
            writer: writer, readers: readerPool,
            barrierReentrancyCheck: reentrancyCheck, openCheck: openCheck, qos: writeQoS)
        return (readPlan, unsafeReadPlan, writePlan)
    }

    /// The reads of a pool's reader: inside a transaction, with a schema
    /// cache that forgets what the writer may have changed.
    private struct IsolatedReaderAccess: ReaderAccessWrapper {
        func run<T>(_ db: Database, _ value: (Database) throws -> T) throws -> T {
            try db.isolated {
                db.clearSchemaCacheIfNeeded()
                return try value(db)
            }
        }
    }

    /// See ``DatabaseReader/_readerAccessPlan(_:)``.
    public func _readerAccessPlan(_ kind: _ReaderAccessKind) -> _ReaderAccessPlan {
        switch kind {
        case .read: readPlan
        case .unsafeRead: unsafeReadPlan
        }
    }

    /// See ``DatabaseWriter/_writerAccessPlan()``.
    public func _writerAccessPlan() -> _WriterAccessPlan {
        writePlan
    }

    // MARK: Closing and maintenance

    /// Closes all connections, after the reads and writes in flight have
    /// completed. Later accesses throw a ``DatabaseError`` ("Connection is
    /// closed").
    ///
    /// - Throws: A ``DatabaseError`` with code `SQLITE_BUSY` if a connection
    ///   cannot be closed because statements or cursors prepared by your
    ///   code are still alive. Each of them is reported to
    ///   ``Database/logError`` ("unfinalized statement: …"). No connection is
    ///   closed then: the pool remains open and usable.
    ///
    /// The corresponding C function is `sqlite3_close`.
    public func close() throws {
        try readerPool.barrier {
            try writer.sync { writerDB in
                var readers: [SerializedDatabase] = []
                readerPool.forEach { readers.append($0) }
                // Check every connection before closing any: a close that
                // fails leaves the whole pool open and usable.
                for reader in readers {
                    try reader.sync { db in try db.checkClosable() }
                }
                try writerDB.checkClosable()
                for reader in readers {
                    try reader.sync { db in try db.close() }
                }
                try writerDB.close()
                readerPool.removeAll()
                state.withLock { $0.isClosed = true }
            }
        }
    }

    /// Interrupts the running statements of all connections: they fail with
    /// `SQLITE_INTERRUPT`. May be called from any thread.
    ///
    /// The corresponding C function is `sqlite3_interrupt`.
    public func interrupt() {
        writer.interrupt()
        readerPool.forEach { $0.interrupt() }
    }

    /// Frees as much memory as possible: the caches of the writer (see
    /// ``Database/releaseMemory()``), and the idle reader connections,
    /// which are closed (new reads open new ones).
    ///
    /// With ``Configuration/persistentReadOnlyConnections``, the readers
    /// stay open and free the memory of their caches instead: the method
    /// then waits for the reads that run, and holds new reads until it is
    /// done. Do not call it from a read of the pool in that case: the read
    /// would wait for itself.
    ///
    /// The corresponding C function is `sqlite3_db_release_memory`.
    public func releaseMemory() {
        writer.sync { db in db.releaseMemory() }
        if configuration.persistentReadOnlyConnections {
            DatabasePool.preconditionNotReentrant("releaseMemory()", [readerGroup, writerGroup])
            releaseReaderMemory()
        } else {
            readerPool.removeAvailable()
        }
    }

    /// Frees memory without waiting: the idle reader connections are closed
    /// at once, and the writer frees the memory of its caches when its
    /// current work is done (see ``Database/releaseMemory()``).
    ///
    /// With ``Configuration/persistentReadOnlyConnections``, the readers
    /// stay open, and free the memory of their caches once the reads that
    /// run are done, on a background thread.
    ///
    /// ```swift
    /// // When the system is low on memory:
    /// dbPool.releaseMemoryEventually()
    /// ```
    ///
    /// The corresponding C function is `sqlite3_db_release_memory`.
    public func releaseMemoryEventually() {
        if configuration.persistentReadOnlyConnections {
            DispatchQueue.global(qos: configuration.readQoS.qosClass).async { [self] in
                releaseReaderMemory()
            }
        } else {
            readerPool.removeAvailable()
        }
        writer.async { db in db.releaseMemory() }
    }

    /// Frees the memory of the caches of the readers, which are kept open.
    /// A barrier of the reader pool: no read uses a reader meanwhile (the
    /// synchronous reads of a pool run on the caller's thread, not on the
    /// queue of their reader).
    private func releaseReaderMemory() {
        readerPool.barrier {
            readerPool.forEach { reader in
                reader.sync { db in db.releaseMemory() }
            }
        }
    }

    /// Closes the idle reader connections; the readers in use are closed
    /// when their read ends. New reads open new connections.
    ///
    /// Use it after a change that reader connections would not notice, such
    /// as a new function registered on the writer only.
    public func invalidateReadOnlyConnections() {
        readerPool.removeAvailable()
    }

    /// Runs a WAL checkpoint on the writer connection.
    ///
    /// - Parameter kind: The kind of checkpoint (default
    ///   ``Database/CheckpointMode/passive``).
    /// - Returns: The number of frames in the WAL, and the number of frames
    ///   copied into the database file.
    /// - Throws: A ``DatabaseError``, such as `SQLITE_BUSY` when a `restart`
    ///   or `truncate` checkpoint cannot wait for the readers.
    ///
    /// The corresponding C function is `sqlite3_wal_checkpoint_v2`.
    @discardableResult
    public func checkpoint(_ kind: Database.CheckpointMode = .passive) throws -> (walFrameCount: Int, checkpointedFrameCount: Int) {
        try writer.reentrantSync { db in try db.checkpoint(kind) }
    }

    // MARK: Reads

    // MARK: Concurrent reads

    /// Runs `value` on a reader connection that sees the database as it is
    /// now, while the writer goes on. Call it from a write access, outside
    /// of any transaction: the method returns once the read has started its
    /// transaction, so that later writes do not show in the read.
    ///
    /// ```swift
    /// try dbPool.writeWithoutTransaction { db in
    ///     try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
    ///     dbPool.asyncConcurrentRead { result in
    ///         // Sees Arthur, whatever the writer does next.
    ///         let count = try? Int.fetchOne(result.get(), sql: "SELECT COUNT(*) FROM player")
    ///     }
    ///     try db.execute(sql: "DELETE FROM player")
    /// }
    /// ```
    ///
    /// - Precondition: called from a write access of this pool, outside of
    ///   any transaction.
    public func asyncConcurrentRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        stopUnless(writer.isCurrentAccess,
            "asyncConcurrentRead must be called from a write access of the pool (writeWithoutTransaction).")
        writer.reentrantSync { db in
            stopUnless(!db.isInsideTransaction,
                "asyncConcurrentRead must be called outside of a transaction: the read could not see the state of an uncommitted write.")
        }

        // Blocks the writer until the read has started its transaction.
        let isolation = DispatchSemaphore(value: 0)
        do {
            try checkNotClosed()
            let reader = try readerPool.get()
            reader.async(then: { [readerPool] in readerPool.release(reader) }) { db in
                do {
                    try db.beginReadTransaction()
                } catch {
                    isolation.signal()
                    value(.failure(error))
                    return
                }
                isolation.signal()
                value(.success(db))
                db.rollbackIgnoringErrors()
            }
        } catch {
            isolation.signal()
            value(.failure(error))
        }
        isolation.wait()
    }

    /// Same as ``asyncConcurrentRead(_:)``.
    public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        asyncConcurrentRead(value)
    }

    // MARK: Writes

    /// Runs `updates` in a transaction of the writer, and commits or rolls
    /// back as `updates` says.
    ///
    /// ```swift
    /// try dbPool.writeInTransaction { db in
    ///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
    ///     return .commit
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - kind: The kind of transaction; nil for
    ///     ``Configuration/defaultTransactionKind``.
    ///   - updates: The work of the transaction; it returns `.commit` or
    ///     `.rollback`.
    /// - Throws: The error of `updates` (the transaction is rolled back), or
    ///   a ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_transaction.html>
    public func writeInTransaction(
        _ kind: Database.TransactionKind? = nil,
        _ updates: (Database) throws -> Database.TransactionCompletion) throws
    {
        try writeWithoutTransaction { db in
            try db.inTransaction(kind) { try updates(db) }
        }
    }

    // MARK: Connection setup

    /// Runs `setup` on all connections of the pool: the writer now, and
    /// every reader before its next read. The layers above Access (the FTS5
    /// tokenizers of `add(tokenizer:)`) register what they need this way.
    ///
    /// The readers in use cannot be set up from here: a granted reader runs
    /// its synchronous reads on the thread of its user, not on its queue
    /// (see `SerializedDatabase.syncGranted(_:)`). So the pool forgets its
    /// readers instead: the idle ones now, the busy ones when their read
    /// ends; the readers it opens next run all setups. The reader of the
    /// current thread, if any, is set up at once, for the rest of its read.
    func setUpConnections(_ setup: @escaping @Sendable (Database) -> Void) {
        state.withLock { $0.readerSetups.append(setup) }
        writer.reentrantSync(setup)
        readerPool.forEach { reader in
            if reader.isCurrentAccess { reader.reentrantSync(setup) }
        }
        readerPool.removeAll()
    }
}
