import Foundation
import Testing
import Cairn

/// The SQL that GRDB writes for the operators and functions of the query
/// interface, checked on a table of books.
@Suite struct GRDBQueryInterfaceExpressionTests {
    struct Book: TableRecord {
        static let databaseTableName = "book"
    }

    static let id = Column("id")
    static let title = Column("title")
    static let pages = Column("pages")

    let recorder: GRDBSQLRecorder

    init() throws {
        recorder = try GRDBSQLRecorder(schema: """
            CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL, pages INT);
            """)
    }

    /// The SQL of `Book.filter(expression)`.
    func whereSQL(_ expression: some SQLExpressible) throws -> String? {
        try recorder.sql(of: Book.filter(expression))
    }

    /// The SQL of `Book.select(expression)`.
    func selectSQL(_ expression: some SQLSelectable) throws -> String? {
        try recorder.sql(of: Book.select(expression))
    }

    @Test func containsOfCollectionsAndRanges() throws {
        let id = Self.id, title = Self.title
        #expect(try whereSQL([Int]().contains(id)) == #"SELECT * FROM "book" WHERE 0"#)
        #expect(try whereSQL(![Int]().contains(id)) == #"SELECT * FROM "book" WHERE 1"#)
        #expect(try whereSQL([7].contains(id)) == #"SELECT * FROM "book" WHERE "id" = 7"#)
        #expect(try whereSQL([7, 8, 9].contains(id)) == #"SELECT * FROM "book" WHERE "id" IN (7, 8, 9)"#)
        #expect(try whereSQL([id + 0].contains(id)) == #"SELECT * FROM "book" WHERE "id" = ("id" + 0)"#)
        #expect(try whereSQL([Optional<Int>.none].contains(id)) == #"SELECT * FROM "book" WHERE "id" = NULL"#)
        #expect(try whereSQL(EmptyCollection<Int>().contains(id)) == #"SELECT * FROM "book" WHERE 0"#)
        #expect(try whereSQL(!EmptyCollection<Int>().contains(id)) == #"SELECT * FROM "book" WHERE 1"#)
        #expect(try whereSQL(AnySequence([7]).contains(id)) == #"SELECT * FROM "book" WHERE "id" = 7"#)
        #expect(try whereSQL(AnySequence([7, 8]).contains(id)) == #"SELECT * FROM "book" WHERE "id" IN (7, 8)"#)
        #expect(try whereSQL(![7].contains(id)) == #"SELECT * FROM "book" WHERE "id" <> 7"#)
        #expect(try whereSQL(![7, 8].contains(id)) == #"SELECT * FROM "book" WHERE "id" NOT IN (7, 8)"#)
        #expect(try whereSQL(!(![7].contains(id))) == #"SELECT * FROM "book" WHERE "id" = 7"#)
        #expect(try whereSQL(!(![7, 8].contains(id))) == #"SELECT * FROM "book" WHERE "id" IN (7, 8)"#)
        #expect(try whereSQL((3..<6).contains(id)) == #"SELECT * FROM "book" WHERE ("id" >= 3) AND ("id" < 6)"#)
        #expect(try whereSQL((3...6).contains(id)) == #"SELECT * FROM "book" WHERE "id" BETWEEN 3 AND 6"#)
        #expect(try whereSQL(!(3...6).contains(id)) == #"SELECT * FROM "book" WHERE "id" NOT BETWEEN 3 AND 6"#)
        #expect(try whereSQL((0.5..<2.5).contains(id)) == #"SELECT * FROM "book" WHERE ("id" >= 0.5) AND ("id" < 2.5)"#)
        #expect(try whereSQL(("b"..<"m").contains(title)) == #"SELECT * FROM "book" WHERE ("title" >= 'b') AND ("title" < 'm')"#)
        #expect(try whereSQL(("b"..."m").contains(title)) == #"SELECT * FROM "book" WHERE "title" BETWEEN 'b' AND 'm'"#)
        #expect(try whereSQL(!("b"..."m").contains(title)) == #"SELECT * FROM "book" WHERE "title" NOT BETWEEN 'b' AND 'm'"#)
    }

