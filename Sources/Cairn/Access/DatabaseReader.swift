/// A type that reads a database: ``DatabaseQueue``, ``DatabasePool``,
/// ``DatabaseSnapshot``, ``DatabaseSnapshotPool`` and
/// ``AnyDatabaseReader`` adopt it.
///
/// Write code that only reads against `DatabaseReader`, so that it works with
/// any of them:
///
/// ```swift
/// func playerCount(_ reader: some DatabaseReader) throws -> Int {
///     try reader.read { db in
///         try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0
///     }
/// }
/// ```
public protocol DatabaseReader: AnyObject, Sendable {
    /// The configuration of the connections.
    var configuration: Configuration { get }

    /// The path of the database.
    var path: String { get }

    /// Closes the connections.
    ///
    /// Later accesses throw a ``DatabaseError`` ("Connection is closed").
    ///
    /// - Throws: A ``DatabaseError`` if a connection cannot be closed because
    ///   statements or cursors prepared by your code are still alive.
    func close() throws

    /// Interrupts the running statements: they fail with `SQLITE_INTERRUPT`.
    /// May be called from any thread.
    ///
    /// The corresponding C function is `sqlite3_interrupt`.
    func interrupt()

    /// Runs `value` with a read-only connection, inside a transaction, so
    /// that all its reads see one committed state, and returns its result.
    ///
    /// ```swift
    /// let (count, players) = try dbQueue.read { db in
    ///     (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!,
    ///      try Row.fetchAll(db, sql: "SELECT * FROM player"))
    /// }
    /// ```
    ///
    /// A statement that writes throws a ``DatabaseError`` with code
    /// `SQLITE_READONLY`.
    ///
    /// - Precondition: not called from an access to the same database (it
    ///   would wait for itself).
    /// - Throws: The error of `value`, or a ``DatabaseError``.
    func read<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs `value` with a read-only connection, inside a transaction, and
    /// returns its result, without blocking the calling thread.
    ///
    /// ```swift
    /// let count = try await dbQueue.read { db in
    ///     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
    /// }
    /// ```
    ///
    /// `value` runs in the calling task: it sees the task-local values of
    /// the task, and `Task.isCancelled`. When the task is cancelled, the
    /// statements that `value` starts afterwards throw, and the read ends
    /// with `CancellationError`.
    ///
    /// - Throws: The error of `value`, a ``DatabaseError``, or
    ///   `CancellationError` when the task is cancelled.
    func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T

    /// Runs `value` later, with a read-only connection inside a transaction,
    /// or with the error that prevented the access.
    func asyncRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void)

    /// Runs `value` with a connection, without the isolation of a
    /// transaction and without forbidding writes.
    ///
    /// - Throws: The error of `value`, or a ``DatabaseError``.
    func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs `value` with a connection, without the isolation of a
    /// transaction, without blocking the calling thread.
    ///
    /// - Throws: The error of `value`, a ``DatabaseError``, or
    ///   `CancellationError`.
    func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T

    /// Runs `value` later, with a connection, without the isolation of a
    /// transaction.
    func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void)

    /// Runs `value` with a connection, from within an access to the same
    /// database or not. Inside an access, `value` receives its connection.
    ///
    /// - Throws: The error of `value`, or a ``DatabaseError``.
    func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T

    /// How the reader runs its reads: Cairn's access primitive, on which
    /// the access methods above are written once. Not for use outside of
    /// Cairn.
    func _readerAccessPlan(_ kind: _ReaderAccessKind) -> _ReaderAccessPlan
}

// The access methods, written once for all readers, on top of their plans
// (see DatabaseAccessPlan.swift).
extension DatabaseReader {
    /// See ``DatabaseReader/read(_:)-7go1k``.
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try _readerAccessPlan(.read).sync(method: "read", value)
    }

    /// See ``DatabaseReader/read(_:)-97wa5``.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await _readerAccessPlan(.read).execute(value)
    }

    /// See ``DatabaseReader/asyncRead(_:)``.
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        // The reader stays alive until the read runs: a snapshot pool, for
        // instance, releases its snapshot when it goes.
        _readerAccessPlan(.read).async { [self] result in
            withExtendedLifetime(self) { value(result) }
        }
    }

    /// See ``DatabaseReader/unsafeRead(_:)-6s6d6``.
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try _readerAccessPlan(.unsafeRead).sync(method: "unsafeRead", value)
    }

    /// See ``DatabaseReader/unsafeRead(_:)-8dxl1``.
    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await _readerAccessPlan(.unsafeRead).execute(value)
    }

    /// See ``DatabaseReader/asyncUnsafeRead(_:)``.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        // See asyncRead(_:).
        _readerAccessPlan(.unsafeRead).async { [self] result in
            withExtendedLifetime(self) { value(result) }
        }
    }

    /// See ``DatabaseReader/unsafeReentrantRead(_:)``: from an access to
    /// one of the reader's connections, `value` receives its connection;
    /// otherwise, it runs as ``DatabaseReader/unsafeRead(_:)-6s6d6``.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        let plan = _readerAccessPlan(.unsafeRead)
        if let current = plan.reentrantConnections().first(where: \.isCurrentAccess) {
            return try current.reentrantSync { db in try plan.reentrantAround.run(db, value) }
        }
        return try plan.sync(method: "unsafeReentrantRead", value)
    }
}
