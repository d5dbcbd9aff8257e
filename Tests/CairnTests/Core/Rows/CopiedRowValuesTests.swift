import Foundation
import Testing
import Cairn

/// Copied rows own their values: rows from `fetchOne`, `fetchAll`,
/// `copy()`, literals, and the rows that `including(all:)` prefetches keep
/// the values they were made with, whatever the statement does next and
/// after the access ends. Rows of numbers only and rows with text or blobs
/// are checked apart, because their values are freed differently.
@Suite struct CopiedRowValuesTests {
    func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE item (id INTEGER PRIMARY KEY, n INTEGER, r REAL, t TEXT, b BLOB);
                """)
            for id in 1...50 {
                try db.execute(
                    sql: "INSERT INTO item VALUES (?, ?, ?, ?, ?)",
                    arguments: [id, id * 10, Double(id) / 4,
                                id.isMultiple(of: 3) ? nil : String(repeating: "t\(id)-", count: 8),
                                id.isMultiple(of: 5) ? nil : Data(repeating: UInt8(id), count: 40)])
            }
        }
        return dbQueue
    }

    /// The values of row `id`, as they were inserted.
    func expectedValues(_ id: Int) -> [DatabaseValue] {
        [id.databaseValue, (id * 10).databaseValue, (Double(id) / 4).databaseValue,
         id.isMultiple(of: 3) ? .null : String(repeating: "t\(id)-", count: 8).databaseValue,
         id.isMultiple(of: 5) ? .null : Data(repeating: UInt8(id), count: 40).databaseValue]
    }

    @Test func fetchOneRowsKeepTheirValuesAfterTheStatementMovesOn() throws {
        let dbQueue = try makeQueue()
        let rows = try dbQueue.read { db in
            // The same cached statement for each lookup.
            try (1...50).map { id in
                try #require(try Row.fetchOne(db, sql: "SELECT * FROM item WHERE id = ?", arguments: [id]))
            }
        }
        for (index, row) in rows.enumerated() {
            #expect(row.databaseValues == expectedValues(index + 1))
            #expect(row["t"] as String? == ((index + 1).isMultiple(of: 3) ? nil : String(repeating: "t\(index + 1)-", count: 8)))
        }
    }

    @Test func numbersOnlyRows() throws {
        let dbQueue = try makeQueue()
        let rows = try dbQueue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, n, r, NULL AS z FROM item ORDER BY id")
        }
        #expect(rows.count == 50)
        for (index, row) in rows.enumerated() {
            let id = index + 1
            #expect(row[0] as Int == id)
            #expect(row["n"] as Int == id * 10)
            #expect(row["r"] as Double == Double(id) / 4)
            #expect(row["z"] as Int? == nil)
            #expect(row.copy() === row)
        }
    }

    @Test func fetchAllAndCopiedCursorRows() throws {
        let dbQueue = try makeQueue()
        let (fetched, copied) = try dbQueue.read { db in
            let fetched = try Row.fetchAll(db, sql: "SELECT * FROM item ORDER BY id")
            var copied: [Row] = []
            let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM item ORDER BY id DESC")
            while let row = try cursor.next() {
                copied.append(row.copy())
            }
            return (fetched, copied)
        }
        #expect(fetched.map(\.databaseValues) == (1...50).map(expectedValues))
        #expect(copied.map(\.databaseValues) == (1...50).reversed().map(expectedValues))
        #expect(Set(fetched) == Set(copied))
    }

    /// Copied and prefetched rows are `Sendable`: several tasks read the
    /// same rows at once (ThreadSanitizer checks this test in CI).
    @Test func rowsAreReadFromSeveralTasksAtOnce() async throws {
        let dbQueue = try makeQueue()
        let rows = try await dbQueue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM item ORDER BY id")
        }
        let expected = (1...50).map(expectedValues)
        try await withThrowingTaskGroup(of: [[DatabaseValue]].self) { group in
            for _ in 0..<4 {
                group.addTask { rows.map(\.databaseValues) }
            }
            for try await values in group {
                #expect(values == expected)
            }
        }
    }

    @Test func rowsBuiltFromValues() {
        let data = Data(repeating: 7, count: 100)
        let row: Row = ["a": 1, "b": "a text longer than fifteen bytes", "c": data, "d": nil, "e": 2.5]
        let copy = row.copy()
        #expect(copy["b"] as String == "a text longer than fifteen bytes")
        #expect(copy["c"] as Data == data)
        #expect(copy["d"] as Int? == nil)
        #expect(Row(["x": "y"])["x"] as String == "y")
        #expect(Row().count == 0)
    }

    struct Parent: FetchableRecord, TableRecord {
        static let databaseTableName = "parent"
        static let children = hasMany(Child.self)
        var id: Int
        var children: [Child]
        init(row: Row) throws {
            id = row["id"]
            children = try row.decode(forKey: "children")
        }
    }

    struct Child: FetchableRecord, TableRecord, Equatable {
        static let databaseTableName = "child"
        var id: Int
        var parentId: Int
        var name: String
        var payload: Data?
        init(row: Row) {
            id = row["id"]; parentId = row["parentId"]; name = row["name"]; payload = row["payload"]
        }
        init(id: Int, parentId: Int) {
            self.id = id
            self.parentId = parentId
            name = "child \(id) of parent \(parentId), named at length"
            payload = id.isMultiple(of: 2) ? Data(repeating: UInt8(id % 256), count: 32) : nil
        }
    }

    /// Prefetched rows share chunks of about a thousand values: 3,000
    /// children of 4 columns span several chunks.
    @Test func prefetchedRowsAcrossChunks() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE parent (id INTEGER PRIMARY KEY);
                CREATE TABLE child (id INTEGER PRIMARY KEY, parentId INTEGER NOT NULL REFERENCES parent(id), name TEXT NOT NULL, payload BLOB);
                """)
            for parent in 1...30 {
                try db.execute(sql: "INSERT INTO parent VALUES (?)", arguments: [parent])
            }
            for id in 1...3000 {
                let child = Child(id: id, parentId: id % 30 + 1)
                try db.execute(
                    sql: "INSERT INTO child VALUES (?, ?, ?, ?)",
                    arguments: [child.id, child.parentId, child.name, child.payload])
            }
        }
        let (parents, rows) = try await dbQueue.read { db in
            let request = Parent.including(all: Parent.children.order(Column("id"))).order(Column("id"))
            return (try request.fetchAll(db), try Row.fetchAll(db, request))
        }
        #expect(parents.count == 30)
        for parent in parents {
            let expected = (1...3000).filter { $0 % 30 + 1 == parent.id }.map { Child(id: $0, parentId: parent.id) }
            #expect(parent.children == expected)
        }
        // Rows outlive the access: their prefetched rows keep their chunks,
        // which several tasks read at once.
        let expectedNames = (1...3000).filter { $0 % 30 + 1 == 1 }.map { Child(id: $0, parentId: 1).name }
        let parentRow = try #require(rows.first)
        await withTaskGroup(of: [String]?.self) { group in
            for _ in 0..<4 {
                group.addTask { parentRow.prefetchedRows["children"]?.map { $0["name"] as String } }
            }
            for await names in group {
                #expect(names == expectedNames)
            }
        }
    }
}
