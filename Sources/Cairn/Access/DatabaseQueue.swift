import Foundation

/// A database connection whose accesses are serialized: one at a time, from
/// any thread.
///
/// ```swift
/// let dbQueue = try DatabaseQueue(path: "/path/to/database.sqlite")
///
/// try dbQueue.write { db in
///     try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
/// }
///
/// let names = try dbQueue.read { db in
///     try String.fetchAll(db, sql: "SELECT name FROM player")
/// }
///
/// // Without blocking the current thread:
/// let count = try await dbQueue.read { db in
///     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
/// }
/// ```
///
/// Open one queue per database file, and share it: all accesses to the
/// database then run one after the other, and none sees the unfinished work
/// of another.
public final class DatabaseQueue: DatabaseWriter {
    private let writer: SerializedDatabase
    /// The plans of `read` and `unsafeRead` (see DatabaseAccessPlan.swift):
    /// made once.
    private let readPlan: _ReaderAccessPlan
    private let unsafeReadPlan: _ReaderAccessPlan
    private let writePlan: _WriterAccessPlan

    /// The configuration of the connection.
    public var configuration: Configuration { writer.configuration }

    /// The path of the database: `":memory:"` for a private in-memory
    /// database, the URI for a named one.
    public var path: String { writer.path }

    /// Opens or creates a database file.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.foreignKeysEnabled = true
    /// let dbQueue = try DatabaseQueue(path: "/path/to/database.sqlite", configuration: config)
    /// ```
    ///
    /// - Parameters:
    ///   - path: The path of the database file, created if it does not exist
    ///     (unless the configuration is read-only).
    ///   - configuration: The configuration of the connection.
    /// - Throws: A ``DatabaseError`` if the file cannot be opened or is not a
    ///   database, or the error of a ``Configuration/prepareDatabase(_:)``
    ///   setup.
    ///
    /// The corresponding C function is `sqlite3_open_v2`.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        writer = try SerializedDatabase(
            path: path, configuration: configuration,
            defaultLabel: "GRDB.DatabaseQueue")
        (readPlan, unsafeReadPlan) = DatabaseQueue.makeReadPlans(writer)
        writePlan = _WriterAccessPlan(writer: writer)
    }

    /// Opens an in-memory database.
    ///
    /// ```swift
    /// let privateQueue = try DatabaseQueue()
    /// let sharedQueue = try DatabaseQueue(named: "cache")
    /// ```
    ///
    /// - Parameters:
    ///   - name: When nil (the default), the database is private to the
    ///     queue. Otherwise, queues opened with the same name share the same
    ///     database, which lives as long as one of them is open.
    ///   - configuration: The configuration of the connection.
    /// - Throws: A ``DatabaseError``, or the error of a
    ///   ``Configuration/prepareDatabase(_:)`` setup.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/inmemorydb.html>
    public init(named name: String? = nil, configuration: Configuration = Configuration()) throws {
        if let name {
            let escaped = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
            writer = try SerializedDatabase(
                path: "file:\(escaped)?mode=memory&cache=shared",
                configuration: configuration,
                defaultLabel: "GRDB.DatabaseQueue",
                openFlags: SQLITE_OPEN_URI)
        } else {
            writer = try SerializedDatabase(
                path: ":memory:", configuration: configuration,
                defaultLabel: "GRDB.DatabaseQueue")
        }
        (readPlan, unsafeReadPlan) = DatabaseQueue.makeReadPlans(writer)
        writePlan = _WriterAccessPlan(writer: writer)
    }

    // MARK: Closing and interrupting

    /// Closes the connection. Later accesses throw a ``DatabaseError``
    /// ("Connection is closed").
    ///
    /// - Throws: A ``DatabaseError`` with code `SQLITE_BUSY` if the
    ///   connection cannot be closed because statements or cursors prepared
    ///   by your code are still alive. Each of them is reported to
    ///   ``Database/logError`` ("unfinalized statement: …"), and the queue
    ///   remains open and usable.
    ///
    /// The corresponding C function is `sqlite3_close`.
    public func close() throws {
        try writer.sync { db in try db.close() }
    }

    /// Interrupts the running statement: it fails with `SQLITE_INTERRUPT`.
    /// May be called from any thread.
    ///
    /// The corresponding C function is `sqlite3_interrupt`.
    public func interrupt() {
        writer.interrupt()
    }

    /// Frees as much memory as possible: the caches of pages, statements and
    /// schema information of the connection (see
    /// ``Database/releaseMemory()``).
    ///
    /// The corresponding C function is `sqlite3_db_release_memory`.
    public func releaseMemory() {
        writer.sync { db in db.releaseMemory() }
    }

    // MARK: Database access

    /// Runs `updates` with the connection, outside of any implicit
    /// transaction, and returns its result.
    ///
    /// ```swift
    /// try dbQueue.inDatabase { db in
    ///     try db.execute(sql: "PRAGMA journal_mode = WAL")
    /// }
    /// ```
    ///
    /// - Precondition: not called from an access to this queue.
    /// - Throws: The error of `updates`; a ``DatabaseError`` when `updates`
    ///   leaves a transaction open (it is rolled back).
    public func inDatabase<T>(_ updates: (Database) throws -> T) throws -> T {
        try writer.sync { db in
            try db.checkingTransactionLeftOpen { try updates(db) }
        }
    }

    /// Runs `updates`, which does not throw, with the connection, outside of
    /// any implicit transaction, and returns its result.
    ///
    /// ```swift
    /// let count = dbQueue.inDatabase { db in db.totalChangesCount }
    /// ```
    ///
    /// - Precondition: not called from an access to this queue, and
    ///   `updates` does not leave a transaction open (it can only do so by
    ///   ignoring errors, with `try?`): the transaction is rolled back, and
    ///   the program stops.
    public func inDatabase<T>(_ updates: (Database) -> T) -> T {
        writer.sync { db in
            db.checkingNoTransactionLeftOpen { updates(db) }
        }
    }

    /// Runs `updates` inside a transaction that commits or rolls back
    /// according to the result of `updates`.
    ///
    /// ```swift
    /// try dbQueue.inTransaction { db in
    ///     try db.execute(sql: "INSERT INTO player ...")
    ///     return .commit
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - kind: The kind of transaction; nil for
    ///     ``Configuration/defaultTransactionKind``.
    ///   - updates: The work of the transaction.
    /// - Throws: The error of `updates` (the transaction is rolled back), or
    ///   a ``DatabaseError``.
    public func inTransaction(
        _ kind: Database.TransactionKind? = nil,
        _ updates: (Database) throws -> Database.TransactionCompletion) throws
    {
        try writer.sync { db in
            try db.inTransaction(kind) { try updates(db) }
        }
    }

    /// See ``DatabaseWriter/spawnConcurrentRead(_:)``: in a queue, `value`
    /// runs at once, on the current access, with writes forbidden.
    ///
    /// - Precondition: called from a write access, outside of a transaction.
    public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        writer.reentrantSync { db in
            stopUnless(!db.isInsideTransaction,
                "spawnConcurrentRead must be called outside of a transaction, from a write access.")
            do {
                try db.readOnly { try db.isolated { value(.success(db)) } }
            } catch {
                value(.failure(error))
            }
        }
    }

    // MARK: Access plans

    /// The reads run on the queue's connection; `read` forbids writes and
    /// opens a transaction.
    private static func makeReadPlans(_ writer: SerializedDatabase) -> (_ReaderAccessPlan, _ReaderAccessPlan) {
        let readPlan = _ReaderAccessPlan(
            source: .connection(writer),
            around: ReadOnlyIsolatedAccess(),
            reentrantConnections: { [writer] })
        let unsafeReadPlan = _ReaderAccessPlan(source: .connection(writer), reentrantConnections: { [writer] })
        return (readPlan, unsafeReadPlan)
    }

    /// See ``DatabaseReader/_readerAccessPlan(_:)``.
    public func _readerAccessPlan(_ kind: _ReaderAccessKind) -> _ReaderAccessPlan {
        switch kind {
        case .read: readPlan
        case .unsafeRead: unsafeReadPlan
        }
    }

    /// See ``DatabaseWriter/_writerAccessPlan()``: the writes run on the
    /// queue's connection, serialized with the reads.
    public func _writerAccessPlan() -> _WriterAccessPlan {
        writePlan
    }

    /// The reads of a queue: writes forbidden, inside a transaction.
    private struct ReadOnlyIsolatedAccess: ReaderAccessWrapper {
        func run<T>(_ db: Database, _ value: (Database) throws -> T) throws -> T {
            try db.readOnly { try db.isolated { try value(db) } }
        }
    }

    // MARK: Connection setup

    /// Runs `setup` on the connection now: the layers above Access (the
    /// FTS5 tokenizers of `add(tokenizer:)`) register what they need this
    /// way.
    func setUpConnections(_ setup: @escaping @Sendable (Database) -> Void) {
        writer.reentrantSync(setup)
    }
}
