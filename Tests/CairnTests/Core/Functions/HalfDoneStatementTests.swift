import Foundation
import Testing
import Cairn

/// A Swift function that fails in the middle of a statement that writes
/// never leaves part of the statement's changes: SQLite keeps the rows
/// written before the failure when the statement has no statement journal
/// (`INSERT INTO … SELECT … FROM function()`), so Cairn rolls back the
/// transaction. A query that fails leaves its transaction open.
@Suite struct HalfDoneStatementTests {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "failed on purpose" }
    }

    /// A table function of the values 1…5 that throws instead of giving 4.
    static let failingNumbers = DatabaseTableFunction("failing_numbers", columns: ["value"]) { _ in
        var next = 0
        return AnyCursor {
            next += 1
            if next == 4 { throw Failure() }
            return next <= 5 ? [next] : nil
        }
    }

    /// A function that returns its argument, and throws for 4.
    static func failingIdentity(_ error: any Error) -> DatabaseFunction {
        DatabaseFunction("failing_identity", argumentCount: 1) { values in
            if Int.fromDatabaseValue(values[0]) == 4 { throw error }
            return values[0]
        }
    }

    func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.add(tableFunction: HalfDoneStatementTests.failingNumbers)
            db.add(function: HalfDoneStatementTests.failingIdentity(Failure()))
            try db.execute(sql: """
                CREATE TABLE log (value INTEGER);
                CREATE TABLE number (value INTEGER);
                INSERT INTO number VALUES (1), (2), (3), (4), (5);
                """)
        }
        return dbQueue
    }

    func loggedValues(_ dbQueue: DatabaseQueue) throws -> [Int] {
        try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT value FROM log ORDER BY rowid") }
    }

    /// Runs `sql` in a write that catches its error and goes on, as the
    /// docs of SQL functions used to suggest, and returns the caught error.
    /// The write must throw: its transaction was rolled back, and nothing
    /// of it may commit (SQLite alone would commit 0 and the rows that
    /// `sql` inserted before the failure).
    func errorOfCaughtFailure(_ dbQueue: DatabaseQueue, _ sql: String) throws -> (any Error)? {
        var caught: (any Error)?
        #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO log VALUES (0)")
                do {
                    try db.execute(sql: sql)
                } catch {
                    caught = error
                }
                #expect(!db.isInsideTransaction)
            }
        }
        #expect(try loggedValues(dbQueue) == [])
        return caught
    }

    @Test func failingTableFunctionRollsBackTheWrite() throws {
        let dbQueue = try makeQueue()
        let error = try errorOfCaughtFailure(dbQueue, "INSERT INTO log SELECT value FROM failing_numbers") as? DatabaseError
        #expect(error?.resultCode == .SQLITE_ERROR)
        #expect(error?.message == "failed on purpose")
    }

    @Test func caughtErrorLeavesNoTransaction() throws {
        let dbQueue = try makeQueue()
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN")
            try db.execute(sql: "INSERT INTO log VALUES (0)")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO log SELECT value FROM failing_numbers")
            }
            // The code that catches the error and goes on commits nothing
            // half done: the transaction is gone.
            #expect(!db.isInsideTransaction)
            #expect(throws: DatabaseError.self) { try db.execute(sql: "COMMIT") }
        }
        #expect(try loggedValues(dbQueue) == [])
    }

    @Test func failingSQLFunctionRollsBackTheWrite() throws {
        let dbQueue = try makeQueue()
        let sql = "INSERT INTO log SELECT failing_identity(value) FROM number"
        let error = try errorOfCaughtFailure(dbQueue, sql) as? DatabaseError
        #expect(error?.message == "failed on purpose")
        #expect(error?.sql == sql)
    }

    @Test func databaseErrorOfSQLFunctionKeepsItsCodeAndRollsBack() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            db.add(function: HalfDoneStatementTests.failingIdentity(
                DatabaseError(resultCode: .SQLITE_CONSTRAINT_CHECK, message: "four is refused")))
        }
        let error = try errorOfCaughtFailure(dbQueue, "INSERT INTO log SELECT failing_identity(value) FROM number")
            as? DatabaseError
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_CHECK)
        #expect(error?.message == "four is refused")
    }

    @Test func failingUpdateRollsBack() throws {
        let dbQueue = try makeQueue()
        _ = try errorOfCaughtFailure(dbQueue, "UPDATE number SET value = failing_identity(value) * 10")
        #expect(try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT value FROM number ORDER BY rowid") }
            == [1, 2, 3, 4, 5])
    }

    @Test func failingQueryLeavesTheTransactionOpen() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO log VALUES (0)")
            #expect(throws: DatabaseError.self) { try Int.fetchAll(db, sql: "SELECT value FROM failing_numbers") }
            #expect(throws: DatabaseError.self) {
                try Int.fetchAll(db, sql: "SELECT failing_identity(value) FROM number")
            }
            #expect(db.isInsideTransaction)
            try db.execute(sql: "INSERT INTO log VALUES (6)")
        }
        #expect(try loggedValues(dbQueue) == [0, 6])
    }

    @Test func failingStatementOutsideOfTransactionChangesNothing() throws {
        let dbQueue = try makeQueue()
        try dbQueue.writeWithoutTransaction { db in
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO log SELECT value FROM failing_numbers")
            }
            try db.execute(sql: "INSERT INTO log VALUES (6)")
        }
        #expect(try loggedValues(dbQueue) == [6])
    }

    @Test func failingAuxiliaryFunctionRollsBackTheWrite() throws {
        let dbQueue = try makeQueue()
        let failing = FTS5AuxiliaryFunction("failing_aux") { context, _ in
            let rowID = try context.rowID()
            if rowID == 2 { throw Failure() }
            return rowID
        }
        try dbQueue.write { db in
            db.add(auxiliaryFunction: failing)
            try db.execute(sql: """
                CREATE VIRTUAL TABLE doc USING fts5(body);
                INSERT INTO doc(rowid, body) VALUES (1, 'apple'), (2, 'apple pie'), (3, 'apple tart');
                """)
        }
        let error = try errorOfCaughtFailure(
            dbQueue, "INSERT INTO log SELECT failing_aux(doc) FROM doc WHERE doc MATCH 'apple' ORDER BY rowid")
        #expect(error is Failure)
    }
}
