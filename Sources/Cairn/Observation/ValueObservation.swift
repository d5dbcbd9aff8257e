import Foundation

/// Tracks the changes of a value fetched from the database, and delivers a
/// fresh value after each transaction that may have changed it.
///
/// ```swift
/// let observation = ValueObservation.tracking { db in
///     try Player.fetchAll(db)
/// }
///
/// let cancellable = observation.start(
///     in: dbQueue,
///     onError: { error in print(error) },
///     onChange: { (players: [Player]) in print("Fresh players: \(players)") })
///
/// // With Swift concurrency:
/// for try await players in observation.values(in: dbQueue) {
///     print("Fresh players: \(players)")
/// }
/// ```
///
/// An observation:
/// - always delivers an initial value, then a value after each transaction
///   that changed the tables and columns the fetch reads (its region, as
///   SQLite's authorizer reports it);
/// - may coalesce changes, and deliver one value for several transactions;
/// - delivers values in the order of the commits, and never an older value
///   after a newer one;
/// - may deliver identical consecutive values (see ``removeDuplicates()``);
/// - ends with its first error;
/// - stops delivering when the database connection closes.
///
/// On a ``DatabasePool``, fresh values are fetched by a reader connection,
/// while the writer goes on: the read starts on the state the commit left,
/// so that no change is missed.
public struct ValueObservation<Reducer: ValueReducer>: @unchecked Sendable {
    // Unchecked Sendable: all stored functions are @Sendable, and the
    // reducer is made for each start.

    let tracking: ValueObservationTracking
    let makeReducer: @Sendable () -> Reducer
    var events = ValueObservationEvents<Reducer.Value>()

    /// Whether the fetch may write. When false (the default), a fetch that
    /// writes fails with `SQLITE_READONLY`.
    ///
    /// When true, values are fetched by the writer connection, in a
    /// transaction, even on a ``DatabasePool``.
    public var requiresWriteAccess = false

    init(tracking: ValueObservationTracking, makeReducer: @escaping @Sendable () -> Reducer) {
        self.tracking = tracking
        self.makeReducer = makeReducer
    }
}

/// How the region of a ``ValueObservation`` is known.
enum ValueObservationTracking: Sendable {
    /// Given regions.
    case constantRegion([any DatabaseRegionConvertible])
    /// The region of the first fetch.
    case constantRegionRecordedFromSelection
    /// The region of each fetch.
    case regionRecordedFromSelection
}

/// The callbacks of ``ValueObservation/handleEvents(willStart:willFetch:willTrackRegion:databaseDidChange:didReceiveValue:didFail:didCancel:)``.
struct ValueObservationEvents<Value>: @unchecked Sendable {
    // Unchecked Sendable: the functions are @Sendable.
    var willStart: (@Sendable () -> Void)?
    var willFetch: (@Sendable () -> Void)?
    var willTrackRegion: (@Sendable (DatabaseRegion) -> Void)?
    var databaseDidChange: (@Sendable () -> Void)?
    var didReceiveValue: (@Sendable (Value) -> Void)?
    var didFail: (@Sendable (any Error) -> Void)?
    var didCancel: (@Sendable () -> Void)?

    /// The events of `self`, then those of `other`.
    func appending(_ other: ValueObservationEvents) -> ValueObservationEvents {
        func chain(_ a: (@Sendable () -> Void)?, _ b: (@Sendable () -> Void)?) -> (@Sendable () -> Void)? {
            guard let a else { return b }
            guard let b else { return a }
            return { a(); b() }
        }
        func chain<T>(_ a: (@Sendable (T) -> Void)?, _ b: (@Sendable (T) -> Void)?) -> (@Sendable (T) -> Void)? {
            guard let a else { return b }
            guard let b else { return a }
            return { a($0); b($0) }
        }
        return ValueObservationEvents(
            willStart: chain(willStart, other.willStart),
            willFetch: chain(willFetch, other.willFetch),
            willTrackRegion: chain(willTrackRegion, other.willTrackRegion),
            databaseDidChange: chain(databaseDidChange, other.databaseDidChange),
            didReceiveValue: chain(didReceiveValue, other.didReceiveValue),
            didFail: chain(didFail, other.didFail),
            didCancel: chain(didCancel, other.didCancel))
    }

