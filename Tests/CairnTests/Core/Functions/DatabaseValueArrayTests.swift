import Foundation
import Testing
import Cairn

/// `DatabaseValueArray`, the `cairn_values` table function, and the `IN`
/// lists of any length that the query interface builds with them.
@Suite struct DatabaseValueArrayTests {
    struct Item: Codable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
    }

    /// A writer on a new file whose `item` table has ids 1...count.
    func makeWriter(_ kind: WriterKind, _ directory: TemporaryDirectory, count: Int) throws -> any DatabaseWriter {
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try db.execute(sql: """
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?)
                INSERT INTO item (id, name) SELECT x, 'item ' || x FROM n
                """, arguments: [count])
        }
        return writer
    }

    /// `count` distinct ids in 1...upperBound, in random order.
    func randomIDs(_ count: Int, upTo upperBound: Int64) -> [Int64] {
        var generator = SystemRandomNumberGenerator()
        var ids = Set<Int64>()
        while ids.count < count { ids.insert(Int64.random(in: 1...upperBound, using: &generator)) }
        return Array(ids)
    }

    @Test func arraysKeepEveryValueExactly() throws {
        let values: [DatabaseValue] = [
            .null, 0.databaseValue, Int64.max.databaseValue, Int64.min.databaseValue,
            0.1.databaseValue, (-Double.greatestFiniteMagnitude).databaseValue,
            "".databaseValue, "héllo 🌍".databaseValue, Data().databaseValue, Data([0, 255, 7]).databaseValue,
        ]
        let array = DatabaseValueArray(values)
        #expect(DatabaseValueArray.fromDatabaseValue(array.databaseValue) == array)
        #expect(DatabaseValueArray.fromDatabaseValue("text".databaseValue) == nil)
        #expect(DatabaseValueArray.fromDatabaseValue(Data([1, 2, 3]).databaseValue) == nil)

        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let rows = try Row.fetchAll(db, sql: "SELECT value, typeof(value) AS type FROM cairn_values(?)", arguments: [array])
            #expect(rows.map { $0["value"] as DatabaseValue } == values)
            #expect(rows.map { $0["type"] as String } == [
                "null", "integer", "integer", "integer", "real", "real", "text", "text", "blob", "blob",
            ])
            // No argument, or an empty array: no row.
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM cairn_values") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM cairn_values(?)", arguments: [DatabaseValueArray([Int]())]) == 0)
            // Optional values.
            let optionals: [(any DatabaseValueConvertible)?] = [1, nil, "a"]
            #expect(try Row.fetchAll(db, sql: "SELECT value FROM cairn_values(?)", arguments: [DatabaseValueArray(optionals)])
                .map { $0[0] as DatabaseValue } == [1.databaseValue, .null, "a".databaseValue])
        }
    }

    @Test func anArgumentThatIsNotAnArrayThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            for argument in ["text".databaseValue, 12.databaseValue, Data([1, 2, 3]).databaseValue] {
                let error = #expect(throws: DatabaseError.self) {
                    try Row.fetchAll(db, sql: "SELECT value FROM cairn_values(?)", arguments: [argument])
                }
                #expect(error?.message?.contains("is not a DatabaseValueArray") == true, "\(String(describing: error))")
            }
            // A truncated array.
            var truncated = try #require(Data.fromDatabaseValue(DatabaseValueArray([1, 2, 3]).databaseValue))
            truncated.removeLast()
            let error = #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, sql: "SELECT value FROM cairn_values(?)", arguments: [truncated])
            }
            #expect(error?.message?.contains("not a valid DatabaseValueArray") == true)
        }
    }

    @Test func longListsUseOneArgument() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY)") }
        try dbQueue.read { (db: Database) throws in
            let short = Array(1...Int64(DatabaseValueArray.inlineLimit))
            let shortSQL = try Table("item").filter(short.contains(Column("id"))).makePreparedRequest(db).statement.sql
            #expect(!shortSQL.contains("cairn_values"))
            #expect(shortSQL.contains("IN (?, ?"))
            let long = Array(1...Int64(DatabaseValueArray.inlineLimit + 1))
            let request = Table("item").filter(!long.contains(Column("id")))
            let statement = try request.makePreparedRequest(db).statement
            #expect(statement.sql == #"SELECT * FROM "item" WHERE "id" NOT IN (SELECT +value FROM cairn_values(?))"#)
            #expect(statement.arguments == [DatabaseValueArray(long.map { $0 })])
        }
    }

    @Test(arguments: WriterKind.allCases)
    func filterKeysIdsAndDeleteAllTakeAHundredThousandKeys(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory, count: 200_000)
        let keys = randomIDs(100_000, upTo: 200_000)
        let expected = Set(keys)
        try writer.read { (db: Database) throws in
            let items = try Item.fetchAll(db, keys: keys)
            #expect(items.count == 100_000)
            #expect(Set(items.map(\.id)) == expected)
            #expect(try Item.filter(keys: keys).fetchCount(db) == 100_000)
            #expect(try Item.filter(ids: keys).fetchCount(db) == 100_000)
            #expect(try Table("item").filter(keys: keys).fetchCount(db) == 100_000)
            // Keys that are not there are not found; NULL finds nothing.
            let missing: [Int64] = keys + [300_001, 300_002]
            #expect(try Item.filter(keys: missing).fetchCount(db) == 100_000)
            #expect(try Table("item").filter(!keys.contains(Column("id"))).fetchCount(db) == 100_000)
        }
        let deleted = try writer.write { db in try Item.deleteAll(db, keys: keys) }
        #expect(deleted == 100_000)
        try writer.read { (db: Database) throws in
            #expect(try Item.fetchCount(db) == 100_000)
            #expect(try Item.filter(keys: keys).fetchCount(db) == 0)
        }
        // The ids of records, as a collection of any length.
        let remaining = try writer.read { db in try Item.fetchAll(db) }
        let deletedAgain = try writer.write { db in try Item.deleteAll(db, ids: remaining.map(\.id)) }
        #expect(deletedAgain == 100_000)
    }

    @Test(arguments: WriterKind.allCases)
    func compositeKeysTakeAnyNumberOfKeys(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in
            try db.execute(sql: """
                CREATE TABLE pair (a INTEGER NOT NULL, b TEXT NOT NULL, c INTEGER UNIQUE, PRIMARY KEY (a, b));
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 60000)
                INSERT INTO pair (a, b, c) SELECT x, 'b' || x, x FROM n;
                """)
        }
        let keys: [[String: (any DatabaseValueConvertible)?]] = (1...40_000).map { (index: Int) in ["b": "b\(index)", "a": index] }
        let missing: [[String: (any DatabaseValueConvertible)?]] = [["a": 1, "b": "nope"], ["a": nil, "b": "b2"]]
        try writer.read { (db: Database) throws in
            let request = Table("pair").filter(keys: keys + missing)
            #expect(try request.fetchCount(db) == 40_000)
            let sql = try request.makePreparedRequest(db).statement.sql
            #expect(sql.contains(#"("a", "b") IN (SELECT +c1, +c2 FROM cairn_rows(?, ?))"#), "\(sql.prefix(200))")
            // Keys of different columns: groups of conditions, one
            // parameter per value (SQLite's limit of 32,766 parameters).
            let mixed: [[String: (any DatabaseValueConvertible)?]] = (1...3000).map { (index: Int) in
                index.isMultiple(of: 2) ? ["c": index] : ["a": index, "b": "b\(index)"]
            }
            #expect(try Table("pair").filter(keys: mixed).fetchCount(db) == 3000)
        }
        let deleted = try writer.write { db in try Table("pair").deleteAll(db, keys: keys) }
        #expect(deleted == 40_000)
        #expect(try writer.read { db in try Table("pair").fetchCount(db) } == 20_000)
    }

    @Test func rowsOfAnArrayHaveTheirWidth() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let array = DatabaseValueArray([1, 2, 3, 4, 5, 6])
            let rows = try Row.fetchAll(db, sql: "SELECT c1, c2, c3, c4 FROM cairn_rows(?, 3)", arguments: [array])
            #expect(rows == [[ "c1": 1, "c2": 2, "c3": 3, "c4": nil], ["c1": 4, "c2": 5, "c3": 6, "c4": nil]])
            for width in [0, 17] {
                let error = #expect(throws: DatabaseError.self) {
                    try Row.fetchAll(db, sql: "SELECT * FROM cairn_rows(?, ?)", arguments: [array, width])
                }
                #expect(error?.message?.contains("from 1 to 16") == true)
            }
            let partial = #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, sql: "SELECT * FROM cairn_rows(?, 4)", arguments: [array])
            }
            #expect(partial?.message?.contains("whole rows of 4 values") == true)
        }
    }

    @Test func longListsConvertValuesAsShortOnesDo() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE code (code TEXT PRIMARY KEY, a INTEGER, b TEXT, UNIQUE (a, b));
                INSERT INTO code VALUES ('5', 5, '7');
                """)
        }
        try dbQueue.read { (db: Database) throws in
            // Integers against a TEXT column: the affinity of the column
            // converts them, at 1,000 values as at 1,001.
            for count in [DatabaseValueArray.inlineLimit, DatabaseValueArray.inlineLimit + 1] {
                let values = Array(1...count)
                #expect(try Table("code").filter(values.contains(Column("code"))).fetchCount(db) == 1, "\(count)")
                #expect(try Table("code").filter(keys: values).fetchCount(db) == 1, "\(count)")
                let keys: [[String: (any DatabaseValueConvertible)?]] = (1...count).map { (index: Int) in ["a": "\(index)", "b": index + 2] }
                #expect(try Table("code").filter(keys: keys).fetchCount(db) == 1, "\(count)")
            }
        }
    }

    @Test func observationOfALongListOfKeysSeesItsRowsOnly() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(.queue, directory, count: 5000)
        let changes = Locked(0)
        let keys = Array(1...Int64(3000))
        let cancellable = DatabaseRegionObservation(tracking: Item.filter(keys: keys))
            .start(in: writer, onError: { _ in }, onChange: { _ in changes.withLock { $0 += 1 } })
        defer { cancellable.cancel() }
        try writer.write { db in try db.execute(sql: "UPDATE item SET name = 'x' WHERE id = 4000") }
        #expect(changes.withLock { $0 } == 0)
        try writer.write { db in try db.execute(sql: "UPDATE item SET name = 'x' WHERE id = 2999") }
        #expect(changes.withLock { $0 } == 1)
    }
}
