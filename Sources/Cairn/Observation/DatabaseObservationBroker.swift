import Foundation

/// A registered transaction observer.
final class TransactionObservation {
    private weak var weakObserver: (any TransactionObserver)?
    private var strongObserver: (any TransactionObserver)?
    let extent: TransactionObservationExtent
    let identifier: ObjectIdentifier
    /// Set by `stopObservingDatabaseChangesUntilNextTransaction()`.
    var isDisabled = false
    /// Whether the observer received an event during the current statement.
    var receivedStatementEvent = false
    /// The order of registration: observers hear of the end of a
    /// transaction in this order.
    var sequence = 0
    /// Whether the observation is indexed by region and heard of a change
    /// in the current transaction (see ``ObservationRegionIndex``).
    var isTouched = false

    init(observer: any TransactionObserver, extent: TransactionObservationExtent) {
        self.extent = extent
        self.identifier = ObjectIdentifier(observer)
        switch extent {
        case .observerLifetime: weakObserver = observer
        case .nextTransaction, .databaseLifetime: strongObserver = observer
        }
    }

    /// The observer; nil when a weakly held observer was deallocated.
    var observer: (any TransactionObserver)? {
        strongObserver ?? weakObserver
    }

    /// The events of a statement that `observer`, the observer of this
    /// observation, wants.
    ///
    /// When the observer wants all of them, the result shares the storage
    /// of `eventKinds`: nothing is allocated.
    func observedEventKinds(
        of observer: any TransactionObserver,
        among eventKinds: [DatabaseEventKind]) -> [DatabaseEventKind]
    {
        if eventKinds.count == 1 {
            // Most statements change one table in one way.
            return observer.observes(eventsOfKind: eventKinds[0]) ? eventKinds : []
        }
        // Nil while every kind so far is observed.
        var observed: [DatabaseEventKind]?
        for (index, eventKind) in eventKinds.enumerated() {
            if observer.observes(eventsOfKind: eventKind) {
                observed?.append(eventKind)
            } else if observed == nil {
                observed = Array(eventKinds[..<index])
            }
        }
        return observed ?? eventKinds
    }
}

/// An event buffered inside a savepoint.
private enum BufferedEvent {
    case didChange(DatabaseEvent)
    case willChange(DatabasePreUpdateEvent)
    /// A change that SQLite reports on other tables (see
    /// `statementDidExecute`).
    case didChangeUnspecified
}

/// Tells the transaction observers of a connection about its changes,
/// commits and rollbacks, from SQLite's hooks.
///
/// The commit and rollback hooks are installed while there are observers.
/// The hooks of changed rows (update and pre-update hooks) are installed
/// only during the statements whose changes an observer wants to hear about.
///
/// Value observations with a known region are indexed by table and rowid
/// (``ObservationRegionIndex``): a changed row reaches the observations of
/// its table's rows and of that row, and the end of a transaction reaches
/// those that heard of a change, so that a commit costs the same with ten or
/// ten thousand observations of other rows. The other observers hear of
/// every statement and transaction, in the order of registration.
///
/// The broker is owned by its connection, which gives itself to each call
/// that needs it: the broker keeps no reference to it. It is only used on
/// the thread of the current access of its connection: the state that each
/// statement reads has unchecked exclusivity.
final class DatabaseObservationBroker: StatementHooks, CCallbackContext {
    /// The observations, and those that want the events of the current
    /// statement (see ``ObservationLists``).
    ///
    /// Unchecked exclusivity, for the lists that each statement and each
    /// changed row reads: checked accesses cost 900 instructions per row of
    /// InsertBenchmark "6a" (an observer of pre-update events). Loops
    /// iterate a copy of a list, so that no access is open while an
    /// observer runs (and adds or removes observers).
    @exclusivity(unchecked) private var lists = ObservationLists()

    /// The observations of the broker, as each statement reads them.
    private struct ObservationLists {
        var observations: [TransactionObservation] = []

        /// The observations that want the events of the current statement,
        /// with the kinds of events they want.
        var statementObservations: [(observation: TransactionObservation, eventKinds: [DatabaseEventKind])] = []

        /// `sqlite3_total_changes64` when the current statement started,
        /// while `statementObservations` is not empty.
        var totalChangesBeforeStatement: Int64 = 0

        /// Open savepoints (lowercased names), each with the number of
        /// events buffered when it began. Here, since each changed row
        /// reads it (whether events are buffered): a checked access costs
        /// 76 instructions per read.
        var savepoints: [(name: String, bufferCount: Int)] = []

