import Foundation
import Testing
import Cairn

/// Cursors behave as in GRDB 7.8: the methods of `Cursor`, their laziness,
/// the collections built from cursors, database cursors after their end, and
/// the errors of their steps.
@Suite struct GRDBCursorTests {
    struct Stop: Error, Equatable { }

    /// A cursor of `0..<count`, which throws instead of going further.
    func strict(_ count: Int) -> AnyCursor<Int> {
        var i = 0
        return AnyCursor {
            guard i < count else { throw Stop() }
            defer { i += 1 }
            return i
        }
    }

    @Test func searchesStopAtTheFirstMatch() throws {
        #expect(try strict(3).contains(2))
        #expect(throws: Stop.self) { try strict(3).contains(7) }
        #expect(try strict(3).contains { $0 == 1 })
        #expect(try strict(2).first { $0 == 1 } == 1)
        #expect(throws: Stop.self) { try strict(2).first { $0 == 5 } }
        #expect(throws: Stop.self) { try AnyCursor([1, 2]).contains { _ in throw Stop() } }
        #expect(try AnyCursor([3, 1, 2]).max() == 3)
        #expect(try AnyCursor([3, 1, 2]).min() == 1)
        #expect(try AnyCursor([3, 1, 2]).max(by: >) == 1)
        #expect(try AnyCursor([3, 1, 2]).min(by: >) == 3)
        #expect(try AnyCursor([Int]()).max() == nil)
    }

    @Test func adaptersAreLazy() throws {
        // Taking the first elements does not ask for more.
        #expect(try Array(strict(2).prefix(2)) == [0, 1])
        #expect(try Array(strict(2).prefix { $0 < 1 }) == [0])
        #expect(try Array(strict(10).map { $0 * 10 }.prefix(3)) == [0, 10, 20])
        #expect(try Array(strict(10).filter { $0 % 2 == 1 }.prefix(2)) == [1, 3])
        #expect(try Array(AnyCursor(["1", "x", "3"]).compactMap { Int($0) }) == [1, 3])
        #expect(try Array(AnyCursor([1, 2, 3, 4]).dropFirst()) == [2, 3, 4])
        #expect(try Array(AnyCursor([1, 2, 3, 4]).dropFirst(3)) == [4])
        #expect(try Array(AnyCursor([1, 2, 3, 1]).drop { $0 < 3 }) == [3, 1])
        #expect(try Array(AnyCursor(["a", "b"]).enumerated()).map { "\($0.offset)\($0.element)" } == ["0a", "1b"])
        #expect(try Array(AnyCursor([[1, 2], [], [3]]).joined()) == [1, 2, 3])
        #expect(try Array(AnyCursor([1, 2]).flatMap { [$0, $0] }) == [1, 1, 2, 2])
        #expect(try Array(AnyCursor([1, 2]).flatMap { AnyCursor([$0, 10 * $0]) }) == [1, 10, 2, 20])
        #expect(try Array(AnyCursor([AnyCursor([1]), AnyCursor([2, 3])]).joined()) == [1, 2, 3])
    }

    @Test func methodsThatReadEverything() throws {
        #expect(try AnyCursor([1, 2, 3, 4, 5]).dropLast() == [1, 2, 3, 4])
        #expect(try AnyCursor([1, 2, 3, 4, 5]).dropLast(0) == [1, 2, 3, 4, 5])
        #expect(try AnyCursor([1, 2, 3, 4, 5]).dropLast(2) == [1, 2, 3])
        #expect(try AnyCursor([1, 2, 3, 4, 5]).dropLast(9) == [])
        #expect(try AnyCursor([1, 2, 3, 4, 5]).suffix(0) == [])
        #expect(try AnyCursor([1, 2, 3, 4, 5]).suffix(2) == [4, 5])
        #expect(try AnyCursor([1, 2, 3, 4, 5]).suffix(9) == [1, 2, 3, 4, 5])
        #expect(try AnyCursor([String]()).joined(separator: "-") == "")
        #expect(try AnyCursor(["a"]).joined(separator: "-") == "a")
        #expect(try AnyCursor(["a", "b", "c"]).joined() == "abc")
        #expect(try AnyCursor(["a", "b", "c"]).joined(separator: ", ") == "a, b, c")
        #expect(try AnyCursor([1, 2, 3]).reduce(10, +) == 16)
        #expect(try AnyCursor([1, 2, 3]).reduce(into: [Int]()) { $0.insert($1, at: 0) } == [3, 2, 1])

        var seen: [Int] = []
        #expect(throws: Stop.self) { try strict(2).forEach { seen.append($0) } }
        #expect(seen == [0, 1])
    }

