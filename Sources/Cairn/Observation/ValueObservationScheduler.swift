import Dispatch
import Foundation

/// Where and when a ``ValueObservation`` delivers its values.
///
/// - ``ValueObservationScheduler/async(onQueue:)``: asynchronously, on a
///   serial dispatch queue (the main queue by default).
/// - ``ValueObservationScheduler/immediate``: the initial value synchronously,
///   when the observation starts from the main thread; the other values
///   asynchronously on the main queue.
/// - ``ValueObservationScheduler/task``: asynchronously, on a serial queue
///   of the observation (what the `values(in:)` async sequence uses).
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

/// Delivers the initial value synchronously, and the other values on the
/// main queue.
public struct ImmediateValueObservationScheduler: ValueObservationScheduler {
    /// Creates the scheduler.
    public init() { }

    /// True: the initial value is delivered before `start` returns.
    ///
    /// - Precondition: called from the main thread.
    public func immediateInitialValue() -> Bool {
        precondition(isOnMainQueue(),
            "ValueObservation with the .immediate scheduling must start from the main thread.")
        return true
    }

    /// Runs `action` asynchronously on the main queue.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        DispatchQueue.main.async(execute: action)
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

    /// Delivers values asynchronously on a new serial queue: each access to
    /// this property creates a scheduler with its own queue.
    public static var task: AsyncValueObservationScheduler {
        AsyncValueObservationScheduler(queue: DispatchQueue(label: "Cairn.ValueObservation"))
    }
}

extension ValueObservationScheduler where Self == ImmediateValueObservationScheduler {
    /// Delivers the initial value synchronously, before `start` returns, and
    /// the other values asynchronously on the main queue.
    ///
    /// - Precondition: the observation starts from the main thread.
    public static var immediate: ImmediateValueObservationScheduler {
        ImmediateValueObservationScheduler()
    }
}
