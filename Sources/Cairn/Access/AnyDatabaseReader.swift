// Type-erased readers and writers.

/// A type-erased ``DatabaseReader``: any queue, pool or snapshot, behind one
/// concrete type.
///
/// ```swift
/// let reader = AnyDatabaseReader(dbPool)
/// let count = try reader.read { db in try Player.fetchCount(db) }
/// ```
///
/// Every method forwards to the wrapped reader, and observations started
/// in the wrapper behave as in the wrapped reader.
///
/// `@unchecked Sendable`: the class is not final, so that
/// ``AnyDatabaseWriter`` inherits the forwarding of reads, but it holds
/// nothing but an immutable `Sendable` reader, and cannot be subclassed
/// outside of Cairn.
public class AnyDatabaseReader: DatabaseReader, @unchecked Sendable {
    /// The wrapped reader.
    let base: any DatabaseReader

    /// Wraps a reader.
    ///
    /// - Parameter base: The reader that does the work.
    public convenience init(_ base: some DatabaseReader) {
        self.init(unwrapping: base)
    }

    init(unwrapping base: any DatabaseReader) {
        self.base = unwrappedReader(base)
    }

    /// See ``DatabaseReader/configuration``.
    public var configuration: Configuration { base.configuration }

    /// See ``DatabaseReader/path``.
    public var path: String { base.path }

    /// See ``DatabaseReader/close()``.
    public func close() throws { try base.close() }

    /// See ``DatabaseReader/interrupt()``.
    public func interrupt() { base.interrupt() }

    /// See ``DatabaseReader/read(_:)-7go1k``.
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try base.read(value)
    }

    /// See ``DatabaseReader/read(_:)-97wa5``.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await base.read(value)
    }

    /// See ``DatabaseReader/asyncRead(_:)``.
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        base.asyncRead(value)
    }

    /// See ``DatabaseReader/unsafeRead(_:)-6s6d6``.
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try base.unsafeRead(value)
    }

    /// See ``DatabaseReader/unsafeRead(_:)-8dxl1``.
    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await base.unsafeRead(value)
    }

    /// See ``DatabaseReader/asyncUnsafeRead(_:)``.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        base.asyncUnsafeRead(value)
    }

    /// See ``DatabaseReader/unsafeReentrantRead(_:)``.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try base.unsafeReentrantRead(value)
    }
}

/// A type-erased ``DatabaseWriter``: any queue or pool, behind one concrete
/// type.
///
/// ```swift
/// let writer = AnyDatabaseWriter(dbQueue)
/// try writer.write { db in try Player(name: "Arthur").insert(db) }
/// ```
///
/// Every method forwards to the wrapped writer, and observations started
/// in the wrapper behave as in the wrapped writer.
///
/// `@unchecked Sendable` for the reason of ``AnyDatabaseReader``: it adds
/// nothing but an immutable `Sendable` writer (`TypeErasedWritersTests`,
/// which the ThreadSanitizer lane of CI runs).
public final class AnyDatabaseWriter: AnyDatabaseReader, DatabaseWriter, @unchecked Sendable {
    /// The wrapped writer.
    let writerBase: any DatabaseWriter

    /// Wraps a writer.
    ///
    /// - Parameter base: The writer that does the work.
    public init(_ base: some DatabaseWriter) {
        let writer = (base as? AnyDatabaseWriter)?.writerBase ?? base
        writerBase = writer
        super.init(unwrapping: writer)
    }

    /// See ``DatabaseWriter/writeWithoutTransaction(_:)-4emiy``.
    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writerBase.writeWithoutTransaction(updates)
    }

    /// See ``DatabaseWriter/writeWithoutTransaction(_:)-59wts``.
    public func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await writerBase.writeWithoutTransaction(updates)
    }

    /// See ``DatabaseWriter/barrierWriteWithoutTransaction(_:)-92uc3``.
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writerBase.barrierWriteWithoutTransaction(updates)
    }

    /// See ``DatabaseWriter/barrierWriteWithoutTransaction(_:)-19ck5``.
    public func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await writerBase.barrierWriteWithoutTransaction(updates)
    }

    /// See ``DatabaseWriter/asyncBarrierWriteWithoutTransaction(_:)``.
    public func asyncBarrierWriteWithoutTransaction(_ updates: @escaping @Sendable (Result<Database, Error>) -> Void) {
        writerBase.asyncBarrierWriteWithoutTransaction(updates)
    }

    /// See ``DatabaseWriter/asyncWriteWithoutTransaction(_:)``.
    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        writerBase.asyncWriteWithoutTransaction(updates)
    }

    /// See ``DatabaseWriter/unsafeReentrantWrite(_:)``.
    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writerBase.unsafeReentrantWrite(updates)
    }

    /// See ``DatabaseWriter/spawnConcurrentRead(_:)``.
    public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        writerBase.spawnConcurrentRead(value)
    }
}

/// The reader that does the work behind type-erased wrappers: observations
/// look at its kind (a pool reads concurrently; a writer is observed for
/// changes; a snapshot never changes).
func unwrappedReader(_ reader: any DatabaseReader) -> any DatabaseReader {
    (reader as? AnyDatabaseReader)?.base ?? reader
}
