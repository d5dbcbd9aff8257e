import Foundation
import Testing
import Cairn

/// Statements with a RETURNING clause write the SQL GRDB writes: `*` for
/// the default selection of a record type, the columns of a custom
/// `databaseSelection`, and the given selection otherwise.
@Suite struct GRDBReturningSQLTests {
    func makeRecorder() throws -> GRDBSQLRecorder {
        try GRDBSQLRecorder(schema: playerSchema)
    }

    @Test func insertAndFetch() throws {
        let recorder = try makeRecorder()
        let player = Player(id: nil, name: "Ann", score: 10)
        #expect(try recorder.sql { db in _ = try player.insertAndFetch(db) }.contains(
            #"INSERT INTO "player" ("id", "name", "score") VALUES (NULL,'Ann',10) RETURNING *"#))

        var partial = NamedPlayer(id: nil, name: "Bob")
        var full: Player?
        #expect(try recorder.sql { db in full = try partial.insertAndFetch(db, as: Player.self) }.contains(
            #"INSERT INTO "player" ("id", "name") VALUES (NULL,'Bob') RETURNING *"#))
        #expect(partial.id == 2)
        #expect(full == Player(id: 2, name: "Bob", score: 500))

        partial = NamedPlayer(id: nil, name: "Cid")
        #expect(try recorder.sql { db in _ = try partial.insertAndFetch(db, as: PlayerSummary.self) }.contains(
            #"INSERT INTO "player" ("id", "name") VALUES (NULL,'Cid') RETURNING "id", "name""#))

        partial = NamedPlayer(id: nil, name: "Dan")
        var score: Int?
        #expect(try recorder.sql { db in
            score = try partial.insertAndFetch(db, selection: [Column("score")]) { try Int.fetchOne($0) }
        }.contains(#"INSERT INTO "player" ("id", "name") VALUES (NULL,'Dan') RETURNING "score""#))
        #expect(score == 500)

        var duplicate = Player(id: 1, name: "Ann", score: 0)
        #expect(try recorder.sql { db in
            score = try duplicate.insertAndFetch(db, onConflict: .ignore, selection: [Column("score")]) { try Int.fetchOne($0) }
        }.contains(#"INSERT OR IGNORE INTO "player" ("id", "name", "score") VALUES (1,'Ann',0) RETURNING "score""#))
        #expect(score == nil)
    }

    @Test func saveAndFetch() throws {
        let recorder = try makeRecorder()
        var partial = NamedPlayer(id: nil, name: "Ann")
        let inserting = try recorder.sql { db in _ = try partial.saveAndFetch(db, as: Player.self) }
        #expect(inserting.contains(#"INSERT INTO "player" ("id", "name") VALUES (NULL,'Ann') RETURNING *"#))
        #expect(!inserting.contains { $0.hasPrefix("UPDATE") })

        let updating = try recorder.sql { db in _ = try partial.saveAndFetch(db, as: Player.self) }
        #expect(updating.contains(#"UPDATE "player" SET "name"='Ann' WHERE "id"=1 RETURNING *"#))
        #expect(!updating.contains { $0.hasPrefix("INSERT") })

        // A missing row: the update, then the insert.
        var missing = NamedPlayer(id: 7, name: "Bob")
        let both = try recorder.sql { db in
            _ = try missing.saveAndFetch(db, selection: [Column("score")]) { try Int.fetchOne($0) }
        }
        #expect(both.contains(#"UPDATE "player" SET "name"='Bob' WHERE "id"=7 RETURNING "score""#))
        #expect(both.contains(#"INSERT INTO "player" ("id", "name") VALUES (7,'Bob') RETURNING "score""#))
    }

