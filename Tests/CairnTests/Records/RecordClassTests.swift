import Foundation
import Testing
import Cairn

/// The `Record` class: subclassing, persistence callbacks, changes tracking
/// and copies.
@Suite struct RecordClassTests {
    class Player: Record {
        var id: Int64?
        var name: String
        var score: Int

        init(id: Int64? = nil, name: String, score: Int) {
            self.id = id
            self.name = name
            self.score = score
            super.init()
        }

        override class var databaseTableName: String { "player" }

        required init(row: Row) throws {
            id = row["id"]
            name = row["name"]
            score = row["score"]
            try super.init(row: row)
        }

        override func encode(to container: inout PersistenceContainer) throws {
            container["id"] = id
            container["name"] = name
            container["score"] = score
        }

        override func didInsert(_ inserted: InsertionSuccess) {
            super.didInsert(inserted)
            id = inserted.rowID
        }
    }

    /// A subclass of a subclass, which records the callbacks it receives.
    final class TracedPlayer: Player {
        var events: [String] = []

        override func willSave(_ db: Database) throws {
            events.append("willSave")
            try super.willSave(db)
        }

        override func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
            events.append("aroundSave enter")
            try super.aroundSave(db, save: save)
            events.append("aroundSave exit")
        }

        override func willInsert(_ db: Database) throws {
            events.append("willInsert")
            try super.willInsert(db)
        }

