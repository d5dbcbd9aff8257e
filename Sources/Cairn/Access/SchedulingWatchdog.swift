import Dispatch
import Foundation

/// Knows which connections the current thread is accessing, so that a
/// database access that would deadlock, or reenter a pool, stops with a
/// clear message instead.
///
/// Each access pushes a frame on a chain that a thread-local slot points
/// to, for the time of the access. An access that runs from another access,
/// on another connection, keeps the outer frames in its chain: an access to
/// the outer connection from there would wait for itself. The chain lives on
/// the stacks of the threads that run the accesses: no allocation, and one
/// `pthread_getspecific` to read it.
enum SchedulingWatchdog {
    /// A connection that the thread is accessing.
    struct Frame {
        /// The connection.
        let database: ObjectIdentifier
        /// The group of connections of the connection (a pool's writer and
        /// readers share one; see ``AccessGroup``).
        let group: ObjectIdentifier
        /// The frames of the enclosing accesses.
        let previous: UnsafePointer<Frame>?
    }

    /// The thread-local slot that points to the innermost frame.
    ///
    /// Invariant: it points to a frame that is alive, or is nil. A frame is
    /// a local variable of ``withFrame(database:group:previous:_:)``, which
    /// restores the previous value of the slot before the frame goes away;
    /// and an enclosing frame named in `previous` outlives the inner access
    /// (its thread waits for the inner access, see
    /// `SerializedDatabase.sync(_:)`).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let code = pthread_key_create(&key, nil)
        stopUnless(code == 0, "pthread_key_create failed (\(code))")
        return key
    }()

    /// The innermost frame of the current thread, if it runs an access.
    static var currentFrame: UnsafePointer<Frame>? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return UnsafePointer(pointer.assumingMemoryBound(to: Frame.self))
    }

    /// Whether the current thread runs an access to `database`, possibly
    /// from an access to another connection.
    static func allows(_ database: Database) -> Bool {
        chain(currentFrame, contains: ObjectIdentifier(database))
    }

    /// Whether a chain of frames contains `database`.
    static func chain(_ frame: UnsafePointer<Frame>?, contains database: ObjectIdentifier) -> Bool {
        chain(frame) { $0.database == database }
    }

    /// Whether the current thread runs an access to a connection of
    /// `group`.
    static func isAccessing(_ group: AccessGroup) -> Bool {
        let group = ObjectIdentifier(group)
        return chain(currentFrame) { $0.group == group }
    }

    /// Whether a frame of a chain satisfies `predicate`.
    private static func chain(_ frame: UnsafePointer<Frame>?, where predicate: (Frame) -> Bool) -> Bool {
        var frame = frame
        while let current = frame {
            if predicate(current.pointee) { return true }
            frame = current.pointee.previous
        }
        return false
    }

    /// Runs `body` as an access to `database` on the current thread, inside
    /// the accesses of `previous`.
    ///
    /// Inlined, so that it is specialized for its callers: the generic
    /// `withUnsafePointer` costs several hundred instructions otherwise.
    @inline(__always)
    static func withFrame<T>(
        database: Database,
        group: AccessGroup,
        previous: UnsafePointer<Frame>?,
        _ body: () throws -> T) rethrows -> T
    {
        let saved = pthread_getspecific(key)
        var frame = Frame(database: ObjectIdentifier(database), group: ObjectIdentifier(group), previous: previous)
        return try withUnsafePointer(to: &frame) { frame in
            pthread_setspecific(key, frame)
            defer { pthread_setspecific(key, saved) }
            return try body()
        }
    }
}

/// The identity of a group of connections that one reader or writer owns:
/// the writer and the readers of a database pool, the readers of a snapshot
/// pool, the connection of a database queue. A nested access to the same
/// group is refused (see `DatabasePool.read(_:)`).
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
