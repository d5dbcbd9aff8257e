// `_add(observation:scheduling:onChange:)`: the entry point by which GRDB's
// readers and writers (queues, pools, snapshots, snapshot pools, and the
// type-erased readers and writers) start a value observation.

extension DatabaseReader {
    /// Starts a value observation in this reader, and returns the
    /// cancellable that keeps it running.
    ///
    /// Call `ValueObservation.start(in:scheduling:onError:onChange:)`
    /// instead: this method is the one it is built on in GRDB. It reports
    /// the error that ends the observation to the `didFail` function of
    /// ``ValueObservation/handleEvents(willStart:willFetch:willTrackRegion:databaseDidChange:didReceiveValue:didFail:didCancel:)``,
    /// and to nothing else.
    ///
    /// ```swift
    /// let cancellable = dbQueue._add(
    ///     observation: observation.handleEvents(didFail: { print($0) }),
    ///     scheduling: .async(onQueue: .main),
    ///     onChange: { value in print(value) })
    /// ```
    ///
    /// - Parameters:
    ///   - observation: The observation.
    ///   - scheduler: Where values are delivered.
    ///   - onChange: Called with each value.
    /// - Returns: A cancellable: the observation stops when it is cancelled
    ///   or deallocated.
    /// - Note: This method exists for the companion libraries of GRDB. Cairn
    ///   declares it once, for every reader and writer: a wrapper type that
    ///   declares its own `_add` and forwards it compiles, but Cairn's
    ///   `start` methods do not call it.
    public func _add<Reducer: ValueReducer>(
        observation: ValueObservation<Reducer>,
        scheduling scheduler: some ValueObservationScheduler,
        onChange: @escaping @Sendable (Reducer.Value) -> Void) -> AnyDatabaseCancellable
    {
        observation.start(in: self, scheduling: scheduler, onError: { _ in }, onChange: onChange)
    }
}
