import Dispatch
import Foundation

/// A connection whose accesses are serialized on one dispatch queue.
///
/// This is the building block of ``DatabaseQueue`` (and of each connection of
/// a pool): the connection is used only inside the closures it runs, one at
/// a time.
final class SerializedDatabase: @unchecked Sendable {
    /// The connection. Only used on `queue`, inside an access.
    private let db: Database

    /// The queue that runs the accesses.
    let queue: DispatchQueue

    /// The configuration of the connection.
    let configuration: Configuration

    /// The path of the database.
    let path: String

    /// The handle that ``interrupt()`` uses from any thread.
    private let interruptHandle: Locked<SQLiteConnection?>

    /// Opens a connection.
    ///
    /// - Parameters:
    ///   - path: The database path or URI.
    ///   - configuration: The configuration.
    ///   - defaultLabel: The label used when the configuration has none.
    ///   - purpose: A suffix of the label, such as "writer".
    ///   - openFlags: Extra `SQLITE_OPEN_*` flags.
    /// - Throws: The error of the opening.
    init(
        path: String,
        configuration: Configuration,
        defaultLabel: String,
        purpose: String? = nil,
        openFlags: CInt = 0) throws
    {
        var label = configuration.label ?? defaultLabel
        if let purpose { label += ".\(purpose)" }
        self.path = path
        self.configuration = configuration
        db = try Database(path: path, description: label, configuration: configuration, extraOpenFlags: openFlags)
        queue = SchedulingWatchdog.makeSerializedQueue(allowingDatabase: db, label: label, qos: configuration.qos)
        interruptHandle = db.interruptHandle
    }

    /// Whether the current thread runs an access to this connection.
    var isCurrentAccess: Bool {
        SchedulingWatchdog.current?.allows(db) == true
    }

    /// Runs `block` on the queue and waits for its result.
    ///
    /// - Precondition: the current thread is not running an access to this
    ///   connection already (that would wait for itself forever).
    func sync<T>(_ block: (Database) throws -> T) rethrows -> T {
        let current = SchedulingWatchdog.current
        if let current, current.allows(db) {
            preconditionFailure(
                "Database methods are not reentrant: this access would wait for the access that calls it. "
                + "Use the `db` argument of the current access instead, or unsafeReentrantRead / unsafeReentrantWrite.")
        }
        return try queue.sync {
            try SchedulingWatchdog.current?.inheriting(current) {
                try db.withAccess { try block(db) }
            } ?? db.withAccess { try block(db) }
        }
    }

    /// Runs `block` at once if the current thread is running an access to
    /// this connection, and like ``sync(_:)`` otherwise.
    func reentrantSync<T>(_ block: (Database) throws -> T) rethrows -> T {
        if let current = SchedulingWatchdog.current, current.allows(db) {
            return try db.withAccess { try block(db) }
        }
        return try sync(block)
    }

    /// Runs `block` on the queue, later.
    func async(_ block: @escaping @Sendable (Database) -> Void) {
        queue.async {
            self.db.withAccess { block(self.db) }
        }
    }

    /// Runs `block` on the queue, and suspends the current task, without
    /// blocking a thread, until it is done.
    ///
    /// When the task is cancelled before `block` starts, `block` does not
    /// run and the method throws `CancellationError`. When it is cancelled
    /// while `block` runs, the running statement is interrupted, and the
    /// method throws `CancellationError`.
    func execute<T: Sendable>(_ block: @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        let state = Locked(AsyncAccessState.pending)
        return try await withoutActuallyEscaping(block) { block in
            // The dispatched closure must release `block` before the
            // continuation resumes: withoutActuallyEscaping checks, when its
            // body returns, that nothing retains the closure any longer.
            let blockBox = UncheckedSendableBox(block)
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                    queue.async {
                        continuation.resume(with: self.runAsyncAccess(blockBox, state: state))
                    }
                }
            } onCancel: {
                state.withLock { state in
                    switch state {
                    case .pending:
                        state = .cancelled
                    case .running:
                        state = .cancelled
                        // The connection is open while the block runs.
                        self.interrupt()
                    case .cancelled, .finished:
                        break
                    }
                }
            }
        }
    }

    /// Runs the closure of an async access, unless it was cancelled. The
    /// closure is released when this method returns.
    private func runAsyncAccess<T>(
        _ blockBox: UncheckedSendableBox<@Sendable (Database) throws -> T>,
        state: Locked<AsyncAccessState>) -> Result<T, Error>
    {
        guard let block = blockBox.take() else { return .failure(CancellationError()) }
        let shouldRun = state.withLock { state -> Bool in
            guard case .pending = state else { return false }
            state = .running
            return true
        }
        guard shouldRun else { return .failure(CancellationError()) }
        let result = Result { try db.withAccess { try block(db) } }
        let wasCancelled = state.withLock { state -> Bool in
            defer { state = .finished }
            if case .cancelled = state { return true }
            return false
        }
        if wasCancelled, case .failure(let error as DatabaseError) = result, error.resultCode == .SQLITE_INTERRUPT {
            return .failure(CancellationError())
        }
        return result
    }

    /// Interrupts the running statement, if any.
    ///
    /// The corresponding C function is `sqlite3_interrupt`, which may be
    /// called from any thread.
    func interrupt() {
        interruptHandle.withLock { connection in
            if let connection { sqlite3_interrupt(connection) }
        }
    }
}

/// The state of an async access, shared with its cancellation handler.
private enum AsyncAccessState {
    case pending, running, cancelled, finished
}
