import Foundation
import Testing
import Cairn

/// How prefetched rows are stored and handed out: the values of one prefetch
/// query are kept together, records are decoded through views on them, and
/// rows that a record keeps, strongly or weakly, never change afterwards.
@Suite struct AssociationPrefetchStorageTests {
    struct Author: Codable, FetchableRecord, PersistableRecord {
        static let books = hasMany(Book.self)
        var id: Int64
        var name: String
    }

    struct Book: Codable, FetchableRecord, PersistableRecord, Hashable {
        var id: Int64
        var authorId: Int64
        var title: String
    }

    /// A book decoded with `init(row:)`, which keeps its row.
    struct RowKeepingBook: FetchableRecord {
        var id: Int64
        var title: String
        var row: Row
        var copiedRow: Row

        init(row: Row) throws {
            id = row["id"]
            title = row["title"]
            self.row = row
            copiedRow = row.copy()
        }
    }

    /// A book decoded with `init(row:)`, which keeps nothing of its row.
    struct PlainBook: FetchableRecord, Equatable {
        var id: Int64
        var title: String

        init(row: Row) throws {
            id = row["id"]
            title = row["title"]
        }
    }

    struct AuthorInfo<Child: FetchableRecord>: FetchableRecord {
        var author: Author
        var books: [Child]

        init(row: Row) throws {
            author = try Author(row: row)
            books = try row.decode(forKey: "books")
        }
    }

    struct DecodableAuthorInfo: Decodable, FetchableRecord {
        var author: Author
        var books: [Book]
    }

