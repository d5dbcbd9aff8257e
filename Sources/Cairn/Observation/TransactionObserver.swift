/// A type that SQLite tells about the changes of a connection: each changed
/// row, before and after the change, and each commit and rollback.
///
/// Register an observer with ``Database/add(transactionObserver:extent:)``,
/// or with the `add(transactionObserver:extent:)` method of a database
/// queue or pool:
///
/// ```swift
/// final class PlayerObserver: TransactionObserver {
///     var changedPlayerIDs: Set<Int64> = []
///
///     func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
///         eventKind.tableName == "player"
///     }
///
///     func databaseDidChange(with event: DatabaseEvent) {
///         changedPlayerIDs.insert(event.rowID)
///     }
///
///     func databaseDidCommit(_ db: Database) {
///         print("Players \(changedPlayerIDs) were changed")
///         changedPlayerIDs = []
///     }
///
///     func databaseDidRollback(_ db: Database) {
///         changedPlayerIDs = []
///     }
/// }
///
/// let observer = PlayerObserver()
/// dbQueue.add(transactionObserver: observer)
/// ```
///
/// All methods are called on the writer's dispatch queue, serialized with
/// all the writes of the database.
///
/// Some changes are not notified, as SQLite does not report them: changes
/// of internal tables (`sqlite_master`…) and of `WITHOUT ROWID` tables.
/// The deletion of the rows that an `ON CONFLICT REPLACE` clause replaces
/// is only told to ``TransactionObserver/databaseWillChange(with:)``, for
/// the observers of the insertions or updates of the table. Changes made
/// by triggers and by foreign key actions are notified.
///
/// Inside a savepoint, changes are kept until the savepoint is released:
/// the changes of a savepoint that is rolled back are not notified.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/commit_hook.html>,
/// <https://www.sqlite.org/c3ref/update_hook.html>,
/// <https://www.sqlite.org/c3ref/preupdate_blobwrite.html>
public protocol TransactionObserver: AnyObject {
    /// Whether the observer wants to hear about changes of this kind.
    ///
    /// Cairn calls it before each statement that may change the database,
    /// for each kind of change of the statement. When it returns false for
    /// all of them, the observer is not told about the rows changed by the
    /// statement; it is still told about commits and rollbacks.
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool

    /// Called after a row was inserted, updated or deleted.
    ///
    /// The event is only valid during the call: use ``DatabaseEvent/copy()``
    /// to keep it. Do not access the database from here.
    func databaseDidChange(with event: DatabaseEvent)

    /// Called before a row is inserted, updated or deleted, with its old and
    /// new values.
    ///
    /// The event is only valid during the call: use
    /// ``DatabasePreUpdateEvent/copy()`` to keep it. Do not access the
    /// database from here. The default implementation does nothing.
    func databaseWillChange(with event: DatabasePreUpdateEvent)

    /// Called when the database was changed in a way that per-row events do
    /// not describe: after ``Database/notifyChanges(in:)`` for a region the
    /// observer observes.
    ///
    /// The default implementation calls
    /// ``TransactionObserver/stopObservingDatabaseChangesUntilNextTransaction()``.
    func databaseDidChange()

    /// Called before a transaction commits. Throw to prevent the commit: the
    /// transaction is rolled back, and the statement that was committing it
    /// throws this error.
    ///
    /// It is called for a transaction that wrote nothing too (`BEGIN;
    /// COMMIT`), although SQLite runs no commit hook for it, so that every
    /// transaction of the code is notified the same way. When it throws
    /// there, the statement that committed (the `COMMIT`, or the `RELEASE`
    /// of the outermost savepoint) throws this error, and the observers
    /// hear of a rollback; there was nothing to undo.
    ///
    /// The default implementation does nothing.
    func databaseWillCommit() throws

    /// Called after a transaction committed.
    ///
    /// The connection can read the committed state, and write: changes made
    /// here start a new transaction.
    func databaseDidCommit(_ db: Database)

    /// Called after a transaction was rolled back.
    ///
    /// As in GRDB, it is not called when SQLite rolled back a transaction
    /// because a statement failed (the implicit transaction of a failed
    /// `INSERT` outside of any transaction, or `INSERT OR ROLLBACK`): the
    /// failed statement's error tells it. A rollback that an observer
    /// caused from ``databaseWillCommit()`` is told.
    func databaseDidRollback(_ db: Database)
}

extension TransactionObserver {
    /// Does nothing.
    public func databaseWillChange(with event: DatabasePreUpdateEvent) { }

