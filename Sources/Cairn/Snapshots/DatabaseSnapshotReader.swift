/// A reader of a database state that never changes: ``DatabaseSnapshot``
/// and ``DatabaseSnapshotPool``.
///
/// Reads of a frozen state are safe in every way: the "unsafe" reads of
/// ``DatabaseReader`` are plain reads here, and reads may nest
/// (``reentrantRead(_:)``).
///
/// ```swift
/// func playerCount(in snapshot: some DatabaseSnapshotReader) throws -> Int {
///     try snapshot.reentrantRead { db in try Player.fetchCount(db) }
/// }
/// ```
public protocol DatabaseSnapshotReader: DatabaseReader { }

extension DatabaseSnapshotReader {
    /// Reads the snapshot. A snapshot never changes: this read is as safe
    /// as ``DatabaseReader/read(_:)-7go1k``.
    ///
    /// - Throws: The error of `value`, or a ``DatabaseError``.
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try _readerAccessPlan(.unsafeRead).sync(method: "unsafeRead", value)
    }

    /// Reads the snapshot, in async code. A snapshot never changes: this
    /// read is as safe as ``DatabaseReader/read(_:)-97wa5``.
    ///
    /// - Throws: The error of `value`, a ``DatabaseError``, or
    ///   `CancellationError` when the task is cancelled.
    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await _readerAccessPlan(.unsafeRead).execute(value)
    }

    /// Reads the snapshot asynchronously. A snapshot never changes: this
    /// read is as safe as ``DatabaseReader/asyncRead(_:)``.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        _readerAccessPlan(.unsafeRead).async { [self] result in
            withExtendedLifetime(self) { value(result) }
        }
    }

    /// Reads the snapshot, from inside one of its reads or not: inside a
    /// read, `value` receives the connection of that read. Always safe,
    /// since a snapshot never changes.
    ///
    /// - Throws: The error of `value`, or a ``DatabaseError``.
    public func reentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try unsafeReentrantRead(value)
    }
}

extension DatabaseSnapshot: DatabaseSnapshotReader { }
extension DatabaseSnapshotPool: DatabaseSnapshotReader { }
