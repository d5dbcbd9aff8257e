import Foundation
import Testing
import Cairn

/// The notifications are global: the tests of this suite run one at a time,
/// and no other suite observes them.
@Suite(.serialized) struct DatabaseSuspensionTests {
    static func suspend() {
        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
    }

    static func resume() {
        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
    }

    static func isSuspensionError(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_ABORT && error.message == "Database is suspended" && error.isInterruptionError
    }

    func makeConfiguration() -> Configuration {
        var config = Configuration()
        config.observesSuspensionNotifications = true
        return config
    }

    @Test func suspendedQueueRefusesReadsAndWritesOutsideOfWAL() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: makeConfiguration())
        defer { Self.resume() }
        try dbQueue.write { db throws in try db.execute(sql: "CREATE TABLE t (a)") }
        Self.suspend()
        #expect(throws: Error.self) {
            try dbQueue.write { db throws in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        // A read takes a shared lock, outside of WAL mode.
        #expect { try dbQueue.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } }
            throws: { Self.isSuspensionError($0) }
        Self.resume()
        try dbQueue.write { db throws in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try dbQueue.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test func suspendedPoolReadsButDoesNotWrite() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.filePath(), configuration: makeConfiguration())
        defer { Self.resume() }
        try dbPool.write { db throws in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        Self.suspend()
        #expect { try dbPool.write { db throws in try db.execute(sql: "INSERT INTO t VALUES (2)") } }
            throws: { Self.isSuspensionError($0) }
        #expect { try dbPool.writeWithoutTransaction { db throws in try db.execute(sql: "INSERT INTO t VALUES (2)") } }
            throws: { Self.isSuspensionError($0) }
        // Reads in WAL mode run, on readers and on the writer.
        #expect(try dbPool.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
        #expect(try dbPool.writeWithoutTransaction { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
        Self.resume()
        try dbPool.write { db throws in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try dbPool.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
    }

    @Test func suspensionRollsBackTheOpenTransaction() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: makeConfiguration())
        defer { Self.resume() }
        try dbQueue.writeWithoutTransaction { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            try db.beginTransaction()
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            Self.suspend()
            #expect { try db.execute(sql: "INSERT INTO t VALUES (2)") } throws: { Self.isSuspensionError($0) }
            // The lock is released: the transaction was rolled back.
            #expect(!db.isInsideTransaction)
            Self.resume()
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 0)
        }
    }

    @Test func suspensionInterruptsTheRunningStatement() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: makeConfiguration())
        defer { Self.resume() }
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            db.add(function: DatabaseFunction("suspendNow", argumentCount: 1) { values in
                if values[0] == 10.databaseValue { DatabaseSuspensionTests.suspend() }
                return nil
            })
        }
        #expect {
            try dbQueue.write { db throws in
                try db.execute(sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
                    INSERT INTO t SELECT suspendNow(i) FROM n
                    """)
            }
        } throws: { error in
            (error as? DatabaseError)?.isInterruptionError == true
        }
        Self.resume()
        #expect(try dbQueue.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test func connectionsThatDoNotObserveIgnoreTheNotifications() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        defer { Self.resume() }
        Self.suspend()
        try dbQueue.write { db throws in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        #expect(try dbQueue.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
    }
}