    @Test func containsWithCollation() throws {
        // GRDB 7 puts the collation of IN on its left operand, where SQLite
        // takes it, and compares a single value with `=`.
        let title = Self.title.collating(.nocase)
        #expect(try whereSQL(["x", "y"].contains(title))
            == #"SELECT * FROM "book" WHERE ("title" COLLATE NOCASE) IN ('x', 'y')"#)
        #expect(try whereSQL(AnySequence(["x", "y"]).contains(title))
            == #"SELECT * FROM "book" WHERE ("title" COLLATE NOCASE) IN ('x', 'y')"#)
        #expect(try whereSQL(AnySequence([Self.title]).contains(title))
            == #"SELECT * FROM "book" WHERE "title" = "title" COLLATE NOCASE"#)
        #expect(try whereSQL(["x"].contains(title))
            == #"SELECT * FROM "book" WHERE "title" = 'x' COLLATE NOCASE"#)
        #expect(try whereSQL(EmptyCollection<Int>().contains(title)) == #"SELECT * FROM "book" WHERE 0"#)
        #expect(try whereSQL(("b"..<"m").contains(title))
            == #"SELECT * FROM "book" WHERE ("title" >= 'b' COLLATE NOCASE) AND ("title" < 'm' COLLATE NOCASE)"#)
        try recorder.dbQueue.write { db in
            try db.execute(sql: "INSERT INTO book (title) VALUES ('Alpha'), ('beta'), ('GAMMA')")
            #expect(try Book.filter(["alpha", "gamma"].contains(title)).fetchCount(db) == 2)
            #expect(try Book.filter(["BETA"].contains(title)).fetchCount(db) == 1)
            #expect(try Book.filter(!["BETA"].contains(title)).fetchCount(db) == 2)
        }
    }

