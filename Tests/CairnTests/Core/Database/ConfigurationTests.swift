import Dispatch
import Foundation
import Testing
import Cairn
import CairnSQLiteShims

@Suite struct ConfigurationTests {
    @Test func foreignKeysAreEnforcedByDefault() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
        var config = Configuration()
        config.foreignKeysEnabled = false
        let relaxed = try DatabaseQueue(configuration: config)
        try relaxed.inDatabase { db throws in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == false)
        }
    }

    @Test func secureDefaults() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA trusted_schema") == false)
            var defensive: CInt = -1
            _ = _cairn_sqlite_db_config_int(db.sqliteConnection, SQLITE_DBCONFIG_DEFENSIVE, -1, &defensive)
            #expect(defensive == 1)
            // Defensive mode forbids writing the schema table directly.
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "PRAGMA writable_schema = ON; DELETE FROM sqlite_master")
            }
            // Extensions cannot be loaded.
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "SELECT load_extension('libnothing')")
            }
        }
    }

    @Test func doubleQuotedStringLiteralsCanBeAccepted() throws {
        var config = Configuration()
        config.acceptsDoubleQuotedStringLiterals = true
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.inDatabase { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT \"foo\"") == "foo")
        }
    }

    @Test func readonlyConnection() throws {
        let directory = try TemporaryDirectory()
        let path = directory.filePath()
        try DatabaseQueue(path: path).write { db throws in try db.execute(sql: "CREATE TABLE t(a)") }
        var config = Configuration()
        config.readonly = true
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        #expect {
            try dbQueue.writeWithoutTransaction { db throws in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_READONLY
        }
        #expect(try dbQueue.read { db throws in try db.tableExists("t") })
        // A read-only connection does not create a missing file.
        #expect(throws: DatabaseError.self) {
            try DatabaseQueue(path: directory.filePath("missing.sqlite"), configuration: config)
        }
    }

    /// Each connection is named after the configuration's label, or GRDB's
    /// default names, in its description (the labels of the dispatch queues
    /// are the same, but Swift on Linux cannot read them).
    @Test(arguments: [nil, "Inventory"])
    func labelsNameTheConnections(label: String?) throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.label = label
        func expected(_ defaultName: String, _ suffix: String) -> String {
            (label ?? defaultName) + suffix
        }

        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.inDatabase { db throws in
            #expect(db.description == expected("GRDB.DatabaseQueue", ""))
        }

        let dbPool = try DatabasePool(path: directory.filePath(), configuration: config)
        try dbPool.write { db throws in
            #expect(db.description == expected("GRDB.DatabasePool", ".writer"))
            try db.execute(sql: "CREATE TABLE t(a)")
        }
        try dbPool.read { db throws in
            #expect(db.description == expected("GRDB.DatabasePool", ".reader.1"))
        }
        // The snapshots of a pool are numbered.
        for number in 1...2 {
            let snapshot = try dbPool.makeSnapshot()
            try snapshot.read { db throws in
                #expect(db.description == expected("GRDB.DatabasePool", ".snapshot.\(number)"))
            }
        }
        // The readers of each snapshot pool are numbered from 1.
        for _ in 1...2 {
            let snapshotPool = try dbPool.makeSnapshotPool()
            try snapshotPool.read { db throws in
                #expect(db.description == expected("GRDB.DatabaseSnapshotPool", ".snapshot.1"))
            }
        }
    }

    @Test func walJournalMode() throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.journalMode = .wal
        let dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: config)
        #expect(try dbQueue.read { db throws in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        // An in-memory database cannot use WAL.
        #expect {
            try DatabaseQueue(configuration: config)
        } throws: { error in
            (error as? DatabaseError)?.message?.contains("WAL") == true
        }
    }

    @Test func busyTimeout() throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.busyMode = .timeout(0.2)
        let dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: config)
        let otherQueue = try DatabaseQueue(path: directory.filePath())
        try dbQueue.write { db throws in try db.execute(sql: "CREATE TABLE t(a)") }
        try otherQueue.inDatabase { db throws in
            try db.execute(sql: "BEGIN IMMEDIATE")
            let start = Date()
            #expect {
                try dbQueue.write { db throws in try db.execute(sql: "INSERT INTO t VALUES (1)") }
            } throws: { error in
                (error as? DatabaseError)?.resultCode == .SQLITE_BUSY
            }
            #expect(Date().timeIntervalSince(start) >= 0.15)
            try db.execute(sql: "ROLLBACK")
        }
    }

    @Test func busyCallback() throws {
        let directory = try TemporaryDirectory()
        let tries = Locked(0)
        var config = Configuration()
        config.busyMode = .callback { numberOfTries in
            tries.withLock { $0 = numberOfTries + 1 }
            return numberOfTries < 2
        }
        let dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: config)
        let otherQueue = try DatabaseQueue(path: directory.filePath())
        try dbQueue.write { db throws in try db.execute(sql: "CREATE TABLE t(a)") }
        try otherQueue.inDatabase { db throws in
            try db.execute(sql: "BEGIN IMMEDIATE")
            #expect(throws: DatabaseError.self) {
                try dbQueue.write { db throws in try db.execute(sql: "INSERT INTO t VALUES (1)") }
            }
            try db.execute(sql: "ROLLBACK")
        }
        #expect(tries.withLock { $0 } == 3)
    }

    @Test func prepareDatabaseRunsOnEachConnection() throws {
        let count = Locked(0)
        var config = Configuration()
        config.prepareDatabase { db in
            count.withLock { $0 += 1 }
            try db.execute(sql: "PRAGMA cache_size = -1000")
        }
        config.prepareDatabase { db in
            db.add(function: DatabaseFunction("answer", argumentCount: 0) { _ in 42 })
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        _ = try DatabaseQueue(configuration: config)
        #expect(count.withLock { $0 } == 2)
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT answer()") == 42)
            #expect(try Int.fetchOne(db, sql: "PRAGMA cache_size") == -1000)
        }
    }

    struct SetupError: Error {}

    @Test func failingPrepareDatabaseAbortsOpening() throws {
        var config = Configuration()
        config.prepareDatabase { _ in throw SetupError() }
        #expect(throws: SetupError.self) { try DatabaseQueue(configuration: config) }
    }

    @Test func notADatabaseFails() throws {
        let directory = try TemporaryDirectory()
        let path = directory.filePath()
        try Data(repeating: 42, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect {
            try DatabaseQueue(path: path)
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_NOTADB
        }
    }

    @Test func busyModeIsADatabaseType() {
        var config = Configuration()
        let mode: Database.BusyMode = .timeout(1)
        config.busyMode = mode
        guard case .timeout(let seconds) = config.busyMode else {
            Issue.record("unexpected busy mode")
            return
        }
        #expect(seconds == 1)
        let callback: Database.BusyCallback = { _ in false }
        config.busyMode = .callback(callback)
        // The former nested name remains.
        let legacy: Configuration.BusyMode = .immediateError
        config.busyMode = legacy
    }

    @Test func qualitiesOfServiceFollowTheTargetQueues() {
        var config = Configuration()
        config.qos = .utility
        #expect(config.readQoS == .utility)
        #expect(config.writeQoS == .utility)
        config.targetQueue = DispatchQueue(label: "reads", qos: .background, attributes: .concurrent)
        #expect(config.readQoS == .background)
        #expect(config.writeQoS == .background)
        config.writeTargetQueue = DispatchQueue(label: "writes", qos: .userInitiated)
        #expect(config.readQoS == .background)
        #expect(config.writeQoS == .userInitiated)
    }

    /// The name of the target queue that the current code runs on, if any.
    static let targetKey = DispatchSpecificKey<String>()

    static func makeTargetQueue(_ name: String, concurrent: Bool = false) -> DispatchQueue {
        let queue = DispatchQueue(label: name, attributes: concurrent ? .concurrent : [])
        queue.setSpecific(key: targetKey, value: name)
        return queue
    }

    @Test func databaseQueueRunsOnTheTargetQueue() throws {
        var config = Configuration()
        config.targetQueue = Self.makeTargetQueue("target")
        let dbQueue = try DatabaseQueue(configuration: config)
        #expect(try dbQueue.read { _ in DispatchQueue.getSpecific(key: Self.targetKey) } == "target")
        #expect(try dbQueue.write { _ in DispatchQueue.getSpecific(key: Self.targetKey) } == "target")
        // The write target queue comes first for the connection of a queue.
        config.writeTargetQueue = Self.makeTargetQueue("writes")
        let writingQueue = try DatabaseQueue(configuration: config)
        #expect(try writingQueue.read { _ in DispatchQueue.getSpecific(key: Self.targetKey) } == "writes")
    }

    @Test func databasePoolRunsWritesAndAsyncReadsOnTheTargetQueues() throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.targetQueue = Self.makeTargetQueue("reads", concurrent: true)
        config.writeTargetQueue = Self.makeTargetQueue("writes")
        let dbPool = try DatabasePool(path: directory.filePath(), configuration: config)
        #expect(try dbPool.write { _ in DispatchQueue.getSpecific(key: Self.targetKey) } == "writes")
        // Synchronous reads run on the calling thread.
        #expect(try dbPool.read { _ in DispatchQueue.getSpecific(key: Self.targetKey) } == nil)
        let asyncName = Locked<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        dbPool.asyncRead { _ in
            asyncName.withLock { $0 = DispatchQueue.getSpecific(key: Self.targetKey) }
            done.signal()
        }
        done.wait()
        #expect(asyncName.withLock { $0 } == "reads")
    }

    @Test(arguments: [false, true])
    func persistentReadOnlyConnections(persistent: Bool) throws {
        let directory = try TemporaryDirectory()
        let openings = Locked(0)
        var config = Configuration()
        config.persistentReadOnlyConnections = persistent
        config.prepareDatabase { _ in openings.withLock { $0 += 1 } }
        let dbPool = try DatabasePool(path: directory.filePath(), configuration: config)
        try dbPool.write { db throws in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        _ = try dbPool.read { db throws in try Int.fetchOne(db, sql: "SELECT a FROM t") }
        let afterFirstRead = openings.withLock { $0 }

        dbPool.releaseMemory()
        #expect(try dbPool.read { db throws in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
        #expect(openings.withLock { $0 } == afterFirstRead + (persistent ? 0 : 1))

        dbPool.releaseMemoryEventually()
        #expect(try dbPool.read { db throws in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
        #expect(try dbPool.write { db throws in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
        #expect(openings.withLock { $0 } == afterFirstRead + (persistent ? 0 : 2))
    }

    /// The WAL mode, a busy timeout, and synchronous = NORMAL, on a queue
    /// and on the writer and readers of a pool.
    @Test func prepareForReplication() throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.prepareForReplication(busyTimeout: 2)
        guard case .timeout(let timeout) = config.busyMode else {
            Issue.record("busyMode is \(config.busyMode)")
            return
        }
        #expect(timeout == 2)

        let dbQueue = try DatabaseQueue(path: directory.filePath("queue.sqlite"), configuration: config)
        try dbQueue.inDatabase { db throws in
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
            #expect(try Int.fetchOne(db, sql: "PRAGMA synchronous") == 1)
        }
        let dbPool = try DatabasePool(path: directory.filePath("pool.sqlite"), configuration: config)
        #expect(try dbPool.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } == 1)
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } == 1)

        // A default queue keeps SQLite's FULL (2).
        let plain = try DatabaseQueue(path: directory.filePath("plain.sqlite"))
        #expect(try plain.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } == 2)
    }
}
