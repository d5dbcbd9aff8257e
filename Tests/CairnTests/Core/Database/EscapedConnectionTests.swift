import Foundation
import Testing
import Cairn

/// A connection or a statement that escaped its access stops the program
/// with a clear message when it is used: SQLite's connections have no
/// mutex, and another thread may be using the connection.
@Suite struct EscapedConnectionTests {
    private static let connectionMessage = "A database connection was used outside of its database access"
    private static let statementMessage = "A statement or cursor was used outside of the database access that created it"

    private static func message(_ result: ExitTest.Result?) -> String {
        result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
    }

    @Test func escapedConnectionDoesNotPrepare() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            let db = dbQueue.inDatabase { $0 }
            _ = try db.makeStatement(sql: "SELECT 1")
        }
        #expect(Self.message(result).contains(Self.connectionMessage))
    }

    @Test func escapedConnectionDoesNotExecute() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            let db = dbQueue.inDatabase { $0 }
            try db.execute(sql: "CREATE TABLE t (a)")
        }
    }

    @Test func escapedConnectionDoesNotReadItsState() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            let db = dbQueue.inDatabase { $0 }
            _ = db.lastInsertedRowID
        }
        #expect(Self.message(result).contains(Self.connectionMessage))
    }

    @Test func escapedConnectionDoesNotRegisterFunctions() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            let db = dbQueue.inDatabase { $0 }
            db.add(function: DatabaseFunction("f", argumentCount: 0) { _ in 1 })
        }
    }

    @Test func escapedStatementDoesNotBind() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            let statement = try dbQueue.inDatabase { db in try db.makeStatement(sql: "SELECT ?") }
            try statement.setArguments(["text"])
        }
        #expect(Self.message(result).contains(Self.statementMessage))
    }

    @Test func escapedStatementDoesNotReadSQLite() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            let statement = try dbQueue.inDatabase { db in try db.makeStatement(sql: "SELECT 1") }
            _ = statement.isReadonly
        }
    }

    /// The same calls inside an access work, on any connection of a pool.
    @Test func connectionsAndStatementsWorkInsideTheirAccess() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            db.add(function: DatabaseFunction("f", argumentCount: 0) { _ in 1 })
            let statement = try db.makeStatement(sql: "SELECT f() + ?")
            try statement.setArguments([41])
            #expect(statement.isReadonly)
            #expect(statement.columnCount == 1)
            #expect(try Int.fetchOne(statement) == 42)
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)")
            #expect(db.lastInsertedRowID == 1)
            #expect(db.changesCount == 1)
            #expect(!db.isInsideTransaction)
        }
    }
}
