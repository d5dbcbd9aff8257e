import Foundation
import Testing
import Cairn

/// The examples of the "Association Aggregates" chapter of the guide.
@Suite struct AssociationAggregateTests {
    struct Author: Codable, FetchableRecord, PersistableRecord, Hashable {
        static let books = hasMany(Book.self)
        static let paintings = hasMany(Painting.self)
        var id: Int64
        var name: String
        enum Columns {
            static let id = Column(CodingKeys.id)
            static let name = Column(CodingKeys.name)
        }
    }

    struct Book: Codable, FetchableRecord, PersistableRecord, Hashable {
        var id: Int64
        var authorId: Int64
        var kind: String
        var year: Int
        var price: Double
        var awards: Int
        enum Columns {
            static let kind = Column(CodingKeys.kind)
            static let year = Column(CodingKeys.year)
            static let price = Column(CodingKeys.price)
            static let awards = Column(CodingKeys.awards)
        }
    }

    struct Painting: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var authorId: Int64
    }

    static func setUp(_ db: Database) throws {
        try db.create(table: "author") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
        }
        try db.create(table: "book") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("author").notNull()
            t.column("kind", .text).notNull()
            t.column("year", .integer).notNull()
            t.column("price", .double).notNull()
            t.column("awards", .integer).notNull()
        }
        try db.create(table: "painting") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("author").notNull()
        }
        try Author(id: 1, name: "Hugo").insert(db)
        try Author(id: 2, name: "Molière").insert(db)
        try Author(id: 3, name: "Lazy").insert(db)
        try Author(id: 4, name: "Painter").insert(db)
        try Book(id: 1, authorId: 1, kind: "novel", year: 1862, price: 10, awards: 2).insert(db)
        try Book(id: 2, authorId: 1, kind: "novel", year: 1866, price: 20, awards: 0).insert(db)
        try Book(id: 3, authorId: 1, kind: "theatrePlay", year: 1830, price: 30, awards: 1).insert(db)
        try Book(id: 4, authorId: 2, kind: "theatrePlay", year: 1664, price: 5, awards: 3).insert(db)
        try Painting(id: 1, authorId: 1).insert(db)
        try Painting(id: 2, authorId: 4).insert(db)
    }

    func sql(_ db: Database, _ request: some FetchRequest) throws -> String {
        try request.makePreparedRequest(db, forSingleResult: false).statement.sql
    }

    /// `isEmpty` and its negation write their zero in the SQL, as GRDB
    /// does, so that the statement has no argument of its own.
    @Test func emptinessTestsWriteTheirZeroInSQL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try Self.setUp(db)
            let annotated = try Author.annotated(with: Author.books.isEmpty).makePreparedRequest(db, forSingleResult: false)
            #expect(annotated.statement.sql.contains(#"COUNT(DISTINCT "book"."id") = 0 AS "hasNoBook""#))
            #expect(annotated.statement.arguments.isEmpty)
            let negated = try Author.annotated(with: !Author.books.isEmpty).makePreparedRequest(db, forSingleResult: false)
            #expect(negated.statement.sql.contains(#"COUNT(DISTINCT "book"."id") > 0"#))
            #expect(negated.statement.arguments.isEmpty)

            let statement = try Author.having(Author.books.isEmpty).deleteAndFetchStatement(db, selection: [Column("name")])
            #expect(statement.sql == """
                DELETE FROM "author" WHERE "id" IN (SELECT "author"."id" FROM "author" \
                LEFT JOIN "book" ON "book"."authorId" = "author"."id" \
                GROUP BY "author"."id" HAVING COUNT(DISTINCT "book"."id") = 0) RETURNING "name"
                """)
            #expect(statement.arguments.isEmpty)
            let lazy = try String.fetchAll(db, Author.having(Author.books.isEmpty).select(Column("name")).order(Column("name")))
            #expect(lazy == ["Lazy", "Painter"])
        }
    }

    @Test(arguments: WriterKind.allCases)
    func annotatedWithAggregates(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        try writer.write(Self.setUp)
        struct AuthorInfo: Decodable, FetchableRecord {
            var author: Author
            var bookCount: Int
            var maxBookYear: Int?
        }
        try writer.read { db throws -> Void in
            let request = Author
                .annotated(with: Author.books.count, Author.books.max(\.year))
                .order(\.id)
            #expect(try sql(db, request) == """
                SELECT "author".*, COUNT(DISTINCT "book"."id") AS "bookCount", MAX("book"."year") AS "maxBookYear" \
                FROM "author" LEFT JOIN "book" ON "book"."authorId" = "author"."id" \
                GROUP BY "author"."id" ORDER BY "author"."id"
                """)
            let infos = try AuthorInfo.fetchAll(db, request)
            #expect(infos.map(\.author.name) == ["Hugo", "Molière", "Lazy", "Painter"])
            #expect(infos.map(\.bookCount) == [3, 1, 0, 0])
            #expect(infos.map(\.maxBookYear) == [1866, 1664, nil, nil])
        }
    }

    @Test func defaultNames() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write(Self.setUp)
        try dbQueue.read { db throws -> Void in
            let request = Author.annotated(with:
                Author.books.isEmpty,
                Author.books.min(\.year),
                Author.books.average(\.price),
                Author.books.sum(\.awards),
                Author.books.total(\.awards))
            let row = try Row.fetchOne(db, request.order(\.id))!
            #expect(row.columnNames == ["id", "name", "hasNoBook", "minBookYear", "averageBookPrice", "bookAwardsSum", "bookAwardsSum"])
            #expect(row["hasNoBook"] == false)
            #expect(row["minBookYear"] == 1830)
            #expect(row["averageBookPrice"] == 20.0)
            #expect(row["bookAwardsSum"] == 3)
            // Renamed aggregates.
            let renamed = Author.annotated(with: Author.books.count.forKey("numberOfBooks"))
            #expect(try Row.fetchOne(db, renamed.order(\.id))!["numberOfBooks"] == 3)
        }
    }

    @Test func havingAggregates() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write(Self.setUp)
        try dbQueue.read { db throws -> Void in
            func names(_ request: QueryInterfaceRequest<Author>) throws -> [String] {
                try request.order(\.id).fetchAll(db).map(\.name)
            }
            let lazy = Author.having(Author.books.isEmpty)
            #expect(try sql(db, lazy) == """
                SELECT "author".* FROM "author" LEFT JOIN "book" ON "book"."authorId" = "author"."id" \
                GROUP BY "author"."id" HAVING COUNT(DISTINCT "book"."id") = 0
                """)
            #expect(try names(lazy) == ["Lazy", "Painter"])

            let productive = Author.having(Author.books.isEmpty == false)
            #expect(try sql(db, productive).hasSuffix(#"HAVING COUNT(DISTINCT "book"."id") > 0"#))
            #expect(try names(productive) == ["Hugo", "Molière"])
            #expect(try names(Author.having(!Author.books.isEmpty)) == ["Hugo", "Molière"])
            #expect(try names(Author.having(Author.books.count >= 2)) == ["Hugo"])
            #expect(try names(Author.having(Author.books.max(\.year) >= 1800)) == ["Hugo"])

            let novels = Author.books.filter { $0.kind == "novel" }
            let novelists = Author.having(novels.isEmpty == false)
            #expect(try sql(db, novelists) == """
                SELECT "author".* FROM "author" \
                LEFT JOIN "book" ON ("book"."authorId" = "author"."id") AND ("book"."kind" = ?) \
                GROUP BY "author"."id" HAVING COUNT(DISTINCT "book"."id") > 0
                """)
            #expect(try names(novelists) == ["Hugo"])

            let moreBooks = Author.having(Author.books.count > Author.paintings.count)
            #expect(try sql(db, moreBooks) == """
                SELECT "author".* FROM "author" \
                LEFT JOIN "book" ON "book"."authorId" = "author"."id" \
                LEFT JOIN "painting" ON "painting"."authorId" = "author"."id" \
                GROUP BY "author"."id" HAVING COUNT(DISTINCT "book"."id") > COUNT(DISTINCT "painting"."id")
                """)
            #expect(try names(moreBooks) == ["Hugo", "Molière"])

            let paintersOnly = Author.having(Author.books.isEmpty && !Author.paintings.isEmpty)
            #expect(try sql(db, paintersOnly).hasSuffix("""
                HAVING (COUNT(DISTINCT "book"."id") = 0) AND (COUNT(DISTINCT "painting"."id") > 0)
                """))
            #expect(try names(paintersOnly) == ["Painter"])
        }
    }

    @Test func aggregateOperationsAndIsolation() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write(Self.setUp)
        struct AuthorInfo: Decodable, FetchableRecord {
            var author: Author
            var workCount: Int
        }
        struct KindInfo: Decodable, FetchableRecord {
            var author: Author
            var novelCount: Int
            var theatrePlayCount: Int
        }
        try dbQueue.read { db throws -> Void in
            let workCount = (Author.books.count + Author.paintings.count).forKey("workCount")
            let works = Author.annotated(with: workCount).order(\.id)
            #expect(try sql(db, works) == """
                SELECT "author".*, COUNT(DISTINCT "book"."id") + COUNT(DISTINCT "painting"."id") AS "workCount" \
                FROM "author" LEFT JOIN "book" ON "book"."authorId" = "author"."id" \
                LEFT JOIN "painting" ON "painting"."authorId" = "author"."id" \
                GROUP BY "author"."id" ORDER BY "author"."id"
                """)
            #expect(try AuthorInfo.fetchAll(db, works).map(\.workCount) == [4, 1, 0, 1])

            // Distinct keys: distinct populations of books.
            let novelCount = Author.books.filter { $0.kind == "novel" }.forKey("novels").count
            let theatrePlayCount = Author.books.filter { $0.kind == "theatrePlay" }.forKey("theatrePlays").count
            let kinds = Author.annotated(with: novelCount, theatrePlayCount).order(\.id)
            #expect(try sql(db, kinds) == """
                SELECT "author".*, COUNT(DISTINCT "book1"."id") AS "novelCount", \
                COUNT(DISTINCT "book2"."id") AS "theatrePlayCount" \
                FROM "author" \
                LEFT JOIN "book" "book1" ON ("book1"."authorId" = "author"."id") AND ("book1"."kind" = ?) \
                LEFT JOIN "book" "book2" ON ("book2"."authorId" = "author"."id") AND ("book2"."kind" = ?) \
                GROUP BY "author"."id" ORDER BY "author"."id"
                """)
            let infos = try KindInfo.fetchAll(db, kinds)
            #expect(infos.map(\.novelCount) == [2, 0, 0, 0])
            #expect(infos.map(\.theatrePlayCount) == [1, 1, 0, 0])

            // The same key: one population, whose filters all apply.
            let wrong = Author.annotated(with:
                Author.books.filter { $0.kind == "novel" }.count.forKey("novelCount"),
                Author.books.filter { $0.kind == "theatrePlay" }.count.forKey("theatrePlayCount"))
            #expect(try sql(db, wrong).contains(#"LEFT JOIN "book" ON ("book"."authorId" = "author"."id") AND ("book"."kind" = ?) AND ("book"."kind" = ?)"#))
            #expect(try KindInfo.fetchAll(db, wrong.order(\.id)).map(\.novelCount) == [0, 0, 0, 0])

            // IFNULL keeps the name; other functions drop it.
            let minScore = Author.annotated(with: Author.books.min(\.awards) ?? 0).order(\.id)
            #expect(try sql(db, minScore).contains(#"IFNULL(MIN("book"."awards"), ?) AS "minBookAwards""#))
            #expect(try Row.fetchAll(db, minScore).map { $0["minBookAwards"] as Int } == [0, 3, 0, 0])
            let absMax = Author.annotated(with: abs(Author.books.max(\.awards)))
            #expect(try sql(db, absMax).contains(#"SELECT "author".*, ABS(MAX("book"."awards")) FROM"#))
        }
    }

    @Test func aggregatesInPrefetchedAssociations() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write(Self.setUp)
        struct AuthorInfo: Decodable, FetchableRecord {
            var author: Author
            var bookKinds: Set<String>
        }
        try dbQueue.read { db throws -> Void in
            let distinctKinds = Author.books.select(\.kind).distinct().forKey("bookKinds")
            let infos = try Author.including(all: distinctKinds).order(\.id).asRequest(of: AuthorInfo.self).fetchAll(db)
            #expect(infos.map(\.bookKinds) == [["novel", "theatrePlay"], ["theatrePlay"], [], []])
        }
    }

    @Test func aggregateOnToOneJoinThrows() throws {
        struct BookRecord: TableRecord {
            static let databaseTableName = "book"
            static let author = belongsTo(Author.self)
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write(Self.setUp)
        try dbQueue.read { db throws -> Void in
            let request = BookRecord.joining(required: BookRecord.author.limit(1))
            #expect {
                try Row.fetchAll(db, request)
            } throws: { error in
                "\(error)".contains("can only be used with including(all:)")
            }
        }
    }
}
