// Erasing a database.

extension Database {
    /// Deletes all content of the database: tables, indexes, views,
    /// triggers and data, and leaves an empty database with the same
    /// journal mode.
    ///
    /// Call it outside of any transaction, when no other connection uses
    /// the database (``DatabaseWriter/erase()`` does both).
    ///
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/c_dbconfig_defensive.html#sqlitedbconfigresetdatabase>
    public func erase() throws {
        guard sqliteConnection != nil else { throw DatabaseError.connectionIsClosed() }
        try check(dbConfig: SQLITE_DBCONFIG_RESET_DATABASE, 1)
        defer {
            // Cannot fail: the option exists, since it was just set.
            try? check(dbConfig: SQLITE_DBCONFIG_RESET_DATABASE, 0)
            state.schemaCache.clear()
        }
        try execute(sql: "VACUUM")
    }
}
