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
    /// The plan of all reads (see DatabaseAccessPlan.swift): made once.
    private let readPlan: _ReaderAccessPlan

    /// The configuration of the connection.
    public var configuration: Configuration { reader.configuration }

    /// The path of the database file.
    public var path: String { reader.path }

    /// Opens the connection of a snapshot, labelled as in GRDB: the label of
    /// the configuration, or `defaultLabel`, followed by `purpose`
    /// (`GRDB.DatabasePool.snapshot.1`). The label of the configuration
    /// itself is left unchanged.
    init(path: String, configuration: Configuration, defaultLabel: String, purpose: String) throws {
        var configuration = configuration
        configuration.isQueryOnly = true
        let reader = try SerializedDatabase(
            path: path, configuration: configuration, defaultLabel: defaultLabel, purpose: purpose)
        self.reader = reader
        // A snapshot is always isolated and read-only: `unsafeRead` is
        // `read`.
        readPlan = _ReaderAccessPlan(
            source: .connection(reader),
            around: SnapshotAccess(),
            reentrantConnections: { [reader] },
            reentrantAround: SnapshotAccess())
        try reader.sync { db in try db.beginReadTransaction() }
    }

    /// See ``DatabaseReader/_readerAccessPlan(_:)``: the reads run on the
    /// snapshot connection, in its transaction.
    public func _readerAccessPlan(_ kind: _ReaderAccessKind) -> _ReaderAccessPlan {
        readPlan
    }

    /// Runs the reads on the snapshot connection, checking that its read
    /// transaction is still open.
    private struct SnapshotAccess: ReaderAccessWrapper {
        func run<T>(_ db: Database, _ value: (Database) throws -> T) throws -> T {
            guard db.isInsideTransaction else {
                if db.isClosed { throw DatabaseError.connectionIsClosed() }
                throw db.makeError(
                    resultCode: .SQLITE_MISUSE,
                    message: "the snapshot's transaction was ended by a COMMIT or ROLLBACK: the snapshot is no longer usable",
                    sql: nil, arguments: nil)
            }
            return try value(db)
        }
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

}