    /// Stops the per-row events until the end of the transaction.
    public func databaseDidChange() {
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    /// Does nothing.
    public func databaseWillCommit() throws { }

    /// Stops the events of changed rows until the end of the current
    /// transaction: ``TransactionObserver/databaseDidChange(with:)`` and
    /// ``TransactionObserver/databaseWillChange(with:)`` are no longer called;
    /// commits and rollbacks are still notified.
    ///
    /// An observer that only needs to know that something changed saves
    /// the cost of the events of the rest of the transaction:
    ///
    /// ```swift
    /// func databaseDidChange(with event: DatabaseEvent) {
    ///     hasChanges = true
    ///     stopObservingDatabaseChangesUntilNextTransaction()
    /// }
    /// ```
    ///
    /// - Precondition: called from ``TransactionObserver/databaseDidChange(with:)``,
    ///   ``TransactionObserver/databaseWillChange(with:)`` or
    ///   ``TransactionObserver/databaseDidChange()``.
    public func stopObservingDatabaseChangesUntilNextTransaction() {
        guard let broker = DatabaseObservationBroker.current else {
            stopProgram(
                "stopObservingDatabaseChangesUntilNextTransaction must be called from databaseDidChange(with:), "
                + "databaseWillChange(with:) or databaseDidChange()")
        }
        broker.disableUntilNextTransaction(self)
    }
}

extension Database {
    /// How long a connection keeps a transaction observer, given to
    /// ``Database/add(transactionObserver:extent:)``.
    ///
    /// ```swift
    /// // Observes the next transaction only:
    /// db.add(transactionObserver: observer, extent: .nextTransaction)
    /// ```
    public enum TransactionObservationExtent: Sendable, Hashable {
        /// Until the observer is deallocated: the connection keeps a weak
        /// reference to it. The default.
        case observerLifetime
        /// Until the end of the next transaction, commit or rollback: the
        /// connection keeps a strong reference until then.
        case nextTransaction
        /// Until the connection is closed: the connection keeps a strong
        /// reference.
        case databaseLifetime
    }
}

/// How long a connection keeps a transaction observer: the same type as
/// ``Database/TransactionObservationExtent``.
public typealias TransactionObservationExtent = Database.TransactionObservationExtent

extension Database {
    /// Adds a transaction observer.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     db.add(transactionObserver: observer)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - transactionObserver: The observer.
    ///   - extent: How long the connection keeps the observer; by default,
    ///     until the observer is deallocated.
    public func add(
        transactionObserver: some TransactionObserver,
        extent: TransactionObservationExtent = .observerLifetime)
    {
        preconditionInsideAccess()
        observationBroker.add(transactionObserver, extent: extent, in: self)
    }

    /// Removes a transaction observer.
    public func remove(transactionObserver: some TransactionObserver) {
        preconditionInsideAccess()
        observationBroker.remove(transactionObserver, in: self)
    }

    /// Runs closures after the end of the next transaction: `onCommit` when
    /// it commits, `onRollback` when it rolls back.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try Player(name: "Arthur").insert(db)
    ///     db.afterNextTransaction { _ in print("Arthur is saved") }
    /// }
    /// ```
    ///
    /// When called outside of a transaction, the next transaction is the
    /// next statement that writes, or the next explicit transaction.
    ///
    /// - Parameters:
    ///   - onCommit: Called after the commit, with the connection.
    ///   - onRollback: Called after the rollback, with the connection.
    public func afterNextTransaction(
        onCommit: @escaping (Database) -> Void,
        onRollback: @escaping (Database) -> Void = { _ in })
    {
        add(transactionObserver: TransactionHandler(onCommit: onCommit, onRollback: onRollback), extent: .nextTransaction)
    }

    /// Tells the transaction observers that observe some of `region` that
    /// the database changed in a way they could not see (a change made by
    /// another process, or by a virtual table, for instance).
    ///
    /// Observers receive ``TransactionObserver/databaseDidChange()``. Call it
    /// inside a write access: in a transaction, observers then react when it
    /// commits; outside of a transaction, an empty transaction is committed
    /// so that they react at once. In a read-only access (a `read`), it does
    /// nothing: nothing can change there.
    ///
    /// - Parameter region: The changed region.
    /// - Throws: A ``DatabaseError`` when the empty transaction fails.
    public func notifyChanges(in region: some DatabaseRegionConvertible) throws {
        if isReadOnlyAccess { return }
        let region = try region.databaseRegion(self)
        observationBroker.notifyChanges(in: region)
        if !isInsideTransaction {
            try inTransaction { .commit }
        }
    }
}

/// The observer of ``Database/afterNextTransaction(onCommit:onRollback:)``.
private final class TransactionHandler: TransactionObserver {
    let onCommit: (Database) -> Void
    let onRollback: (Database) -> Void

    init(onCommit: @escaping (Database) -> Void, onRollback: @escaping (Database) -> Void) {
        self.onCommit = onCommit
        self.onRollback = onRollback
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) { }
    func databaseDidCommit(_ db: Database) { onCommit(db) }
    func databaseDidRollback(_ db: Database) { onRollback(db) }
}

extension DatabaseWriter {
    /// Adds a transaction observer to the writer connection.
    ///
    /// ```swift
    /// let observer = PlayerObserver()
    /// dbQueue.add(transactionObserver: observer)
    /// ```
    ///
    /// It waits for the current write, if any, to complete; from a write
    /// access, the observer is added at once.
    ///
    /// - Parameters:
    ///   - transactionObserver: The observer.
    ///   - extent: How long the connection keeps the observer; by default,
    ///     until the observer is deallocated.
    public func add(
        transactionObserver: some TransactionObserver,
        extent: TransactionObservationExtent = .observerLifetime)
    {
        unsafeReentrantWrite { db in
            db.add(transactionObserver: transactionObserver, extent: extent)
        }
    }

    /// Removes a transaction observer from the writer connection.
    public func remove(transactionObserver: some TransactionObserver) {
        unsafeReentrantWrite { db in
            db.remove(transactionObserver: transactionObserver)
        }
    }
}
