import Foundation
import Testing
import Cairn

/// Association aggregates in `annotated(with:)` and `having(_:)`, as GRDB
/// 7.8 writes and names them (issue 51): the names of the aggregates and
/// of expressions built on them, the SQL of operators, and the values
/// fetched. GRDBAssociationSQLTests checks the plain aggregates.
@Suite struct GRDBAggregateTests {
    struct Shelf: Codable, FetchableRecord, PersistableRecord {
        static let books = hasMany(Book.self)
        static let labels = hasMany(Label.self)
        static let volumes = hasMany(Book.self, key: "volumes")
        var id: Int64
        var room: String
    }
    struct Book: Codable, FetchableRecord, PersistableRecord {
        static let shelf = belongsTo(Shelf.self)
        static let labels = hasMany(Label.self, through: shelf, using: Shelf.labels)
        var id: Int64
        var shelfId: Int64?
        var pages: Int
    }
    struct Label: Codable, FetchableRecord, PersistableRecord {
        var code: Int64
        var shelfId: Int64?
    }
    struct ShelfTotals: Decodable, FetchableRecord {
        var shelf: Shelf
        var bookPagesSum: Double
        var minBookPages: Int
        var bookCount: Int
    }

    func makeRecorder() throws -> GRDBSQLRecorder {
        try GRDBSQLRecorder(schema: """
            CREATE TABLE shelf (id INTEGER PRIMARY KEY, room TEXT NOT NULL);
            CREATE TABLE book (id INTEGER PRIMARY KEY, shelfId INTEGER REFERENCES shelf, pages INTEGER NOT NULL);
            CREATE TABLE label (code INTEGER PRIMARY KEY, shelfId INTEGER REFERENCES shelf);
            INSERT INTO shelf VALUES (1, 'hall'), (2, 'attic'), (3, 'cellar');
            INSERT INTO book VALUES (1, 1, 120), (2, 1, 80), (3, 2, 300), (4, NULL, 50);
            INSERT INTO label VALUES (10, 1), (11, 3), (12, 3);
            """)
    }

    let from = #"FROM "shelf" LEFT JOIN "book" ON "book"."shelfId" = "shelf"."id" GROUP BY "shelf"."id""#

