#if SQLITE_HAS_CODEC
import Foundation
import Testing
import Cairn

/// Encryption with the trait SQLITE_HAS_CODEC (SQLite3 Multiple Ciphers).
@Suite struct EncryptionTests {
    /// A string that must never reach the disk in clear.
    static let secretText = "The-secret-text-that-never-reaches-the-disk"

    func makeDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("cairn-encryption-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func configuration(passphrase: String?, cipher: Configuration.Cipher = .sqlcipher(version: 4)) -> Configuration {
        var config = Configuration()
        config.cipher = cipher
        if let passphrase {
            config.prepareDatabase { db in
                try db.usePassphrase(passphrase)
            }
        }
        return config
    }

    /// Whether the bytes of the file at `path` (if it exists) contain `text`.
    func file(_ path: String, contains text: String) throws -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        return data.range(of: Data(text.utf8)) != nil
    }

    /// Creates the table t, with the secret text in it.
    func writeSecret(_ writer: some DatabaseWriter) throws {
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE t(text TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [Self.secretText])
        }
    }

    func isNotADatabase(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.resultCode == .SQLITE_NOTADB
    }

    @Test func theEngineIsSQLite3MultipleCiphers() throws {
        let version = String(cString: sqlite3mc_version())
        #expect(version.contains("SQLite3 Multiple Ciphers"))
        #expect(sqlite3mc_cipher_index("sqlcipher") > 0)
        #expect(String(cString: sqlite3_libversion()) == "3.50.4")
    }

    @Test func anEncryptedDatabaseReadsBackWithItsPassphraseOnly() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        do {
            let dbQueue = try DatabaseQueue(path: path, configuration: configuration(passphrase: "secret"))
            try writeSecret(dbQueue)
            try dbQueue.close()
        }
        // The file is not a clear-text SQLite file, and holds no clear text.
        let header = try #require(FileManager.default.contents(atPath: path)).prefix(16)
        #expect(header != Data("SQLite format 3\0".utf8))
        #expect(try !file(path, contains: Self.secretText))
        #expect(try !file(path, contains: "CREATE TABLE"))

        // Without passphrase, or with a wrong one, opening fails.
        #expect(performing: { try DatabaseQueue(path: path) }, throws: isNotADatabase)
        #expect(performing: {
            try DatabaseQueue(path: path, configuration: configuration(passphrase: "wrong"))
        }, throws: isNotADatabase)
        // The file did not change.
        #expect(try !file(path, contains: Self.secretText))

        let dbQueue = try DatabaseQueue(path: path, configuration: configuration(passphrase: "secret"))
        let texts = try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT text FROM t") }
        #expect(texts == [Self.secretText])
    }

    /// SQLite3 Multiple Ciphers reads the name of the default cipher from a
    /// static buffer while it opens a connection: opens at once must not
    /// fail (see `Database.open`). The race window is a few instructions:
    /// this test did not reproduce it without the lock (12,000 opens), it
    /// only checks that parallel opens work.
    @Test func connectionsOpenInParallel() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let failures = Locked(0)
        let group = DispatchGroup()
        for thread in 0..<8 {
            group.enter()
            Thread {
                for index in 0..<100 {
                    let path = directory.appendingPathComponent("db-\(thread)-\(index).sqlite").path
                    do { _ = try DatabaseQueue(path: path) } catch { failures.withLock { $0 += 1 } }
                }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(failures.withLock { $0 } == 0)
    }

    @Test func serializedBytesOfAnEncryptedDatabaseAreInClear() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration(passphrase: "secret"))
        try writeSecret(dbQueue)
        #expect(try !file(path, contains: Self.secretText))
        // SQLite serializes the pages it read, decrypted: the bytes are a
        // clear-text database, which opens without passphrase.
        let bytes = try dbQueue.read { db in try db.serialize() }
        #expect(bytes.range(of: Data(Self.secretText.utf8)) != nil)
        let copy = try DatabaseQueue(deserializing: bytes)
        #expect(try copy.read { db in try String.fetchOne(db, sql: "SELECT text FROM t") } == Self.secretText)
    }

    @Test func aClearTextDatabaseStaysClearWithoutPassphrase() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        let dbQueue = try DatabaseQueue(path: path)
        try writeSecret(dbQueue)
        try dbQueue.close()
        let header = try #require(FileManager.default.contents(atPath: path)).prefix(16)
        #expect(header == Data("SQLite format 3\0".utf8))
        // A passphrase does not encrypt an existing clear-text database.
        #expect(performing: {
            try DatabaseQueue(path: path, configuration: configuration(passphrase: "secret"))
        }, throws: isNotADatabase)
    }

    @Test func theJournalAndTheWALHoldNoClearText() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Rollback journal: keep it after the transaction (PERSIST).
        let journalPath = directory.appendingPathComponent("journal.sqlite").path
        let dbQueue = try DatabaseQueue(path: journalPath, configuration: configuration(passphrase: "secret"))
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = PERSIST")
            try db.execute(sql: "CREATE TABLE t(text TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [Self.secretText])
            try db.execute(sql: "UPDATE t SET text = text || '!'")
        }
        #expect(FileManager.default.fileExists(atPath: journalPath + "-journal"))
        #expect(try !file(journalPath + "-journal", contains: Self.secretText))
        #expect(try !file(journalPath, contains: Self.secretText))

        // WAL: read the -wal file while the pool is open.
        let walPath = directory.appendingPathComponent("wal.sqlite").path
        let dbPool = try DatabasePool(path: walPath, configuration: configuration(passphrase: "secret"))
        try writeSecret(dbPool)
        #expect(FileManager.default.fileExists(atPath: walPath + "-wal"))
        #expect(try !file(walPath + "-wal", contains: Self.secretText))
        // Readers of the pool use the passphrase too.
        let count = try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        #expect(count == 1)
    }

    @Test func changePassphraseRekeysTheDatabase() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        do {
            let dbQueue = try DatabaseQueue(path: path, configuration: configuration(passphrase: "old"))
            try writeSecret(dbQueue)
            try dbQueue.writeWithoutTransaction { db in
                try db.changePassphrase("new")
            }
            // The connection keeps working.
            let count = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
            #expect(count == 1)
            try dbQueue.close()
        }
        #expect(performing: {
            try DatabaseQueue(path: path, configuration: configuration(passphrase: "old"))
        }, throws: isNotADatabase)
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration(passphrase: "new"))
        let texts = try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT text FROM t") }
        #expect(texts == [Self.secretText])
    }

    @Test func changePassphraseEncryptsAClearTextDatabaseInPlace() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        do {
            let dbQueue = try DatabaseQueue(path: path)
            try writeSecret(dbQueue)
            #expect(try file(path, contains: Self.secretText))
            try dbQueue.writeWithoutTransaction { db in
                try db.changePassphrase("secret")
            }
            try dbQueue.close()
        }
        #expect(try !file(path, contains: Self.secretText))
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration(passphrase: "secret"))
        let texts = try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT text FROM t") }
        #expect(texts == [Self.secretText])
    }

    /// The online backup refuses to copy between a clear-text and an
    /// encrypted database (their pages differ: SQLCipher keeps an IV and a
    /// MAC in each). The equivalent of SQLCipher's `sqlcipher_export`: back
    /// up into a copy in the same format, then change the passphrase of the
    /// copy.
    @Test func encryptedAndClearTextCopies() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clearPath = directory.appendingPathComponent("clear.sqlite").path
        let encryptedPath = directory.appendingPathComponent("encrypted.sqlite").path
        let decryptedPath = directory.appendingPathComponent("decrypted.sqlite").path

        let clear = try DatabaseQueue(path: clearPath)
        try writeSecret(clear)
        #expect(throws: DatabaseError.self) {
            try clear.backup(to: DatabaseQueue(
                path: directory.appendingPathComponent("refused.sqlite").path,
                configuration: configuration(passphrase: "secret")))
        }

        // An encrypted copy of the clear-text database.
        let encrypted = try DatabaseQueue(path: encryptedPath)
        try clear.backup(to: encrypted)
        try encrypted.writeWithoutTransaction { db in try db.changePassphrase("secret") }
        try encrypted.close()
        #expect(try !file(encryptedPath, contains: Self.secretText))
        #expect(performing: { try DatabaseQueue(path: encryptedPath) }, throws: isNotADatabase)

        // A clear-text copy of the encrypted database.
        let source = try DatabaseQueue(path: encryptedPath, configuration: configuration(passphrase: "secret"))
        let decrypted = try DatabaseQueue(path: decryptedPath, configuration: configuration(passphrase: "secret"))
        try source.backup(to: decrypted)
        try decrypted.writeWithoutTransaction { db in try db.changePassphrase("") }
        try decrypted.close()
        #expect(try file(decryptedPath, contains: Self.secretText))
        let check = try DatabaseQueue(path: decryptedPath)
        #expect(try check.read { db in try String.fetchAll(db, sql: "SELECT text FROM t") } == [Self.secretText])
    }

    /// Each scheme of `Configuration.cipher` reads what it wrote, and a file
    /// opens only with the scheme that made it.
    @Test(arguments: [
        Configuration.Cipher.sqlcipher(version: 4), .sqlcipher(version: 3), .sqlcipher(version: 1),
        .chacha20, .aes256cbc,
    ])
    func eachCipherReadsWhatItWrote(cipher: Configuration.Cipher) throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        do {
            let dbQueue = try DatabaseQueue(path: path, configuration: configuration(passphrase: "secret", cipher: cipher))
            try writeSecret(dbQueue)
            try dbQueue.close()
        }
        #expect(try !file(path, contains: Self.secretText))
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration(passphrase: "secret", cipher: cipher))
        #expect(try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT text FROM t") } == [Self.secretText])
        try dbQueue.close()
        let other: Configuration.Cipher = cipher == .chacha20 ? .aes256cbc : .chacha20
        #expect(performing: {
            try DatabaseQueue(path: path, configuration: configuration(passphrase: "secret", cipher: other))
        }, throws: isNotADatabase)
    }

    @Test func sqlcipher3UsesItsPageSize() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration(passphrase: "secret", cipher: .sqlcipher(version: 3)))
        try writeSecret(dbQueue)
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == 1024)
    }

    @Test func anUnknownSQLCipherVersionThrows() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        #expect {
            try DatabaseQueue(path: path, configuration: configuration(passphrase: "secret", cipher: .sqlcipher(version: 5)))
        } throws: { error in
            (error as? DatabaseError)?.message == "SQLCipher version 5 is not supported: use 1, 2, 3 or 4"
        }
    }

    /// The rest of Cairn on an encrypted pool: migrations, FTS5 with a Swift
    /// tokenizer, ValueObservation, snapshot pools, backups to an encrypted
    /// database; and no clear text in the database or the WAL.
    @Test func anEncryptedPoolDoesEverything() async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("pool.sqlite").path
        var config = configuration(passphrase: "secret")
        config.prepareDatabase { db in db.add(tokenizer: FTS5LatinASCIITokenizer.self) }
        let dbPool = try DatabasePool(path: path, configuration: config)

        var migrator = DatabaseMigrator()
        migrator.registerMigration("documents") { db in
            try db.create(virtualTable: "document", using: FTS5()) { t in
                t.tokenizer = FTS5LatinASCIITokenizer.tokenizerDescriptor()
                t.column("content")
            }
        }
        try migrator.migrate(dbPool)

        let counts = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM document")!
        }.values(in: dbPool)
        var iterator = counts.makeAsyncIterator()
        #expect(try await iterator.next() == 0)

        try await dbPool.write { db in
            try db.execute(sql: "INSERT INTO document(content) VALUES (?)", arguments: [Self.secretText + " Jérôme"])
        }
        #expect(try await iterator.next() == 1)
        #expect(try !file(path + "-wal", contains: Self.secretText))
        #expect(try !file(path, contains: Self.secretText))

        // The Swift tokenizer folds the query, in readers too.
        let found = try await dbPool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM document WHERE document MATCH 'jerome'")
        }
        #expect(found == 1)

        // Snapshot pools read the encrypted database.
        let snapshotPool = try dbPool.makeSnapshotPool()
        try await dbPool.write { db in try db.execute(sql: "DELETE FROM document") }
        #expect(try await snapshotPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM document") } == 1)

        // Backup into another encrypted database, in the same format.
        let copyPath = directory.appendingPathComponent("copy.sqlite").path
        let copy = try DatabaseQueue(path: copyPath, configuration: configuration(passphrase: "other"))
        try snapshotPool.backup(to: copy)
        #expect(try await copy.read { db in try String.fetchOne(db, sql: "SELECT content FROM document") }?
            .hasPrefix(Self.secretText) == true)
        try copy.close()
        #expect(try !file(copyPath, contains: Self.secretText))
    }

    /// The pragmas of SQLite3 Multiple Ciphers keep working, for schemes and
    /// settings that `Configuration.cipher` does not name.
    @Test func rawPragmasKeepWorking() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        var config = Configuration()
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA cipher = 'chacha20'")
            try db.execute(sql: "PRAGMA kdf_iter = 1000")
            try db.execute(sql: "PRAGMA key = 'secret'")
        }
        do {
            let dbQueue = try DatabaseQueue(path: path, configuration: config)
            try writeSecret(dbQueue)
            try dbQueue.close()
        }
        #expect(try !file(path, contains: Self.secretText))
        // Another iteration count derives another key.
        var otherConfig = Configuration()
        otherConfig.prepareDatabase { db in
            try db.execute(sql: "PRAGMA cipher = 'chacha20'")
            try db.execute(sql: "PRAGMA key = 'secret'")
        }
        #expect(performing: { try DatabaseQueue(path: path, configuration: otherConfig) }, throws: isNotADatabase)
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        #expect(try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT text FROM t") } == [Self.secretText])
    }

    #if SQLITE_ENABLE_SESSION
    /// The changesets of the session extension, from an encrypted database
    /// into another one.
    @Test func sessionsRecordEncryptedDatabases() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try DatabaseQueue(
            path: directory.appendingPathComponent("source.sqlite").path,
            configuration: configuration(passphrase: "secret"))
        let replica = try DatabaseQueue(
            path: directory.appendingPathComponent("replica.sqlite").path,
            configuration: configuration(passphrase: "other"))
        for db in [source, replica] {
            try db.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, text TEXT)") }
        }
        let changeset = try source.write { db in
            let session = try DatabaseSession(db)
            try session.attach("t")
            try db.execute(sql: "INSERT INTO t VALUES (1, ?)", arguments: [Self.secretText])
            return try session.changeset()
        }
        try replica.write { db in try db.apply(changeset) { _ in .abort } }
        #expect(try replica.read { db in try String.fetchAll(db, sql: "SELECT text FROM t") } == [Self.secretText])
    }
    #endif

    /// Tests/Fixtures/SQLCipher: a database that SQLCipher 4 wrote with its
    /// defaults (see sqlcipher4.py there).
    static let sqlcipherFixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/SQLCipher")

    static let sqlcipherPassphrase = "cairn-sqlcipher4"

    /// The rows of the fixtures, as sqlcipher4.py prints them.
    static let sqlcipherRows = ["1|Arthur|100", "2|Barbara|1000", "3|Craig|"]

    func playerLines(_ db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: "SELECT id, name, score FROM player ORDER BY id").map { row in
            let score: Int? = row["score"]
            return "\(row["id"] as Int)|\(row["name"] as String)|\(score.map(String.init) ?? "")"
        }
    }

    @Test func readsADatabaseWrittenBySQLCipher4() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A copy: the committed file stays as SQLCipher wrote it.
        let path = directory.appendingPathComponent("sqlcipher4.db").path
        try FileManager.default.copyItem(
            atPath: Self.sqlcipherFixtures.appendingPathComponent("sqlcipher4.db").path, toPath: path)
        #expect(performing: {
            try DatabaseQueue(path: path, configuration: configuration(passphrase: "wrong"))
        }, throws: isNotADatabase)
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration(passphrase: Self.sqlcipherPassphrase))
        #expect(try dbQueue.read(playerLines) == Self.sqlcipherRows)
        // And writes to it in the same format.
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 200 WHERE id = 1") }
        try dbQueue.close()
        let reopened = try DatabaseQueue(path: path, configuration: configuration(passphrase: Self.sqlcipherPassphrase))
        #expect(try reopened.read { db in try Int.fetchOne(db, sql: "SELECT score FROM player WHERE id = 1") } == 200)
    }

    /// Writes the rows of the fixture in a new database, with the defaults
    /// of `usePassphrase`. `Scripts/check-sqlcipher.sh` sets
    /// CAIRN_SQLCIPHER_OUT, and reads the file with SQLCipher 4.
    @Test func writesWhatSQLCipher4Reads() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = ProcessInfo.processInfo.environment["CAIRN_SQLCIPHER_OUT"]
            ?? directory.appendingPathComponent("cairn.db").path
        try? FileManager.default.removeItem(atPath: path)
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration(passphrase: Self.sqlcipherPassphrase))
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT);
                CREATE INDEX player_on_name ON player(name);
                INSERT INTO player VALUES (1, 'Arthur', 100), (2, 'Barbara', 1000), (3, 'Craig', NULL);
                """)
        }
        #expect(try dbQueue.read(playerLines) == Self.sqlcipherRows)
        try dbQueue.close()
        // SQLCipher 4's pages are 4096 bytes, and the file starts with a
        // random salt.
        let data = try #require(FileManager.default.contents(atPath: path))
        #expect(data.count % 4096 == 0)
        #expect(data.count / 4096 == 3)
        #expect(data.prefix(16) != Data("SQLite format 3\0".utf8))
    }

    @Test func changePassphraseIsRefusedInWALModeOutsideOfAPool() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        var config = configuration(passphrase: "secret")
        config.journalMode = .wal
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        try writeSecret(dbQueue)
        #expect(throws: DatabaseError.self) {
            try dbQueue.writeWithoutTransaction { db in
                try db.changePassphrase("new")
            }
        }
        // The database still opens with its passphrase.
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
        try dbQueue.close()
        let reopened = try DatabaseQueue(path: path, configuration: configuration(passphrase: "secret"))
        #expect(try reopened.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    /// A passphrase that the connections of a pool read when they open.
    final class PassphraseBox: @unchecked Sendable {
        private let lock = NSLock()
        private var value: String
        init(_ value: String) { self.value = value }
        var passphrase: String {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }

    /// The form of the guide: a barrier write changes the passphrase of a
    /// pool, readers included, and the pool stays in WAL mode.
    @Test func changePassphraseOfAPool() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("pool.sqlite").path
        let box = PassphraseBox("old")
        var config = Configuration()
        config.prepareDatabase { db in try db.usePassphrase(box.passphrase) }
        let dbPool = try DatabasePool(path: path, configuration: config)
        try writeSecret(dbPool)
        // Open readers, which use the old passphrase.
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)

        box.passphrase = "new"
        try dbPool.barrierWriteWithoutTransaction { db in
            try db.changePassphrase("new")
            dbPool.invalidateReadOnlyConnections()
        }
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES ('after')") }
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
        #expect(try dbPool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        #expect(try !file(path, contains: Self.secretText))
        #expect(try !file(path + "-wal", contains: "after"))
        try dbPool.close()

        #expect(performing: {
            try DatabaseQueue(path: path, configuration: configuration(passphrase: "old"))
        }, throws: isNotADatabase)
        let reopened = try DatabaseQueue(path: path, configuration: configuration(passphrase: "new"))
        #expect(try reopened.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
    }

    /// Another connection to the file (here, a snapshot pool) makes the
    /// change fail, and the pool keeps working in WAL mode.
    @Test func changePassphraseOfAPoolFailsWithOtherConnections() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("pool.sqlite").path
        let dbPool = try DatabasePool(path: path, configuration: configuration(passphrase: "secret"))
        try writeSecret(dbPool)
        let snapshotPool = try dbPool.makeSnapshotPool()
        #expect(throws: DatabaseError.self) {
            try dbPool.barrierWriteWithoutTransaction { db in
                try db.changePassphrase("new")
            }
        }
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES ('after')") }
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
        #expect(try dbPool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        #expect(try snapshotPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
    }
}
#endif
