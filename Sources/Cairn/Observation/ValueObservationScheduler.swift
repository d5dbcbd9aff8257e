import Dispatch
import Foundation

/// Where and when a ``ValueObservation`` delivers its values.
///
/// - ``ValueObservationMainActorScheduler/mainActor``: asynchronously, on
///   the main actor (the default of the main-actor
///   `ValueObservation.start(in:scheduling:onError:onChange:)`).
/// - ``ValueObservationScheduler/immediate``: the initial value
///   synchronously, when the observation starts from the main actor; the
///   other values asynchronously on the main actor.
/// - ``ValueObservationScheduler/async(onQueue:)``: asynchronously, on a
///   serial dispatch queue.
/// - ``ValueObservationScheduler/task``: asynchronously, in a task of the
///   observation (what the `values(in:)` async sequence uses).
///
/// Schedulers that deliver on the main actor also adopt
/// ``ValueObservationMainActorScheduler``: with them, the closures of
/// `start` may be main-actor isolated.
public protocol ValueObservationScheduler: Sendable {
    /// Whether the initial value is delivered synchronously, when the
    /// observation starts.
    func immediateInitialValue() -> Bool

    /// Runs `action` where values are delivered.
    func schedule(_ action: @escaping @Sendable () -> Void)
}

/// Delivers values asynchronously on a dispatch queue.
public struct AsyncValueObservationScheduler: ValueObservationScheduler {
    let queue: DispatchQueue

    /// Creates a scheduler; use a serial queue, so that values keep their
    /// order.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// False: all values are delivered asynchronously.
    public func immediateInitialValue() -> Bool { false }

    /// Runs `action` asynchronously on the queue.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        queue.async(execute: action)
    }
}

/// Delivers the initial value synchronously, and the other values
/// asynchronously on the main actor.
///
/// An observation with this scheduler must start from the main actor (the
/// main thread): it stops the program otherwise.
public struct ImmediateValueObservationScheduler: ValueObservationMainActorScheduler {
    /// Creates the scheduler.
    public init() { }

    /// True: the initial value is delivered before `start` returns.
    ///
    /// Stops the program when it is not called from the main thread: an
    /// observation with the `.immediate` scheduling must start from the
    /// main actor.
    public func immediateInitialValue() -> Bool {
        guard isOnMainQueue() else {
            stopProgram("ValueObservation with the .immediate scheduling must start from the main actor "
                + "(the main thread); use .async(onQueue:) or .task elsewhere.")
        }
        return true
    }

    /// Runs `action` asynchronously on the main actor, after the actions
    /// scheduled before.
    public func scheduleOnMainActor(_ action: @escaping @MainActor () -> Void) {
        DispatchQueue.main.async { action() }
    }
}

/// A scheduler that delivers values on the main actor: an observation
/// started with it, from the main actor, may give main-actor isolated
/// closures to `ValueObservation.start(in:scheduling:onError:onChange:)`.
///
/// ```swift
/// @MainActor @Observable final class PlayerList {
///     var players: [Player] = []
///     private var cancellable: AnyDatabaseCancellable?
///
///     func observe(_ reader: some DatabaseReader) {
///         cancellable = ValueObservation
///             .tracking { db in try Player.fetchAll(db) }
///             .start(in: reader, scheduling: .immediate) { error in
///                 print(error)
///             } onChange: { [unowned self] players in
///                 self.players = players
///             }
///     }
/// }
/// ```
///
/// Cairn's main-actor schedulers are ``ValueObservationMainActorScheduler/mainActor``
/// and ``ValueObservationMainActorScheduler/immediate``.
public protocol ValueObservationMainActorScheduler: ValueObservationScheduler {
    /// Runs `action` on the main actor. Actions run in the order they are
    /// scheduled.
    func scheduleOnMainActor(_ action: @escaping @MainActor () -> Void)
}

extension ValueObservationMainActorScheduler {
    /// Runs `action` on the main actor, with
    /// ``scheduleOnMainActor(_:)``.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        scheduleOnMainActor(action)
    }
}

/// Delivers all values asynchronously on the main actor, the initial value
/// included.
///
/// The default scheduler of the main-actor
/// `ValueObservation.start(in:scheduling:onError:onChange:)`.
public final class DelayedMainActorValueObservationScheduler: ValueObservationMainActorScheduler {
    init() { }

    /// False: all values are delivered asynchronously.
    public func immediateInitialValue() -> Bool { false }

