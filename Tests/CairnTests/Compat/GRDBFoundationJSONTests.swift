import Foundation
import Testing
import Cairn

/// JSON columns as in GRDB 7.8: the SQL of `JSONColumn`.
@Suite struct GRDBFoundationJSONTests {
    @Test func sqlOfJSONColumns() throws {
        let recorder = try GRDBSQLRecorder(schema: "CREATE TABLE gadget (id INTEGER PRIMARY KEY, specs TEXT)")
        let gadget = Table("gadget")
        let specs = JSONColumn("specs")
        #expect(try recorder.sql(of: gadget.select(specs.jsonExtract(atPath: "$.weight"))) == """
            SELECT JSON_EXTRACT("specs", '$.weight') FROM "gadget"
            """)
        #expect(try recorder.sql(of: gadget.select(specs.jsonExtract(atPaths: ["$.weight", "$.size"]))) == """
            SELECT JSON_EXTRACT("specs", '$.weight', '$.size') FROM "gadget"
            """)
        #expect(try recorder.sql(of: gadget.select(specs["weight"])) == """
            SELECT "specs" ->> 'weight' FROM "gadget"
            """)
        #expect(try recorder.sql(of: gadget.select(specs.jsonRepresentation(atPath: "$.weight"))) == """
            SELECT "specs" -> '$.weight' FROM "gadget"
            """)
    }
}
