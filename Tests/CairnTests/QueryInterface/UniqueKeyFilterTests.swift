import Foundation
import Testing
import Cairn

/// `fetchOne` needs no `LIMIT 1` when the filters pin a unique key, and
/// `withStableOrder()` sorts views by the primary key of the schema source.
@Suite struct UniqueKeyFilterTests {
    struct Team: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
    }

    struct Player: Codable, FetchableRecord, PersistableRecord {
        static let team = belongsTo(Team.self)
        var id: Int64
        var email: String
        var name: String
        var teamId: Int64?
    }

    func makeQueue(configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE player (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, name TEXT NOT NULL, teamId INTEGER REFERENCES team(id));
                CREATE VIEW playerView AS SELECT * FROM player;
                INSERT INTO team VALUES (1, 'Red');
                INSERT INTO player VALUES (1, 'a@x', 'Arthur', 1), (2, 'b@x', 'Barbara', NULL);
                """)
        }
        return dbQueue
    }

    /// The SELECT statements that `body` runs, without introspection.
    func selects(_ dbQueue: DatabaseQueue, _ body: (Database) throws -> Void) throws -> [String] {
        try dbQueue.read { db in
            var statements: [String] = []
            db.trace { statements.append($0.expandedDescription) }
            try body(db)
            db.trace(options: [], nil)
            return statements.filter { $0.hasPrefix("SELECT") && !$0.contains("sqlite_master") && !$0.contains("pragma_") }
        }
    }

    @Test func fetchOneWithoutLimitForUniqueKeys() throws {
        let dbQueue = try makeQueue()
        let statements = try selects(dbQueue) { db in
            _ = try Row.fetchOne(db, Player.filter(Column("id") == 1))
            _ = try Row.fetchOne(db, Player.filter(Column("email") == "a@x"))
            _ = try Row.fetchOne(db, Player.filter(Column("id") == 1 && Column("name") == "Arthur"))
            _ = try Row.fetchOne(db, Player.filter(Column("id") == 1).filter(Column("name") == "Arthur"))
            _ = try Row.fetchOne(db, Player.filter(Column("rowid") == 1))
            _ = try Row.fetchOne(db, Player.filter(Column("name") == "Arthur"))
            _ = try Row.fetchOne(db, Player.filter(Column("id") != 1))
            _ = try Row.fetchOne(db, Player.filter(Column("id") == 1 || Column("id") == 2))
            _ = try Row.fetchOne(db, Player.filter(Column("id") == 1).including(required: Player.team))
            _ = try Row.fetchOne(db, Table<Row>("playerView").filter(Column("id") == 1))
        }
        #expect(statements == [
            #"SELECT * FROM "player" WHERE "id" = 1"#,
            #"SELECT * FROM "player" WHERE "email" = 'a@x'"#,
            #"SELECT * FROM "player" WHERE ("id" = 1) AND ("name" = 'Arthur')"#,
            #"SELECT * FROM "player" WHERE ("id" = 1) AND ("name" = 'Arthur')"#,
            #"SELECT * FROM "player" WHERE "rowid" = 1"#,
            #"SELECT * FROM "player" WHERE "name" = 'Arthur' LIMIT 1"#,
            #"SELECT * FROM "player" WHERE "id" <> 1 LIMIT 1"#,
            #"SELECT * FROM "player" WHERE ("id" = 1) OR ("id" = 2) LIMIT 1"#,
            // A join may multiply the row of the key.
            #"SELECT "player".*, "team".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId" WHERE "player"."id" = 1 LIMIT 1"#,
            // A view has no unique key without a schema source.
            #"SELECT * FROM "playerView" WHERE "id" = 1 LIMIT 1"#,
        ])
    }

    @Test func belongsToRequestsNeedNoLimit() throws {
        let dbQueue = try makeQueue()
        let statements = try selects(dbQueue) { db in
            let player = try #require(try Player.fetchOne(db, key: 1))
            let team = try player.request(for: Player.team).fetchOne(db)
            #expect(team?.name == "Red")
        }
        #expect(statements == [
            #"SELECT * FROM "player" WHERE "id" = 1"#,
            #"SELECT * FROM "team" WHERE "id" = 1"#,
        ])
    }

    struct Source: DatabaseSchemaSource {
        func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
            view.name == "playerView" ? ["email"] : nil
        }
    }

    @Test func viewsWithSchemaSourcePrimaryKeys() throws {
        var configuration = Configuration()
        configuration.schemaSource = Source()
        let dbQueue = try makeQueue(configuration: configuration)
        let statements = try selects(dbQueue) { db in
            _ = try Row.fetchOne(db, Table<Row>("playerView").filter(Column("email") == "a@x"))
            _ = try Row.fetchAll(db, Table<Row>("playerView").all().withStableOrder())
        }
        #expect(statements == [
            #"SELECT * FROM "playerView" WHERE "email" = 'a@x'"#,
            #"SELECT * FROM "playerView" ORDER BY "email""#,
        ])
    }

    @Test func createIndexOnNamesTheIndexAsGRDB() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try db.create(table: "member") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("team")
            }
            // Does not collide with the index of belongsTo.
            try db.create(indexOn: "member", columns: ["teamId"], options: .unique)
            let names = Set(try db.indexes(on: "member").map(\.name))
            #expect(names == ["member_on_teamId", "index_member_on_teamId"])
        }
    }
}
