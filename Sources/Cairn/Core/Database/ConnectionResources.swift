import Foundation
internal import CairnSQLiteShims

// What higher layers attach to a connection's SQLite handle, and Core must
// know about to keep the handle safe:
//
// - The pre-update hook, which SQLite keeps once per connection and which
//   Cairn's transaction observers and the session extension both need. Both
//   go through one hub (see `_cairn_preupdate_hub` in CairnShims.h).
// - SQLite objects that live on the handle and must be released before it
//   closes, inside an access to the connection (the sessions of the session
//   extension, the handles of incremental blob I/O): each is registered
//   with the cleanup that releases it. Blob handles are also released before
//   Cairn ends a transaction or a savepoint, and at the end of each access
//   (`releaseTransactionScoped(_:)`): SQLite refuses to commit while a blob
//   opened for writing is open.
//
// The Swift object that owns such an SQLite object may be released on any
// thread (its last reference is dropped outside of an access), while the
// connection is in use on another thread: its cleanup then waits for the
// next access to the connection, or for the connection to close. One lock
// orders these releases with the closing of the connection, so that every
// cleanup runs exactly once, before the handle closes.

/// The SQLite objects that live on a connection's handle.
final class ConnectionResources {
    /// One SQLite object, and the cleanup that releases it.
    final class Registration {
        /// Releases the object, and returns SQLite's result code; nil once
        /// it ran. Only set to nil inside an access to the connection.
        fileprivate var cleanup: ((SQLiteConnection) -> CInt)?

        /// Whether the object is released before Cairn ends a transaction
        /// or a savepoint, and at the end of each access.
        fileprivate let endsWithTransaction: Bool

        /// Whether releasing the object may commit changes (a blob opened
        /// for writing, outside of a transaction).
        fileprivate let mayCommit: Bool

        fileprivate init(endsWithTransaction: Bool, mayCommit: Bool, cleanup: @escaping (SQLiteConnection) -> CInt) {
            self.endsWithTransaction = endsWithTransaction
            self.mayCommit = mayCommit
            self.cleanup = cleanup
        }

        /// Runs the cleanup once; nil when it ran already.
        fileprivate func run(_ connection: SQLiteConnection) -> CInt? {
            guard let cleanup else { return nil }
            self.cleanup = nil
            return cleanup(connection)
        }

        /// Whether the object was released: its connection closed. Read it
        /// inside an access to the connection.
        var isReleased: Bool { cleanup == nil }
    }

    private struct State {
        /// The registered objects that are not released yet.
        var live: [ObjectIdentifier: Registration] = [:]
        /// The objects whose owner asked for their release, outside of an
        /// access.
        var pending: [Registration] = []
        /// Whether the connection closed: nothing is registered or released
        /// any longer.
        var isClosed = false
        /// The number of live objects that end with transactions.
        var transactionScopedCount = 0
    }

    private let state = Locked(State())

    /// Operations that must not run inside themselves (see
    /// `Database.withNonReentrantOperation(_:_:)`). Touched inside accesses
    /// only.
    var runningOperations: Set<String> = []

    /// Registers an SQLite object of the connection. Called inside an
    /// access.
    ///
    /// - Parameters:
    ///   - endsWithTransaction: Whether the object is released before Cairn
    ///     ends a transaction or a savepoint, and at the end of each access
    ///     (see ``releaseTransactionScoped(_:)``).
    ///   - mayCommit: Whether releasing the object may commit changes.
    ///   - cleanup: Releases the object, with the connection's handle, and
    ///     returns SQLite's result code. It runs once, inside an access to
    ///     the connection, before the connection closes.
    func register(
        endsWithTransaction: Bool = false,
        mayCommit: Bool = false,
        cleanup: @escaping (SQLiteConnection) -> CInt) -> Registration
    {
        let registration = Registration(endsWithTransaction: endsWithTransaction, mayCommit: mayCommit, cleanup: cleanup)
        state.withLock { state in
            state.live[ObjectIdentifier(registration)] = registration
            if endsWithTransaction { state.transactionScopedCount += 1 }
        }
        return registration
    }

    /// Removes a registration from the live objects; false when it was not
    /// live (released already, or the connection closed).
    private func removeLive(_ registration: Registration, _ state: inout State) -> Bool {
        guard !state.isClosed,
              state.live.removeValue(forKey: ObjectIdentifier(registration)) != nil
        else { return false }
        if registration.endsWithTransaction { state.transactionScopedCount -= 1 }
        return true
    }

    /// Asks for the release of an object, from any thread: it happens at
    /// the beginning or the end of the next access, or when the connection
    /// closes; nothing happens when the connection is closed already.
    func release(_ registration: Registration) {
        state.withLock { state in
            guard removeLive(registration, &state) else { return }
            state.pending.append(registration)
        }
    }

    /// Releases an object now. Called inside an access.
    ///
    /// - Returns: The result code of its cleanup, or nil when the object
    ///   was released already.
    func releaseNow(_ registration: Registration, _ connection: SQLiteConnection) -> CInt? {
        let isLive = state.withLock { removeLive(registration, &$0) }
        guard isLive else { return nil }
        return registration.run(connection)
    }

    /// What ``releaseTransactionScoped(_:)`` did.
    struct ScopedRelease {
        /// Whether an object that may commit changes was released.
        var releasedCommitter = false
        /// The first result code of a cleanup that failed, if any.
        var failure: CInt?
    }

