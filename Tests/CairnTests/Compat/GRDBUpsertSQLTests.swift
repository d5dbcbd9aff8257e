import Foundation
import Testing
import Cairn

/// Upserts and inserts with a conflict resolution write the SQL GRDB
/// writes: explicit assignments first, then `"column" = "excluded"."column"`
/// for every other encoded column that is neither in the primary key nor in
/// the conflict target, and a RETURNING clause that ends with the rowid.
@Suite struct GRDBUpsertSQLTests {
    /// A persistable record (not mutable) of the same table.
    struct FixedPlayer: Codable, PersistableRecord, FetchableRecord {
        static let databaseTableName = "player"
        var id: Int64
        var name: String
        var score: Int
    }

    struct Word: Decodable, MutablePersistableRecord, FetchableRecord {
        static let databaseTableName = "word"
        var text: String
        var kind: String?
        var flagged: Bool
        var uses: Int?
        func encode(to container: inout PersistenceContainer) {
            container["text"] = text
            container["kind"] = kind
            container["flagged"] = flagged
        }
    }

    func makeRecorder() throws -> GRDBSQLRecorder {
        try GRDBSQLRecorder(schema: playerSchema + """
            CREATE TABLE word (text TEXT PRIMARY KEY, kind TEXT, flagged BOOLEAN DEFAULT 0, uses INT DEFAULT 1);
            INSERT INTO word (text, flagged) VALUES ('odd', 1);
            CREATE TABLE tag (name TEXT UNIQUE);
            """)
    }

    @Test func upsertOverwritesEveryColumnButThePrimaryKey() throws {
        let recorder = try makeRecorder()
        var player = Player(id: nil, name: "Ann", score: 10)
        #expect(try recorder.lastSQL { db in try player.upsert(db) }
            == #"INSERT INTO "player" ("id", "name", "score") VALUES (NULL,'Ann',10) "#
            + #"ON CONFLICT DO UPDATE SET "name" = "excluded"."name", "score" = "excluded"."score" RETURNING "rowid""#)
        #expect(player.id == 1)

        let fixed = FixedPlayer(id: 1, name: "Ann", score: 20)
        #expect(try recorder.lastSQL { db in try fixed.upsert(db) }
            == #"INSERT INTO "player" ("id", "name", "score") VALUES (1,'Ann',20) "#
            + #"ON CONFLICT DO UPDATE SET "name" = "excluded"."name", "score" = "excluded"."score" RETURNING "rowid""#)
        #expect(try recorder.dbQueue.read { try Int.fetchOne($0, sql: "SELECT score FROM player") } == 20)
    }

    @Test func upsertAndFetchReturnsAllColumnsAndTheRowID() throws {
        let recorder = try makeRecorder()
        var player = Player(id: 1, name: "Ann", score: 10)
        var upserted: Player?
        #expect(try recorder.sql { db in upserted = try player.upsertAndFetch(db) }.contains(
            #"INSERT INTO "player" ("id", "name", "score") VALUES (1,'Ann',10) "#
            + #"ON CONFLICT DO UPDATE SET "name" = "excluded"."name", "score" = "excluded"."score" RETURNING *, "rowid""#))
        #expect(upserted?.score == 10)

        let fixed = FixedPlayer(id: 1, name: "Bob", score: 30)
        #expect(try recorder.sql { db in _ = try fixed.upsertAndFetch(db) }.contains(
            #"INSERT INTO "player" ("id", "name", "score") VALUES (1,'Bob',30) "#
            + #"ON CONFLICT DO UPDATE SET "name" = "excluded"."name", "score" = "excluded"."score" RETURNING *, "rowid""#))
    }

    @Test func upsertAndFetchAsAnotherType() throws {
        let recorder = try makeRecorder()
        var partial = NamedPlayer(id: nil, name: "Ann")
        var full: Player?
        #expect(try recorder.sql { db in full = try partial.upsertAndFetch(db, as: Player.self) }.contains(
            #"INSERT INTO "player" ("id", "name") VALUES (NULL,'Ann') "#
            + #"ON CONFLICT DO UPDATE SET "name" = "excluded"."name" RETURNING *, "rowid""#))
        #expect(partial.id == 1)
        #expect(full?.score == 500)

        // The selection of the returned type, then the rowid.
        var summary: PlayerSummary?
        #expect(try recorder.sql { db in summary = try partial.upsertAndFetch(db, as: PlayerSummary.self) }.contains(
            #"INSERT INTO "player" ("id", "name") VALUES (1,'Ann') "#
            + #"ON CONFLICT DO UPDATE SET "name" = "excluded"."name" RETURNING "id", "name", "rowid""#))
        #expect(summary?.name == "Ann")
    }

    @Test func conflictTargetIsNotOverwritten() throws {
        let recorder = try makeRecorder()
        var player = Player(id: nil, name: "Ann", score: 10)
        #expect(try recorder.sql { db in _ = try player.upsertAndFetch(db, onConflict: ["NAME"]) }.contains(
            #"INSERT INTO "player" ("id", "name", "score") VALUES (NULL,'Ann',10) "#
            + #"ON CONFLICT("NAME") DO UPDATE SET "score" = "excluded"."score" RETURNING *, "rowid""#))
    }

