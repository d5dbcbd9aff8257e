import Foundation
import Testing
import Cairn

struct LegacyPlayer: TableRecord { }
struct URLRequestLog: TableRecord { }
struct AAPlayer: TableRecord { }
struct Generic<T>: TableRecord { }

@Suite struct RecordTests {
    let dbQueue: DatabaseQueue
    let statements = Locked<[String]>([])

    init() throws {
        let statements = self.statements
        var config = Configuration()
        config.prepareDatabase { db throws in
            db.trace { event in statements.withLock { $0.append(event.description) } }
        }
        dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, score INT);
                CREATE TABLE country (isoCode TEXT NOT NULL PRIMARY KEY, name TEXT NOT NULL);
                """)
        }
    }

    /// The SQL run by `body`.
    func sql(_ body: (Database) throws -> Void) throws -> [String] {
        statements.withLock { $0.removeAll() }
        try dbQueue.write(body)
        // Without transactions and schema introspection.
        return statements.withLock { $0 }.filter { sql in
            !sql.hasPrefix("BEGIN") && !sql.hasPrefix("COMMIT") && !sql.hasPrefix("--")
                && !sql.contains("sqlite_master") && !sql.localizedCaseInsensitiveContains("pragma")
        }
    }

    @Test func tableNames() {
        #expect(Player.databaseTableName == "player")
        #expect(LegacyPlayer.databaseTableName == "legacyPlayer")
        #expect(URLRequestLog.databaseTableName == "urlRequestLog")
        #expect(AAPlayer.databaseTableName == "aaPlayer")
        #expect(Generic<Int>.databaseTableName == "generic")
        #expect(Country.databaseTableName == "country")
    }

    @Test func insertFetchUpdateDelete() throws {
        var player = Player(id: nil, name: "Arthur", score: 100)
        let insertSQL = try sql { db in try player.insert(db) }
        #expect(insertSQL == [#"INSERT INTO "player" ("id", "name", "score") VALUES (?,?,?)"#])
        #expect(player.id == 1)

        try dbQueue.write { db throws in
            #expect(try Player.fetchOne(db, key: 1) == player)
            #expect(try Player.fetchOne(db, id: 1) == player)
            #expect(try Player.find(db, id: 1) == player)
            #expect(try Player.fetchAll(db) == [player])
            #expect(try Player.fetchCount(db) == 1)
            #expect(try player.exists(db))
            #expect(try Player.exists(db, id: 1))
            #expect(try !Player.exists(db, id: 2))
            #expect(try Player.fetchOne(db, key: ["name": "Arthur"]) == player)
            #expect(throws: RecordError.self) { try Player.find(db, id: 42) }
        }

        player.score = 1000
        let updateSQL = try sql { db in try player.update(db) }
        #expect(updateSQL == [#"UPDATE "player" SET "name"=?, "score"=? WHERE "id"=?"#])
        let partialSQL = try sql { db in try player.update(db, columns: ["score"]) }
        #expect(partialSQL == [#"UPDATE "player" SET "score"=? WHERE "id"=?"#])

        let old = player
        player.name = "Arthur II"
        let changesSQL = try sql { db throws in
            #expect(try player.updateChanges(db, from: old))
            #expect(try !player.updateChanges(db, from: player))
        }
        #expect(changesSQL == [#"UPDATE "player" SET "name"=? WHERE "id"=?"#])
        try dbQueue.write { db throws in
            let changed = try player.updateChanges(db) { $0.score = 2000 }
            #expect(changed)
            #expect(try Player.fetchOne(db, id: 1)?.score == 2000)
        }

        let deleteSQL = try sql { db throws in #expect(try player.delete(db)) }
        #expect(deleteSQL == [#"DELETE FROM "player" WHERE "id"=?"#])
        try dbQueue.write { db throws in
            #expect(try !player.delete(db))
            #expect(try !player.exists(db))
        }
    }

    @Test func updateOfMissingRowThrowsRecordNotFound() throws {
        let player = Player(id: 42, name: "Nobody", score: nil)
        #expect {
            try dbQueue.write { db in try player.update(db) }
        } throws: { error in
            guard case let .recordNotFound(table, key) = error as? RecordError else { return false }
            return table == "player" && key == ["id": 42.databaseValue]
        }
        // A record without id is not found either.
        #expect(throws: RecordError.self) {
            try dbQueue.write { db in try Player(id: nil, name: "x", score: nil).update(db) }
        }
    }

    @Test func saveInsertsThenUpdates() throws {
        try dbQueue.write { db throws in
            var player = Player(id: nil, name: "Arthur", score: 1)
            try player.save(db)
            #expect(player.id == 1)
            player.score = 2
            try player.save(db)
            #expect(try Player.fetchCount(db) == 1)
            #expect(try Player.fetchOne(db)?.score == 2)
            // A record with an id that is not in the database is inserted.
            let saved = try Player(id: 10, name: "Barbara", score: 3).saved(db)
            #expect(saved.id == 10)
            #expect(try Player.fetchCount(db) == 2)
            let inserted = try Player(id: nil, name: "Craig", score: nil).inserted(db)
            #expect(inserted.id == 11)
        }
    }

    @Test func persistableRecordsAndCompositeOperations() throws {
        try dbQueue.write { db throws in
            let france = Country(isoCode: "FR", name: "France")
            try france.insert(db)
            try Country(isoCode: "DE", name: "Germany").insert(db)
            #expect(try Country.fetchOne(db, key: "FR") == france)
            #expect(try Country.fetchAll(db, keys: ["DE", "FR", "XX"]).count == 2)
            #expect(try Country.filter(keys: ["DE", "FR"]).fetchCount(db) == 2)
            #expect(try Country.deleteOne(db, key: "DE"))
            #expect(try !Country.deleteOne(db, key: "DE"))
            var renamed = france
            renamed.name = "République française"
            try renamed.update(db)
            #expect(try Country.fetchOne(db, key: "FR")?.name == "République française")
            try Country(isoCode: "IT", name: "Italy").save(db)
            #expect(try Country.deleteAll(db, keys: ["FR", "IT"]) == 2)
            #expect(try Country.fetchCount(db) == 0)
        }
    }

    @Test func upserts() throws {
        try dbQueue.write { db throws in
            var player = Player(id: nil, name: "Arthur", score: 1)
            try player.upsert(db)
            #expect(player.id == 1)
            var same = Player(id: 1, name: "Arthur", score: 2)
            try same.upsert(db)
            #expect(try Player.fetchOne(db, id: 1)?.score == 2)
            // upsertAndFetch of a MutablePersistableRecord is mutating: the
            // record receives the rowid in didInsert.
            var upserted = Player(id: 1, name: "Arthur", score: 3)
            let fetched = try upserted.upsertAndFetch(db)
            #expect(fetched == Player(id: 1, name: "Arthur", score: 3))
            let inserted = try Player(id: nil, name: "Barbara", score: nil).insertAndFetch(db)
            #expect(inserted == Player(id: 2, name: "Barbara", score: nil))
        }
    }

    @Test func conflictResolutions() throws {
        try dbQueue.write { db throws in
            var arthur = Player(id: nil, name: "Arthur", score: 1)
            try arthur.insert(db)

            // abort (the default): the statement fails.
            var duplicate = Player(id: nil, name: "Arthur", score: 2)
            #expect {
                try duplicate.insert(db)
            } throws: { error in
                (error as? DatabaseError)?.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
            }
            #expect(duplicate.id == nil)

            // ignore: nothing is inserted, and didInsert is not called.
            try duplicate.insert(db, onConflict: .ignore)
            #expect(duplicate.id == nil)
            #expect(try Player.fetchCount(db) == 1)

            // replace: the conflicting row is replaced.
            try duplicate.insert(db, onConflict: .replace)
            #expect(duplicate.id != nil && duplicate.id != arthur.id)
            #expect(try Player.fetchAll(db) == [duplicate])

            // fail: the statement fails, earlier changes stay.
            var other = Player(id: nil, name: "Barbara", score: nil)
            try other.insert(db)
            other.name = "Arthur"
            #expect(throws: DatabaseError.self) { try other.update(db, onConflict: .fail) }
            #expect(try Player.fetchCount(db) == 2)
        }

        // rollback: the whole transaction is rolled back.
        #expect(throws: DatabaseError.self) {
            try dbQueue.write { db throws in
                try Player(id: nil, name: "Craig", score: nil).inserted(db)
                _ = try Player(id: nil, name: "Craig", score: nil).inserted(db, onConflict: .rollback)
            }
        }
        #expect(try dbQueue.read { db in try Player.filter(Column("name") == "Craig").fetchCount(db) } == 0)
    }

    struct ReplacingPlayer: Codable, MutablePersistableRecord, FetchableRecord {
        static let databaseTableName = "player"
        static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace, update: .rollback)
        var id: Int64?
        var name: String
        var score: Int?
    }

    @Test func conflictPolicyOfARecordType() throws {
        let insertSQL = try sql { db throws in
            var player = ReplacingPlayer(id: nil, name: "Arthur", score: nil)
            try player.insert(db)
            try player.insert(db)
        }
        #expect(insertSQL.first == #"INSERT OR REPLACE INTO "player" ("id", "name", "score") VALUES (?,?,?)"#)
        #expect(try dbQueue.read { db in try ReplacingPlayer.fetchCount(db) } == 1)
    }

    @Test func queryInterfaceOnRecords() throws {
        try dbQueue.write { db throws in
            for (name, score) in [("Arthur", 100), ("Barbara", 1000), ("Craig", 500)] {
                _ = try Player(id: nil, name: name, score: score).inserted(db)
            }
            #expect(try Player.filter { $0.score > 400 }.order { $0.score.desc }.fetchAll(db).map(\.name) == ["Barbara", "Craig"])
            #expect(try Player.order(Player.Columns.name.desc).fetchOne(db)?.name == "Craig")
            #expect(try Player.filter(ids: [1, 3]).fetchCount(db) == 2)
            #expect(try Player.select({ $0.name }, as: String.self).order(Column("name")).fetchAll(db) == ["Arthur", "Barbara", "Craig"])
            #expect(try Player.filter(Column("score") > 200).fetchSet(db).count == 2)
            #expect(try Player.updateAll(db, Column("score").set(to: 0)) == 3)
            #expect(try Player.filter(Column("name") == "Arthur").deleteAll(db) == 1)
            #expect(try Player.deleteAll(db, ids: [2]) == 1)
            #expect(try Player.deleteOne(db, id: 3))
            #expect(try Player.fetchCount(db) == 0)
        }
        let statement = try dbQueue.read { db throws in
            try Player.filter(Column("name") == "O'Brien").makePreparedRequest(db, forSingleResult: false).statement
        }
        #expect(statement.sql == #"SELECT * FROM "player" WHERE "name" = ?"#)
        #expect(statement.arguments == ["O'Brien"])
    }

    @Test func sqlRequests() throws {
        try dbQueue.write { db throws in
            _ = try Player(id: nil, name: "Arthur", score: 100).inserted(db)
            _ = try Player(id: nil, name: "Barbara", score: 1000).inserted(db)
            let request: SQLRequest<Player> = "SELECT \(columnsOf: Player.self) FROM \(Player.self) WHERE \(Column("score")) > \(500)"
            #expect(try request.fetchAll(db).map(\.name) == ["Barbara"])
            #expect(try request.makePreparedRequest(db, forSingleResult: false).statement.sql
                == #"SELECT "player".* FROM "player" WHERE "score" > ?"#)
            let maximumScore: SQLRequest<Int> = "SELECT MAX(score) FROM player"
            let bestPlayers: SQLRequest<Player> = "SELECT * FROM player WHERE score = (\(maximumScore))"
            #expect(try bestPlayers.fetchOne(db)?.name == "Barbara")
            #expect(try maximumScore.fetchOne(db) == 1000)
            #expect(try SQLRequest<Row>(sql: "SELECT * FROM player WHERE id = ?", arguments: [1]).fetchOne(db)?["name"] == "Arthur")
            #expect(try Player.fetchAll(db, sql: "SELECT * FROM player ORDER BY id").count == 2)
            #expect(try Player.fetchOne(db, sql: "SELECT * FROM player WHERE name = ?", arguments: ["Arthur"])?.score == 100)
            #expect(try Player.fetchSet(db, sql: "SELECT * FROM player").count == 2)
            let cursor = try Player.fetchCursor(db, sql: "SELECT * FROM player")
            #expect(try cursor.next() != nil)
            #expect(try Player.fetchAll(db, bestPlayers).count == 1)
            #expect(try request.fetchCount(db) == 1)
        }
    }

    /// A record that remembers what its inserts reported.
    struct Note: MutablePersistableRecord {
        var key: String
        var text: String
        var insertedRowIDColumn: String?? = .none

        func encode(to container: inout PersistenceContainer) {
            container["key"] = key
            container["text"] = text
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            insertedRowIDColumn = .some(inserted.rowIDColumn)
        }
    }

    /// Inserts reuse their statement and what they know of the primary key
    /// only while the schema does not change.
    @Test func insertsFollowSchemaChanges() throws {
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, key TEXT, text TEXT)")
            var note = Note(key: "a", text: "first")
            try note.insert(db)
            #expect(note.insertedRowIDColumn == .some("id"))
            note = Note(key: "b", text: "second")
            try note.insert(db)
            #expect(note.insertedRowIDColumn == .some("id"))

            // Same record type, new table: no rowid alias any longer.
            try db.execute(sql: "DROP TABLE note; CREATE TABLE note (key TEXT PRIMARY KEY, text TEXT)")
            note = Note(key: "c", text: "third")
            try note.insert(db)
            #expect(note.insertedRowIDColumn == .some(nil))
            #expect(try Row.fetchAll(db, sql: "SELECT key, text FROM note") == [["key": "c", "text": "third"]])
        }
    }

    /// The generic subscripts of containers convert values both ways, and
    /// compare column names without regard to case.
    @Test func persistenceContainerSubscripts() throws {
        var container = PersistenceContainer()
        container["score"] = 10
        container["Name"] = "Arthur"
        container["missing"] = nil as String?
        container[Column("bonus")] = 2.5
        let score: Int? = container["SCORE"]
        let name: String? = container["name"]
        let bonus: Double? = container[Column("Bonus")]
        #expect(score == 10)
        #expect(name == "Arthur")
        #expect(bonus == 2.5)
        #expect(container["missing"] == nil)
        #expect(container.hasColumn("missing"))
        #expect(container.columns == ["score", "Name", "missing", "bonus"])
        // Setting a column again, whatever its case, replaces its value.
        container["NAME"] = "Barbara"
        #expect(container.columns == ["score", "Name", "missing", "bonus"])
        #expect(container["name"] as? DatabaseValue == "Barbara".databaseValue)
        // A value that does not convert reads as nil.
        let notADate: Date? = container["name"]
        #expect(notADate == nil)

        // A container of the values of a row.
        let rowContainer = PersistenceContainer(["id": 1, "name": "Arthur", "NAME": "ignored"])
        #expect(rowContainer.columns == ["id", "name"])
        #expect(rowContainer.values == [1.databaseValue, "ignored".databaseValue])
    }

    /// A record whose columns vary from one insert to the next: each
    /// insert expects the columns of the previous one, and must notice
    /// extra, missing, reordered and repeated columns.
    struct VaryingRecord: PersistableRecord {
        static let databaseTableName = "varying"
        var a: Int?
        var b: String
        var reversed = false
        var extra = false
        var repeatsA = false

        func encode(to container: inout PersistenceContainer) {
            if reversed {
                container["b"] = b
                container["a"] = a
            } else {
                container["a"] = a
                container["b"] = b
            }
            if extra { container["c"] = 1 }
            // Another case of the same column replaces its value.
            if repeatsA { container["A"] = 99 }
        }
    }

    @Test func insertsOfRecordsWhoseColumnsVary() throws {
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE varying (id INTEGER PRIMARY KEY, a INT, b TEXT, c INT DEFAULT 0)")
        }
        let records = [
            VaryingRecord(a: 1, b: "one"),
            VaryingRecord(a: 2, b: "two"),
            VaryingRecord(a: 3, b: "three", extra: true),
            VaryingRecord(a: 4, b: "four"),
            VaryingRecord(a: 5, b: "five", reversed: true),
            VaryingRecord(a: nil, b: "six", repeatsA: true),
            VaryingRecord(a: 7, b: "seven", extra: true, repeatsA: true),
            VaryingRecord(a: 8, b: "eight", reversed: true, extra: true),
        ]
        let executed = try sql { db in
            for record in records { try record.insert(db) }
        }
        #expect(executed == [
            #"INSERT INTO "varying" ("a", "b") VALUES (?,?)"#,
            #"INSERT INTO "varying" ("a", "b") VALUES (?,?)"#,
            #"INSERT INTO "varying" ("a", "b", "c") VALUES (?,?,?)"#,
            #"INSERT INTO "varying" ("a", "b") VALUES (?,?)"#,
            #"INSERT INTO "varying" ("b", "a") VALUES (?,?)"#,
            #"INSERT INTO "varying" ("a", "b") VALUES (?,?)"#,
            #"INSERT INTO "varying" ("a", "b", "c") VALUES (?,?,?)"#,
            #"INSERT INTO "varying" ("b", "a", "c") VALUES (?,?,?)"#,
        ])
        let rows = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT a, b, c FROM varying ORDER BY id") }
        #expect(rows == [
            ["a": 1, "b": "one", "c": 0], ["a": 2, "b": "two", "c": 0], ["a": 3, "b": "three", "c": 1],
            ["a": 4, "b": "four", "c": 0], ["a": 5, "b": "five", "c": 0], ["a": 99, "b": "six", "c": 0],
            ["a": 99, "b": "seven", "c": 1], ["a": 8, "b": "eight", "c": 1],
        ])
    }

    /// A record that hands the containers of its callbacks to a log.
    struct LoggedRecord: PersistableRecord {
        static let databaseTableName = "logged"
        static let containers = Locked<[PersistenceContainer]>([])
        var a: Int
        var b: String

        func encode(to container: inout PersistenceContainer) {
            container["a"] = a
            container["b"] = b
        }

        func didInsert(_ inserted: InsertionSuccess) {
            Self.containers.withLock { $0.append(inserted.persistenceContainer) }
        }

        func didSave(_ saved: PersistenceSuccess) {
            Self.containers.withLock { $0.append(saved.persistenceContainer) }
        }
    }

    /// Each insert of a record type reuses the storage of the values of the
    /// previous insert: the containers that callbacks kept must not change.
    @Test func containersKeptByCallbacksKeepTheirValues() throws {
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE logged (a INT, b TEXT)")
            for index in 0..<4 {
                try LoggedRecord(a: index, b: "value \(index)").insert(db)
            }
        }
        let containers = LoggedRecord.containers.withLock { $0 }
        #expect(containers.count == 8)
        for (index, container) in containers.enumerated() {
            #expect(container.columns == ["a", "b"])
            #expect(container.values == [(index / 2).databaseValue, "value \(index / 2)".databaseValue])
        }
        let rows = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT a, b FROM logged ORDER BY rowid") }
        #expect(rows == (0..<4).map { (index: Int) -> Row in ["a": index, "b": "value \(index)"] })
    }

    /// A failed insert throws an error that shows the values, and leaves
    /// the next inserts of the record type working.
    @Test func failedInsertShowsItsValues() throws {
        try dbQueue.write { db throws in
            try Country(isoCode: "FR", name: "France").insert(db)
            let error = #expect(throws: DatabaseError.self) {
                try Country(isoCode: "FR", name: "Élysée").insert(db)
            }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.arguments == ["FR", "Élysée"])
            try Country(isoCode: "DE", name: "Germany").insert(db)
            #expect(try Row.fetchAll(db, sql: "SELECT isoCode, name FROM country ORDER BY isoCode") == [
                ["isoCode": "DE", "name": "Germany"], ["isoCode": "FR", "name": "France"],
            ])
        }
    }

    /// A node whose insert, through a trigger and an SQL function, inserts
    /// another node while its own statement runs.
    struct Node: PersistableRecord {
        static let databaseTableName = "node"
        var depth: Int

        func encode(to container: inout PersistenceContainer) {
            container["depth"] = depth
        }
    }

    /// A connection that an SQL function of the test uses, on the
    /// connection's own thread.
    final class ConnectionBox: @unchecked Sendable {
        var db: Database?
    }

    /// An insert that runs while the statement of the previous insert of
    /// the same record type is running does not reuse that statement.
    @Test func insertDuringAnInsertOfTheSameRecordType() throws {
        try dbQueue.write { db throws in
            let box = ConnectionBox()
            box.db = db
            // Declared pure, so that a trigger may call it.
            db.add(function: DatabaseFunction("spawn", argumentCount: 1, pure: true) { values in
                let depth = Int.fromDatabaseValue(values[0]) ?? 0
                if depth < 3, let db = box.db {
                    try Node(depth: depth + 1).insert(db)
                }
                return depth
            })
            try db.execute(sql: """
                CREATE TABLE node (id INTEGER PRIMARY KEY, depth INT);
                CREATE TRIGGER nodeSpawn AFTER INSERT ON node BEGIN SELECT spawn(NEW.depth); END;
                """)
            try Node(depth: 0).insert(db)
            try Node(depth: 2).insert(db)
            box.db = nil
            #expect(try Int.fetchAll(db, sql: "SELECT depth FROM node ORDER BY depth") == [0, 1, 2, 2, 3, 3])
        }
    }

    /// A record that logs its callbacks.
    struct CallbackRecord: MutablePersistableRecord {
        static let databaseTableName = "callback"
        let log: Locked<[String]>
        var id: Int64?
        var name: String
        var callsInsert = true

        func encode(to container: inout PersistenceContainer) {
            log.withLock { $0.append("encode") }
            container["id"] = id
            container["name"] = name
        }

        func willSave(_ db: Database) throws { log.withLock { $0.append("willSave") } }
        func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
            log.withLock { $0.append("aroundSave before") }
            let saved = try save()
            let id: Int64? = saved.persistenceContainer["id"]
            log.withLock { $0.append("aroundSave after, id \(id.map(String.init) ?? "nil")") }
        }
        func didSave(_ saved: PersistenceSuccess) { log.withLock { $0.append("didSave") } }
        mutating func willInsert(_ db: Database) throws { log.withLock { $0.append("willInsert") } }
        func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
            log.withLock { $0.append("aroundInsert before") }
            guard callsInsert else { return }
            let inserted = try insert()
            log.withLock { $0.append("aroundInsert after, rowid \(inserted.rowID)") }
        }
        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
            log.withLock { $0.append("didInsert") }
        }
    }

    /// The callbacks of an insert run in the order of the guides; the
    /// record is encoded by the insert function that `aroundInsert` calls.
    @Test func insertCallbacks() throws {
        let log = Locked<[String]>([])
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE callback (id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
            var record = CallbackRecord(log: log, id: nil, name: "Arthur")
            try record.insert(db)
            #expect(record.id == 1)
            #expect(log.withLock { $0 } == [
                "willSave", "aroundSave before", "willInsert", "aroundInsert before", "encode",
                "aroundInsert after, rowid 1", "didInsert", "aroundSave after, id 1", "didSave",
            ])

            // The ignore conflict resolution inserts nothing: no didInsert.
            log.withLock { $0.removeAll() }
            var duplicate = CallbackRecord(log: log, id: nil, name: "Arthur")
            try duplicate.insert(db, onConflict: .ignore)
            #expect(duplicate.id == nil)
            #expect(!log.withLock { $0 }.contains("didInsert"))
            #expect(log.withLock { $0 }.last == "didSave")

            // aroundInsert must call its insert function.
            var lazy = CallbackRecord(log: log, id: nil, name: "Barbara", callsInsert: false)
            let error = #expect(throws: DatabaseError.self) { try lazy.insert(db) }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM callback") == 1)
        }
    }
}

/// The statements that persistence methods run, schema introspection
/// included: the statement of the operation comes last, so that a trace of
/// the last statement shows it.
@Suite struct PersistenceStatementOrderTests {
    struct Item: Codable, FetchableRecord, MutablePersistableRecord {
        var id: Int64?
        var name: String
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test func theOperationIsTheLastStatement() throws {
        let dbQueue = try DatabaseQueue()
        let statements = Locked<[String]>([])
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            db.trace { event in
                if case .statement(let statement) = event { statements.withLock { $0.append(statement.sql) } }
            }
            func last(_ body: () throws -> Void) rethrows -> String? {
                statements.withLock { $0.removeAll() }
                try body()
                return statements.withLock { $0.last }
            }
            // A cold schema cache: the primary key is read first.
            var item = Item(id: nil, name: "a")
            #expect(try last { try item.insert(db) } == #"INSERT INTO "item" ("id", "name") VALUES (?,?)"#)
            #expect(item.id == 1)
            // After a schema change, again.
            try db.execute(sql: "CREATE TABLE other (id INTEGER PRIMARY KEY)")
            var second = Item(id: nil, name: "b")
            #expect(try last { try second.insert(db) } == #"INSERT INTO "item" ("id", "name") VALUES (?,?)"#)
            #expect(second.id == 2)
            try db.execute(sql: "CREATE TABLE third (id INTEGER PRIMARY KEY)")
            let fetched = try last { _ = try Item(id: nil, name: "c").insertAndFetch(db) }
            #expect(fetched?.hasPrefix(#"INSERT INTO "item" ("id", "name") VALUES (?,?) RETURNING"#) == true)
            item.name = "A"
            #expect(try last { try item.update(db) } == #"UPDATE "item" SET "name"=? WHERE "id"=?"#)
            db.trace(nil)
        }
    }
}