    /// The same events, without the values: the base of a transformed
    /// observation reports its values from its reducer.
    func withoutValues<T>() -> ValueObservationEvents<T> {
        ValueObservationEvents<T>(
            willStart: willStart, willFetch: willFetch, willTrackRegion: willTrackRegion,
            databaseDidChange: databaseDidChange, didReceiveValue: nil,
            didFail: didFail, didCancel: didCancel)
    }
}

// MARK: - Creating observations

extension ValueObservation {
    /// Observes the value that `fetch` returns; the observed region is the
    /// region of the statements of each fetch.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking { db in
    ///     try Player.fetchAll(db)
    /// }
    /// let observation = ValueObservation.tracking(Player.fetchAll)
    /// ```
    ///
    /// - Parameter fetch: The function that fetches the value; it must not
    ///   write (see ``requiresWriteAccess``).
    public static func tracking<Value: Sendable>(
        _ fetch: @escaping @Sendable (Database) throws -> Value) -> Self
        where Reducer == ValueReducers.Fetch<Value>
    {
        ValueObservation(tracking: .regionRecordedFromSelection) { ValueReducers.Fetch(fetch: fetch) }
    }

    /// Observes the value that `fetch` returns, when the region it reads is
    /// the same at each fetch: the region is recorded once, which saves the
    /// work of recording it again.
    ///
    /// A fetch whose region changes (it reads a table only when a value
    /// of another one says so, for instance) must use
    /// ``tracking(_:)`` instead.
    public static func trackingConstantRegion<Value: Sendable>(
        _ fetch: @escaping @Sendable (Database) throws -> Value) -> Self
        where Reducer == ValueReducers.Fetch<Value>
    {
        ValueObservation(tracking: .constantRegionRecordedFromSelection) { ValueReducers.Fetch(fetch: fetch) }
    }

    /// Observes the value that `fetch` returns, after each transaction that
    /// changes one of the given regions.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking(
    ///     region: Table("player"), Table("team"),
    ///     fetch: { db in try Player.fetchCount(db) + Team.fetchCount(db) })
    /// ```
    ///
    /// - Parameters:
    ///   - region: A region to observe.
    ///   - otherRegions: Other regions to observe.
    ///   - fetch: The function that fetches the value.
    public static func tracking<Value: Sendable>(
        region: any DatabaseRegionConvertible,
        _ otherRegions: any DatabaseRegionConvertible...,
        fetch: @escaping @Sendable (Database) throws -> Value) -> Self
        where Reducer == ValueReducers.Fetch<Value>
    {
        tracking(regions: [region] + otherRegions, fetch: fetch)
    }

    /// Observes the value that `fetch` returns, after each transaction that
    /// changes one of the given regions.
    public static func tracking<Value: Sendable>(
        regions: [any DatabaseRegionConvertible],
        fetch: @escaping @Sendable (Database) throws -> Value) -> Self
        where Reducer == ValueReducers.Fetch<Value>
    {
        ValueObservation(tracking: .constantRegion(regions)) { ValueReducers.Fetch(fetch: fetch) }
    }
}

// MARK: - Operators

extension ValueObservation {
    /// Transforms the values of the observation.
    ///
    /// ```swift
    /// let names = ValueObservation
    ///     .tracking(Player.fetchAll)
    ///     .map { players in players.map(\.name) }
    /// ```
    ///
    /// The transform runs after each fetch, before the value is delivered.
    public func map<T: Sendable>(
        _ transform: @escaping @Sendable (Reducer.Value) throws -> T) -> ValueObservation<ValueReducers.Map<Reducer, T>>
    {
        let makeReducer = self.makeReducer
        let didReceiveBaseValue = events.didReceiveValue
        var observation = ValueObservation<ValueReducers.Map<Reducer, T>>(tracking: tracking) {
            ValueReducers.Map(base: makeReducer()) { value in
                didReceiveBaseValue?(value)
                return try transform(value)
            }
        }
        observation.events = events.withoutValues()
        observation.requiresWriteAccess = requiresWriteAccess
        return observation
    }

