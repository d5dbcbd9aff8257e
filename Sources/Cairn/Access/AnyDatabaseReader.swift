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
public final class AnyDatabaseReader: DatabaseReader {
    /// The wrapped reader.
    let base: any DatabaseReader

    /// Wraps a reader.
    ///
    /// - Parameter base: The reader that does the work.
    public init(_ base: some DatabaseReader) {
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

    /// See ``DatabaseReader/_readerAccessPlan(_:)``: the plan of the wrapped
    /// reader.
    public func _readerAccessPlan(_ kind: _ReaderAccessKind) -> _ReaderAccessPlan {
        base._readerAccessPlan(kind)
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
public final class AnyDatabaseWriter: DatabaseWriter {
    /// The wrapped writer.
    let base: any DatabaseWriter

    /// Wraps a writer.
    ///
    /// - Parameter base: The writer that does the work.
    public init(_ base: some DatabaseWriter) {
        self.base = (base as? AnyDatabaseWriter)?.base ?? base
    }

    /// See ``DatabaseReader/configuration``.
    public var configuration: Configuration { base.configuration }

    /// See ``DatabaseReader/path``.
    public var path: String { base.path }

    /// See ``DatabaseReader/close()``.
    public func close() throws { try base.close() }

    /// See ``DatabaseReader/interrupt()``.
    public func interrupt() { base.interrupt() }

    /// See ``DatabaseReader/_readerAccessPlan(_:)``: the plan of the wrapped
    /// writer.
    public func _readerAccessPlan(_ kind: _ReaderAccessKind) -> _ReaderAccessPlan {
        base._readerAccessPlan(kind)
    }

    /// See ``DatabaseWriter/_writerAccessPlan()``: the plan of the wrapped
    /// writer.
    public func _writerAccessPlan() -> _WriterAccessPlan {
        base._writerAccessPlan()
    }

    /// See ``DatabaseWriter/spawnConcurrentRead(_:)``.
    public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        base.spawnConcurrentRead(value)
    }
}

/// The reader that does the work behind type-erased wrappers: observations
/// look at its kind (a pool reads concurrently; a writer is observed for
/// changes; a snapshot never changes).
func unwrappedReader(_ reader: any DatabaseReader) -> any DatabaseReader {
    if let reader = reader as? AnyDatabaseReader { return reader.base }
    if let writer = reader as? AnyDatabaseWriter { return writer.base }
    return reader
}
