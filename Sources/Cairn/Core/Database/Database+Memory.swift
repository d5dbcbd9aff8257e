// Freeing the memory that a connection can do without.

extension Database {
    /// Frees as much memory as the connection can: SQLite's page cache and
    /// lookaside memory, the prepared statements of the statement caches,
    /// and the schema information the connection caches. All are rebuilt
    /// when they are needed again.
    ///
    /// ```swift
    /// try dbQueue.writeWithoutTransaction { db in
    ///     db.releaseMemory()
    /// }
    /// ```
    ///
    /// Statements that your code holds (from ``makeStatement(sql:)``, or
    /// those that a cursor iterates) are not finalized.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/db_release_memory.html>
    public func releaseMemory() {
        preconditionInsideAccess()
        guard let sqliteConnection else { return }
        removeCachedStatements()
        state.schemaCache.clear()
        sqlite3_db_release_memory(sqliteConnection)
    }
}
