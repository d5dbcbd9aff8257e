import Foundation

// What higher layers attach to a connection's SQLite handle, and Core must
// know about to keep the handle safe:
//
// - The pre-update hook, which SQLite keeps once per connection and which
//   Cairn's transaction observers and the session extension both need. Both
//   go through one hub (see `_cairn_preupdate_hub` in CairnSQLite.h).
// - Objects that live on the handle and must be released before it closes,
//   inside an access to the connection (sessions of the session extension):
//   `ConnectionResource`. Core knows them only through that protocol.
//
// A resource may be released by Swift on any thread (its last reference is
// dropped outside of an access): its SQLite object must then wait for the
// next access, because the connection may be in use on another thread at
// that moment. `releaseInsideAccess(_:)` defers such cleanups.

/// An object that lives on a connection's SQLite handle and must be released
/// before the handle closes.
protocol ConnectionResource: AnyObject {
    /// Releases the SQLite objects of the resource, which stops working.
    /// Called inside an access to the connection, before it closes, for the
    /// resources that are still alive.
    func connectionWillClose(_ db: Database)
}

/// The resources of a connection, and the cleanups that wait for an access.
final class ConnectionResources {
    /// The live resources, held weakly. Touched inside accesses only.
    private var resources: [Weak] = []

    /// Cleanups asked for outside of an access, run at the beginning or at
    /// the end of the next access, or when the connection closes.
    let deferredCleanups = Locked<[(SQLiteConnection) -> Void]>([])

    private struct Weak {
        weak var resource: (any ConnectionResource)?
    }

    /// Adds a resource.
    func add(_ resource: any ConnectionResource) {
        resources.removeAll { $0.resource == nil }
        resources.append(Weak(resource: resource))
    }

    /// Runs the deferred cleanups.
    func runDeferredCleanups(_ connection: SQLiteConnection) {
        let cleanups = deferredCleanups.withLock { cleanups in
            defer { cleanups.removeAll() }
            return cleanups
        }
        for cleanup in cleanups {
            cleanup(connection)
        }
    }

    /// Releases everything before the connection closes.
    func connectionWillClose(_ db: Database, _ connection: SQLiteConnection) {
        runDeferredCleanups(connection)
        let alive = resources.compactMap(\.resource)
        resources.removeAll()
        for resource in alive {
            resource.connectionWillClose(db)
        }
        // Cleanups asked for by the resources released above.
        runDeferredCleanups(connection)
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

    /// Runs `cleanup` with the SQLite handle, inside an access to the
    /// connection: at once when the current thread runs one, at the
    /// beginning or the end of the next access otherwise, or when the
    /// connection closes. Nothing runs when the connection is already
    /// closed.
    ///
    /// For the deinitializers of resources, which Swift runs on the thread
    /// that drops the last reference.
    ///
    /// - Precondition: the connection has resources (``resources`` was used
    ///   inside an access).
    func releaseInsideAccess(_ cleanup: @escaping (SQLiteConnection) -> Void) {
        guard let connectionResources else { return }
        // `isInsideAccess` may not be read from another thread: always
        // defer, and let the current access, if any, run it at its end.
        connectionResources.deferredCleanups.withLock { $0.append(cleanup) }
    }

    /// Runs the deferred cleanups; called at the beginning and at the end of
    /// each access.
    func runDeferredCleanupsIfNeeded() {
        guard let connectionResources, let sqliteConnection else { return }
        connectionResources.runDeferredCleanups(sqliteConnection)
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