    /// Skips the values that `predicate` says are duplicates of the previous
    /// one.
    ///
    /// The values are `Sendable`: the previous value is compared with the
    /// next one in a later fetch, which may run on another thread.
    ///
    /// As in GRDB, `predicate` need not be `Sendable`: it is sent to the
    /// observation, which calls it after each fetch, one call at a time for
    /// each start of the observation.
    public func removeDuplicates(
        by predicate: sending @escaping (Reducer.Value, Reducer.Value) -> Bool)
        -> ValueObservation<ValueReducers.RemoveDuplicates<Reducer>>
        where Reducer.Value: Sendable
    {
        nonisolated(unsafe) let predicate = predicate
        let sendablePredicate: @Sendable (Reducer.Value, Reducer.Value) -> Bool = { predicate($0, $1) }
        let makeReducer = self.makeReducer
        let didReceiveBaseValue = events.didReceiveValue
        var observation = ValueObservation<ValueReducers.RemoveDuplicates<Reducer>>(tracking: tracking) {
            ValueReducers.RemoveDuplicates(base: makeReducer(), predicate: sendablePredicate, tap: didReceiveBaseValue)
        }
        observation.events = events.withoutValues()
        observation.requiresWriteAccess = requiresWriteAccess
        return observation
    }

    /// Runs functions at the events of the observation, for logging or
    /// debugging.
    ///
    /// - Parameters:
    ///   - willStart: When the observation starts.
    ///   - willFetch: Before each fetch.
    ///   - willTrackRegion: When the observed region is known or changes.
    ///   - databaseDidChange: After a transaction changed the region.
    ///   - didReceiveValue: When a fresh value is fetched, before the
    ///     scheduler delivers it.
    ///   - didFail: Before the error is delivered.
    ///   - didCancel: When the observation is cancelled.
    public func handleEvents(
        willStart: (@Sendable () -> Void)? = nil,
        willFetch: (@Sendable () -> Void)? = nil,
        willTrackRegion: (@Sendable (DatabaseRegion) -> Void)? = nil,
        databaseDidChange: (@Sendable () -> Void)? = nil,
        didReceiveValue: (@Sendable (Reducer.Value) -> Void)? = nil,
        didFail: (@Sendable (any Error) -> Void)? = nil,
        didCancel: (@Sendable () -> Void)? = nil) -> ValueObservation<ValueReducers.Trace<Reducer>>
    {
        let makeReducer = self.makeReducer
        var observation = ValueObservation<ValueReducers.Trace<Reducer>>(tracking: tracking) {
            ValueReducers.Trace(base: makeReducer())
        }
        observation.events = events.appending(ValueObservationEvents(
            willStart: willStart, willFetch: willFetch, willTrackRegion: willTrackRegion,
            databaseDidChange: databaseDidChange, didReceiveValue: didReceiveValue,
            didFail: didFail, didCancel: didCancel))
        observation.requiresWriteAccess = requiresWriteAccess
        return observation
    }

