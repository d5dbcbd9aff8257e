import Foundation
import Testing
import Cairn

private struct PrefetchAuthor: TableRecord {
    static let databaseTableName = "author"
    static let books = hasMany(PrefetchBook.self)
}

private struct PrefetchBook: TableRecord {
    static let databaseTableName = "book"
}

/// `Row.Index`, the scopes and prefetched rows as collections, and the
/// data of a column.
@Suite struct RowCollectionsTests {
    @Test func rowIndexIsStrideable() {
        let row: Row = ["a": 1, "b": "x", "c": nil]
        let start = row.startIndex
        #expect(start.advanced(by: 2) < row.endIndex)
        #expect(start.distance(to: row.endIndex) == 3)
        #expect(start.advanced(by: 3) == row.endIndex)
        #expect(start.advanced(by: 1).advanced(by: -1) == start)
        let (name, value) = row[start.advanced(by: 1)]
        #expect(name == "b" && value == "x".databaseValue)
        #expect(Array(stride(from: start, to: row.endIndex, by: 2)).map { row[$0].0 } == ["a", "c"])
        // The former name.
        let former: RowIndex = start
        #expect(former == start)
    }

    @Test func scopesAreACollection() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let adapter = ScopeAdapter(["b": RangeRowAdapter(1..<2), "a": RangeRowAdapter(0..<1)])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS x, 2 AS y", adapter: adapter))
            let scopes = row.scopes
            #expect(scopes.count == 2)
            #expect(scopes.startIndex == 0 && scopes.endIndex == 2)
            #expect(scopes.index(after: scopes.startIndex) == 1)
            #expect(scopes[0].name == "a" && scopes[0].row == ["x": 1])
            #expect(scopes[1].name == "b" && scopes[1].row == ["y": 2])
            #expect(scopes.map(\.name) == ["a", "b"])
            #expect(scopes.first?.row["x"] == 1)
            #expect(scopes["b"] == ["y": 2])
            // Without scopes.
            let plain = try #require(try Row.fetchOne(db, sql: "SELECT 1"))
            #expect(plain.scopes.isEmpty && plain.scopes.startIndex == plain.scopes.endIndex)
        }
    }

    @Test func prefetchedRowsViewsCompare() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id));
                INSERT INTO author VALUES (1), (2);
                INSERT INTO book VALUES (1, 1), (2, 1);
                """)
            let rows = try Row.fetchAll(db, PrefetchAuthor.including(all: PrefetchAuthor.books).order(Column("id")))
            #expect(rows[0].prefetchedRows == rows[0].prefetchedRows)
            #expect(rows[0].prefetchedRows != rows[1].prefetchedRows)
            let again = try Row.fetchAll(db, PrefetchAuthor.including(all: PrefetchAuthor.books).order(Column("id")))
            #expect(again[0].prefetchedRows == rows[0].prefetchedRows)
            let plain = try #require(try Row.fetchOne(db, sql: "SELECT 1"))
            #expect(plain.prefetchedRows == Row().prefetchedRows)
            #expect(plain.prefetchedRows != rows[1].prefetchedRows)
        }
    }

    @Test func dataOfAColumn() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT x'0102' AS blob, NULL AS empty"))
            #expect(row.dataNoCopy(Column("blob")) == Data([1, 2]))
            #expect(row.dataNoCopy(Column("empty")) == nil)
            #expect(row.dataNoCopy(Column("missing")) == nil)
        }
    }
}

/// `PersistenceContainer` as a collection of (column, value) pairs.
@Suite struct PersistenceContainerCollectionTests {
    @Test func containersAreRandomAccessCollections() {
        var container = PersistenceContainer()
        #expect(container.isEmpty && container.startIndex == container.endIndex)
        container["name"] = "Arthur"
        container["score"] = 1000
        container["NAME"] = "Barbara" // the same column, whatever the case
        #expect(container.count == 2)
        #expect(container.startIndex == 0 && container.endIndex == 2)
        #expect(container[0].0 == "name" && container[0].1 == "Barbara".databaseValue)
        #expect(container[1].0 == "score" && container[1].1 == 1000.databaseValue)
        #expect(container.map(\.0) == ["name", "score"])
        #expect(container.reversed().map(\.0) == ["score", "name"])
        // The subscripts by column still work.
        #expect(container["score"] as Int? == 1000)
    }

    @Test func encodedRecordsIterateInEncodingOrder() throws {
        var container = PersistenceContainer()
        try Player(id: 1, name: "Arthur", score: nil).encode(to: &container)
        #expect(container.map(\.0) == ["id", "name", "score"])
        #expect(container.last?.1 == .null)
    }
}

/// `dropFirst()`, `dropLast()`, and the iteration of database cursors.
@Suite struct CursorAdditionsTests {
    @Test func dropFirstAndLast() throws {
        #expect(try Array(AnyCursor([1, 2, 3]).dropFirst()) == [2, 3])
        #expect(try Array(AnyCursor([1, 2, 3]).dropFirst(2)) == [3])
        #expect(try AnyCursor([1, 2, 3]).dropLast() == [1, 2])
        #expect(try AnyCursor([1, 2, 3]).dropLast(2) == [1])
        #expect(try AnyCursor([Int]()).dropLast() == [])
    }

    @Test func databaseCursorsIterate() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            var names: [String] = []
            let cursor: RowCursor = try Row.fetchCursor(db, sql: "SELECT 'a' AS name UNION ALL SELECT 'b'")
            try cursor.forEach { row in names.append(row["name"]) }
            #expect(names == ["a", "b"])
            #expect(try cursor.next() == nil)

            // The error of the body stops the iteration.
            struct Stop: Error { }
            var seen: [Int] = []
            let ints = try Int.fetchCursor(db, sql: "SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3")
            #expect(throws: Stop.self) {
                try ints.forEach { value in
                    seen.append(value)
                    if value == 2 { throw Stop() }
                }
            }
            #expect(seen == [1, 2])
            #expect(try ints.next() == 3)

            // A failing statement stops the iteration with its error.
            let failing = try Int.fetchCursor(db, sql: "SELECT 1 UNION ALL SELECT abs(-9223372036854775807 - 1)")
            var count = 0
            #expect(throws: DatabaseError.self) {
                try failing.forEach { _ in count += 1 }
            }
            #expect(count == 1)
        }
        // Element types.
        #expect(RowCursor.Element.self == Row.self)
        #expect(DatabaseValueCursor<Date>.Element.self == Date.self)
        #expect(FastDatabaseValueCursor<Int>.Element.self == Int.self)
        #expect(RecordCursor<Player>.Element.self == Player.self)
    }
}
