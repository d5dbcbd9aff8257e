import Foundation
import Testing
import Cairn

/// `SQLRequest`, requests of your own, and the requests of records: their
/// statements, adapters, counts, and what they fetch, as in GRDB 7.
@Suite struct GRDBRequestSQLRequestTests {
    static let schema = """
        CREATE TABLE fruit (id INTEGER PRIMARY KEY, name TEXT NOT NULL, weight INT);
        INSERT INTO fruit VALUES (1, 'apple', 150), (2, 'pear', 180), (3, 'kiwi', 75);
        """

    struct Fruit: Codable, FetchableRecord, PersistableRecord, Identifiable, Hashable {
        static let databaseTableName = "fruit"
        var id: Int64
        var name: String
        var weight: Int?
    }

    @Test func statementsAndAdaptersOfSQLRequests() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            let plain = SQLRequest<Row>(sql: "SELECT 1")
            let prepared = try plain.makePreparedRequest(db, forSingleResult: false)
            #expect(prepared.statement.sql == "SELECT 1")
            #expect(prepared.adapter == nil)
            #expect(try plain.fetchOne(db) == ["1": 1])

            let adapted = SQLRequest<Int>(sql: "SELECT ?, ?", arguments: [1, 2], adapter: SuffixRowAdapter(fromIndex: 1))
            let adaptedPrepared = try adapted.makePreparedRequest(db, forSingleResult: false)
            #expect(adaptedPrepared.statement.sql == "SELECT ?, ?")
            #expect(adaptedPrepared.adapter != nil)
            #expect(try adapted.fetchOne(db) == 2)
            #expect(try adapted.fetchAll(db) == [2])

