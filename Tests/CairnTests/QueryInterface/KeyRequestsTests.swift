import Foundation
import Testing
import Cairn

/// Fetches by key and id, primary key selections, and stable orderings.
@Suite struct KeyRequestsTests {
    struct Player: Codable, Hashable, FetchableRecord, PersistableRecord, Identifiable {
        var id: Int64
        var name: String
        var teamId: Int64?
    }

    struct Draft: Codable, FetchableRecord, TableRecord, Identifiable {
        static let databaseTableName = "player"
        var id: Int64?
        var name: String
    }

    struct Citizenship: Codable, Hashable, FetchableRecord, TableRecord {
        var personId: Int64
        var countryCode: String
    }

    struct Team: Codable, FetchableRecord, TableRecord {
        var id: Int64
        static let players = hasMany(Player.self)
    }

    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY);
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, teamId INTEGER REFERENCES team(id));
                CREATE TABLE citizenship (personId INTEGER, countryCode TEXT, PRIMARY KEY (personId, countryCode));
                CREATE TABLE item (name TEXT);
                CREATE VIEW playerView AS SELECT id, name FROM player;
                INSERT INTO team VALUES (1);
                INSERT INTO player VALUES (1, 'Arthur', 1), (2, 'Barbara', 1), (3, 'Craig', NULL);
                INSERT INTO citizenship VALUES (1, 'FR'), (1, 'US'), (2, 'FR');
                INSERT INTO item VALUES ('Table'), ('Chair');
                """)
        }
    }

    func sql(_ request: some FetchRequest) throws -> String {
        try dbQueue.read { db throws in
            try request.makePreparedRequest(db, forSingleResult: false).statement.sql
        }
    }

    @Test func cursorsAndSetsByKey() throws {
        try dbQueue.read { db throws -> Void in
            let cursor = try Player.fetchCursor(db, keys: [1, 3])
            var names: [String] = []
            while let player = try cursor.next() {
                names.append(player.name)
            }
            #expect(names.sorted() == ["Arthur", "Craig"])
            #expect(try Player.fetchCursor(db, keys: [Int64]()).next() == nil)
            #expect(try Set(Player.fetchSet(db, keys: [2, 2, 4]).map(\.name)) == ["Barbara"])

            let byUniqueKey = try Citizenship.fetchCursor(db, keys: [["personId": 1, "countryCode": "US"], ["personId": 2, "countryCode": nil]])
            #expect(try byUniqueKey.next()?.countryCode == "US")
            #expect(try byUniqueKey.next() == nil)
            #expect(try Citizenship.fetchSet(db, keys: [["personId": 1, "countryCode": "FR"], ["personId": 2, "countryCode": "FR"]]).count == 2)

            #expect(try Player.fetchCursor(db, ids: [1, 2]).next() != nil)
            #expect(try Player.fetchSet(db, ids: [1, 2]).map(\.id).sorted() == [1, 2])

            // A composite primary key needs dictionary keys.
            #expect(throws: RecordError.self) { try Citizenship.fetchCursor(db, keys: [1]) }
        }
    }

    @Test func primaryKeySelections() throws {
        #expect(try sql(Player.selectPrimaryKey(as: Int64.self)) == #"SELECT "id" FROM "player""#)
        #expect(try sql(Citizenship.selectPrimaryKey(as: Row.self)) == #"SELECT "personId", "countryCode" FROM "citizenship""#)
        #expect(try sql(Table<Row>("item").all().selectPrimaryKey(as: Int64.self)) == #"SELECT "rowid" FROM "item""#)
        try dbQueue.read { db throws -> Void in
            let ids: [Int64] = try Player.filter(Column("teamId") == 1).selectPrimaryKey().fetchAll(db)
            #expect(ids == [1, 2])
            #expect(try Player.selectID().fetchAll(db) == [1, 2, 3])
            #expect(try Player.all().selectID().order(Column("id").desc).fetchAll(db) == [3, 2, 1])
            // An optional id fetches its wrapped type.
            let draftIDs: [Int64] = try Draft.selectID().fetchAll(db)
            #expect(draftIDs == [1, 2, 3])

            let keys = try Citizenship.selectPrimaryKey(as: Row.self).fetchAll(db)
            #expect(keys.first == ["personId": 1, "countryCode": "FR"])
            #expect(try Table<Row>("item").all().selectPrimaryKey(as: Int64.self).fetchCount(db) == 2)
        }
    }

    @Test func stableOrder() throws {
        #expect(try sql(Player.all().withStableOrder()) == #"SELECT * FROM "player" ORDER BY "id""#)
        #expect(try sql(Player.order(Column("name")).withStableOrder()) == #"SELECT * FROM "player" ORDER BY "name", "id""#)
        #expect(try sql(Player.orderByPrimaryKey().withStableOrder()) == #"SELECT * FROM "player" ORDER BY "id""#)
        #expect(try sql(Player.order(Column("name")).withStableOrder().reversed())
            == #"SELECT * FROM "player" ORDER BY "name" DESC, "id" DESC"#)
        #expect(try sql(Citizenship.all().withStableOrder()) == #"SELECT * FROM "citizenship" ORDER BY "personId", "countryCode""#)
        #expect(try sql(Table<Row>("item").all().withStableOrder()) == #"SELECT * FROM "item" ORDER BY "rowid""#)
        // Views are sorted by all their columns.
        #expect(try sql(Table<Row>("playerView").all().withStableOrder()) == #"SELECT * FROM "playerView" ORDER BY 1, 2"#)
        #expect(try sql(Table<Row>("playerView").order(Column("name")).withStableOrder())
            == #"SELECT * FROM "playerView" ORDER BY "name", 1, 2"#)
        // Joined tables are sorted by their primary key too.
        #expect(try sql(Team.joining(required: Team.players.order(Column("name"))).withStableOrder())
            == #"SELECT "team".* FROM "team" JOIN "player" ON "player"."teamId" = "team"."id" ORDER BY "team"."id", "player"."name", "player"."id""#)
        try dbQueue.read { db throws -> Void in
            #expect(try Table<Row>("playerView").all().withStableOrder().reversed().fetchAll(db).map { $0["name"] as String } == ["Craig", "Barbara", "Arthur"])
        }
    }

    @Test func setsOfRequestsOfAnyRowDecoder() throws {
        try dbQueue.read { db throws -> Void in
            let request: SQLRequest<Row> = "SELECT * FROM player WHERE teamId = 1"
            #expect(try Player.fetchSet(db, request).map(\.name).sorted() == ["Arthur", "Barbara"])
            #expect(try String.fetchSet(db, Player.select(Column("name"))) == ["Arthur", "Barbara", "Craig"])
            let optionalTeams = try Int64?.fetchSet(db, Player.select(Column("teamId")))
            #expect(optionalTeams == [1, nil])
        }
    }

    @Test func databaseEqualsAndStorageValues() throws {
        let arthur = Player(id: 1, name: "Arthur", teamId: nil)
        #expect(arthur.databaseEquals(arthur))
        #expect(!arthur.databaseEquals(Player(id: 1, name: "Arthur", teamId: 1)))

        try dbQueue.read { db throws -> Void in
            let values = try DatabaseValue.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT 1 UNION ALL SELECT 1.5 UNION ALL SELECT 'a' UNION ALL SELECT x'00'")
            #expect(values[0].storage.value == nil)
            #expect(values[1].storage.value as? Int64 == 1)
            #expect(values[2].storage.value as? Double == 1.5)
            #expect(values[3].storage.value as? String == "a")
            #expect(values[4].storage.value as? Data == Data([0]))
        }
    }

    @Test func lookupsByKeyNeedNoLimit() throws {
        try dbQueue.read { db throws -> Void in
            var statements: [String] = []
            db.trace { statements.append($0.expandedDescription) }
            _ = try Player.fetchOne(db, key: 1)
            _ = try Player.fetchOne(db, id: 2)
            _ = try Citizenship.fetchOne(db, key: ["countryCode": "FR", "personId": 1])
            _ = try Player.filter(Column("name") == "Arthur").fetchOne(db)
            _ = try Player.filter(keys: [1, 2]).fetchOne(db)
            _ = try Team.filter(key: 1).including(required: Team.players).fetchOne(db)
            db.trace(options: [], nil)
            let userStatements = statements.filter { $0.hasPrefix("SELECT") && !$0.contains("sqlite_master") && !$0.contains("pragma_") }
            #expect(userStatements == [
                #"SELECT * FROM "player" WHERE "id" = 1"#,
                #"SELECT * FROM "player" WHERE "id" = 2"#,
                // The conditions follow the order of the primary key.
                #"SELECT * FROM "citizenship" WHERE ("personId" = 1) AND ("countryCode" = 'FR')"#,
                #"SELECT * FROM "player" WHERE "name" = 'Arthur' LIMIT 1"#,
                #"SELECT * FROM "player" WHERE "id" IN (1, 2) LIMIT 1"#,
                // A join may multiply the row of the key.
                #"SELECT "team".*, "player".* FROM "team" JOIN "player" ON "player"."teamId" = "team"."id" WHERE "team"."id" = 1 LIMIT 1"#,
            ])
        }
    }

    /// `fetchOne(db, key:)` runs the statement of the request
    /// `filter(key:)`, whatever path it takes: the same SQL, the same
    /// record, the same errors; selections, encoding strategies, and schema
    /// changes are honored.
    @Test func lookupsByKeyAgreeWithTheirRequests() throws {
        struct Item: FetchableRecord, TableRecord {
            var name: String
            init(row: Row) { name = row["name"] }
        }
        struct ExplicitItem: FetchableRecord, TableRecord {
            static let databaseTableName = "item"
            static var databaseSelection: [any SQLSelectable] { [AllColumns()] }
            var name: String
            init(row: Row) { name = row["name"] }
        }
        struct PlayerName: FetchableRecord, TableRecord {
            static let databaseTableName = "player"
            static var databaseSelection: [any SQLSelectable] { [Column("name")] }
            var name: String
            var columnCount: Int
            init(row: Row) {
                name = row["name"]
                columnCount = row.count
            }
        }
        struct Event: Codable, FetchableRecord, PersistableRecord {
            static let databaseDateEncodingStrategy = DatabaseDateEncodingStrategy.timeIntervalSince1970
            var date: Date
            var label: String
        }
        try dbQueue.write { db throws -> Void in
            try db.execute(sql: "CREATE TABLE event (date PRIMARY KEY, label TEXT)")
            try Event(date: Date(timeIntervalSince1970: 1000), label: "thousand").insert(db)
            var statements: [String] = []
            db.trace { statements.append($0.expandedDescription) }
            #expect(try Player.fetchOne(db, key: 2)?.name == "Barbara")
            let viaRequest = try Player.filter(key: 2).fetchOne(db)
            #expect(try Player.fetchOne(db, key: 2) == viaRequest)
            #expect(try Player.fetchOne(db, key: 99) == nil)
            #expect(try Player.fetchOne(db, key: Int?.none) == nil)
            // The hidden rowid.
            #expect(try Item.fetchOne(db, key: 2)?.name == "Chair")
            // An explicit selection of all columns.
            #expect(try ExplicitItem.fetchOne(db, key: 2)?.name == "Chair")
            // A selection of the record type.
            let name = try #require(try PlayerName.fetchOne(db, key: 1))
            #expect(name.name == "Arthur" && name.columnCount == 1)
            // A date key encoded as the record encodes its dates.
            #expect(try Event.fetchOne(db, key: Date(timeIntervalSince1970: 1000))?.label == "thousand")
            db.trace(options: [], nil)
            let selects = statements.filter { $0.hasPrefix("SELECT") && !$0.contains("sqlite_master") && !$0.contains("pragma_") }
            #expect(selects == [
                #"SELECT * FROM "player" WHERE "id" = 2"#,
                #"SELECT * FROM "player" WHERE "id" = 2"#,
                #"SELECT * FROM "player" WHERE "id" = 2"#,
                #"SELECT * FROM "player" WHERE "id" = 99"#,
                // A nil key runs no statement, as in GRDB.
                #"SELECT * FROM "item" WHERE "rowid" = 2"#,
                #"SELECT * FROM "item" WHERE "rowid" = 2"#,
                #"SELECT "name" FROM "player" WHERE "id" = 1"#,
                #"SELECT * FROM "event" WHERE "date" = 1000.0"#,
            ])

            // Errors: a composite primary key, a missing table.
            #expect(throws: RecordError.self) { try Citizenship.fetchOne(db, key: 1) }
            struct Missing: FetchableRecord, TableRecord {
                init(row: Row) { }
            }
            #expect(throws: DatabaseError.self) { try Missing.fetchOne(db, key: 1) }

            // The primary key changes with the schema.
            try db.execute(sql: "DROP TABLE item; CREATE TABLE item (code TEXT PRIMARY KEY, name TEXT)")
            try db.execute(sql: "INSERT INTO item VALUES ('T', 'Table')")
            #expect(try Item.fetchOne(db, key: "T")?.name == "Table")
            #expect(try Item.fetchOne(db, key: 1) == nil)
        }
    }

    @Test func tablesOfRecords() throws {
        try dbQueue.write { db throws -> Void in
            let players = Table<Player>("player")
            #expect(try players.fetchAll(db).map(\.name) == ["Arthur", "Barbara", "Craig"])
            #expect(try players.fetchSet(db).count == 3)
            #expect(try players.fetchOne(db, key: 2)?.name == "Barbara")
            #expect(try players.fetchOne(db, id: 3)?.name == "Craig")
            #expect(try players.fetchAll(db, ids: [1, 3]).map(\.name) == ["Arthur", "Craig"])
            #expect(try players.filter(id: 1).fetchOne(db)?.name == "Arthur")
            #expect(try players.filter(ids: [1, 2]).fetchCount(db) == 2)
            #expect(try players.exists(db, id: 1))
            #expect(try !players.exists(db, key: 4))
            var cursor = try players.fetchCursor(db)
            #expect(try cursor.next()?.id == 1)
            cursor = try players.filter(keys: [3]).fetchCursor(db)
            #expect(try cursor.next()?.id == 3)

            let citizenships = Table("citizenship")
            #expect(try citizenships.fetchOne(db, key: ["personId": 1, "countryCode": "US"]) != nil)
            #expect(try citizenships.exists(db, key: ["personId": 2, "countryCode": "US"]) == false)
            #expect(try citizenships.deleteOne(db, key: ["personId": 1, "countryCode": "US"]))
            #expect(try citizenships.deleteAll(db, keys: [["personId": 1, "countryCode": "FR"], ["personId": 2, "countryCode": "FR"]]) == 2)
            #expect(try citizenships.isEmpty(db))

            #expect(try players.deleteOne(db, id: 3))
            #expect(try players.deleteAll(db, ids: [1, 2]) == 2)
            #expect(try players.isEmpty(db))
        }
    }
}
