import Foundation
import Testing
import Cairn

/// The `Record` class tracks changes as GRDB 7.8 does: which records have
/// changes after an init, a fetch, an insert, an update, a save or a delete,
/// the former values that `databaseChanges` gives, and the statements of
/// `updateChanges`.
@Suite struct GRDBRecordClassTests {
    class Pet: Record {
        var id: Int64?
        var name: String?
        var legs: Int?
        var born: Date?

        init(id: Int64? = nil, name: String? = nil, legs: Int? = nil, born: Date? = nil) {
            self.id = id
            self.name = name
            self.legs = legs
            self.born = born
            super.init()
        }

        override class var databaseTableName: String { "pet" }

        required init(row: Row) throws {
            id = row["id"]
            name = row["name"]
            legs = row["legs"]
            born = row["born"]
            try super.init(row: row)
        }

        override func encode(to container: inout PersistenceContainer) throws {
            container["id"] = id
            container["name"] = name
            container["legs"] = legs
            container["born"] = born
        }

        override func willInsert(_ db: Database) throws {
            try super.willInsert(db)
            if born == nil { born = Date(timeIntervalSince1970: 0) }
        }

        override func didInsert(_ inserted: InsertionSuccess) {
            super.didInsert(inserted)
            id = inserted.rowID
        }
    }

    /// The same table, with columns named in another case.
    final class ShoutingPet: Record {
        var id: Int64?
        var name: String?
        var legs: Int?

        init(name: String, legs: Int? = nil) {
            self.name = name
            self.legs = legs
            super.init()
        }

        override class var databaseTableName: String { "pet" }

        required init(row: Row) throws {
            id = row["ID"]
            name = row["NAME"]
            legs = row["LEGS"]
            try super.init(row: row)
        }

        override func encode(to container: inout PersistenceContainer) throws {
            container["ID"] = id
            container["NAME"] = name
            container["LEGS"] = legs
            container["BORN"] = Date(timeIntervalSince1970: 0)
        }

        override func didInsert(_ inserted: InsertionSuccess) {
            super.didInsert(inserted)
            id = inserted.rowID
        }
    }

    /// A record of a REAL column, read as an integer.
    final class Measure: Record {
        var value: Int?
        override class var databaseTableName: String { "measure" }
        required init(row: Row) throws {
            value = row["value"]
            try super.init(row: row)
        }
        override func encode(to container: inout PersistenceContainer) throws {
            container["value"] = value
        }
    }

    /// A record that encodes no column.
    final class Empty: Record {
        override class var databaseTableName: String { "pet" }
    }

