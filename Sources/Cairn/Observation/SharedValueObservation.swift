import Dispatch

/// How long a ``SharedValueObservation`` observes the database.
public enum SharedValueObservationExtent: Sendable {
    /// From the first subscription until the shared observation is
    /// deallocated and all subscriptions are cancelled.
    case observationLifetime
    /// While there are subscriptions: the database observation stops after
    /// the last subscription is cancelled, or after its error, and starts
    /// again with the next subscription.
    case whileObserved
}

/// A ``ValueObservation`` whose database observation is shared by several
/// subscribers: one fetch per change, whatever the number of subscribers.
///
/// ```swift
/// let sharedPlayers = ValueObservation
///     .tracking(Player.fetchAll)
///     .shared(in: dbQueue)
///
/// let cancellable1 = sharedPlayers.start(onError: { _ in }, onChange: { players in ... })
/// let cancellable2 = sharedPlayers.start(onError: { _ in }, onChange: { players in ... })
///
/// for try await players in sharedPlayers.values() { ... }
/// ```
///
/// A new subscriber receives the last value at once (with the scheduler of
/// the shared observation), then the fresh values. An error ends all
/// subscriptions; a later subscription receives it too.
public final class SharedValueObservation<Element: Sendable>: Sendable {
    /// The shared state, that the subscriptions retain: with
    /// `.observationLifetime`, the database observation ends when both the
    /// shared observation is deallocated and all subscriptions are
    /// cancelled; with `.whileObserved`, when all subscriptions are
    /// cancelled.
    private let core: SharedValueObservationCore<Element>

    init(
        scheduler: some ValueObservationScheduler,
        extent: SharedValueObservationExtent,
        startObservation: @escaping @Sendable (
            _ onError: @escaping @Sendable (any Error) -> Void,
            _ onChange: @escaping @Sendable (Element) -> Void) -> AnyDatabaseCancellable)
    {
        core = SharedValueObservationCore(scheduler: scheduler, extent: extent, startObservation: startObservation)
    }

    deinit {
        core.sharedObservationDidDeinit()
    }

    /// Subscribes to the observation.
    ///
    /// - Parameters:
    ///   - onError: Called with the error that ends the observation.
    ///   - onChange: Called with each value.
    /// - Returns: A cancellable: the subscription stops when it is cancelled
    ///   or deallocated. The subscription keeps the database observation
    ///   running, even after the shared observation is deallocated.
    public func start(
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Element) -> Void) -> AnyDatabaseCancellable
    {
        core.start(onError: onError, onChange: onChange)
    }

    /// The values of the shared observation, as an async sequence.
    ///
    /// - Parameter bufferingPolicy: What to do with values the loop did not
    ///   consume yet; by default, keep them all.
    public func values(
        bufferingPolicy: AsyncValueObservation<Element>.BufferingPolicy = .unbounded)
        -> AsyncValueObservation<Element>
    {
        let core = self.core
        return AsyncValueObservation(bufferingPolicy: bufferingPolicy) { onError, onChange in
            core.start(onError: onError, onChange: onChange)
        }
    }
}

/// The state of a ``SharedValueObservation``: its subscribers, its
/// database observation, and the last value.
private final class SharedValueObservationCore<Element: Sendable>: Sendable {
    private struct Subscriber {
        var onError: @Sendable (any Error) -> Void
        var onChange: @Sendable (Element) -> Void
    }

    private struct State {
        var cancellable: AnyDatabaseCancellable?
        var lastResult: Result<Element, any Error>?
        var subscribers: [Int: Subscriber] = [:]
        var nextIdentifier = 0
        /// Whether the shared observation was deallocated.
        var isReleased = false
        /// Whether a subscription is starting the database observation:
        /// the subscriptions that start meanwhile share it.
        var isStarting = false
        /// Whether the database observation failed while it was starting.
        var didFailWhileStarting = false
    }

    private let scheduler: any ValueObservationScheduler
    private let extent: SharedValueObservationExtent
    private let startObservation: @Sendable (
        _ onError: @escaping @Sendable (any Error) -> Void,
        _ onChange: @escaping @Sendable (Element) -> Void) -> AnyDatabaseCancellable
    private let state = Locked(State())

    init(
        scheduler: some ValueObservationScheduler,
        extent: SharedValueObservationExtent,
        startObservation: @escaping @Sendable (
            _ onError: @escaping @Sendable (any Error) -> Void,
            _ onChange: @escaping @Sendable (Element) -> Void) -> AnyDatabaseCancellable)
    {
        self.scheduler = scheduler
        self.extent = extent
        self.startObservation = startObservation
    }

