import Foundation
import Testing
import Cairn

/// Long queries: `Database.setProgressHandler` and `Database.withTimeLimit`.
@Suite struct ProgressHandlerTests {
    /// A query that would run for hours: it counts to ten billion.
    static let endlessSQL = """
        WITH RECURSIVE counter(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM counter WHERE x < 10000000000)
        SELECT COUNT(*) FROM counter
        """

    struct Stop: Error, Equatable { }

    func makeWriter(_ kind: WriterKind, _ directory: TemporaryDirectory) throws -> any DatabaseWriter {
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in try db.execute(sql: "CREATE TABLE t (a INTEGER)") }
        return writer
    }

    @Test(arguments: WriterKind.allCases)
    func aTimeLimitStopsAQueryThatWouldRunForHours(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        let start = Date()
        try writer.read { (db: Database) throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.withTimeLimit(0.2) { try Int.fetchOne(db, sql: ProgressHandlerTests.endlessSQL) }
            }
            #expect(error?.resultCode == .SQLITE_INTERRUPT)
            #expect(error?.message?.contains("time limit of 0.2 seconds") == true)
            // The connection works afterwards, without limit.
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 0)
        }
        let elapsed = Date().timeIntervalSince(start)
        #expect(elapsed >= 0.2)
        #expect(elapsed < 20, "stopped after \(elapsed) s")
    }

    @Test(arguments: WriterKind.allCases)
    func aStoppedQueryLeavesTheTransactionUsable(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        try writer.write { (db: Database) throws in
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            #expect(throws: DatabaseError.self) {
                try db.withTimeLimit(0.1) { try db.execute(sql: ProgressHandlerTests.endlessSQL) }
            }
            #expect(db.isInsideTransaction)
            try db.execute(sql: "INSERT INTO t VALUES (2)")
        }
        #expect(try writer.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") } == [1, 2])
    }

    @Test func aHandlerThatThrowsStopsTheStatementWithItsError() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db: Database) throws in
            var calls = 0
            db.setProgressHandler(instructions: 100) {
                calls += 1
                if calls == 50 { throw Stop() }
            }
            #expect(throws: Stop()) { try Int.fetchOne(db, sql: ProgressHandlerTests.endlessSQL) }
            #expect(calls == 50)

            // A short statement does not reach the handler's limit.
            calls = 0
            #expect(try Int.fetchOne(db, sql: "SELECT 1") == 1)

            // Removed: the handler is not called any longer.
            db.setProgressHandler(nil)
            #expect(try Int.fetchOne(db, sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000) SELECT COUNT(*) FROM c") == 10000)
            #expect(calls == 0)
        }
    }

    @Test func theHandlerAndTimeLimitsShareSQLitesProgressHandler() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db: Database) throws in
            let calls = Locked(0)
            db.setProgressHandler(instructions: 100_000) { calls.withLock { $0 += 1 } }
            // The time limit stops the query; the handler still runs.
            #expect(throws: DatabaseError.self) {
                try db.withTimeLimit(0.1) { try Int.fetchOne(db, sql: ProgressHandlerTests.endlessSQL) }
            }
            #expect(calls.withLock { $0 } > 0)
            // Outside of the limit, the handler alone: it stops the query.
            db.setProgressHandler(instructions: 100_000) {
                calls.withLock { $0 += 1 }
                if calls.withLock({ $0 }) > 100 { throw Stop() }
            }
            #expect(throws: Stop()) { try Int.fetchOne(db, sql: ProgressHandlerTests.endlessSQL) }
            db.setProgressHandler(nil)
        }
    }

    @Test func limitsNestAndTheEarliestApplies() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db: Database) throws in
            let start = Date()
            let error = #expect(throws: DatabaseError.self) {
                try db.withTimeLimit(0.1) {
                    try db.withTimeLimit(600) { try Int.fetchOne(db, sql: ProgressHandlerTests.endlessSQL) }
                }
            }
            #expect(error?.message?.contains("0.1 seconds") == true)
            #expect(Date().timeIntervalSince(start) < 20)

            // Once the limit passed, a short statement throws before it runs.
            let late = #expect(throws: DatabaseError.self) {
                try db.withTimeLimit(0.01) {
                    Thread.sleep(forTimeInterval: 0.05)
                    try db.execute(sql: "SELECT 1")
                }
            }
            #expect(late?.resultCode == .SQLITE_INTERRUPT)
            #expect(late?.sql == "SELECT 1")
            // No limit afterwards.
            #expect(try Int.fetchOne(db, sql: "SELECT 1") == 1)
        }
    }

    @Test func cairnRestoresTheConnectionAfterALimitPassed() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(.queue, directory)
        try writer.writeWithoutTransaction { (db: Database) throws in
            // Once, so that the statements of the read-only block are
            // prepared: SQLite applies a flag pragma when it prepares it.
            try db.readOnly { }
            // The end of the read-only block runs after the limit passed.
            #expect(throws: DatabaseError.self) {
                try db.withTimeLimit(0.01) {
                    try db.readOnly {
                        Thread.sleep(forTimeInterval: 0.05)
                        try db.execute(sql: "SELECT 1")
                    }
                }
            }
            // The connection is writable again.
            try db.execute(sql: "INSERT INTO t VALUES (1)")

            // A transaction block whose statement is stopped rolls back.
            #expect(throws: DatabaseError.self) {
                try db.withTimeLimit(0.1) {
                    try db.inTransaction {
                        try db.execute(sql: "INSERT INTO t VALUES (2)")
                        try db.execute(sql: "INSERT INTO t SELECT x FROM (\(ProgressHandlerTests.endlessSQL.replacingOccurrences(of: "SELECT COUNT(*) FROM counter", with: "SELECT x FROM counter")))")
                        return .commit
                    }
                }
            }
            #expect(!db.isInsideTransaction)
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t") == [1])
        }
    }

    @Test func aFailedSavepointRollsBackAfterTheLimitPassed() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(.queue, directory)
        try writer.write { db in
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            do {
                try db.withTimeLimit(0.01) {
                    try db.inSavepoint {
                        try db.execute(sql: "INSERT INTO t VALUES (2)")
                        Thread.sleep(forTimeInterval: 0.05)
                        try db.execute(sql: "INSERT INTO t VALUES (3)")   // throws
                        return .commit
                    }
                }
                Issue.record("the limit did not stop the savepoint")
            } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
                // The savepoint is rolled back and released: the write goes on.
            }
            try db.execute(sql: "INSERT INTO t VALUES (4)")
        }
        #expect(try writer.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") } == [1, 4])
    }

    @Test(arguments: WriterKind.allCases)
    func theHandlerEndsWithItsAccess(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        let calls = Locked(0)
        try writer.read { db in
            db.setProgressHandler(instructions: 100) { calls.withLock { $0 += 1 } }
            _ = try Int.fetchOne(db, sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000) SELECT COUNT(*) FROM c")
        }
        let callsInTheAccess = calls.withLock { $0 }
        #expect(callsInTheAccess > 0)
        // The next accesses run without it.
        for _ in 0..<3 {
            try writer.read { db in
                _ = try Int.fetchOne(db, sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000) SELECT COUNT(*) FROM c")
            }
        }
        #expect(calls.withLock { $0 } == callsInTheAccess)
    }

    @Test func invalidLimitsThrow() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db: Database) throws in
            for seconds in [-1, .nan, .infinity] as [TimeInterval] {
                let error = #expect(throws: DatabaseError.self) { try db.withTimeLimit(seconds) { } }
                #expect(error?.resultCode == .SQLITE_MISUSE)
            }
        }
    }
}
