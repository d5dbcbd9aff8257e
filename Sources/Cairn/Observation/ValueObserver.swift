import Foundation

/// An observer that the broker tells when its connection closes.
protocol DatabaseClosingObserver: AnyObject {
    func databaseWillClose()
}

extension Database {
    /// Runs `body`, and returns its result with the region that the
    /// statements it ran read.
    func recordingSelectedRegion<T>(_ body: () throws -> T) rethrows -> (T, DatabaseRegion) {
        let outer = state.recordedRegion
        state.recordedRegion = DatabaseRegion()
        defer {
            if let outer {
                state.recordedRegion = outer.union(state.recordedRegion ?? DatabaseRegion())
            } else {
                state.recordedRegion = nil
            }
        }
        let result = try body()
        return (result, state.recordedRegion ?? DatabaseRegion())
    }
}

/// Runs a ``ValueObservation``: a transaction observer of the writer that
/// fetches a fresh value after each commit that changed the observed region,
/// and delivers it with the scheduler.
///
/// Thread safety: the transaction observer methods run on the writer's
/// queue; fetches run on the writer's queue (database queues) or on a reader
/// (pools), one at a time; the shared state is behind a lock.
final class ValueObserver<Reducer: ValueReducer>:
    RollbackResettingObserver, RegionIndexedObserver, DatabaseClosingObserver, @unchecked Sendable
