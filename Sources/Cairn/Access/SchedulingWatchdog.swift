import Dispatch

/// Knows which connections the current dispatch queue may use, so that a
/// database access that would deadlock stops with a clear message instead.
///
/// Each serialized connection runs on a dispatch queue that carries a
/// watchdog. When an access to a connection runs from an access to another
/// one, the inner queue's watchdog temporarily allows the outer connection
/// too: an access to the outer connection from there would wait for itself.
final class SchedulingWatchdog: @unchecked Sendable {
    private static let specificKey = DispatchSpecificKey<SchedulingWatchdog>()

    /// The connections the queue may use. Only read and written on the
    /// watchdog's own queue.
    ///
    /// Identifiers, not references: the queue keeps its watchdog until GCD
    /// disposes of it, possibly later and on another thread, and a reference
    /// would keep the connection open until then.
    private(set) var allowedDatabases: [ObjectIdentifier]

    private init(allowedDatabase: Database) {
        allowedDatabases = [ObjectIdentifier(allowedDatabase)]
    }

    /// Creates a serial dispatch queue whose watchdog allows `database`.
    static func makeSerializedQueue(
        allowingDatabase database: Database,
        label: String,
        qos: DispatchQoS) -> DispatchQueue
    {
        let queue = DispatchQueue(label: label, qos: qos)
        queue.setSpecific(key: specificKey, value: SchedulingWatchdog(allowedDatabase: database))
        return queue
    }

    /// The watchdog of the current queue, if it is a connection's queue.
    static var current: SchedulingWatchdog? {
        DispatchQueue.getSpecific(key: specificKey)
    }

    /// Whether the current queue may use `database`.
    func allows(_ database: Database) -> Bool {
        allowedDatabases.contains(ObjectIdentifier(database))
    }

    /// Runs `body` while also allowing the connections of another watchdog.
    func inheriting<T>(_ other: SchedulingWatchdog?, _ body: () throws -> T) rethrows -> T {
        guard let other, other !== self else { return try body() }
        let backup = allowedDatabases
        allowedDatabases.append(contentsOf: other.allowedDatabases)
        defer { allowedDatabases = backup }
        return try body()
    }
}
