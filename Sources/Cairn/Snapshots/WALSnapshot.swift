/// A WAL snapshot: an identifier of one committed state of a database in WAL
/// mode, that other connections can open.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/snapshot.html>
final class WALSnapshot: @unchecked Sendable {
    // The snapshot is an immutable value that SQLite allocates: sharing it
    // between threads is safe.
    private let sqliteSnapshot: UnsafeMutablePointer<sqlite3_snapshot>

    /// Records the state that the current read transaction of `db` sees; a
    /// read transaction is started if needed.
    ///
    /// - Throws: A ``DatabaseError`` when the database is not in WAL mode,
    ///   `db` is not inside a transaction, or its transaction has written.
    ///
    /// The corresponding C function is `sqlite3_snapshot_get`.
    init(_ db: Database) throws {
        var snapshot: UnsafeMutablePointer<sqlite3_snapshot>?
        let code = sqlite3_snapshot_get(db.sqliteConnection, "main", &snapshot)
        guard code == SQLITE_OK, let snapshot else {
            throw db.makeError(
                resultCode: ResultCode(rawValue: code),
                message: "could not take a WAL snapshot: the database must be in WAL mode, its WAL file "
                    + "must not be empty (write to the database once, or open it with a DatabasePool, which "
                    + "does), and the connection must not be inside a transaction that has written",
                sql: nil, arguments: nil)
        }
        sqliteSnapshot = snapshot
    }

    deinit {
        sqlite3_snapshot_free(sqliteSnapshot)
    }

    /// Whether this snapshot is a later state of the database than `other`:
    /// commits happened between them. Both must come from the same
    /// database file, taken since its WAL file was last created.
    ///
    /// The corresponding C function is `sqlite3_snapshot_cmp`.
    func isNewer(than other: WALSnapshot) -> Bool {
        sqlite3_snapshot_cmp(sqliteSnapshot, other.sqliteSnapshot) > 0
    }

    /// Makes the current transaction of `db` read this snapshot. Call it
    /// right after `BEGIN`, before any read.
    ///
    /// - Throws: A ``DatabaseError`` with code `SQLITE_ERROR_SNAPSHOT` when
    ///   the snapshot is no longer available.
    ///
    /// The corresponding C function is `sqlite3_snapshot_open`.
    func open(on db: Database) throws {
        let code = sqlite3_snapshot_open(db.sqliteConnection, "main", sqliteSnapshot)
        guard code == SQLITE_OK else {
            let resultCode = ResultCode(rawValue: code)
            if resultCode == .SQLITE_ERROR_SNAPSHOT {
                throw db.makeError(
                    resultCode: resultCode,
                    message: "the database snapshot is no longer available: a checkpoint or a reset of "
                        + "the WAL file has overwritten it",
                    sql: nil, arguments: nil)
            }
            throw db.lastError(code: code)
        }
    }
}
