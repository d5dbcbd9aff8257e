import Foundation
import Testing
import Cairn

/// Transactions that SQLite, or a statement of the user, ends before the
/// block that owns them: the later statements of the block throw
/// `SQLITE_ABORT` instead of running outside of the transaction, and the
/// block ends with an error.
@Suite struct AbortedTransactionTests {
    func makeWriter(_ kind: WriterKind, _ directory: TemporaryDirectory) throws -> any DatabaseWriter {
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in
            try db.execute(sql: """
                CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT UNIQUE ON CONFLICT ROLLBACK);
                INSERT INTO item (name) VALUES ('kept');
                """)
        }
        return writer
    }

    func names(_ writer: some DatabaseReader) throws -> [String] {
        try writer.read { db in try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY id") }
    }

    /// The error that `body` throws, if any.
    func thrownError(_ body: () throws -> Void) -> (any Error)? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    func isAbort(_ error: (any Error)?, sql: String? = nil) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_ABORT && error.message == "Transaction was aborted"
            && (sql == nil || error.sql == sql)
    }

    @Test(arguments: WriterKind.allCases)
    func aConflictResolvedByRollbackAbortsTheBlock(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        let error = thrownError {
            try writer.write { db in
                try db.execute(sql: "INSERT INTO item (name) VALUES ('first')")
                // The conflict rolls the whole transaction back.
                #expect(throws: DatabaseError.self) {
                    try db.execute(sql: "INSERT INTO item (name) VALUES ('kept')")
                }
                #expect(!db.isInsideTransaction)
                // Without the guard, this insert would commit on its own.
                try db.execute(sql: "INSERT INTO item (name) VALUES ('second')")
            }
        }
        #expect(isAbort(error, sql: "INSERT INTO item (name) VALUES ('second')"))
        #expect(try names(writer) == ["kept"])
        // The next access runs as usual.
        try writer.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('third')") }
        #expect(try names(writer) == ["kept", "third"])
    }

    @Test(arguments: WriterKind.allCases)
    func everyStatementAfterTheAbortThrows(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        let error = thrownError {
            try writer.write { db in
                try? db.execute(sql: "INSERT INTO item (name) VALUES ('kept')")
                for sql in ["SELECT COUNT(*) FROM item", "INSERT INTO item (name) VALUES ('x')", "DELETE FROM item"] {
                    #expect {
                        try db.execute(sql: sql)
                    } throws: { error in
                        isAbort(error, sql: sql)
                    }
                }
                // Fetches too, and prepared statements.
                #expect { _ = try Int.fetchOne(db, sql: "SELECT 1") } throws: { isAbort($0) }
                let statement = try db.makeStatement(sql: "SELECT name FROM item")
                #expect { _ = try String.fetchAll(statement) } throws: { isAbort($0) }
            }
        }
        // All errors were caught: the end of the block throws, without
        // SQL, as in GRDB.
        #expect(isAbort(error))
        #expect((error as? DatabaseError)?.sql == nil)
        #expect(try names(writer) == ["kept"])
    }

    @Test func aRollbackOfTheUserAbortsTheBlock() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        let error = thrownError {
            try dbQueue.writeWithoutTransaction { db in
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO t VALUES (1); ROLLBACK; INSERT INTO t VALUES (2)")
                    return .commit
                }
            }
        }
        #expect(isAbort(error, sql: "INSERT INTO t VALUES (2)"))
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test func rollbackIsANoOpOnceAborted() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a UNIQUE ON CONFLICT ROLLBACK)") }
        try dbQueue.writeWithoutTransaction { db in
            // The block rolls back: nothing to do, no error.
            try db.inTransaction {
                try? db.execute(sql: "INSERT INTO t VALUES (1); INSERT INTO t VALUES (1)")
                #expect(!db.isInsideTransaction)
                return .rollback
            }
            // A ROLLBACK of the user does nothing either, and the block
            // still ends with the abort.
            let error = thrownError {
                try db.inTransaction {
                    try? db.execute(sql: "INSERT INTO t VALUES (1); INSERT INTO t VALUES (1)")
                    try db.rollback()
                    try db.execute(sql: "ROLLBACK")
                    return .commit
                }
            }
            #expect(isAbort(error))
            // After the block, statements run again.
            try db.execute(sql: "INSERT INTO t VALUES (2)")
        }
        #expect(try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t") } == [2])
    }

    @Test func aCommitOfTheUserKeepsTheChangesAndAbortsTheBlock() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        // Committed: nothing is lost, but the block, which no longer has
        // its transaction, ends with SQLITE_ABORT, as in GRDB.
        let error = thrownError {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1); COMMIT")
                #expect(!db.isInsideTransaction)
            }
        }
        #expect(isAbort(error))
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test(arguments: WriterKind.allCases)
    func anInterruptAbortsTheWrite(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        let entered = DispatchSemaphore(value: 0)
        let interrupted = DispatchSemaphore(value: 0)
        let outcome = Locked<[String]>([])
        TestThreads.concurrentPerform(iterations: 2) { index in
            if index == 0 {
                do {
                    try writer.write { db in
                        db.add(function: DatabaseFunction("pause", argumentCount: 0, pure: false) { _ in
                            entered.signal()
                            interrupted.wait()
                            return 1
                        })
                        do {
                            try db.execute(sql: "INSERT INTO item (name) SELECT 'x' || pause()")
                        } catch let error as DatabaseError {
                            outcome.withLock { $0.append("insert: \(error.resultCode == .SQLITE_INTERRUPT)") }
                        }
                        outcome.withLock { $0.append("inside: \(db.isInsideTransaction)") }
                        do {
                            try db.execute(sql: "INSERT INTO item (name) VALUES ('after')")
                        } catch {
                            outcome.withLock { $0.append("after: \(isAbort(error))") }
                        }
                    }
                } catch {
                    outcome.withLock { $0.append("write: \(isAbort(error))") }
                }
            } else {
                entered.wait()
                writer.interrupt()
                interrupted.signal()
            }
        }
        #expect(outcome.withLock { $0 } == ["insert: true", "inside: false", "after: true", "write: true"])
        #expect(try names(writer) == ["kept"])
    }

    @Test func renewingTheReadTransactionOfASnapshotIsNoAbort() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.filePath())
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        let snapshot = try dbPool.makeSnapshot()
        try snapshot.read { db in
            try db.execute(sql: "SELECT * FROM t; ROLLBACK; BEGIN TRANSACTION; SELECT * FROM t")
        }
        let count = try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        #expect(count == 0)
    }
}
