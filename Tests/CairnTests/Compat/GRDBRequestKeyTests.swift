import Foundation
import Testing
import Cairn

/// Lookups and deletions by key, as GRDB 7 writes and runs them: rowid
/// tables, single and composite primary keys, unique indexes, views with a
/// schema source, and empty lists of keys, which run no statement.
@Suite struct GRDBRequestKeyTests {
    /// A table without explicit primary key: its key is the rowid.
    struct Bird: TableRecord, FetchableRecord, Identifiable, Hashable, Codable {
        static let databaseTableName = "bird"
        var id: Int64?
        var name: String?
    }

    struct Member: TableRecord, FetchableRecord, PersistableRecord, Identifiable, Hashable, Codable {
        static let databaseTableName = "member"
        var id: Int64
        var name: String
        var email: String
    }

    struct Visa: TableRecord, FetchableRecord, Hashable, Codable {
        static let databaseTableName = "visa"
        var memberId: Int64
        var country: String
    }

    struct MemberView: TableRecord, FetchableRecord, Identifiable, Hashable, Codable {
        static let databaseTableName = "memberView"
        var id: Int64
        var name: String
        var email: String
    }

    struct ViewKeys: DatabaseSchemaSource {
        func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
            view.name == "memberView" ? ["id"] : nil
        }
    }

    static let schema = """
        CREATE TABLE bird (name TEXT);
        CREATE TABLE member (id INTEGER PRIMARY KEY, name TEXT, email TEXT UNIQUE);
        CREATE TABLE visa (memberId INTEGER NOT NULL, country TEXT NOT NULL, PRIMARY KEY (memberId, country));
        CREATE VIEW memberView AS SELECT * FROM member;
        CREATE TRIGGER memberView_delete INSTEAD OF DELETE ON memberView
        BEGIN DELETE FROM member WHERE id = OLD.id; END;
        """

    func makeRecorder() throws -> GRDBSQLRecorder {
        try GRDBSQLRecorder(schema: Self.schema)
    }

    @Test func rowIDTables() throws {
        let recorder = try makeRecorder()
        try recorder.dbQueue.write { db throws in
            try db.execute(sql: "INSERT INTO bird (rowid, name) VALUES (1, 'a'), (2, 'b'), (3, 'c')")
        }
        var deleted = false
        #expect(try recorder.sql { db in deleted = try Bird.deleteOne(db, key: 5) }
            == [#"DELETE FROM "bird" WHERE "rowid" = 5"#])
        #expect(!deleted)
        #expect(try recorder.sql { db in deleted = try Bird.deleteOne(db, id: nil) } == [])
        #expect(!deleted)
        #expect(try recorder.sql { db in deleted = try Bird.deleteOne(db, id: 1) }
            == [#"DELETE FROM "bird" WHERE "rowid" = 1"#])
        #expect(deleted)
        var count = 0
        #expect(try recorder.sql { db in count = try Bird.deleteAll(db, keys: [2, 3, 4]) }
            == [#"DELETE FROM "bird" WHERE "rowid" IN (2, 3, 4)"#])
        #expect(count == 2)
        #expect(try recorder.sql { db in _ = try Bird.filter(id: 1).fetchOne(db) }
            == [#"SELECT * FROM "bird" WHERE "rowid" = 1"#])
        #expect(try recorder.sql { db in _ = try Bird.filter(id: nil).fetchAll(db) }
            == [#"SELECT * FROM "bird" WHERE 0"#])
    }

    @Test func singleColumnPrimaryKeys() throws {
        let recorder = try makeRecorder()
        #expect(try recorder.lastSQL { db in try Member.deleteOne(db, key: 1) }
            == #"DELETE FROM "member" WHERE "id" = 1"#)
        #expect(try recorder.lastSQL { db in try Member.deleteAll(db, ids: [1, 2]) }
            == #"DELETE FROM "member" WHERE "id" IN (1, 2)"#)
        #expect(try recorder.lastSQL { db in try Member.deleteOne(db, key: ["id": 1]) }
            == #"DELETE FROM "member" WHERE "id" = 1"#)
        #expect(try recorder.lastSQL { db in try Member.deleteOne(db, key: ["email": "x@y"]) }
            == #"DELETE FROM "member" WHERE "email" = 'x@y'"#)
        #expect(try recorder.lastSQL { db in try Member.filter(key: 1).deleteAll(db) }
            == #"DELETE FROM "member" WHERE "id" = 1"#)
        #expect(try recorder.lastSQL { db in try Member.filter(keys: [1, 2]).deleteAll(db) }
            == #"DELETE FROM "member" WHERE "id" IN (1, 2)"#)
        #expect(try recorder.lastSQL { db in try Member.filter(ids: [1, 2]).deleteAll(db) }
            == #"DELETE FROM "member" WHERE "id" IN (1, 2)"#)
        #expect(try recorder.lastSQL { db in try Member.filter(sql: "id = 1").filter(Column("name") == "Ann").deleteAll(db) }
            == #"DELETE FROM "member" WHERE (id = 1) AND ("name" = 'Ann')"#)
        #expect(try recorder.lastSQL { db in _ = try Member.fetchOne(db, id: 3) }
            == #"SELECT * FROM "member" WHERE "id" = 3"#)
        #expect(try recorder.lastSQL { db in _ = try Member.fetchAll(db, ids: [3, 4]) }
            == #"SELECT * FROM "member" WHERE "id" IN (3, 4)"#)
        #expect(try recorder.lastSQL { db in _ = try Member.fetchSet(db, keys: [3]) }
            == #"SELECT * FROM "member" WHERE "id" = 3"#)
        #expect(try recorder.lastSQL { db in _ = try Member.filter(keys: [Int]()).fetchAll(db) }
            == #"SELECT * FROM "member" WHERE 0"#)
    }

    @Test func compositePrimaryKeys() throws {
        let recorder = try makeRecorder()
        try recorder.dbQueue.write { db throws in
            try db.execute(sql: "INSERT INTO visa VALUES (1, 'FR'), (1, 'US'), (2, 'US')")
        }
        var deleted = true
        #expect(try recorder.lastSQL { db in deleted = try Visa.deleteOne(db, key: ["memberId": 3, "country": "FR"]) }
            == #"DELETE FROM "visa" WHERE ("memberId" = 3) AND ("country" = 'FR')"#)
        #expect(!deleted)
        // The conditions follow the columns of the primary key.
        #expect(try recorder.lastSQL { db in _ = try Visa.fetchOne(db, key: ["country": "FR", "memberId": 1]) }
            == #"SELECT * FROM "visa" WHERE ("memberId" = 1) AND ("country" = 'FR')"#)
        var count = 0
        try recorder.dbQueue.write { db throws in
            count = try Visa.deleteAll(db, keys: [
                ["memberId": 1, "country": "FR"], ["memberId": 1, "country": "US"], ["memberId": 1, "country": "DE"],
            ])
        }
        #expect(count == 2)
        #expect(try recorder.dbQueue.read { db in try Visa.fetchCount(db) } == 1)
    }

    @Test func viewsWithASchemaSource() throws {
        var config = Configuration()
        config.schemaSource = ViewKeys()
        let statements = Locked<[String]>([])
        config.prepareDatabase { db in
            db.trace { event in statements.withLock { $0.append(event.expandedDescription) } }
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db throws in
            try db.execute(sql: Self.schema)
            try db.execute(sql: "INSERT INTO member VALUES (1, 'a', 'a@x'), (2, 'b', 'b@x'), (3, 'c', 'c@x')")
        }
        func lastSQL(_ body: (Database) throws -> Void) throws -> String? {
            statements.withLock { $0.removeAll() }
            try dbQueue.inDatabase(body)
            // The statements of triggers are traced as comments (`-- TRIGGER
            // memberView_delete`), as in GRDB.
            return statements.withLock { $0 }.last {
                !$0.hasPrefix("PRAGMA") && !$0.contains("sqlite_master") && !$0.hasPrefix("--")
            }
        }
        #expect(try lastSQL { db in _ = try MemberView.fetchOne(db, id: 1) }
            == #"SELECT * FROM "memberView" WHERE "id" = 1"#)
        #expect(try lastSQL { db in _ = try MemberView.filter(ids: [1, 2]).fetchAll(db) }
            == #"SELECT * FROM "memberView" WHERE "id" IN (1, 2)"#)
        var deleted = false
        #expect(try lastSQL { db in deleted = try MemberView.deleteOne(db, key: 1) }
            == #"DELETE FROM "memberView" WHERE "id" = 1"#)
        #expect(deleted)
        var count = 0
        #expect(try lastSQL { db in count = try MemberView.deleteAll(db, ids: [2, 3, 4]) }
            == #"DELETE FROM "memberView" WHERE "id" IN (2, 3, 4)"#)
        #expect(count == 2)
    }

    @Test func emptyListsOfKeysRunNoStatement() throws {
        let recorder = try makeRecorder()
        try recorder.dbQueue.write { db throws in
            try db.execute(sql: "INSERT INTO member VALUES (1, 'a', 'a@x')")
        }
        let noIDs: [Int64] = []
        let noKeys: [[String: (any DatabaseValueConvertible)?]] = []
        var members: [Member] = [Member(id: 0, name: "", email: "")]
        #expect(try recorder.allSQL { db in members = try Member.fetchAll(db, keys: noIDs) } == [])
        #expect(members.isEmpty)
        #expect(try recorder.allSQL { db in members = try Member.fetchAll(db, ids: noIDs) } == [])
        #expect(try recorder.allSQL { db in members = try Member.fetchAll(db, keys: noKeys) } == [])
        var set: Set<Member> = []
        #expect(try recorder.allSQL { db in set = try Member.fetchSet(db, keys: noIDs) } == [])
        #expect(try recorder.allSQL { db in set = try Member.fetchSet(db, ids: noIDs) } == [])
        #expect(try recorder.allSQL { db in set = try Member.fetchSet(db, keys: noKeys) } == [])
        #expect(set.isEmpty)
        var count = -1
        #expect(try recorder.allSQL { db in count = try Member.deleteAll(db, keys: noIDs) } == [])
        #expect(count == 0)
        #expect(try recorder.allSQL { db in count = try Member.deleteAll(db, ids: noIDs) } == [])
        #expect(try recorder.allSQL { db in count = try Member.deleteAll(db, keys: noKeys) } == [])
        #expect(count == 0)
        var member: Member? = Member(id: 0, name: "", email: "")
        #expect(try recorder.allSQL { db in member = try Member.fetchOne(db, key: Int?.none) } == [])
        #expect(member == nil)
        #expect(try recorder.allSQL { db in member = try Member.fetchOne(db, key: nil as [String: (any DatabaseValueConvertible)?]?) } == [])
        #expect(try recorder.allSQL { db in member = try Table<Member>("member").fetchOne(db, key: Int?.none) } == [])
        #expect(member == nil)
        #expect(try recorder.allSQL { db in members = try Table<Member>("member").fetchAll(db, keys: noIDs) } == [])
        #expect(try recorder.allSQL { db in members = try Table<Member>("member").fetchAll(db, ids: noIDs) } == [])
        #expect(try recorder.allSQL { db in members = try Table<Member>("member").fetchAll(db, keys: noKeys) } == [])
        #expect(members.isEmpty)
        #expect(try recorder.allSQL { db in _ = try Table("member").fetchOne(db, key: Int?.none) } == [])
        #expect(try recorder.allSQL { db in count = try Table("member").deleteAll(db, keys: noIDs) } == [])
        #expect(try recorder.allSQL { db in count = try Table("member").deleteAll(db, keys: noKeys) } == [])
        #expect(count == 0)
        // A cursor runs its statement.
        #expect(try recorder.sql { db in _ = try Member.fetchCursor(db, keys: noIDs).next() }
            == [#"SELECT * FROM "member" WHERE 0"#])
        #expect(try recorder.dbQueue.read { db in try Member.fetchCount(db) } == 1)
    }

    @Test func keysOfMissingTables() throws {
        struct Ghost: TableRecord, FetchableRecord, Decodable {
            var id: Int64
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            let attempts: [(Database) throws -> Void] = [
                { db in _ = try Ghost.fetchOne(db, key: 1) },
                { db in _ = try Ghost.filter(key: 1).fetchAll(db) },
                { db in _ = try Ghost.deleteOne(db, key: 1) },
                { db in _ = try Table("ghost").filter(keys: [1, 2]).fetchCount(db) },
            ]
            for attempt in attempts {
                do {
                    try attempt(db)
                    Issue.record("expected an error")
                } catch let error as DatabaseError {
                    #expect(error.resultCode == .SQLITE_ERROR)
                    #expect(error.message == "no such table: ghost")
                    #expect(error.sql == nil)
                    #expect(error.description == "SQLite error 1: no such table: ghost")
                }
            }
        }
    }
}