    @Test func updateAndFetch() throws {
        let recorder = try makeRecorder()
        var player = Player(id: nil, name: "Ann", score: 10)
        try recorder.dbQueue.write { db in try player.insert(db) }
        player.score = 20
        #expect(try recorder.sql { db in _ = try player.updateAndFetch(db) }.contains(
            #"UPDATE "player" SET "name"='Ann', "score"=20 WHERE "id"=1 RETURNING *"#))
        #expect(try recorder.sql { db in _ = try player.updateAndFetch(db, as: PlayerSummary.self) }.contains(
            #"UPDATE "player" SET "name"='Ann', "score"=20 WHERE "id"=1 RETURNING "id", "name""#))
        player.name = "Bob"
        var row: Row?
        #expect(try recorder.sql { db in
            row = try player.updateAndFetch(db, columns: [Column("score")], selection: [.allColumns]) { try Row.fetchOne($0) }
        }.contains(#"UPDATE "player" SET "score"=20 WHERE "id"=1 RETURNING *"#))
        #expect(row == ["id": 1, "name": "Ann", "score": 20])
        #expect(try recorder.sql { db in
            _ = try player.updateChangesAndFetch(db) { $0.score = 30 }
        }.contains(#"UPDATE "player" SET "score"=30 WHERE "id"=1 RETURNING *"#))
        // No column to update: the primary key is set to itself.
        #expect(try recorder.sql { db in
            _ = try player.updateAndFetch(db, columns: [String](), selection: [Column("score")]) { try Int.fetchOne($0) }
        }.contains(#"UPDATE "player" SET "id"=1 WHERE "id"=1 RETURNING "score""#))
        // No change: no statement.
        var unchanged: Player? = player
        #expect(try recorder.sql { db in unchanged = try player.updateChangesAndFetch(db) { $0.score = 30 } }.isEmpty)
        #expect(unchanged == nil)
    }

    @Test func requestDeleteAndFetch() throws {
        let recorder = try makeRecorder()
        let filtered = Player.filter(sql: "id > 0").filter(Column("name") == "Ann")
        #expect(try recorder.lastSQL { db in _ = try filtered.deleteAndFetchCursor(db).next() }
            == #"DELETE FROM "player" WHERE (id > 0) AND ("name" = 'Ann') RETURNING *"#)
        // The selection and the ordering of the request do not matter.
        #expect(try recorder.lastSQL { db in _ = try Player.select(Column("name")).order(Column("name")).deleteAndFetchAll(db) }
            == #"DELETE FROM "player" RETURNING *"#)
        #expect(try recorder.lastSQL { db in _ = try Player.filter(key: 1).deleteAndFetchSet(db) }
            == #"DELETE FROM "player" WHERE "id" = 1 RETURNING *"#)
        #expect(try recorder.lastSQL { db in _ = try Player.filter(Column("score") > 1).deleteAndFetchIds(db) }
            == #"DELETE FROM "player" WHERE "score" > 1 RETURNING "id""#)
        #expect(try recorder.lastSQL { db in _ = try PlayerSummary.filter(keys: [1, 2]).deleteAndFetchAll(db) }
            == #"DELETE FROM "player" WHERE "id" IN (1, 2) RETURNING "id", "name""#)

        try recorder.dbQueue.write { db in
            let statement = try Player.all().deleteAndFetchStatement(db, selection: [.allColumns(excluding: ["name"])])
            #expect(statement.sql == #"DELETE FROM "player" RETURNING "id", "score""#)
            #expect(statement.columnNames == ["id", "score"])
        }
    }

    @Test func requestUpdateAndFetch() throws {
        let recorder = try makeRecorder()
        try recorder.dbQueue.write { db in
            let assignment = Column("score").set(to: 0)
            let statement = try Player.all().updateAndFetchStatement(db, [assignment], selection: [Column("score")])
            #expect(statement.sql == #"UPDATE "player" SET "score" = ? RETURNING "score""#)
            #expect(statement.arguments == [0])
            let all = try Player.all().updateAndFetchStatement(db, [assignment], selection: [.allColumns])
            #expect(all.sql == #"UPDATE "player" SET "score" = ? RETURNING *"#)
            #expect(all.columnNames == ["id", "name", "score"])
        }
        #expect(try recorder.lastSQL { db in
            _ = try Player.filter(Column("id") != 2).updateAndFetchAll(db, [Column("score") += 100])
        } == #"UPDATE "player" SET "score" = "score" + 100 WHERE "id" <> 2 RETURNING *"#)
        #expect(try recorder.lastSQL { db in
            _ = try PlayerSummary.all().updateAndFetchSet(db, [Column("score") += 1])
        } == #"UPDATE "player" SET "score" = "score" + 1 RETURNING "id", "name""#)
        #expect(try recorder.lastSQL { db in
            _ = try Player.all().updateAndFetchCursor(db, [Column("score") += 1]).next()
        } == #"UPDATE "player" SET "score" = "score" + 1 RETURNING *"#)
    }
}
