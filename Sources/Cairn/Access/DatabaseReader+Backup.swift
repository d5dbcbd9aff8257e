// Backups of readers into writers (see `Database+Backup.swift`).

extension DatabaseReader {
    /// Copies the database into the database of a writer, replacing its
    /// content.
    ///
    /// ```swift
    /// let source = try DatabasePool(path: "/path/to/source.sqlite")
    /// let destination = try DatabaseQueue(path: "/path/to/copy.sqlite")
    /// try source.backup(to: destination)
    ///
    /// // Step by step, with progress:
    /// try source.backup(to: destination, pagesPerStep: 100) { progress in
    ///     print("\(progress.completedPageCount) of \(progress.totalPageCount)")
    /// }
    /// ```
    ///
    /// The copy reads a consistent state of the source, in a read access,
    /// and writes the destination in a barrier access, once its other
    /// accesses are over. Transaction observers of the destination are not
    /// notified. Do not back a database up into itself.
    ///
    /// - Parameters:
    ///   - writer: The database whose content is replaced.
    ///   - pagesPerStep: The number of pages copied at each step; negative
    ///     (the default) copies all pages in one step.
    ///   - progress: Called after each step; see
    ///     ``Database/backup(to:pagesPerStep:progress:)``.
    /// - Throws: A ``DatabaseError``, or the error of `progress`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/backup.html>
    public func backup(
        to writer: some DatabaseWriter,
        pagesPerStep: CInt = -1,
        progress: ((DatabaseBackupProgress) throws -> Void)? = nil) throws
    {
        guard (self as AnyObject) !== (writer as AnyObject) else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a database cannot be backed up into itself")
        }
        try read { sourceDb in
            try writer.barrierWriteWithoutTransaction { destinationDb in
                try sourceDb.backup(to: destinationDb, pagesPerStep: pagesPerStep, progress: progress)
            }
        }
    }
}
