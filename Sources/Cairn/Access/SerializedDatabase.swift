import Dispatch
import Foundation

/// A connection whose accesses run one at a time.
///
/// This is the building block of ``DatabaseQueue`` (and of each connection of
/// a pool): the connection is used only inside the closures it runs, one at
/// a time. Its dispatch queue serializes them; the readers of pools are the
/// exception, whose synchronous reads run on the thread of the user that the
/// pool granted them to (see ``syncGranted(_:)``).
final class SerializedDatabase: @unchecked Sendable {
    /// The connection. Only used inside an access: on `queue`, or on the
    /// thread of a granted access.
    private let db: Database

    /// The queue that runs the accesses.
    let queue: DispatchQueue

    /// The group of connections this one belongs to.
    let accessGroup: AccessGroup

    /// The configuration of the connection.
    let configuration: Configuration

    /// The path of the database.
    let path: String

    /// The handle that ``interrupt()`` uses from any thread.
    private let interruptHandle: Locked<SQLiteConnection?>

    /// The `SerialQueueTaskExecutor` of the queue, where task executors
    /// exist.
    private let taskExecutorStorage: AnyObject?

    /// Suspends the connection when ``Database/suspendNotification`` is
    /// posted, if the configuration asks for it.
    private let suspensionObserver: SuspensionObserver?

