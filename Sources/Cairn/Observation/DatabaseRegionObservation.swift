/// Tells each transaction that changed a region of the database, right
/// after it committed, on the writer's queue.
///
/// Unlike ``ValueObservation``, which may coalesce transactions, a region
/// observation is told about every transaction that changes its region:
///
/// ```swift
/// let observation = DatabaseRegionObservation(tracking: Player.all())
/// let cancellable = observation.start(
///     in: dbQueue,
///     onError: { error in print(error) },
///     onChange: { (db: Database) in
///         print("Players have changed.")
///     })
///
/// try dbQueue.write { db in
///     try Player(name: "Arthur").insert(db)
/// } // Prints "Players have changed."
/// ```
///
/// The `onChange` function runs on the writer's queue, serialized with all
/// writes, right after the commit: it can read the committed state, and
/// write (its writes start a new transaction).
public struct DatabaseRegionObservation: Sendable {
    /// What the observation tracks.
    let regions: [AnyDatabaseRegionConvertible]

    /// Observes the given regions: tables, requests…
    ///
    /// ```swift
    /// let observation = DatabaseRegionObservation(tracking: Player.all(), Table("team"))
    /// ```
    public init(tracking regions: any DatabaseRegionConvertible...) {
        self.init(tracking: regions)
    }

    /// Observes the given regions: tables, requests…
    public init(tracking regions: [any DatabaseRegionConvertible]) {
        self.regions = regions.map { AnyDatabaseRegionConvertible($0) }
    }

    /// Observes the given regions: tables, requests…
    public static func tracking(_ regions: any DatabaseRegionConvertible...) -> DatabaseRegionObservation {
        DatabaseRegionObservation(tracking: regions)
    }

    /// Starts the observation.
    ///
    /// The region is computed before `start` returns: transactions that
    /// commit after it are notified.
    ///
    /// - Parameters:
    ///   - writer: A database queue or pool.
    ///   - onError: Called when the region cannot be computed (a request
    ///     that cannot be prepared, for instance).
    ///   - onChange: Called on the writer's queue after each transaction that
    ///     changed the region, with the writer connection.
    /// - Returns: A cancellable: the observation stops when it is cancelled
    ///   or deallocated.
    public func start(
        in writer: some DatabaseWriter,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Database) -> Void) -> AnyDatabaseCancellable
    {
        // As in GRDB, `onChange` is never called once the cancellable is
        // cancelled, even by a transaction that commits before the
        // observer is removed from the writer.
        let isCancelled = Locked(false)
        let observer = RegionObserver(onChange: { db in
            guard !isCancelled.withLock({ $0 }) else { return }
            onChange(db)
        })
        let box = UncheckedSendableBox(observer)
        do {
            try writer.unsafeReentrantWrite { db in
                // Tables by the names of the schema, without views, as in
                // GRDB (see `DatabaseRegion.observableRegion`).
                observer.region = try regions.reduce(into: DatabaseRegion()) { region, convertible in
                    region.formUnion(try convertible.databaseRegion(db))
                }.observableRegion(db)
                db.add(transactionObserver: observer)
            }
        } catch {
            onError(error)
        }
        return AnyDatabaseCancellable {
            isCancelled.withLock { $0 = true }
            guard let observer = box.take() else { return }
            writer.asyncWriteWithoutTransaction { db in
                db.remove(transactionObserver: observer)
            }
        }
    }

    /// The transactions that change the region, as an async sequence: each
    /// element comes after a commit that changed the region.
    ///
    /// ```swift
    /// for try await _ in DatabaseRegionObservation(tracking: Table("player")).changes(in: dbQueue) {
    ///     print("Players have changed.")
    /// }
    /// ```
    ///
    /// Several commits may give one element when the loop is slower than the
    /// writes. The observation stops when the iteration stops.
    public func changes(in writer: some DatabaseWriter) -> AsyncThrowingStream<Void, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Void, any Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let cancellable = start(
            in: writer,
            onError: { error in continuation.finish(throwing: error) },
            onChange: { _ in continuation.yield(()) })
        continuation.onTermination = { _ in cancellable.cancel() }
        return stream
    }
}

/// The transaction observer of a ``DatabaseRegionObservation``. Only used on
/// the writer's queue.
private final class RegionObserver: RollbackResettingObserver, @unchecked Sendable {
    // Unchecked Sendable: created, used and removed on the writer's queue
    // only; the cancellable hands it to the writer's queue.
    var region = DatabaseRegion()
    let onChange: @Sendable (Database) -> Void
    private var isChanged = false

    init(onChange: @escaping @Sendable (Database) -> Void) {
        self.onChange = onChange
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        region.isModified(byEventsOfKind: eventKind)
    }

    func databaseDidChange(with event: DatabaseEvent) {
        if region.isModified(by: event) {
            isChanged = true
            stopObservingDatabaseChangesUntilNextTransaction()
        }
    }

    /// The pre-update hook tells the rowid of a row before and after each
    /// change (see `ValueObserver.databaseWillChange(with:)`).
    func databaseWillChange(with event: DatabasePreUpdateEvent) {
        if region.isModified(by: event) {
            isChanged = true
            stopObservingDatabaseChangesUntilNextTransaction()
        }
    }

    func databaseDidChange() {
        isChanged = true
    }

    func databaseDidCommit(_ db: Database) {
        guard isChanged else { return }
        isChanged = false
        onChange(db)
    }

    func databaseDidRollback(_ db: Database) {
        isChanged = false
    }
}
