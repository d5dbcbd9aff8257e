import Dispatch
import Foundation

/// The options of a database connection: given to a ``DatabaseQueue`` (and
/// later to pools) when it opens the database.
///
/// ```swift
/// var config = Configuration()
/// config.readonly = true
/// config.foreignKeysEnabled = true // the default
/// config.label = "MyDatabase"      // useful when your app opens several databases
/// config.prepareDatabase { db in
///     db.trace { print($0) }
///     db.add(function: myFunction)
/// }
/// let dbQueue = try DatabaseQueue(path: "/path/to/database.sqlite", configuration: config)
/// ```
///
/// The defaults are secure: foreign keys are enforced, SQLite's defensive
/// mode is on (`SQLITE_DBCONFIG_DEFENSIVE`), the schema is not trusted
/// (`PRAGMA trusted_schema = OFF`), extensions cannot be loaded, double-quoted
/// string literals are rejected, and statement arguments do not appear in
/// error messages and traces.
public struct Configuration: Sendable {
    // MARK: Misc options

    /// Whether foreign key constraints are enforced. Default: true.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/foreignkeys.html>
    public var foreignKeysEnabled = true

    /// Whether the database is opened read-only. Default: false.
    ///
    /// A read-only connection cannot write, and cannot create the database
    /// file if it does not exist.
    public var readonly = false

    /// Whether the path of the database may be a URI filename. Default:
    /// false.
    ///
    /// When true, a path that starts with `file:` is a URI whose parameters
    /// choose how SQLite opens the file: its VFS, its mode, and the
    /// parameters that the VFS reads. Other paths mean what they always
    /// mean. `ATTACH DATABASE` on such connections reads URIs too.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.acceptsURIFilenames = true
    /// config.readonly = true
    /// let replica = try DatabaseQueue(
    ///     path: "file:replica.db?vfs=litestream&replica_url=s3://bucket/app.db",
    ///     configuration: config)
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/uri.html>
    /// (`SQLITE_OPEN_URI`)
    public var acceptsURIFilenames = false

    /// A label for the connections, shown in their descriptions
    /// (`db.description`) and as the labels of their dispatch queues.
    /// Default: nil.
    ///
    /// The names are GRDB's, for tools and tests that read them. With no
    /// label:
    ///
    /// - `GRDB.DatabaseQueue`: the connection of a ``DatabaseQueue``;
    /// - `GRDB.DatabasePool.writer`: the writer of a ``DatabasePool``;
    /// - `GRDB.DatabasePool.reader.N`: a reader of a pool, where N counts
    ///   the reader connections the pool opened (1, 2, …); it may exceed
    ///   ``maximumReaderCount`` as readers are closed and opened again;
    /// - `GRDB.DatabasePool.snapshot.N`: the connection of the Nth
    ///   ``DatabaseSnapshot`` of a pool;
    /// - `GRDB.DatabaseSnapshotPool.snapshot.N`: a reader of a
    ///   ``DatabaseSnapshotPool``.
    ///
    /// A label takes the place of `GRDB.DatabaseQueue`, `GRDB.DatabasePool`
    /// or `GRDB.DatabaseSnapshotPool`: with `"MyDatabase"`, the writer of a
    /// pool is `MyDatabase.writer` and its first reader
    /// `MyDatabase.reader.1`.
    ///
    /// These names help debugging: do not rely on them in the logic of
    /// an application.
    public var label: String?

    /// Whether double-quoted string literals are accepted, as in
    /// `SELECT * FROM player WHERE name = "Arthur"`. Default: false.
    ///
    /// When false, `"Arthur"` is always an identifier, and a misspelled
    /// column name is an error instead of a string.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/quirks.html#dblquote>
    public var acceptsDoubleQuotedStringLiterals = false

    /// Whether statement arguments appear in error descriptions and in the
    /// expanded SQL of traces. Default: false, because arguments may hold
    /// private data.
    public var publicStatementArguments = false

    /// Whether a transaction may be left open at the end of a database access
    /// (`inDatabase`, `writeWithoutTransaction`). Default: false: such a
    /// transaction is rolled back, and the access throws an error.
    public var allowsUnsafeTransactions = false

