import Foundation
import Testing
import Cairn

@Suite struct RowTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: createPlayerTableSQL)
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 1000), (2, 'Barbara', NULL)")
        }
    }

    @Test func subscriptsByIndexAndName() throws {
        try dbQueue.read { db throws in
            let rows = try Row.fetchCursor(db, sql: "SELECT id, name, score FROM player ORDER BY id")
            var names: [String] = []
            var scores: [Int?] = []
            while let row = try rows.next() {
                let id: Int64 = row[0]
                let name: String = row["name"]
                let score: Int? = row["score"]
                #expect(id > 0)
                names.append(name)
                scores.append(score)
            }
            #expect(names == ["Arthur", "Barbara"])
            #expect(scores == [1000, nil])
        }
    }

    @Test func columnNamesAreCaseInsensitiveAndLeftmostWins() throws {
        try dbQueue.read { db throws in
            let sql = "SELECT 1 AS a, 2 AS A, 3 AS b"
            let cursor = try Row.fetchCursor(db, sql: sql)
            for row in try [Row.fetchOne(db, sql: sql)!, cursor.next()!] {
                #expect(row["a"] as Int == 1)
                #expect(row["A"] as Int == 1)
                #expect(row["B"] as Int == 3)
                #expect(row.hasColumn("b"))
                #expect(!row.hasColumn("c"))
                #expect(row.columnNames == ["a", "A", "b"])
                #expect(row.databaseValues == [1.databaseValue, 2.databaseValue, 3.databaseValue])
                #expect(row["missing"] as Int? == nil)
                #expect(row["missing"] == nil)
                #expect(row[0] as? Int64 == 1)
            }
        }
    }

    @Test func cursorReusesOneRowAndCopyKeepsValues() throws {
        try dbQueue.read { db throws in
            let cursor = try Row.fetchCursor(db, sql: "SELECT name FROM player ORDER BY id")
            let first = try #require(try cursor.next())
            let copy = first.copy()
            let second = try #require(try cursor.next())
            #expect(first === second)
            #expect(copy["name"] as String == "Arthur")
            #expect(second["name"] as String == "Barbara")
            #expect(copy.copy() === copy)
        }
    }

    @Test func throwingDecoding() throws {
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM player WHERE id = 2"))
            #expect(try row.decode(String.self, forColumn: "name") == "Barbara")
            #expect(try row.decode(Int?.self, forColumn: "score") == nil)
            #expect(try row.decodeIfPresent(Int.self, forColumn: "score") == nil)
            #expect(try row.decodeIfPresent(Int.self, forColumn: "missing") == nil)
            #expect {
                try row.decode(Int.self, forColumn: "score")
            } throws: { error in
                guard case .valueMismatch(_, let context) = error as? RowDecodingError else { return false }
                return context.columnName == "score"
                    && String(describing: error).hasPrefix("could not decode Int from database value NULL")
            }
            #expect {
                try row.decode(Int.self, forColumn: "missing")
            } throws: { error in
                guard case .keyNotFound(.columnName("missing"), _) = error as? RowDecodingError else { return false }
                return String(describing: error).hasPrefix(#"column not found: "missing""#)
            }
            #expect(throws: RowDecodingError.self) { try row.decode(Int.self, atIndex: 10) }
        }
    }

    @Test func literalsEqualityAndDescription() throws {
        let row: Row = ["name": "Arthur", "score": 1000, "bonus": nil]
        #expect(row.columnNames == ["name", "score", "bonus"])
        #expect(row.description == #"[name:"Arthur" score:1000 bonus:NULL]"#)
        #expect(row == ["name": "Arthur", "score": 1000, "bonus": nil])
        #expect(row != ["score": 1000, "name": "Arthur", "bonus": nil])
        #expect(row.count == 3)
        #expect(row.containsNonNullValue)
        #expect(row.hasNull(atIndex: 2))
        #expect(Array(row).map(\.0) == ["name", "score", "bonus"])
        #expect(Row().isEmpty)
        #expect(Set([row, row.copy()]).count == 1)
        #expect(Row(["a": 1]) == ["a": 1])
    }

    @Test func fetchAllSetOne() throws {
        try dbQueue.read { db throws in
            let rows = try Row.fetchAll(db, sql: "SELECT name FROM player ORDER BY id")
            #expect(rows.map { $0["name"] as String } == ["Arthur", "Barbara"])
            let set = try Row.fetchSet(db, sql: "SELECT 1 AS x UNION ALL SELECT 1 UNION ALL SELECT 2")
            #expect(set == [["x": 1], ["x": 2]])
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM player WHERE id = ?", arguments: [3]) == nil)
        }
    }

    /// A fetched row copies each kind of value, and its subscripts convert
    /// them as a cursor row does.
    @Test func fetchedRowsCopyEveryKindOfValue() throws {
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(
                db, sql: "SELECT 42, -1.5, 'text', x'00ff', NULL, 3.99, 9223372036854775807, '12'"))
            #expect(row[0] as Int == 42)
            #expect(row[0] as Double == 42.0)
            #expect(row[1] as Double == -1.5)
            #expect(row[1] as Int == -1)   // REAL truncated toward zero
            #expect(row[2] as String == "text")
            #expect(row[3] as Data == Data([0x00, 0xff]))
            #expect(row[4] as Int? == nil)
            #expect(row[4] as String? == nil)
            #expect(row[5] as Int == 3)
            #expect(row[6] as Int64 == Int64.max)
            #expect(throws: RowDecodingError.self) { try row.decode(Int32.self, atIndex: 6) }   // out of range
            #expect(row[7] as String == "12")
            #expect(throws: RowDecodingError.self) { try row.decode(Int?.self, atIndex: 7) }   // text is no Int
            #expect(row.databaseValues == [42.databaseValue, (-1.5).databaseValue, "text".databaseValue,
                                           Data([0x00, 0xff]).databaseValue, .null, 3.99.databaseValue,
                                           Int64.max.databaseValue, "12".databaseValue])
            #expect(throws: RowDecodingError.self) { try row.decode(Int.self, atIndex: 2) }
        }
    }

    @Test func dataNoCopy() throws {
        try dbQueue.read { db throws in
            let cursor = try Row.fetchCursor(db, sql: "SELECT x'010203', NULL")
            let row = try #require(try cursor.next())
            #expect(row.dataNoCopy(atIndex: 0) == Data([1, 2, 3]))
            #expect(row.dataNoCopy(atIndex: 1) == nil)
            #expect(row.copy().dataNoCopy(atIndex: 0) == Data([1, 2, 3]))
        }
    }
}