        /// Empties `statementObservations`, keeping its storage for the
        /// next statement. One element at a time: `removeAll(keepingCapacity:)`
        /// goes through the generic `replaceSubrange`, about 200
        /// instructions per statement with one observation (InsertBenchmark
        /// "6a").
        mutating func clearStatementObservations() {
            while statementObservations.popLast() != nil { }
            if !indexedStatementTables.isEmpty { indexedStatementTables.removeAll(keepingCapacity: true) }
        }

        /// The tables that the current statement changes and that indexed
        /// observations observe (see ``ObservationRegionIndex``).
        var indexedStatementTables: [IndexedStatementTable] = []
    }

    /// A table that the current statement changes, and that indexed
    /// observations observe.
    private struct IndexedStatementTable {
        /// The key of the table in the index.
        var key: String
        /// Its name, compared in place with SQLite's name of a changed table.
        var name: String
        /// The kinds of events of the statement on the table.
        var eventKinds: [DatabaseEventKind]
        /// Whether SQLite reported a changed row of the table.
        var receivedEvent = false

        /// The statement's event kind that a change of kind `kind` is; for
        /// a deletion that the statement does not declare (the deletion of
        /// a row that `ON CONFLICT REPLACE` replaces), the insertion or the
        /// update that caused it, when `includingReplacedRows`.
        func statementEventKind(for kind: DatabaseEvent.Kind, includingReplacedRows: Bool) -> DatabaseEventKind? {
            var replacing: DatabaseEventKind?
            for eventKind in eventKinds {
                switch (eventKind, kind) {
                case (.insert, .insert), (.delete, .delete), (.update, .update):
                    return eventKind
                case (.insert, .delete), (.update, .delete):
                    if includingReplacedRows && replacing == nil { replacing = eventKind }
                default:
                    break
                }
            }
            return replacing
        }
    }

    /// The observations whose observer is a ``RegionIndexedObserver`` with a
    /// known region, by table and rowid. They are not in
    /// `lists.observations`: a statement, a changed row and a commit only
    /// reach those that observe its tables and rows.
    private var regionIndex = ObservationRegionIndex()

    /// Where region-indexed observers post the changes of their region.
    private let regionChanges = RegionChangeInbox()

    /// Whether an observer was given `regionChanges`: the inbox is read
    /// before each statement from then on.
    private var readsRegionChanges = false

    /// The indexed observations that heard of a change in the current
    /// transaction: they, and no other indexed observation, hear of its end.
    private var touchedObservations: [TransactionObservation] = []

    /// The sequence number of the next observation.
    private var nextSequence = 0

    /// The events of the open savepoints, delivered when the outermost
    /// savepoint is released, dropped when savepoints roll back.
    private var bufferedEvents: [(observation: TransactionObservation, event: BufferedEvent)] = []

    /// How the current transaction ended, as the hooks told; notified after
    /// the statement that ended it.
    private var transactionCompletion: Database.TransactionCompletion?

    /// Whether an observer prevented the commit of the current transaction
    /// (``transactionWillCommit()``).
    private var commitWasRefused = false

    /// Where the error of an observer that prevented a commit goes: the
    /// connection's channel for the errors of callbacks, which the statement
    /// that was committing throws.
    private let callbackErrors: CallbackErrorStash

    /// Creates the broker of a connection.
    ///
    /// - Parameter callbackErrors: The connection's channel for the errors
    ///   of callbacks.
    init(callbackErrors: CallbackErrorStash) {
        self.callbackErrors = callbackErrors
    }

    private var transactionHooksInstalled = false
    /// Whether the update and pre-update hooks are installed: from a
    /// statement whose events an observer wants, until the next statement
    /// whose events no observer wants, or until no observer is left.
    private var rowHooksInstalled = false

    // `isActive` (see ``StatementHooks``) tells whether some observer is
    // registered: the statements of a connection without observers skip
    // the broker.

    /// The scope of the event of the current hook call: events that
    /// observers receive read SQLite's memory in place, and stop the
    /// program if they are used after the call (see ``ScopeCell``).
    let eventCell = ScopeCell.make()

    deinit {
        eventCell.release()
    }

    // MARK: Observers

    func add(_ observer: some TransactionObserver, extent: TransactionObservationExtent, in database: Database) {
        let observation = TransactionObservation(observer: observer, extent: extent)
        observation.sequence = nextSequence
        nextSequence += 1
        if extent != .nextTransaction, let indexed = observer as? any RegionIndexedObserver {
            readsRegionChanges = true
            if let region = indexed.attach(to: regionChanges), !region.isFullDatabase {
                regionIndex.insert(observation, region: region)
                updateHooks(database)
                return
            }
        }
        lists.observations.append(observation)
        updateHooks(database)
    }

