import Dispatch
import Foundation

/// The identity of a group of connections that one reader or writer owns:
/// the writer and the readers of a database pool, the readers of a snapshot
/// pool, the connection of a database queue. A nested access to the same
/// group is refused (see `DatabasePool.read(_:)`): each access names its
/// group (see `DatabaseAccess.group`).
final class AccessGroup: Sendable {
    init() { }
}

/// The marker that a connection's dispatch queue carries, so that code can
/// tell whether it runs on that queue (`DispatchQueue.getSpecific`).
final class QueueMarker: Sendable {
    static let key = DispatchSpecificKey<QueueMarker>()

    init() { }

    /// Sets a new marker on a serial dispatch queue, and returns it.
    static func mark(_ queue: DispatchQueue) -> QueueMarker {
        let marker = QueueMarker()
        queue.setSpecific(key: key, value: marker)
        return marker
    }

    /// Whether the current code runs on the queue of this marker.
    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: QueueMarker.key) === self
    }
}