    // MARK: Journal mode

    /// The journal mode a database queue sets when it opens the database.
    public enum JournalModeConfiguration: Sendable {
        /// The journal mode is not changed (SQLite's default is `DELETE`).
        case `default`
        /// The WAL journal mode: the connection throws at opening if the
        /// database cannot use it.
        case wal
    }

    /// The journal mode. Default: ``JournalModeConfiguration/default``.
    ///
    /// Database pools always use WAL.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/wal.html>
    public var journalMode = JournalModeConfiguration.default

    // MARK: Transactions and locks

    /// The kind of transaction that `write`, `inTransaction` and
    /// `beginTransaction()` open by default. Default:
    /// ``Database/TransactionKind/immediate``: a write transaction takes the
    /// write lock at once, so that it cannot fail with `SQLITE_BUSY` later,
    /// when it writes after reading.
    ///
    /// Where writes are forbidden (read-only connections, ``Database/readOnly(_:)``),
    /// transactions are deferred.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_transaction.html>
    public var defaultTransactionKind: Database.TransactionKind = .immediate

    /// A function called when the database is locked by another connection:
    /// the same type as ``Database/BusyCallback``.
    public typealias BusyCallback = Database.BusyCallback

    /// What happens when the database is locked by another connection: the
    /// same type as ``Database/BusyMode``.
    public typealias BusyMode = Database.BusyMode

    /// What happens when the database is locked by another connection.
    /// Default: ``Database/BusyMode/immediateError``.
    ///
    /// ```swift
    /// var configuration = Configuration()
    /// configuration.busyMode = .timeout(5)
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/busy_timeout.html>
    public var busyMode: Database.BusyMode = .immediateError

    // MARK: Statements

    /// The number of statements that each connection keeps prepared for the
    /// SQL strings your code runs (``Database/execute(sql:arguments:)``,
    /// `fetchOne(db, sql:)`, SQL and query interface requests), so that the
    /// same SQL is not parsed again at each call. When more SQL strings are
    /// in use, the least recently used statement is finalized.
    /// Default: 64. Zero prepares every statement anew.
    ///
    /// The statements of ``Database/cachedStatement(sql:)`` are kept apart,
    /// without a limit.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.implicitStatementCacheCapacity = 256  // many distinct queries
    /// ```
    public var implicitStatementCacheCapacity = 64

    // MARK: Concurrency

    /// The maximum number of reader connections of a database pool.
    /// Default: 5.
    public var maximumReaderCount = 5

    /// Whether a database pool keeps its reader connections open when it
    /// releases memory. Default: false.
    ///
    /// When false, ``DatabasePool/releaseMemory()`` and
    /// ``DatabasePool/releaseMemoryEventually()`` close the idle reader
    /// connections (the pool opens new ones when reads need them). When
    /// true, the readers stay open, and only free the memory of their
    /// caches: use it when reader connections hold state that a new
    /// connection would not have, or when opening connections is costly
    /// (a large schema, or setups that take time).
    ///
    /// Only database pools use this setting (snapshot pools do not release
    /// their connections, and queues have a single one).
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.persistentReadOnlyConnections = true
    /// let dbPool = try DatabasePool(path: "/path/to/database.sqlite", configuration: config)
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/db_release_memory.html>
    public var persistentReadOnlyConnections = false

    /// The quality of service of the dispatch queues that run database
    /// accesses, when ``targetQueue`` and ``writeTargetQueue`` are nil.
    /// Default: `.default`.
    public var qos = DispatchQoS.default