    func remove(_ observer: some TransactionObserver, in database: Database) {
        let identifier = ObjectIdentifier(observer)
        regionIndex.remove(identifier)
        lists.observations.removeAll { $0.identifier == identifier }
        lists.statementObservations.removeAll { $0.observation.identifier == identifier }
        bufferedEvents.removeAll { $0.observation.identifier == identifier }
        updateHooks(database)
    }

    func disableUntilNextTransaction(_ observer: some TransactionObserver) {
        let identifier = ObjectIdentifier(observer)
        if let observation = regionIndex.observation(identifier) {
            observation.isDisabled = true
            touch(observation)
            return
        }
        for observation in lists.observations where observation.identifier == identifier {
            observation.isDisabled = true
        }
    }

    /// Removes the observers that were deallocated.
    private func removeDeallocatedObservers() {
        lists.observations.removeAll { $0.observer == nil }
    }

    /// Installs the commit and rollback hooks when there are observers, and
    /// removes them, with the hooks of changed rows, when there are none.
    ///
    /// - Parameter sweepingDeallocatedObservers: Whether to remove the
    ///   observers that were deallocated first (a weak load per observer).
    private func updateHooks(_ database: Database, sweepingDeallocatedObservers: Bool = true) {
        if sweepingDeallocatedObservers { removeDeallocatedObservers() }
        isActive = !lists.observations.isEmpty || !regionIndex.isEmpty
        if !isActive { setRowHooks(installed: false, database) }
        guard let connection = database.sqliteConnection else { return }
        if isActive && !transactionHooksInstalled {
            let context = unretainedCContext()
            sqlite3_commit_hook(connection, brokerCommitHook, context)
            sqlite3_rollback_hook(connection, brokerRollbackHook, context)
            transactionHooksInstalled = true
        } else if !isActive && transactionHooksInstalled {
            sqlite3_commit_hook(connection, nil, nil)
            sqlite3_rollback_hook(connection, nil, nil)
            transactionHooksInstalled = false
        }
    }

    private func setRowHooks(installed: Bool, _ database: Database) {
        guard installed != rowHooksInstalled, let connection = database.sqliteConnection else { return }
        // The pre-update hook is shared with the sessions of the session
        // extension (see `Database.setPreUpdateObserver`).
        if installed {
            let context = unretainedCContext()
            sqlite3_update_hook(connection, brokerUpdateHook, context)
            database.setPreUpdateObserver(brokerPreUpdateHook, context: context)
        } else {
            sqlite3_update_hook(connection, nil, nil)
            database.setPreUpdateObserver(nil, context: nil)
        }
        rowHooksInstalled = installed
    }

    /// Called when the connection closes: strongly held observers are
    /// released.
    override func databaseWillClose(_ database: Database) {
        for observation in lists.observations + regionIndex.observations {
            (observation.observer as? any DatabaseClosingObserver)?.databaseWillClose()
        }
        setRowHooks(installed: false, database)
        lists.observations.removeAll()
        regionIndex.removeAll()
        touchedObservations.removeAll()
        lists.statementObservations.removeAll()
        bufferedEvents.removeAll()
        lists.savepoints.removeAll()
        updateHooks(database)
    }

    // MARK: Statements

    override func statementWillExecute(_ statement: Statement, in database: Database) {
        let eventKinds = statement.databaseEventKinds
        // The storage of the array is kept from one statement to the next.
        lists.clearStatementObservations()
        if readsRegionChanges { applyRegionChanges() }
        if !eventKinds.isEmpty {
            if !regionIndex.isEmpty { findIndexedStatementTables(eventKinds) }
            for observation in lists.observations {
                guard !observation.isDisabled, let observer = observation.observer else { continue }
                let kinds = observation.observedEventKinds(of: observer, among: eventKinds)
                if !kinds.isEmpty {
                    observation.receivedStatementEvent = false
                    lists.statementObservations.append((observation, kinds))
                }
            }
            if !lists.statementObservations.isEmpty || !lists.indexedStatementTables.isEmpty {
                lists.totalChangesBeforeStatement = sqlite3_total_changes64(database.sqliteConnection)
            }
        }
        setRowHooks(installed: !lists.statementObservations.isEmpty || !lists.indexedStatementTables.isEmpty, database)
    }

    /// Fills `lists.indexedStatementTables` with the tables of the
    /// statement's events that indexed observations observe.
    private func findIndexedStatementTables(_ eventKinds: [DatabaseEventKind]) {
        for eventKind in eventKinds {
            let key = DatabaseRegion.tableKey(eventKind.tableName)
            if let index = lists.indexedStatementTables.firstIndex(where: { $0.key == key }) {
                lists.indexedStatementTables[index].eventKinds.append(eventKind)
            } else if let entry = regionIndex.tables[key] {
                lists.indexedStatementTables.append(IndexedStatementTable(key: key, name: entry.name, eventKinds: [eventKind]))
            }
        }
    }