    @Test func totalIsNamedAsSum() throws {
        let recorder = try makeRecorder()
        let request = Shelf
            .annotated(with: Shelf.books.total(Column("pages")), Shelf.books.min(Column("pages")) ?? 0, Shelf.books.count)
            .orderByPrimaryKey()
            .asRequest(of: ShelfTotals.self)
        #expect(try recorder.sql(of: request) == """
            SELECT "shelf".*, TOTAL("book"."pages") AS "bookPagesSum", \
            IFNULL(MIN("book"."pages"), 0) AS "minBookPages", \
            COUNT(DISTINCT "book"."id") AS "bookCount" \
            FROM "shelf" LEFT JOIN "book" ON "book"."shelfId" = "shelf"."id" \
            GROUP BY "shelf"."id" ORDER BY "shelf"."id"
            """)
        let totals = try recorder.dbQueue.read { try request.fetchAll($0) }
        #expect(totals.map(\.shelf.room) == ["hall", "attic", "cellar"])
        #expect(totals.map(\.bookPagesSum) == [200, 300, 0])
        #expect(totals.map(\.minBookPages) == [80, 300, 0])
        #expect(totals.map(\.bookCount) == [2, 1, 0])
        // Names come from the key of the association.
        #expect(try recorder.sql(of: Shelf.annotated(with: Shelf.volumes.count, Shelf.volumes.sum(Column("pages"))))
            == #"SELECT "shelf".*, COUNT(DISTINCT "book"."id") AS "volumeCount", SUM("book"."pages") AS "volumePagesSum" \#(from)"#)
    }

    @Test func expressionsOfAggregatesHaveNoName() throws {
        let recorder = try makeRecorder()
        let count = #"COUNT(DISTINCT "book"."id")"#
        #expect(try recorder.sql(of: Shelf.annotated(with: -Shelf.books.count))
            == #"SELECT "shelf".*, -\#(count) \#(from)"#)
        #expect(try recorder.sql(of: Shelf.annotated(with: Shelf.books.count * 3))
            == #"SELECT "shelf".*, \#(count) * 3 \#(from)"#)
        #expect(try recorder.sql(of: Shelf.annotated(with: 3 - Shelf.books.count))
            == #"SELECT "shelf".*, 3 - \#(count) \#(from)"#)
        #expect(try recorder.sql(of: Shelf.annotated(with: abs(Shelf.books.max(Column("pages")))))
            == #"SELECT "shelf".*, ABS(MAX("book"."pages")) \#(from)"#)
        #expect(try recorder.sql(of: Shelf.annotated(with: length(Shelf.books.max(Column("pages")))))
            == #"SELECT "shelf".*, LENGTH(MAX("book"."pages")) \#(from)"#)
        #expect(try recorder.sql(of: Shelf.annotated(with: !Shelf.books.isEmpty))
            == #"SELECT "shelf".*, \#(count) > 0 \#(from)"#)
        // Expressions of a column are not named after it.
        #expect(try recorder.sql(of: Shelf.annotated(with: Shelf.books.max(Column("pages") * 2)))
            == #"SELECT "shelf".*, MAX("book"."pages" * 2) \#(from)"#)
    }

    @Test func expressionsThatKeepTheName() throws {
        let recorder = try makeRecorder()
        #expect(try recorder.sql(of: Shelf.annotated(with: cast(Shelf.books.count, as: .real)))
            == #"SELECT "shelf".*, CAST(COUNT(DISTINCT "book"."id") AS REAL) AS "bookCount" \#(from)"#)
        #expect(try recorder.sql(of: Shelf.annotated(with: Shelf.books.average(Column("pages")) ?? 0))
            == #"SELECT "shelf".*, IFNULL(AVG("book"."pages"), 0) AS "averageBookPages" \#(from)"#)
        #expect(try recorder.sql(of: Shelf.annotated(with: abs(Shelf.books.max(Column("pages"))).forKey("widest")))
            == #"SELECT "shelf".*, ABS(MAX("book"."pages")) AS "widest" \#(from)"#)
        #expect(try recorder.sql(of: Shelf.annotated(with: (Shelf.books.count + 1).forKey("next")))
            == #"SELECT "shelf".*, COUNT(DISTINCT "book"."id") + 1 AS "next" \#(from)"#)
        #expect(try recorder.sql(of: Shelf.annotated(with: Shelf.books.isEmpty))
            == #"SELECT "shelf".*, COUNT(DISTINCT "book"."id") = 0 AS "hasNoBook" \#(from)"#)
    }

    @Test func logicalOperatorsInHaving() throws {
        let recorder = try makeRecorder()
        let joins = """
            FROM "shelf" LEFT JOIN "book" ON "book"."shelfId" = "shelf"."id" \
            LEFT JOIN "label" ON "label"."shelfId" = "shelf"."id" GROUP BY "shelf"."id"
            """
        let books = #"COUNT(DISTINCT "book"."id")"#
        let labels = #"COUNT(DISTINCT "label"."code")"#
        #expect(try recorder.sql(of: Shelf.having(Shelf.books.isEmpty && Shelf.labels.isEmpty))
            == #"SELECT "shelf".* \#(joins) HAVING (\#(books) = 0) AND (\#(labels) = 0)"#)
        #expect(try recorder.sql(of: Shelf.having(!(Shelf.books.isEmpty || Shelf.labels.isEmpty)))
            == #"SELECT "shelf".* \#(joins) HAVING NOT ((\#(books) = 0) OR (\#(labels) = 0))"#)
        #expect(try recorder.sql(of: Shelf.having(!(Shelf.books.count > 1) || Shelf.labels.isEmpty))
            == #"SELECT "shelf".* \#(joins) HAVING (NOT (\#(books) > 1)) OR (\#(labels) = 0)"#)
        #expect(try recorder.sql(of: Shelf.having(Shelf.books.isEmpty == true))
            == #"SELECT "shelf".* \#(from) HAVING \#(books) = 0"#)
        #expect(try recorder.sql(of: Shelf.having(Shelf.books.count >= Shelf.labels.count))
            == #"SELECT "shelf".* \#(joins) HAVING \#(books) >= \#(labels)"#)
        try recorder.dbQueue.read { db throws in
            #expect(try Shelf.having(Shelf.books.isEmpty && Shelf.labels.isEmpty).fetchCount(db) == 0)
            #expect(try Shelf.having(!(Shelf.books.isEmpty || Shelf.labels.isEmpty)).fetchAll(db).map(\.id) == [1])
            #expect(try Shelf.having(Shelf.books.count >= Shelf.labels.count).fetchAll(db).map(\.id) == [1, 2])
        }
    }

    @Test func aggregatesThroughAnotherAssociation() throws {
        struct BookLabels: Decodable, FetchableRecord {
            var book: Book
            var labelCount: Int
            var hasNoLabel: Bool
        }
        let recorder = try makeRecorder()
        let request = Book
            .annotated(with: Book.labels.count, Book.labels.isEmpty)
            .orderByPrimaryKey()
            .asRequest(of: BookLabels.self)
        #expect(try recorder.sql(of: request) == """
            SELECT "book".*, COUNT(DISTINCT "label"."code") AS "labelCount", \
            COUNT(DISTINCT "label"."code") = 0 AS "hasNoLabel" \
            FROM "book" LEFT JOIN "shelf" ON "shelf"."id" = "book"."shelfId" \
            LEFT JOIN "label" ON "label"."shelfId" = "shelf"."id" \
            GROUP BY "book"."id" ORDER BY "book"."id"
            """)
        let rows = try recorder.dbQueue.read { try request.fetchAll($0) }
        #expect(rows.map(\.labelCount) == [1, 1, 0, 0])
        #expect(rows.map(\.hasNoLabel) == [false, false, true, true])
        #expect(try recorder.dbQueue.read { try Book.having(Book.labels.isEmpty).fetchCount($0) } == 2)
    }

    @Test func annotationsOfFilteredAssociations() throws {
        let recorder = try makeRecorder()
        let request = Shelf
            .annotated(with: Shelf.books.filter(Column("pages") > 100).forKey("longBooks").count)
            .annotated(with: Shelf.books.filter(Column("pages") <= 100).forKey("shortBooks").max(Column("pages")))
        #expect(try recorder.sql(of: request) == """
            SELECT "shelf".*, COUNT(DISTINCT "book1"."id") AS "longBookCount", \
            MAX("book2"."pages") AS "maxShortBookPages" \
            FROM "shelf" \
            LEFT JOIN "book" "book1" ON ("book1"."shelfId" = "shelf"."id") AND ("book1"."pages" > 100) \
            LEFT JOIN "book" "book2" ON ("book2"."shelfId" = "shelf"."id") AND ("book2"."pages" <= 100) \
            GROUP BY "shelf"."id"
            """)
    }
}
