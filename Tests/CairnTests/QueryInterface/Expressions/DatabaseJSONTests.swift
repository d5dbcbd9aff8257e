import Foundation
import Testing
import Cairn

/// The JSON functions of `Database`: the SQL they generate, and the values
/// SQLite returns for them.
@Suite struct DatabaseJSONTests {
    let dbQueue: DatabaseQueue
    let player = Table("player")
    let name = Column("name")
    let info = JSONColumn("info")

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws -> Void in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
                t.column("score", .integer)
                t.column("info", .jsonText)
            }
            try db.execute(sql: """
                INSERT INTO player (name, score, info) VALUES
                  ('Arthur', 1000, '{"city": "Paris", "tags": ["a", "b"]}'),
                  ('Barbara', 0, '{"city": "Lyon", "tags": []}'),
                  ('Craig', 500, NULL)
                """)
        }
    }

    /// The SQL of an expression, and its value.
    private func check<Value: DatabaseValueConvertible & Equatable>(
        _ expression: SQLExpression,
        sql: String,
        value: Value?,
        sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        try dbQueue.read { db throws -> Void in
            #expect(try expandedSQL(db, expression) == sql, sourceLocation: sourceLocation)
            #expect(try Value.fetchOne(db, SQLRequest<Value>("SELECT \(expression)")) == value, sourceLocation: sourceLocation)
        }
    }

    /// The SQL of a selection of the first player, and its value.
    private func checkPlayer<Value: DatabaseValueConvertible & Equatable>(
        _ expression: SQLExpression,
        sql: String,
        value: Value?,
        sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        try dbQueue.read { db throws -> Void in
            let request = player.select(expression, as: Value.self).order(Column("id"))
            #expect(try expandedSQL(db, request) == "SELECT \(sql) FROM \"player\" ORDER BY \"id\"",
                    sourceLocation: sourceLocation)
            #expect(try Value.fetchOne(db, request) == value, sourceLocation: sourceLocation)
        }
    }

    @Test func columnTypes() throws {
        #expect(Database.ColumnType.jsonText.rawValue == "TEXT")
        #expect(Database.ColumnType.jsonb.rawValue == "BLOB")
        try DatabaseQueue().write { db throws in
            try db.create(table: "t") { t in
                t.column("a", .jsonText)
                t.column("b", .jsonb)
            }
            #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 't'")
                == #"CREATE TABLE "t" ("a" TEXT, "b" BLOB)"#)
        }
    }

    @Test func json() throws {
        try check(Database.json(#" { "a": [ "test" ] } "#), sql: #"JSON(' { "a": [ "test" ] } ')"#, value: #"{"a":["test"]}"#)
        try checkPlayer(Database.json(info), sql: #"JSON("info")"#, value: #"{"city":"Paris","tags":["a","b"]}"#)
    }

    @Test func jsonOfMalformedTextIsAnError() throws {
        try dbQueue.read { db throws -> Void in
            #expect(throws: DatabaseError.self) {
                try String.fetchOne(db, player.select(Database.json(name), as: String.self))
            }
        }
    }

    @Test func jsonArray() throws {
        try check(Database.jsonArray(1...4), sql: "JSON_ARRAY(1, 2, 3, 4)", value: "[1,2,3,4]")
        try check(Database.jsonArray([1, 2, 3, 4]), sql: "JSON_ARRAY(1, 2, 3, 4)", value: "[1,2,3,4]")
        try check(Database.jsonArray([1, 2, "3", 4] as [any SQLExpressible]), sql: "JSON_ARRAY(1, 2, '3', 4)", value: #"[1,2,"3",4]"#)
        try check(Database.jsonArray([Int]()), sql: "JSON_ARRAY()", value: "[]")
        try check(
            Database.jsonArray([Database.jsonArray([1]), Database.jsonObject(["a": 1]), Database.json("[2]")]),
            sql: "JSON_ARRAY(JSON_ARRAY(1), JSON_OBJECT('a', 1), JSON('[2]'))",
            value: #"[[1],{"a":1},[2]]"#)
    }

    @Test func jsonArrayValues() throws {
        let array = Database.jsonArray([name, info, Column("info"), info.jsonExtract(atPath: "$.tags")] as [any SQLExpressible])
        try checkPlayer(
            array,
            sql: #"JSON_ARRAY("name", JSONB("info"), "info", JSON_EXTRACT("info", '$.tags'))"#,
            value: #"["Arthur",{"city":"Paris","tags":["a","b"]},"{\"city\": \"Paris\", \"tags\": [\"a\", \"b\"]}",["a","b"]]"#)
    }

    @Test func jsonArrayLength() throws {
        try check(Database.jsonArrayLength("[1,2,3,4]"), sql: "JSON_ARRAY_LENGTH('[1,2,3,4]')", value: 4)
        try check(Database.jsonArrayLength(#"{"one":[1,2,3]}"#, atPath: "$.one"),
                  sql: #"JSON_ARRAY_LENGTH('{"one":[1,2,3]}', '$.one')"#, value: 3)
        try check(Database.jsonArrayLength(#"{"one":[1,2,3]}"#, atPath: "$.two"),
                  sql: #"JSON_ARRAY_LENGTH('{"one":[1,2,3]}', '$.two')"#, value: Int?.none)
        try checkPlayer(Database.jsonArrayLength(info, atPath: "$.tags"), sql: #"JSON_ARRAY_LENGTH("info", '$.tags')"#, value: 2)
        try checkPlayer(Database.jsonArrayLength(info), sql: #"JSON_ARRAY_LENGTH("info")"#, value: 0)
    }

    @Test func jsonExtract() throws {
        try check(Database.jsonExtract(#"{"a":123}"#, atPath: "$.a"), sql: #"JSON_EXTRACT('{"a":123}', '$.a')"#, value: 123)
        try check(Database.jsonExtract(#"{"a":2,"c":[4,5]}"#, atPaths: ["$.c", "$.a"]),
                  sql: #"JSON_EXTRACT('{"a":2,"c":[4,5]}', '$.c', '$.a')"#, value: "[[4,5],2]")
        try checkPlayer(Database.jsonExtract(info, atPath: "$.city"), sql: #"JSON_EXTRACT("info", '$.city')"#, value: "Paris")
        try checkPlayer(Database.jsonExtract(#"{"a":[1,2]}"#, atPath: Database.jsonExtract(#"{"p":"$.a[1]"}"#, atPath: "$.p")),
                        sql: #"JSON_EXTRACT('{"a":[1,2]}', JSON_EXTRACT('{"p":"$.a[1]"}', '$.p'))"#, value: 2)
        try checkPlayer(Database.jsonExtract(info, atPaths: ["$.city", "$.tags[1]"]),
                        sql: #"JSON_EXTRACT("info", '$.city', '$.tags[1]')"#, value: #"["Paris","b"]"#)
    }

    @Test func jsonExtractWithInvalidPathIsAnError() throws {
        try dbQueue.read { db throws -> Void in
            #expect(throws: DatabaseError.self) {
                try String.fetchOne(db, SQLRequest<String>("SELECT \(Database.jsonExtract("[1]", atPath: "nope"))"))
            }
        }
    }

    @Test func jsonInsertReplaceSet() throws {
        try check(Database.jsonInsert("[1,2,3,4]", ["$[#]": #"{"e":5}"#]),
                  sql: #"JSON_INSERT('[1,2,3,4]', '$[#]', '{"e":5}')"#, value: #"[1,2,3,4,"{\"e\":5}"]"#)
        try check(Database.jsonInsert("[1,2,3,4]", ["$[#]": #"{"e":5}"#.databaseValue.asJSON]),
                  sql: #"JSON_INSERT('[1,2,3,4]', '$[#]', JSONB('{"e":5}'))"#, value: #"[1,2,3,4,{"e":5}]"#)
        try check(Database.jsonInsert("[1,2,3,4]", ["$[#]": Database.json(#"{"e":5}"#)]),
                  sql: #"JSON_INSERT('[1,2,3,4]', '$[#]', JSON('{"e":5}'))"#, value: #"[1,2,3,4,{"e":5}]"#)
        try check(Database.jsonInsert("[1,2,3,4]", ["$[#]": Database.jsonObject(["e": 5])]),
                  sql: #"JSON_INSERT('[1,2,3,4]', '$[#]', JSON_OBJECT('e', 5))"#, value: #"[1,2,3,4,{"e":5}]"#)
        try check(Database.jsonInsert(#"{"a":2}"#, ["$.a": 99]), sql: #"JSON_INSERT('{"a":2}', '$.a', 99)"#, value: #"{"a":2}"#)

        try check(Database.jsonReplace(#"{"a":2,"c":4}"#, ["$.a": 99]),
                  sql: #"JSON_REPLACE('{"a":2,"c":4}', '$.a', 99)"#, value: #"{"a":99,"c":4}"#)
        try check(Database.jsonReplace(#"{"a":2,"c":4}"#, ["$.b": 99]),
                  sql: #"JSON_REPLACE('{"a":2,"c":4}', '$.b', 99)"#, value: #"{"a":2,"c":4}"#)
        try check(Database.jsonReplace(#"{"a":2,"c":4}"#, ["$.a": #"{"e":5}"#.databaseValue.asJSON]),
                  sql: #"JSON_REPLACE('{"a":2,"c":4}', '$.a', JSONB('{"e":5}'))"#, value: #"{"a":{"e":5},"c":4}"#)

        try check(Database.jsonSet(#"{"a":2,"c":4}"#, [(key: "$.a", value: 99), (key: "$.b", value: "x")] as [(key: String, value: any SQLExpressible)]),
                  sql: #"JSON_SET('{"a":2,"c":4}', '$.a', 99, '$.b', 'x')"#, value: #"{"a":99,"c":4,"b":"x"}"#)

        // A JSON column as a value is JSON.
        try checkPlayer(Database.jsonSet("{}", ["$.info": info]),
                        sql: #"JSON_SET('{}', '$.info', JSONB("info"))"#, value: #"{"info":{"city":"Paris","tags":["a","b"]}}"#)
        try checkPlayer(Database.jsonSet(info, ["$.name": name]),
                        sql: #"JSON_SET("info", '$.name', "name")"#, value: #"{"city":"Paris","tags":["a","b"],"name":"Arthur"}"#)
    }

    @Test func jsonObject() throws {
        try check(Database.jsonObject(["a": 2] as [String: Int]), sql: "JSON_OBJECT('a', 2)", value: #"{"a":2}"#)
        try check(Database.jsonObject(["c": #"{"e":5}"#] as [String: any SQLExpressible]),
                  sql: #"JSON_OBJECT('c', '{"e":5}')"#, value: #"{"c":"{\"e\":5}"}"#)
        try check(Database.jsonObject(["c": #"{"e":5}"#.databaseValue.asJSON] as [String: any SQLExpressible]),
                  sql: #"JSON_OBJECT('c', JSONB('{"e":5}'))"#, value: #"{"c":{"e":5}}"#)
        try check(Database.jsonObject(["c": Database.jsonObject(["e": 5])]),
                  sql: "JSON_OBJECT('c', JSON_OBJECT('e', 5))", value: #"{"c":{"e":5}}"#)
        try check(Database.jsonObject(["c": Database.json(#"{"e":5}"#)]),
                  sql: #"JSON_OBJECT('c', JSON('{"e":5}'))"#, value: #"{"c":{"e":5}}"#)
        try check(Database.jsonObject([(key: String, value: any SQLExpressible)]()), sql: "JSON_OBJECT()", value: "{}")

        // Ordered pairs
        try check(Database.jsonObject([(key: "a", value: 2), (key: "c", value: #"{"e":5}"#)] as [(key: String, value: any SQLExpressible)]),
                  sql: #"JSON_OBJECT('a', 2, 'c', '{"e":5}')"#, value: #"{"a":2,"c":"{\"e\":5}"}"#)
        try check(Database.jsonObject(["z": 2, "a": Database.jsonArray([1])] as KeyValuePairs),
                  sql: "JSON_OBJECT('z', 2, 'a', JSON_ARRAY(1))", value: #"{"z":2,"a":[1]}"#)
        try checkPlayer(Database.jsonObject(["name": name, "info": info] as KeyValuePairs<String, any SQLExpressible>),
                        sql: #"JSON_OBJECT('name', "name", 'info', JSONB("info"))"#,
                        value: #"{"name":"Arthur","info":{"city":"Paris","tags":["a","b"]}}"#)
    }

    @Test func jsonPatch() throws {
        try check(Database.jsonPatch(#"{"a":1,"b":2}"#, with: #"{"c":3,"d":4}"#),
                  sql: #"JSON_PATCH('{"a":1,"b":2}', '{"c":3,"d":4}')"#, value: #"{"a":1,"b":2,"c":3,"d":4}"#)
        try check(Database.jsonPatch(#"{"a":1,"b":2}"#, with: #"{"a":null}"#),
                  sql: #"JSON_PATCH('{"a":1,"b":2}', '{"a":null}')"#, value: #"{"b":2}"#)
        try checkPlayer(Database.jsonPatch(info, with: Database.jsonObject(["city": "Rome"])),
                        sql: #"JSON_PATCH("info", JSON_OBJECT('city', 'Rome'))"#, value: #"{"city":"Rome","tags":["a","b"]}"#)
    }

    @Test func jsonRemove() throws {
        try check(Database.jsonRemove("[0,1,2,3,4]", atPath: "$[2]"), sql: "JSON_REMOVE('[0,1,2,3,4]', '$[2]')", value: "[0,1,3,4]")
        try check(Database.jsonRemove("[0,1,2,3,4]", atPaths: ["$[2]", "$[0]"]),
                  sql: "JSON_REMOVE('[0,1,2,3,4]', '$[2]', '$[0]')", value: "[1,3,4]")
        try checkPlayer(Database.jsonRemove(info, atPath: "$.tags"), sql: #"JSON_REMOVE("info", '$.tags')"#, value: #"{"city":"Paris"}"#)
    }

    @Test func jsonTypeValidQuote() throws {
        let sample = #"{"a":[2,3.5,true,false,null,"x"]}"#
        try check(Database.jsonType(sample), sql: #"JSON_TYPE('{"a":[2,3.5,true,false,null,"x"]}')"#, value: "object")
        try check(Database.jsonType(sample, atPath: "$.a"), sql: #"JSON_TYPE('{"a":[2,3.5,true,false,null,"x"]}', '$.a')"#, value: "array")
        try check(Database.jsonType(sample, atPath: "$.a[1]"), sql: #"JSON_TYPE('{"a":[2,3.5,true,false,null,"x"]}', '$.a[1]')"#, value: "real")
        try checkPlayer(Database.jsonType(info, atPath: "$.city"), sql: #"JSON_TYPE("info", '$.city')"#, value: "text")

        try check(Database.jsonIsValid(#"{"x":35"#), sql: #"JSON_VALID('{"x":35')"#, value: false)
        try check(Database.jsonIsValid(#"{"x":35}"#), sql: #"JSON_VALID('{"x":35}')"#, value: true)
        try checkPlayer(Database.jsonIsValid(name), sql: #"JSON_VALID("name")"#, value: false)

        try check(Database.jsonQuote(#"{"e":5}"#), sql: #"JSON_QUOTE('{"e":5}')"#, value: #""{\"e\":5}""#)
        try check(Database.jsonQuote(#"{"e":5}"#.databaseValue.asJSON), sql: #"JSON_QUOTE(JSONB('{"e":5}'))"#, value: #"{"e":5}"#)
        try check(Database.jsonQuote(Database.json("[1]")), sql: "JSON_QUOTE(JSON('[1]'))", value: "[1]")
        try check(Database.jsonQuote(3.5), sql: "JSON_QUOTE(3.5)", value: "3.5")
        try checkPlayer(Database.jsonQuote(name), sql: #"JSON_QUOTE("name")"#, value: #""Arthur""#)
        try checkPlayer(Database.jsonQuote(info), sql: #"JSON_QUOTE(JSONB("info"))"#, value: #"{"city":"Paris","tags":["a","b"]}"#)
    }

    @Test func jsonGroupArray() throws {
        try dbQueue.read { db throws -> Void in
            let names = player.select(Database.jsonGroupArray(name)).order(Column("id"))
            #expect(try expandedSQL(db, names) == #"SELECT JSON_GROUP_ARRAY("name") FROM "player" ORDER BY "id""#)
            #expect(try String.fetchOne(db, names) == #"["Arthur","Barbara","Craig"]"#)

            let infos = player.select(Database.jsonGroupArray(info))
            #expect(try expandedSQL(db, infos) == #"SELECT JSON_GROUP_ARRAY(JSONB("info")) FROM "player""#)
            #expect(try String.fetchOne(db, infos)
                == #"[{"city":"Paris","tags":["a","b"]},{"city":"Lyon","tags":[]},null]"#)

            let filtered = player.select(Database.jsonGroupArray(name, filter: Column("score") > 0))
            #expect(try expandedSQL(db, filtered)
                == #"SELECT JSON_GROUP_ARRAY("name") FILTER (WHERE "score" > 0) FROM "player""#)
            #expect(try String.fetchOne(db, filtered) == #"["Arthur","Craig"]"#)

            let filteredInfos = player.select(Database.jsonGroupArray(info, filter: length(name) > 5 && info != nil))
            #expect(try expandedSQL(db, filteredInfos) == """
                SELECT JSON_GROUP_ARRAY(JSONB("info")) FILTER (WHERE (LENGTH("name") > 5) AND ("info" IS NOT NULL)) \
                FROM "player"
                """)
            #expect(try String.fetchOne(db, filteredInfos) == #"[{"city":"Paris","tags":["a","b"]},{"city":"Lyon","tags":[]}]"#)

            // The aggregate is JSON in other JSON functions.
            let nested = player.select(Database.jsonObject(["names": Database.jsonGroupArray(name, filter: Column("score") > 0)]))
            #expect(try expandedSQL(db, nested)
                == #"SELECT JSON_OBJECT('names', JSON_GROUP_ARRAY("name") FILTER (WHERE "score" > 0)) FROM "player""#)
            #expect(try String.fetchOne(db, nested) == #"{"names":["Arthur","Craig"]}"#)
        }
    }

    @Test func jsonGroupObject() throws {
        try dbQueue.read { db throws -> Void in
            let scores = player.select(Database.jsonGroupObject(key: name, value: Column("score")))
            #expect(try expandedSQL(db, scores) == #"SELECT JSON_GROUP_OBJECT("name", "score") FROM "player""#)
            #expect(try String.fetchOne(db, scores) == #"{"Arthur":1000,"Barbara":0,"Craig":500}"#)

            let infos = player.select(Database.jsonGroupObject(key: name, value: info, filter: info != nil))
            #expect(try expandedSQL(db, infos)
                == #"SELECT JSON_GROUP_OBJECT("name", JSONB("info")) FILTER (WHERE "info" IS NOT NULL) FROM "player""#)
            #expect(try String.fetchOne(db, infos)
                == #"{"Arthur":{"city":"Paris","tags":["a","b"]},"Barbara":{"city":"Lyon","tags":[]}}"#)
        }
    }

    /// JSON stored as JSONB is read as JSON by the functions, and the
    /// aggregates return JSON text.
    @Test(arguments: WriterKind.allCases)
    func jsonbColumn(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db throws in
            try db.create(table: "document") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("body", .jsonb)
            }
            try db.execute(sql: #"INSERT INTO document (body) VALUES (JSONB('{"foo": "bar"}'))"#)
        }
        let body = JSONColumn("body")
        let document = Table("document")
        try writer.read { db throws in
            #expect(try String.fetchOne(db, document.select(Database.jsonGroupArray(body), as: String.self))
                == #"[{"foo":"bar"}]"#)
            #expect(try String.fetchOne(db, document.select(body["foo"], as: String.self)) == "bar")
            #expect(try String.fetchOne(db, document.select(Database.json(body), as: String.self)) == #"{"foo":"bar"}"#)
            #expect(try Data.fetchOne(db, document.select(body, as: Data.self))?.isEmpty == false)
        }
    }

    @Test func generatedColumnAndIndexOnExpressions() throws {
        try DatabaseQueue().write { db throws in
            var statements: [String] = []
            db.trace { statements.append($0.expandedDescription) }
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("address", .jsonText)
                t.column("country", .text)
                    .generatedAs(JSONColumn("address").jsonExtract(atPath: "$.country"))
                    .indexed()
            }
            #expect(statements.contains("""
                CREATE TABLE "player" ("id" INTEGER PRIMARY KEY, "address" TEXT, \
                "country" TEXT GENERATED ALWAYS AS (JSON_EXTRACT("address", '$.country')) VIRTUAL)
                """))

            try db.create(index: "player_on_address", on: "player", expressions: [
                JSONColumn("address").jsonExtract(atPath: "$.country"),
                JSONColumn("address")["city"],
            ], options: [.unique, .ifNotExists], condition: JSONColumn("address")["city"] != nil)
            #expect(statements.last == """
                CREATE UNIQUE INDEX IF NOT EXISTS "player_on_address" ON "player"(\
                JSON_EXTRACT("address", '$.country'), "address" ->> 'city') WHERE ("address" ->> 'city') IS NOT NULL
                """)
            db.trace(nil)

            try db.execute(sql: #"INSERT INTO player VALUES (NULL, '{"street": "Rue de Belleville", "city": "Paris", "country": "France"}')"#)
            #expect(try String.fetchOne(db, sql: "SELECT country FROM player") == "France")
            // The unique index holds.
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: #"INSERT INTO player VALUES (NULL, '{"city": "Paris", "country": "France"}')"#)
            }
            #expect(try db.indexes(on: "player").contains { $0.name == "player_on_country" })

            // A schema statement has no parameters: raw SQL with arguments
            // is an error, and no index is created.
            #expect(throws: DatabaseError.self) {
                try db.create(index: "bad", on: "player", expressions: [SQL(sql: "? + 1", arguments: [1])])
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name = 'bad'") == 0)
        }
    }
}