    /// Moves the observers whose region changed in the index, or out of it
    /// (an unknown region, or the full database).
    private func applyRegionChanges() {
        let changed = regionChanges.take()
        guard !changed.isEmpty else { return }
        var outsideOfIndex = Set<ObjectIdentifier>()
        for identifier in changed {
            guard let observation = regionIndex.observation(identifier) else {
                outsideOfIndex.insert(identifier)
                continue
            }
            if let region = (observation.observer as? any RegionIndexedObserver)?.indexedRegion, !region.isFullDatabase {
                regionIndex.insert(observation, region: region)
            } else {
                // Deallocated, or observing everything: with the others.
                regionIndex.remove(identifier)
                if observation.observer != nil {
                    lists.observations.append(observation)
                    lists.observations.sort { $0.sequence < $1.sequence }
                }
            }
        }
        guard !outsideOfIndex.isEmpty else { return }
        lists.observations.removeAll { observation in
            guard outsideOfIndex.contains(observation.identifier),
                  let region = (observation.observer as? any RegionIndexedObserver)?.indexedRegion,
                  !region.isFullDatabase
            else { return false }
            regionIndex.insert(observation, region: region)
            // It may have heard of changes of the current transaction.
            touch(observation)
            return true
        }
    }

    /// Records that an indexed observation heard of a change in the current
    /// transaction: it will hear of its end.
    private func touch(_ observation: TransactionObservation) {
        guard !observation.isTouched else { return }
        observation.isTouched = true
        touchedObservations.append(observation)
    }

    override func statementDidExecute(_ statement: Statement, in database: Database) throws {
        // The hooks of changed rows stay installed for the next statement,
        // which removes them if no observer wants its events (installing
        // and removing them cost 170 instructions per statement of
        // InsertBenchmark "6a"). Until then they find no observation.
        if !lists.statementObservations.isEmpty || !lists.indexedStatementTables.isEmpty {
            notifyUnreportedChanges(database)
        }
        lists.clearStatementObservations()
        // The error of an observer that refused the commit of an empty
        // transaction.
        var refusal: (any Error)?
        switch statement.transactionEffect {
        case .beginSavepoint(let name)?:
            lists.savepoints.append((name, bufferedEvents.count))
        case .releaseSavepoint(let name)?:
            if let index = lists.savepoints.lastIndex(where: { $0.name == name }) {
                lists.savepoints.removeSubrange(index...)
            }
            if lists.savepoints.isEmpty {
                deliverBufferedEvents()
                // The release of the savepoint that began the transaction
                // commits it; an empty one (nothing left to write after a
                // ROLLBACK TO) does not call the commit hook.
                if transactionCompletion == nil, !database.isReadOnlyAccess,
                   let connection = database.sqliteConnection, sqlite3_get_autocommit(connection) != 0
                {
                    refusal = emptyTransactionWillCommit()
                }
            }
        case .rollbackSavepoint(let name)?:
            if let index = lists.savepoints.lastIndex(where: { $0.name == name }) {
                bufferedEvents.removeSubrange(lists.savepoints[index].bufferCount...)
                lists.savepoints.removeSubrange((index + 1)...)
            }
        case .commitTransaction?:
            // An empty transaction does not call the commit hook, which
            // would have ended the savepoints that began it (`SAVEPOINT s;
            // COMMIT`): they end here, or the events of the next
            // transactions would wait for a later commit. The transaction
            // of a read-only access (a `read`) is not told.
            if !lists.savepoints.isEmpty {
                deliverBufferedEvents()
                lists.savepoints.removeAll()
            }
            if transactionCompletion == nil && !database.isReadOnlyAccess {
                refusal = emptyTransactionWillCommit()
            }
        case .rollbackTransaction?:
            bufferedEvents.removeAll()
            lists.savepoints.removeAll()
            if transactionCompletion == nil && !database.isReadOnlyAccess { transactionCompletion = .rollback }
        case .beginTransaction?, nil:
            break
        }
        notifyTransactionCompletion(database)
        if let refusal { throw refusal }
    }

