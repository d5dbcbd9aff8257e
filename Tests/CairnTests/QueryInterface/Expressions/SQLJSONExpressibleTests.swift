import Foundation
import Testing
import Cairn

/// Runs a request once, and returns its SQL with the arguments written in,
/// as SQLite expands them.
func expandedSQL(_ db: Database, _ request: some FetchRequest) throws -> String {
    var traced: [String] = []
    db.trace { traced.append($0.expandedDescription) }
    defer { db.trace(nil) }
    _ = try Row.fetchCursor(db, request).next()
    return traced.last ?? ""
}

/// The SQL of an expression with the arguments written in (the expression
/// runs once, in `SELECT expression`).
func expandedSQL(_ db: Database, _ expression: some SQLExpressible) throws -> String {
    let sql = try expandedSQL(db, SQLRequest<Row>("SELECT \(expression)"))
    return String(sql.dropFirst("SELECT ".count))
}

/// JSON values: `JSONColumn`, `asJSON`, `AnySQLJSONExpressible`, the `->>`
/// and `->` operators, `jsonExtract`, and JSON expressions of table aliases.
@Suite struct SQLJSONExpressibleTests {
    private struct Player: Codable, TableRecord, FetchableRecord, PersistableRecord {
        static let databaseTableName = "player_json"
        var id: Int64
        var info: String

        enum CodingKeys: String, CodingKey {
            case id
            case info = "info_json"
        }

        enum Columns {
            static let id = Column(CodingKeys.id)
            static let info = JSONColumn(CodingKeys.info)
        }

        static var databaseSelection: [any SQLSelectable] { [Columns.id, Columns.info] }
    }

    /// A JSON column type of the user's.
    private enum InfoColumns: String, ColumnExpression, SQLJSONExpressible {
        case info
    }

    /// A JSON value of the user's that is not a column.
    private struct RawJSON: SQLJSONExpressible {
        var text: String
        var sqlExpression: SQLExpression { text.sqlExpression }
    }

