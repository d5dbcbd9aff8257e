import Foundation
import Testing
import Cairn

/// The examples of the associations guide, on the library schema: books,
/// authors (people), countries, cover images.
@Suite struct AssociationGuideTests {
    struct Country: Codable, FetchableRecord, PersistableRecord, Hashable {
        var code: String
        var name: String
    }

    struct Person: Codable, FetchableRecord, PersistableRecord, Hashable {
        static let country = belongsTo(Country.self)
        static let writtenBooks = hasMany(Book.self, using: Book.authorForeignKey)
        static let translatedBooks = hasMany(Book.self, using: Book.translatorForeignKey)
        var id: Int64
        var name: String
        var countryCode: String?
        var deathDate: String?

        enum Columns {
            static let id = Column(CodingKeys.id)
            static let name = Column(CodingKeys.name)
            static let countryCode = Column(CodingKeys.countryCode)
            static let deathDate = Column(CodingKeys.deathDate)
        }

        var writtenBooks: QueryInterfaceRequest<Book> { request(for: Person.writtenBooks) }
    }

    struct Book: Codable, FetchableRecord, PersistableRecord, Hashable {
        static let authorForeignKey = ForeignKey([Columns.authorId])
        static let translatorForeignKey = ForeignKey([Columns.translatorId])
        static let author = belongsTo(Person.self, key: "author", using: authorForeignKey)
        static let translator = belongsTo(Person.self, key: "translator", using: translatorForeignKey)
        static let country = hasOne(Country.self, through: author, using: Person.country)
        var id: Int64
        var authorId: Int64?
        var translatorId: Int64?
        var title: String
        var publishDate: String

        enum Columns {
            static let id = Column(CodingKeys.id)
            static let authorId = Column(CodingKeys.authorId)
            static let translatorId = Column(CodingKeys.translatorId)
            static let title = Column(CodingKeys.title)
            static let publishDate = Column(CodingKeys.publishDate)
        }

        var author: QueryInterfaceRequest<Person> { request(for: Book.author) }
    }

