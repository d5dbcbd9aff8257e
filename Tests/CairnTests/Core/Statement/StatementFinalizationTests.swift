import Dispatch
import Foundation
import Testing
import Cairn

/// Statements are finalized on a thread that may use their connection.
///
/// SQLite runs in multi-thread mode: `sqlite3_finalize` on one thread while
/// another runs an access to the same connection would corrupt the
/// connection. A statement released outside of an access (a kept statement,
/// or a cursor row, which is `Sendable`, released on another thread) waits
/// for the next access to its connection, for its closing, or for its
/// deinitialization.
@Suite struct StatementFinalizationTests {
    /// The SQL of the statements prepared on a connection.
    private func preparedSQL(_ connection: SQLiteConnection?) -> [String] {
        var result: [String] = []
        var statement = sqlite3_next_stmt(connection, nil)
        while let current = statement {
            result.append(sqlite3_sql(current).map { String(cString: $0) } ?? "")
            statement = sqlite3_next_stmt(connection, current)
        }
        return result
    }

    /// A cursor row that holds the last reference to its statement.
    private func rowHoldingStatement(_ db: Database, sql: String) throws -> Row {
        let statement = try db.makeStatement(sql: sql)
        return try #require(try Row.fetchCursor(statement).next())
    }

    @Test func statementReleasedInsideItsAccessIsFinalizedAtOnce() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            var statement: Statement? = try db.makeStatement(sql: "SELECT 'released inside'")
            #expect(preparedSQL(db.sqliteConnection).contains("SELECT 'released inside'"))
            #expect(statement != nil)
            statement = nil
            #expect(!preparedSQL(db.sqliteConnection).contains("SELECT 'released inside'"))
        }
    }

    @Test func statementReleasedOutsideAccessesWaitsForTheNextAccess() throws {
        let dbQueue = try DatabaseQueue()
        var kept: Statement?
        var row: Row?
        var connection: SQLiteConnection?
        try dbQueue.inDatabase { db in
            kept = try db.makeStatement(sql: "SELECT 'kept statement'")
            row = try rowHoldingStatement(db, sql: "SELECT 'kept row'")
            connection = db.sqliteConnection
        }
        #expect(kept != nil && row != nil)
        kept = nil
        row = nil
        // No access runs: the test may look at the connection. The
        // statements were not finalized on this thread.
        #expect(preparedSQL(connection).contains("SELECT 'kept statement'"))
        #expect(preparedSQL(connection).contains("SELECT 'kept row'"))
        dbQueue.inDatabase { db in
            let prepared = preparedSQL(db.sqliteConnection)
            #expect(!prepared.contains("SELECT 'kept statement'"))
            #expect(!prepared.contains("SELECT 'kept row'"))
        }
    }

    @Test func queueClosesWithStatementsWaitingForFinalization() throws {
        let dbQueue = try DatabaseQueue()
        var kept: Statement? = try dbQueue.inDatabase { db in try db.makeStatement(sql: "SELECT 1") }
        #expect(kept != nil)
        kept = nil
        // The released statement is not the user's any longer.
        try dbQueue.close()
    }

    @Test func poolClosesWithStatementsWaitingForFinalization() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("cairn-finalization-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dbPool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path)
        var row: Row? = try dbPool.read { db in try rowHoldingStatement(db, sql: "SELECT 'reader'") }
        var kept: Statement? = try dbPool.write { db in try db.makeStatement(sql: "SELECT 'writer'") }
        #expect(row != nil && kept != nil)
        row = nil
        kept = nil
        try dbPool.close()
    }

    @Test func statementsOutlivingTheirConnectionAreFinalizedOneAtATime() throws {
        var dbQueue: DatabaseQueue? = try DatabaseQueue()
        // The array is only referenced by the lock: its rows are released
        // where they are removed from it.
        let shared = try Locked(#require(dbQueue).inDatabase { db in
            try (0..<32).map { try rowHoldingStatement(db, sql: "SELECT \($0)") }
        })
        // The connection is deinitialized: sqlite3_close_v2 keeps it until
        // its last statement is finalized.
        dbQueue = nil
        // Released on several threads at once.
        TestThreads.concurrentPerform(iterations: 4) { _ in
            while shared.withLock({ $0.popLast() }) != nil { }
        }
        #expect(shared.withLock { $0.isEmpty })
    }

    /// Cursor rows released on another thread while this thread runs
    /// accesses. Before statements waited for an access, AddressSanitizer
    /// reported a heap-use-after-free in `sqlite3VdbeDelete` (under
    /// `sqlite3_finalize`, on the releasing thread) within the first run:
    /// SQLite unlinked the statement from the connection's list while this
    /// thread linked new ones.
    @Test func rowsReleasedOnAnotherThreadDuringAccesses() throws {
        let dbQueue = try DatabaseQueue()
        for round in 0..<100 {
            let shared = try Locked(dbQueue.inDatabase { db in
                try (0..<100).map { try rowHoldingStatement(db, sql: "SELECT \($0), \(round)") }
            })
            let released = DispatchSemaphore(value: 0)
            TestThreads.detach {
                // The rows leave the lock at once, and are released
                // without synchronizing with the accesses below.
                var rows = shared.withLock { rows in
                    defer { rows = [] }
                    return rows
                }
                while !rows.isEmpty {
                    rows.removeLast()
                }
                released.signal()
            }
            for index in 0..<100 {
                // A new statement at each access: SQLite links it into the
                // connection's list of statements, which sqlite3_finalize
                // unlinks from.
                let value = try dbQueue.read { db in
                    try Int.fetchOne(db.makeStatement(sql: "SELECT \(index) + \(round)"))
                }
                #expect(value == index + round)
            }
            released.wait()
        }
        dbQueue.inDatabase { db in
            // Only the statements of the last access wait.
            let prepared = preparedSQL(db.sqliteConnection)
            #expect(!prepared.contains { $0.hasPrefix("SELECT 0, ") || $0.hasPrefix("SELECT 99, ") })
        }
    }
}

