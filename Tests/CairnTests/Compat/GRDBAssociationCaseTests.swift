import Foundation
import Testing
import Cairn

/// SQLite compares identifiers without case: associations find their
/// columns whatever the case their foreign keys and the schema spell them
/// with, as GRDB does.
@Suite struct GRDBAssociationCaseTests {
    struct Author: TableRecord, FetchableRecord, Decodable {
        static let databaseTableName = "Author"
        static let books = hasMany(Book.self, using: ForeignKey(["AUTHORID"]))
        var ID: Int64
    }
    struct Book: TableRecord, FetchableRecord, Decodable {
        static let databaseTableName = "book"
        static let author = belongsTo(Author.self, using: ForeignKey(["AuthorID"], to: ["id"]))
        var id: Int64
        var authorId: Int64
    }
    struct AuthorInfo: FetchableRecord, Decodable {
        var author: Author
        var books: [Book]
    }

    func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE author (ID INTEGER PRIMARY KEY);
                CREATE TABLE BOOK (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES AUTHOR(Id));
                INSERT INTO author VALUES (1), (2);
                INSERT INTO book VALUES (1, 1), (2, 1), (3, 2);
                """)
        }
        return dbQueue
    }

    @Test func prefetchMatchesColumnsWhateverTheirCase() throws {
        let dbQueue = try makeQueue()
        let infos = try dbQueue.read { db in
            try AuthorInfo.fetchAll(db, Author.including(all: Author.books).order(Column("id")))
        }
        #expect(infos.map(\.author.ID) == [1, 2])
        #expect(infos.map { $0.books.map(\.id) } == [[1, 2], [3]])
    }
}
