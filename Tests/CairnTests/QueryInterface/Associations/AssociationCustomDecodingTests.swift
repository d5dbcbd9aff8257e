import Foundation
import Testing
import Cairn

/// Hand-written `init(from:)` of records of joined requests: the keys of
/// scopes and prefetched rows are present, and nil only for a missing
/// optional record.
@Suite struct AssociationCustomDecodingTests {
    struct Author: Codable, FetchableRecord, PersistableRecord {
        static let books = hasMany(Book.self)
        var id: Int64
        var name: String
    }

    struct Book: Codable, FetchableRecord, PersistableRecord {
        static let author = belongsTo(Author.self)
        var id: Int64
        var authorId: Int64?
        var title: String
    }

    struct AuthorInfo: Decodable, FetchableRecord {
        var author: Author
        var books: [Book]
        enum CodingKeys: CodingKey { case author, books }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // The row of the author is the row itself.
            author = try Author(from: decoder)
            #expect(container.contains(.books))
            #expect(try !container.decodeNil(forKey: .books))
            books = try container.decode([Book].self, forKey: .books)
        }
    }

    struct BookInfo: Decodable, FetchableRecord {
        var title: String
        var author: Author?
        enum CodingKeys: CodingKey { case title, author }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = try container.decode(String.self, forKey: .title)
            #expect(container.contains(.author))
            author = try container.decodeNil(forKey: .author) ? nil : container.decode(Author.self, forKey: .author)
        }
    }

    @Test func keysOfScopesAndPrefetchedRows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws -> Void in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author")
                t.column("title", .text).notNull()
            }
            try Author(id: 1, name: "Herman").insert(db)
            try Book(id: 1, authorId: 1, title: "Moby-Dick").insert(db)
            try Book(id: 2, authorId: nil, title: "Anonymous").insert(db)

            let authors = try Author.including(all: Author.books).asRequest(of: AuthorInfo.self).fetchAll(db)
            #expect(authors.map(\.books.count) == [1])

            let books = try Book.including(optional: Book.author).order(Column("id")).asRequest(of: BookInfo.self).fetchAll(db)
            #expect(books.map(\.author?.name) == ["Herman", nil])
        }
    }
}