    /// Prints the events of the observation, prefixed with `prefix`, to the
    /// standard output (one line per event) or to `stream` (one write per
    /// event, without line end). As in GRDB, the stream need not be
    /// `Sendable`: it is sent to the observation, which writes to it one
    /// event at a time.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking(Player.fetchAll).print("players")
    /// // players: start
    /// // players: fetch
    /// // players: tracked region: player(id,name,score)
    /// // players: value: [...]
    /// ```
    public func print(
        _ prefix: String = "",
        to stream: sending (any TextOutputStream)? = nil) -> ValueObservation<ValueReducers.Trace<Reducer>>
    {
        let prefix = prefix.isEmpty ? "" : "\(prefix): "
        // One write per event: the standard output gets lines, a stream
        // gets the events without line ends.
        let output = Locked<any TextOutputStream>(stream ?? StandardOutputStream())
        let log: @Sendable (String) -> Void = { message in
            output.withLock { stream in stream.write(prefix + message) }
        }
        return handleEvents(
            willStart: { log("start") },
            willFetch: { log("fetch") },
            willTrackRegion: { log("tracked region: \($0)") },
            databaseDidChange: { log("database did change") },
            didReceiveValue: { log("value: \($0)") },
            didFail: { log("failure: \($0)") },
            didCancel: { log("cancel") })
    }
}

extension ValueObservation where Reducer.Value: Equatable & Sendable {
    /// Skips the values that are equal to the previous one.
    ///
    /// ```swift
    /// let observation = ValueObservation
    ///     .tracking { db in try Int.fetchOne(db, sql: "SELECT MAX(score) FROM player") }
    ///     .removeDuplicates()
    /// ```
    public func removeDuplicates() -> ValueObservation<ValueReducers.RemoveDuplicates<Reducer>> {
        removeDuplicates(by: ==)
    }
}

/// Writes to the standard output.
private struct StandardOutputStream: TextOutputStream, Sendable {
    mutating func write(_ string: String) {
        FileHandle.standardOutput.write(Data((string + "\n").utf8))
    }
}

// MARK: - Starting observations

extension ValueObservation where Reducer.Value: Sendable {
    /// Starts the observation from the main actor, and returns the
    /// cancellable that keeps it running. The closures run on the main
    /// actor.
    ///
    /// This is how an app observes the database from its views or models:
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
    /// - Parameters:
    ///   - reader: A database queue, pool, snapshot or snapshot pool.
    ///     Snapshots never change: their observation delivers one value.
    ///   - scheduler: When values are delivered: by default
    ///     (``ValueObservationMainActorScheduler/mainActor``), all
    ///     asynchronously; with
    ///     ``ValueObservationMainActorScheduler/immediate``, the initial
    ///     value (or error) before this method returns.
    ///   - onError: Called on the main actor with the error that ends the
    ///     observation.
    ///   - onChange: Called on the main actor with each value.
    /// - Returns: A cancellable: the observation stops when it is cancelled
    ///   or deallocated.
    @preconcurrency @MainActor
    public func start(
        in reader: some DatabaseReader,
        scheduling scheduler: some ValueObservationMainActorScheduler = .mainActor,
        onError: @escaping @MainActor (any Error) -> Void,
        onChange: @escaping @MainActor (Reducer.Value) -> Void) -> AnyDatabaseCancellable
    {
        let observer = ValueObserver(
            observation: self, reader: reader,
            callbacks: .mainActor(scheduler, onError: onError, onChange: onChange))
        let cancellable = AnyDatabaseCancellable { observer.cancel() }
        switch observer.start() {
        case .success(let value): onChange(value)
        case .failure(let error): onError(error)
        case nil: break
        }
        return cancellable
    }

