import Foundation
import Testing
import Cairn

private struct Member: Codable, Hashable, Identifiable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "member"
    var id: Int64
    var name: String
    var score: Int

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let score = Column("score")
    }
}

/// A record whose updates ignore conflicts.
private struct IgnoringMember: TableRecord, MutablePersistableRecord, Encodable {
    static let databaseTableName = "member"
    static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .abort, update: .ignore)
    var id: Int64
    enum Columns { static let score = Column("score") }
}

@Suite struct BatchReturningTests {
    private func makeQueue(configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db throws -> Void in
            try db.execute(sql: """
                CREATE TABLE member (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL);
                INSERT INTO member VALUES (1, 'Arthur', 10), (2, 'Barbara', 20), (3, 'Craig', 30);
                """)
        }
        return dbQueue
    }

    @Test func deleteAndFetch() throws {
        try makeQueue().write { db throws -> Void in
            let statement = try Member.filter { $0.score > 10 }.deleteAndFetchStatement(db) { [$0.name] }
            #expect(statement.sql == #"DELETE FROM "member" WHERE "score" > ? RETURNING "name""#)
            #expect(try String.fetchSet(statement) == ["Barbara", "Craig"])
            #expect(try Member.fetchCount(db) == 1)

            try db.execute(sql: "INSERT INTO member VALUES (2, 'Barbara', 20), (3, 'Craig', 30)")
            let excluding = try Member.all().deleteAndFetchStatement(db, selection: [.allColumns(excluding: ["name"])])
            #expect(excluding.sql == #"DELETE FROM "member" RETURNING "id", "score""#)
            #expect(excluding.columnNames == ["id", "score"])

            #expect(try Member.filter(id: 1).deleteAndFetchAll(db) == [Member(id: 1, name: "Arthur", score: 10)])
            #expect(try Member.filter { $0.score >= 30 }.deleteAndFetchSet(db) == [Member(id: 3, name: "Craig", score: 30)])
            #expect(try Member.all().deleteAndFetchIds(db) == [2])
            #expect(try Member.fetchCount(db) == 0)
        }
    }

    @Test func updateAndFetch() throws {
        try makeQueue().write { db throws -> Void in
            let statement = try Member.all().updateAndFetchStatement(db, [Column("score").set(to: 0)], selection: [Column("score")])
            #expect(statement.sql == #"UPDATE "member" SET "score" = ? RETURNING "score""#)
            #expect(statement.arguments == [0])
            #expect(try Int.fetchAll(statement) == [0, 0, 0])

            let updated = try Member.filter { $0.id != 2 }.updateAndFetchAll(db) { [$0.score += 100] }
            #expect(updated.sorted { $0.id < $1.id }.map(\.score) == [100, 100])
            let set = try Member.filter(id: 2).updateAndFetchSet(db, [Member.Columns.name.set(to: "Bea")])
            #expect(set == [Member(id: 2, name: "Bea", score: 0)])
            let cursor = try Member.filter(id: 3).updateAndFetchCursor(db) { [$0.score *= 2] }
            #expect(try cursor.next()?.score == 200)

            #expect(throws: DatabaseError.self) {
                try Member.all().updateAndFetchStatement(db, [], selection: [Column("score")])
            }
        }
    }

    @Test func compoundAndBitwiseAssignments() throws {
        try makeQueue().write { db throws -> Void in
            var statements: [String] = []
            db.trace { statements.append($0.expandedDescription) }
            try Member.updateAll(db) { $0.score *= Column("id") * 2 }
            try Member.updateAll(db) { $0.score -= -Column("id") }
            try Member.updateAll(db, Member.Columns.score &= 0xFF)
            try Member.updateAll(db) { $0.score |= 1 }
            try Member.updateAll(db) { $0.score <<= 1 }
            try Member.updateAll(db) { $0.score >>= 1 }
            db.trace(options: [], nil)
            #expect(statements.filter { $0.hasPrefix("UPDATE") } == [
                #"UPDATE "member" SET "score" = "score" * ("id" * 2)"#,
                #"UPDATE "member" SET "score" = "score" - (-"id")"#,
                #"UPDATE "member" SET "score" = "score" & 255"#,
                #"UPDATE "member" SET "score" = "score" | 1"#,
                #"UPDATE "member" SET "score" = "score" << 1"#,
                #"UPDATE "member" SET "score" = "score" >> 1"#,
            ])
            // (10 * 2 + 1) & 255 | 1, shifted left then right: 21.
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM member WHERE id = 1") == 21)
            let bits = try Int.fetchOne(db, SQLRequest<Int>("SELECT \(~(Column("id") & 6 | 1 << 3) >> 1) FROM member WHERE id = 1"))
            #expect(bits == ~((1 & 6) | (1 << 3)) >> 1)
        }
    }

    @Test func batchUpdatesOfARecordTypeFollowItsConflictPolicy() throws {
        try makeQueue().write { db throws -> Void in
            var statements: [String] = []
            db.trace { statements.append($0.expandedDescription) }
            try IgnoringMember.updateAll(db) { $0.score.set(to: 0) }
            try Table<IgnoringMember>("member").updateAll(db, [Column("score").set(to: 1)])
            try Table<IgnoringMember>("member").updateAll(db) { $0.score += 1 }
            try IgnoringMember.updateAll(db, onConflict: .replace, [Column("score").set(to: 3)])
            db.trace(options: [], nil)
            #expect(statements.filter { $0.hasPrefix("UPDATE") } == [
                #"UPDATE OR IGNORE "member" SET "score" = 0"#,
                #"UPDATE OR IGNORE "member" SET "score" = 1"#,
                #"UPDATE OR IGNORE "member" SET "score" = "score" + 1"#,
                #"UPDATE OR REPLACE "member" SET "score" = 3"#,
            ])
        }
    }

    @Test func indexOptions() throws {
        try makeQueue().write { db throws -> Void in
            try db.create(indexOn: "member", columns: ["name"], options: .unique, condition: Column("score") > 0)
            try db.create(indexOn: "member", columns: ["name"], options: [.unique, .ifNotExists])
            try db.create(index: "byScore", on: "member", columns: ["score"], options: [])
            let indexes = try db.indexes(on: "member")
            #expect(Set(indexes.map(\.name)) == ["index_member_on_name", "byScore"])
            #expect(indexes.first { $0.name == "index_member_on_name" }?.isUnique == true)
            #expect(throws: DatabaseError.self) {
                try db.create(indexOn: "member", columns: ["name"])
            }
        }
    }

    @Test func schemaSourceGivesPrimaryKeysToViews() throws {
        struct Source: DatabaseSchemaSource {
            func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
                view.name == "memberView" && view.schemaID == .main ? ["id"] : nil
            }
        }
        struct Fallback: DatabaseSchemaSource {
            func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
                view.name == "otherView" ? ["name"] : ["ignored"]
            }
        }
        var configuration = Configuration()
        configuration.schemaSource = Source().then(Fallback())
        try makeQueue(configuration: configuration).write { db throws -> Void in
            try db.execute(sql: """
                CREATE VIEW memberView AS SELECT * FROM member;
                CREATE VIEW otherView AS SELECT name FROM member;
                CREATE TRIGGER memberViewDelete INSTEAD OF DELETE ON memberView BEGIN
                    DELETE FROM member WHERE id = OLD.id;
                END;
                """)
            #expect(try db.primaryKey("memberView").columns == ["id"])
            #expect(try db.primaryKey("otherView").columns == ["name"])
            let view = Table<Row>("memberView")
            #expect(try view.fetchOne(db, key: 2)?["name"] == "Barbara")
            // The INSTEAD OF trigger deletes the row: its change counts.
            #expect(try view.deleteOne(db, key: 2))
            #expect(try !view.deleteOne(db, key: 2))
            #expect(try Member.fetchCount(db) == 2)
        }
        // Without a schema source, a view has no primary key.
        try makeQueue().write { db throws -> Void in
            try db.execute(sql: "CREATE VIEW memberView AS SELECT * FROM member")
            #expect(throws: DatabaseError.self) { try db.primaryKey("memberView") }
        }
    }
}
