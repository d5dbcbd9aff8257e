import Foundation
import Testing
import Cairn

/// `withStableOrder()` orders the rows that `including(all:)` prefetches,
/// as GRDB does: libraries that snapshot query results depend on it.
@Suite struct GRDBStableOrderTests {
    struct Author: TableRecord, FetchableRecord, Decodable {
        static let books = hasMany(Book.self)
        static let bookTags = hasMany(Tag.self, through: books, using: Book.tags)
        var id: Int64
    }
    struct Book: TableRecord, FetchableRecord, Decodable {
        static let tags = hasMany(Tag.self)
        var id: Int64
        var authorId: Int64
        var title: String
    }
    struct Tag: TableRecord, FetchableRecord, Decodable {
        var id: Int64
        var bookId: Int64
    }

    func makeQueue() throws -> (DatabaseQueue, Locked<[String]>) {
        let statements = Locked<[String]>([])
        var config = Configuration()
        config.prepareDatabase { db throws in
            db.trace { event in statements.withLock { $0.append(event.description) } }
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT);
                CREATE TABLE tag (id INTEGER PRIMARY KEY, bookId INTEGER REFERENCES book(id));
                INSERT INTO author VALUES (1), (2);
                INSERT INTO book VALUES (3, 1, 'b'), (1, 2, 'a'), (2, 1, 'b');
                INSERT INTO tag VALUES (5, 3), (4, 2), (6, 1);
                """)
        }
        statements.withLock { $0.removeAll() }
        return (dbQueue, statements)
    }

    @Test func prefetchedRowsAreOrderedByPrimaryKey() throws {
        let (dbQueue, statements) = try makeQueue()
        let rows = try dbQueue.read { db in
            try Row.fetchAll(db, Author.including(all: Author.books).withStableOrder())
        }
        let selects = statements.withLock { $0 }.filter { $0.hasPrefix("SELECT") }
        #expect(selects.contains(#"SELECT * FROM "author" ORDER BY "id""#))
        #expect(selects.last == #"SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE "authorId" IN (?, ?) ORDER BY "id""#)
        #expect(rows[0].prefetchedRows["books"]?.map { $0["id"] as Int64 } == [2, 3])
    }

    @Test func prefetchedRowsKeepTheirOrderingFirst() throws {
        let (dbQueue, statements) = try makeQueue()
        let request = Author
            .including(all: Author.books.order(Column("title").desc))
            .including(all: Author.bookTags)
            .withStableOrder()
        let rows = try dbQueue.read { db in try Row.fetchAll(db, request) }
        let selects = statements.withLock { $0 }.filter { $0.hasPrefix("SELECT") }
        #expect(selects.contains { $0.hasSuffix(#"ORDER BY "title" DESC, "id""#) })
        #expect(rows[0].prefetchedRows["books"]?.map { $0["id"] as Int64 } == [2, 3])
        #expect(rows[0].prefetchedRows["tags"]?.map { $0["id"] as Int64 } == [4, 5])
    }

    @Test func associationsAddedAfterwardKeepTheirOwnOrder() throws {
        let (dbQueue, statements) = try makeQueue()
        _ = try dbQueue.read { db in
            try Row.fetchAll(db, Author.all().withStableOrder().including(all: Author.books))
        }
        let selects = statements.withLock { $0 }.filter { $0.hasPrefix("SELECT") }
        #expect(selects.last?.contains("ORDER BY") == false)
    }
}
