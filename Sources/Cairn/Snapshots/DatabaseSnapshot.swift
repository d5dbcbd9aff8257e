import Foundation

/// A connection that sees one committed state of a database, and never
/// sees the changes that are written afterwards.
///
/// Create a snapshot from a ``DatabasePool``:
///
/// ```swift
/// let snapshot = try dbPool.makeSnapshot()
/// try dbPool.write { db in
///     try db.execute(sql: "DELETE FROM player")
/// }
/// // The snapshot still sees the players:
/// let count = try snapshot.read { db in
///     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
/// }
/// ```
///
/// A snapshot keeps a read transaction open for its whole life, and
/// serializes its accesses: for parallel reads of one frozen state, use a
/// ``DatabaseSnapshotPool``. While a snapshot is alive, checkpoints cannot
/// copy the changes it does not see into the database file, and the WAL file
/// grows: release snapshots when you are done with them.
public final class DatabaseSnapshot: DatabaseReader {
    private let reader: SerializedDatabase

    /// The configuration of the connection.
    public var configuration: Configuration { reader.configuration }

    /// The path of the database file.
    public var path: String { reader.path }

    init(path: String, configuration: Configuration, label: String) throws {
        var configuration = configuration
        configuration.isQueryOnly = true
        configuration.label = label
        reader = try SerializedDatabase(path: path, configuration: configuration, defaultLabel: label)
        try reader.sync { db in try db.beginReadTransaction() }
    }

    /// Runs `value` on the snapshot connection, checking that its read
    /// transaction is still open.
    private func access<T>(_ db: Database, _ value: (Database) throws -> T) throws -> T {
        guard db.isInsideTransaction else {
            throw db.makeError(
                resultCode: .SQLITE_MISUSE,
                message: db.isClosed
                    ? "Connection is closed"
                    : "the snapshot's transaction was ended by a COMMIT or ROLLBACK: the snapshot is no longer usable",
                sql: nil, arguments: nil)
        }
        return try value(db)
    }

    /// Ends the snapshot's transaction and closes its connection. Later
    /// accesses throw a ``DatabaseError`` ("Connection is closed").
    ///
    /// - Throws: A ``DatabaseError`` if the connection cannot be closed
    ///   because statements or cursors prepared by your code are still alive.
    public func close() throws {
        try reader.sync { db in
            db.rollbackIgnoringErrors()
            try db.close()
        }
    }

    /// Interrupts the running statement.
    ///
    /// The corresponding C function is `sqlite3_interrupt`.
    public func interrupt() {
        reader.interrupt()
    }

    /// See ``DatabaseReader/read(_:)-7go1k``: the read sees the
    /// snapshot's state.
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try reader.sync { db in try access(db, value) }
    }

    /// See ``DatabaseReader/read(_:)-97wa5``.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await reader.execute { db in try self.access(db, value) }
    }

    /// See ``DatabaseReader/asyncRead(_:)``.
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        reader.async { db in
            do {
                try self.access(db) { db in value(.success(db)) }
            } catch {
                value(.failure(error))
            }
        }
    }

    /// Same as ``DatabaseSnapshot/read(_:)-50ql6``: a snapshot is always isolated and
    /// read-only.
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try read(value)
    }

    /// Same as ``DatabaseSnapshot/read(_:)-9ar5d``.
    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await read(value)
    }

    /// Same as ``asyncRead(_:)``.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        asyncRead(value)
    }

    /// See ``DatabaseReader/unsafeReentrantRead(_:)``.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try reader.reentrantSync { db in try access(db, value) }
    }
}