    deinit {
        state.withLock { $0.cancellable }?.cancel()
    }

    /// Whether the database observation is still needed.
    private func isNeeded(_ state: State) -> Bool {
        switch extent {
        case .observationLifetime: return !state.isReleased || !state.subscribers.isEmpty
        case .whileObserved: return !state.subscribers.isEmpty
        }
    }

    func start(
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Element) -> Void) -> AnyDatabaseCancellable
    {
        let (identifier, lastResult, needsStart) = state.withLock { state in
            let identifier = state.nextIdentifier
            state.nextIdentifier += 1
            if case .failure = state.lastResult {
                // Ended: the subscriber only gets the error.
            } else {
                state.subscribers[identifier] = Subscriber(onError: onError, onChange: onChange)
            }
            let needsStart = state.cancellable == nil && state.lastResult == nil && !state.isStarting
            if needsStart { state.isStarting = true }
            return (identifier, state.lastResult, needsStart)
        }

        if let lastResult {
            let replay: @Sendable () -> Void = {
                switch lastResult {
                case .success(let value):
                    // Only if the subscriber is still there.
                    if self.state.withLock({ $0.subscribers[identifier] != nil }) {
                        onChange(value)
                    }
                case .failure(let error):
                    onError(error)
                }
            }
            if scheduler.immediateInitialValue() {
                replay()
            } else {
                scheduler.schedule(replay)
            }
        }

        if needsStart {
            let cancellable = startObservation(
                { [weak self] error in self?.receive(.failure(error)) },
                { [weak self] value in self?.receive(.success(value)) })
            let isStillNeeded = state.withLock { state -> Bool in
                defer {
                    state.isStarting = false
                    state.didFailWhileStarting = false
                }
                // Not after an error that ended it, nor when the
                // subscriptions were cancelled meanwhile.
                guard state.cancellable == nil, isNeeded(state), !state.didFailWhileStarting else { return false }
                state.cancellable = cancellable
                return true
            }
            if !isStillNeeded { cancellable.cancel() }
        }

        // The subscription retains the core.
        return AnyDatabaseCancellable {
            self.unsubscribe(identifier)
        }
    }

    private func receive(_ result: Result<Element, any Error>) {
        let subscribers = state.withLock { state -> [Subscriber] in
            state.lastResult = result
            let subscribers = state.subscribers.sorted { $0.key < $1.key }.map(\.value)
            if case .failure = result {
                state.subscribers.removeAll()
                state.cancellable = nil
                // As in GRDB: the next subscription of a `.whileObserved`
                // observation starts a new database observation; those of
                // an `.observationLifetime` one get the error.
                if extent == .whileObserved { state.lastResult = nil }
                if state.isStarting { state.didFailWhileStarting = true }
            }
            return subscribers
        }
        for subscriber in subscribers {
            switch result {
            case .success(let value): subscriber.onChange(value)
            case .failure(let error): subscriber.onError(error)
            }
        }
    }

    private func unsubscribe(_ identifier: Int) {
        let cancellable = state.withLock { state -> AnyDatabaseCancellable? in
            state.subscribers[identifier] = nil
            return stopIfUnneeded(&state)
        }
        cancellable?.cancel()
    }

    func sharedObservationDidDeinit() {
        let cancellable = state.withLock { state -> AnyDatabaseCancellable? in
            state.isReleased = true
            return stopIfUnneeded(&state)
        }
        cancellable?.cancel()
    }

    /// Takes the database observation out of the state when it is no
    /// longer needed; the caller cancels it outside of the lock.
    private func stopIfUnneeded(_ state: inout State) -> AnyDatabaseCancellable? {
        guard state.cancellable != nil, !isNeeded(state) else { return nil }
        defer {
            state.cancellable = nil
            // A later subscription starts a new database observation.
            if case .success = state.lastResult { state.lastResult = nil }
        }
        return state.cancellable
    }
}

extension ValueObservation where Reducer.Value: Sendable {
    /// Returns an observation that shares one database observation among its
    /// subscribers.
    ///
    /// - Parameters:
    ///   - reader: A database queue, pool, snapshot or snapshot pool.
    ///   - scheduler: Where values are delivered; by default, asynchronously
    ///     on the main queue.
    ///   - extent: How long the database is observed; by default, while
    ///     there are subscriptions.
    public func shared(
        in reader: some DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler = .async(onQueue: .main),
        extent: SharedValueObservationExtent = .whileObserved) -> SharedValueObservation<Reducer.Value>
    {
        SharedValueObservation(scheduler: scheduler, extent: extent) { onError, onChange in
            self.start(in: reader, scheduling: scheduler, onError: onError, onChange: onChange)
        }
    }
}