    @Test func explicitAssignmentsComeFirst() throws {
        let recorder = try makeRecorder()
        var word = Word(text: "odd", kind: "adjective", flagged: false)
        var upserted: Word?
        #expect(try recorder.sql { db in
            upserted = try word.upsertAndFetch(db, onConflict: ["text"]) { _ in
                [Column("uses") += 1, Column("flagged").noOverwrite]
            }
        }.contains(
            #"INSERT INTO "word" ("text", "kind", "flagged") VALUES ('odd','adjective',0) "#
            + #"ON CONFLICT("text") DO UPDATE SET "uses" = "uses" + 1, "kind" = "excluded"."kind" RETURNING *, "rowid""#))
        #expect(upserted?.uses == 2)
        #expect(upserted?.flagged == true)

        // With the excluded alias.
        #expect(try recorder.sql { db in
            _ = try word.upsertAndFetch(db, onConflict: ["text"]) { excluded in
                [Column("kind").set(to: excluded["kind"])]
            }
        }.contains(
            #"INSERT INTO "word" ("text", "kind", "flagged") VALUES ('odd','adjective',0) "#
            + #"ON CONFLICT("text") DO UPDATE SET "kind" = "excluded"."kind", "flagged" = "excluded"."flagged" RETURNING *, "rowid""#))
    }

    @Test func nothingToOverwriteStillUpdatesTheFirstPrimaryKeyColumn() throws {
        let recorder = try makeRecorder()
        var word = Word(text: "odd", kind: "ignored", flagged: false)
        var upserted: Word?
        #expect(try recorder.sql { db in
            upserted = try word.upsertAndFetch(db, onConflict: ["text"]) { _ in
                [Column("uses").noOverwrite, Column("flagged").noOverwrite, Column("kind").noOverwrite]
            }
        }.contains(
            #"INSERT INTO "word" ("text", "kind", "flagged") VALUES ('odd','ignored',0) "#
            + #"ON CONFLICT("text") DO UPDATE SET "text" = "text" RETURNING *, "rowid""#))
        #expect(upserted?.kind == nil)
    }

    @Test func nothingToOverwriteUpdatesThePrimaryKeyNotTheConflictTarget() throws {
        struct Tag: Codable, MutablePersistableRecord, FetchableRecord {
            static let databaseTableName = "tag"
            var name: String
        }
        let recorder = try makeRecorder()
        var player = Player(id: nil, name: "Ann", score: 10)
        try recorder.dbQueue.write { db in try player.insert(db) }
        var named = NamedPlayer(id: nil, name: "Ann")
        #expect(try recorder.sql { db in _ = try named.upsertAndFetch(db, as: Player.self, onConflict: ["name"]) }.contains(
            #"INSERT INTO "player" ("id", "name") VALUES (NULL,'Ann') ON CONFLICT("name") DO UPDATE SET "id" = "id" RETURNING *, "rowid""#))
        #expect(named.id == 1)

        // A table without explicit primary key: its rowid.
        var tag = Tag(name: "red")
        try recorder.dbQueue.write { db in try tag.insert(db) }
        var upserted: Tag?
        #expect(try recorder.sql { db in upserted = try tag.upsertAndFetch(db, onConflict: ["name"]) }.contains(
            #"INSERT INTO "tag" ("name") VALUES ('red') ON CONFLICT("name") DO UPDATE SET "rowid" = "rowid" RETURNING *, "rowid""#))
        #expect(upserted?.name == "red")
    }

    @Test func insertConflictResolutions() throws {
        let recorder = try makeRecorder()
        var player = Player(id: 1, name: "Ann", score: 10)
        #expect(try recorder.lastSQL { db in try player.insert(db, onConflict: .replace) }
            == #"INSERT OR REPLACE INTO "player" ("id", "name", "score") VALUES (1,'Ann',10)"#)
        #expect(try recorder.lastSQL { db in try player.insert(db, onConflict: .ignore) }
            == #"INSERT OR IGNORE INTO "player" ("id", "name", "score") VALUES (1,'Ann',10)"#)
        var other = Player(id: 2, name: "Bob", score: 1)
        #expect(try recorder.lastSQL { db in try other.insert(db, onConflict: .fail) }
            == #"INSERT OR FAIL INTO "player" ("id", "name", "score") VALUES (2,'Bob',1)"#)
        #expect(try recorder.lastSQL { db in _ = try player.inserted(db, onConflict: .replace) }
            == #"INSERT OR REPLACE INTO "player" ("id", "name", "score") VALUES (1,'Ann',10)"#)
    }

    @Test func conflictPolicyOfTheRecordType() throws {
        struct Replacing: Codable, PersistableRecord {
            static let databaseTableName = "player"
            static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace, update: .replace)
            var id: Int64
            var name: String
        }
        let recorder = try makeRecorder()
        let record = Replacing(id: 1, name: "Ann")
        #expect(try recorder.lastSQL { db in try record.insert(db) }
            == #"INSERT OR REPLACE INTO "player" ("id", "name") VALUES (1,'Ann')"#)
        #expect(try recorder.lastSQL { db in try record.update(db) }
            == #"UPDATE OR REPLACE "player" SET "name"='Ann' WHERE "id"=1"#)
        // An explicit resolution wins.
        let other = Replacing(id: 2, name: "Bob")
        #expect(try recorder.lastSQL { db in try other.insert(db, onConflict: .abort) }
            == #"INSERT INTO "player" ("id", "name") VALUES (2,'Bob')"#)
    }
}