    let dbQueue: DatabaseQueue
    let info = JSONColumn("info")
    let name = Column("name")
    let player = Table("player")

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws -> Void in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
                t.column("info", .jsonText)
            }
            try db.execute(sql: """
                INSERT INTO player (name, info) VALUES ('Arthur', '{"score": 1000, "name": "Arthur", "address": {"city": "Paris"}}')
                """)
        }
    }

    @Test func jsonColumnIsAColumn() throws {
        #expect(JSONColumn("info").name == "info")
        #expect(Player.Columns.info.name == "info_json")
        #expect(JSONColumn("info") == JSONColumn("info"))
        try dbQueue.write { db throws -> Void in
            try db.create(table: "player_json") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("info_json", .jsonText)
            }
            try Player(id: 1, info: #"{"a":1}"#).insert(db)
            #expect(try expandedSQL(db, Player.all()) == #"SELECT "id", "info_json" FROM "player_json""#)
            #expect(try Player.fetchOne(db)?.info == #"{"a":1}"#)
            let row = try #require(try Row.fetchOne(db, Player.all()))
            #expect(row[Player.Columns.info] as String == #"{"a":1}"#)
            #expect(try Player.filter(Player.Columns.info["a"] == 1).fetchCount(db) == 1)
        }
    }

    @Test func extractionOperators() throws {
        try dbQueue.read { db throws -> Void in
            #expect(try expandedSQL(db, player.select(info["score"])) == #"SELECT "info" ->> 'score' FROM "player""#)
            #expect(try expandedSQL(db, player.select(info["$.score"])) == #"SELECT "info" ->> '$.score' FROM "player""#)
            #expect(try expandedSQL(db, player.select(info.jsonRepresentation(atPath: "score")))
                == #"SELECT "info" -> 'score' FROM "player""#)
            #expect(try expandedSQL(db, player.select(info.jsonExtract(atPath: "$.score")))
                == #"SELECT JSON_EXTRACT("info", '$.score') FROM "player""#)
            #expect(try expandedSQL(db, player.select(info.jsonExtract(atPaths: ["$.score", "$.name"])))
                == #"SELECT JSON_EXTRACT("info", '$.score', '$.name') FROM "player""#)

            // Values
            #expect(try Int.fetchOne(db, player.select(info["score"])) == 1000)
            #expect(try String.fetchOne(db, player.select(info["name"])) == "Arthur")
            #expect(try String.fetchOne(db, player.select(info["$.address.city"])) == "Paris")
            #expect(try String.fetchOne(db, player.select(info["address"])) == #"{"city":"Paris"}"#)
            #expect(try String.fetchOne(db, player.select(info.jsonRepresentation(atPath: "name"))) == #""Arthur""#)
            #expect(try String.fetchOne(db, player.select(info.jsonRepresentation(atPath: "address"))) == #"{"city":"Paris"}"#)
            #expect(try String.fetchOne(db, player.select(info.jsonExtract(atPath: "$.name"))) == "Arthur")
            #expect(try String.fetchOne(db, player.select(info.jsonExtract(atPaths: ["$.score", "$.name"])))
                == #"[1000,"Arthur"]"#)
            let missing = try #require(try Row.fetchOne(db, player.select(info["missing"])))
            #expect((missing[0] as DatabaseValue).isNull)

            // In a filter and an ordering
            #expect(try player.filter(info["score"] > 500).fetchCount(db) == 1)
            #expect(try player.filter(info["score"] > 5000).fetchCount(db) == 0)
            #expect(try expandedSQL(db, player.filter(info["score"] > 500).order(info["name"]))
                == #"SELECT * FROM "player" WHERE ("info" ->> 'score') > 500 ORDER BY "info" ->> 'name'"#)
        }
    }

    @Test func asJSONKeepsTheSQL() throws {
        try dbQueue.read { db throws -> Void in
            let request = player.select([
                #"[1, 2, 3]"#.databaseValue.asJSON,
                DatabaseValue.null.asJSON,
                name.asJSON,
                info.asJSON,
                abs(name).asJSON,
                abs(info).asJSON,
            ])
            #expect(try expandedSQL(db, request) == """
                SELECT '[1, 2, 3]', NULL, "name", "info", ABS("name"), ABS("info") FROM "player"
                """)
            #expect(try String.fetchOne(db, player.select(name.asJSON)) == "Arthur")
        }
    }

    @Test func jsonValuesAreParsedByJSONBuilders() throws {
        try dbQueue.read { db throws -> Void in
            let array = Database.jsonArray([
                #"[1, 2, 3]"#.databaseValue.asJSON,
                #"[1, 2, 3]"#,
                DatabaseValue.null.asJSON,
                name,
                info,
                abs(info).asJSON,
            ] as [any SQLExpressible])
            #expect(try expandedSQL(db, player.select(array)) == """
                SELECT JSON_ARRAY(JSONB('[1, 2, 3]'), '[1, 2, 3]', NULL, "name", JSONB("info"), JSONB(ABS("info"))) \
                FROM "player"
                """)
            // ABS of a JSON object is 0: valid JSON.
            #expect(try String.fetchOne(db, player.select(array)) == """
                [[1,2,3],"[1, 2, 3]",null,"Arthur",{"score":1000,"name":"Arthur","address":{"city":"Paris"}},0.0]
                """)
        }
    }

    @Test func resultsOfJSONFunctionsAreNotWrapped() throws {
        try dbQueue.read { db throws -> Void in
            let array = Database.jsonArray([
                info["address"],
                info["address"].asJSON,
                info.jsonExtract(atPath: "$.address"),
                info.jsonExtract(atPath: "$.address").asJSON,
                info.jsonRepresentation(atPath: "address"),
                info.jsonRepresentation(atPath: "address").asJSON,
                Database.json(#"{"e":5}"#).asJSON,
            ] as [any SQLExpressible])
            #expect(try expandedSQL(db, player.select(array)) == """
                SELECT JSON_ARRAY(\
                "info" ->> 'address', \
                JSONB("info" ->> 'address'), \
                JSON_EXTRACT("info", '$.address'), \
                JSONB(JSON_EXTRACT("info", '$.address')), \
                "info" -> 'address', \
                "info" -> 'address', \
                JSON('{"e":5}')) \
                FROM "player"
                """)
            #expect(try String.fetchOne(db, player.select(array)) == """
                ["{\\"city\\":\\"Paris\\"}",{"city":"Paris"},{"city":"Paris"},{"city":"Paris"},{"city":"Paris"},\
                {"city":"Paris"},{"e":5}]
                """)
        }
    }

    @Test func jsonValuesOfTheUser() throws {
        try dbQueue.read { db throws -> Void in
            // A column type that adopts SQLJSONExpressible is a JSON column.
            #expect(try expandedSQL(db, player.select(InfoColumns.info["score"]))
                == #"SELECT "info" ->> 'score' FROM "player""#)
            #expect(try expandedSQL(db, player.select(Database.jsonArray([InfoColumns.info])))
                == #"SELECT JSON_ARRAY(JSONB("info")) FROM "player""#)

            // Any other value of an SQLJSONExpressible type is JSON too.
            let raw = RawJSON(text: "[1]")
            #expect(try expandedSQL(db, Database.jsonArray([raw])) == "JSON_ARRAY(JSONB('[1]'))")
            #expect(try expandedSQL(db, Database.jsonArray([AnySQLJSONExpressible(raw)])) == "JSON_ARRAY(JSONB('[1]'))")
            #expect(try String.fetchOne(db, SQLRequest<String>("SELECT \(Database.jsonArray([raw]))")) == "[[1]]")
            #expect(try expandedSQL(db, raw["0"]) == "'[1]' ->> '0'")
        }
    }

    @Test func malformedJSONValueIsAnError() throws {
        try dbQueue.read { db throws -> Void in
            let array = Database.jsonArray(["{foo".databaseValue.asJSON])
            #expect(throws: DatabaseError.self) {
                try String.fetchOne(db, SQLRequest<String>("SELECT \(array)"))
            }
            // As a plain string, it is a JSON string.
            let string = Database.jsonArray(["{foo"])
            #expect(try String.fetchOne(db, SQLRequest<String>("SELECT \(string)")) == #"["{foo"]"#)
        }
    }

    @Test func tableAliasExpressions() throws {
        try dbQueue.read { db throws -> Void in
            let alias = TableAlias(name: "p")
            let aliased = player.aliased(alias)

            let id = Column("id")

            // The alias qualifies the columns of an expression, and keeps
            // JSON values.
            let qualifiedArray = alias[Database.jsonArray([
                name,
                id.asJSON,
                info,
                info["score"],
                info.jsonExtract(atPath: "$.address"),
                info.jsonRepresentation(atPath: "address"),
            ] as [any SQLExpressible])]
            let expectedSQL = """
                SELECT JSON_ARRAY(\
                "p"."name", \
                JSONB("p"."id"), \
                JSONB("p"."info"), \
                "p"."info" ->> 'score', \
                JSON_EXTRACT("p"."info", '$.address'), \
                "p"."info" -> 'address'\
                ) FROM "player" "p"
                """
            #expect(try expandedSQL(db, aliased.select(qualifiedArray)) == expectedSQL)

            // Qualified expressions in an array.
            let arrayOfQualified = Database.jsonArray([
                alias[name],
                alias[id.asJSON],
                alias[info],
                alias[info["score"]],
                alias[info.jsonExtract(atPath: "$.address")],
                alias[info.jsonRepresentation(atPath: "address")],
            ] as [any SQLExpressible])
            #expect(try expandedSQL(db, aliased.select(arrayOfQualified)) == expectedSQL)

            // JSON operators of qualified JSON values.
            let operatorsOfQualified = Database.jsonArray([
                alias[name],
                alias[id].asJSON,
                alias[info],
                alias[info]["score"],
                alias[info].jsonExtract(atPath: "$.address"),
                alias[info].jsonRepresentation(atPath: "address"),
            ] as [any SQLExpressible])
            #expect(try expandedSQL(db, aliased.select(operatorsOfQualified)) == expectedSQL)
            #expect(try String.fetchOne(db, aliased.select(operatorsOfQualified)) == """
                ["Arthur",1,{"score":1000,"name":"Arthur","address":{"city":"Paris"}},1000,{"city":"Paris"},{"city":"Paris"}]
                """)

            // Operators keep their precedence once qualified.
            #expect(try expandedSQL(db, aliased.filter(alias[info["score"]] > 10))
                == #"SELECT "p".* FROM "player" "p" WHERE ("p"."info" ->> 'score') > 10"#)
            #expect(try expandedSQL(db, aliased.select(alias[abs(Column("id")) + 1]))
                == #"SELECT ABS("p"."id") + 1 FROM "player" "p""#)
            #expect(try Int.fetchOne(db, aliased.select(alias[abs(Column("id")) + 1])) == 2)
        }
    }

    @Test func tableAliasOfRecordType() throws {
        try dbQueue.write { db throws -> Void in
            try db.create(table: "player_json") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("info_json", .jsonText)
            }
            try Player(id: 1, info: #"{"score":10}"#).insert(db)

            // An alias without name of a request of one table: unqualified
            // columns.
            let alias = TableAlias<Player>()
            let request = Player.aliased(alias).select(alias.info["score"], as: Int.self)
            #expect(try expandedSQL(db, request) == #"SELECT "info_json" ->> 'score' FROM "player_json""#)
            #expect(try request.fetchOne(db) == 10)
            #expect(try expandedSQL(db, Player.aliased(alias).select(alias[Column("id") + 1]))
                == #"SELECT "id" + 1 FROM "player_json""#)

            // A named alias.
            let named = TableAlias<Player>(name: "p")
            let namedRequest = Player.aliased(named).select(Database.jsonArray([named.info]), as: String.self)
            #expect(try expandedSQL(db, namedRequest) == #"SELECT JSON_ARRAY(JSONB("p"."info_json")) FROM "player_json" "p""#)
            #expect(try namedRequest.fetchOne(db) == #"[{"score":10}]"#)
        }
    }

    @Test func aliasNotUsedByTheRequestIsAnError() throws {
        try dbQueue.read { db throws -> Void in
            let alias = TableAlias<Player>()
            let request = player.select(alias[info]["score"])
            #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, request)
            }
        }
    }

    /// The examples of the doc comments.
    @Test func documentationExamples() throws {
        struct Player: Codable, FetchableRecord, PersistableRecord {
            var id: Int64
            var info: Data
            enum Columns {
                static let id = Column(CodingKeys.id)
                static let info = JSONColumn(CodingKeys.info)
            }
        }
        try DatabaseQueue().write { db throws -> Void in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("info", .jsonText)
                t.column("address", .jsonText)
                t.column("score", .integer)
                t.column("bonus", .integer)
            }
            try db.execute(sql: #"""
                INSERT INTO player VALUES (1, '{"score": 10, "a": true}', '{"city": "Paris"}', 5, 2)
                """#)

            // JSONColumn
            #expect(try Player.select(Player.Columns.info["score"], as: Int.self).fetchAll(db) == [10])
            let elements: KeyValuePairs<String, any SQLExpressible> = ["id": Player.Columns.id, "info": Player.Columns.info]
            let objects = try Player.select(Database.jsonObject(elements), as: String.self).fetchAll(db)
            #expect(objects == [#"{"id":1,"info":{"score":10,"a":true}}"#])
            #expect(try Player.fetchOne(db)?.info == Data(#"{"score": 10, "a": true}"#.utf8))

            // SQLJSONExpressible
            let address = JSONColumn("address")
            #expect(try Player.select(address.jsonRepresentation(atPath: "city"), as: String.self).fetchOne(db) == #""Paris""#)
            let array = Database.jsonArray([JSONColumn("address"), Column("address")] as [any SQLExpressible])
            #expect(try Player.select(array, as: String.self).fetchOne(db) == #"[{"city":"Paris"},"{\"city\": \"Paris\"}"]"#)

            // AnySQLJSONExpressible and asJSON
            let info: AnySQLJSONExpressible = Column("info").asJSON
            #expect(try Player.select(info["score"], as: Int.self).fetchOne(db) == 10)
            let parsed = Database.jsonArray(["[1, 2]".databaseValue.asJSON])
            #expect(try String.fetchOne(db, SQLRequest<String>("SELECT \(parsed)")) == "[[1,2]]")

            // Database.jsonArray of values of different types
            let mixed = Database.jsonArray([1, "2", JSONColumn("info"), Database.jsonArray([3])] as [any SQLExpressible])
            #expect(try Player.select(mixed, as: String.self).fetchOne(db) == #"[1,"2",{"score":10,"a":true},[3]]"#)

            // Database.jsonInsert
            let inserted = Database.jsonInsert("[1,2,3,4]", ["$[#]": 99])
            #expect(try String.fetchOne(db, SQLRequest<String>("SELECT \(inserted)")) == "[1,2,3,4,99]")

            // TableAlias
            let alias = TableAlias(name: "p")
            let sum = Player.aliased(alias).select(alias[Column("score") + Column("bonus")], as: Int.self)
            #expect(try expandedSQL(db, sum) == #"SELECT "p"."score" + "p"."bonus" FROM "player" "p""#)
            #expect(try sum.fetchOne(db) == 7)
            #expect(try Player.aliased(alias).select(alias[JSONColumn("info")]["score"], as: Int.self).fetchOne(db) == 10)

            // Table.select with an array
            let columns: [any SQLSelectable] = [Column("id"), Column("score")]
            #expect(try expandedSQL(db, Table("player").select(columns)) == #"SELECT "id", "score" FROM "player""#)
            #expect(try Table("player").select(columns, as: Int.self).fetchOne(db) == 1)
        }
    }
}
