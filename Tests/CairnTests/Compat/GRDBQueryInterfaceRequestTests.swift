import Foundation
import Testing
import Cairn

/// The SQL of the clauses of query interface requests (selection, filters,
/// groups, orderings, limits), and the rows they fetch, as in GRDB.
@Suite struct GRDBQueryInterfaceRequestTests {
    struct Song: TableRecord {
        static let databaseTableName = "song"
        enum Columns {
            static let id = Column("id")
            static let title = Column("title")
            static let length = Column("length")
        }
    }

    typealias Columns = Song.Columns

    let recorder: GRDBSQLRecorder

    init() throws {
        recorder = try GRDBSQLRecorder(schema: """
            CREATE TABLE song (id INTEGER PRIMARY KEY, title TEXT NOT NULL, length INT);
            INSERT INTO song (title, length) VALUES ('Ode', 180), ('Hymn', 240);
            """)
    }

    func sql(_ request: some FetchRequest) throws -> String? {
        try recorder.sql(of: request)
    }

    @Test func fetchesWriteTheirLimit() throws {
        #expect(try recorder.lastSQL { db in _ = try Row.fetchAll(db, Song.all()) } == #"SELECT * FROM "song""#)
        #expect(try recorder.lastSQL { db in _ = try Row.fetchOne(db, Song.all()) } == #"SELECT * FROM "song" LIMIT 1"#)
        #expect(try recorder.lastSQL { db in _ = try Array(Row.fetchCursor(db, Song.all())) } == #"SELECT * FROM "song""#)
    }

    @Test func counts() throws {
        func countSQL(_ request: QueryInterfaceRequest<Song>) throws -> String? {
            try recorder.lastSQL { db in _ = try request.fetchCount(db) }
        }
        #expect(try countSQL(Song.all()) == #"SELECT COUNT(*) FROM "song""#)
        #expect(try countSQL(Song.all().reversed()) == #"SELECT COUNT(*) FROM "song""#)
        #expect(try countSQL(Song.order(Columns.title)) == #"SELECT COUNT(*) FROM "song""#)
        #expect(try countSQL(Song.limit(4)) == #"SELECT COUNT(*) FROM (SELECT * FROM "song" LIMIT 4)"#)
        #expect(try countSQL(Song.filter(Columns.length == 3)) == #"SELECT COUNT(*) FROM "song" WHERE "length" = 3"#)
        #expect(try countSQL(Song.select(Columns.title)) == #"SELECT COUNT(*) FROM "song""#)
        #expect(try countSQL(Song.select(Columns.length * 3).distinct()) == #"SELECT COUNT(DISTINCT "length" * 3) FROM "song""#)
        #expect(try countSQL(Song.select((Columns.length * 3).forKey("x")).distinct())
            == #"SELECT COUNT(DISTINCT "length" * 3) FROM "song""#)
        #expect(try countSQL(Song.select(Columns.title, Columns.length)) == #"SELECT COUNT(*) FROM "song""#)
        #expect(try countSQL(Song.select(max(Columns.length)).group(Columns.title))
            == #"SELECT COUNT(*) FROM (SELECT MAX("length") FROM "song" GROUP BY "title")"#)
        #expect(try countSQL(Song.annotated(with: Columns.title.forKey("label")).filter(Column("label").detached))
            == #"SELECT COUNT(*) FROM (SELECT *, "title" AS "label" FROM "song" WHERE "label")"#)
    }

