#if SQLITE_HAS_CODEC
import Foundation

// Encryption, with the trait SQLITE_HAS_CODEC: SQLite3 Multiple Ciphers
// replaces the stock SQLite (see Vendor/SQLite/CairnSQLite.c). By default a
// passphrase writes and reads the format of SQLCipher 4, so that databases
// made with SQLCipher (GRDB's encryption) open unchanged.

extension Database {
    /// Gives the passphrase of an encrypted database: call it from
    /// ``Configuration/prepareDatabase(_:)``, before anything reads the
    /// database.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.prepareDatabase { db in
    ///     try db.usePassphrase("secret")
    /// }
    /// let dbQueue = try DatabaseQueue(path: path, configuration: config)
    /// ```
    ///
    /// A new database is created encrypted, in the format of SQLCipher 4
    /// (PBKDF2-HMAC-SHA512 with 256,000 iterations, 4096-byte pages). A
    /// passphrase does not encrypt a clear-text database that already
    /// exists: opening it fails. An empty passphrase opens or creates a
    /// clear-text database.
    ///
    /// Available with the trait `SQLITE_HAS_CODEC`.
    ///
    /// - Parameter passphrase: The passphrase, as UTF-8 bytes.
    /// - Throws: A ``DatabaseError`` when SQLite3 Multiple Ciphers refuses
    ///   the key. A wrong passphrase is reported by the first read, which
    ///   fails with `SQLITE_NOTADB` ("file is not a database"): opening a
    ///   connection performs one.
    ///
    /// The corresponding C function is `sqlite3_key_v2`.
    public func usePassphrase(_ passphrase: String) throws {
        try usePassphrase(Data(passphrase.utf8))
    }

    /// Gives the passphrase of an encrypted database, as raw bytes (see
    /// ``usePassphrase(_:)-(String)``).
    ///
    /// - Parameter passphrase: The passphrase.
    /// - Throws: A ``DatabaseError`` when SQLite3 Multiple Ciphers refuses
    ///   the key.
    ///
    /// The corresponding C function is `sqlite3_key_v2`.
    public func usePassphrase(_ passphrase: Data) throws {
        try callWithPassphrase(passphrase, sqlite3_key_v2)
    }

    /// Changes the passphrase of an encrypted database, or encrypts a
    /// clear-text one, in place.
    ///
    /// ```swift
    /// try dbQueue.writeWithoutTransaction { db in
    ///     try db.changePassphrase("new secret")
    /// }
    /// ```
    ///
    /// SQLite3 Multiple Ciphers rewrites every page of the file. It refuses
    /// to do it in WAL mode: change the journal mode to DELETE first (with
    /// no other connection open), and back to WAL afterwards. New
    /// connections must then use the new passphrase.
    ///
    /// Available with the trait `SQLITE_HAS_CODEC`.
    ///
    /// - Parameter passphrase: The new passphrase, as UTF-8 bytes. An empty
    ///   passphrase decrypts the database.
    /// - Throws: A ``DatabaseError`` when the passphrase cannot be changed
    ///   (in WAL mode, for example). The database is left as it was.
    ///
    /// The corresponding C function is `sqlite3_rekey_v2`.
    public func changePassphrase(_ passphrase: String) throws {
        try changePassphrase(Data(passphrase.utf8))
    }

    /// Changes the passphrase of an encrypted database, as raw bytes (see
    /// ``changePassphrase(_:)-(String)``).
    ///
    /// - Parameter passphrase: The new passphrase.
    /// - Throws: A ``DatabaseError`` when the passphrase cannot be changed.
    ///
    /// The corresponding C function is `sqlite3_rekey_v2`.
    public func changePassphrase(_ passphrase: Data) throws {
        try callWithPassphrase(passphrase, sqlite3_rekey_v2)
    }

    /// Calls `sqlite3_key_v2` or `sqlite3_rekey_v2` for the main database,
    /// in the format of SQLCipher 4.
    private func callWithPassphrase(
        _ passphrase: Data,
        _ function: (SQLiteConnection?, UnsafePointer<CChar>?, UnsafeRawPointer?, CInt) -> CInt) throws
    {
        preconditionInsideAccess()
        guard let sqliteConnection else { throw DatabaseError.connectionIsClosed() }
        try useSQLCipher4Format(sqliteConnection)
        let code = passphrase.withUnsafeBytes { bytes in
            function(sqliteConnection, "main", bytes.baseAddress, CInt(bytes.count))
        }
        guard code == SQLITE_OK else { throw lastError(code: code) }
    }

    /// Makes the next key of the connection use the format of SQLCipher 4
    /// (the `sqlcipher` scheme of SQLite3 Multiple Ciphers, with its
    /// `legacy` parameter at 4: without it, the scheme keeps bytes 16 to 23
    /// of the header in clear, which SQLCipher cannot read).
    private func useSQLCipher4Format(_ sqliteConnection: SQLiteConnection) throws {
        let cipher = sqlite3mc_cipher_index("sqlcipher")
        guard cipher > 0,
              sqlite3mc_config(sqliteConnection, "cipher", cipher) == cipher,
              sqlite3mc_config_cipher(sqliteConnection, "sqlcipher", "legacy", 4) == 4
        else {
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "SQLite3 Multiple Ciphers refused the SQLCipher 4 format")
        }
    }
}
#endif
