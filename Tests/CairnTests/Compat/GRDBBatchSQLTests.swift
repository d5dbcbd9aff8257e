import Foundation
import Testing
import Cairn

/// Batch updates and deletes of requests write the SQL GRDB writes: a plain
/// statement when the request reads one table, and
/// `WHERE key IN (SELECT key ...)` when it joins or groups, where the key
/// is the rowid alias of the table, or else its rowid.
@Suite struct GRDBBatchSQLTests {
    struct Team: TableRecord {
        static let players = hasMany(Player.self)
    }
    struct Player: TableRecord {
        static let team = belongsTo(Team.self)
    }
    struct Passport: TableRecord {}
    struct Country: TableRecord {
        static let citizens = hasMany(Citizen.self)
    }
    struct Citizen: TableRecord {
        static let country = belongsTo(Country.self)
    }
    struct Ignoring: PersistableRecord {
        static let databaseTableName = "player"
        static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .abort, update: .ignore)
        func encode(to container: inout PersistenceContainer) {}
    }

    func makeRecorder() throws -> GRDBSQLRecorder {
        try GRDBSQLRecorder(schema: """
            CREATE TABLE team (id INTEGER PRIMARY KEY, active BOOLEAN);
            CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), name TEXT, score INT);
            CREATE TABLE passport (countryCode TEXT NOT NULL, citizenId INTEGER NOT NULL, active BOOLEAN,
                PRIMARY KEY (countryCode, citizenId));
            CREATE TABLE country (code TEXT NOT NULL PRIMARY KEY, name TEXT);
            CREATE TABLE citizen (id INTEGER PRIMARY KEY, countryCode TEXT REFERENCES country(code));
            """)
    }

    @Test func requestsOfOneTable() throws {
        let recorder = try makeRecorder()
        let reset = Column("score").set(to: 0)
        #expect(try recorder.lastSQL { db in try Player.updateAll(db, reset) }
            == #"UPDATE "player" SET "score" = 0"#)
        #expect(try recorder.lastSQL { db in try Player.filter(Column("name") == "Ann").updateAll(db, reset) }
            == #"UPDATE "player" SET "score" = 0 WHERE "name" = 'Ann'"#)
        #expect(try recorder.lastSQL { db in try Player.filter(keys: [1, 2]).updateAll(db, reset) }
            == #"UPDATE "player" SET "score" = 0 WHERE "id" IN (1, 2)"#)
        #expect(try recorder.lastSQL { db in try Player.filter(sql: "id = 1").filter(Column("name") == "Ann").updateAll(db, reset) }
            == #"UPDATE "player" SET "score" = 0 WHERE (id = 1) AND ("name" = 'Ann')"#)
        // The selection, the ordering and DISTINCT do not select rows.
        #expect(try recorder.lastSQL { db in try Player.select(Column("name")).order(Column("name")).updateAll(db, reset) }
            == #"UPDATE "player" SET "score" = 0"#)
        #expect(try recorder.lastSQL { db in try Player.all().distinct().updateAll(db, reset) }
            == #"UPDATE "player" SET "score" = 0"#)

        #expect(try recorder.lastSQL { db in try Player.deleteAll(db) } == #"DELETE FROM "player""#)
        #expect(try recorder.lastSQL { db in try Player.filter(key: 1).deleteAll(db) }
            == #"DELETE FROM "player" WHERE "id" = 1"#)
        #expect(try recorder.lastSQL { db in try Player.select(Column("name")).order(Column("name")).deleteAll(db) }
            == #"DELETE FROM "player""#)
        #expect(try recorder.lastSQL { db in try Player.filter(Column("score") > 1).distinct().deleteAll(db) }
            == #"DELETE FROM "player" WHERE "score" > 1"#)
        #expect(try recorder.lastSQL { db in try Country.filter(key: "FR").deleteAll(db) }
            == #"DELETE FROM "country" WHERE "code" = 'FR'"#)
    }

    @Test func conflictResolutionOfUpdates() throws {
        let recorder = try makeRecorder()
        let reset = Column("score").set(to: 0)
        #expect(try recorder.lastSQL { db in try Ignoring.updateAll(db, reset) }
            == #"UPDATE OR IGNORE "player" SET "score" = 0"#)
        #expect(try recorder.lastSQL { db in try Table<Ignoring>("player").all().updateAll(db, reset) }
            == #"UPDATE OR IGNORE "player" SET "score" = 0"#)
        #expect(try recorder.lastSQL { db in try Player.all().updateAll(db, onConflict: .replace, reset) }
            == #"UPDATE OR REPLACE "player" SET "score" = 0"#)
        // Without assignment, nothing runs.
        var count: Int?
        #expect(try recorder.sql { db in count = try Player.updateAll(db, []) } == [])
        #expect(count == 0)
    }

    @Test func joinedRequests() throws {
        let recorder = try makeRecorder()
        let reset = Column("score").set(to: 0)
        #expect(try recorder.lastSQL { db in try Player.including(required: Player.team).updateAll(db, reset) }
            == #"UPDATE "player" SET "score" = 0 WHERE "id" IN (SELECT "player"."id" FROM "player" JOIN "team" ON "team"."id" = "player"."teamId")"#)
        #expect(try recorder.lastSQL { db in
            try Player.including(required: Player.team.filter(Column("active") == 1)).updateAll(db, reset)
        } == #"UPDATE "player" SET "score" = 0 WHERE "id" IN (SELECT "player"."id" FROM "player" JOIN "team" ON ("team"."id" = "player"."teamId") AND ("team"."active" = 1))"#)
        let alias = TableAlias(name: "p")
        #expect(try recorder.lastSQL { db in try Player.aliased(alias).joining(required: Player.team).deleteAll(db) }
            == #"DELETE FROM "player" WHERE "id" IN (SELECT "p"."id" FROM "player" "p" JOIN "team" ON "team"."id" = "p"."teamId")"#)
        #expect(try recorder.lastSQL { db in try Team.having(Team.players.isEmpty).deleteAll(db) }
            == #"DELETE FROM "team" WHERE "id" IN (SELECT "team"."id" FROM "team" LEFT JOIN "player" ON "player"."teamId" = "team"."id" GROUP BY "team"."id" HAVING COUNT(DISTINCT "player"."id") = 0)"#)
        // Prefetched associations do not select rows.
        #expect(try recorder.lastSQL { db in try Team.including(all: Team.players).updateAll(db, Column("active").set(to: false)) }
            == #"UPDATE "team" SET "active" = 0"#)
        #expect(try recorder.lastSQL { db in try Team.including(all: Team.players).deleteAll(db) }
            == #"DELETE FROM "team""#)
    }

    @Test func tablesWithoutRowIDAliasAreSelectedByRowID() throws {
        let recorder = try makeRecorder()
        // A single-column primary key that is not the rowid: the rowid.
        #expect(try recorder.lastSQL { db in try Country.joining(required: Country.citizens).deleteAll(db) }
            == #"DELETE FROM "country" WHERE "rowid" IN (SELECT "country"."rowid" FROM "country" JOIN "citizen" ON "citizen"."countryCode" = "country"."code")"#)
        #expect(try recorder.lastSQL { db in
            try Country.joining(required: Country.citizens).updateAll(db, Column("name").set(to: "x"))
        } == #"UPDATE "country" SET "name" = 'x' WHERE "rowid" IN (SELECT "country"."rowid" FROM "country" JOIN "citizen" ON "citizen"."countryCode" = "country"."code")"#)
        // A composite primary key.
        #expect(try recorder.lastSQL { db in try Passport.all().groupByPrimaryKey().updateAll(db, Column("active").set(to: true)) }
            == #"UPDATE "passport" SET "active" = 1 WHERE "rowid" IN (SELECT "rowid" FROM "passport" GROUP BY "rowid")"#)
        #expect(try recorder.lastSQL { db in try Passport.all().group(Column.rowID).deleteAll(db) }
            == #"DELETE FROM "passport" WHERE "rowid" IN (SELECT "rowid" FROM "passport" GROUP BY "rowid")"#)
    }

    @Test func groupedRequests() throws {
        let recorder = try makeRecorder()
        #expect(try recorder.lastSQL { db in try Player.all().groupByPrimaryKey().updateAll(db, Column("score").set(to: 0)) }
            == #"UPDATE "player" SET "score" = 0 WHERE "id" IN (SELECT "id" FROM "player" GROUP BY "id")"#)
        #expect(try recorder.lastSQL { db in try Player.all().group(Column.rowID).deleteAll(db) }
            == #"DELETE FROM "player" WHERE "id" IN (SELECT "id" FROM "player" GROUP BY "rowid")"#)
        #expect(try recorder.lastSQL { db in try Player.all().group(-Column("id")).deleteAll(db) }
            == #"DELETE FROM "player" WHERE "id" IN (SELECT "id" FROM "player" GROUP BY -"id")"#)
    }

    @Test func returningOfJoinedAndGroupedRequests() throws {
        let recorder = try makeRecorder()
        struct Member: TableRecord, FetchableRecord {
            static let databaseTableName = "player"
            static let team = belongsTo(Team.self)
            init(row: Row) {}
        }
        #expect(try recorder.lastSQL { db in _ = try Member.including(required: Member.team).deleteAndFetchCursor(db).next() }
            == #"DELETE FROM "player" WHERE "id" IN (SELECT "player"."id" FROM "player" JOIN "team" ON "team"."id" = "player"."teamId") RETURNING *"#)
        #expect(try recorder.lastSQL { db in _ = try Member.all().groupByPrimaryKey().deleteAndFetchCursor(db).next() }
            == #"DELETE FROM "player" WHERE "id" IN (SELECT "id" FROM "player" GROUP BY "id") RETURNING *"#)
    }
}