    /// Asks the observers whether an empty transaction may commit, and
    /// returns the error of the observer that refused, if any.
    ///
    /// SQLite calls no commit hook for a transaction that wrote nothing
    /// (`BEGIN; COMMIT`, `SAVEPOINT s; RELEASE s`), although the code
    /// committed a transaction. As GRDB does, the observers hear of it as
    /// of any transaction: `databaseWillCommit()`, then `databaseDidCommit`,
    /// or `databaseDidRollback` after an observer threw, and the statement
    /// that committed throws its error.
    private func emptyTransactionWillCommit() -> (any Error)? {
        if let refusal = firstCommitRefusal() {
            transactionCompletion = .rollback
            return refusal
        }
        transactionCompletion = .commit
        return nil
    }

    /// Calls `databaseWillCommit()` of the observers, in order, until one
    /// throws, and returns its error; nil when all accept the commit.
    private func firstCommitRefusal() -> (any Error)? {
        for observation in lists.observations {
            guard let observer = observation.observer else { continue }
            do {
                try observer.databaseWillCommit()
            } catch {
                return error
            }
        }
        return nil
    }

    /// Tells the observations that wanted the changes of the statement, but
    /// received no event, that the database changed in an unspecified way,
    /// if the statement changed rows.
    ///
    /// SQLite reports the changes of a virtual table on the tables that
    /// store it: an INSERT into an FTS table changes its shadow tables
    /// (`document_content`…), and the update hook never names the virtual
    /// table that the observed region holds. The observer may then hear of
    /// a change that did not touch its region (a trigger that changed
    /// other tables): observers may be told of more changes than happened,
    /// never of fewer.
    private func notifyUnreportedChanges(_ database: Database) {
        // Usually every observation received an event: nothing to do.
        guard lists.statementObservations.contains(where: { !$0.observation.receivedStatementEvent })
                || lists.indexedStatementTables.contains(where: { !$0.receivedEvent }),
              sqlite3_total_changes64(database.sqliteConnection) != lists.totalChangesBeforeStatement
        else { return }
        // Observers may remove observers: iterate a copy.
        let entries = lists.statementObservations
        for (observation, _) in entries where !observation.receivedStatementEvent && !observation.isDisabled {
            notifyUnspecifiedChange(observation)
        }
        // The indexed observations of a table of which no row was reported
        // (a virtual table), that observe the statement's changes of it.
        let tables = lists.indexedStatementTables
        for table in tables where !table.receivedEvent {
            for observation in regionIndex.tables[table.key]?.allObservations ?? [] where !observation.isDisabled {
                guard let observer = observation.observer,
                      table.eventKinds.contains(where: { observer.observes(eventsOfKind: $0) })
                else { continue }
                touch(observation)
                notifyUnspecifiedChange(observation)
            }
        }
    }

    /// Tells an observation that the database changed in an unspecified
    /// way, now or at the release of the open savepoints.
    private func notifyUnspecifiedChange(_ observation: TransactionObservation) {
        if !lists.savepoints.isEmpty {
            bufferedEvents.append((observation, .didChangeUnspecified))
        } else if let observer = observation.observer {
            withCurrentBroker { observer.databaseDidChange() }
        }
    }

    /// Called after a statement failed.
    ///
    /// - Returns: The error of an observer that prevented a commit, which
    ///   the statement must throw.
    override func statementDidFail(_ statement: Statement, in database: Database) {
        lists.statementObservations.removeAll()
        lists.indexedStatementTables.removeAll()
        // A RELEASE whose commit an observer prevented rolled the
        // transaction back, but SQLite then reports it open again (unlike a
        // prevented COMMIT): it is ended here, so that the connection is
        // outside of any transaction, and observers hear of one rollback,
        // not of another one at the next ROLLBACK.
        if case .releaseSavepoint? = statement.transactionEffect, transactionCompletion == .rollback,
           let connection = database.sqliteConnection, sqlite3_get_autocommit(connection) == 0
        {
            sqlite3_exec(connection, "ROLLBACK", nil, nil, nil)
            bufferedEvents.removeAll()
            lists.savepoints.removeAll()
        }
        // As in GRDB, a transaction that SQLite rolled back because a
        // statement failed (the implicit transaction of a failed INSERT,
        // or `INSERT OR ROLLBACK`) is not told to the observers of the
        // application: only a rollback that an observer caused is.
        let isSilent = transactionCompletion == .rollback && !commitWasRefused
        notifyTransactionCompletion(database, silentForApplicationObservers: isSilent)
    }

    // MARK: Hooks

    /// The commit hook: delivers buffered events, then asks observers
    /// whether the transaction may commit.
    ///
    /// - Returns: True to turn the commit into a rollback.
    func transactionWillCommit() -> Bool {
        deliverBufferedEvents()
        lists.savepoints.removeAll()
        if let refusal = firstCommitRefusal() {
            callbackErrors.record(refusal, disposition: .asIs)
            commitWasRefused = true
            return true
        }
        transactionCompletion = .commit
        return false
    }

