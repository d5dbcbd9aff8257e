// Erasing and vacuuming the database of a writer.

extension DatabaseWriter {
    /// Deletes all content of the database, once no other access runs:
    /// see ``Database/erase()``.
    ///
    /// ```swift
    /// try dbQueue.erase()
    /// ```
    ///
    /// - Throws: A ``DatabaseError``.
    public func erase() throws {
        try barrierWriteWithoutTransaction { db in try db.erase() }
    }

    /// Rebuilds the database file, repacking it into a minimal amount of
    /// disk space (`VACUUM`).
    ///
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_vacuum.html>
    public func vacuum() throws {
        try writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
    }

    /// Writes a vacuumed copy of the database into a new file
    /// (`VACUUM INTO`).
    ///
    /// ```swift
    /// try dbPool.vacuum(into: "/path/to/copy.sqlite")
    /// ```
    ///
    /// - Parameter filePath: The path of the copy; the file must not exist,
    ///   or be empty.
    /// - Throws: A ``DatabaseError``, for example when the file exists.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_vacuum.html#vacuuminto>
    public func vacuum(into filePath: String) throws {
        try writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [filePath]) }
    }
}