    /// Starts the observation, and returns the cancellable that keeps it
    /// running. The closures run where the scheduler says.
    ///
    /// ```swift
    /// let cancellable = observation.start(
    ///     in: dbQueue,
    ///     scheduling: .async(onQueue: myQueue),
    ///     onError: { error in print(error) },
    ///     onChange: { players in print("Fresh players: \(players)") })
    /// ```
    ///
    /// From the main actor, without a scheduler, or with a main-actor
    /// scheduler (`.mainActor`, `.immediate`), the main-actor variant
    /// `start(in:scheduling:onError:onChange:)` runs instead, and its
    /// closures may use the state of the main actor.
    ///
    /// - Parameters:
    ///   - reader: A database queue, pool, snapshot or snapshot pool.
    ///     Snapshots never change: their observation delivers one value.
    ///   - scheduler: Where values are delivered: a dispatch queue
    ///     (``ValueObservationScheduler/async(onQueue:)``), a task
    ///     (``ValueObservationScheduler/task``), or the main actor.
    ///   - onError: Called with the error that ends the observation.
    ///   - onChange: Called with each value.
    /// - Returns: A cancellable: the observation stops when it is cancelled
    ///   or deallocated.
    @preconcurrency
    public func start(
        in reader: some DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Reducer.Value) -> Void) -> AnyDatabaseCancellable
    {
        let observer = ValueObserver(
            observation: self, reader: reader,
            callbacks: .sendable(scheduler, onError: onError, onChange: onChange))
        let cancellable = AnyDatabaseCancellable { observer.cancel() }
        switch observer.start() {
        case .success(let value): onChange(value)
        case .failure(let error): onError(error)
        case nil: break
        }
        return cancellable
    }

    /// The values of the observation, as an async sequence.
    ///
    /// ```swift
    /// for try await players in observation.values(in: dbQueue) {
    ///     print("Fresh players: \(players)")
    /// }
    /// ```
    ///
    /// The sequence ends with the error of the observation. The observation
    /// stops when the iteration stops (the task is cancelled, or the loop
    /// exits).
    ///
    /// - Parameters:
    ///   - reader: A database queue, pool, snapshot or snapshot pool.
    ///   - scheduler: Where values are produced; by default, a serial queue
    ///     of the observation.
    ///   - bufferingPolicy: What to do with values the loop did not consume
    ///     yet; by default, keep them all.
    public func values(
        in reader: some DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler = .task,
        bufferingPolicy: AsyncValueObservation<Reducer.Value>.BufferingPolicy = .unbounded)
        -> AsyncValueObservation<Reducer.Value>
    {
        AsyncValueObservation(bufferingPolicy: bufferingPolicy) { onError, onChange in
            start(in: reader, scheduling: scheduler, onError: onError, onChange: onChange)
        }
    }
}

/// The values of a ``ValueObservation``, as an async sequence: see
/// ``ValueObservation/values(in:scheduling:bufferingPolicy:)``.
///
/// Each iteration starts its own observation.
public struct AsyncValueObservation<Element: Sendable>: AsyncSequence, Sendable {
    /// What to do with the values the loop did not consume yet.
    public typealias BufferingPolicy = AsyncThrowingStream<Element, any Error>.Continuation.BufferingPolicy

    let bufferingPolicy: BufferingPolicy
    let start: @Sendable (
        _ onError: @escaping @Sendable (any Error) -> Void,
        _ onChange: @escaping @Sendable (Element) -> Void) -> AnyDatabaseCancellable

    init(
        bufferingPolicy: BufferingPolicy,
        start: @escaping @Sendable (
            _ onError: @escaping @Sendable (any Error) -> Void,
            _ onChange: @escaping @Sendable (Element) -> Void) -> AnyDatabaseCancellable)
    {
        self.bufferingPolicy = bufferingPolicy
        self.start = start
    }

    /// The iterator of the values.
    public typealias AsyncIterator = Iterator

    /// The iterator of the values: each iterator runs its own observation,
    /// which stops when the iterator is deallocated or its task cancelled.
    public struct Iterator: AsyncIteratorProtocol {
        var iterator: AsyncThrowingStream<Element, any Error>.AsyncIterator
        let cancellable: AnyDatabaseCancellable

        /// The next value; nil when the observation was cancelled.
        ///
        /// - Throws: The error of the observation.
        public mutating func next() async throws -> Element? {
            try await iterator.next()
        }
    }

    /// Starts an observation.
    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream(bufferingPolicy: bufferingPolicy)
        let cancellable = start(
            { error in continuation.finish(throwing: error) },
            { value in continuation.yield(value) })
        continuation.onTermination = { _ in cancellable.cancel() }
        return Iterator(iterator: stream.makeAsyncIterator(), cancellable: cancellable)
    }
}
