import Foundation
import Testing
import Cairn

/// `Table` and its generic variants, as GRDB 7 builds and fetches them.
@Suite struct GRDBRequestTableTests {
    static let schema = """
        CREATE TABLE book (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT);
        INSERT INTO book VALUES (1, 'Dune');
        CREATE TABLE tag (label TEXT);
        INSERT INTO tag VALUES ('red'), (NULL);
        """

    struct Book: FetchableRecord, Decodable, Hashable {
        var id: Int64
        var title: String
    }

    struct Code: DatabaseValueConvertible, Hashable {
        var value: Int64
        var databaseValue: DatabaseValue { value.databaseValue }
        static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Code? {
            Int64.fromDatabaseValue(dbValue).map(Code.init)
        }
    }

    struct Label: DatabaseValueConvertible, Hashable {
        var text: String
        var databaseValue: DatabaseValue { text.databaseValue }
        static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Label? {
            String.fromDatabaseValue(dbValue).map(Label.init)
        }
    }

    struct IdentifiedBook: Identifiable { var id: Int64 }
    struct OptionalIdentifiedBook: Identifiable { var id: Int64? }

    @Test func derivedRequests() throws {
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        let t = Table("book")
        #expect(t.tableName == "book")
        let cases: [(any FetchRequest, String)] = [
            (t.all(), #"SELECT * FROM "book""#),
            (t.none(), #"SELECT * FROM "book" WHERE 0"#),
            (t.select(Column("id"), Column("title")), #"SELECT "id", "title" FROM "book""#),
            (t.select([Column("id"), Column("title")]), #"SELECT "id", "title" FROM "book""#),
            (t.select(sql: "id, ?", arguments: ["Ann's"]), #"SELECT id, 'Ann''s' FROM "book""#),
            (t.select(literal: "id, \("Ann's")"), #"SELECT id, 'Ann''s' FROM "book""#),
            (t.annotated(with: Column.rowID), #"SELECT *, "rowid" FROM "book""#),
            (t.annotated(with: [Column.rowID]), #"SELECT *, "rowid" FROM "book""#),
            (t.filter(Column("id") > 10), #"SELECT * FROM "book" WHERE "id" > 10"#),
            (t.filter(key: 1), #"SELECT * FROM "book" WHERE "id" = 1"#),
            (t.filter(keys: [1, 2, 3]), #"SELECT * FROM "book" WHERE "id" IN (1, 2, 3)"#),
            (t.filter(key: ["id": 1]), #"SELECT * FROM "book" WHERE "id" = 1"#),
            (t.filter(keys: [["id": 1], ["id": 2]]), #"SELECT * FROM "book" WHERE ("id" = 1) OR ("id" = 2)"#),
            (t.filter(sql: "title = ?", arguments: ["Ann's"]), #"SELECT * FROM "book" WHERE title = 'Ann''s'"#),
            (t.filter(literal: "title = \("Ann's")"), #"SELECT * FROM "book" WHERE title = 'Ann''s'"#),
            (t.order(Column("id"), Column("title").desc), #"SELECT * FROM "book" ORDER BY "id", "title" DESC"#),
            (t.order([Column("id"), Column("title").desc]), #"SELECT * FROM "book" ORDER BY "id", "title" DESC"#),
            (t.orderByPrimaryKey(), #"SELECT * FROM "book" ORDER BY "id""#),
            (t.order(sql: "IFNULL(title, ?)", arguments: ["Ann's"]), #"SELECT * FROM "book" ORDER BY IFNULL(title, 'Ann''s')"#),
            (t.limit(1), #"SELECT * FROM "book" LIMIT 1"#),
            (t.limit(1, offset: 3), #"SELECT * FROM "book" LIMIT 1 OFFSET 3"#),
            (t.aliased(TableAlias(name: "b")), #"SELECT "b".* FROM "book" "b""#),
            (t.with(CommonTableExpression(named: "c", literal: "SELECT \("Ann's")")),
             #"WITH "c" AS (SELECT 'Ann''s') SELECT * FROM "book""#),
            (Table<IdentifiedBook>("book").filter(id: 1), #"SELECT * FROM "book" WHERE "id" = 1"#),
            (Table<IdentifiedBook>("book").filter(ids: [1, 2]), #"SELECT * FROM "book" WHERE "id" IN (1, 2)"#),
            (Table<OptionalIdentifiedBook>("book").filter(id: 1), #"SELECT * FROM "book" WHERE "id" = 1"#),
            (Table<OptionalIdentifiedBook>("book").filter(id: nil), #"SELECT * FROM "book" WHERE 0"#),
            (Table<OptionalIdentifiedBook>("book").filter(ids: [1, 2]), #"SELECT * FROM "book" WHERE "id" IN (1, 2)"#),
        ]
        for (request, sql) in cases {
            #expect(try recorder.sql(of: request) == sql)
        }
    }

    @Test func selectionsAsValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: Self.schema)
            let t = Table("book")
            #expect(try t.select(Column("id"), as: Int64.self).fetchOne(db) == 1)
            #expect(try t.select([Column("title")], as: String.self).fetchOne(db) == "Dune")
            #expect(try t.select(sql: "id", as: Int64.self).fetchOne(db) == 1)
            #expect(try t.select(literal: "title", as: String.self).fetchOne(db) == "Dune")
            #expect(try Table<IdentifiedBook>("book").selectID().fetchOne(db) == 1)
            #expect(try Table<OptionalIdentifiedBook>("book").selectID().fetchOne(db) == 1)
        }
    }

    @Test func fetchingThroughTheTypeOfTheTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: Self.schema)
            #expect(try Table("book").fetchCount(db) == 1)

            let books = Table<Book>("book")
            #expect(try books.fetchCursor(db).next() == Book(id: 1, title: "Dune"))
            #expect(try books.fetchAll(db) == [Book(id: 1, title: "Dune")])
            #expect(try books.fetchSet(db) == [Book(id: 1, title: "Dune")])
            #expect(try books.fetchOne(db) == Book(id: 1, title: "Dune"))

            let rows = Table("book")
            #expect(try rows.fetchCursor(db).map { $0.copy() }.next() == ["id": 1, "title": "Dune"])
            #expect(try rows.fetchAll(db) == [["id": 1, "title": "Dune"]])
            #expect(try rows.fetchSet(db) == [["id": 1, "title": "Dune"]])
            #expect(try rows.fetchOne(db) == ["id": 1, "title": "Dune"])

            let codes = Table<Code>("book")
            #expect(try codes.fetchCursor(db).next() == Code(value: 1))
            #expect(try codes.fetchAll(db) == [Code(value: 1)])
            #expect(try codes.fetchSet(db) == [Code(value: 1)])
            #expect(try codes.fetchOne(db) == Code(value: 1))

            let labels = Table<Label?>("tag")
            #expect(try labels.fetchAll(db) == [Label(text: "red"), nil])
            #expect(try labels.fetchSet(db) == [Label(text: "red"), nil])
            #expect(try labels.fetchCursor(db).next() == Label(text: "red"))

            let strings = Table<String?>("tag")
            #expect(try strings.fetchAll(db) == ["red", nil])
            #expect(try strings.fetchSet(db) == ["red", nil])
            #expect(try strings.fetchOne(db) == "red")

            let ints = Table<Int64>("book")
            #expect(try ints.fetchAll(db) == [1])
            #expect(try ints.fetchSet(db) == [1])
            #expect(try ints.fetchOne(db) == 1)

            try db.execute(sql: "DELETE FROM book; DELETE FROM tag; INSERT INTO tag VALUES (NULL)")
            #expect(try codes.fetchOne(db) == nil)
            #expect(try ints.fetchOne(db) == nil)
        }
    }

    @Test func associationsOfTables() throws {
        let recorder = try GRDBSQLRecorder(schema: """
            CREATE TABLE team (id INTEGER PRIMARY KEY);
            CREATE TABLE player (id INTEGER PRIMARY KEY, teamID INTEGER REFERENCES team);
            """)
        let player = Table("player")
        let team = player.belongsTo(Table("team"))
        #expect(try recorder.sql(of: player.including(optional: team))
            == #"SELECT "player".*, "team".* FROM "player" LEFT JOIN "team" ON "team"."id" = "player"."teamID""#)
        #expect(try recorder.sql(of: player.joining(required: team))
            == #"SELECT "player".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamID""#)
        let players = Table("team").hasMany(player)
        #expect(try recorder.sql(of: Table("team").joining(required: players))
            == #"SELECT "team".* FROM "team" JOIN "player" ON "player"."teamID" = "team"."id""#)
    }
}
