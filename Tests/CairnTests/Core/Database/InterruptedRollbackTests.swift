import Foundation
import Testing
import Cairn

/// An interrupt that reaches a ROLLBACK as it starts (`interrupt()`, or the
/// cancellation of an async access, from another thread) makes SQLite fail
/// the ROLLBACK with `SQLITE_INTERRUPT` and keep the transaction open.
/// Cairn rolls back again: the changes of a failed write are not kept, the
/// connection is left without a transaction, and the next accesses work.
///
/// The tests send the interrupt from the trace callback of the ROLLBACK
/// statement, which SQLite calls when the statement starts: the same moment
/// as the race, every time.
@Suite struct InterruptedRollbackTests {
    struct TestError: Error {}

    /// Traces `db` and interrupts `reader` when a ROLLBACK (or a statement
    /// of another prefix) starts, `count` times at most.
    func interruptRollbacks(of db: Database, with reader: some DatabaseReader, count: Int = 1, prefixes: [String] = ["ROLLBACK"]) {
        let remaining = Locked(count)
        db.trace { event in
            guard prefixes.contains(where: { event.description.hasPrefix($0) }) else { return }
            let interrupts = remaining.withLock { remaining in
                defer { remaining -= 1 }
                return remaining > 0
            }
            if interrupts { reader.interrupt() }
        }
    }

    @Test func aFailedWriteIsRolledBackWhenItsRollbackIsInterrupted() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        #expect(throws: TestError.self) {
            try dbQueue.writeWithoutTransaction { db throws in
                // The rollback of inTransaction, and the one of the end of
                // the access (the trace stays until the next access).
                interruptRollbacks(of: db, with: dbQueue, count: 2)
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO t VALUES (1)")
                    throw TestError()
                }
            }
        }
        try dbQueue.writeWithoutTransaction { db throws in
            db.trace(nil)
            #expect(!db.isInsideTransaction)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 0)
        }
        // The next write commits its own changes only.
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t") } == [2])
    }

    /// A pool reader whose COMMIT, and then the ROLLBACKs that follow, are
    /// interrupted: the read fails, and the next read on the same reader
    /// sees the latest commit (not the snapshot of a transaction left open).
    @Test func poolReadersDoNotKeepAnOldTransaction() throws {
        let directory = try TemporaryDirectory()
        var configuration = Configuration()
        configuration.maximumReaderCount = 1
        let dbPool = try DatabasePool(path: directory.filePath(), configuration: configuration)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        #expect(throws: DatabaseError.self) {
            try dbPool.read { db in
                interruptRollbacks(of: db, with: dbPool, count: 3, prefixes: ["COMMIT", "ROLLBACK"])
                _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
            }
        }
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        try dbPool.read { db throws in
            db.trace(nil)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 2)
        }
    }

    @Test func snapshotPoolReadersStayUsable() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.filePath())
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        let snapshotPool = try dbPool.makeSnapshotPool()
        // Each read of a snapshot pool ends with a ROLLBACK.
        try snapshotPool.read { db throws in
            interruptRollbacks(of: db, with: snapshotPool, count: 1)
            #expect(try Int.fetchOne(db, sql: "SELECT a FROM t") == 1)
        }
        for _ in 0..<3 {
            try snapshotPool.read { db throws in
                db.trace(nil)
                #expect(try Int.fetchOne(db, sql: "SELECT a FROM t") == 1)
            }
        }
    }
}