    /// Authors 1...authorCount, each with `booksPerAuthor` books whose ids
    /// interleave the authors (the books of one author are not contiguous).
    func makeWriter(
        _ kind: WriterKind,
        _ directory: TemporaryDirectory,
        authorIDs: [Int64],
        booksPerAuthor: Int) throws -> any DatabaseWriter
    {
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in
            try db.create(table: "author") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author").notNull()
                t.column("title", .text).notNull()
            }
            for id in authorIDs {
                try Author(id: id, name: "Author \(id)").insert(db)
            }
            var bookID: Int64 = 0
            for number in 0..<booksPerAuthor {
                for authorID in authorIDs {
                    bookID += 1
                    try Book(id: bookID, authorId: authorID, title: "Book \(authorID)-\(number)").insert(db)
                }
            }
        }
        return writer
    }

    /// The books of each author, read with SQL.
    func expectedBooks(_ db: Database) throws -> [Int64: [Book]] {
        let books = try Book.fetchAll(db, sql: "SELECT * FROM book ORDER BY id")
        return Dictionary(grouping: books, by: \.authorId)
    }

    @Test(arguments: WriterKind.allCases)
    func recordsDecodeFromManyRowsAcrossChunks(_ kind: WriterKind) throws {
        // 1,500 books of 4 columns (3 and the hidden key) span several
        // chunks of values.
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory, authorIDs: [1, 2, 3], booksPerAuthor: 500)
        try writer.read { db throws -> Void in
            let expected = try expectedBooks(db)
            let infos = try Author
                .including(all: Author.books.order(Column("id")))
                .order(Column("id"))
                .asRequest(of: AuthorInfo<PlainBook>.self)
                .fetchAll(db)
            #expect(infos.map(\.author.id) == [1, 2, 3])
            for info in infos {
                let books = try #require(expected[info.author.id])
                #expect(info.books.count == 500)
                #expect(info.books.map(\.id) == books.map(\.id))
                #expect(info.books.map(\.title) == books.map(\.title))
            }
        }
    }

    @Test(arguments: WriterKind.allCases)
    func rowsKeptByRecordsKeepTheirValues(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory, authorIDs: [1, 2], booksPerAuthor: 300)
        let infos = try writer.read { db in
            try Author
                .including(all: Author.books.order(Column("id")))
                .order(Column("id"))
                .asRequest(of: AuthorInfo<RowKeepingBook>.self)
                .fetchAll(db)
        }
        // Read after the access, and on another thread: each kept row and
        // its copy still hold the values of the record's own row.
        let books = infos.flatMap(\.books)
        #expect(books.count == 600)
        let mismatches = try DispatchQueue.global().sync {
            try books.indices.filter { index in
                let book = books[index]
                let id: Int64 = book.row["id"]
                let title: String = book.row["title"]
                let copiedTitle = try book.copiedRow.decode(String.self, forColumn: "title")
                return id != book.id || title != book.title || copiedTitle != book.title
            }
        }
        #expect(mismatches.isEmpty, "books whose kept row changed: \(mismatches.prefix(5))")
        #expect(books[0].row.columnNames == ["id", "authorId", "title", "grdb_authorId"])
        #expect(books[0].row == books[0].copiedRow)
    }

    /// A book that keeps a weak reference to its row.
    final class WeakRowBook: FetchableRecord, @unchecked Sendable {
        let id: Int64
        weak var row: Row?

        init(row: Row) throws {
            id = row["id"]
            self.row = row
        }
    }

    struct WeakRowAuthorInfo: FetchableRecord {
        var books: [WeakRowBook]
        /// The id of each book's row, read through the weak reference once
        /// all books are decoded.
        var idsSeenDuringDecoding: [Int64?]

        init(row: Row) throws {
            books = try row.decode(forKey: "books")
            idsSeenDuringDecoding = books.map { book in book.row.map { $0["id"] as Int64 } }
        }
    }

    @Test func rowsReferencedWeaklyAreNotReused() throws {
        // Weak and unowned references do not keep a row from being freed,
        // but a row never shows the values of another row.
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(.queue, directory, authorIDs: [1], booksPerAuthor: 300)
        try writer.read { db throws -> Void in
            let infos = try Author
                .including(all: Author.books.order(Column("id")))
                .asRequest(of: WeakRowAuthorInfo.self)
                .fetchAll(db)
            let info = try #require(infos.first)
            #expect(info.books.count == 300)
            for (book, seenID) in zip(info.books, info.idsSeenDuringDecoding) {
                // Either the row is gone, or it is the book's own row.
                #expect(seenID == nil || seenID == book.id)
            }
        }
    }

    @Test(arguments: WriterKind.allCases)
    func decodableRecordsAndRowsOfPrefetchedRows(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory, authorIDs: [1, 2, 3], booksPerAuthor: 400)
        try writer.read { db throws -> Void in
            let expected = try expectedBooks(db)
            let request = Author
                .including(all: Author.books.order(Column("id").desc))
                .order(Column("id"))
            let infos = try request.asRequest(of: DecodableAuthorInfo.self).fetchAll(db)
            for info in infos {
                #expect(info.books == expected[info.author.id]?.reversed())
            }
            // The rows themselves, kept beyond the records: equal rows, and
            // values that do not depend on the order in which they are read.
            let rows = try Row.fetchAll(db, request)
            let bookRows = try #require(rows.last?.prefetchedRows["books"])
            #expect(bookRows.count == 400)
            for (row, book) in zip(bookRows.reversed(), try #require(expected[3])) {
                #expect(row["id"] == book.id)
                #expect(row["title"] == book.title)
                #expect(row["grdb_authorId"] == 3)
            }
            let again = try Row.fetchAll(db, request)
            #expect(rows == again)
            #expect(bookRows[0] == again.last?.prefetchedRows["books"]?[0])
            #expect(bookRows[0] != bookRows[1])
        }
    }

    @Test(arguments: [
        // Dense ids (an array finds the slot of a key), ids far apart and
        // negative ones (a dictionary does).
        [Int64](1...5),
        [-3, 7, 1_000_000, Int64.max, Int64.min],
    ])
    func keysOfAnyRange(_ authorIDs: [Int64]) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(.queue, directory, authorIDs: authorIDs, booksPerAuthor: 3)
        try writer.read { db throws -> Void in
            let expected = try expectedBooks(db)
            let infos = try Author
                .including(all: Author.books.order(Column("id")))
                .asRequest(of: AuthorInfo<PlainBook>.self)
                .fetchAll(db)
            #expect(infos.count == authorIDs.count)
            for info in infos {
                #expect(info.books.map(\.id) == expected[info.author.id]?.map(\.id))
            }
        }
    }

    @Test func keysOfOtherStorageClassesMatchAsValuesDo() throws {
        // A child table without type affinity keeps the values it is given:
        // 2.0 (REAL) equals the integer key 2, '3' (TEXT) equals no
        // integer, and SQL's IN operator agrees.
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE author(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE note(id INTEGER PRIMARY KEY, authorId REFERENCES author(id));
                INSERT INTO author VALUES (1, 'a'), (2, 'b'), (3, 'c');
                INSERT INTO note VALUES (1, 1), (2, 2.0), (3, '3'), (4, 1);
                """)
        }
        struct Note: TableRecord {}
        struct Writer: TableRecord {
            static let databaseTableName = "author"
            static let notes = hasMany(Note.self)
        }
        let rows = try dbQueue.read { db in
            try Row.fetchAll(db, Writer.including(all: Writer.notes.order(Column("id"))).order(Column("id")))
        }
        let notes = rows.map { row in (row.prefetchedRows["notes"] ?? []).map { $0["id"] as Int64 } }
        #expect(notes == [[1, 4], [2], []])
    }
}
