import Dispatch

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

    /// Runs `updates`, which does not throw, with the writer connection,
    /// outside of any transaction, and returns its result. As GRDB's
    /// `rethrows` method, it needs no `try`. Every writer has it (see the
    /// extension of the protocol).
    ///
    /// - Precondition: `updates` does not leave a transaction open.
    func writeWithoutTransaction<T>(_ updates: (Database) -> T) -> T

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

    /// How the writer runs its writes: Cairn's access primitive, on which
    /// the access methods above are written once. Not for use outside of
    /// Cairn.
    func _writerAccessPlan() -> _WriterAccessPlan
}

// The write methods, written once for all writers, on top of their plans
// (see DatabaseAccessPlan.swift).
extension DatabaseWriter {
    /// See ``DatabaseWriter/writeWithoutTransaction(_:)-4emiy``.
    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try _writerAccessPlan().writer.sync { db in
            try db.checkingTransactionLeftOpen { try updates(db) }
        }
    }

    /// See ``DatabaseWriter/writeWithoutTransaction(_:)-59wts``.
    public func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await _writerAccessPlan().writer.execute { db in
            try db.checkingTransactionLeftOpen { try updates(db) }
        }
    }

    /// See ``DatabaseWriter/barrierWriteWithoutTransaction(_:)-92uc3``: with
    /// a pool, waits until no read runs, and keeps new reads from starting
    /// until `updates` completes (reads of snapshots are not blocked). In a
    /// queue, all accesses are serialized: this is the same as
    /// ``DatabaseWriter/writeWithoutTransaction(_:)-4emiy``.
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        let plan = _writerAccessPlan()
        guard let readers = plan.readers else {
            return try writeWithoutTransaction(updates)
        }
        plan.barrierReentrancyCheck?("barrierWriteWithoutTransaction")
        return try readers.barrier {
            try plan.writer.sync { db in
                try db.checkingTransactionLeftOpen { try updates(db) }
            }
        }
    }

    /// See ``DatabaseWriter/barrierWriteWithoutTransaction(_:)-19ck5``.
    public func barrierWriteWithoutTransaction<T: Sendable>(
        _ updates: @Sendable (Database) throws -> T) async throws -> T
    {
        let plan = _writerAccessPlan()
        guard let readers = plan.readers else {
            return try await writeWithoutTransaction(updates)
        }
        try plan.openCheck?()
        // Waits, with the task suspended, until no read runs; new reads wait
        // until the barrier ends. The writer is taken afterwards, as in the
        // synchronous variant.
        let endBarrier = try await readers.acquireBarrier()
        defer { endBarrier() }
        return try await plan.writer.execute { db in
            try db.checkingTransactionLeftOpen { try updates(db) }
        }
    }

    /// See ``DatabaseWriter/asyncBarrierWriteWithoutTransaction(_:)``.
    public func asyncBarrierWriteWithoutTransaction(_ updates: @escaping @Sendable (Result<Database, Error>) -> Void) {
        let plan = _writerAccessPlan()
        guard let readers = plan.readers else {
            plan.writer.async { db in updates(.success(db)) }
            return
        }
        // Waiting for the readers may block: not on the caller's thread.
        DispatchQueue.global(qos: plan.qos).async {
            readers.barrier {
                plan.writer.sync { db in updates(.success(db)) }
            }
        }
    }

    /// Runs `updates`, which does not throw, outside of any transaction:
    /// see ``DatabaseWriter/writeWithoutTransaction(_:)-4emiy``.
    ///
    /// As GRDB's `rethrows` method, it needs no `try` when `updates` does
    /// not throw, through a generic or existential writer too.
    ///
    /// - Precondition: `updates` does not leave a transaction open (it can
    ///   only do so by ignoring errors, with `try?`).
    public func writeWithoutTransaction<T>(_ updates: (Database) -> T) -> T {
        do {
            return try writeWithoutTransaction { db throws -> T in updates(db) }
        } catch {
            // Only a transaction left open throws here.
            stopProgram("\(error)")
        }
    }

    /// See ``DatabaseWriter/asyncWriteWithoutTransaction(_:)``.
    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        _writerAccessPlan().writer.async { db in updates(db) }
    }

    /// See ``DatabaseWriter/unsafeReentrantWrite(_:)``.
    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try _writerAccessPlan().writer.reentrantSync { db in try updates(db) }
    }
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
