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

    /// A label for the connection, shown in its description and in the name
    /// of its dispatch queue. Default: nil.
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
    /// it receives the number of times it was called for the same lock, and
    /// returns true to try again, false to fail with `SQLITE_BUSY`.
    public typealias BusyCallback = @Sendable (_ numberOfTries: Int) -> Bool

    /// What happens when the database is locked by another connection.
    ///
    /// ```swift
    /// var configuration = Configuration()
    /// configuration.busyMode = .timeout(5)
    /// ```
    public enum BusyMode: Sendable {
        /// The statement fails at once with `SQLITE_BUSY`.
        case immediateError
        /// The statement retries for up to the given number of seconds, then
        /// fails with `SQLITE_BUSY`.
        case timeout(TimeInterval)
        /// A function decides whether to retry.
        case callback(BusyCallback)
    }

    /// What happens when the database is locked by another connection.
    /// Default: ``BusyMode/immediateError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/busy_timeout.html>
    public var busyMode = BusyMode.immediateError

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

    /// The quality of service of the dispatch queues that run database
    /// accesses. Default: `.default`.
    public var qos = DispatchQoS.default

    // MARK: Dates

    /// The clock of ``Database/transactionDate``. Default: the date of the
    /// system.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.transactionClock = .custom { _ in Date(timeIntervalSince1970: 0) }
    /// ```
    public var transactionClock: any TransactionClock = .default

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
    /// query_only`.
    var opensReadWriteForCopy = false

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

    /// Creates the default configuration.
    public init() { }
}
