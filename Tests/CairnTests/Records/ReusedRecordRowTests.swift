import Foundation
import Testing
import Cairn

/// `fetchOne`, `fetchAll` and `fetchSet` of records reuse the row of the
/// previous call on the same cached statement, within one access: records
/// fetched in a loop get their own values, a record that keeps its row
/// keeps its own row object, and cached statements are still freed when
/// they leave their cache.
@Suite struct ReusedRecordRowTests {
    struct Item: FetchableRecord, TableRecord, Hashable {
        static let databaseTableName = "item"
        var id: Int
        var name: String

        init(row: Row) {
            id = row["id"]
            name = row["name"]
        }
    }

    struct DecodedItem: Decodable, FetchableRecord, TableRecord, Equatable {
        static let databaseTableName = "item"
        var id: Int
        var name: String
    }

    /// A record that keeps the row it was built from (a view on the
    /// statement, which a record should not keep: this one only compares
    /// its identity), and the columns of the row when it was built.
    struct RowKeeper: FetchableRecord {
        var row: Row
        var values: [String: DatabaseValue]
        init(row: Row) {
            self.row = row
            values = Dictionary(uniqueKeysWithValues: zip(row.columnNames, row.databaseValues))
        }
    }

    func makeQueue(capacity: Int? = nil) throws -> DatabaseQueue {
        var configuration = Configuration()
        if let capacity { configuration.implicitStatementCacheCapacity = capacity }
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            for id in 1...20 {
                try db.execute(sql: "INSERT INTO item VALUES (?, ?)", arguments: [id, "item \(id)"])
            }
        }
        return dbQueue
    }

    @Test func lookupsInALoopGetTheirOwnValues() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws in
            for id in [3, 1, 20, 7, 7, 12] {
                #expect(try Item.fetchOne(db, key: id) == Item(row: ["id": id, "name": "item \(id)"]))
                #expect(try DecodedItem.fetchOne(db, key: id) == DecodedItem(id: id, name: "item \(id)"))
                #expect(try Item.fetchOne(db, sql: "SELECT * FROM item WHERE id = ?", arguments: [id])?.name == "item \(id)")
            }
            #expect(try Item.fetchOne(db, key: 99) == nil)
            // fetchAll and fetchSet on the same statement, between lookups.
            let sql = "SELECT * FROM item WHERE id <= ? ORDER BY id"
            for count in [2, 5, 0, 3] {
                #expect(try Item.fetchAll(db, sql: sql, arguments: [count]).map(\.id) == Array(stride(from: 1, through: count, by: 1)))
                #expect(try Item.fetchSet(db, sql: sql, arguments: [count]).count == count)
                #expect(try DecodedItem.fetchAll(db, sql: sql, arguments: [count]).map(\.name) == (0..<count).map { "item \($0 + 1)" })
            }
        }
        // Another access (and another thread for the pool's readers): the
        // row of the former access is not used any longer.
        for id in [4, 5] {
            let item = try dbQueue.read { db in try Item.fetchOne(db, key: id) }
            #expect(item?.name == "item \(id)")
        }
    }

    @Test func aRecordThatKeepsItsRowKeepsItsOwnRow() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws in
            let sql = "SELECT * FROM item WHERE id = ?"
            let first = try #require(try RowKeeper.fetchOne(db, sql: sql, arguments: [1]))
            let second = try #require(try RowKeeper.fetchOne(db, sql: sql, arguments: [2]))
            #expect(first.row !== second.row)
            let third = try #require(try RowKeeper.fetchOne(db, sql: sql, arguments: [3]))
            #expect(third.row !== second.row)
            #expect(first.values == ["id": 1.databaseValue, "name": "item 1".databaseValue])
            #expect(second.values == ["id": 2.databaseValue, "name": "item 2".databaseValue])
            #expect(third.values == ["id": 3.databaseValue, "name": "item 3".databaseValue])
        }
    }

    @Test func changedColumnsAreSeenByTheNextLookup() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            let statement = try db.cachedStatement(sql: "SELECT * FROM item WHERE id = ?")
            #expect(try Row.fetchOne(statement, arguments: [1])?.count == 2)
            #expect(try Item.fetchOne(statement, arguments: [1])?.name == "item 1")
            try db.execute(sql: "ALTER TABLE item ADD COLUMN score INTEGER DEFAULT 10")
            // SQLite prepares the statement again at its next step: the
            // columns changed, and the statement says so once.
            #expect {
                try Item.fetchOne(statement, arguments: [1])
            } throws: { error in
                (error as? DatabaseError)?.resultCode == .SQLITE_SCHEMA
            }
            let keeper = try #require(try RowKeeper.fetchOne(statement, arguments: [2]))
            #expect(keeper.values == ["id": 2.databaseValue, "name": "item 2".databaseValue, "score": 10.databaseValue])
            #expect(try Item.fetchOne(statement, arguments: [2])?.name == "item 2")
        }
    }

    /// The reused row holds its statement, and the statement its row: both
    /// are freed when the statement leaves its cache.
    @Test func statementsThatLeaveTheirCacheAreFinalized() throws {
        let dbQueue = try makeQueue(capacity: 2)
        try dbQueue.inDatabase { db throws in
            for id in 1...6 {
                #expect(try Item.fetchOne(db, sql: "SELECT * FROM item WHERE id = \(id)")?.id == id)
            }
            // The two most recent ones only.
            let selects = preparedSQL(db).filter { $0.hasPrefix("SELECT * FROM item WHERE id = ") }
            #expect(Set(selects) == ["SELECT * FROM item WHERE id = 5", "SELECT * FROM item WHERE id = 6"])

            weak var cachedStatement: Statement?
            do {
                let statement = try db.cachedStatement(sql: "SELECT * FROM item WHERE id = ?")
                cachedStatement = statement
                #expect(try Item.fetchOne(statement, arguments: [1])?.id == 1)
                #expect(try Item.fetchAll(statement, arguments: [2]).map(\.id) == [2])
            }
            #expect(cachedStatement != nil)
            db.clearStatementCache()
            #expect(cachedStatement == nil)
            #expect(preparedSQL(db).filter { $0.hasPrefix("SELECT * FROM item") }.isEmpty)
        }
        // Nothing left prepared: closing succeeds.
        try dbQueue.close()
    }

    /// A statement made by the user keeps no row: it is freed when the user
    /// drops it.
    @Test func statementsOfTheUserKeepNoRow() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            weak var userStatement: Statement?
            do {
                let statement = try db.makeStatement(sql: "SELECT * FROM item WHERE id = ?")
                userStatement = statement
                #expect(try Item.fetchOne(statement, arguments: [3])?.id == 3)
                #expect(try Item.fetchOne(statement, arguments: [4])?.id == 4)
            }
            #expect(userStatement == nil)
        }
    }
}