    func transactionDidRollback() {
        bufferedEvents.removeAll()
        lists.savepoints.removeAll()
        transactionCompletion = .rollback
    }

    func databaseDidChange(
        kind: DatabaseEvent.Kind, rowID: Int64,
        databaseName: UnsafePointer<CChar>, tableName: UnsafePointer<CChar>)
    {
        // The event is valid during this call only.
        defer { eventCell.endScope() }
        let event = DatabaseEvent(
            kind: kind, rowID: rowID, databaseName: databaseName, tableName: tableName, scope: eventCell.token)
        let isBuffering = !lists.savepoints.isEmpty
        for (observation, eventKinds) in lists.statementObservations where !observation.isDisabled {
            guard Self.matches(event.kind, event.hasTableName, eventKinds) else { continue }
            observation.receivedStatementEvent = true
            if isBuffering {
                bufferedEvents.append((observation, .didChange(event.copy())))
            } else if let observer = observation.observer {
                withCurrentBroker { observer.databaseDidChange(with: event) }
            }
        }
        if !lists.indexedStatementTables.isEmpty {
            offerToIndexedObservations(event, tableName: tableName, isBuffering: isBuffering)
        }
    }

    /// Offers a changed row to the indexed observations of its table's
    /// rows and of the row.
    private func offerToIndexedObservations(_ event: DatabaseEvent, tableName: UnsafePointer<CChar>, isBuffering: Bool) {
        for tableIndex in lists.indexedStatementTables.indices
        where lists.indexedStatementTables[tableIndex].name.withCString({ sqlite3_stricmp(tableName, $0) }) == 0 {
            lists.indexedStatementTables[tableIndex].receivedEvent = true
            let table = lists.indexedStatementTables[tableIndex]
            guard let eventKind = table.statementEventKind(for: event.kind, includingReplacedRows: false),
                  let entry = regionIndex.tables[table.key]
            else { continue }
            for observation in entry.observations(ofRow: event.rowID) where !observation.isDisabled {
                guard let observer = observation.observer, observer.observes(eventsOfKind: eventKind) else { continue }
                touch(observation)
                if isBuffering {
                    bufferedEvents.append((observation, .didChange(event.copy())))
                } else {
                    withCurrentBroker { observer.databaseDidChange(with: event) }
                }
            }
        }
    }

    /// Called by the pre-update hook: the event is built only when an
    /// observer wants it.
    func databaseWillChange(
        connection: SQLiteConnection, kind: DatabaseEvent.Kind,
        databaseName: UnsafePointer<CChar>, tableName: UnsafePointer<CChar>,
        initialRowID: Int64, finalRowID: Int64)
    {
        // The event is valid during this call only.
        defer { eventCell.endScope() }
        let isBuffering = !lists.savepoints.isEmpty
        var event: DatabasePreUpdateEvent?
        // A deletion that the statement does not declare is the deletion
        // of a row that an `ON CONFLICT REPLACE` clause replaces, during an
        // insertion or an update of the table: the observers of those see
        // it (the update hook does not report it).
        let hasTableName: (String) -> Bool = { $0.withCString { sqlite3_stricmp(tableName, $0) } == 0 }
        for (observation, eventKinds) in lists.statementObservations where !observation.isDisabled {
            guard Self.matches(kind, hasTableName, eventKinds)
                || (kind == .delete
                    && (Self.matches(.insert, hasTableName, eventKinds) || Self.matches(.update, hasTableName, eventKinds)))
            else { continue }
            observation.receivedStatementEvent = true
            let currentEvent = event ?? DatabasePreUpdateEvent(
                connection: connection, kind: kind,
                databaseName: databaseName, tableName: tableName,
                initialRowID: initialRowID, finalRowID: finalRowID, scope: eventCell.token)
            event = currentEvent
            if isBuffering {
                bufferedEvents.append((observation, .willChange(currentEvent.copy())))
            } else if let observer = observation.observer {
                withCurrentBroker { observer.databaseWillChange(with: currentEvent) }
            }
        }
        guard !lists.indexedStatementTables.isEmpty else { return }
        for tableIndex in lists.indexedStatementTables.indices
        where lists.indexedStatementTables[tableIndex].name.withCString({ sqlite3_stricmp(tableName, $0) }) == 0 {
            lists.indexedStatementTables[tableIndex].receivedEvent = true
            let table = lists.indexedStatementTables[tableIndex]
            guard let eventKind = table.statementEventKind(for: kind, includingReplacedRows: true),
                  let entry = regionIndex.tables[table.key]
            else { continue }
            // The observations of the row before and after the change, each
            // once (an insertion has no row before, a deletion none after).
            var observations = entry.observations(ofRow: kind == .insert ? finalRowID : initialRowID)
            if kind == .update, finalRowID != initialRowID, let ofFinalRow = entry.rows[finalRowID] {
                observations += ofFinalRow.filter { observation in !observations.contains { $0 === observation } }
            }
            for observation in observations where !observation.isDisabled {
                guard let observer = observation.observer, observer.observes(eventsOfKind: eventKind) else { continue }
                touch(observation)
                let currentEvent = event ?? DatabasePreUpdateEvent(
                    connection: connection, kind: kind,
                    databaseName: databaseName, tableName: tableName,
                    initialRowID: initialRowID, finalRowID: finalRowID, scope: eventCell.token)
                event = currentEvent
                if isBuffering {
                    bufferedEvents.append((observation, .willChange(currentEvent.copy())))
                } else {
                    withCurrentBroker { observer.databaseWillChange(with: currentEvent) }
                }
            }
        }
    }