    /// Releases the objects that end with transactions, and the pending
    /// releases. Called inside an access, before Cairn ends a transaction
    /// or a savepoint, and at the end of each access.
    func releaseTransactionScoped(_ connection: SQLiteConnection) -> ScopedRelease {
        let registrations = state.withLock { state -> [Registration] in
            var released = state.pending
            state.pending.removeAll()
            if state.transactionScopedCount > 0 {
                let scoped = state.live.values.filter(\.endsWithTransaction)
                for registration in scoped {
                    state.live.removeValue(forKey: ObjectIdentifier(registration))
                }
                state.transactionScopedCount = 0
                released += scoped
            }
            return released
        }
        var outcome = ScopedRelease()
        for registration in registrations {
            guard let code = registration.run(connection) else { continue }
            if registration.mayCommit { outcome.releasedCommitter = true }
            if code != SQLITE_OK && outcome.failure == nil { outcome.failure = code }
        }
        return outcome
    }

    /// Runs the pending releases. Called inside an access (one lock: only
    /// the connections that registered objects pay it).
    func runPendingReleases(_ connection: SQLiteConnection) {
        let pending = state.withLock { state in
            defer { state.pending.removeAll() }
            return state.pending
        }
        for registration in pending {
            _ = registration.run(connection)
        }
    }

    /// Releases every object, before the connection closes. Called inside
    /// an access, or by the connection's deinitializer.
    func connectionWillClose(_ connection: SQLiteConnection) {
        let registrations = state.withLock { state -> [Registration] in
            state.isClosed = true
            defer {
                state.live.removeAll()
                state.pending.removeAll()
                state.transactionScopedCount = 0
            }
            return Array(state.live.values) + state.pending
        }
        for registration in registrations {
            _ = registration.run(connection)
        }
    }
}

extension Database {
    /// The resources of the connection, made at first use (inside an
    /// access).
    var resources: ConnectionResources {
        if let connectionResources { return connectionResources }
        let resources = ConnectionResources()
        connectionResources = resources
        return resources
    }

    /// Runs the releases that wait for an access; called at the beginning
    /// and at the end of each access to a connection that has resources.
    func runPendingReleases() {
        guard let connectionResources, let sqliteConnection else { return }
        connectionResources.runPendingReleases(sqliteConnection)
    }

    /// Closes the open blobs of the connection (see ``DatabaseBlob``), and
    /// runs the pending releases: called before Cairn begins or ends a
    /// transaction or a savepoint, and at the end of each access. SQLite
    /// refuses to commit or release a savepoint while a blob opened for
    /// writing is open.
    ///
    /// Outside of a transaction, closing a blob opened for writing commits
    /// its changes: observers hear of the commit, and a commit that failed
    /// (its changes are rolled back) is returned.
    @inline(__always) @discardableResult
    func closeTransactionScopedResources() -> DatabaseError? {
        guard let connectionResources, let sqliteConnection else { return nil }
        return closedResources(connectionResources.releaseTransactionScoped(sqliteConnection))
    }

    /// Tells observers of the commits of closed blobs, and returns the
    /// error of a failed one.
    func closedResources(_ outcome: ConnectionResources.ScopedRelease) -> DatabaseError? {
        if outcome.releasedCommitter {
            externalStatementsDidRun(changing: nil)
        }
        guard let code = outcome.failure else { return nil }
        return makeError(
            resultCode: ResultCode(rawValue: code),
            message: "a blob opened for writing outside of a transaction could not commit its changes "
                + "when it closed: \(String(cString: sqlite3_errstr(code)))",
            sql: nil, arguments: nil)
    }

    /// Runs `body`, and throws an error with the `SQLITE_MISUSE` code when
    /// `operation` is already running on the connection (called from a
    /// callback of itself).
    ///
    /// - Throws: A ``DatabaseError``, or the error of `body`.
    func withNonReentrantOperation<T>(_ operation: String, _ body: () throws -> T) throws -> T {
        let resources = resources
        guard resources.runningOperations.insert(operation).inserted else {
            throw makeError(
                resultCode: .SQLITE_MISUSE,
                message: "\(operation) cannot run from inside itself", sql: nil, arguments: nil)
        }
        defer { resources.runningOperations.remove(operation) }
        return try body()
    }

    // MARK: The pre-update hook

    /// The hub of the pre-update hook of the connection, allocated at first
    /// use. It is freed after the connection closes.
    ///
    /// - Precondition: the connection is open.
    var preUpdateHubPointer: UnsafeMutablePointer<_cairn_preupdate_hub> {
        if let preUpdateHub { return preUpdateHub }
        let hub = UnsafeMutablePointer<_cairn_preupdate_hub>.allocate(capacity: 1)
        hub.initialize(to: _cairn_preupdate_hub(observer: nil, observerContext: nil, sessions: nil))
        preUpdateHub = hub
        return hub
    }

    /// Installs or removes the pre-update callback of Cairn's transaction
    /// observers, beside the sessions of the session extension.
    ///
    /// The corresponding C function is `sqlite3_preupdate_hook`.
    func setPreUpdateObserver(_ callback: _cairn_preupdate_callback?, context: UnsafeMutableRawPointer?) {
        guard let sqliteConnection else { return }
        if callback == nil && preUpdateHub == nil { return }
        let hub = preUpdateHubPointer
        hub.pointee.observer = callback
        hub.pointee.observerContext = context
        _cairn_preupdate_hub_update(sqliteConnection, hub)
    }

    /// Frees the hub, once the connection is closed (no callback can run).
    func freePreUpdateHub() {
        guard let preUpdateHub else { return }
        preUpdateHub.deinitialize(count: 1)
        preUpdateHub.deallocate()
        self.preUpdateHub = nil
    }
}
