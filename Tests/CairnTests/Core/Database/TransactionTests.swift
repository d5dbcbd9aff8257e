import Foundation
import Testing
import Cairn

@Suite struct TransactionTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in try db.execute(sql: createPlayerTableSQL) }
    }

    func count() throws -> Int {
        try dbQueue.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
    }

    struct TestError: Error {}

    @Test func writeCommitsOrRollsBackEverything() throws {
        try dbQueue.write { db throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
        }
        #expect(try count() == 2)
        #expect(throws: TestError.self) {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')")
                throw TestError()
            }
        }
        #expect(throws: DatabaseError.self) {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('David')")
                try db.execute(sql: "INSERT INTO player (name) VALUES (NULL)")
            }
        }
        #expect(try count() == 2)
    }

    @Test func inTransactionCompletion() throws {
        try dbQueue.inDatabase { db throws in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
                return .commit
            }
            try db.inTransaction(.immediate) {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
                return .rollback
            }
            #expect(throws: TestError.self) {
                try db.inTransaction(.exclusive) {
                    try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')")
                    throw TestError()
                }
            }
            #expect(!db.isInsideTransaction)
        }
        try dbQueue.inTransaction { db throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('David')")
            return .commit
        }
        #expect(try dbQueue.read { db throws in try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id") } == ["Arthur", "David"])
    }

    @Test func nestedSavepoints() throws {
        try dbQueue.write { db throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')")
                    return .rollback
                }
                #expect(throws: TestError.self) {
                    try db.inSavepoint {
                        try db.execute(sql: "INSERT INTO player (name) VALUES ('David')")
                        throw TestError()
                    }
                }
                return .commit
            }
            try db.inSavepoint {
                try db.execute(sql: "DELETE FROM player")
                return .rollback
            }
            #expect(db.isInsideTransaction)
        }
        #expect(try dbQueue.read { db throws in try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id") } == ["Arthur", "Barbara"])

        // Outside of a transaction, a savepoint is a transaction.
        try dbQueue.inDatabase { db throws in
            try db.inSavepoint {
                #expect(db.isInsideTransaction)
                try db.execute(sql: "DELETE FROM player")
                return .rollback
            }
            #expect(!db.isInsideTransaction)
        }
        #expect(try count() == 2)
    }

    @Test func defaultTransactionKind() throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.defaultTransactionKind = .immediate
        let dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: config)
        let otherQueue = try DatabaseQueue(path: directory.filePath())
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t(a)")
        }
        // An immediate transaction takes the write lock at once: another
        // connection cannot write meanwhile.
        _ = try dbQueue.write { db throws in
            #expect(throws: DatabaseError.self) {
                try otherQueue.write { db throws in try db.execute(sql: "INSERT INTO t VALUES (1)") }
            }
        }
    }

    @Test func transactionLeftOpenIsRolledBack() throws {
        #expect {
            try dbQueue.inDatabase { db throws in
                try db.beginTransaction()
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            }
        } throws: { error in
            (error as? DatabaseError)?.message?.hasPrefix("A transaction was left open") == true
        }
        #expect(try count() == 0)
        try dbQueue.inDatabase { db throws in
            try db.beginTransaction()
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            try db.commit()
        }
        #expect(try count() == 1)
    }

    @Test func transactionInsideTransactionThrows() throws {
        #expect(throws: DatabaseError.self) {
            try dbQueue.write { db throws in
                try db.inTransaction { .commit }
            }
        }
    }
}

/// The kinds of the transactions that do not say theirs.
@Suite struct DefaultTransactionKindTests {
    func traced(_ dbQueue: DatabaseQueue, _ body: (Database) throws -> Void) throws -> [String] {
        var statements: [String] = []
        try dbQueue.writeWithoutTransaction { db throws -> Void in
            db.trace { statements.append($0.expandedDescription) }
            defer { db.trace(options: [], nil) }
            try body(db)
        }
        return statements.filter { $0.hasPrefix("BEGIN") }
    }

    @Test func writesAreImmediateAndReadsDeferred() throws {
        let dbQueue = try DatabaseQueue()
        #expect(try traced(dbQueue) { db in
            try db.inTransaction { .commit }
            try db.inSavepoint { .commit }
            try db.beginTransaction()
            try db.rollback()
            try db.inTransaction(.exclusive) { .commit }
        } == ["BEGIN IMMEDIATE TRANSACTION", "BEGIN IMMEDIATE TRANSACTION", "BEGIN IMMEDIATE TRANSACTION", "BEGIN EXCLUSIVE TRANSACTION"])

        // Where writes are forbidden, transactions are deferred.
        #expect(try traced(dbQueue) { db in
            try db.readOnly {
                try db.inTransaction { .commit }
                try db.inSavepoint { .commit }
            }
        } == ["BEGIN DEFERRED TRANSACTION", "BEGIN DEFERRED TRANSACTION"])

        // The default can be configured.
        var configuration = Configuration()
        configuration.defaultTransactionKind = .deferred
        let deferredQueue = try DatabaseQueue(configuration: configuration)
        #expect(try traced(deferredQueue) { db in try db.inTransaction { .commit } } == ["BEGIN DEFERRED TRANSACTION"])
    }
}
