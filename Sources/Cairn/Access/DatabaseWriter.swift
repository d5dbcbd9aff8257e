/// A type that writes a database: ``DatabaseQueue`` and ``DatabasePool``
/// adopt it.
///
/// Writes are serialized: at any time, at most one access writes.
public protocol DatabaseWriter: DatabaseReader {
    /// Runs `updates` with the writer connection, outside of any transaction,
    /// and returns its result.
    ///
    /// - Throws: The error of `updates`; a ``DatabaseError`` when `updates`
    ///   leaves a transaction open (it is rolled back).
    func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T

    /// Runs `updates` with the writer connection, outside of any transaction,
    /// without blocking the calling thread.
    ///
    /// - Throws: The error of `updates`, a ``DatabaseError``, or
    ///   `CancellationError`.
    func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T

    /// Runs `updates` with the writer connection once no other access runs,
    /// outside of any transaction.
    ///
    /// - Throws: The error of `updates`, or a ``DatabaseError``.
    func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T

    /// Runs `updates` with the writer connection once no other access runs,
    /// without blocking the calling thread.
    ///
    /// - Throws: The error of `updates`, a ``DatabaseError``, or
    ///   `CancellationError`.
    func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T

    /// Runs `updates` later, with the writer connection once no other access
    /// runs, or with the error that prevented the access.
    func asyncBarrierWriteWithoutTransaction(_ updates: @escaping @Sendable (Result<Database, Error>) -> Void)

    /// Runs `updates` later, with the writer connection, outside of any
    /// transaction.
    func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void)

    /// Runs `updates` with the writer connection, from within a write access
    /// or not. Inside a write access, `updates` receives its connection.
    ///
    /// - Throws: The error of `updates`.
    func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T

    /// Runs `value` with a read-only connection that sees the database as it
    /// is now, while later writes go on. Call it from a write access,
    /// outside of any transaction.
    ///
    /// With a ``DatabaseQueue``, `value` runs before the method returns.
    func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void)
}

extension DatabaseWriter {
    /// Runs `updates` inside a transaction, and returns its result: the
    /// transaction commits when `updates` returns, and rolls back everything
    /// it did when it throws.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
    ///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Barbara"])
    /// } // Both inserts succeed, or none.
    /// ```
    ///
    /// The transaction is of kind ``Configuration/defaultTransactionKind``.
    ///
    /// - Precondition: not called from an access to the same database (it
    ///   would wait for itself).
    /// - Throws: The error of `updates`, or a ``DatabaseError``.
    public func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction { db in
            try db.inTransactionReturning(nil) { try updates(db) }
        }
    }

    /// Runs `updates` inside a transaction, and returns its result, without
    /// blocking the calling thread.
    ///
    /// ```swift
    /// let count = try await dbQueue.write { db in
    ///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
    ///     return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
    /// }
    /// ```
    ///
    /// - Throws: The error of `updates`, a ``DatabaseError``, or
    ///   `CancellationError` when the task is cancelled (the transaction is
    ///   then rolled back).
    public func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await writeWithoutTransaction { db in
            try db.inTransactionReturning(nil) { try updates(db) }
        }
    }

    /// Runs `updates` later, inside a transaction, then `completion` with
    /// its result or error.
    ///
    /// ```swift
    /// dbQueue.asyncWrite({ db in
    ///     try db.execute(sql: "DELETE FROM player")
    /// }, completion: { db, result in
    ///     if case .failure(let error) = result { print(error) }
    /// })
    /// ```
    public func asyncWrite<T>(
        _ updates: @escaping @Sendable (Database) throws -> T,
        completion: @escaping @Sendable (Database, Result<T, Error>) -> Void)
    {
        asyncWriteWithoutTransaction { db in
            let result = Result { try db.inTransactionReturning(nil) { try updates(db) } }
            completion(db, result)
        }
    }
}