    func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE pet (id INTEGER PRIMARY KEY, born TEXT NOT NULL, name TEXT, legs INT);
                CREATE TABLE measure (value REAL);
                INSERT INTO measure VALUES (1);
                """)
        }
        return dbQueue
    }

    func unknownFormerValues(_ columns: String...) -> [String: DatabaseValue?] {
        var changes: [String: DatabaseValue?] = [:]
        for column in columns { changes[column] = .some(nil) }
        return changes
    }

    @Test func recordsThatWereNotFetchedHaveChanges() throws {
        let pet = Pet(name: "Rex", legs: 4)
        #expect(pet.hasDatabaseChanges)
        #expect(try pet.databaseChanges == unknownFormerValues("id", "name", "legs", "born"))

        let built = try Pet(row: ["name": "Rex", "legs": 4])
        #expect(built.hasDatabaseChanges)
        #expect(try built.databaseChanges == unknownFormerValues("id", "name", "legs", "born"))

        // No column, no change.
        #expect(!Empty().hasDatabaseChanges)
        #expect(try Empty().databaseChanges.isEmpty)
    }

    @Test func fetchedRecordsHaveChangesForTheColumnsTheyDidNotFetch() throws {
        try makeQueue().inDatabase { db throws in
            try Pet(name: "Rex", legs: 4).insert(db)
            let full = try #require(try Pet.fetchOne(db, sql: "SELECT * FROM pet"))
            #expect(!full.hasDatabaseChanges)
            let wider = try #require(try Pet.fetchOne(db, sql: "SELECT *, 1 AS extra FROM pet"))
            #expect(!wider.hasDatabaseChanges)
            let adapted = try #require(try Pet.fetchOne(db, sql: "SELECT * FROM pet", adapter: SuffixRowAdapter(fromIndex: 0)))
            #expect(try adapted.databaseChanges.isEmpty)
            let fromCursor = try #require(try Pet.fetchCursor(db, sql: "SELECT * FROM pet").next())
            #expect(try fromCursor.databaseChanges.isEmpty)
            #expect(try Pet.fetchAll(db, sql: "SELECT * FROM pet").map(\.hasDatabaseChanges) == [false])

            let partial = try #require(try Pet.fetchOne(db, sql: "SELECT name FROM pet"))
            #expect(partial.hasDatabaseChanges)
            #expect(try partial.databaseChanges == unknownFormerValues("id", "legs", "born"))

            try ShoutingPet(name: "Tom").insert(db)
            let shouting = try #require(try ShoutingPet.fetchOne(db, sql: "SELECT * FROM pet WHERE id = 2"))
            #expect(!shouting.hasDatabaseChanges)
            let shoutingPartial = try #require(try ShoutingPet.fetchOne(db, sql: "SELECT name FROM pet WHERE id = 2"))
            #expect(try shoutingPartial.databaseChanges == unknownFormerValues("ID", "LEGS", "BORN"))

            // An integer equal to the REAL it was read from is no change.
            let measure = try #require(try Measure.fetchOne(db, sql: "SELECT * FROM measure"))
            #expect(!measure.hasDatabaseChanges)
        }
    }

    @Test func changesAfterModificationsInsertsAndSaves() throws {
        try makeQueue().inDatabase { db throws in
            let pet = Pet(name: "Rex")
            try pet.insert(db)
            #expect(!pet.hasDatabaseChanges)
            #expect(pet.id == 1)

            pet.name = "Rex"
            pet.legs = nil
            #expect(!pet.hasDatabaseChanges)

            pet.name = "Max"
            pet.legs = 3
            pet.born = nil
            #expect(try pet.databaseChanges == [
                "name": "Rex".databaseValue,
                "legs": DatabaseValue.null,
                "born": "1970-01-01 00:00:00.000".databaseValue,
            ])
            pet.born = Date(timeIntervalSince1970: 0)

            try pet.save(db)
            #expect(!pet.hasDatabaseChanges)
            pet.id = 2
            #expect(try pet.databaseChanges == ["id": 1.databaseValue])
            pet.id = 1

            let shouting = ShoutingPet(name: "Tom")
            try shouting.save(db)
            #expect(!shouting.hasDatabaseChanges)
            shouting.name = "Jerry"
            #expect(try shouting.databaseChanges == ["NAME": "Tom".databaseValue])
            try shouting.update(db)
            #expect(!shouting.hasDatabaseChanges)

            // A deleted record has changes again.
            try pet.delete(db)
            #expect(try pet.databaseChanges == unknownFormerValues("id", "name", "legs", "born"))
        }
    }

    @Test func updateChangesWritesTheChangedColumns() throws {
        let statements = Locked<[String]>([])
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            let pet = Pet(name: "Rex", legs: 4)
            // Not inserted yet, without primary key: not found.
            #expect(throws: RecordError.self) { try pet.updateChanges(db) }
            try pet.insert(db)

            db.trace { event in statements.withLock { $0.append(event.expandedDescription) } }
            let changes = db.totalChangesCount
            #expect(try !pet.updateChanges(db))
            pet.legs = 4
            #expect(try !pet.updateChanges(db))
            #expect(db.totalChangesCount == changes)
            #expect(statements.withLock { $0 }.isEmpty)

            pet.legs = 3
            #expect(try pet.updateChanges(db))
            #expect(statements.withLock { $0 }.last == #"UPDATE "pet" SET "legs"=3 WHERE "id"=1"#)
            pet.name = "Max"
            pet.legs = 5
            #expect(try Set(pet.databaseChanges.keys) == ["name", "legs"])
            #expect(try pet.updateChanges(db))
            #expect(db.totalChangesCount == changes + 2)
            #expect(!pet.hasDatabaseChanges)
            let fetched = try #require(try Pet.fetchOne(db, key: 1))
            #expect(fetched.name == "Max")
            #expect(fetched.legs == 5)
        }
    }

    @Test func anUpdateOfSomeColumnsClearsAllChanges() throws {
        try makeQueue().inDatabase { db throws in
            let pet = Pet(name: "Rex", legs: 4)
            try pet.insert(db)
            pet.name = "Max"
            pet.legs = 3
            try pet.update(db, columns: ["legs"])
            // GRDB takes all the encoded values for the reference.
            #expect(!pet.hasDatabaseChanges)
            #expect(try String.fetchOne(db, sql: "SELECT name FROM pet") == "Rex")
        }
    }
}
