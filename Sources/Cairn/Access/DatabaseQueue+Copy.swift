// Copies of database files into in-memory and temporary databases, with
// the online backup API (see `Core/Database/Database+Backup.swift`), and
// in-memory databases that start from the bytes of a database file
// (`Core/Database/Database+Serialize.swift`).

import Foundation

extension DatabaseQueue {
    /// Returns a queue on an in-memory copy of a database file.
    ///
    /// Changes to the copy do not change the file, and the memory of the
    /// copy is released when the queue is deinitialized. This is handy in
    /// tests, to run migrations or write code on a database fixture:
    ///
    /// ```swift
    /// let dbQueue = try DatabaseQueue.inMemoryCopy(fromPath: "/path/to/fixture.sqlite")
    /// try migrator.migrate(dbQueue)
    /// try dbQueue.dumpContent()
    /// ```
    ///
    /// The file is opened read-only, with `configuration` (its
    /// ``Configuration/prepareDatabase(_:)`` setups run on it too, so that
    /// the functions and collations that the schema needs are there), and
    /// copied with SQLite's online backup API. The copy uses `configuration`,
    /// with the default journal mode (an in-memory database has no WAL).
    /// When the configuration is ``Configuration/readonly``, the copy
    /// forbids writes once it is filled: they fail with `SQLITE_READONLY`.
    ///
    /// - Parameters:
    ///   - path: The path of the database file to copy.
    ///   - configuration: The configuration of the copy.
    /// - Returns: A queue on the copy.
    /// - Throws: A ``DatabaseError`` when the file does not exist (`SQLITE_CANTOPEN`),
    ///   is not a database, or cannot be read.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/backup.html>
    public static func inMemoryCopy(
        fromPath path: String,
        configuration: Configuration = Configuration()) throws -> DatabaseQueue
    {
        try copy(fromPath: path, configuration: configuration) { copyConfiguration in
            try DatabaseQueue(configuration: copyConfiguration)
        }
    }

    /// Returns a queue on a copy of a database file in a temporary file,
    /// which SQLite deletes when the queue is closed or deinitialized.
    ///
    /// Changes to the copy do not change the original file. Unlike
    /// ``inMemoryCopy(fromPath:configuration:)``, the copy does not need to
    /// fit in memory: SQLite keeps its pages in a temporary file.
    ///
    /// ```swift
    /// let dbQueue = try DatabaseQueue.temporaryCopy(fromPath: "/path/to/fixture.sqlite")
    /// try migrator.migrate(dbQueue)
    /// try dbQueue.dumpContent()
    /// ```
    ///
    /// The file is opened read-only, with `configuration` (its
    /// ``Configuration/prepareDatabase(_:)`` setups run on it too), and
    /// copied with SQLite's online backup API. The copy uses
    /// `configuration`, with the default journal mode. When the
    /// configuration is ``Configuration/readonly``, the copy forbids writes
    /// once it is filled: they fail with `SQLITE_READONLY`. The ``path`` of
    /// the queue is empty: the temporary file has no name.
    ///
    /// - Parameters:
    ///   - path: The path of the database file to copy.
    ///   - configuration: The configuration of the copy.
    /// - Returns: A queue on the copy.
    /// - Throws: A ``DatabaseError`` when the file does not exist (`SQLITE_CANTOPEN`),
    ///   is not a database, or cannot be read.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/inmemorydb.html#temp_db>
    public static func temporaryCopy(
        fromPath path: String,
        configuration: Configuration = Configuration()) throws -> DatabaseQueue
    {
        try copy(fromPath: path, configuration: configuration) { copyConfiguration in
            // An empty path opens a private temporary database.
            try DatabaseQueue(path: "", configuration: copyConfiguration)
        }
    }

    /// Opens an in-memory database that starts from the bytes of a
    /// database file (see ``Database/serialize(schema:)``).
    ///
    /// ```swift
    /// // Send a database over the network, open it on the other side.
    /// let bytes = try dbPool.read { db in try db.serialize() }
    /// let dbQueue = try DatabaseQueue(deserializing: bytes)
    /// ```
    ///
    /// The queue owns a copy of the bytes: its changes change the copy
    /// only. The ``Configuration/prepareDatabase(_:)`` setups of
    /// `configuration` run before the bytes are loaded, so that the
    /// functions and collations that the schema needs are there. When the
    /// configuration is ``Configuration/readonly``, writes fail with
    /// `SQLITE_READONLY`. The journal mode of the configuration is ignored:
    /// an in-memory database has no WAL.
    ///
    /// - Parameters:
    ///   - data: The bytes of a database file; empty bytes give an empty
    ///     database.
    ///   - configuration: The configuration of the queue.
    /// - Throws: A ``DatabaseError``: `SQLITE_NOTADB` when the bytes are not
    ///   a database, or the error of a setup.
    ///
    /// The corresponding C function is `sqlite3_deserialize`.
    public convenience init(deserializing data: Data, configuration: Configuration = Configuration()) throws {
        var queueConfiguration = configuration
        queueConfiguration.journalMode = .default
        // A read-only queue is filled once, then refuses writes.
        queueConfiguration.opensReadWrite = true
        try self.init(configuration: queueConfiguration)
        try writeWithoutTransaction { db in
            try db.replaceSchema("main", with: data, readOnly: configuration.readonly)
        }
    }

    /// Copies a database file into the database of a new queue.
    ///
    /// - Parameter open: Opens the queue of the copy, with the given
    ///   configuration.
    private static func copy(
        fromPath path: String,
        configuration: Configuration,
        open: (Configuration) throws -> DatabaseQueue) throws -> DatabaseQueue
    {
        var sourceConfiguration = configuration
        sourceConfiguration.readonly = true
        sourceConfiguration.journalMode = .default
        let source = try DatabaseQueue(path: path, configuration: sourceConfiguration)

        var copyConfiguration = configuration
        copyConfiguration.journalMode = .default
        // A read-only copy is written once, by the backup.
        copyConfiguration.opensReadWrite = true
        let copy = try open(copyConfiguration)
        try source.backup(to: copy)
        if configuration.readonly {
            // The configuration of the copy is read-only: its accesses do
            // not change query_only (see Database.readOnly(_:)).
            try copy.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA query_only = 1")
            }
        }
        try source.close()
        return copy
    }
}
