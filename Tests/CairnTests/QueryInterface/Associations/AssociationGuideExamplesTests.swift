import Foundation
import Testing
import Cairn

/// More examples of the associations guide, written as the guide writes
/// them: partial records, key paths, hierarchical records, DerivableRequest
/// extensions, has-many-through prefetches.
@Suite struct AssociationGuideExamplesTests {
    enum BookKind: String, Codable, DatabaseValueConvertible {
        case novel, poems, play
    }

    struct Author: Codable, Identifiable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
        var country: String

        enum Columns {
            static let id = Column(CodingKeys.id)
            static let name = Column(CodingKeys.name)
            static let country = Column(CodingKeys.country)
        }
    }

    struct Book: Codable, Identifiable, FetchableRecord, PersistableRecord {
        var id: Int64
        var authorId: Int64?
        var title: String
        var kind: BookKind
        var year: Int
        var publishDate: String

        enum Columns {
            static let id = Column(CodingKeys.id)
            static let authorId = Column(CodingKeys.authorId)
            static let title = Column(CodingKeys.title)
            static let kind = Column(CodingKeys.kind)
            static let year = Column(CodingKeys.year)
            static let publishDate = Column(CodingKeys.publishDate)
        }
    }

    struct Country: Codable, FetchableRecord, PersistableRecord {
        static let passports = hasMany(Passport.self)
        static let citizens = hasMany(Citizen.self, through: passports, using: Passport.citizen)
        var code: String
    }

    struct Passport: Codable, FetchableRecord, PersistableRecord {
        static let country = belongsTo(Country.self)
        static let citizen = belongsTo(Citizen.self)
        var countryCode: String
        var citizenId: Int64
    }

    struct Citizen: Codable, FetchableRecord, PersistableRecord, Hashable {
        static let passports = hasMany(Passport.self)
        static let countries = hasMany(Country.self, through: passports, using: Passport.country)
        var id: Int64
        var name: String
    }

    func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("country", .text).notNull()
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author", onDelete: .cascade)
                t.column("title", .text).notNull()
                t.column("kind", .text).notNull()
                t.column("year", .integer).notNull()
                t.column("publishDate", .text).notNull()
            }
            try Author(id: 1, name: "Victor Hugo", country: "France").insert(db)
            try Author(id: 2, name: "William Shakespeare", country: "England").insert(db)
            try Book(id: 1, authorId: 1, title: "Les Misérables", kind: .novel, year: 1862, publishDate: "1862-04-03").insert(db)
            try Book(id: 2, authorId: 1, title: "Les Contemplations", kind: .poems, year: 1856, publishDate: "1856-04-23").insert(db)
            try Book(id: 3, authorId: 2, title: "Hamlet", kind: .play, year: 1603, publishDate: "1603-01-01").insert(db)
            try Book(id: 4, authorId: 1, title: "Notre-Dame de Paris", kind: .novel, year: 1831, publishDate: "1831-03-16").insert(db)

            try db.create(table: "country") { t in t.primaryKey("code", .text) }
            try db.create(table: "citizen") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.create(table: "passport") { t in
                t.belongsTo("country").notNull()
                t.belongsTo("citizen").notNull()
                t.primaryKey(["countryCode", "citizenId"])
            }
            try Country(code: "FR").insert(db)
            try Country(code: "US").insert(db)
            try Citizen(id: 1, name: "Arthur").insert(db)
            try Citizen(id: 2, name: "Barbara").insert(db)
            try Passport(countryCode: "FR", citizenId: 1).insert(db)
            try Passport(countryCode: "US", citizenId: 1).insert(db)
            try Passport(countryCode: "US", citizenId: 2).insert(db)
        }
        return dbQueue
    }

    @Test func requestsForAssociatedRecords() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            let author = try Author.find(db, id: 1)
            let novels = try author
                .books
                .filter { $0.kind == BookKind.novel }
                .order(\.publishDate.desc)
                .fetchAll(db)
            #expect(novels.map(\.title) == ["Les Misérables", "Notre-Dame de Paris"])
            let book = try Book.find(db, id: 3)
            #expect(try book.author.fetchOne(db)?.name == "William Shakespeare")
            #expect(try author.books.fetchCount(db) == 3)
            let maxBookYear = try Int.fetchOne(db, author.books.select { max($0.year) })
            #expect(maxBookYear == 1862)
        }
    }

    @Test func partialRecordsAndKeyPaths() throws {
        struct BookInfo: Decodable, FetchableRecord {
            struct PartialAuthor: Decodable {
                var name: String
                var country: String
            }
            var book: Book
            var author: PartialAuthor
        }
        struct BookCountry: Decodable, FetchableRecord {
            var book: Book
            var country: String
        }
        struct AuthorInfo: Decodable, FetchableRecord {
            var author: Author
            var bookTitles: [String]
        }
        struct KindInfo: Decodable, FetchableRecord {
            struct BookKindInfo: Decodable {
                var kind: BookKind
                var maxYear: Int
            }
            var author: Author
            var bookKindInfos: [BookKindInfo]
        }
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            let infos = try Book
                .including(required: Book.author.select { [$0.name, $0.country] })
                .order(\.id)
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.author.country) == ["France", "France", "England", "France"])

            let countries = try Book
                .annotated(withRequired: Book.author.select(\.country))
                .order(\.id)
                .asRequest(of: BookCountry.self)
                .fetchAll(db)
            #expect(countries.map(\.country) == ["France", "France", "England", "France"])

            let titles = try Author
                .including(all: Author.books
                    .select(\.title)
                    .order(\.title)
                    .forKey("bookTitles"))
                .order(\.id)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            #expect(titles.map(\.bookTitles) == [["Les Contemplations", "Les Misérables", "Notre-Dame de Paris"], ["Hamlet"]])

            let bookKindInfos = Author.books
                .select { [$0.kind, max($0.year).forKey("maxYear")] }
                .group(\.kind)
                .order(\.kind)
                .forKey("bookKindInfos")
            let kinds = try Author
                .including(all: bookKindInfos)
                .order(\.id)
                .asRequest(of: KindInfo.self)
                .fetchAll(db)
            #expect(kinds[0].bookKindInfos.map(\.kind) == [.novel, .poems])
            #expect(kinds[0].bookKindInfos.map(\.maxYear) == [1862, 1856])
            #expect(kinds[1].bookKindInfos.map(\.maxYear) == [1603])
        }
    }

    @Test func hierarchicalRecords() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            let infos = try HierarchicalBookInfo.all().order(sql: "book.id").fetchAll(db)
            #expect(infos.map(\.authorInfo.person.name) == ["Victor Hugo", "Victor Hugo", "William Shakespeare", "Victor Hugo"])
            #expect(infos.map(\.authorInfo.books.count) == [3, 3, 1, 3])
        }
    }

    @Test func fluentRefinements() throws {
        struct BookInfo: FetchableRecord, Decodable {
            var book: Book
            var author: Author
        }
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            let request = Book.all()
                .filter(authorCountry: "France")
                .orderedByAuthorNameAndYear()
                .including(required: Book.author)
                .asRequest(of: BookInfo.self)
            let sql = try request.makePreparedRequest(db, forSingleResult: false).statement.sql
            #expect(sql == """
                SELECT "book".*, "author".* FROM "book" \
                JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."country" = ?) \
                ORDER BY "author"."name" COLLATE swiftLocalizedCaseInsensitiveCompare, "book"."year"
                """)
            let infos = try request.fetchAll(db)
            #expect(infos.map(\.book.year) == [1831, 1856, 1862])
            let sorted = try Author.all().orderedByName().fetchAll(db)
            #expect(sorted.map(\.name) == ["Victor Hugo", "William Shakespeare"])
        }
    }

    @Test func hasManyThroughPrefetch() throws {
        struct CountryInfo: Decodable, FetchableRecord {
            var country: Country
            var citizens: [Citizen]
            var passports: [Passport]
        }
        struct CitizenInfo: Decodable, FetchableRecord {
            var citizen: Citizen
            var countries: [Country]
        }
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            let request = Country
                .including(all: Country.citizens.order(Column("id")))
                .including(all: Country.passports)
                .order(Column("code"))
            let infos = try CountryInfo.fetchAll(db, request)
            #expect(infos.map { $0.citizens.map(\.name) } == [["Arthur"], ["Arthur", "Barbara"]])
            #expect(infos.map(\.passports.count) == [1, 2])
            let citizens = try Citizen.including(all: Citizen.countries.order(Column("code"))).order(Column("id"))
                .asRequest(of: CitizenInfo.self).fetchAll(db)
            #expect(citizens.map { $0.countries.map(\.code) } == [["FR", "US"], ["US"]])
            // Joined through the pivot.
            let french = try Citizen.joining(required: Citizen.countries.filter(Column("code") == "FR")).fetchAll(db)
            #expect(french.map(\.name) == ["Arthur"])
        }
    }
}

extension AssociationGuideExamplesTests.Author {
    static let books = hasMany(AssociationGuideExamplesTests.Book.self)
    var books: QueryInterfaceRequest<AssociationGuideExamplesTests.Book> {
        request(for: Self.books)
    }
}

extension AssociationGuideExamplesTests.Book {
    static let author = belongsTo(AssociationGuideExamplesTests.Author.self)
    var author: QueryInterfaceRequest<AssociationGuideExamplesTests.Author> {
        request(for: Self.author)
    }
}

/// The guide's hierarchical record, whose association keys come from its
/// coding keys.
struct HierarchicalBookInfo: FetchableRecord, Decodable {
    typealias Book = AssociationGuideExamplesTests.Book
    typealias Author = AssociationGuideExamplesTests.Author
    struct PersonInfo: Decodable {
        var person: Author
        var books: [Book]
    }
    var book: Book
    var authorInfo: PersonInfo

    static func all() -> QueryInterfaceRequest<HierarchicalBookInfo> {
        Book
            .including(required: Book.author
                .forKey(CodingKeys.authorInfo)
                .including(all: Author.books))
            .asRequest(of: HierarchicalBookInfo.self)
    }
}

extension DerivableRequest<AssociationGuideExamplesTests.Author> {
    /// Filters authors by country.
    func filter(country: String) -> Self {
        filter { $0.country == country }
    }

    /// Sorts authors by name.
    func orderedByName() -> Self {
        order { $0.name.collating(.localizedCaseInsensitiveCompare) }
    }
}

extension DerivableRequest<AssociationGuideExamplesTests.Book> {
    /// Filters books by the country of their author.
    func filter(authorCountry: String) -> Self {
        joining(required: AssociationGuideExamplesTests.Book.author.filter(country: authorCountry))
    }

    /// Sorts books by author name, then year.
    func orderedByAuthorNameAndYear() -> Self {
        let authorAlias = TableAlias<AssociationGuideExamplesTests.Author>()
        return self
            .joining(optional: AssociationGuideExamplesTests.Book.author.aliased(authorAlias))
            .order { [
                authorAlias.name.collating(.localizedCaseInsensitiveCompare),
                $0.year,
            ] }
    }
}
