import Dispatch
import Foundation

// The one access primitive of readers and writers. Each reader type (queue,
// pool, snapshot, snapshot pool) describes its accesses once, with a plan:
// where the connection comes from, what checks precede the access, and what
// surrounds the closure (a read-only transaction, the snapshot's
// transaction…). The access methods of `DatabaseReader` and
// `DatabaseWriter` (synchronous, async, and completion-based) are written
// once, on top of the plans, in DatabaseReader.swift and DatabaseWriter.swift.

/// The kinds of reads of ``DatabaseReader``.
public enum _ReaderAccessKind: Sendable {
    /// ``DatabaseReader/read(_:)-7go1k`` and its variants: isolated and
    /// read-only.
    case read
    /// ``DatabaseReader/unsafeRead(_:)-6s6d6`` and its variants.
    case unsafeRead
}

/// What surrounds the closure of a read: a read-only transaction, the
/// transaction of a snapshot… A generic method rather than a closure, so
/// that the result of the closure goes through without a box.
protocol ReaderAccessWrapper: Sendable {
    /// Runs `value` with the connection, and returns its result.
    func run<T>(_ db: Database, _ value: (Database) throws -> T) throws -> T
}

/// Runs the closure of a read as it is.
struct PlainReaderAccess: ReaderAccessWrapper {
    func run<T>(_ db: Database, _ value: (Database) throws -> T) throws -> T {
        try value(db)
    }
}

/// How a reader runs its reads: Cairn's access primitive, not for use
/// outside of Cairn. A class, made once per reader and kind of read: an
/// access retains it once.
public final class _ReaderAccessPlan: Sendable {
    /// Where the connection of a read comes from.
    enum Source: Sendable {
        /// One serialized connection (queues, snapshots).
        case connection(SerializedDatabase)
        /// A pool of reader connections, each granted to one read at a time.
        case pool(ReaderPool<SerializedDatabase>)
    }

    let source: Source

    /// The name of the reader in the message of a reentrant synchronous
    /// read, which would wait for itself ("database pool"); nil when the
    /// connection checks it (see `SerializedDatabase.sync(_:)`).
    let reentrancyCheck: (@Sendable (_ method: String) -> Void)?

    /// Throws when the reader is closed; nil when the connection throws by
    /// itself.
    let openCheck: (@Sendable () throws -> Void)?

    /// Runs the closure of the read with the connection: in a read-only
    /// transaction, in the snapshot's transaction…
    let around: any ReaderAccessWrapper

    /// The connections on which the current thread may run an access to
    /// this reader, for ``DatabaseReader/unsafeReentrantRead(_:)``.
    let reentrantConnections: @Sendable () -> [SerializedDatabase]

    /// Runs the closure of a reentrant read, inside an access to one of
    /// the ``reentrantConnections`` (a snapshot checks that its transaction
    /// is still open).
    let reentrantAround: any ReaderAccessWrapper

    /// The quality of service of the global queue on which
    /// completion-based reads of a pool wait for a reader.
    let qos: DispatchQoS.QoSClass

    init(
        source: Source,
        reentrancyCheck: (@Sendable (String) -> Void)? = nil,
        openCheck: (@Sendable () throws -> Void)? = nil,
        around: any ReaderAccessWrapper = PlainReaderAccess(),
        reentrantConnections: @escaping @Sendable () -> [SerializedDatabase],
        reentrantAround: any ReaderAccessWrapper = PlainReaderAccess(),
        qos: DispatchQoS.QoSClass = .default)
    {
        self.source = source
        self.reentrancyCheck = reentrancyCheck
        self.openCheck = openCheck
        self.around = around
        self.reentrantConnections = reentrantConnections
        self.reentrantAround = reentrantAround
        self.qos = qos
    }

    /// Runs `value` around the plan's work, and returns its result.
    func run<T>(_ db: Database, _ value: (Database) throws -> T) throws -> T {
        try around.run(db, value)
    }

    /// A synchronous read.
    func sync<T>(method: String, _ value: (Database) throws -> T) throws -> T {
        reentrancyCheck?(method)
        try openCheck?()
        switch source {
        case .connection(let connection):
            return try connection.sync { db in try run(db, value) }
        case .pool(let pool):
            let reader = try pool.get()
            defer { pool.release(reader) }
            return try reader.syncGranted { db in try run(db, value) }
        }
    }

    /// An asynchronous read.
    func execute<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try openCheck?()
        switch source {
        case .connection(let connection):
            return try await connection.execute { db in try run(db, value) }
        case .pool(let pool):
            let reader = try await pool.get()
            defer { pool.release(reader) }
            return try await reader.execute { db in try run(db, value) }
        }
    }

    /// A completion-based read: `value` runs later, with the connection or
    /// the error that prevented the read.
    func async(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        let around = around
        let body: @Sendable (Database) -> Void = { db in
            do {
                try around.run(db) { db in value(.success(db)) }
            } catch {
                value(.failure(error))
            }
        }
        switch source {
        case .connection(let connection):
            connection.async(body)
        case .pool(let pool):
            // Waiting for a reader may block: not on the caller's thread.
            let openCheck = openCheck
            DispatchQueue.global(qos: qos).async {
                do {
                    try openCheck?()
                    let reader = try pool.get()
                    reader.async(then: { pool.release(reader) }, body)
                } catch {
                    value(.failure(error))
                }
            }
        }
    }
}

/// How a writer runs its writes: Cairn's access primitive, not for use
/// outside of Cairn. A class, made once per writer.
public final class _WriterAccessPlan: Sendable {
    /// The writer connection.
    let writer: SerializedDatabase

    /// The readers that a barrier write waits for, and keeps from starting
    /// until it is done; nil when there are none (a queue: its reads and
    /// writes are serialized anyway).
    let readers: ReaderPool<SerializedDatabase>?

    /// Stops a synchronous barrier write that would wait for itself: one
    /// that starts from a read of the pool, whose end it waits for. Plain
    /// writes need no such check: the writer connection stops a write from
    /// inside one of its own accesses (see `SerializedDatabase.sync(_:)`),
    /// and a write from a pool's read waits for nothing that waits for it.
    let barrierReentrancyCheck: (@Sendable (_ method: String) -> Void)?

    /// Throws when the writer is closed; nil when the connection throws by
    /// itself.
    let openCheck: (@Sendable () throws -> Void)?

    /// The quality of service of the global queue on which completion-based
    /// barrier writes wait for the readers.
    let qos: DispatchQoS.QoSClass

    init(
        writer: SerializedDatabase,
        readers: ReaderPool<SerializedDatabase>? = nil,
        barrierReentrancyCheck: (@Sendable (String) -> Void)? = nil,
        openCheck: (@Sendable () throws -> Void)? = nil,
        qos: DispatchQoS.QoSClass = .default)
    {
        self.writer = writer
        self.readers = readers
        self.barrierReentrancyCheck = barrierReentrancyCheck
        self.openCheck = openCheck
        self.qos = qos
    }
}