    /// Whether a change of kind `kind` on a table is one of `eventKinds`.
    private static func matches(
        _ kind: DatabaseEvent.Kind,
        _ hasTableName: (String) -> Bool,
        _ eventKinds: [DatabaseEventKind]) -> Bool
    {
        for eventKind in eventKinds {
            let sameKind = switch eventKind {
            case .insert: kind == .insert
            case .delete: kind == .delete
            case .update: kind == .update
            }
            if sameKind && hasTableName(eventKind.tableName) { return true }
        }
        return false
    }

    // MARK: Notifications

    private func deliverBufferedEvents() {
        let events = bufferedEvents
        bufferedEvents.removeAll()
        for (observation, event) in events where !observation.isDisabled {
            guard let observer = observation.observer else { continue }
            withCurrentBroker {
                switch event {
                case .didChange(let event): observer.databaseDidChange(with: event)
                case .willChange(let event): observer.databaseWillChange(with: event)
                case .didChangeUnspecified: observer.databaseDidChange()
                }
            }
        }
    }

    func notifyChanges(in region: DatabaseRegion) {
        if readsRegionChanges { applyRegionChanges() }
        let tableNames = region.tableNames
        for observation in lists.observations where !observation.isDisabled {
            guard let observer = observation.observer, Self.observer(observer, observesTables: tableNames) else { continue }
            withCurrentBroker { observer.databaseDidChange() }
        }
        guard !regionIndex.isEmpty else { return }
        // The indexed observations of the region's tables.
        let observations: [TransactionObservation]
        if let tableNames {
            var seen = Set<ObjectIdentifier>()
            observations = tableNames
                .flatMap { regionIndex.tables[DatabaseRegion.tableKey($0)]?.allObservations ?? [] }
                .filter { seen.insert($0.identifier).inserted }
                .sorted { $0.sequence < $1.sequence }
        } else {
            observations = regionIndex.observations.sorted { $0.sequence < $1.sequence }
        }
        for observation in observations where !observation.isDisabled {
            guard let observer = observation.observer, Self.observer(observer, observesTables: tableNames) else { continue }
            touch(observation)
            withCurrentBroker { observer.databaseDidChange() }
        }
    }

    /// Whether an observer observes some change of the tables (nil for all
    /// tables).
    private static func observer(_ observer: any TransactionObserver, observesTables tableNames: Set<String>?) -> Bool {
        guard let tableNames else { return true }
        return tableNames.contains { tableName in
            observer.observes(eventsOfKind: .insert(tableName: tableName))
                || observer.observes(eventsOfKind: .delete(tableName: tableName))
                || observer.observes(eventsOfKind: .update(tableName: tableName, columnNames: []))
        }
    }

    /// Statements that SQLite ran by itself report no row events (the row
    /// hooks are installed around Cairn's statements only): the observers
    /// of what they changed hear of an unspecified change, then of the end
    /// of the transaction they committed or rolled back, if any.
    override func externalStatementsDidRun(changing region: DatabaseRegion?, in database: Database) {
        if let region {
            notifyChanges(in: region)
        }
        notifyTransactionCompletion(database)
    }

