import Foundation
import Testing
import Cairn

/// How `including(all:)` gives each fetched row its prefetched rows: rows
/// that share a key, NULL keys, keys that match nothing, composite keys,
/// and the decoding of prefetched rows into arrays and sets.
@Suite struct AssociationPrefetchGroupingTests {
    struct Book: Codable, FetchableRecord, PersistableRecord, Hashable {
        /// The books of the same author (the key of the parent row is not
        /// unique: several fetched books share it).
        static let sameAuthorBooks = hasMany(
            Book.self, key: "sameAuthorBooks",
            using: ForeignKey(["authorId"], to: ["authorId"]))
        var id: Int64
        var authorId: Int64?
        var title: String
    }

    struct BookInfo: FetchableRecord {
        var book: Book
        var sameAuthorBooks: [Book]
        var sameAuthorBookSet: Set<Book>

        init(row: Row) throws {
            book = try Book(row: row)
            sameAuthorBooks = try row.decode(forKey: "sameAuthorBooks")
            sameAuthorBookSet = try row.decode(Set<Book>.self, forKey: "sameAuthorBooks")
        }
    }

    struct Edition: Codable, FetchableRecord, PersistableRecord {
        static let printings = hasMany(
            Printing.self,
            using: ForeignKey(["bookId", "number"], to: ["bookId", "number"]))
        var bookId: Int64
        var number: Int64?
    }

    struct Printing: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var bookId: Int64
        var number: Int64
    }

    func makeWriter(_ kind: WriterKind, _ directory: TemporaryDirectory) throws -> any DatabaseWriter {
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("authorId", .integer)
                t.column("title", .text).notNull()
            }
            // Author 1 has three books, author 2 one, and book 5 has no
            // author (a NULL key matches nothing, not even other NULLs).
            try Book(id: 1, authorId: 1, title: "a").insert(db)
            try Book(id: 2, authorId: 2, title: "b").insert(db)
            try Book(id: 3, authorId: 1, title: "c").insert(db)
            try Book(id: 4, authorId: 1, title: "d").insert(db)
            try Book(id: 5, authorId: nil, title: "e").insert(db)
            try Book(id: 6, authorId: nil, title: "f").insert(db)

            try db.create(table: "edition") { t in
                t.column("bookId", .integer).notNull()
                t.column("number", .integer)
            }
            try db.create(table: "printing") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("bookId", .integer).notNull()
                t.column("number", .integer).notNull()
            }
            try Edition(bookId: 1, number: 1).insert(db)
            try Edition(bookId: 1, number: 2).insert(db)
            try Edition(bookId: 2, number: 1).insert(db)
            try Edition(bookId: 2, number: nil).insert(db)
            try Edition(bookId: 1, number: 1).insert(db)  // a repeated key
            try Printing(id: 1, bookId: 1, number: 1).insert(db)
            try Printing(id: 2, bookId: 1, number: 1).insert(db)
            try Printing(id: 3, bookId: 2, number: 1).insert(db)
            try Printing(id: 4, bookId: 3, number: 1).insert(db)  // no edition
        }
        return writer
    }

    @Test(arguments: WriterKind.allCases)
    func rowsThatShareAKeyShareTheirPrefetchedRows(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        try writer.read { db throws -> Void in
            let request = Book
                .including(all: Book.sameAuthorBooks.order(Column("id")))
                .order(Column("id"))
            let infos = try request.asRequest(of: BookInfo.self).fetchAll(db)
            let books = infos.map { info in info.sameAuthorBooks.map(\.id) }
            #expect(books == [[1, 3, 4], [2], [1, 3, 4], [1, 3, 4], [], []])
            #expect(infos.map(\.sameAuthorBookSet.count) == [3, 1, 3, 3, 0, 0])
            #expect(infos[0].sameAuthorBookSet == Set(infos[0].sameAuthorBooks))

            // The same rows, through Row.
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0.prefetchedRows["sameAuthorBooks"]?.count } == [3, 1, 3, 3, 0, 0])
            let first = try #require(rows.first?.prefetchedRows["sameAuthorBooks"]?.first)
            #expect(first["title"] == "a")
            #expect(first["grdb_authorId"] == 1)

            // fetchOne and fetchSet prefetch too.
            let one = try #require(try request.asRequest(of: BookInfo.self).fetchOne(db))
            #expect(one.sameAuthorBooks.map(\.id) == [1, 3, 4])
            let set = try Row.fetchSet(db, request)
            #expect(set.count == 6)
        }
    }

    @Test(arguments: WriterKind.allCases)
    func compositeKeysWithNullsAndRepeatedKeys(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        try writer.read { db throws -> Void in
            let rows = try Row.fetchAll(db, Edition
                .including(all: Edition.printings.order(Column("id")))
                .order(sql: "rowid"))
            let printings = rows.map { row in
                (row.prefetchedRows["printings"] ?? []).map { $0["id"] as Int64 }
            }
            #expect(printings == [[1, 2], [], [3], [], [1, 2]])
            let hidden = try #require(rows.first?.prefetchedRows["printings"]?.first)
            #expect(hidden["grdb_bookId"] == 1)
            #expect(hidden["grdb_number"] == 1)
        }
    }

    @Test func aParentColumnMissingFromTheSelectionThrows() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(.queue, directory)
        try writer.read { db throws -> Void in
            let request = Book
                .select(Column("id"))
                .including(all: Book.sameAuthorBooks)
            #expect {
                _ = try Row.fetchAll(db, request)
            } throws: { error in
                "\(error)".contains("needs the column \"authorId\" in the selection of the request")
            }
        }
    }
}