    static func setUp(_ db: Database) throws {
        try db.create(table: "country") { t in
            t.primaryKey("code", .text)
            t.column("name", .text).notNull()
        }
        try db.create(table: "person") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.belongsTo("country")
            t.column("deathDate", .text)
        }
        try db.create(table: "book") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("author", inTable: "person")
            t.belongsTo("translator", inTable: "person")
            t.column("title", .text).notNull()
            t.column("publishDate", .text).notNull()
        }
        try Country(code: "FR", name: "France").insert(db)
        try Country(code: "US", name: "United States").insert(db)
        try Person(id: 1, name: "Victor Hugo", countryCode: "FR", deathDate: "1885-05-22").insert(db)
        try Person(id: 2, name: "Herman Melville", countryCode: "US", deathDate: "1891-09-28").insert(db)
        try Person(id: 3, name: "Jean Giono", countryCode: nil, deathDate: nil).insert(db)
        try Book(id: 1, authorId: 1, translatorId: nil, title: "Les Misérables", publishDate: "1862-01-01").insert(db)
        try Book(id: 2, authorId: 2, translatorId: 3, title: "Moby-Dick", publishDate: "1851-10-18").insert(db)
        try Book(id: 3, authorId: 1, translatorId: nil, title: "Toilers of the Sea", publishDate: "1866-03-12").insert(db)
        try Book(id: 4, authorId: 1, translatorId: nil, title: "Posthumous", publishDate: "1886-01-01").insert(db)
        try Book(id: 5, authorId: nil, translatorId: nil, title: "Anonymous", publishDate: "1900-01-01").insert(db)
    }

    func makeWriter(_ kind: WriterKind, _ directory: TemporaryDirectory) throws -> any DatabaseWriter {
        let writer = try kind.make(path: directory.filePath())
        try writer.write(Self.setUp)
        return writer
    }

    /// The SQL of a request.
    func sql(_ db: Database, _ request: some FetchRequest) throws -> String {
        try request.makePreparedRequest(db, forSingleResult: false).statement.sql
    }

    /// The statements that fetching a request runs.
    func executedSQL(_ db: Database, _ body: () throws -> Void) rethrows -> [String] {
        let statements = LockedArray()
        db.trace { event in
            if case .statement(let statement) = event { statements.append(statement.expandedSQL) }
        }
        defer { db.trace(nil) }
        try body()
        return statements.values
    }

    final class LockedArray: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [String] = []
        func append(_ value: String) { lock.withLock { storage.append(value) } }
        var values: [String] { lock.withLock { storage } }
    }

    // MARK: Joining methods

    @Test(arguments: WriterKind.allCases)
    func includingRequired(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var author: Person
        }
        try writer.read { db throws -> Void in
            let request = Book.including(required: Book.author).order(Book.Columns.id)
            #expect(try sql(db, request) == """
                SELECT "book".*, "person".* FROM "book" \
                JOIN "person" ON "person"."id" = "book"."authorId" \
                ORDER BY "book"."id"
                """)
            let infos = try request.asRequest(of: BookInfo.self).fetchAll(db)
            #expect(infos.map(\.book.title) == ["Les Misérables", "Moby-Dick", "Toilers of the Sea", "Posthumous"])
            #expect(infos.map(\.author.name) == ["Victor Hugo", "Herman Melville", "Victor Hugo", "Victor Hugo"])
            // The same, with a cursor of records.
            let cursor = try BookInfo.fetchCursor(db, request)
            var names: [String] = []
            while let info = try cursor.next() { names.append(info.author.name) }
            #expect(names == infos.map(\.author.name))
        }
    }

    @Test(arguments: WriterKind.allCases)
    func includingOptional(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var author: Person?
        }
        try writer.read { db throws -> Void in
            let request = Book.including(optional: Book.author).order(Book.Columns.id)
            #expect(try sql(db, request) == """
                SELECT "book".*, "person".* FROM "book" \
                LEFT JOIN "person" ON "person"."id" = "book"."authorId" \
                ORDER BY "book"."id"
                """)
            let infos = try BookInfo.fetchAll(db, request)
            #expect(infos.count == 5)
            #expect(infos[4].book.title == "Anonymous")
            #expect(infos[4].author == nil)
            #expect(infos[1].author?.name == "Herman Melville")
        }
    }

    @Test func joiningWithFilterAndParallelAssociations() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write(Self.setUp)
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var author: Person
            var translator: Person?
        }
        try dbQueue.read { db throws -> Void in
            let french = Book.joining(required: Book.author.filter { $0.countryCode == "FR" })
            #expect(try sql(db, french) == """
                SELECT "book".* FROM "book" \
                JOIN "person" ON ("person"."id" = "book"."authorId") AND ("person"."countryCode" = ?)
                """)
            #expect(try french.fetchAll(db).map(\.id).sorted() == [1, 3, 4])

            // Parallel associations to the same table get numbered names.
            let request = Book
                .including(required: Book.author)
                .including(optional: Book.translator)
                .order(Book.Columns.id)
            #expect(try sql(db, request) == """
                SELECT "book".*, "person1".*, "person2".* FROM "book" \
                JOIN "person" "person1" ON "person1"."id" = "book"."authorId" \
                LEFT JOIN "person" "person2" ON "person2"."id" = "book"."translatorId" \
                ORDER BY "book"."id"
                """)
            let infos = try BookInfo.fetchAll(db, request)
            #expect(infos.map(\.translator?.name) == [nil, "Jean Giono", nil, nil])
            #expect(infos.map(\.author.name) == ["Victor Hugo", "Herman Melville", "Victor Hugo", "Victor Hugo"])
        }
    }

    @Test func chainedAndThroughAssociations() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write(Self.setUp)
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var author: Person
            var country: Country?
        }
        struct BookCountry: Decodable, FetchableRecord {
            var book: Book
            var country: Country?
        }
        try dbQueue.read { db throws -> Void in
            let chained = Book
                .including(required: Book.author.including(optional: Person.country))
                .order(Book.Columns.id)
            #expect(try sql(db, chained) == """
                SELECT "book".*, "person".*, "country".* FROM "book" \
                JOIN "person" ON "person"."id" = "book"."authorId" \
                LEFT JOIN "country" ON "country"."code" = "person"."countryCode" \
                ORDER BY "book"."id"
                """)
            let infos = try BookInfo.fetchAll(db, chained)
            #expect(infos.map(\.country?.name) == ["France", "United States", "France", "France"])

            // joining skips the intermediate table, whose scope is empty.
            let skipping = Book
                .joining(optional: Book.author.including(optional: Person.country))
                .order(Book.Columns.id)
            #expect(try sql(db, skipping) == """
                SELECT "book".*, "country".* FROM "book" \
                LEFT JOIN "person" ON "person"."id" = "book"."authorId" \
                LEFT JOIN "country" ON "country"."code" = "person"."countryCode" \
                ORDER BY "book"."id"
                """)
            let through = Book.including(optional: Book.country).order(Book.Columns.id)
            #expect(try sql(db, through) == (try sql(db, skipping)))
            let countries = try BookCountry.fetchAll(db, through)
            #expect(countries.map(\.country?.code) == ["FR", "US", "FR", "FR", nil])
            let row = try Row.fetchOne(db, through)!
            #expect(row.scopes.names == ["author"])
            #expect(row.scopes["author"]!.unscoped == [:])
            #expect(row.scopes["author"]!.scopes["country"]! == ["code": "FR", "name": "France"])
        }
    }

    @Test func requiredBehindOptionalThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write(Self.setUp)
        try dbQueue.read { db throws -> Void in
            let request = Book.joining(optional: Book.author.including(required: Person.country))
            #expect {
                try request.fetchAll(db)
            } throws: { error in
                "\(error)".contains("not implemented: chaining a required association behind an optional association")
            }
        }
    }

    @Test func annotationsFollowTheOrderOfCalls() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write(Self.setUp)
        try dbQueue.read { db throws -> Void in
            let author = Book.author.select(Person.Columns.name.forKey("authorName"))
            let country = Book.country.select(Column("name").forKey("countryName"))
            // The country is joined through the author: annotating the
            // country first puts its column first.
            let countryFirst = Book
                .annotated(withOptional: country)
                .annotated(withRequired: author)
                .filter(Book.Columns.id == 2)
            let row1 = try #require(try Row.fetchOne(db, countryFirst))
            #expect(Array(row1.columnNames.suffix(2)) == ["countryName", "authorName"])
            let authorFirst = Book
                .annotated(withRequired: author)
                .annotated(withOptional: country)
                .filter(Book.Columns.id == 2)
            let row2 = try #require(try Row.fetchOne(db, authorFirst))
            #expect(Array(row2.columnNames.suffix(2)) == ["authorName", "countryName"])
            #expect(row1["authorName"] == row2["authorName"] as String?)
            #expect(row1["countryName"] == row2["countryName"] as String?)
        }
    }

    @Test func tableAliases() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write(Self.setUp)
        try dbQueue.read { db throws -> Void in
            let authorAlias = TableAlias<Person>()
            let posthumous = Book
                .joining(required: Book.author.aliased(authorAlias))
                .filter { $0.publishDate >= authorAlias.deathDate }
            #expect(try sql(db, posthumous) == """
                SELECT "book".* FROM "book" \
                JOIN "person" ON "person"."id" = "book"."authorId" \
                WHERE "book"."publishDate" >= "person"."deathDate"
                """)
            #expect(try posthumous.fetchAll(db).map(\.title) == ["Posthumous"])

            let ordered = Book
                .joining(required: Book.author.aliased(authorAlias))
                .order { [authorAlias.name, $0.publishDate] }
            #expect(try sql(db, ordered) == """
                SELECT "book".* FROM "book" \
                JOIN "person" ON "person"."id" = "book"."authorId" \
                ORDER BY "person"."name", "book"."publishDate"
                """)
            #expect(try ordered.fetchAll(db).map(\.id) == [2, 1, 3, 4])

            let bookAlias = TableAlias<Book>(name: "b")
            let namedAuthor = TableAlias<Person>(name: "a")
            let named = Book.aliased(bookAlias)
                .joining(required: Book.author.aliased(namedAuthor)
                    .filter(sql: "a.countryCode = ?", arguments: ["FR"]))
                .filter(sql: "b.publishDate >= a.deathDate")
            #expect(try sql(db, named) == """
                SELECT "b".* FROM "book" "b" \
                JOIN "person" "a" ON ("a"."id" = "b"."authorId") AND (a.countryCode = ?) \
                WHERE b.publishDate >= a.deathDate
                """)
            #expect(try named.fetchAll(db).map(\.id) == [4])

            // An alias without name, on a request of one table: columns
            // stay unqualified, as the table's do.
            let unnamed = TableAlias<Book>()
            let single = Book.aliased(unnamed).select(unnamed[Column("title")]).filter(unnamed.id == 1)
            #expect(try sql(db, single) == #"SELECT "title" FROM "book" WHERE "id" = ?"#)
            #expect(try String.fetchAll(db, single) == ["Les Misérables"])

            // Two aliases of one joined table: the one with a name names
            // the table, and the alias without name takes that name.
            let anonymousAuthor = TableAlias<Person>()
            let namedAuthor2 = TableAlias<Person>(name: "writer")
            let merged = Book
                .joining(required: Book.author.aliased(anonymousAuthor))
                .filter(anonymousAuthor.name != nil)
                .joining(optional: Book.author.aliased(namedAuthor2))
                .order(namedAuthor2.name)
            #expect(try sql(db, merged) == """
                SELECT "book".* FROM "book" \
                JOIN "person" "writer" ON "writer"."id" = "book"."authorId" \
                WHERE "writer"."name" IS NOT NULL \
                ORDER BY "writer"."name"
                """)
            #expect(try merged.fetchCount(db) == 4)
        }
    }

    // MARK: Foreign keys

    @Test func ambiguousForeignKeyThrows() throws {
        struct AmbiguousBook: TableRecord {
            static let databaseTableName = "book"
            static let author = belongsTo(Person.self)
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write(Self.setUp)
        try dbQueue.write { db throws -> Void in
            #expect {
                try Row.fetchAll(db, AmbiguousBook.including(required: AmbiguousBook.author))
            } throws: { error in
                let message = "\(error)"
                return message.contains("ambiguous foreign key from \"book\" to \"person\"")
                    && message.contains("[authorId]") && message.contains("[translatorId]")
                    && message.contains("ForeignKey")
            }
            try db.create(table: "loose") { t in t.column("personId", .integer) }
            struct Loose: TableRecord {
                static let person = belongsTo(Person.self)
            }
            #expect {
                try Row.fetchAll(db, Loose.including(required: Loose.person))
            } throws: { error in
                "\(error)".contains("could not infer the foreign key from \"loose\" to \"person\"")
            }
        }
    }

    // MARK: Requests for associated records

    @Test func requestForAssociatedRecords() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write(Self.setUp)
        try dbQueue.read { db throws -> Void in
            let hugo = try Person.fetchOne(db, key: 1)!
            #expect(try sql(db, hugo.writtenBooks) == #"SELECT * FROM "book" WHERE "authorId" = ?"#)
            #expect(try hugo.writtenBooks.order(Book.Columns.id).fetchAll(db).map(\.id) == [1, 3, 4])
            #expect(try hugo.writtenBooks.fetchCount(db) == 3)
            let book = try Book.fetchOne(db, key: 2)!
            #expect(try book.author.fetchOne(db)?.name == "Herman Melville")
            let anonymous = try Book.fetchOne(db, key: 5)!
            #expect(try sql(db, anonymous.author) == #"SELECT * FROM "person" WHERE 0"#)
            #expect(try anonymous.author.fetchOne(db) == nil)
        }
    }

    // MARK: Prefetching

    @Test(arguments: WriterKind.allCases)
    func includingAll(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        struct AuthorInfo: Decodable, FetchableRecord {
            var person: Person
            var writtenBooks: [Book]
            var translatedBooks: Set<Book>
        }
        try writer.read { db throws -> Void in
            let request = Person
                .including(all: Person.writtenBooks.order(Book.Columns.id).forKey("writtenBooks"))
                .including(all: Person.translatedBooks.forKey("translatedBooks"))
                .order(Person.Columns.id)
            // The schema is read once (foreign keys, columns).
            _ = try AuthorInfo.fetchAll(db, request)
            var infos: [AuthorInfo] = []
            let statements = try executedSQL(db) {
                infos = try AuthorInfo.fetchAll(db, request)
            }
            #expect(statements == [
                #"SELECT * FROM "person" ORDER BY "id""#,
                #"SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE "authorId" IN (1, 2, 3) ORDER BY "id""#,
                #"SELECT *, "translatorId" AS "grdb_translatorId" FROM "book" WHERE "translatorId" IN (1, 2, 3)"#,
            ])
            #expect(infos.map(\.person.name) == ["Victor Hugo", "Herman Melville", "Jean Giono"])
            #expect(infos.map { $0.writtenBooks.map(\.id) } == [[1, 3, 4], [2], []])
            #expect(infos.map { $0.translatedBooks.map(\.id) } == [[], [], [2]])

            // Rows show their prefetched rows.
            let row = try Row.fetchOne(db, request)!
            #expect(row.prefetchedRows.keys == ["writtenBooks", "translatedBooks"])
            #expect(row.prefetchedRows["writtenBooks"]!.count == 3)
            #expect(row.debugDescription == """
                ▿ [id:1 name:"Victor Hugo" countryCode:"FR" deathDate:"1885-05-22"]
                  + translatedBooks: 0 row
                  + writtenBooks: 3 rows
                """)

            // A cursor cannot prefetch.
            #expect {
                try Row.fetchCursor(db, request)
            } throws: { error in
                "\(error)".contains("a cursor cannot fetch the rows of a request that prefetches")
            }
        }
    }

    @Test func includingAllSingleColumnAndNested() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write(Self.setUp)
        struct CountryInfo: Decodable, FetchableRecord {
            struct AuthorInfo: Decodable {
                var person: Person
                var bookTitles: [String]
            }
            var country: Country
            var people: [AuthorInfo]
        }
        try dbQueue.read { db throws -> Void in
            let request = Country
                .including(all: Country.people
                    .order(Person.Columns.id)
                    .including(all: Person.writtenBooks
                        .select(Book.Columns.title)
                        .order(Book.Columns.title)
                        .forKey("bookTitles")))
                .order(Column("code"))
            let infos = try CountryInfo.fetchAll(db, request)
            #expect(infos.map(\.country.code) == ["FR", "US"])
            #expect(infos[0].people.map(\.person.name) == ["Victor Hugo"])
            #expect(infos[0].people[0].bookTitles == ["Les Misérables", "Posthumous", "Toilers of the Sea"])
            #expect(infos[1].people[0].bookTitles == ["Moby-Dick"])
        }
    }

    // MARK: Decoding

    @Test func decodingErrorsNameTheScopes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write(Self.setUp)
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var writer: Person
        }
        try dbQueue.read { db throws -> Void in
            let request = Book.including(required: Book.author)
            #expect {
                try BookInfo.fetchAll(db, request)
            } throws: { error in
                guard let error = error as? RowDecodingError else { return false }
                let message = "\(error)"
                return message.contains("writer") && message.contains("[author]") && message.contains("forKey")
            }
            // The row description shows the scopes.
            let row = try Row.fetchOne(db, request.order(Book.Columns.id))!
            #expect(row.debugDescription == """
                ▿ [id:1 authorId:1 translatorId:NULL title:"Les Misérables" publishDate:"1862-01-01"]
                  unadapted: [id:1 authorId:1 translatorId:NULL title:"Les Misérables" publishDate:"1862-01-01" \
                id:1 name:"Victor Hugo" countryCode:"FR" deathDate:"1885-05-22"]
                  - author: [id:1 name:"Victor Hugo" countryCode:"FR" deathDate:"1885-05-22"]
                """)
        }
    }

    @Test func fetchableRecordDecodesScopes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write(Self.setUp)
        struct AuthorInfo: FetchableRecord {
            var person: Person
            var country: Country?
            var books: [Book]
            init(row: Row) throws {
                person = try Person(row: row)
                country = try row.decodeIfPresent(forKey: "country")
                books = try row.decode(forKey: "books")
            }
        }
        try dbQueue.read { db throws -> Void in
            let request = Person
                .including(optional: Person.country)
                .including(all: Person.writtenBooks.forKey("books"))
                .order(Person.Columns.id)
            let infos = try AuthorInfo.fetchAll(db, request)
            #expect(infos.map(\.country?.name) == ["France", "United States", nil])
            #expect(infos.map(\.books.count) == [3, 1, 0])
        }
    }

    @Test func annotatedWithRequired() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write(Self.setUp)
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var authorName: String
        }
        try dbQueue.read { db throws -> Void in
            let request = Book
                .annotated(withRequired: Book.author.select { $0.name.forKey("authorName") })
                .order(Book.Columns.id)
            #expect(try sql(db, request) == """
                SELECT "book".*, "person"."name" AS "authorName" FROM "book" \
                JOIN "person" ON "person"."id" = "book"."authorId" \
                ORDER BY "book"."id"
                """)
            let infos = try BookInfo.fetchAll(db, request)
            #expect(infos.map(\.authorName) == ["Victor Hugo", "Herman Melville", "Victor Hugo", "Victor Hugo"])
        }
    }
}

extension AssociationGuideTests.Country {
    static let people = hasMany(AssociationGuideTests.Person.self)
}
