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
    /// A new database is created encrypted, in the format of
    /// ``Configuration/cipher``: by default SQLCipher 4's
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
    /// SQLite3 Multiple Ciphers rewrites every page of the file, outside of
    /// WAL mode only. The writer of a ``DatabasePool`` does what it takes:
    /// in a barrier write, it closes the idle readers, leaves WAL, changes
    /// the passphrase, and returns to WAL. New connections must then use
    /// the new passphrase:
    ///
    /// ```swift
    /// try dbPool.barrierWriteWithoutTransaction { db in
    ///     try db.changePassphrase("new secret")
    ///     dbPool.invalidateReadOnlyConnections()
    /// }
    /// ```
    ///
    /// Other connections to the file (snapshot pools, other processes, a
    /// ``DatabaseQueue`` in WAL mode) make the change fail.
    ///
    /// Available with the trait `SQLITE_HAS_CODEC`.
    ///
    /// - Parameter passphrase: The new passphrase, as UTF-8 bytes. An empty
    ///   passphrase decrypts the database.
    /// - Throws: A ``DatabaseError`` when the passphrase cannot be changed
    ///   (another connection is open, or a transaction, in WAL mode). The
    ///   database is left as it was.
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
        preconditionInsideAccess()
        guard let closeIdleReaders,
              try String.fetchOne(self, sql: "PRAGMA main.journal_mode")?.lowercased() == "wal"
        else {
            try callWithPassphrase(passphrase, sqlite3_rekey_v2)
            return
        }
        // The writer of a pool, in WAL mode. SQLite3 Multiple Ciphers
        // rekeys outside of WAL only, and a connection leaves WAL when no
        // other connection is open: close the idle readers (all of them,
        // in a barrier write), rekey in DELETE mode, and return to WAL.
        guard !isInsideTransaction else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "the passphrase of a pool cannot change inside a transaction: "
                    + "use barrierWriteWithoutTransaction")
        }
        closeIdleReaders()
        try execute(sql: "PRAGMA journal_mode = DELETE")
        do {
            try callWithPassphrase(passphrase, sqlite3_rekey_v2)
        } catch {
            try? setJournalModeWAL()
            try? writeWALFrameIfEmpty()
            throw error
        }
        try setJournalModeWAL()
        try writeWALFrameIfEmpty()
    }

    /// Calls `sqlite3_key_v2` or `sqlite3_rekey_v2` for the main database,
    /// in the format of ``Configuration/cipher``.
    private func callWithPassphrase(
        _ passphrase: Data,
        _ function: (SQLiteConnection?, UnsafePointer<CChar>?, UnsafeRawPointer?, CInt) -> CInt) throws
    {
        preconditionInsideAccess()
        guard let sqliteConnection else { throw DatabaseError.connectionIsClosed() }
        try useConfiguredCipher(sqliteConnection)
        let code = passphrase.withUnsafeBytes { bytes in
            function(sqliteConnection, "main", bytes.baseAddress, CInt(bytes.count))
        }
        guard code == SQLITE_OK else { throw lastError(code: code) }
    }

    /// Makes the next key of the connection use the scheme of
    /// ``Configuration/cipher``.
    private func useConfiguredCipher(_ sqliteConnection: SQLiteConnection) throws {
        let cipher = configuration.cipher
        if case .sqlcipher(let version) = cipher.scheme, !(1...4).contains(version) {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "SQLCipher version \(version) is not supported: use 1, 2, 3 or 4")
        }
        let index = sqlite3mc_cipher_index(cipher.name)
        guard index > 0, sqlite3mc_config(sqliteConnection, "cipher", index) == index else {
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "SQLite3 Multiple Ciphers has no cipher \(cipher.name)")
        }
        for (name, value) in cipher.parameters {
            guard sqlite3mc_config_cipher(sqliteConnection, cipher.name, name, value) == value else {
                throw DatabaseError(
                    resultCode: .SQLITE_ERROR,
                    message: "SQLite3 Multiple Ciphers refused \(name) = \(value) for the cipher \(cipher.name)")
            }
        }
    }
}

extension Configuration {
    /// An encryption scheme of SQLite3 Multiple Ciphers, with its parameters
    /// (see ``Configuration/cipher``).
    ///
    /// Available with the trait `SQLITE_HAS_CODEC`.
    ///
    /// Related documentation:
    /// <https://utelle.github.io/SQLite3MultipleCiphers/docs/ciphers/cipher_sqlcipher/>
    public struct Cipher: Sendable, Hashable, CustomStringConvertible {
        /// The schemes.
        enum Scheme: Sendable, Hashable {
            case sqlcipher(version: Int)
            case chacha20
            case aes256cbc
        }

        let scheme: Scheme

        /// The format of SQLCipher `version` (1 to 4), with the default
        /// settings of that version: for 4, PBKDF2-HMAC-SHA512 with 256,000
        /// iterations, HMAC-SHA512 and 4096-byte pages; for 3, PBKDF2-HMAC-SHA1
        /// with 64,000 iterations and 1024-byte pages. A file opens only with
        /// the version that made it. Another version makes opening throw.
        ///
        /// - Parameter version: The SQLCipher version, 1 to 4.
        public static func sqlcipher(version: Int) -> Cipher {
            Cipher(scheme: .sqlcipher(version: version))
        }

        /// ChaCha20-Poly1305 with the defaults of SQLite3 Multiple Ciphers
        /// (its own default scheme; PBKDF2-HMAC-SHA256 with 64,007
        /// iterations).
        public static let chacha20 = Cipher(scheme: .chacha20)

        /// AES-256 in CBC mode without authentication, the scheme of
        /// wxSQLite3 (PBKDF2-HMAC-SHA256 with 4,001 iterations).
        public static let aes256cbc = Cipher(scheme: .aes256cbc)

        /// The name of the scheme in SQLite3 Multiple Ciphers.
        var name: String {
            switch scheme {
            case .sqlcipher: "sqlcipher"
            case .chacha20: "chacha20"
            case .aes256cbc: "aes256cbc"
            }
        }

        /// The parameters set before the key, in order.
        var parameters: [(name: String, value: CInt)] {
            switch scheme {
            case .sqlcipher(let version): [("legacy", CInt(version))]
            case .chacha20, .aes256cbc: []
            }
        }

        public var description: String {
            switch scheme {
            case .sqlcipher(let version): "sqlcipher(version: \(version))"
            case .chacha20: "chacha20"
            case .aes256cbc: "aes256cbc"
            }
        }
    }
}
#endif