    @Test func selections() throws {
        #expect(try sql(Song.select(sql: "title, id * 2")) == #"SELECT title, id * 2 FROM "song""#)
        #expect(try sql(Song.select(sql: "title, id * ?", arguments: [2])) == #"SELECT title, id * 2 FROM "song""#)
        #expect(try sql(Song.select(sql: "title, id * :k", arguments: ["k": 2])) == #"SELECT title, id * 2 FROM "song""#)
        #expect(try sql(Song.select(Columns.title, Columns.id - 1)) == #"SELECT "title", "id" - 1 FROM "song""#)
        #expect(try sql(Song.select { [$0.title, $0.id - 1] }) == #"SELECT "title", "id" - 1 FROM "song""#)
        #expect(try sql(Song.all().select(Columns.title.forKey("name"), (Columns.length + 1).forKey("longer")))
            == #"SELECT "title" AS "name", "length" + 1 AS "longer" FROM "song""#)
        #expect(try sql(Song.select(Columns.length).select(Columns.title)) == #"SELECT "title" FROM "song""#)
        #expect(try sql(Song.select(Columns.title).distinct()) == #"SELECT DISTINCT "title" FROM "song""#)
        #expect(try sql(Song.annotated(with: [Columns.id - 1])) == #"SELECT *, "id" - 1 FROM "song""#)
        #expect(try sql(Song.annotated(with: Columns.id - 1, Columns.id + 1)) == #"SELECT *, "id" - 1, "id" + 1 FROM "song""#)
        #expect(try sql(Song.all().annotated { $0.id - 1 }) == #"SELECT *, "id" - 1 FROM "song""#)
        #expect(try sql(Song.select(Columns.title).annotated(with: Columns.id - 1)) == #"SELECT "title", "id" - 1 FROM "song""#)
        let literal = try recorder.dbQueue.read { db throws in
            try Row.fetchAll(db, Song.select(literal: SQL(sql: ":label, id - :delta", arguments: ["label": "O'Neil", "delta": 1])))
        }
        #expect(literal.map { [$0[0] as String, String($0[1] as Int64)] } == [["O'Neil", "0"], ["O'Neil", "1"]])
        let interpolated = try recorder.dbQueue.read { db throws in
            try Row.fetchAll(db, Song.all().select(literal: "\("O'Neil"), id - \(1)"))
        }
        #expect(interpolated.map { [$0[0] as String, String($0[1] as Int64)] } == [["O'Neil", "0"], ["O'Neil", "1"]])
    }

    @Test func selectionsAsOtherTypes() throws {
        try recorder.dbQueue.read { db throws in
            #expect(try Song.select(Columns.title, as: String.self).fetchOne(db) == "Ode")
            #expect(try Song.select([Columns.title], as: String.self).fetchOne(db) == "Ode")
            #expect(try Song.select({ $0.title }, as: String.self).fetchOne(db) == "Ode")
            #expect(try Song.select(sql: "title", as: String.self).fetchOne(db) == "Ode")
            #expect(try Song.select(literal: SQL(sql: "? AS title", arguments: ["O'Neil"]), as: String.self).fetchOne(db) == "O'Neil")
            #expect(try Song.all().select(literal: "\("O'Neil") AS title", as: String.self).fetchOne(db) == "O'Neil")
            #expect(try Song.select(Columns.title, Columns.length, as: Row.self).fetchOne(db) == ["title": "Ode", "length": 180])
            #expect(try Song.all().select(sql: "title, ? AS length", arguments: [7], as: Row.self).fetchOne(db)
                == ["title": "Ode", "length": 7])
            #expect(try Song.select(sql: "title, :n AS length", arguments: ["n": 7], as: Row.self).fetchOne(db)
                == ["title": "Ode", "length": 7])
        }
    }

    @Test func filters() throws {
        #expect(try sql(Song.filter(sql: "id <> 2")) == #"SELECT * FROM "song" WHERE id <> 2"#)
        #expect(try sql(Song.filter(sql: "id <> 2").filter(true.databaseValue)) == #"SELECT * FROM "song" WHERE (id <> 2) AND 1"#)
        #expect(try sql(Song.filter(sql: "id <> ?", arguments: [2]).filter(true.databaseValue))
            == #"SELECT * FROM "song" WHERE (id <> 2) AND 1"#)
        #expect(try sql(Song.filter(sql: "id <> :id", arguments: ["id": 2])) == #"SELECT * FROM "song" WHERE id <> 2"#)
        #expect(try sql(Song.filter(sql: "length > :n", arguments: ["n": 9]).filter(sql: "title = ?", arguments: ["x"]))
            == #"SELECT * FROM "song" WHERE (length > 9) AND (title = 'x')"#)
        #expect(try sql(Song.filter(sql: "length > ?", arguments: [9]).filter(sql: "title = :t", arguments: ["t": "x"]))
            == #"SELECT * FROM "song" WHERE (length > 9) AND (title = 'x')"#)
        #expect(try sql(Song.filter(true.databaseValue).filter(false.databaseValue)) == #"SELECT * FROM "song" WHERE 1 AND 0"#)
    }

    @Test func filterOnView() throws {
        struct Listed: TableRecord, FetchableRecord, Decodable {
            static let databaseTableName = "listed"
        }
        try recorder.dbQueue.write { db in try db.execute(sql: "CREATE VIEW listed AS SELECT * FROM song") }
        #expect(try recorder.lastSQL { db in _ = try Row.fetchOne(db, Listed.filter(Column("id") == 1)) }
            == #"SELECT * FROM "listed" WHERE "id" = 1 LIMIT 1"#)
    }