    /// Opens a connection.
    ///
    /// - Parameters:
    ///   - path: The database path or URI.
    ///   - configuration: The configuration.
    ///   - defaultLabel: The label used when the configuration has none.
    ///   - purpose: A suffix of the label, such as "writer".
    ///   - openFlags: Extra `SQLITE_OPEN_*` flags.
    ///   - accessGroup: The group of connections of the connection: a new
    ///     one by default.
    /// - Throws: The error of the opening.
    init(
        path: String,
        configuration: Configuration,
        defaultLabel: String,
        purpose: String? = nil,
        openFlags: CInt = 0,
        accessGroup: AccessGroup = AccessGroup()) throws
    {
        var label = configuration.label ?? defaultLabel
        if let purpose { label += ".\(purpose)" }
        self.path = path
        self.configuration = configuration
        db = try Database(path: path, description: label, configuration: configuration, extraOpenFlags: openFlags)
        // The readers of pools and snapshots are query-only: the other
        // connections write, and target the write target queue first.
        queue = configuration.makeConnectionQueue(label: label, writes: !configuration.isQueryOnly)
        suspensionObserver = configuration.observesSuspensionNotifications ? db.makeSuspensionObserver() : nil
        self.accessGroup = accessGroup
        interruptHandle = db.interruptHandle
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
            taskExecutorStorage = SerialQueueTaskExecutor(queue: queue)
        } else {
            taskExecutorStorage = nil
        }
    }

    /// Whether the current thread runs an access to this connection.
    var isCurrentAccess: Bool {
        db.isInCurrentAccessChain
    }

    /// Runs `block` on the queue and waits for its result.
    ///
    /// - Precondition: the current thread is not running an access to this
    ///   connection already (that would wait for itself forever).
    func sync<T>(_ block: (Database) throws -> T) rethrows -> T {
        let outer = preconditionNotReentrant()
        return try queue.sync {
            // The outer accesses stay alive: their thread waits here.
            try db.withAccess(group: accessGroup, enclosing: outer) { try block(db) }
        }
    }

    /// Runs `block` on the current thread, without the queue, and returns
    /// its result.
    ///
    /// Only for a connection that the caller uses alone, such as the reader
    /// that a pool granted to it (see `ReaderPool.get()`): the grant, not the
    /// queue, keeps other accesses out, and the pool's lock orders this
    /// access after the previous ones. A pool's reader connection takes
    /// this path for its synchronous reads, which saves the dispatch of
    /// ``sync(_:)``; its asynchronous accesses still use the queue.
    ///
    /// - Precondition: the current thread is not running an access to this
    ///   connection already.
    func syncGranted<T>(_ block: (Database) throws -> T) rethrows -> T {
        let outer = preconditionNotReentrant()
        return try db.withAccess(group: accessGroup, enclosing: outer) { try block(db) }
    }

    /// Stops when the current thread runs an access to this connection, and
    /// returns the innermost access of the current thread.
    private func preconditionNotReentrant() -> DatabaseAccess? {
        let outer = DatabaseAccess.current
        if db.isInCurrentAccessChain {
            stopReentrantAccess(nil, of: "connection")
        }
        return outer
    }

    /// Runs `block` at once if the current thread is running an access to
    /// this connection, and like ``sync(_:)`` otherwise.
    func reentrantSync<T>(_ block: (Database) throws -> T) rethrows -> T {
        if db.isInCurrentAccessChain {
            return try db.withAccess(group: accessGroup) { try block(db) }
        }
        return try sync(block)
    }

    /// Runs `block` on the queue, later, then `completion`, if any, once the
    /// access has ended (its statements reset, its scope closed).
    ///
    /// A pool gives its reader back in `completion`: the next user of the
    /// reader, which may run on another thread without the queue (see
    /// ``syncGranted(_:)``), never overlaps the end of this access.
    func async(then completion: (@Sendable () -> Void)? = nil, _ block: @escaping @Sendable (Database) -> Void) {
        queue.async {
            self.db.withAccess(group: self.accessGroup, enclosing: nil) { block(self.db) }
            completion?()
        }
    }

    /// Runs `block` on the queue, and suspends the current task, without
    /// blocking a thread, until it is done.
    ///
    /// `block` runs in the current task, so it sees the task's task-local
    /// values and its cancellation (`Task.isCancelled`): the task moves to
    /// the connection's queue (a task executor preference) for the time of
    /// the access. On Apple systems older than macOS 15 / iOS 18, which
    /// have no task executors, `block` runs on the queue outside of the task.
    ///
    /// When the task is cancelled before `block` starts, `block` does not
    /// run and the method throws `CancellationError`. When it is cancelled
    /// while `block` runs, the running statement is interrupted, the
    /// statements that start afterwards throw (but rollbacks, and the commit
    /// of a transaction that did not write: see
    /// `Database.checkCancellation(for:)`), and the method throws
    /// `CancellationError` when one of them failed.
    ///
    /// `@concurrent`: the method never runs on the caller's actor, so the
    /// closure given to `withTaskExecutorPreference` is nonisolated, and
    /// runs on the preferred executor, the queue. (A closure isolated to an
    /// actor would run on the actor, beside the accesses of the queue.)
    @concurrent
    func execute<T: Sendable>(_ block: @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        let state = Locked(AsyncAccessState.pending)
        return try await withoutActuallyEscaping(block) { block in
            // The dispatched closure must release `block` before the
            // continuation resumes: withoutActuallyEscaping checks, when its
            // body returns, that nothing retains the closure any longer.
            let blockBox = UncheckedSendableBox(block)
            return try await withTaskCancellationHandler {
                if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
                    return try await withTaskExecutorPreference(taskExecutor) {
                        try self.runAsyncAccessInTask(blockBox, state: state)
                    }
                } else {
                    return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                        queue.async {
                            continuation.resume(with: self.runAsyncAccess(blockBox, state: state))
                        }
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

    /// The executor that runs the jobs of async accesses on the queue.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    private var taskExecutor: SerialQueueTaskExecutor {
        // Created in init when available (a stored property cannot have a
        // newer availability than its type).
        taskExecutorStorage as! SerialQueueTaskExecutor
    }

    /// Runs the closure of an async access in the current task, which runs
    /// on the queue (see ``execute(_:)``).
    ///
    /// The task runs on the queue because it prefers the queue's executor,
    /// and the closure that calls this method is nonisolated (``execute(_:)``
    /// is `@concurrent`): the language guarantees it, and libdispatch checks
    /// it (`dispatch_assert_queue`, kept in optimized builds), since an
    /// access that ran elsewhere would use the connection beside the
    /// accesses of the queue.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    private func runAsyncAccessInTask<T>(
        _ blockBox: UncheckedSendableBox<@Sendable (Database) throws -> T>,
        state: Locked<AsyncAccessState>) throws -> T
    {
        dispatchPrecondition(condition: .onQueue(queue))
        return try runAsyncAccess(blockBox, state: state).get()
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
        let result = Result {
            // The statements of the access check the cancellation.
            try db.withAccess(group: accessGroup, cancellation: {
                state.withLock { state in
                    if case .cancelled = state { return true }
                    return false
                }
            }) {
                try block(db)
            }
        }
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

/// A task executor that runs its jobs on a serial dispatch queue.
///
/// An async access prefers it for the time of the access, so that its
/// synchronous closure runs on the connection's queue inside the calling
/// task (see `SerializedDatabase.execute(_:)`).
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
private final class SerialQueueTaskExecutor: TaskExecutor {
    let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async {
            job.runSynchronously(on: executor)
        }
    }
}

/// The state of an async access, shared with its cancellation handler.
private enum AsyncAccessState {
    case pending, running, cancelled, finished
}