    /// The dispatch queue that the queues of the connections target. Default:
    /// nil: each connection has its own serial queue, of quality of service
    /// ``qos``.
    ///
    /// Each connection still runs one access at a time, on its own serial
    /// queue; that queue targets this one, and runs with its quality of
    /// service. The connections that target it:
    ///
    /// - the connection of a ``DatabaseQueue``, and the writer of a
    ///   ``DatabasePool``, unless ``writeTargetQueue`` is set;
    /// - the reader connections of a ``DatabasePool``, and the connections of
    ///   snapshots and snapshot pools.
    ///
    /// What runs on those queues: every access of a ``DatabaseQueue``, the
    /// writes of a pool, and the asynchronous reads of pools and snapshots
    /// (`asyncRead`, `async` reads, the fetches of value observations).
    /// The synchronous reads of a pool (`read`, `unsafeRead`) run on the
    /// thread that calls them, which the pool grants a reader connection
    /// to, without a dispatch: they do not run on this queue.
    ///
    /// Give a concurrent queue to a database pool, so that its readers run
    /// in parallel. Do not start a synchronous access from a block that
    /// runs on a serial target queue: the access would wait for the queue
    /// that the block occupies.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.targetQueue = DispatchQueue(label: "database", qos: .userInitiated, attributes: .concurrent)
    /// ```
    public var targetQueue: DispatchQueue?

    /// The dispatch queue that the queue of the writing connection targets:
    /// the connection of a ``DatabaseQueue``, the writer of a
    /// ``DatabasePool``. Default: nil: the writing connection targets
    /// ``targetQueue``, or has its own queue of quality of service ``qos``.
    ///
    /// Use it to give writes another priority than reads:
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.writeTargetQueue = DispatchQueue(label: "writes", qos: .userInitiated)
    /// config.targetQueue = DispatchQueue(label: "reads", qos: .utility, attributes: .concurrent)
    /// ```
    public var writeTargetQueue: DispatchQueue?

    /// The quality of service of reads: that of ``targetQueue``, or
    /// ``qos`` when there is no target queue.
    ///
    /// Asynchronous reads of a pool wait for a free reader connection on a
    /// global queue of this quality of service.
    public var readQoS: DispatchQoS {
        targetQueue?.qos ?? qos
    }

    /// The quality of service of writes: that of ``writeTargetQueue``, or of
    /// ``targetQueue``, or ``qos`` when there is no target queue.
    public var writeQoS: DispatchQoS {
        writeTargetQueue?.qos ?? targetQueue?.qos ?? qos
    }

    /// Makes the serial queue of a connection.
    ///
    /// - Parameters:
    ///   - label: The label of the queue.
    ///   - writes: Whether the connection is the writing one (the
    ///     connection of a database queue, the writer of a pool), which
    ///     targets ``writeTargetQueue`` first.
    func makeConnectionQueue(label: String, writes: Bool) -> DispatchQueue {
        if let target = (writes ? writeTargetQueue : nil) ?? targetQueue {
            return DispatchQueue(label: label, target: target)
        }
        return DispatchQueue(label: label, qos: qos)
    }

    // MARK: Suspension

    /// Whether the connections are suspended while the application is in the
    /// background: when true, they listen to the
    /// ``Database/suspendNotification`` and ``Database/resumeNotification``
    /// notifications of `NotificationCenter.default`. Default: false.
    ///
    /// A suspended connection avoids holding a lock on the database file,
    /// which some systems punish in suspended applications (iOS terminates an
    /// application that holds a lock on a file of a shared container, with
    /// the `0xdead10cc` exception). When the suspend notification is posted,
    /// the running statements of the connections are interrupted
    /// (`sqlite3_interrupt`). Until the resume notification is posted,
    /// statements that could lock the database throw a ``DatabaseError`` of
    /// code `SQLITE_ABORT` ("Database is suspended"), after the current
    /// transaction, if any, is rolled back. Reads are still allowed in WAL
    /// mode (pools, or queues in WAL mode), where they take no lock that
    /// blocks other processes; so are `COMMIT`, `ROLLBACK` and `RELEASE`,
    /// which release locks. ``DatabaseError/isInterruptionError`` is true for
    /// these errors.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.observesSuspensionNotifications = true
    /// let dbPool = try DatabasePool(path: path, configuration: config)
    ///
    /// // When the application goes to the background:
    /// NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
    /// // When it comes back:
    /// NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/interrupt.html>
    public var observesSuspensionNotifications = false

    // MARK: Dates