    @Test func groupsAndHaving() throws {
        #expect(try sql(Song.all().group(sql: "length, lower(title)")) == #"SELECT * FROM "song" GROUP BY length, lower(title)"#)
        #expect(try sql(Song.all().group(sql: "length + ?, lower(title)", arguments: [1]))
            == #"SELECT * FROM "song" GROUP BY length + 1, lower(title)"#)
        #expect(try sql(Song.all().group(sql: "length + :n", arguments: ["n": 1])) == #"SELECT * FROM "song" GROUP BY length + 1"#)
        #expect(try sql(Song.all().group(Columns.length, Columns.title)) == #"SELECT * FROM "song" GROUP BY "length", "title""#)
        #expect(try sql(Song.all().group { [$0.length, $0.title] }) == #"SELECT * FROM "song" GROUP BY "length", "title""#)
        #expect(try sql(Song.all().group(Columns.length).group(Columns.title)) == #"SELECT * FROM "song" GROUP BY "title""#)
        #expect(try sql(Song.all().group(Columns.title).having(sql: "min(length) > ?", arguments: [9]))
            == #"SELECT * FROM "song" GROUP BY "title" HAVING min(length) > 9"#)
        #expect(try sql(Song.all().group(Columns.title).having(min(Columns.length) > 9).having(max(Columns.length) < 99))
            == #"SELECT * FROM "song" GROUP BY "title" HAVING (MIN("length") > 9) AND (MAX("length") < 99)"#)
        #expect(try sql(Song.all().group { $0.title }.having { min($0.length) > 9 })
            == #"SELECT * FROM "song" GROUP BY "title" HAVING MIN("length") > 9"#)
    }

    @Test func orderings() throws {
        #expect(try sql(Song.order(sql: "lower(title) desc")) == #"SELECT * FROM "song" ORDER BY lower(title) desc"#)
        #expect(try sql(Song.order(sql: "length + ?", arguments: [1])) == #"SELECT * FROM "song" ORDER BY length + 1"#)
        #expect(try sql(Song.order(sql: "length + :n", arguments: ["n": 1])) == #"SELECT * FROM "song" ORDER BY length + 1"#)
        #expect(try sql(Song.order(Columns.length.asc)) == #"SELECT * FROM "song" ORDER BY "length" ASC"#)
        #expect(try sql(Song.order { $0.length.desc }) == #"SELECT * FROM "song" ORDER BY "length" DESC"#)
        #expect(try sql(Song.order(Columns.length, Columns.title.desc)) == #"SELECT * FROM "song" ORDER BY "length", "title" DESC"#)
        #expect(try sql(Song.order(abs(Columns.length))) == #"SELECT * FROM "song" ORDER BY ABS("length")"#)
        #expect(try sql(Song.order(Columns.length.ascNullsLast)) == #"SELECT * FROM "song" ORDER BY "length" ASC NULLS LAST"#)
        #expect(try sql(Song.order(Columns.length.descNullsFirst)) == #"SELECT * FROM "song" ORDER BY "length" DESC NULLS FIRST"#)
        #expect(try sql(Song.order(Columns.title.collating(.nocase))) == #"SELECT * FROM "song" ORDER BY "title" COLLATE NOCASE"#)
        #expect(try sql(Song.order(Columns.title.collating(.nocase).asc)) == #"SELECT * FROM "song" ORDER BY "title" COLLATE NOCASE ASC"#)
        #expect(try sql(Song.order(Columns.title.collating(.nocase).ascNullsLast))
            == #"SELECT * FROM "song" ORDER BY "title" COLLATE NOCASE ASC NULLS LAST"#)
        #expect(try sql(Song.order(Columns.length).order(Columns.title)) == #"SELECT * FROM "song" ORDER BY "title""#)
    }

    @Test func reversedOrderings() throws {
        #expect(try sql(Song.all().reversed()) == #"SELECT * FROM "song""#)
        #expect(try sql(Song.order(Columns.length).reversed()) == #"SELECT * FROM "song" ORDER BY "length" DESC"#)
        #expect(try sql(Song.order(Columns.length.asc).reversed()) == #"SELECT * FROM "song" ORDER BY "length" DESC"#)
        #expect(try sql(Song.order(Columns.length.desc).reversed()) == #"SELECT * FROM "song" ORDER BY "length" ASC"#)
        #expect(try sql(Song.order(Columns.length, Columns.title.desc).reversed())
            == #"SELECT * FROM "song" ORDER BY "length" DESC, "title" ASC"#)
        #expect(try sql(Song.order(abs(Columns.length)).reversed()) == #"SELECT * FROM "song" ORDER BY ABS("length") DESC"#)
        #expect(try sql(Song.order(Columns.length.descNullsFirst).reversed()) == #"SELECT * FROM "song" ORDER BY "length" ASC NULLS LAST"#)
        #expect(try sql(Song.order(Columns.length.ascNullsLast).reversed()) == #"SELECT * FROM "song" ORDER BY "length" DESC NULLS FIRST"#)
        #expect(try sql(Song.order(Columns.title.collating(.nocase)).reversed())
            == #"SELECT * FROM "song" ORDER BY "title" COLLATE NOCASE DESC"#)
        #expect(try sql(Song.order(Columns.title.collating(.nocase).descNullsFirst).reversed())
            == #"SELECT * FROM "song" ORDER BY "title" COLLATE NOCASE ASC NULLS LAST"#)
        #expect(try sql(Song.all().reversed().reversed()) == #"SELECT * FROM "song""#)
        #expect(try sql(Song.order(Columns.length, Columns.title).reversed().reversed())
            == #"SELECT * FROM "song" ORDER BY "length", "title""#)
    }