    @Test func subqueries() throws {
        let sub1 = Book.select(Self.pages).filter(Self.title != nil).distinct()
        #expect(try whereSQL(sub1.contains(Self.pages)) == """
            SELECT * FROM "book" WHERE "pages" IN (SELECT DISTINCT "pages" FROM "book" WHERE "title" IS NOT NULL)
            """)
        let sub2 = SQLRequest<Int>(sql: "SELECT ? UNION SELECT ?", arguments: [5, 6])
        #expect(try whereSQL(sub2.contains(Self.pages * 2)) == """
            SELECT * FROM "book" WHERE ("pages" * 2) IN (SELECT 5 UNION SELECT 6)
            """)
        let longest = Book.select(max(Self.pages))
        #expect(try whereSQL(Self.pages == longest) == """
            SELECT * FROM "book" WHERE "pages" = (SELECT MAX("pages") FROM "book")
            """)
        let sub3 = SQLRequest<Int>(sql: "SELECT MIN(pages - ?) FROM book", arguments: [3])
        #expect(try whereSQL((Self.pages - 1) == sub3) == """
            SELECT * FROM "book" WHERE ("pages" - 1) = (SELECT MIN(pages - 3) FROM book)
            """)
        let nested = Book.filter(Self.pages == longest).select(Self.id)
        #expect(try whereSQL(nested.contains(Self.id)) == """
            SELECT * FROM "book" WHERE "id" IN (SELECT "id" FROM "book" WHERE "pages" = (SELECT MAX("pages") FROM "book"))
            """)
    }

    @Test func comparisons() throws {
        let pages = Self.pages, title = Self.title
        #expect(try whereSQL(pages > 3) == #"SELECT * FROM "book" WHERE "pages" > 3"#)
        #expect(try whereSQL(3 > pages) == #"SELECT * FROM "book" WHERE 3 > "pages""#)
        #expect(try whereSQL(pages >= pages) == #"SELECT * FROM "book" WHERE "pages" >= "pages""#)
        #expect(try whereSQL(title < "k") == #"SELECT * FROM "book" WHERE "title" < 'k'"#)
        #expect(try whereSQL("k" <= title) == #"SELECT * FROM "book" WHERE 'k' <= "title""#)
        #expect(try recorder.sql(of: Book.filter { _ in 4 > 4 }) == #"SELECT * FROM "book" WHERE 0"#)
        #expect(try recorder.sql(of: Book.filter { _ in "k" >= "k" }) == #"SELECT * FROM "book" WHERE 1"#)
        #expect(try recorder.sql(of: Book.all().group(title).having(average(pages) + 1 > 9))
            == #"SELECT * FROM "book" GROUP BY "title" HAVING (AVG("pages") + 1) > 9"#)
        #expect(try recorder.sql(of: Book.all().group(title).having(average(pages) - 1 <= 9))
            == #"SELECT * FROM "book" GROUP BY "title" HAVING (AVG("pages") - 1) <= 9"#)
        let nocase = title.collating(.nocase)
        #expect(try whereSQL(nocase > "aB") == #"SELECT * FROM "book" WHERE "title" > 'aB' COLLATE NOCASE"#)
        #expect(try whereSQL(nocase <= "aB") == #"SELECT * FROM "book" WHERE "title" <= 'aB' COLLATE NOCASE"#)
        #expect(try whereSQL(title.collating(.rtrim) < "aB") == #"SELECT * FROM "book" WHERE "title" < 'aB' COLLATE RTRIM"#)
        #expect(try whereSQL(title.collating(.localizedCaseInsensitiveCompare) >= "aB")
            == #"SELECT * FROM "book" WHERE "title" >= 'aB' COLLATE swiftLocalizedCaseInsensitiveCompare"#)
    }

    @Test func equalities() throws {
        let pages = Self.pages, title = Self.title
        #expect(try whereSQL(pages == 3) == #"SELECT * FROM "book" WHERE "pages" = 3"#)
        #expect(try whereSQL(pages == (3 as Int?)) == #"SELECT * FROM "book" WHERE "pages" = 3"#)
        #expect(try whereSQL((3 as Int?) == pages) == #"SELECT * FROM "book" WHERE 3 = "pages""#)
        #expect(try whereSQL(pages == nil) == #"SELECT * FROM "book" WHERE "pages" IS NULL"#)
        #expect(try whereSQL(nil == pages) == #"SELECT * FROM "book" WHERE "pages" IS NULL"#)
        #expect(try whereSQL(pages == DatabaseValue.null) == #"SELECT * FROM "book" WHERE "pages" IS NULL"#)
        #expect(try whereSQL(DatabaseValue.null == pages) == #"SELECT * FROM "book" WHERE "pages" IS NULL"#)
        #expect(try whereSQL(pages == true) == #"SELECT * FROM "book" WHERE "pages" = 1"#)
        #expect(try whereSQL(true == pages) == #"SELECT * FROM "book" WHERE "pages" = 1"#)
        #expect(try whereSQL(false == pages) == #"SELECT * FROM "book" WHERE "pages" = 0"#)
        #expect(try whereSQL(pages != true) == #"SELECT * FROM "book" WHERE "pages" <> 1"#)
        #expect(try whereSQL(false != pages) == #"SELECT * FROM "book" WHERE "pages" <> 0"#)
        #expect(try whereSQL(!(pages == true)) == #"SELECT * FROM "book" WHERE "pages" <> 1"#)
        #expect(try whereSQL(!(false == pages)) == #"SELECT * FROM "book" WHERE "pages" <> 0"#)
        #expect(try whereSQL(pages != nil) == #"SELECT * FROM "book" WHERE "pages" IS NOT NULL"#)
        #expect(try whereSQL(nil != pages) == #"SELECT * FROM "book" WHERE "pages" IS NOT NULL"#)
        #expect(try whereSQL(!(DatabaseValue.null == pages)) == #"SELECT * FROM "book" WHERE "pages" IS NOT NULL"#)
        #expect(try whereSQL(!(pages == pages)) == #"SELECT * FROM "book" WHERE "pages" <> "pages""#)
        #expect(try whereSQL(!("k" == title)) == #"SELECT * FROM "book" WHERE 'k' <> "title""#)
        #expect(try recorder.sql(of: Book.filter { _ in !(true == false) }) == #"SELECT * FROM "book" WHERE 1"#)
        let nocase = title.collating(.nocase)
        #expect(try whereSQL(nocase == "aB") == #"SELECT * FROM "book" WHERE "title" = 'aB' COLLATE NOCASE"#)
        #expect(try whereSQL(nocase == ("aB" as String?)) == #"SELECT * FROM "book" WHERE "title" = 'aB' COLLATE NOCASE"#)
        #expect(try whereSQL(nocase == nil) == #"SELECT * FROM "book" WHERE "title" IS NULL COLLATE NOCASE"#)
        #expect(try whereSQL(nocase != DatabaseValue.null) == #"SELECT * FROM "book" WHERE "title" IS NOT NULL COLLATE NOCASE"#)
        #expect(try whereSQL(nocase != "aB") == #"SELECT * FROM "book" WHERE "title" <> 'aB' COLLATE NOCASE"#)
    }

    @Test func identities() throws {
        let pages = Self.pages, title = Self.title
        #expect(try whereSQL(pages === 3) == #"SELECT * FROM "book" WHERE "pages" IS 3"#)
        #expect(try whereSQL(3 === pages) == #"SELECT * FROM "book" WHERE 3 IS "pages""#)
        #expect(try whereSQL(pages === nil) == #"SELECT * FROM "book" WHERE "pages" IS NULL"#)
        #expect(try whereSQL(nil === pages) == #"SELECT * FROM "book" WHERE "pages" IS NULL"#)
        #expect(try whereSQL(pages !== 3) == #"SELECT * FROM "book" WHERE "pages" IS NOT 3"#)
        #expect(try whereSQL(nil !== pages) == #"SELECT * FROM "book" WHERE "pages" IS NOT NULL"#)
        #expect(try whereSQL(!(pages === 3)) == #"SELECT * FROM "book" WHERE "pages" IS NOT 3"#)
        #expect(try whereSQL(!(nil === pages)) == #"SELECT * FROM "book" WHERE "pages" IS NOT NULL"#)
        #expect(try whereSQL(!(pages === pages)) == #"SELECT * FROM "book" WHERE "pages" IS NOT "pages""#)
        #expect(try whereSQL("k" !== title) == #"SELECT * FROM "book" WHERE 'k' IS NOT "title""#)
        let nocase = title.collating(.nocase)
        #expect(try whereSQL(nocase === "aB") == #"SELECT * FROM "book" WHERE "title" IS 'aB' COLLATE NOCASE"#)
        #expect(try whereSQL(nocase !== "aB") == #"SELECT * FROM "book" WHERE "title" IS NOT 'aB' COLLATE NOCASE"#)
    }

    @Test func logicalOperators() throws {
        let pages = Self.pages, title = Self.title, id = Self.id
        #expect(try whereSQL(!pages) == #"SELECT * FROM "book" WHERE NOT "pages""#)
        #expect(try whereSQL(!(!pages)) == #"SELECT * FROM "book" WHERE NOT (NOT "pages")"#)
        #expect(try whereSQL(pages && true) == #"SELECT * FROM "book" WHERE "pages" AND 1"#)
        #expect(try whereSQL(true && pages) == #"SELECT * FROM "book" WHERE 1 AND "pages""#)
        #expect(try whereSQL(pages || false) == #"SELECT * FROM "book" WHERE "pages" OR 0"#)
        #expect(try whereSQL(pages != nil || title == nil)
            == #"SELECT * FROM "book" WHERE ("pages" IS NOT NULL) OR ("title" IS NULL)"#)
        #expect(try whereSQL(pages != nil || title != nil && id != nil)
            == #"SELECT * FROM "book" WHERE ("pages" IS NOT NULL) OR (("title" IS NOT NULL) AND ("id" IS NOT NULL))"#)
        #expect(try whereSQL((pages != nil || title != nil) && id != nil)
            == #"SELECT * FROM "book" WHERE (("pages" IS NOT NULL) OR ("title" IS NOT NULL)) AND ("id" IS NOT NULL)"#)
        #expect(try whereSQL(!(pages > 2) && !(title > "k"))
            == #"SELECT * FROM "book" WHERE (NOT ("pages" > 2)) AND (NOT ("title" > 'k'))"#)
    }

    @Test func joinedOperators() throws {
        let pages = Self.pages, title = Self.title, id = Self.id
        #expect(try whereSQL([].joined(operator: .and)) == #"SELECT * FROM "book" WHERE 1"#)
        #expect(try whereSQL([].joined(operator: .and) || false) == #"SELECT * FROM "book" WHERE 1 OR 0"#)
        #expect(try whereSQL([false.databaseValue].joined(operator: .and)) == #"SELECT * FROM "book" WHERE 0"#)
        #expect(try whereSQL([id == 2].joined(operator: .and) || false) == #"SELECT * FROM "book" WHERE ("id" = 2) OR 0"#)
        #expect(try whereSQL([id == 2, title != nil, pages == nil].joined(operator: .and))
            == #"SELECT * FROM "book" WHERE ("id" = 2) AND ("title" IS NOT NULL) AND ("pages" IS NULL)"#)
        #expect(try whereSQL(![id == 2, title != nil].joined(operator: .and))
            == #"SELECT * FROM "book" WHERE NOT (("id" = 2) AND ("title" IS NOT NULL))"#)
        #expect(try whereSQL([].joined(operator: .or)) == #"SELECT * FROM "book" WHERE 0"#)
        #expect(try whereSQL([].joined(operator: .or) && true) == #"SELECT * FROM "book" WHERE 0 AND 1"#)
        #expect(try whereSQL([true.databaseValue].joined(operator: .or) && true) == #"SELECT * FROM "book" WHERE 1 AND 1"#)
        #expect(try whereSQL([id == 2, title != nil].joined(operator: .or) && true)
            == #"SELECT * FROM "book" WHERE (("id" = 2) OR ("title" IS NOT NULL)) AND 1"#)
        #expect(try selectSQL([].joined(operator: .add)) == #"SELECT 0 FROM "book""#)
        #expect(try selectSQL([].joined(operator: .multiply)) == #"SELECT 1 FROM "book""#)
        #expect(try selectSQL([pages, 4.databaseValue, pages].joined(operator: .add))
            == #"SELECT "pages" + 4 + "pages" FROM "book""#)
        #expect(try selectSQL([
            [pages, 1.databaseValue].joined(operator: .add),
            [2.databaseValue, pages].joined(operator: .add),
        ].joined(operator: .add)) == #"SELECT ("pages" + 1) + (2 + "pages") FROM "book""#)
        #expect(try selectSQL([
            [pages, 1.databaseValue].joined(operator: .multiply),
            [2.databaseValue, pages].joined(operator: .multiply),
        ].joined(operator: .multiply)) == #"SELECT ("pages" * 1) * (2 * "pages") FROM "book""#)
        #expect(try selectSQL([title, " ".databaseValue, title].joined(operator: .concat))
            == #"SELECT "title" || ' ' || "title" FROM "book""#)
        #expect(try whereSQL([title, title].joined(operator: .concat) == "k")
            == #"SELECT * FROM "book" WHERE ("title" || "title") = 'k'"#)
        // Concatenations are flattened, sums are not.
        #expect(try selectSQL([
            [title, "a".databaseValue].joined(operator: .concat),
            ["b".databaseValue, title].joined(operator: .concat),
        ].joined(operator: .concat)) == #"SELECT "title" || 'a' || 'b' || "title" FROM "book""#)
    }

    @Test func arithmetic() throws {
        let pages = Self.pages
        #expect(try whereSQL(-pages) == #"SELECT * FROM "book" WHERE -"pages""#)
        #expect(try whereSQL(-(pages + 1)) == #"SELECT * FROM "book" WHERE -("pages" + 1)"#)
        #expect(try whereSQL(-(-pages + 1)) == #"SELECT * FROM "book" WHERE -((-"pages") + 1)"#)
        #expect(try whereSQL(3 - pages) == #"SELECT * FROM "book" WHERE 3 - "pages""#)
        #expect(try whereSQL((pages - pages) - 1) == #"SELECT * FROM "book" WHERE ("pages" - "pages") - 1"#)
        #expect(try whereSQL(1 - [pages > 1, pages == nil].joined(operator: .and))
            == #"SELECT * FROM "book" WHERE 1 - (("pages" > 1) AND ("pages" IS NULL))"#)
        #expect(try whereSQL(1 + (pages + pages)) == #"SELECT * FROM "book" WHERE 1 + ("pages" + "pages")"#)
        #expect(try whereSQL(2 * (pages * pages)) == #"SELECT * FROM "book" WHERE 2 * ("pages" * "pages")"#)
        #expect(try whereSQL(1 / (pages / pages)) == #"SELECT * FROM "book" WHERE 1 / ("pages" / "pages")"#)
        #expect(try whereSQL(pages / 2.0) == #"SELECT * FROM "book" WHERE "pages" / 2.0"#)
        #expect(try whereSQL(2.0 / pages) == #"SELECT * FROM "book" WHERE 2.0 / "pages""#)
        #expect(try whereSQL(pages + 2 * 5) == #"SELECT * FROM "book" WHERE "pages" + 10"#)
        #expect(try whereSQL(pages * 2 + 5) == #"SELECT * FROM "book" WHERE ("pages" * 2) + 5"#)
        #expect(try recorder.sql(of: Book.filter { _ in 6 / 3 }) == #"SELECT * FROM "book" WHERE 2"#)
        #expect(try whereSQL(pages ?? 2) == #"SELECT * FROM "book" WHERE IFNULL("pages", 2)"#)
        #expect(try whereSQL(pages ?? pages) == #"SELECT * FROM "book" WHERE IFNULL("pages", "pages")"#)
    }

    @Test func functions() throws {
        let pages = Self.pages, title = Self.title
        #expect(try selectSQL(count(pages ?? 0)) == #"SELECT COUNT(IFNULL("pages", 0)) FROM "book""#)
        #expect(try selectSQL(count(distinct: pages / pages)) == #"SELECT COUNT(DISTINCT "pages" / "pages") FROM "book""#)
        #expect(try selectSQL(average(pages / 2)) == #"SELECT AVG("pages" / 2) FROM "book""#)
        #expect(try selectSQL(length(title)) == #"SELECT LENGTH("title") FROM "book""#)
        #expect(try selectSQL(min(pages / 2)) == #"SELECT MIN("pages" / 2) FROM "book""#)
        #expect(try selectSQL(max(pages)) == #"SELECT MAX("pages") FROM "book""#)
        #expect(try selectSQL(sum(pages / 2)) == #"SELECT SUM("pages" / 2) FROM "book""#)
        #expect(try selectSQL(total(pages)) == #"SELECT TOTAL("pages") FROM "book""#)
        #expect(try selectSQL(abs(pages)) == #"SELECT ABS("pages") FROM "book""#)
        #expect(try selectSQL(title.capitalized) == #"SELECT swiftCapitalizedString("title") FROM "book""#)
        #expect(try selectSQL(title.lowercased) == #"SELECT swiftLowercaseString("title") FROM "book""#)
        #expect(try selectSQL(title.uppercased) == #"SELECT swiftUppercaseString("title") FROM "book""#)
        try recorder.dbQueue.write { db in
            // Swift's case mapping, not SQLite's ASCII-only LOWER and UPPER.
            try db.execute(sql: "INSERT INTO book (title) VALUES ('Été')")
            #expect(try String.fetchOne(db, Book.select(title.uppercased)) == "ÉTÉ")
            #expect(try String.fetchOne(db, Book.select(title.lowercased)) == "été")
        }
        #expect(try selectSQL(title.localizedCapitalized) == #"SELECT swiftLocalizedCapitalizedString("title") FROM "book""#)
        #expect(try selectSQL(title.localizedLowercased) == #"SELECT swiftLocalizedLowercaseString("title") FROM "book""#)
        #expect(try selectSQL(title.localizedUppercased) == #"SELECT swiftLocalizedUppercaseString("title") FROM "book""#)
        #expect(try whereSQL(title.like("%x")) == #"SELECT * FROM "book" WHERE "title" LIKE '%x'"#)
        #expect(try whereSQL(!title.like("%x")) == #"SELECT * FROM "book" WHERE "title" NOT LIKE '%x'"#)
        #expect(try whereSQL(title.like("%x") == true) == #"SELECT * FROM "book" WHERE ("title" LIKE '%x') = 1"#)
        #expect(try whereSQL(title.like("%x", escape: "\\")) == #"SELECT * FROM "book" WHERE "title" LIKE '%x' ESCAPE '\'"#)
        let halve = DatabaseFunction("halve", argumentCount: 1, pure: true) { _ in nil }
        let mean = DatabaseFunction("mean", pure: true) { _ in nil }
        recorder.dbQueue.inDatabase { db in
            db.add(function: halve)
            db.add(function: mean)
        }
        #expect(try selectSQL(halve(pages)) == #"SELECT halve("pages") FROM "book""#)
        #expect(try selectSQL(mean(pages, 1, 2)) == #"SELECT mean("pages", 1, 2) FROM "book""#)
    }
}
