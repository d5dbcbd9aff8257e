import Foundation
import Testing
import Cairn

/// The SQL and arguments of `SQL` literals, their interpolations, and the
/// literals that requests embed, as GRDB builds them.
@Suite struct GRDBQueryInterfaceLiteralTests {
    struct Crate: TableRecord {
        static let databaseTableName = "crate"
    }

    let recorder: GRDBSQLRecorder

    init() throws {
        recorder = try GRDBSQLRecorder(schema: """
            CREATE TABLE crate (id INTEGER PRIMARY KEY, label TEXT, weight INT);
            """)
    }

    func build(_ literal: SQL) throws -> (sql: String, arguments: StatementArguments) {
        try recorder.dbQueue.read { db in try literal.build(db) }
    }

    @Test func rawSQLAndArguments() throws {
        let literal = SQL(sql: "SELECT * FROM crate WHERE id = \("?")", arguments: [3])
        #expect(try build(literal).sql == "SELECT * FROM crate WHERE id = ?")
        #expect(try build(literal).arguments == [3])

        var joined = SQL(sql: "SELECT * ")
        joined = joined + SQL(sql: "FROM crate ")
        joined += SQL(sql: "WHERE id = ? ", arguments: [3])
        joined.append(literal: SQL(sql: "AND label = ?", arguments: ["box"]))
        #expect(try build(joined).sql == "SELECT * FROM crate WHERE id = ? AND label = ?")
        #expect(try build(joined).arguments == [3, "box"])

        var named = SQL(sql: "SELECT * ")
        named.append(sql: "FROM crate ")
        named.append(sql: "WHERE weight > \(50) ")
        named.append(sql: "AND \("label") = :label", arguments: ["label": "box"])
        #expect(try build(named).sql == "SELECT * FROM crate WHERE weight > 50 AND label = :label")
        #expect(try build(named).arguments == ["label": "box"])
    }

    @Test func joinedLiterals() throws {
        var counter = 0
        let once = AnySequence<SQL> {
            AnyIterator {
                guard counter < 3 else { return nil }
                counter += 1
                return SQL(sql: "(\(counter) = ?)", arguments: [counter])
            }
        }
        counter = 0
        let glued = once.joined()
        #expect(try build(glued).sql == "(1 = ?)(2 = ?)(3 = ?)")
        #expect(try build(glued).arguments == [1, 2, 3])
        counter = 0
        let separated = once.joined(separator: " OR ")
        #expect(try build(separated).sql == "(1 = ?) OR (2 = ?) OR (3 = ?)")

        let parts = AnyCollection([
            SQL(sql: "SELECT * "),
            SQL(sql: "FROM crate "),
            SQL(sql: "WHERE weight > ? ", arguments: [50]),
            SQL(sql: "AND label = :label", arguments: ["label": "box"]),
        ])
        #expect(try build(parts.joined()).sql == "SELECT * FROM crate WHERE weight > ? AND label = :label")
        #expect(try build(parts.joined()).arguments == [50] + ["label": "box"])
        #expect(try build(parts.joined(separator: " ")).sql == "SELECT *  FROM crate  WHERE weight > ?  AND label = :label")
    }

