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
