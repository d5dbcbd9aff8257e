import Foundation
import Testing
import Cairn

/// `Database.transactionDate`: one date per transaction, from the clock of
/// the configuration.
@Suite struct TransactionDateTests {
    /// A clock that returns 1, 2, 3… seconds since 1970.
    private func makeQueue() throws -> DatabaseQueue {
        let counter = Locked(0.0)
        var configuration = Configuration()
        configuration.transactionClock = .custom { _ in
            counter.withLock { value in
                value += 1
                return Date(timeIntervalSince1970: value)
            }
        }
        return try DatabaseQueue(configuration: configuration)
    }

    private func seconds(_ date: Date) -> Int { Int(date.timeIntervalSince1970) }

    @Test func eachCallOutsideOfTransactionsReadsTheClock() throws {
        try makeQueue().inDatabase { db throws -> Void in
            #expect(try seconds(db.transactionDate) == 1)
            #expect(try seconds(db.transactionDate) == 2)
        }
    }

    @Test func oneDatePerTransaction() throws {
        try makeQueue().inDatabase { db throws -> Void in
            try db.execute(sql: "BEGIN")
            #expect(try seconds(db.transactionDate) == 1)
            #expect(try seconds(db.transactionDate) == 1)
            try db.execute(sql: "COMMIT")
            try db.execute(sql: "BEGIN")
            #expect(try seconds(db.transactionDate) == 2)
            try db.execute(sql: "ROLLBACK")
            #expect(try seconds(db.transactionDate) == 3)
        }
    }

    @Test func aTransactionRolledBackByAnErrorEndsItsDate() throws {
        try makeQueue().inDatabase { db throws -> Void in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY ON CONFLICT ROLLBACK)")
            try db.execute(sql: "BEGIN")
            #expect(try seconds(db.transactionDate) == 1)
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t VALUES (1)") }
            #expect(!db.isInsideTransaction)
            try db.execute(sql: "BEGIN")
            #expect(try seconds(db.transactionDate) == 2)
            try db.execute(sql: "COMMIT")
        }
    }

    @Test func writesOfOneTransactionShareTheDate() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws -> Void in
            try db.execute(sql: "CREATE TABLE event(date DATETIME)")
            try db.execute(sql: "INSERT INTO event VALUES (?)", arguments: [db.transactionDate])
            try db.execute(sql: "INSERT INTO event VALUES (?)", arguments: [db.transactionDate])
        }
        try dbQueue.write { db throws -> Void in
            try db.execute(sql: "INSERT INTO event VALUES (?)", arguments: [db.transactionDate])
        }
        let dates = try dbQueue.read { db throws in try Date.fetchAll(db, sql: "SELECT date FROM event") }
        #expect(dates.map(seconds) == [1, 1, 2])
    }

    @Test func theDefaultClockIsTheSystemDate() throws {
        let before = Date()
        let date = try DatabaseQueue().inDatabase { db throws in try db.transactionDate }
        #expect(date >= before && date <= Date())
    }
}
