internal import CairnSQLiteShims

extension Database {
    /// Opens an SQLite connection: `sqlite3_open_v2`, one at a time in the
    /// process with the trait `SQLITE_HAS_CODEC`.
    ///
    /// SQLite3 Multiple Ciphers (2.2.4) writes the name of the default
    /// cipher into a static buffer (`sqlite3mc_cipher_name`, which empties
    /// it first) while it opens a connection, and compares it with its
    /// ciphers: an open that compares while another one rewrites the buffer
    /// fails with "unknown cipher 'chacha20'" (seen once in the codec lane,
    /// with the tests running in parallel; a pool opens its readers in
    /// parallel too). The vendored file is not edited; opens wait for each
    /// other instead. Without the trait, nothing waits. (An ATTACH of an
    /// encrypted database goes through the same code, unguarded.)
    ///
    /// - Returns: The result code of `sqlite3_open_v2`.
    static func open(_ path: String, _ connection: inout SQLiteConnection?, _ flags: CInt) -> CInt {
        #if SQLITE_HAS_CODEC
        openLock.withLock { _ in sqlite3_open_v2(path, &connection, flags, nil) }
        #else
        sqlite3_open_v2(path, &connection, flags, nil)
        #endif
    }

    #if SQLITE_HAS_CODEC
    /// Makes the opens of connections wait for each other (see
    /// ``open(_:_:_:)``).
    private static let openLock = Locked(())
    #endif
}