    /// A write through a blob is an update of one column of one row, which
    /// SQLite's hooks do not report: the observers of such updates hear of
    /// it as of an update event (after the release of the open savepoints,
    /// as the events of statements).
    override func blobDidWrite(schema: String, table: String, column: String, rowID: Int64, in database: Database) {
        if readsRegionChanges { applyRegionChanges() }
        let eventKind = DatabaseEventKind.update(tableName: table, columnNames: [column])
        let isBuffering = !lists.savepoints.isEmpty
        // Observers may remove observers: iterate a copy. The indexed
        // observations of the row are the last ones.
        let indexed = regionIndex.tables[DatabaseRegion.tableKey(table)]?.observations(ofRow: rowID) ?? []
        let observations = lists.observations + indexed
        for observation in observations where !observation.isDisabled {
            guard let observer = observation.observer, observer.observes(eventsOfKind: eventKind) else { continue }
            if regionIndex.observation(observation.identifier) === observation { touch(observation) }
            let event = DatabaseEvent(kind: .update, rowID: rowID, databaseName: schema, tableName: table)
            if isBuffering {
                bufferedEvents.append((observation, .didChange(event)))
            } else {
                withCurrentBroker { observer.databaseDidChange(with: event) }
            }
        }
    }

    /// A deserialized database replaced a schema, outside of any
    /// transaction: every observer hears of an unspecified change, then of
    /// a commit, as after a transaction that changed everything.
    override func databaseWasReplaced(in database: Database) {
        notifyChanges(in: .fullDatabase)
        transactionCompletion = .commit
        notifyTransactionCompletion(database)
    }

    /// Tells observers how the transaction ended, once the statement that
    /// ended it is done. The transactions of read-only accesses (a `read`)
    /// are not told: they changed nothing, and SQLite calls the rollback
    /// hook for them too.
    ///
    /// - Parameter silentForApplicationObservers: When true, only Cairn's
    ///   own observers (``RollbackResettingObserver``) hear of the end of the
    ///   transaction, and the observers for the next transaction stay for
    ///   the next one (see ``statementDidFail(_:in:)``).
    private func notifyTransactionCompletion(_ database: Database, silentForApplicationObservers: Bool = false) {
        guard let completion = transactionCompletion else { return }
        transactionCompletion = nil
        commitWasRefused = false
        if database.isReadOnlyAccess { return }
        // Observers may run statements, and add or remove observers: iterate
        // the observers of the transaction that ended. The indexed ones are
        // those that heard of a change in it, and are still indexed; all
        // hear of the end in the order of their registration.
        var ended = lists.observations
        if !touchedObservations.isEmpty {
            let touched = touchedObservations
            touchedObservations.removeAll()
            for observation in touched {
                observation.isTouched = false
                observation.isDisabled = false
            }
            ended += touched.filter { regionIndex.observation($0.identifier) === $0 }
            ended.sort { $0.sequence < $1.sequence }
        }
        for observation in ended {
            observation.isDisabled = false
        }
        if !silentForApplicationObservers {
            lists.observations.removeAll { $0.extent == .nextTransaction }
        }
        // The deallocated observers are removed when this loop meets one:
        // a separate sweep would load every weak reference again, at each
        // transaction (ObservationBenchmark).
        var metDeallocatedObserver = false
        for observation in ended {
            guard let observer = observation.observer else {
                metDeallocatedObserver = true
                if regionIndex.observation(observation.identifier) === observation {
                    regionIndex.remove(observation.identifier)
                }
                continue
            }
            if silentForApplicationObservers && !(observer is any RollbackResettingObserver) { continue }
            switch completion {
            case .commit: observer.databaseDidCommit(database)
            case .rollback: observer.databaseDidRollback(database)
            }
        }
        updateHooks(database, sweepingDeallocatedObservers: metDeallocatedObserver)
    }

    // MARK: Current broker

    /// The broker that is notifying an observer on the current thread.
    static var current: DatabaseObservationBroker? { currentSlot.current }

    /// The slot of ``current``.
    @inline(__always)
    private static var currentSlot: ThreadSlot<DatabaseObservationBroker> { ThreadSlot(.notifyingBroker) }

    private func withCurrentBroker(_ body: () -> Void) {
        Self.currentSlot.with(self, body)
    }
}

extension Database {
    /// The broker of the transaction observers of the connection, created
    /// at the first use, and kept in the connection's statement hooks.
    var observationBroker: DatabaseObservationBroker {
        if let statementHooks = state.statementHooks {
            // Only this property sets the hooks, to a broker (see the
            // invariant of `ConnectionState.statementHooks`): the cast is
            // checked anyway.
            return statementHooks as! DatabaseObservationBroker
        }
        let broker = DatabaseObservationBroker(callbackErrors: callbackErrors)
        state.statementHooks = broker
        return broker
    }
}

/// An observer of Cairn's own that resets its state in
/// `databaseDidRollback`, and so must hear of every rollback, even of those
/// that the observers of the application are not told of: the implicit
/// transaction of a statement that failed, as in GRDB.
protocol RollbackResettingObserver: TransactionObserver { }
