import Foundation
import Testing
import Cairn

/// Collections and algorithms built from cursors.
@Suite struct CursorCollectionsTests {
    struct Failure: Error { }

    @Test func dropLastAndSuffix() throws {
        #expect(try AnyCursor([1, 2, 3, 4, 5]).dropLast(2) == [1, 2, 3])
        #expect(try AnyCursor([1, 2, 3, 4, 5]).dropLast() == [1, 2, 3, 4])
        #expect(try AnyCursor([1, 2, 3]).dropLast(10) == [])
        #expect(try AnyCursor([1, 2, 3, 4, 5]).suffix(2) == [4, 5])
        #expect(try AnyCursor([1, 2, 3, 4, 5]).suffix(0) == [])
        #expect(try AnyCursor([1, 2, 3]).suffix(10) == [1, 2, 3])
        // The ring of the suffix wraps around several times.
        #expect(try AnyCursor(Array(1...100)).suffix(7) == Array(94...100))
        // Errors of the cursor are thrown.
        let failing = AnyCursor<Int> { throw Failure() }
        #expect(throws: Failure.self) { try failing.suffix(2) }
    }

    @Test func collections() throws {
        #expect(try ContiguousArray(AnyCursor([1, 2])) == [1, 2])
        #expect(try ContiguousArray(AnyCursor([1, 2]), minimumCapacity: 10) == [1, 2])
        var array = [0]
        try array.append(contentsOf: AnyCursor([1, 2]))
        #expect(array == [0, 1, 2])

        let set: Set = [1, 4]
        #expect(try set.union(AnyCursor([1, 2, 3])) == [1, 2, 3, 4])
        #expect(try set.intersection(AnyCursor([1, 2, 3])) == [1])
        var mutableSet: Set = [1, 4]
        try mutableSet.formUnion(AnyCursor([2]))
        #expect(mutableSet == [1, 2, 4])
        try mutableSet.formIntersection(AnyCursor([2, 4, 5]))
        #expect(mutableSet == [2, 4])

        #expect(try Dictionary(minimumCapacity: 10, grouping: AnyCursor([1, 2, 3]), by: { $0 % 2 }) == [0: [2], 1: [1, 3]])
        #expect(try Dictionary(minimumCapacity: 10, uniqueKeysWithValues: AnyCursor([(1, "a"), (2, "b")])) == [1: "a", 2: "b"])
    }

    @Test func duplicateKeysFromTheDatabaseThrow() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws -> Void in
            let pairs = try Row.fetchCursor(db, sql: "SELECT 1, 'a' UNION ALL SELECT 1, 'b'").map { row -> (Int, String) in
                (row[0], row[1])
            }
            #expect(throws: DatabaseError.self) { try Dictionary(uniqueKeysWithValues: pairs) }
        }
    }

    @Test func flatMapOfSequencesIntoCursors() throws {
        let cursor = [1, 2].flatMap { AnyCursor([$0, $0 + 1]) }
        #expect(try Array(cursor) == [1, 2, 2, 3])
    }

    @Test func databaseCursorsShowTheirStatement() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws -> Void in
            let cursor = try Row.fetchCursor(db, sql: "SELECT ? AS a, 2 AS b", arguments: [1])
            #expect(cursor.sql == "SELECT ? AS a, 2 AS b")
            #expect(cursor.arguments == [1])
            #expect(cursor.columnNames == ["a", "b"])
            #expect(cursor.columnCount == 2)
            #expect(try String.fetchCursor(db, sql: "SELECT 'x'").sql == "SELECT 'x'")
        }
    }
}
