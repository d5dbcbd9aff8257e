import Foundation
import Testing
import Cairn

@Suite struct CursorTests {
    let dbQueue: DatabaseQueue
    let sql = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 10) SELECT x FROM n"

    init() throws {
        dbQueue = try DatabaseQueue()
    }

    @Test func sequenceLikeMethods() throws {
        try dbQueue.read { db throws in
            func numbers() throws -> FastDatabaseValueCursor<Int> { try Int.fetchCursor(db, sql: sql) }
            #expect(try Array(numbers()) == Array(1...10))
            #expect(try Set(numbers()) == Set(1...10))
            #expect(try Array(numbers().map { $0 * 2 }.filter { $0 > 15 }) == [16, 18, 20])
            #expect(try Array(numbers().compactMap { $0 % 3 == 0 ? String($0) : nil }) == ["3", "6", "9"])
            #expect(try numbers().reduce(0, +) == 55)
            #expect(try numbers().reduce(into: [Int]()) { $0.append($1) }.count == 10)
            #expect(try numbers().contains(7))
            #expect(try !numbers().contains { $0 > 10 })
            #expect(try numbers().first { $0 > 4 } == 5)
            #expect(try Array(numbers().prefix(3)) == [1, 2, 3])
            #expect(try Array(numbers().prefix { $0 < 4 }) == [1, 2, 3])
            #expect(try Array(numbers().dropFirst(8)) == [9, 10])
            #expect(try Array(numbers().drop { $0 < 9 }) == [9, 10])
            #expect(try Array(numbers().enumerated().map { $0.offset }) == Array(0...9))
            #expect(try Array(numbers().flatMap { [$0, $0] }.prefix(4)) == [1, 1, 2, 2])
            #expect(try Array(numbers().map { _ in try Int.fetchCursor(db, sql: "SELECT 1") }.joined()).count == 10)
            #expect(try numbers().max() == 10)
            #expect(try numbers().min() == 1)
            #expect(try numbers().map { String($0) }.joined(separator: ",") == "1,2,3,4,5,6,7,8,9,10")
            var visited: [Int] = []
            try numbers().forEach { visited.append($0) }
            #expect(visited == Array(1...10))
            #expect(try Dictionary(grouping: numbers(), by: { $0 % 2 })[0] == [2, 4, 6, 8, 10])
            #expect(try Dictionary(uniqueKeysWithValues: numbers().map { ($0, $0 * $0) })[3] == 9)
            #expect(try AnyCursor(numbers()).isEmpty == false)
            #expect(try Array(AnyCursor([1, 2])) == [1, 2])
        }
    }

    @Test func exhaustedCursorKeepsReturningNil() throws {
        try dbQueue.read { db throws in
            let cursor = try Int.fetchCursor(db, sql: "SELECT 1")
            #expect(try cursor.next() == 1)
            #expect(try cursor.next() == nil)
            #expect(try cursor.next() == nil)
        }
    }

    @Test func abandonedCursorReleasesItsStatement() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1), (2)")
        }
        try dbQueue.inDatabase { db throws in
            let cursor = try Int.fetchCursor(db, sql: "SELECT a FROM t")
            _ = try cursor.next()
        }
        // No read transaction is left open by the abandoned cursor.
        try dbQueue.inDatabase { db throws in
            #expect(!db.isInsideTransaction)
            #expect(sqlite3_stmt_busy(sqlite3_next_stmt(db.sqliteConnection, nil)) == 0)
        }
    }

    /// A cursor dropped before its end releases its statement at once, in
    /// the access: the statement is not busy, and the cache gives it again
    /// (a statement that a cursor still iterates is not reused). For the
    /// four kinds of cursors.
    @Test func cursorDroppedBeforeItsEndReleasesItsStatementAtOnce() throws {
        struct Wrapped: DatabaseValueConvertible {
            var value: Int
            var databaseValue: DatabaseValue { value.databaseValue }
            static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Wrapped? {
                Int.fromDatabaseValue(dbValue).map(Wrapped.init)
            }
        }
        struct Item: FetchableRecord {
            var a: Int
            init(row: Row) { a = row["a"] }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1), (2)")
            let statement = try db.cachedStatement(sql: "SELECT a FROM t")
            let steps: [() throws -> Void] = [
                { _ = try Row.fetchCursor(statement).next() },
                { _ = try Int.fetchCursor(statement).next() },
                { _ = try Wrapped.fetchCursor(statement).next() },
                { _ = try Item.fetchCursor(statement).next() },
            ]
            for step in steps {
                // The cursor steps once, and is dropped when the closure
                // returns.
                try step()
                #expect(sqlite3_stmt_busy(statement.sqliteStatement) == 0)
                #expect(try db.cachedStatement(sql: "SELECT a FROM t") === statement)
            }
        }
    }

    @Test func cursorErrors() throws {
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t(a INT CHECK (a < 3))")
            let cursor = try Row.fetchCursor(db, sql: "INSERT INTO t VALUES (5) RETURNING a")
            // The failure is never mistaken for the end of the rows: the
            // cursor throws again.
            for _ in 0..<2 {
                #expect { try cursor.next() } throws: { error in
                    (error as? DatabaseError)?.extendedResultCode == .SQLITE_CONSTRAINT_CHECK
                }
            }
        }
    }

    /// A Swift function that throws in the middle of the rows fails the
    /// step; every later step of every kind of cursor throws the same error.
    @Test func failedCursorsKeepThrowing() throws {
        struct Item: FetchableRecord {
            var x: Int
            init(row: Row) { x = row[0] }
        }
        try dbQueue.inDatabase { db throws in
            db.add(function: DatabaseFunction("failAt3", argumentCount: 1, pure: true) { values in
                guard let x = Int.fromDatabaseValue(values[0]), x != 3 else {
                    throw DatabaseError(message: "three")
                }
                return x
            })
            let failingSQL = "SELECT failAt3(x) FROM (\(sql))"
            func check<C: Cursor>(_ cursor: C) throws {
                #expect(try cursor.next() != nil)
                #expect(try cursor.next() != nil)
                for _ in 0..<2 {
                    #expect { try cursor.next() } throws: { error in
                        (error as? DatabaseError)?.message == "three"
                    }
                }
            }
            try check(Row.fetchCursor(db, sql: failingSQL))
            try check(Int.fetchCursor(db, sql: failingSQL))
            try check(Item.fetchCursor(db, sql: failingSQL))
            try check(DatabaseValue.fetchCursor(db, sql: failingSQL))
            // The statement can run again afterwards.
            #expect(try Int.fetchAll(db, sql: sql).count == 10)
        }
    }
}