    /// Runs `action` asynchronously on the main actor, after the actions
    /// scheduled before.
    public func scheduleOnMainActor(_ action: @escaping @MainActor () -> Void) {
        DispatchQueue.main.async { action() }
    }
}

/// Delivers values asynchronously, one after the other, in a task that the
/// scheduler starts: the scheduler of the `values(in:)` async sequences.
///
/// Each scheduler has its own task, which ends when the scheduler is
/// deallocated (when its observation ends).
public final class TaskValueObservationScheduler: ValueObservationScheduler {
    private let continuation: AsyncStream<@Sendable () -> Void>.Continuation

    init(priority: TaskPriority?) {
        let (actions, continuation) = AsyncStream<@Sendable () -> Void>.makeStream()
        self.continuation = continuation
        Task(priority: priority) {
            for await action in actions {
                action()
            }
        }
    }

    deinit {
        continuation.finish()
    }

    /// False: all values are delivered asynchronously.
    public func immediateInitialValue() -> Bool { false }

    /// Runs `action` in the task of the scheduler, after the actions
    /// scheduled before.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        continuation.yield(action)
    }
}

/// Whether the current code runs on the main thread, or on the main queue.
///
/// On Linux, a program that calls `dispatchMain()` (an async `main`, for
/// instance) drains the main queue from another thread: the main queue is
/// recognized by a queue-specific value.
func isOnMainQueue() -> Bool {
    if Thread.isMainThread { return true }
    _ = mainQueueMarker
    return DispatchQueue.getSpecific(key: mainQueueKey) != nil
}

private let mainQueueKey = DispatchSpecificKey<Bool>()
private let mainQueueMarker: Void = DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)

extension ValueObservationScheduler where Self == AsyncValueObservationScheduler {
    /// Delivers values asynchronously on a serial dispatch queue.
    ///
    /// ```swift
    /// observation.start(in: dbQueue, scheduling: .async(onQueue: myQueue), onError: ..., onChange: ...)
    /// ```
    public static func async(onQueue queue: DispatchQueue) -> AsyncValueObservationScheduler {
        AsyncValueObservationScheduler(queue: queue)
    }
}

extension ValueObservationScheduler where Self == TaskValueObservationScheduler {
    /// Delivers values asynchronously, in a task of the observation: each
    /// access to this property creates a scheduler with its own task.
    ///
    /// ```swift
    /// for try await players in observation.values(in: dbQueue, scheduling: .task) { ... }
    /// ```
    public static var task: TaskValueObservationScheduler {
        TaskValueObservationScheduler(priority: nil)
    }

    /// Delivers values asynchronously, in a task of the given priority.
    ///
    /// - Parameter priority: The priority of the task that delivers the
    ///   values.
    public static func task(priority: TaskPriority) -> TaskValueObservationScheduler {
        TaskValueObservationScheduler(priority: priority)
    }
}

extension ValueObservationScheduler where Self == ImmediateValueObservationScheduler {
    /// Delivers the initial value synchronously, before `start` returns, and
    /// the other values asynchronously on the main actor.
    ///
    /// The observation must start from the main actor.
    public static var immediate: ImmediateValueObservationScheduler {
        ImmediateValueObservationScheduler()
    }
}

extension ValueObservationMainActorScheduler where Self == ImmediateValueObservationScheduler {
    /// Delivers the initial value synchronously, before `start` returns, and
    /// the other values asynchronously on the main actor.
    ///
    /// ```swift
    /// // Inside a @MainActor type:
    /// cancellable = observation.start(in: dbQueue, scheduling: .immediate) { error in
    ///     ...
    /// } onChange: { [unowned self] players in
    ///     self.players = players // set before start returns
    /// }
    /// ```
    public static var immediate: ImmediateValueObservationScheduler {
        ImmediateValueObservationScheduler()
    }
}

extension ValueObservationMainActorScheduler where Self == DelayedMainActorValueObservationScheduler {
    /// Delivers all values asynchronously on the main actor, the initial
    /// value included.
    public static var mainActor: DelayedMainActorValueObservationScheduler {
        DelayedMainActorValueObservationScheduler()
    }
}

extension ValueObservationScheduler where Self == DelayedMainActorValueObservationScheduler {
    /// Delivers all values asynchronously on the main actor, the initial
    /// value included.
    public static var mainActor: DelayedMainActorValueObservationScheduler {
        DelayedMainActorValueObservationScheduler()
    }
}
