import Foundation
import Testing
import Cairn

/// Transactions and savepoints as GRDB 7.8 runs them: the statements they
/// trace, what `rollback()` does outside of a transaction, and the errors of
/// blocks whose transaction a statement of the user ended.
@Suite struct GRDBTransactionTests {
    /// An in-memory queue with a `note` table, that records the statements
    /// it runs.
    struct TracedQueue {
        let dbQueue: DatabaseQueue
        private let statements = Locked<[String]>([])

        init() throws {
            let statements = self.statements
            var config = Configuration()
            config.prepareDatabase { db in
                db.trace { event in statements.withLock { $0.append(event.expandedDescription) } }
            }
            dbQueue = try DatabaseQueue(configuration: config)
            try dbQueue.write { db in try db.execute(sql: "CREATE TABLE note (text TEXT)") }
        }

        /// The statements that `body` ran, in an access without transaction.
        func trace(_ body: (Database) throws -> Void) throws -> [String] {
            statements.withLock { $0.removeAll() }
            try dbQueue.writeWithoutTransaction(body)
            return statements.withLock { $0 }
        }

        func texts() throws -> [String] {
            try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT text FROM note ORDER BY rowid") }
        }
    }

    func insert(_ db: Database, _ text: String) throws {
        try db.execute(sql: "INSERT INTO note (text) VALUES (?)", arguments: [text])
    }

    func isAbort(_ error: any Error, sql: String?) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_ABORT
            && error.message == "Transaction was aborted"
            && error.sql == sql
    }

    @Test func nestedSavepointsAreAllNamedGrdb() throws {
        let queue = try TracedQueue()
        let statements = try queue.trace { db in
            try db.inTransaction {
                try insert(db, "outer")
                try db.inSavepoint {
                    try insert(db, "kept")
                    try db.inSavepoint {
                        try insert(db, "undone")
                        return .rollback
                    }
                    return .commit
                }
                return .commit
            }
        }
        #expect(statements == [
            "BEGIN IMMEDIATE TRANSACTION",
            "INSERT INTO note (text) VALUES ('outer')",
            "SAVEPOINT grdb",
            "INSERT INTO note (text) VALUES ('kept')",
            "SAVEPOINT grdb",
            "INSERT INTO note (text) VALUES ('undone')",
            "ROLLBACK TRANSACTION TO SAVEPOINT grdb",
            "RELEASE SAVEPOINT grdb",
            "RELEASE SAVEPOINT grdb",
            "COMMIT TRANSACTION",
        ])
        #expect(try queue.texts() == ["outer", "kept"])
    }

    @Test func aSavepointOutsideOfATransactionIsATransaction() throws {
        let queue = try TracedQueue()
        let statements = try queue.trace { db in
            try db.inSavepoint {
                try insert(db, "gone")
                return .rollback
            }
        }
        #expect(statements == [
            "BEGIN IMMEDIATE TRANSACTION",
            "INSERT INTO note (text) VALUES ('gone')",
            "ROLLBACK TRANSACTION",
        ])
    }

    @Test func aFailedStatementRollsTheTransactionBack() throws {
        let queue = try TracedQueue()
        var thrown: (any Error)?
        let statements = try queue.trace { db in
            do {
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO missing (text) VALUES (?)", arguments: ["x"])
                    return .commit
                }
            } catch {
                thrown = error
            }
        }
        let error = try #require(thrown as? DatabaseError)
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.message == "no such table: missing")
        #expect(error.sql == "INSERT INTO missing (text) VALUES (?)")
        #expect(statements == ["BEGIN IMMEDIATE TRANSACTION", "ROLLBACK TRANSACTION"])
    }

    @Test func rollbackOutsideOfATransactionDoesNothing() throws {
        let queue = try TracedQueue()
        let statements = try queue.trace { db in
            try db.rollback()
            #expect(!db.isInsideTransaction)
        }
        #expect(statements == [])
        // COMMIT has no such leniency.
        _ = queue.dbQueue.writeWithoutTransaction { db in
            #expect {
                try db.commit()
            } throws: { error in
                let error = error as? DatabaseError
                return error?.resultCode == .SQLITE_ERROR
                    && error?.message == "cannot commit - no transaction is active"
                    && error?.sql == "COMMIT TRANSACTION"
            }
        }
    }

    @Test func aCommitOfTheUserAbortsTheWrite() throws {
        let queue = try TracedQueue()
        // The commit keeps the changes, and the write throws.
        #expect {
            try queue.dbQueue.write { db in
                try insert(db, "committed")
                try db.commit()
            }
        } throws: { isAbort($0, sql: nil) }
        #expect(try queue.texts() == ["committed"])

        // Later statements of the block throw too, and do not run.
        #expect {
            try queue.dbQueue.write { db in
                try db.execute(sql: "INSERT INTO note (text) VALUES ('second'); COMMIT")
                #expect(!db.isInsideTransaction)
                try insert(db, "third")
            }
        } throws: { isAbort($0, sql: "INSERT INTO note (text) VALUES (?)") }
        #expect(try queue.texts() == ["committed", "second"])

        // A rollback completion has nothing to roll back, and does not throw.
        try queue.dbQueue.inTransaction { db in
            try db.commit()
            return .rollback
        }
    }

    @Test func anAbortedBlockThrowsWithoutSQL() throws {
        let queue = try TracedQueue()
        try queue.dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE code (value UNIQUE ON CONFLICT ROLLBACK)")
        }
        // All errors are caught inside: the end of the block throws.
        #expect {
            try queue.dbQueue.write { db in
                try? db.execute(sql: "INSERT INTO code VALUES (1); INSERT INTO code VALUES (1)")
            }
        } throws: { error in
            isAbort(error, sql: nil)
                && (error as? DatabaseError)?.description == "SQLite error 4: Transaction was aborted"
        }
        // The same in a savepoint that commits.
        #expect {
            try queue.dbQueue.write { db in
                try db.inSavepoint {
                    try? db.execute(sql: "INSERT INTO code VALUES (2); INSERT INTO code VALUES (2)")
                    return .commit
                }
            }
        } throws: { isAbort($0, sql: nil) }
        #expect(try queue.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM code") } == 0)
    }
}