            // Statements are prepared again, unless the request is cached.
            let first = try plain.makePreparedRequest(db, forSingleResult: false).statement
            let second = try plain.makePreparedRequest(db, forSingleResult: false).statement
            #expect(first !== second)
            let cached = SQLRequest<Row>(sql: "SELECT 1", cached: true)
            let cached1 = try cached.makePreparedRequest(db, forSingleResult: false).statement
            let cached2 = try cached.makePreparedRequest(db, forSingleResult: false).statement
            #expect(cached1 === cached2)
        }
    }

    @Test func interpolatedSQLRequests() throws {
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        let request: SQLRequest<Fruit> = "SELECT * FROM \(Fruit.self) WHERE \(Column("id")) = \(2)"
        let statement = try recorder.dbQueue.read { db in try request.makePreparedRequest(db, forSingleResult: true).statement }
        #expect(statement.sql == #"SELECT * FROM "fruit" WHERE "id" = ?"#)
        #expect(statement.arguments == [2])
        var fruit: Fruit?
        #expect(try recorder.sql { db in fruit = try request.fetchOne(db) } == [#"SELECT * FROM "fruit" WHERE "id" = 2"#])
        #expect(fruit?.name == "pear")

        let literal = SQLRequest<String>(literal: "SELECT \("O'Brien")")
        #expect(try recorder.dbQueue.read { db in try literal.makePreparedRequest(db, forSingleResult: false).statement.sql } == "SELECT ?")
        #expect(try recorder.dbQueue.read { db in try literal.fetchOne(db) } == "O'Brien")
    }

    @Test func countsOfRequests() throws {
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        var count = 0
        #expect(try recorder.sql { db in count = try SQLRequest<Row>(sql: "SELECT * FROM fruit").fetchCount(db) }
            == ["SELECT COUNT(*) FROM (SELECT * FROM fruit)"])
        #expect(count == 3)
        #expect(try recorder.sql { db in count = try SQLRequest<Row>(sql: "SELECT * FROM fruit WHERE weight > ?", arguments: [100]).fetchCount(db) }
            == ["SELECT COUNT(*) FROM (SELECT * FROM fruit WHERE weight > 100)"])
        #expect(count == 2)
        // Adapted and type-erased requests count the rows of their base.
        let adapted = SQLRequest<Row>(sql: "SELECT * FROM fruit").adapted { _ in SuffixRowAdapter(fromIndex: 1) }
        #expect(try recorder.sql { db in count = try adapted.fetchCount(db) }
            == ["SELECT COUNT(*) FROM (SELECT * FROM fruit)"])
        #expect(try recorder.sql { db in count = try AnyFetchRequest(Fruit.filter(Column("weight") > 100)).fetchCount(db) }
            == [#"SELECT COUNT(*) FROM "fruit" WHERE "weight" > 100"#])
        #expect(count == 2)
        #expect(try recorder.dbQueue.read { db in try adapted.fetchOne(db) } == ["name": "apple", "weight": 150])
    }

    @Test func existenceAndEmptiness() throws {
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        var flag = false
        #expect(try recorder.sql { db in flag = try Fruit.exists(db, id: 1) }
            == [#"SELECT EXISTS (SELECT * FROM "fruit" WHERE "id" = 1)"#])
        #expect(flag)
        #expect(try recorder.sql { db in flag = try Fruit.exists(db, key: 9) }
            == [#"SELECT EXISTS (SELECT * FROM "fruit" WHERE "id" = 9)"#])
        #expect(!flag)
        #expect(try recorder.sql { db in flag = try Fruit.filter(Column("weight") > 100).isEmpty(db) }
            == [#"SELECT EXISTS (SELECT * FROM "fruit" WHERE "weight" > 100)"#])
        #expect(!flag)
        #expect(try recorder.sql { db in flag = try Fruit.all().isEmpty(db) }
            == [#"SELECT EXISTS (SELECT * FROM "fruit")"#])
        #expect(try recorder.sql { db in flag = try Fruit(id: 3, name: "kiwi", weight: 75).exists(db) }
            == [#"SELECT EXISTS (SELECT 1 FROM "fruit" WHERE "id"=3)"#])
        #expect(flag)
    }

    @Test func selectIDAndSets() throws {
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        var ids: [Int64] = []
        #expect(try recorder.sql { db in ids = try Fruit.selectID().fetchAll(db) }
            == [#"SELECT "id" FROM "fruit""#])
        #expect(ids == [1, 2, 3])
        #expect(try recorder.sql { db in ids = try Fruit.filter(Column("weight") > 100).selectID().order(Column("id").desc).fetchAll(db) }
            == [#"SELECT "id" FROM "fruit" WHERE "weight" > 100 ORDER BY "id" DESC"#])
        #expect(ids == [2, 1])
        var set: Set<Fruit> = []
        #expect(try recorder.sql { db in set = try Fruit.filter(ids: [1, 3]).fetchSet(db) }
            == [#"SELECT * FROM "fruit" WHERE "id" IN (1, 3)"#])
        #expect(set.map(\.name).sorted() == ["apple", "kiwi"])
        var names: Set<String> = []
        #expect(try recorder.sql { db in names = try Fruit.select(Column("name"), as: String.self).fetchSet(db) }
            == [#"SELECT "name" FROM "fruit""#])
        #expect(names == ["apple", "pear", "kiwi"])
        // fetchOne of a request without a unique key keeps LIMIT 1.
        #expect(try recorder.sql { db in _ = try Fruit.order(Column("name")).fetchOne(db) }
            == [#"SELECT * FROM "fruit" ORDER BY "name" LIMIT 1"#])
        #expect(try recorder.sql { db in _ = try Fruit.filter(id: 1).fetchOne(db) }
            == [#"SELECT * FROM "fruit" WHERE "id" = 1"#])
    }

    @Test func errorsOfRequests() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: Self.schema)
            // A table that does not exist.
            do {
                _ = try Table("nowhere").fetchAll(db)
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_ERROR)
                #expect(error.message == "no such table: nowhere")
                #expect(error.sql == #"SELECT * FROM "nowhere""#)
            }
            // An SQL request of several statements.
            do {
                _ = try SQLRequest<Row>(sql: "SELECT 1; SELECT 2").fetchAll(db)
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_MISUSE)
                #expect(error.message == "Multiple statements found. To execute multiple statements, "
                    + "use Database.execute(sql:) or Database.allStatements(sql:) instead.")
            }
            // Arguments that do not fit.
            do {
                _ = try SQLRequest<Row>(sql: "SELECT ?, ?", arguments: [1]).fetchAll(db)
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_MISUSE)
                #expect(error.message == "wrong number of statement arguments: 1")
                #expect(error.sql == "SELECT ?, ?")
            }
        }
    }

    @Test func optionalValuesOfRequests() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            // No row: nil. A NULL value: .some(nil).
            let noRow = try SQLRequest<Int?>(sql: "SELECT 1 WHERE 0").fetchOne(db)
            #expect(noRow == Int??.none)
            let null = try SQLRequest<Int?>(sql: "SELECT NULL").fetchOne(db)
            #expect(null == Int??.some(nil))
            let adaptedNull = try SQLRequest<String?>(sql: "SELECT 0, NULL", adapter: SuffixRowAdapter(fromIndex: 1)).fetchOne(db)
            #expect(adaptedNull == String??.some(nil))
            let value = try SQLRequest<Int?>(literal: "SELECT \(42)").fetchOne(db)
            #expect(value == 42)
            #expect(try Int?.fetchOne(db, SQLRequest<Void>(sql: "SELECT NULL")) == Int??.some(nil))
            #expect(try Int?.fetchOne(db, SQLRequest<Void>(sql: "SELECT 1 WHERE 0")) == Int??.none)
            // A non-optional type reads NULL as nil.
            #expect(try SQLRequest<Int>(sql: "SELECT NULL").fetchOne(db) == nil)
            #expect(try SQLRequest<Int?>(sql: "SELECT NULL UNION ALL SELECT 3").fetchAll(db) == [nil, 3])
        }
    }

    @Test func sqlOfJSONFunctions() throws {
        let recorder = try GRDBSQLRecorder(schema: "CREATE TABLE gadget (name TEXT, info TEXT)")
        let gadget = Table("gadget")
        let name = Column("name")
        let info = JSONColumn("info")
        let cases: [(any FetchRequest, String)] = [
            (gadget.select(Database.json(name)), #"SELECT JSON("name") FROM "gadget""#),
            (gadget.select(Database.jsonArray([1, 2, "3"])), #"SELECT JSON_ARRAY(1, 2, '3') FROM "gadget""#),
            (gadget.select(Database.jsonArray([name, name.asJSON, info, info.jsonExtract(atPath: "a.b")] as [any SQLExpressible])),
             #"SELECT JSON_ARRAY("name", JSONB("name"), JSONB("info"), JSON_EXTRACT("info", 'a.b')) FROM "gadget""#),
            (gadget.select(Database.jsonArray([info["score"], info.jsonRepresentation(atPath: "a")] as [any SQLExpressible])),
             #"SELECT JSON_ARRAY("info" ->> 'score', "info" -> 'a') FROM "gadget""#),
            (gadget.select(Database.jsonObject(["k": info])), #"SELECT JSON_OBJECT('k', JSONB("info")) FROM "gadget""#),
            (gadget.select(Database.jsonSet(info, ["$.a": 99])), #"SELECT JSON_SET("info", '$.a', 99) FROM "gadget""#),
            (gadget.select(Database.jsonReplace("{}", ["$.a": info])), #"SELECT JSON_REPLACE('{}', '$.a', JSONB("info")) FROM "gadget""#),
            (gadget.select(Database.jsonInsert("[1]", ["$[#]": Database.json("{}")])), #"SELECT JSON_INSERT('[1]', '$[#]', JSON('{}')) FROM "gadget""#),
            (gadget.select(info.jsonExtract(atPaths: ["a", "b"])), #"SELECT JSON_EXTRACT("info", 'a', 'b') FROM "gadget""#),
            (gadget.aliased(TableAlias(name: "g")).select(TableAlias(name: "g")[info["score"]]),
             #"SELECT "g"."info" ->> 'score' FROM "gadget" "g""#),
        ]
        for (request, sql) in cases {
            #expect(try recorder.sql(of: request) == sql)
        }
    }
}
