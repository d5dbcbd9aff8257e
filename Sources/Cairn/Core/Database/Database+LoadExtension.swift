// Loading SQLite extensions from shared libraries, one library at a time,
// without turning on the `load_extension()` SQL function.

extension Database {
    /// Loads an SQLite extension from a shared library.
    ///
    /// Use it for extensions that Cairn does not compile in, such as a VFS
    /// that reads a replica (see <doc:ReplicationAndBackups>):
    ///
    /// ```swift
    /// // A VFS registers itself for the whole process: load it once, from
    /// // any connection.
    /// try DatabaseQueue().inDatabase { db in
    ///     try db.loadExtension("/opt/litestream/litestream-vfs.so")
    /// }
    /// ```
    ///
    /// An extension that adds functions or collations adds them to this
    /// connection only: load it in ``Configuration/prepareDatabase(_:)`` so
    /// that every connection of a pool has them.
    ///
    /// SQLite unloads the library when the connection that loaded it
    /// closes, unless its entry point returns `SQLITE_OK_LOAD_PERMANENTLY`,
    /// as extensions that register a VFS or an automatic extension for the
    /// whole process must (`litestream-vfs` does). To load such an
    /// extension that does not, keep the connection that loaded it open for
    /// as long as the process uses what it registered.
    ///
    /// Cairn connections refuse to load extensions by default. This method
    /// allows the C interface to load this one library, then refuses again
    /// before it returns. The `load_extension()` SQL function stays disabled
    /// all along: SQL that an attacker controls cannot load code.
    ///
    /// Loading a library runs its code in your process with your privileges:
    /// only load libraries that you ship or trust.
    ///
    /// - Parameters:
    ///   - path: The path of the shared library. SQLite also tries it with
    ///     the platform's suffix (`.so`, `.dylib`, `.dll`) added.
    ///   - entryPoint: The name of the extension's initialization function.
    ///     When nil (the default), SQLite tries `sqlite3_extension_init`,
    ///     then a name derived from the file name (`litestream-vfs.so`
    ///     gives `sqlite3_litestreamvfs_init`).
    /// - Throws: A ``DatabaseError`` with the message of SQLite when the
    ///   library cannot be opened, has no such entry point, or its entry
    ///   point fails.
    ///
    /// The corresponding C function is `sqlite3_load_extension`, with
    /// `SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION`.
    public func loadExtension(_ path: String, entryPoint: String? = nil) throws {
        preconditionInsideAccess()
        guard let sqliteConnection else { throw DatabaseError.connectionIsClosed() }
        try check(dbConfig: SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1)
        defer {
            // Cannot fail for a valid handle and option; if it ever did, the
            // connection would keep loading allowed: stop instead.
            let refused = (try? check(dbConfig: SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0)) != nil
            stopUnless(refused, "SQLite did not turn extension loading off after loadExtension(_:entryPoint:)")
        }
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_load_extension(sqliteConnection, path, entryPoint, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "cannot load the extension \(path)"
            sqlite3_free(message)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: text)
        }
    }
}
