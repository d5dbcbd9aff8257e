import Foundation
import Testing
import Cairn

/// A player whose table sets a default score, and that counts its
/// callbacks.
private struct Gamer: Codable, Equatable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    var score: Int?

    static let databaseTableName = "gamer"

    enum Columns {
        static let name = Column("name")
        static let score = Column("score")
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// Encodes only the name: the database sets the score.
private struct PartialGamer: Encodable, MutablePersistableRecord {
    var id: Int64?
    var name: String
    final class Counts: @unchecked Sendable {
        var willSave = 0, willInsert = 0, didInsert = 0, willUpdate = 0, didUpdate = 0, didSave = 0
    }
    let counts = Counts()

    static let databaseTableName = "gamer"

    enum CodingKeys: String, CodingKey { case id, name }

    enum Columns {
        static let score = Column("score")
    }

    func willSave(_ db: Database) throws { counts.willSave += 1 }
    mutating func willInsert(_ db: Database) throws { counts.willInsert += 1 }
    mutating func didInsert(_ inserted: InsertionSuccess) {
        counts.didInsert += 1
        id = inserted.rowID
    }
    func willUpdate(_ db: Database, columns: Set<String>) throws { counts.willUpdate += 1 }
    func didUpdate(_ updated: PersistenceSuccess) { counts.didUpdate += 1 }
    func didSave(_ saved: PersistenceSuccess) { counts.didSave += 1 }
}

@Suite struct PersistenceAndFetchTests {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws -> Void in
            try db.execute(sql: """
                CREATE TABLE gamer (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, score INTEGER DEFAULT 1000)
                """)
        }
        return dbQueue
    }

    /// Runs `body`, and returns the statements it ran.
    private func traced(_ db: Database, _ body: () throws -> Void) rethrows -> [String] {
        var statements: [String] = []
        db.trace { statements.append($0.expandedDescription) }
        defer { db.trace(options: [], nil) }
        try body()
        return statements
    }

    // MARK: Insert

    @Test func insertAndFetchReturnsTheValuesOfTheDatabase() throws {
        try makeQueue().write { db throws -> Void in
            let gamer = Gamer(id: nil, name: "Arthur", score: nil)
            var inserted: Gamer?
            let statements = try traced(db) { inserted = try gamer.insertAndFetch(db) }
            #expect(statements.contains(#"INSERT INTO "gamer" ("id", "name", "score") VALUES (NULL,'Arthur',NULL) RETURNING *"#))
            #expect(inserted == Gamer(id: 1, name: "Arthur", score: nil))
            // Not mutating: the record keeps its nil id.
            #expect(gamer.id == nil)
        }
    }

    @Test func insertAndFetchAsAnotherType() throws {
        try makeQueue().write { db throws -> Void in
            var partial = PartialGamer(id: nil, name: "Arthur")
            let gamer = try partial.insertAndFetch(db, as: Gamer.self)
            #expect(gamer == Gamer(id: 1, name: "Arthur", score: 1000))
            #expect(partial.id == 1)
            #expect(partial.counts.willSave == 1)
            #expect(partial.counts.didInsert == 1)
        }
    }

    @Test func insertAndFetchWithSelection() throws {
        try makeQueue().write { db throws -> Void in
            var partial = PartialGamer(id: nil, name: "Arthur")
            var score: Int?
            let statements = try traced(db) {
                score = try partial.insertAndFetch(db, selection: [Column("score"), Column("score") + 1]) { statement in
                    let row = try Row.fetchOne(statement)
                    return row.map { $0[0] as Int + $0[1] as Int }
                }
            }
            #expect(score == 2001)
            #expect(statements.contains(#"INSERT INTO "gamer" ("id", "name") VALUES (NULL,'Arthur') RETURNING "score", "score" + 1"#))

            var other = PartialGamer(id: nil, name: "Barbara")
            let otherScore = try other.insertAndFetch(db) { statement in
                try Int.fetchOne(statement)
            } select: {
                [$0.score]
            }
            #expect(otherScore == 1000)
            #expect(other.id == 2)
        }
    }

    @Test func insertAndFetchRunsTheInsertEvenWhenFetchDoesNotStep() throws {
        try makeQueue().write { db throws -> Void in
            var partial = PartialGamer(id: nil, name: "Arthur")
            let value = try partial.insertAndFetch(db, selection: [Column("score")]) { _ in "not fetched" }
            #expect(value == "not fetched")
            #expect(try Gamer.fetchCount(db) == 1)
            #expect(partial.id == 1)
        }
    }

    @Test func ignoredInsertAndFetch() throws {
        try makeQueue().write { db throws -> Void in
            _ = try Gamer(id: nil, name: "Arthur", score: 1).insertAndFetch(db)
            // The ignored row returns nothing.
            #expect {
                try Gamer(id: 1, name: "Barbara", score: 2).insertAndFetch(db, onConflict: .ignore)
            } throws: { error in
                guard case RecordError.recordNotFound(databaseTableName: "gamer", key: let key) = error else { return false }
                return key == ["id": 1.databaseValue]
            }
            var partial = PartialGamer(id: 1, name: "Craig")
            let score = try partial.insertAndFetch(db, onConflict: .ignore, selection: [Column("score")]) {
                try Int.fetchOne($0)
            }
            #expect(score == nil)
            #expect(partial.counts.didInsert == 0)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM gamer") == ["Arthur"])
        }
    }

    @Test func emptySelectionThrows() throws {
        try makeQueue().write { db throws -> Void in
            var partial = PartialGamer(id: nil, name: "Arthur")
            #expect(throws: DatabaseError.self) {
                try partial.insertAndFetch(db, selection: []) { try Row.fetchOne($0) }
            }
            #expect(try Gamer.fetchCount(db) == 0)
        }
    }

    // MARK: Save

    @Test func saveAndFetchUpdatesThenInserts() throws {
        try makeQueue().write { db throws -> Void in
            var partial = PartialGamer(id: 5, name: "Arthur")
            var statements: [String] = []
            var score: Int?
            statements = try traced(db) {
                score = try partial.saveAndFetch(db, selection: [Column("score")]) { try Int.fetchOne($0) }
            }
            #expect(score == 1000)
            #expect(statements.contains(#"UPDATE "gamer" SET "name"='Arthur' WHERE "id"=5 RETURNING "score""#))
            #expect(statements.contains(#"INSERT INTO "gamer" ("id", "name") VALUES (5,'Arthur') RETURNING "score""#))
            // The save callbacks surround the failed update and the insert.
            #expect(partial.counts.willSave == 1)
            #expect(partial.counts.didSave == 1)
            #expect(partial.counts.willUpdate == 1)
            #expect(partial.counts.didUpdate == 0)
            #expect(partial.counts.willInsert == 1)

            partial.name = "Barbara"
            let saved = try partial.saveAndFetch(db, as: Gamer.self)
            #expect(saved == Gamer(id: 5, name: "Barbara", score: 1000))
            #expect(try Gamer.fetchCount(db) == 1)

            let gamer = try Gamer(id: nil, name: "Craig", score: 3).saveAndFetch(db)
            #expect(gamer.id == 6)
        }
    }

    // MARK: Update

    @Test func updateAndFetch() throws {
        try makeQueue().write { db throws -> Void in
            var gamer = Gamer(id: 1, name: "Arthur", score: 10)
            #expect {
                try gamer.updateAndFetch(db)
            } throws: { error in
                guard case RecordError.recordNotFound(databaseTableName: "gamer", key: let key) = error else { return false }
                return key == ["id": 1.databaseValue]
            }
            try gamer.insert(db)
            gamer.name = "Barbara"
            gamer.score = 20
            #expect(try gamer.updateAndFetch(db) == gamer)

            gamer.name = "Craig"
            gamer.score = 30
            var row: Row?
            let statements = try traced(db) {
                row = try gamer.updateAndFetch(db, columns: [Column("score")], selection: [.allColumns]) {
                    try Row.fetchOne($0)
                }
            }
            #expect(statements.contains(#"UPDATE "gamer" SET "score"=30 WHERE "id"=1 RETURNING *"#))
            #expect(row == ["id": 1, "name": "Barbara", "score": 30])
            let partial = try gamer.updateAndFetch(db, as: Gamer.self)
            #expect(partial.name == "Craig")
        }
    }

    @Test func updateChangesAndFetch() throws {
        try makeQueue().write { db throws -> Void in
            var gamer = Gamer(id: nil, name: "Arthur", score: 10)
            try gamer.insert(db)
            // No change: no statement, no fetch.
            let statements = try traced(db) {
                let unchanged = try gamer.updateChangesAndFetch(
                    db, selection: [.allColumns],
                    fetch: { _ -> Int in Issue.record("fetch must not be called"); return 0 },
                    modify: { $0.score = 10 })
                #expect(unchanged == nil)
            }
            #expect(statements.isEmpty)

            let updated = try gamer.updateChangesAndFetch(db) { $0.score = 11 }
            #expect(updated == Gamer(id: 1, name: "Arthur", score: 11))
            #expect(gamer.score == 11)
            let asGamer = try gamer.updateChangesAndFetch(db, as: Gamer.self) { $0.name = "Barbara" }
            #expect(asGamer?.name == "Barbara")
        }
    }

    @Test func updateUsesTheColumnNamesOfTheTable() throws {
        struct Mangled: PersistableRecord {
            static let databaseTableName = "gamer"
            var id: Int64
            var name: String
            func encode(to container: inout PersistenceContainer) {
                container["ID"] = id
                container["naME"] = name
            }
        }
        try makeQueue().write { db throws -> Void in
            try Mangled(id: 1, name: "Arthur").insert(db)
            let statements = try traced(db) { try Mangled(id: 1, name: "Barbara").update(db) }
            #expect(statements.filter { $0.hasPrefix("UPDATE") } == [#"UPDATE "gamer" SET "name"='Barbara' WHERE "id"=1"#])
        }
    }

    @Test func aRecordWithoutItsKeyIsNotFound() throws {
        struct Anonymous: PersistableRecord {
            static let databaseTableName = "note"
            var text: String
            func encode(to container: inout PersistenceContainer) { container["text"] = text }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws -> Void in
            try db.execute(sql: "CREATE TABLE note(text)")
            try Anonymous(text: "a").insert(db)
            #expect {
                try Anonymous(text: "a").update(db)
            } throws: { error in
                guard case RecordError.recordNotFound(databaseTableName: "note", key: let key) = error else { return false }
                return key == ["rowid": .null]
            }
        }
    }

    @Test func insertionSuccessHoldsTheRowID() throws {
        struct Probe: PersistableRecord {
            static let databaseTableName = "gamer"
            var name: String
            final class Seen: @unchecked Sendable { var id: DatabaseValue? }
            let seen = Seen()
            func encode(to container: inout PersistenceContainer) {
                container["Id"] = nil as Int64?
                container["name"] = name
            }
            func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
                let inserted = try insert()
                seen.id = inserted.persistenceContainer["id"]?.databaseValue
            }
        }
        try makeQueue().write { db throws -> Void in
            let probe = Probe(name: "Arthur")
            try probe.insert(db)
            #expect(probe.seen.id == 1.databaseValue)
        }
    }

    @Test func recordNotFoundDescription() {
        let error = RecordError.recordNotFound(databaseTableName: "place", key: ["id": .null])
        #expect(error.description == "Key not found in table place: [id:NULL]")
    }

    // MARK: Upsert

    @Test func upsertAndFetchWithAssignments() throws {
        struct Vocabulary: Codable, Equatable, FetchableRecord, MutablePersistableRecord {
            var word: String
            var kind: String
            var isTainted: Bool
            var count: Int?
            func encode(to container: inout PersistenceContainer) {
                container["word"] = word
                container["kind"] = kind
                container["isTainted"] = isTainted
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws -> Void in
            try db.execute(sql: """
                CREATE TABLE vocabulary(word TEXT PRIMARY KEY, kind TEXT, isTainted BOOLEAN DEFAULT 0, count INT DEFAULT 1);
                INSERT INTO vocabulary(word, isTainted) VALUES('jovial', 1);
                """)
            var vocabulary = Vocabulary(word: "jovial", kind: "adjective", isTainted: false)
            var upserted: Vocabulary?
            let statements = try traced(db) {
                upserted = try vocabulary.upsertAndFetch(db, onConflict: ["word"]) { _ in
                    [Column("count") += 1, Column("isTainted").noOverwrite]
                }
            }
            #expect(statements.last == """
                INSERT INTO "vocabulary" ("word", "kind", "isTainted") VALUES ('jovial','adjective',0) \
                ON CONFLICT("word") DO UPDATE SET "count" = "count" + 1, "kind" = "excluded"."kind" \
                RETURNING *, "rowid"
                """)
            #expect(upserted == Vocabulary(word: "jovial", kind: "adjective", isTainted: true, count: 2))

            // Nothing to overwrite: the row is returned as it is.
            var untouched = Vocabulary(word: "jovial", kind: "noun", isTainted: false)
            let same = try untouched.upsertAndFetch(db, onConflict: ["word"]) { _ in
                [Column("count").noOverwrite, Column("isTainted").noOverwrite, Column("kind").noOverwrite]
            }
            #expect(same == Vocabulary(word: "jovial", kind: "adjective", isTainted: true, count: 2))

            // The excluded alias refers to the values of the record.
            var renamed = Vocabulary(word: "jovial", kind: "interjection", isTainted: false)
            let kind = try renamed.upsertAndFetch(
                db, onConflict: ["word"],
                doUpdate: { excluded in [Column("kind").set(to: excluded["kind"]), Column("count") *= 10] },
                selection: [Column("kind"), Column("count")],
                decode: { row in "\(row[0] as String) \(row[1] as Int)" })
            #expect(kind == "interjection 20")
        }
    }

    @Test func upsertDefaultAssignments() throws {
        try makeQueue().write { db throws -> Void in
            var gamer = Gamer(id: nil, name: "Arthur", score: 1)
            let statements = try traced(db) { try gamer.upsert(db) }
            #expect(statements.last == """
                INSERT INTO "gamer" ("id", "name", "score") VALUES (NULL,'Arthur',1) \
                ON CONFLICT DO UPDATE SET "name" = "excluded"."name", "score" = "excluded"."score" \
                RETURNING "rowid"
                """)
            #expect(gamer.id == 1)
            // A conflict on the name updates the existing row, whose rowid
            // the record receives.
            var same = Gamer(id: nil, name: "Arthur", score: 2)
            let fetched = try same.upsertAndFetch(db, onConflict: ["name"])
            #expect(fetched == Gamer(id: 1, name: "Arthur", score: 2))
            #expect(same.id == 1)
            #expect(try Gamer.fetchCount(db) == 1)
        }
    }

    @Test func noOverwriteIsRefusedInABatchUpdate() throws {
        try makeQueue().write { db throws -> Void in
            _ = try Gamer(id: nil, name: "Arthur", score: 1).inserted(db)
            #expect(throws: DatabaseError.self) {
                try Gamer.updateAll(db, Column("score").noOverwrite)
            }
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM gamer") == 1)
        }
    }
}
