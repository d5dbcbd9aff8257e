import Foundation
import Testing
import Cairn

/// The callbacks of upserts, as GRDB 7.8 calls them: the insert and save
/// callbacks around the statement, the rowid of the row that the upsert
/// inserted or updated, and the callbacks that a failed upsert leaves
/// unfinished.
@Suite struct GRDBRecordPersistenceUpsertTests {
    /// A member with a unique nick, that logs its callbacks.
    struct Member: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "member"
        enum CodingKeys: String, CodingKey { case id, nick, points }
        var id: Int64?
        var nick: String
        var points: Int
        var log = Locked<[String]>([])

        init(id: Int64? = nil, nick: String, points: Int) {
            self.id = id
            self.nick = nick
            self.points = points
        }

        func note(_ event: String) { log.withLock { $0.append(event) } }

        mutating func willInsert(_ db: Database) throws { note("willInsert") }
        func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
            note("aroundInsert >")
            let inserted = try insert()
            note("aroundInsert < \(inserted.rowID)")
        }
        mutating func didInsert(_ inserted: InsertionSuccess) {
            note("didInsert \(inserted.rowID) \(inserted.rowIDColumn ?? "-")")
            id = inserted.rowID
        }
        func willUpdate(_ db: Database, columns: Set<String>) throws { note("willUpdate") }
        func willSave(_ db: Database) throws { note("willSave") }
        func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
            note("aroundSave >")
            _ = try save()
            note("aroundSave <")
        }
        func didSave(_ saved: PersistenceSuccess) { note("didSave") }
    }

    static let schema = "CREATE TABLE member (id INTEGER PRIMARY KEY, nick TEXT NOT NULL UNIQUE, points INTEGER NOT NULL DEFAULT 10);"

    @Test func upsertCallsTheInsertCallbacks() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: Self.schema)
            var member = Member(nick: "ann", points: 5)
            try member.upsert(db)
            #expect(member.id == 1)
            #expect(member.log.withLock { $0 } == [
                "willSave", "aroundSave >", "willInsert", "aroundInsert >",
                "aroundInsert < 1", "didInsert 1 id", "aroundSave <", "didSave",
            ])

            // Another insert changes the last inserted rowid; the upsert
            // that updates the row of "ann" still gets the rowid of that row.
            var other = Member(id: 42, nick: "bob", points: 0)
            try other.insert(db)
            #expect(db.lastInsertedRowID == 42)
            var again = Member(nick: "ann", points: 7)
            try again.upsert(db)
            #expect(again.id == 1)
            #expect(again.log.withLock { $0 }.contains("didInsert 1 id"))
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM member ORDER BY id") == [
                ["id": 1, "nick": "ann", "points": 7],
                ["id": 42, "nick": "bob", "points": 0],
            ])

            // upsertAndFetch calls the same callbacks.
            var fetching = Member(nick: "bob", points: 3)
            let fetched = try fetching.upsertAndFetch(db)
            #expect(fetched.id == 42)
            #expect(fetched.points == 3)
            #expect(fetching.id == 42)
            #expect(fetching.log.withLock { $0 } == [
                "willSave", "aroundSave >", "willInsert", "aroundInsert >",
                "aroundInsert < 42", "didInsert 42 id", "aroundSave <", "didSave",
            ])
        }
    }

    @Test func aFailedUpsertLeavesItsCallbacksUnfinished() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: Self.schema)
            try db.execute(sql: "INSERT INTO member (id, nick, points) VALUES (1, 'ann', 1), (2, 'bob', 2)")
            // Conflicts on both the id and the nick, with different rows.
            var member = Member(id: 1, nick: "bob", points: 9)
            do {
                try member.upsert(db)
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_CONSTRAINT)
                #expect(error.message == "UNIQUE constraint failed: member.nick")
                #expect(error.sql == """
                    INSERT INTO "member" ("id", "nick", "points") VALUES (?,?,?) \
                    ON CONFLICT DO UPDATE SET "nick" = "excluded"."nick", "points" = "excluded"."points" \
                    RETURNING "rowid"
                    """)
            }
            #expect(member.log.withLock { $0 } == ["willSave", "aroundSave >", "willInsert", "aroundInsert >"])
        }
    }
}