    /// The clock of ``Database/transactionDate``. Default: the date of the
    /// system.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.transactionClock = .custom { _ in Date(timeIntervalSince1970: 0) }
    /// ```
    public var transactionClock: any TransactionClock = .default

    #if SQLITE_HAS_CODEC
    /// The encryption scheme of ``Database/usePassphrase(_:)-(String)`` and
    /// ``Database/changePassphrase(_:)-(String)``: SQLCipher 4's format by
    /// default. Set it before the connections open.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.cipher = .sqlcipher(version: 3)   // a database of SQLCipher 3
    /// config.prepareDatabase { db in try db.usePassphrase(passphrase) }
    /// ```
    ///
    /// Available with the trait `SQLITE_HAS_CODEC`.
    public var cipher = Cipher.sqlcipher(version: 4)
    #endif

    // MARK: Schema

    /// Schema information that SQLite does not provide, such as the primary
    /// keys of views (see ``DatabaseSchemaSource``). Default: nil.
    public var schemaSource: (any DatabaseSchemaSource)?

    /// Whether the connection forbids writes for its whole life (`PRAGMA
    /// query_only`): reader connections of pools and snapshots.
    var isQueryOnly = false

    /// Whether a ``readonly`` connection opens its database read-write: the
    /// copies of `DatabaseQueue.inMemoryCopy(fromPath:configuration:)` and
    /// `DatabaseQueue.temporaryCopy(fromPath:configuration:)`, which are
    /// filled after they open, and forbid writes afterwards with `PRAGMA
    /// query_only`; and the readers and snapshots of a pool that is not
    /// read-only, which are ``readonly`` as in GRDB (the setups of
    /// `prepareDatabase` tell them from the writer that way), and forbid
    /// writes with ``isQueryOnly``.
    var opensReadWrite = false

    // MARK: Preparing connections

    /// The setups run on each new connection, in order.
    var setups: [@Sendable (Database) throws -> Void] = []

    /// Adds a function that runs on each new connection, right after it
    /// opens: register functions, collations and tokenizers, start tracing,
    /// run pragmas…
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.prepareDatabase { db in
    ///     try db.execute(sql: "PRAGMA cache_size = -20000")
    ///     db.add(function: myFunction)
    /// }
    /// ```
    ///
    /// When the function throws, opening the connection fails with its
    /// error. Functions added by several calls run in the order they were
    /// added.
    public mutating func prepareDatabase(_ setup: @escaping @Sendable (Database) throws -> Void) {
        setups.append(setup)
    }

    /// Prepares the connections for a database file that another process
    /// replicates from its WAL, such as Litestream (see
    /// <doc:ReplicationAndBackups>).
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.prepareForReplication()
    /// let dbPool = try DatabasePool(path: "/path/to/database.sqlite", configuration: config)
    /// ```
    ///
    /// The method sets:
    ///
    /// - ``journalMode`` to `.wal`, because the replicator reads the WAL (a
    ///   ``DatabasePool`` always uses it);
    /// - ``busyMode`` to wait `busyTimeout` seconds, because the replicator
    ///   holds the write lock for a moment at each sync;
    /// - `PRAGMA synchronous = NORMAL` on each connection: commits write the
    ///   WAL without waiting for the disk. A crash of the app loses nothing;
    ///   a crash of the machine may lose the last commits, as the delay of
    ///   the replicator does anyway. It also narrows the moment in which a
    ///   dying app leaves a commit in the WAL that no connection sees, which
    ///   Litestream 0.5.17 replicates anyway.
    ///
    /// Checkpoints do not change: SQLite's automatic ones are passive, and
    /// harmless beside a replicator, which runs the others.
    ///
    /// - Parameter busyTimeout: How long a connection waits for a lock, in
    ///   seconds (default 5).
    ///
    /// Related SQLite documentation:
    /// <https://www.sqlite.org/pragma.html#pragma_synchronous>
    public mutating func prepareForReplication(busyTimeout: TimeInterval = 5) {
        journalMode = .wal
        busyMode = .timeout(busyTimeout)
        prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
    }

    /// Creates the default configuration.
    public init() { }
}
