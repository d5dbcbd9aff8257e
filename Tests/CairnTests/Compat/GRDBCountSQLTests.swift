import Foundation
import Testing
import Cairn

@Suite struct GRDBCountSQLTests {
    struct Item: TableRecord, FetchableRecord, Decodable {
        static let databaseTableName = "t"
        var a: Int?
        var b: Int?
    }

    func recordedSQL(_ body: (Database) throws -> Void) throws -> [String] {
        let statements = Locked<[String]>([])
        var config = Configuration()
        config.prepareDatabase { db throws in
            db.trace { event in statements.withLock { $0.append(event.description) } }
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE t (id INTEGER PRIMARY KEY, a INT, b INT);
                CREATE TABLE parent (id INTEGER PRIMARY KEY);
                CREATE TABLE child (id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES parent(id));
                """)
        }
        statements.withLock { $0.removeAll() }
        try dbQueue.read(body)
        return statements.withLock { $0 }
    }

    /// The SELECT statements of `body`, as the tests of apps record them.
    func selects(_ body: (Database) throws -> Void) throws -> [String] {
        try recordedSQL(body).filter { $0.hasPrefix("SELECT") }
    }

    @Test func countsOfDistinctRequests() throws {
        #expect(try selects { db in _ = try Table("t").all().distinct().fetchCount(db) }
            == [#"SELECT COUNT(*) FROM (SELECT DISTINCT * FROM "t")"#])
        #expect(try selects { db in _ = try Item.all().distinct().fetchCount(db) }
            == [#"SELECT COUNT(*) FROM (SELECT DISTINCT * FROM "t")"#])
        #expect(try selects { db in _ = try Table("t").select(Column("a")).distinct().fetchCount(db) }
            == [#"SELECT COUNT(DISTINCT "a") FROM "t""#])
        #expect(try selects { db in _ = try Table("t").select(Column("a"), Column("b")).distinct().fetchCount(db) }
            == [#"SELECT COUNT(*) FROM (SELECT DISTINCT "a", "b" FROM "t")"#])
    }

    @Test func introspectionRunsPragmas() throws {
        let statements = try recordedSQL { db in
            _ = try db.foreignKeys(on: "child")
            _ = try db.columns(in: "t")
            _ = try db.indexes(on: "child")
        }
        #expect(statements.contains(#"PRAGMA main.foreign_key_list("child")"#))
        #expect(statements.contains(#"PRAGMA main.table_xinfo("t")"#))
        #expect(statements.contains(#"PRAGMA main.index_list("child")"#))
        #expect(!statements.contains { $0.contains("pragma_") })
    }

    @Test func introspectionOfAttachedAndTemporaryTables() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: """
                ATTACH DATABASE ':memory:' AS "other base";
                ATTACH DATABASE ':memory:' AS "order";
                CREATE TABLE "order".item (id INTEGER PRIMARY KEY);
                CREATE TABLE "other base".parent (id INTEGER PRIMARY KEY);
                CREATE TABLE "other base".child (id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES parent(id));
                CREATE INDEX "other base".child_parent ON child(parentId);
                CREATE TEMP TABLE scratch (a INTEGER PRIMARY KEY, b TEXT UNIQUE);
                """)
            #expect(try db.columns(in: "child", in: "other base").map(\.name) == ["id", "parentId"])
            #expect(try db.foreignKeys(on: "child", in: "other base").map(\.destinationColumns) == [["id"]])
            #expect(try db.indexes(on: "child", in: "other base").map(\.columns) == [["parentId"]])
            #expect(try db.columns(in: "scratch").map(\.name) == ["a", "b"])
            // A schema named by a keyword is quoted in the pragmas.
            #expect(try db.columns(in: "item", in: "order").map(\.name) == ["id"])
            #expect(try db.indexes(on: "scratch").map(\.columns) == [["b"]])
        }
    }
}
