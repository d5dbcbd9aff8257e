import Dispatch
import Foundation

// MARK: - Cancellables

/// A running observation, which stops when cancelled.
public protocol DatabaseCancellable: Sendable {
    /// Stops the observation: no value or error is delivered after the
    /// cancellation, when it is called from the queue that receives them.
    func cancel()
}

/// A type-erased cancellable that cancels itself when it is deallocated:
/// keep it for as long as the observation must run.
///
/// ```swift
/// let cancellable = observation.start(in: dbQueue, onError: { _ in }, onChange: { print($0) })
/// // Later:
/// cancellable.cancel()
/// ```
public final class AnyDatabaseCancellable: DatabaseCancellable {
    private let onCancel: Locked<(@Sendable () -> Void)?>

    /// Wraps a function that cancels.
    public init(cancel: @escaping @Sendable () -> Void) {
        onCancel = Locked(cancel)
    }

    /// Wraps another cancellable.
    public convenience init(_ cancellable: some DatabaseCancellable) {
        self.init(cancel: cancellable.cancel)
    }

    deinit {
        cancel()
    }

    /// Cancels; later calls do nothing.
    public func cancel() {
        let onCancel = self.onCancel.withLock { onCancel in
            defer { onCancel = nil }
            return onCancel
        }
        onCancel?()
    }
}

// MARK: - Schedulers

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

// MARK: - Reducers

/// What a ``ValueObservation`` does with the database: it fetches, then
/// turns what it fetched into the values it delivers.
///
/// Build observations with ``ValueObservation`` methods rather than with
/// your own reducers: ``ValueObservation/tracking(_:)``,
/// ``ValueObservation/map(_:)``, ``ValueObservation/removeDuplicates()``.
public protocol ValueReducer: Sendable {
    /// What the reducer fetches.
    associatedtype Fetched
    /// What the observation delivers.
    associatedtype Value

    /// Fetches from the database.
    func _fetch(_ db: Database) throws -> Fetched

    /// Returns the value to deliver, or nil to deliver nothing (a duplicate,
    /// for instance).
    mutating func _value(_ fetched: Fetched) throws -> Value?
}

/// The reducers of ``ValueObservation``.
public enum ValueReducers {
    /// Fetches a value, and delivers it.
    public struct Fetch<Value>: ValueReducer, @unchecked Sendable {
        // Unchecked Sendable: the function is @Sendable.
        let fetch: @Sendable (Database) throws -> Value

        /// Fetches.
        public func _fetch(_ db: Database) throws -> Value { try fetch(db) }

        /// The fetched value.
        public func _value(_ fetched: Value) -> Value? { fetched }
    }

    /// Transforms the values of another reducer.
    public struct Map<Base: ValueReducer, Value>: ValueReducer {
        // Sendable: the base is a reducer, and the transform is @Sendable.
        var base: Base
        let transform: @Sendable (Base.Value) throws -> Value

        /// Fetches with the base reducer.
        public func _fetch(_ db: Database) throws -> Base.Fetched { try base._fetch(db) }

        /// The transformed value of the base reducer.
        public mutating func _value(_ fetched: Base.Fetched) throws -> Value? {
            try base._value(fetched).map(transform)
        }
    }

    /// Skips the values equal to the previous one.
    public struct RemoveDuplicates<Base: ValueReducer>: ValueReducer, @unchecked Sendable {
        // Unchecked Sendable: the previous value is only used by the
        // observation, behind its lock.
        var base: Base
        let predicate: @Sendable (Base.Value, Base.Value) -> Bool
        /// Sees all the values of the base reducer.
        let tap: (@Sendable (Base.Value) -> Void)?
        var previousValue: Base.Value?

        /// Fetches with the base reducer.
        public func _fetch(_ db: Database) throws -> Base.Fetched { try base._fetch(db) }

        /// The value of the base reducer, or nil when it is a duplicate.
        public mutating func _value(_ fetched: Base.Fetched) throws -> Base.Value? {
            guard let value = try base._value(fetched) else { return nil }
            tap?(value)
            if let previousValue, predicate(previousValue, value) { return nil }
            previousValue = value
            return value
        }
    }
}