    @Test func collectionsFromCursors() throws {
        #expect(try Set(AnyCursor([1, 2, 1, 3])) == [1, 2, 3])
        #expect(try Set(AnyCursor([1, 2, 1]), minimumCapacity: 50) == [1, 2])
        #expect(try [Int](AnyCursor([4, 5]), minimumCapacity: 50) == [4, 5])
        #expect(try ContiguousArray(AnyCursor([4, 5])) == [4, 5])
        #expect(try Dictionary(grouping: AnyCursor([5, 4, 3, 2, 1]), by: { $0 % 2 }) == [0: [4, 2], 1: [5, 3, 1]])
        #expect(try Dictionary(grouping: AnyCursor<Int>([]), by: { $0 % 2 }) == [:])
        #expect(try Dictionary(minimumCapacity: 10, grouping: AnyCursor([1, 2]), by: { $0 % 2 }) == [0: [2], 1: [1]])
        #expect(try Dictionary(uniqueKeysWithValues: AnyCursor([(1, "a"), (2, "b")])) == [1: "a", 2: "b"])
        #expect(try Dictionary(minimumCapacity: 10, uniqueKeysWithValues: AnyCursor([(1, "a")])) == [1: "a"])
    }

    /// A cursor that can only be iterated with `forEach`.
    final class EachOnly: Cursor {
        func next() -> Int? { Issue.record("next() was called"); return nil }
        func forEach(_ body: (Int) throws -> Void) throws {
            try body(7)
            try body(8)
        }
    }

    @Test func arraysIterateWithForEach() throws {
        #expect(try Array(EachOnly()) == [7, 8])
        #expect(try [Int](EachOnly(), minimumCapacity: 4) == [7, 8])
    }

    @Test func databaseCursorsReturnNilPastTheEnd() throws {
        try DatabaseQueue().inDatabase { db throws in
            for (sql, values) in [("SELECT 1 WHERE 0", [Int]()), ("SELECT 1", [1]), ("SELECT 1 UNION ALL SELECT 2", [1, 2])] {
                let cursor = try Int.fetchCursor(db, sql: sql)
                for value in values { #expect(try cursor.next() == value) }
                #expect(try cursor.next() == nil)
                #expect(try cursor.next() == nil)
                let rows = try Row.fetchCursor(db, sql: sql)
                for _ in values { #expect(try rows.next() != nil) }
                #expect(try rows.next() == nil)
                #expect(try rows.next() == nil)
            }
        }
    }

    @Test func errorsOfSteps() throws {
        try DatabaseQueue().inDatabase { db throws in
            db.add(function: DatabaseFunction("fail_swift", argumentCount: 0, pure: true) { _ in throw Stop() })
            db.add(function: DatabaseFunction("fail_db", argumentCount: 0, pure: true) { _ in
                throw DatabaseError(resultCode: ResultCode(rawValue: 0xBEEF), message: "beef error")
            })
            let swiftError = try #require(throws: DatabaseError.self) { try Int.fetchCursor(db, sql: "SELECT fail_swift()").next() }
            #expect(swiftError.resultCode == .SQLITE_ERROR)
            #expect(swiftError.message == "\(Stop())")
            #expect(swiftError.description == "SQLite error 1: \(Stop()) - while executing `SELECT fail_swift()`")

            let dbError = try #require(throws: DatabaseError.self) { try Int.fetchCursor(db, sql: "SELECT fail_db()").next() }
            #expect(dbError.resultCode.rawValue == 0xEF)
            #expect(dbError.extendedResultCode.rawValue == 0xBEEF)
            #expect(dbError.message == "beef error")
            #expect(dbError.sql == "SELECT fail_db()")
            #expect(dbError.description == "SQLite error 239: beef error - while executing `SELECT fail_db()`")
        }
    }
}