/// Cursors that produce their elements with `forEach` rather than `next()`:
/// the cursors derived from them, and the arrays and sets built from them,
/// use their `forEach`.
@Suite struct CursorForEachTests {
    /// A cursor whose `next()` must not be called.
    final class ForEachOnlyCursor: Cursor {
        let elements: [Int]
        init(_ elements: [Int]) { self.elements = elements }
        func next() -> Int? {
            Issue.record("next() was called")
            return nil
        }
        func forEach(_ body: (Int) throws -> Void) throws {
            for element in elements { try body(element) }
        }
    }

    @Test func derivedCursorsAndCollectionsUseForEach() throws {
        #expect(try Array(ForEachOnlyCursor([1, 2, 3])) == [1, 2, 3])
        #expect(try Set(ForEachOnlyCursor([1, 2, 2])) == [1, 2])
        #expect(try Array(ForEachOnlyCursor([1, 2, 3]).map { $0 * 10 }) == [10, 20, 30])
        #expect(try Array(ForEachOnlyCursor([1, 2, 3, 4]).filter { $0.isMultiple(of: 2) }) == [2, 4])
        #expect(try Array(ForEachOnlyCursor([1, 2, 3]).compactMap { $0 == 2 ? nil : $0 }) == [1, 3])
        let pairs = try Array(ForEachOnlyCursor([7, 8]).enumerated())
        #expect(pairs.map(\.offset) == [0, 1])
        #expect(pairs.map(\.element) == [7, 8])
        var visited: [Int] = []
        try ForEachOnlyCursor([5, 6]).map { $0 + 1 }.forEach { visited.append($0) }
        #expect(visited == [6, 7])
    }

    @Test func enumeratedContinuesItsOffsetsAfterNext() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws -> Void in
            let cursor = try Int.fetchCursor(db, sql: "SELECT 10 UNION ALL SELECT 20 UNION ALL SELECT 30").enumerated()
            let first = try #require(try cursor.next())
            #expect(first.offset == 0 && first.element == 10)
            var rest: [Int] = []
            try cursor.forEach { rest.append($0.offset) }
            #expect(rest == [1, 2])
        }
    }
}
