import Foundation
import Cairn

// The Swift code of Sources/Cairn/Documentation.docc/Associations.md, block
// by block, so that it compiles and runs in the tests (ArticleTests checks
// that each block of the article is here, line after line, between its
// markers). Lines that are not in the article only wrap the blocks: a
// namespace for its types, functions for its statements, the use of values
// the article leaves unused, and, in the extensions of blocks 1 and 5,
// typealiases for the article's `Author` and `Book` (in an extension of a
// nested type, Swift does not see the types next to it).
enum AssociationsArticle { }

// Associations.md block 0
extension AssociationsArticle {
    static func createTables(_ db: Database) throws {
        try db.create(table: "author") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.column("country", .text)
        }
        try db.create(table: "book") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("author", onDelete: .cascade).notNull() // "authorId", indexed
            t.column("title", .text).notNull()
            t.column("year", .integer)
        }
    }

    struct Author: Codable, FetchableRecord, PersistableRecord {
        static let books = hasMany(Book.self)
        var id: Int64
        var name: String
        var country: String?
    }

    struct Book: Codable, FetchableRecord, PersistableRecord {
        static let author = belongsTo(Author.self)
        var id: Int64
        var authorId: Int64
        var title: String
        var year: Int?
    }
}
// end of Associations.md block 0

// Associations.md block 1
extension AssociationsArticle.Book {
    typealias Author = AssociationsArticle.Author  // the Author of the article
    static let translator = belongsTo(Author.self, key: "translator", using: ForeignKey(["translatorId"]))
}
// end of Associations.md block 1

// Associations.md block 2
extension AssociationsArticle {
    struct BookInfo: Decodable, FetchableRecord {
        var book: Book
        var author: Author
    }

    struct AuthorInfo: Decodable, FetchableRecord {
        var author: Author
        var books: [Book]
    }

    static func block2(_ dbQueue: DatabaseQueue) throws -> (bookInfos: [BookInfo], authorInfos: [AuthorInfo]) {
        var result: (bookInfos: [BookInfo], authorInfos: [AuthorInfo])?
        try dbQueue.read { db in
            // SELECT "book".*, "author".* FROM "book"
            // JOIN "author" ON "author"."id" = "book"."authorId"
            let bookInfos = try Book
                .including(required: Book.author)
                .asRequest(of: BookInfo.self)
                .fetchAll(db)

            // SELECT * FROM "author"
            // SELECT ... FROM "book" WHERE "authorId" IN (...)
            let authorInfos = try Author
                .including(all: Author.books)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            result = (bookInfos, authorInfos)
        }
        return result!
    }
}
// end of Associations.md block 2

// Associations.md block 3
extension AssociationsArticle {
    struct BookWithWriter: Decodable, FetchableRecord {
        var book: Book
        var writer: Author
    }

    static func block3() -> QueryInterfaceRequest<BookWithWriter> {
        let request = Book
            .including(required: Book.author.forKey("writer"))
            .asRequest(of: BookWithWriter.self)
        return request
    }
}
// end of Associations.md block 3

// Associations.md block 4
extension AssociationsArticle {
    static func block4(_ dbQueue: DatabaseQueue) throws -> (frenchBooks: [Book], authorInfos: [AuthorInfo]) {
        var result: (frenchBooks: [Book], authorInfos: [AuthorInfo])?
        try dbQueue.read { db in
            // Books of French authors, without fetching the authors:
            // SELECT "book".* FROM "book"
            // JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."country" = ?)
            let frenchBooks = try Book
                .joining(required: Book.author.filter(Column("country") == "FR"))
                .fetchAll(db)

            // Each author with their books, newest first:
            let authorInfos = try Author
                .including(all: Author.books.order(Column("year").desc))
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            result = (frenchBooks, authorInfos)
        }
        return result!
    }
}
// end of Associations.md block 4

// Associations.md block 5
extension AssociationsArticle.Author {
    typealias Author = AssociationsArticle.Author  // the Author and Book of the article
    typealias Book = AssociationsArticle.Book
    var books: QueryInterfaceRequest<Book> {
        request(for: Author.books)
    }
}

extension AssociationsArticle {
    static func block5(_ dbQueue: DatabaseQueue) throws -> [Book]? {
        var result: [Book]?
        try dbQueue.read { db in
            if let author = try Author.fetchOne(db, key: 1) {
                // SELECT * FROM "book" WHERE "authorId" = ? ORDER BY "year"
                let books = try author.books.order(Column("year")).fetchAll(db)
                result = books
            }
        }
        return result
    }
}
// end of Associations.md block 5

// Associations.md block 6
extension AssociationsArticle {
    struct AuthorStats: Decodable, FetchableRecord {
        var author: Author
        var bookCount: Int
        var maxBookYear: Int?
    }

    static func block6(_ dbQueue: DatabaseQueue) throws -> (stats: [AuthorStats], prolific: [Author]) {
        var result: (stats: [AuthorStats], prolific: [Author])?
        try dbQueue.read { db in
            // SELECT "author".*, COUNT(DISTINCT "book"."id") AS "bookCount",
            //        MAX("book"."year") AS "maxBookYear"
            // FROM "author" LEFT JOIN "book" ON "book"."authorId" = "author"."id"
            // GROUP BY "author"."id"
            let stats = try Author
                .annotated(with: Author.books.count, Author.books.max(Column("year")))
                .asRequest(of: AuthorStats.self)
                .fetchAll(db)

            // Authors of at least two books:
            let prolific = try Author.having(Author.books.count >= 2).fetchAll(db)
            result = (stats, prolific)
        }
        return result!
    }
}
// end of Associations.md block 6