where Reducer.Value: Sendable
{
    private struct State {
        var reducer: Reducer
        /// The observed region; nil until known (everything is observed
        /// until then).
        var region: DatabaseRegion?
        var isCancelled = false
        /// After an error.
        var isCompleted = false
        /// Whether the error that ended the observation was delivered: a
        /// later cancellation has nothing to cancel, and is no event (as
        /// in GRDB).
        var isFailureDelivered = false
        var isDatabaseClosed = false
        /// Whether a concurrent fetch runs (pools).
        var isFetching = false
        /// Whether a commit happened during a concurrent fetch.
        var needsRefetch = false
        /// Where the changes of `region` are posted, once the writer's
        /// observation broker indexes the observer.
        var regionChanges: RegionChangeInbox?

        var isActive: Bool { !isCancelled && !isCompleted && !isDatabaseClosed }
    }

    private let tracking: ValueObservationTracking
    /// The fetching half of the reducer, made once (see
    /// ``_ValueReducer/_makeFetcher()``): it fetches on any connection,
    /// without the lock of the state.
    private let fetcher: Reducer.Fetcher
    private let events: ValueObservationEvents<Reducer.Value>
    private let requiresWriteAccess: Bool
    private let reader: any DatabaseReader
    private let writer: (any DatabaseWriter)?
    /// The pool whose readers fetch fresh values, when values are fetched
    /// concurrently with the writer.
    private let pool: DatabasePool?

    /// Whether the fresh values of a pool's observation are fetched by the
    /// writer, after each commit that changed the region, as GRDB fetches
    /// them: the observations whose region may change from one fetch to the
    /// next (``ValueObservation/tracking(_:)``). A concurrent read could
    /// miss a commit that changes its next region, which the observer does
    /// not track yet, and end on a stale value. The initial value of an
    /// `.immediate` start is still read by a reader, then confirmed by the
    /// writer; other starts fetch it with the writer.
    private let fetchesOnWriter: Bool
    private let callbacks: ValueObserverCallbacks<Reducer.Value>
    private let state: Locked<State>
    /// Whether the observation tracks changes: not on a snapshot, nor on a
    /// read-only database, which never change. Only then is the region
    /// told to `willTrackRegion`, as GRDB tells it.
    private let tracksChanges: Bool

    /// Whether a change of the observed region was seen in the current
    /// transaction. Only used in the accesses of the writer.
    private var isChanged = false

    /// Whether a statement of the current transaction started before the
    /// region was known: every event of the transaction then counts as a
    /// change (see ``observes(eventsOfKind:)``). Only used in the accesses
    /// of the writer.
    private var acceptsAllEventsOfTransaction = false

    /// Whether the observation's own fetch runs, with write access
    /// (``ValueObservation/requiresWriteAccess``): its writes are no change
    /// for the observation, which would otherwise fetch again after each of
    /// its own fetches, without end. Only the writer's queue runs the
    /// fetch, so no other write happens meanwhile. Only used in the
    /// accesses of the writer.
    private var isFetchingWithWriteAccess = false

    init(
        observation: ValueObservation<Reducer>,
        reader: some DatabaseReader,
        callbacks: ValueObserverCallbacks<Reducer.Value>)
    {
        self.tracking = observation.tracking
        self.events = observation.events
        self.requiresWriteAccess = observation.requiresWriteAccess
        // The wrapped reader of an `AnyDatabaseReader` or
        // `AnyDatabaseWriter` tells how to observe.
        let reader = unwrappedReader(reader)
        self.reader = reader
        let writer = reader as? any DatabaseWriter
        self.writer = writer
        self.tracksChanges = writer.map { !$0.configuration.readonly } ?? false
        self.pool = observation.requiresWriteAccess ? nil : reader as? DatabasePool
        if case .regionRecordedFromSelection = observation.tracking {
            self.fetchesOnWriter = true
        } else {
            self.fetchesOnWriter = false
        }
        self.callbacks = callbacks
        let reducer = observation.makeReducer()
        self.fetcher = reducer._makeFetcher()
        self.state = Locked(State(reducer: reducer))
    }

    // MARK: Start and stop

    /// Starts the observation.
    ///
    /// - Returns: The initial value, or the error that ended the
    ///   observation, when the scheduler wants it delivered before `start`
    ///   returns: the caller delivers it (it may be isolated to the main
    ///   actor, which this class cannot call). Nil otherwise.
    func start() -> Result<Reducer.Value, any Error>? {
        events.willStart?()
        let immediate = callbacks.scheduler.immediateInitialValue()
        if let writer {
            // A read-only pool has no change to observe: one value, as
            // below.
            if immediate, tracksChanges, let pool, !pool.isAccessedByCurrentThread {
                return startImmediately(from: pool)
            }
            if immediate {
                do {
                    let value = try writer.unsafeReentrantWrite { db -> Reducer.Value? in
                        // Fetched before the observer is added, in the same
                        // access: no change is missed, and the writes of a
                        // fetch that requires write access are not taken
                        // for changes of the region.
                        let value = try fetchAndReduce(db, onWriter: true)
                        db.add(transactionObserver: self)
                        return value
                    }
                    if let value {
                        events.didReceiveValue?(value)
                        return .success(value)
                    }
                } catch {
                    return failImmediately(error)
                }
            } else {
                writer.asyncWriteWithoutTransaction { db in
                    guard self.state.withLock({ $0.isActive }) else { return }
                    if self.pool == nil || self.fetchesOnWriter {
                        // As above: fetch, then observe.
                        let fetched = Result { try self.fetchAndReduce(db, onWriter: true) }
                        if case .success = fetched { db.add(transactionObserver: self) }
                        self.deliver(fetched)
                    } else {
                        // The first fetch of a pool runs on a reader, while
                        // the writer goes on: the observer must see the
                        // changes that start meanwhile.
                        db.add(transactionObserver: self)
                        self.fetchAfterChange(db)
                    }
                }
            }
        } else {
            // A snapshot never changes: one value.
            if immediate {
                do {
                    if let value = try reader.unsafeReentrantRead({ db in try fetchAndReduce(db, onWriter: false) }) {
                        events.didReceiveValue?(value)
                        return .success(value)
                    }
                } catch {
                    return failImmediately(error)
                }
            } else {
                reader.asyncRead { result in
                    self.fetch(result, onWriter: false, thenRefetch: false)
                }
            }
        }
        return nil
    }

    /// Starts the observation of a pool with an initial value read now, by
    /// a reader, as GRDB does: the start waits for no write, and the value
    /// is a committed state. The observer is added by the writer afterwards,
    /// which fetches again, with a reader, when commits happened since the
    /// initial read (compared by WAL snapshots).
    private func startImmediately(from pool: DatabasePool) -> Result<Reducer.Value, any Error>? {
        let initial: (value: Reducer.Value?, snapshot: WALSnapshot?)
        do {
            initial = try pool.read { db in
                // The read starts before the fetch, as in GRDB: what the
                // fetch itself writes with the pool is a later state, which
                // the writer sees and fetches again.
                try db.startReading()
                // The snapshot of the read; nil when SQLite has none to
                // give (an empty WAL file): the writer then fetches again.
                let snapshot = try? WALSnapshot(db)
                return (try fetchAndReduce(db, onWriter: false, regionEvent: .deferred), snapshot)
            }
        } catch {
            return failImmediately(error)
        }
        // The value is told before the region, which the writer tells.
        if let value = initial.value {
            events.didReceiveValue?(value)
        }
        // Fetching from now on: a commit before the observer is added asks
        // for no other fetch than the one below.
        state.withLock { $0.isFetching = true }
        pool.asyncWriteWithoutTransaction { db in
            guard self.state.withLock({ $0.isActive }) else {
                self.state.withLock { $0.isFetching = false }
                return
            }
            db.add(transactionObserver: self)
            if self.fetchesOnWriter {
                self.confirmStartOnWriter(db, since: initial.snapshot)
            } else {
                pool.asyncConcurrentRead { result in
                    self.fetch(result, onWriter: false, thenRefetch: true, confirmingStartSince: initial.snapshot)
                }
            }
        }
        return initial.value.map { .success($0) }
    }

    func cancel() {
        let stopsObservation = state.withLock { state -> Bool in
            guard !state.isCancelled else { return false }
            state.isCancelled = true
            return !state.isFailureDelivered
        }
        guard stopsObservation else { return }
        // As in GRDB, the observations of readers that never change (a
        // snapshot, a read-only connection) have nothing to cancel once
        // started: their cancellation is no event.
        if tracksChanges {
            events.didCancel?()
        }
        removeFromWriter()
    }

    private func removeFromWriter() {
        writer?.asyncWriteWithoutTransaction { db in
            db.remove(transactionObserver: self)
        }
    }

    func databaseWillClose() {
        state.withLock { $0.isDatabaseClosed = true }
    }

    // MARK: Transaction observer

    func attach(to inbox: RegionChangeInbox) -> DatabaseRegion? {
        state.withLock { state in
            state.regionChanges = inbox
            return state.region
        }
    }

    var indexedRegion: DatabaseRegion? {
        state.withLock { $0.region }
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        guard let region = state.withLock({ $0.region }) else {
            // The region is not known yet: the first fetch of a pool runs on
            // a reader while the writer goes on. The events of the
            // statement may arrive once the fetch has set the region, and
            // name tables that it does not hold (the content table of a
            // synchronized full-text table, for instance): until the end of
            // the transaction, every event counts as a change (see
            // `databaseDidChange(with:)`), so that none is missed. Only
            // events do: a statement that changes nothing changes nothing.
            acceptsAllEventsOfTransaction = true
            return true
        }
        return region.isModified(byEventsOfKind: eventKind)
    }

    func databaseDidChange(with event: DatabaseEvent) {
        if isFetchingWithWriteAccess { return }
        if acceptsAllEventsOfTransaction || state.withLock({ $0.region })?.isModified(by: event) ?? true {
            isChanged = true
            stopObservingDatabaseChangesUntilNextTransaction()
        }
    }

    /// The pre-update hook tells the rowid of a row before and after each
    /// change: an observation of some rows sees an UPDATE that moves a row
    /// out of them, and the deletions of `ON CONFLICT REPLACE`, which the
    /// events of ``databaseDidChange(with:)`` do not report.
    func databaseWillChange(with event: DatabasePreUpdateEvent) {
        if isFetchingWithWriteAccess { return }
        if acceptsAllEventsOfTransaction || state.withLock({ $0.region })?.isModified(by: event) ?? true {
            isChanged = true
            stopObservingDatabaseChangesUntilNextTransaction()
        }
    }

    func databaseDidChange() {
        if isFetchingWithWriteAccess { return }
        isChanged = true
    }

    func databaseDidCommit(_ db: Database) {
        acceptsAllEventsOfTransaction = false
        guard isChanged else { return }
        isChanged = false
        guard state.withLock({ $0.isActive }) else { return }
        events.databaseDidChange?()
        fetchAfterChange(db)
    }

    func databaseDidRollback(_ db: Database) {
        acceptsAllEventsOfTransaction = false
        isChanged = false
    }

    // MARK: Fetching

    /// Fetches a fresh value, from the writer's access, outside of any
    /// transaction.
    private func fetchAfterChange(_ writerDB: Database) {
        if let pool, !fetchesOnWriter {
            // One concurrent fetch at a time; a commit during a fetch asks
            // for another one when it completes.
            let startsFetch = state.withLock { state -> Bool in
                if state.isFetching {
                    state.needsRefetch = true
                    return false
                }
                state.isFetching = true
                return true
            }
            guard startsFetch else { return }
            // The read starts on the state that the commit left, before the
            // writer goes on: no change is missed.
            pool.asyncConcurrentRead { result in
                self.fetch(result, onWriter: false, thenRefetch: true)
            }
        } else {
            deliver(Result { try fetchAndReduce(writerDB, onWriter: true) })
        }
    }

    /// The first fetch of a pool's observation that ``fetchesOnWriter``,
    /// after its initial read: the writer, which just added the observer,
    /// fetches again when commits happened since the initial read (or when
    /// the read had no snapshot to compare), as GRDB does, and tells the
    /// region. No commit can happen meanwhile: this runs in the writer's
    /// access.
    private func confirmStartOnWriter(_ db: Database, since snapshot: WALSnapshot?) {
        defer {
            state.withLock { state in
                state.isFetching = false
                state.needsRefetch = false
            }
        }
        do {
            // A read transaction of the writer, silent for observers.
            let isModified = try db.readOnly {
                try db.isolated {
                    try db.startReading()
                    return try snapshot.map { try WALSnapshot(db).isNewer(than: $0) } ?? true
                }
            }
            if isModified {
                events.databaseDidChange?()
                if let value = try fetchAndReduce(db, onWriter: true, regionEvent: .always) {
                    deliver(value)
                }
            } else if tracksChanges, let region = state.withLock({ $0.region }) {
                events.willTrackRegion?(region)
            }
        } catch {
            fail(error)
        }
    }

    /// Fetches with a reader connection, and with a new read when commits
    /// happened meanwhile.
    ///
    /// - Parameter start: Set for the first fetch of a pool after the
    ///   observer is added, with the snapshot of the initial read if known:
    ///   the read fetches nothing when it sees the same state.
    private func fetch(
        _ result: Result<Database, any Error>,
        onWriter: Bool,
        thenRefetch: Bool,
        confirmingStartSince start: WALSnapshot?? = nil)
    {
        guard state.withLock({ $0.isActive }) else {
            state.withLock { $0.isFetching = false }
            return
        }
        do {
            let db = try result.get()
            if let start {
                // The first fetch of a pool after its initial read, as in
                // GRDB: the region is told now, after a new fetch when
                // commits happened since the initial read (or when the
                // initial read had no snapshot to compare), which count
                // as a change.
                if try start.map({ try WALSnapshot(db).isNewer(than: $0) }) ?? true {
                    events.databaseDidChange?()
                    if let value = try fetchAndReduce(db, onWriter: onWriter, regionEvent: .always) {
                        deliver(value)
                    }
                } else if tracksChanges, let region = state.withLock({ $0.region }) {
                    events.willTrackRegion?(region)
                }
            } else if let value = try fetchAndReduce(db, onWriter: onWriter) {
                deliver(value)
            }
        } catch {
            state.withLock { $0.isFetching = false }
            fail(error)
            return
        }
        guard thenRefetch, let pool else { return }
        let refetch = state.withLock { state -> Bool in
            if state.needsRefetch && state.isActive {
                state.needsRefetch = false
                return true
            }
            state.isFetching = false
            return false
        }
        if refetch {
            // A new read sees all the commits that asked for it.
            pool.asyncRead { result in
                self.fetch(result, onWriter: false, thenRefetch: true)
            }
        }
    }

    /// When a fetch tells its tracked region to `willTrackRegion`.
    private enum RegionEvent {
        /// When the region is new or changed.
        case whenChanged
        /// Not now: the region of the initial read of a pool is told by the
        /// first fetch after the observer is added, as GRDB tells it from
        /// the access of the writer that adds it.
        case deferred
        /// Always, before the value is reduced.
        case always
    }

    /// Fetches and reduces a value; tracks the region.
    private func fetchAndReduce(
        _ db: Database,
        onWriter: Bool,
        regionEvent: RegionEvent = .whenChanged) throws -> Reducer.Value?
    {
        events.willFetch?()
        // Fetches run one at a time: the reducer is taken out of the state,
        // so that no lock is held while user code (transforms, events) runs.
        var reducer = state.withLock { $0.reducer }
        let fetcher = self.fetcher
        let fetchValue = { () throws -> Reducer.Fetcher.Value in
            if onWriter {
                if self.requiresWriteAccess {
                    // Its own writes, and their commit, are no change.
                    self.isFetchingWithWriteAccess = true
                    defer { self.isFetchingWithWriteAccess = false }
                    return try db.inTransactionReturning(nil) { try fetcher.fetch(db) }
                }
                // No transaction: the writer's queue is serialized with all
                // writes, and an empty transaction would be notified to
                // the other observers.
                return try db.readOnly { try fetcher.fetch(db) }
            }
            return try fetcher.fetch(db)
        }

        let fetched: Reducer.Fetcher.Value
        var newRegion: DatabaseRegion?
        switch tracking {
        // Regions are tracked as GRDB tracks them: tables by the names of
        // the schema, without views (see `DatabaseRegion.observableRegion`).
        case .constantRegion(let regions):
            if state.withLock({ $0.region }) == nil {
                newRegion = try regions.reduce(into: DatabaseRegion()) { region, convertible in
                    region.formUnion(try convertible.databaseRegion(db))
                }.observableRegion(db)
            }
            fetched = try fetchValue()
        case .constantRegionRecordedFromSelection:
            if state.withLock({ $0.region }) == nil {
                let (value, region) = try db.recordingSelectedRegion(fetchValue)
                fetched = value
                newRegion = try region.observableRegion(db)
            } else {
                fetched = try fetchValue()
            }
        case .regionRecordedFromSelection:
            let (value, recordedRegion) = try db.recordingSelectedRegion(fetchValue)
            fetched = value
            let region = try recordedRegion.observableRegion(db)
            if state.withLock({ $0.region }) != region {
                newRegion = region
            }
        }
        if let region = newRegion {
            let regionChanges = state.withLock { state in
                state.region = region
                return state.regionChanges
            }
            regionChanges?.post(self)
        }
        if tracksChanges {
            switch regionEvent {
            case .whenChanged:
                if let newRegion { events.willTrackRegion?(newRegion) }
            case .deferred:
                break
            case .always:
                if let region = state.withLock({ $0.region }) { events.willTrackRegion?(region) }
            }
        }
        let value = try reducer._value(fetched)
        state.withLock { $0.reducer = reducer }
        return value
    }

    // MARK: Delivery

    /// Delivers a value with the scheduler. Every fetched value is
    /// delivered, in order: on a database queue, one value per transaction
    /// that changed the region (a pool may coalesce transactions into one
    /// fetch, see ``fetchAfterChange(_:)``).
    ///
    /// The `didReceiveValue` event runs when the value is fetched, before
    /// it is scheduled: events keep the order of the database accesses.
    private func deliver(_ value: Reducer.Value) {
        events.didReceiveValue?(value)
        schedule(.success(value))
    }

    /// Delivers the value of a fetch, if any, or ends the observation with
    /// its error.
    private func deliver(_ fetched: Result<Reducer.Value?, any Error>) {
        switch fetched {
        case .success(let value?): deliver(value)
        case .success(nil): break
        case .failure(let error): fail(error)
        }
    }

    /// Ends the observation with an error, unless it is cancelled or its
    /// database is closed.
    private func fail(_ error: any Error) {
        guard complete() else { return }
        schedule(.failure(error))
    }

    /// Ends the observation with an error that the caller of ``start()``
    /// delivers.
    private func failImmediately(_ error: any Error) -> Result<Reducer.Value, any Error>? {
        guard complete() else { return nil }
        state.withLock { $0.isFailureDelivered = true }
        events.didFail?(error)
        return .failure(error)
    }

    /// Marks the observation completed; false when it was not active.
    private func complete() -> Bool {
        let completes = state.withLock { state -> Bool in
            guard state.isActive else { return false }
            state.isCompleted = true
            return true
        }
        if completes { removeFromWriter() }
        return completes
    }

    /// Schedules the delivery of a value or an error, unless the
    /// observation is cancelled by then.
    private func schedule(_ result: Result<Reducer.Value, any Error>) {
        switch callbacks {
        case let .sendable(scheduler, onError, onChange):
            scheduler.schedule {
                guard self.willNotify(result) else { return }
                switch result {
                case .success(let value):
                    onChange(value)
                case .failure(let error):
                    self.events.didFail?(error)
                    onError(error)
                }
            }
        case let .mainActor(scheduler, _, _):
            scheduler.scheduleOnMainActor {
                self.notifyOnMainActor(result)
            }
        }
    }

    /// Whether a scheduled value or error is delivered: not after a
    /// cancellation. An error that is delivered ends the observation.
    private func willNotify(_ result: Result<Reducer.Value, any Error>) -> Bool {
        state.withLock { state in
            guard !state.isCancelled else { return false }
            if case .failure = result { state.isFailureDelivered = true }
            return true
        }
    }

    @MainActor
    private func notifyOnMainActor(_ result: Result<Reducer.Value, any Error>) {
        guard case let .mainActor(_, onError, onChange) = callbacks, willNotify(result) else { return }
        switch result {
        case .success(let value):
            onChange(value)
        case .failure(let error):
            events.didFail?(error)
            onError(error)
        }
    }
}

/// The closures of a ``ValueObserver``, and the scheduler that runs them.
enum ValueObserverCallbacks<Value> {
    /// Sendable closures, run by any scheduler.
    case sendable(
        any ValueObservationScheduler,
        onError: @Sendable (any Error) -> Void,
        onChange: @Sendable (Value) -> Void)
    /// Main-actor closures, run by a main-actor scheduler.
    case mainActor(
        any ValueObservationMainActorScheduler,
        onError: @MainActor (any Error) -> Void,
        onChange: @MainActor (Value) -> Void)

    var scheduler: any ValueObservationScheduler {
        switch self {
        case .sendable(let scheduler, _, _): scheduler
        case .mainActor(let scheduler, _, _): scheduler
        }
    }
}