    @Test func interpolations() throws {
        let a = Column("a"), b = Column("b")
        let one = 1
        let two: Int? = 2
        let none: Int? = nil
        let expressions: SQL = """
            SELECT \(a), \(a + 1), \(2 * (a + 1)), \(a < b), \(one), \(two), \(none), \(a == none)
            """
        #expect(try build(expressions).sql == """
            SELECT "a", "a" + ?, ? * ("a" + ?), "a" < "b", ?, ?, NULL, "a" IS NULL
            """)
        #expect(try build(expressions).arguments == [1, 2, 1, 1, 2])

        let raw: SQL = "SELECT * \(sql: "FROM crate") \(sql: "WHERE weight > \(50)") \(sql: "AND label = :l", arguments: ["l": "box"])"
        #expect(try build(raw).sql == "SELECT * FROM crate WHERE weight > 50 AND label = :l")
        #expect(try build(raw).arguments == ["l": "box"])

        let selectable: SQL = "SELECT \(AllColumns()), \(AllColumns() as any SQLSelectable) FROM crate"
        #expect(try build(selectable).sql == "SELECT *, * FROM crate")

        let table: SQL = "SELECT * FROM \(Crate.self)"
        #expect(try build(table).sql == #"SELECT * FROM "crate""#)
        let tableOf: SQL = "INSERT INTO \(tableOf: Crate()) DEFAULT VALUES"
        #expect(try build(tableOf).sql == #"INSERT INTO "crate" DEFAULT VALUES"#)

        let data = Data("bytes".utf8)
        let blob: SQL = "SELECT \(data)"
        #expect(try build(blob).sql == "SELECT ?")
        #expect(try build(blob).arguments == [data])

        let aliased: SQL = "SELECT \(Column("label").forKey("tag")), \(1.databaseValue.forKey("n")) FROM crate"
        #expect(try build(aliased).sql == #"SELECT "label" AS "tag", ? AS "n" FROM crate"#)
        #expect(try build(aliased).arguments == [1])

        enum CodingKeys: String, CodingKey { case label }
        enum ColumnKeys: String, CodingKey, ColumnExpression { case weight }
        let keys: SQL = "SELECT \(CodingKeys.label), \(ColumnKeys.weight) FROM crate"
        #expect(try build(keys).sql == #"SELECT "label", "weight" FROM crate"#)

        let ordering: SQL = "SELECT * FROM crate ORDER BY \(Column("label").desc)"
        #expect(try build(ordering).sql == #"SELECT * FROM crate ORDER BY "label" DESC"#)
    }

    @Test func sequenceInterpolations() throws {
        let set: Set = [4]
        let words = ["x", "y", "z"]
        let expressions: [any SQLExpressible] = [Column("a"), Column("b") + 2]
        let literal: SQL = """
            SELECT * FROM crate WHERE id IN \(set) AND label IN \(words) AND c IN \(expressions) AND d IN \([])
            """
        #expect(try build(literal).sql == """
            SELECT * FROM crate WHERE id IN (?) AND label IN (?,?,?) AND c IN ("a","b" + ?) AND d IN (SELECT NULL WHERE NULL)
            """)
        #expect(try build(literal).arguments == [4, "x", "y", "z", 2])
    }

    @Test func nestedLiteralsAndRequests() throws {
        let condition: SQL = "label = \("box")"
        let literal: SQL = "SELECT *, \(true) FROM crate WHERE \(literal: condition) AND weight > \(50)"
        #expect(try build(literal).sql == "SELECT *, ? FROM crate WHERE label = ? AND weight > ?")
        #expect(try build(literal).arguments == [true, "box", 50])

        let heaviest: SQLRequest<Int> = "SELECT MAX(weight) - \(10) FROM crate"
        // Requests are interpolated without parentheses, as in GRDB 7.
        let subquery: SQL = "SELECT * FROM crate WHERE weight = (\(heaviest))"
        #expect(try build(subquery).sql == "SELECT * FROM crate WHERE weight = (SELECT MAX(weight) - ? FROM crate)")
        #expect(try build(subquery).arguments == [10])

        let request = Crate.filter(Column("weight") > 5).select(Column("id"))
        let requestLiteral: SQL = "SELECT * FROM crate WHERE id IN (\(request))"
        #expect(try build(requestLiteral).sql
            == #"SELECT * FROM crate WHERE id IN (SELECT "id" FROM "crate" WHERE "weight" > ?)"#)
        #expect(try build(requestLiteral).arguments == [5])

        var appended: SQL = "SELECT \(AllColumns()) "
        appended += "FROM crate "
        appended.append(literal: "WHERE id = \(1)")
        #expect(try build(appended).sql == "SELECT * FROM crate WHERE id = ?")
        #expect(try build(appended).arguments == [1])
    }

    @Test func literalsAreQualifiedByTheirRequest() throws {
        let label = Column("label")
        let aliased = Crate.aliased(TableAlias(name: "c"))
        let joined = [SQL(label), SQL("O'Neil".databaseValue)].joined(separator: " || ")
        #expect(try recorder.sql(of: aliased.select(joined.sqlExpression))
            == #"SELECT "c"."label" || 'O''Neil' FROM "crate" "c""#)
        let interpolated: SQL = "\(label) || 'x'"
        #expect(try recorder.sql(of: aliased.select(interpolated.sqlExpression))
            == #"SELECT "c"."label" || 'x' FROM "crate" "c""#)
        #expect(try recorder.sql(of: aliased.select(literal: "\(label) || \("O'Neil")"))
            == #"SELECT "c"."label" || 'O''Neil' FROM "crate" "c""#)
        #expect(try recorder.sql(of: aliased.select(SQL("\(label) || \("O'Neil")").sqlExpression.forKey("named")))
            == #"SELECT "c"."label" || 'O''Neil' AS "named" FROM "crate" "c""#)
        let heaviest: SQLRequest<Int> = "SELECT MAX(\(Column("weight"))) FROM \(Crate.self)"
        #expect(try recorder.sql(of: aliased.filter(literal: "\(Column("weight")) = (\(heaviest))"))
            == #"SELECT "c".* FROM "crate" "c" WHERE "c"."weight" = (SELECT MAX("weight") FROM "crate")"#)
    }

    @Test func expressionLiteralsWithAndWithoutArguments() throws {
        // The arguments of a literal expression are bound, and its values
        // are written in the SQL that the trace shows.
        let expression = Column("label").collating(.nocase) == "'é👨‍👩‍👧'" && Column("weight") >= 1
        let literal = SQL(expression)
        #expect(try build(literal).sql == #"("label" = ? COLLATE NOCASE) AND ("weight" >= ?)"#)
        #expect(try build(literal).arguments == ["'é👨‍👩‍👧'", 1])
        #expect(try recorder.sql(of: Crate.filter(expression))
            == #"SELECT * FROM "crate" WHERE ("label" = '''é👨‍👩‍👧''' COLLATE NOCASE) AND ("weight" >= 1)"#)
    }

    @Test func tableNames() {
        struct Parcel: TableRecord { }
        struct HTTPHeader: TableRecord { }
        struct RSVP: TableRecord { }
        class Vessel: TableRecord { }
        class Barge: Vessel { }
        class Named: TableRecord { class var databaseTableName: String { "Named" } }
        class Renamed: Named { override class var databaseTableName: String { "Renamed" } }
        enum Scope { struct Inner: TableRecord { } }
        #expect(Parcel.databaseTableName == "parcel")
        #expect(HTTPHeader.databaseTableName == "httpHeader")
        #expect(RSVP.databaseTableName == "rsvp")
        #expect(Vessel.databaseTableName == "vessel")
        #expect(Barge.databaseTableName == "barge")
        #expect(Named.databaseTableName == "Named")
        #expect(Renamed.databaseTableName == "Renamed")
        #expect(Scope.Inner.databaseTableName == "inner")
        func name<T: TableRecord>(_: T.Type) -> String { T.databaseTableName }
        #expect(name(Barge.self) == "barge")
        #expect(name(Renamed.self) == "Renamed")
    }

    @Test func databaseSelections() throws {
        struct Extended: TableRecord {
            static let databaseTableName = "crate"
            static var databaseSelection: [any SQLSelectable] { [AllColumns(), Column.rowID] }
        }
        struct Restricted: TableRecord {
            static let databaseTableName = "crate"
            static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("label")] }
        }
        #expect(try recorder.sql(of: Extended.all()) == #"SELECT *, "rowid" FROM "crate""#)
        #expect(try recorder.sql(of: Restricted.all()) == #"SELECT "id", "label" FROM "crate""#)
    }
}