        override func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
            events.append("aroundInsert enter")
            try super.aroundInsert(db, insert: insert)
            events.append("aroundInsert exit")
        }

        override func didInsert(_ inserted: InsertionSuccess) {
            events.append("didInsert")
            super.didInsert(inserted)
        }

        override func willUpdate(_ db: Database, columns: Set<String>) throws {
            events.append("willUpdate \(columns.sorted())")
            try super.willUpdate(db, columns: columns)
        }

        override func didUpdate(_ updated: PersistenceSuccess) {
            events.append("didUpdate")
            super.didUpdate(updated)
        }

        override func didSave(_ saved: PersistenceSuccess) {
            events.append("didSave")
            super.didSave(saved)
        }

        override func willDelete(_ db: Database) throws {
            events.append("willDelete")
            try super.willDelete(db)
        }

        override func didDelete(deleted: Bool) {
            events.append("didDelete \(deleted)")
            super.didDelete(deleted: deleted)
        }
    }

    /// A subclass that encodes a column that its table does not have.
    final class RankedPlayer: Player {
        override func encode(to container: inout PersistenceContainer) throws {
            try super.encode(to: &container)
            container["rank"] = 1
        }
    }

    /// A subclass that does not override the table name.
    final class DefaultNamedRecord: Record { }

    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL)")
        }
    }

    @Test func subclassesFetchAndPersist() throws {
        try dbQueue.write { db throws -> Void in
            let player = Player(name: "Arthur", score: 100)
            try player.insert(db)
            #expect(player.id == 1)

            player.score = 200
            try player.update(db)
            let fetched = try #require(try Player.fetchOne(db, key: 1))
            #expect(fetched.name == "Arthur")
            #expect(fetched.score == 200)
            #expect(try Player.fetchCount(db) == 1)
            #expect(try Player.filter(Column("score") > 100).fetchAll(db).map(\.name) == ["Arthur"])

            #expect(try fetched.delete(db))
            #expect(try Player.fetchCount(db) == 0)
        }
    }

    @Test func callbacksRunInOrder() throws {
        try dbQueue.write { db throws -> Void in
            let player = TracedPlayer(name: "Arthur", score: 100)
            try player.save(db)
            #expect(player.events == [
                "willSave", "aroundSave enter", "willInsert", "aroundInsert enter", "aroundInsert exit",
                "didInsert", "aroundSave exit", "didSave",
            ])
            #expect(player.id == 1)

            player.events = []
            player.score = 300
            try player.updateChanges(db)
            #expect(player.events == [
                "willSave", "aroundSave enter", "willUpdate [\"score\"]", "didUpdate", "aroundSave exit", "didSave",
            ])

            player.events = []
            try player.delete(db)
            #expect(player.events == ["willDelete", "didDelete true"])

            // The upsert runs the insert callbacks too.
            player.events = []
            try player.upsert(db)
            #expect(player.events == [
                "willSave", "aroundSave enter", "willInsert", "aroundInsert enter", "aroundInsert exit",
                "didInsert", "aroundSave exit", "didSave",
            ])
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player WHERE id = 1") == 300)
            #expect(!player.hasDatabaseChanges)
        }
    }

    @Test func changesTracking() throws {
        try dbQueue.write { db throws -> Void in
            // A new record has not been saved: every column is a change,
            // with an unknown former value.
            let player = Player(name: "Arthur", score: 100)
            #expect(player.hasDatabaseChanges)
            let newChanges = try player.databaseChanges
            #expect(Set(newChanges.keys) == ["id", "name", "score"])
            #expect(newChanges.values.allSatisfy { $0 == nil })

            // Inserted: no change, even though the id came from didInsert.
            try player.insert(db)
            #expect(!player.hasDatabaseChanges)
            #expect(try player.databaseChanges.isEmpty)

            // A modification that keeps the value is not a change.
            player.score = 100
            #expect(!player.hasDatabaseChanges)

            player.score = 150
            #expect(player.hasDatabaseChanges)
            #expect(try player.databaseChanges == ["score": .some(100.databaseValue)])

            // updateChanges writes the changed columns only, then nothing.
            var statements: [String] = []
            db.trace { statements.append($0.expandedDescription) }
            #expect(try player.updateChanges(db))
            #expect(try !player.updateChanges(db))
            db.trace(options: [], nil)
            #expect(statements.last { $0.hasPrefix("UPDATE") }?.contains("\"score\"") == true)
            #expect(statements.filter { $0.hasPrefix("UPDATE") }.count == 1)
            #expect(statements.allSatisfy { !$0.contains("\"name\" =") })
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player") == 150)

            // A fetched record has no change.
            let fetched = try #require(try Player.fetchOne(db, key: player.id))
            #expect(!fetched.hasDatabaseChanges)
            fetched.name = "Barbara"
            #expect(try fetched.databaseChanges == ["name": .some("Arthur".databaseValue)])

            // Records fetched in a loop keep their own reference (the cursor
            // reuses its row).
            try Player(name: "Craig", score: 10).insert(db)
            let all = try Player.fetchAll(db, sql: "SELECT * FROM player ORDER BY id")
            #expect(all.map(\.hasDatabaseChanges) == [false, false])
            all[0].score = 1
            #expect(all.map(\.hasDatabaseChanges) == [true, false])

            // A deleted record has changes: saving it inserts it again.
            try fetched.delete(db)
            #expect(fetched.hasDatabaseChanges)
            try fetched.save(db)
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = ?", arguments: [fetched.id]) == "Barbara")
        }
    }

    @Test func partialFetchesAndUpdates() throws {
        try dbQueue.write { db throws -> Void in
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 100)")

            // A column that the fetched row lacks is a change, whose former
            // value is unknown.
            let ranked = try #require(try RankedPlayer.fetchOne(db, sql: "SELECT * FROM player"))
            let unknownRank: [String: DatabaseValue?] = ["rank": nil]
            #expect(try ranked.databaseChanges == unknownRank)
            // Extra fetched columns are not changes.
            let unknown = try #require(try Player.fetchOne(db, sql: "SELECT id, 'Arthur' AS name, 100 AS score, 1 AS extra FROM player"))
            #expect(!unknown.hasDatabaseChanges)

            // Updating some columns makes all the encoded values the
            // reference, as in GRDB: the columns that were not updated are
            // no longer changes.
            let player = try #require(try Player.fetchOne(db, key: 1))
            player.name = "Barbara"
            player.score = 200
            try player.update(db, columns: ["score"])
            #expect(!player.hasDatabaseChanges)
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == "Arthur")
            player.name = "Craig"
            try player.update(db, columns: [Column("name")])
            #expect(!player.hasDatabaseChanges)

            // A record built from values that were not fetched has changes.
            let built = try Player(row: ["id": 1, "name": "Barbara", "score": 200])
            #expect(built.hasDatabaseChanges)
        }
    }

    @Test func hasDatabaseChangesCanBeSet() throws {
        let player = Player(id: 1, name: "Arthur", score: 100)
        player.hasDatabaseChanges = false
        #expect(!player.hasDatabaseChanges)
        player.score = 1
        #expect(try player.databaseChanges == ["score": .some(100.databaseValue)])
        player.hasDatabaseChanges = true
        #expect(try player.databaseChanges.count == 3)
    }

    @Test func copies() throws {
        try dbQueue.write { db throws -> Void in
            let player = Player(name: "Arthur", score: 100)
            try player.insert(db)
            player.score = 200

            let copy = player.copy()
            #expect(copy !== player)
            #expect(copy.id == player.id)
            #expect(copy.name == "Arthur")
            #expect(copy.score == 200)
            // The copy has the same changes, and is independent.
            #expect(try copy.databaseChanges == ["score": .some(100.databaseValue)])
            copy.score = 100
            #expect(!copy.hasDatabaseChanges)
            #expect(player.hasDatabaseChanges)

            // A copy of a subclass is an instance of the subclass.
            let traced = TracedPlayer(name: "Barbara", score: 1)
            let tracedCopy: TracedPlayer = traced.copy()
            #expect(tracedCopy.name == "Barbara")
        }
    }

    @Test func updateChangesOfClassesCompareWithTheValuesBeforeModification() throws {
        try dbQueue.write { db throws -> Void in
            var player = Player(name: "Arthur", score: 100)
            try player.insert(db)
            #expect(try !player.updateChanges(db) { $0.score = 100 })
            #expect(try player.updateChanges(db) { $0.score = 300 })
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player") == 300)

            let changes = try player.databaseChanges { $0.name = "Barbara" }
            #expect(changes == ["name": "Arthur".databaseValue])
        }
    }

    @Test func tableNames() throws {
        #expect(Player.databaseTableName == "player")
        #expect(TracedPlayer.databaseTableName == "player")
        #expect(DefaultNamedRecord.databaseTableName == "defaultNamedRecord")
    }

    @Test func databaseChangesFromAnotherRecordGiveItsValues() throws {
        struct Item: Encodable, EncodableRecord {
            var name: String
            var price: Int?
        }
        let old = Item(name: "Table", price: nil)
        let new = Item(name: "Chair", price: 10)
        #expect(try new.databaseChanges(from: old) == ["name": "Table".databaseValue, "price": .null])
        #expect(try new.databaseChanges(from: new).isEmpty)

        // A column that the other record lacks counts as NULL.
        struct NarrowItem: Encodable, EncodableRecord {
            var NAME: String
        }
        #expect(try Item(name: "Table", price: nil).databaseChanges(from: NarrowItem(NAME: "Table")).isEmpty)
        #expect(try new.databaseChanges(from: NarrowItem(NAME: "Table")) == ["name": "Table".databaseValue, "price": .null])
    }
}