    @Test func limits() throws {
        #expect(try sql(Song.limit(2)) == #"SELECT * FROM "song" LIMIT 2"#)
        #expect(try sql(Song.limit(2, offset: 5)) == #"SELECT * FROM "song" LIMIT 2 OFFSET 5"#)
        #expect(try sql(Song.limit(2, offset: 5).limit(4)) == #"SELECT * FROM "song" LIMIT 4"#)
    }

    @Test func fetchOneLeavesOutTheLimitOfUniqueRows() throws {
        func fetchOneSQL(_ request: QueryInterfaceRequest<Song>) throws -> String? {
            try recorder.lastSQL { db in _ = try Row.fetchOne(db, request) }
        }
        #expect(try fetchOneSQL(Song.filter(key: 2)) == #"SELECT * FROM "song" WHERE "id" = 2"#)
        #expect(try fetchOneSQL(Song.filter(Columns.id == 2)) == #"SELECT * FROM "song" WHERE "id" = 2"#)
        #expect(try fetchOneSQL(Song.filter(Columns.id == nil)) == #"SELECT * FROM "song" WHERE "id" IS NULL"#)
        #expect(try fetchOneSQL(Song.filter(Columns.title == "x")) == #"SELECT * FROM "song" WHERE "title" = 'x' LIMIT 1"#)
        #expect(try fetchOneSQL(Song.filter(Columns.id == 2 && Columns.title == "x"))
            == #"SELECT * FROM "song" WHERE ("id" = 2) AND ("title" = 'x')"#)
        #expect(try fetchOneSQL(Song.filter(Columns.id == 2).filter(Columns.title == "x"))
            == #"SELECT * FROM "song" WHERE ("id" = 2) AND ("title" = 'x')"#)
        #expect(try fetchOneSQL(Song.filter(Columns.id)) == #"SELECT * FROM "song" WHERE "id" LIMIT 1"#)
        #expect(try fetchOneSQL(Song.filter(Columns.id != 2)) == #"SELECT * FROM "song" WHERE "id" <> 2 LIMIT 1"#)
        #expect(try fetchOneSQL(Song.filter(Columns.id == 2 && Columns.id == 3)) == #"SELECT * FROM "song" WHERE ("id" = 2) AND ("id" = 3)"#)
        #expect(try fetchOneSQL(Song.filter(Columns.id == 2 || Columns.id == 3))
            == #"SELECT * FROM "song" WHERE ("id" = 2) OR ("id" = 3) LIMIT 1"#)
        #expect(try fetchOneSQL(Song.select(max(Columns.id))) == #"SELECT MAX("id") FROM "song""#)
        #expect(try fetchOneSQL(Song.select(min(Columns.length).forKey("a"), max(Columns.length).forKey("b")))
            == #"SELECT MIN("length") AS "a", MAX("length") AS "b" FROM "song""#)
        #expect(try fetchOneSQL(Song.select(max(Columns.length + 1))) == #"SELECT MAX("length" + 1) FROM "song""#)
        #expect(try fetchOneSQL(Song.select(max(Columns.length) + 1)) == #"SELECT MAX("length") + 1 FROM "song""#)
    }

    @Test func isEmpty() throws {
        #expect(try recorder.lastSQL { db in _ = try Song.all().isEmpty(db) } == #"SELECT EXISTS (SELECT * FROM "song")"#)
        #expect(try recorder.lastSQL { db in _ = try Song.filter(Columns.title == "x").isEmpty(db) }
            == #"SELECT EXISTS (SELECT * FROM "song" WHERE "title" = 'x')"#)
        try recorder.dbQueue.read { db throws in
            #expect(try !Song.all().isEmpty(db))
            #expect(try Song.filter(Columns.title == "x").isEmpty(db))
        }
    }
}
