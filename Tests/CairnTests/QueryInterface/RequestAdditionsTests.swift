import Foundation
import Testing
import Cairn

/// Adapted requests, full-text matching in associations, custom column
/// decoding, and coding of date components.
@Suite struct RequestAdditionsTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT);
                CREATE VIRTUAL TABLE bookFts USING fts4(content);
                INSERT INTO book VALUES (1, 'Moby-Dick'), (2, 'Swann');
                INSERT INTO bookFts (rowid, content) VALUES (1, 'whale sea'), (2, 'madeleine');
                """)
        }
    }

    struct Book: Codable, FetchableRecord, TableRecord {
        var id: Int64
        var title: String
        static let fullText = hasOne(BookFts.self, using: ForeignKey(["rowid"], to: ["id"]))
    }

    struct BookFts: TableRecord {
        static let databaseTableName = "bookFts"
    }

    @Test func adaptedRequests() throws {
        try dbQueue.read { db throws -> Void in
            let request = SQLRequest<Row>(sql: "SELECT 0 AS skipped, id, title FROM book ORDER BY id")
                .adapted { _ in SuffixRowAdapter(fromIndex: 1) }
            #expect(try request.fetchAll(db) == [["id": 1, "title": "Moby-Dick"], ["id": 2, "title": "Swann"]])
            #expect(try request.fetchCount(db) == 2)
            // Adapters chain: the second one sees the columns of the first.
            let chained = request.adapted { _ in ColumnMapping(["name": "title"]) }
            #expect(try chained.fetchOne(db) == ["name": "Moby-Dick"])
            #expect(try Book.fetchAll(db, Book.all().adapted { _ in ColumnMapping(["id": "id", "title": "title"]) }).count == 2)
        }
    }

    @Test func fullTextMatchingInAssociations() throws {
        try dbQueue.read { db throws -> Void in
            let request = Book.joining(required: Book.fullText.matching(try FTS3Pattern(rawPattern: "whale")))
            #expect(try request.fetchAll(db).map(\.title) == ["Moby-Dick"])
            let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
            #expect(statement.sql == #"SELECT "book".* FROM "book" JOIN "bookFts" ON ("bookFts"."rowid" = "book"."id") AND ("bookFts" MATCH ?)"#)
            // A nil pattern matches nothing.
            #expect(try Book.joining(required: Book.fullText.matching(FTS3Pattern(matchingAllTokensIn: ""))).fetchCount(db) == 0)
            #expect(try Book.all().filter(Column("id") > 0).all().fetchCount(db) == 2)
        }
    }

    struct PrefixedBook: Decodable, FetchableRecord {
        static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.custom { column in
            CodingKeys(stringValue: column.replacingOccurrences(of: "book_", with: "")) ?? CodingKeys.title
        }
        var id: Int64
        var title: String
        var subtitle: String?
    }

    @Test func customColumnDecodingMapsColumnsToKeys() throws {
        try dbQueue.read { db throws -> Void in
            let books = try PrefixedBook.fetchAll(db, sql: "SELECT id AS book_id, title AS book_title FROM book ORDER BY id")
            #expect(books.map(\.id) == [1, 2])
            #expect(books.map(\.title) == ["Moby-Dick", "Swann"])
            #expect(books.allSatisfy { $0.subtitle == nil })
            #expect(throws: RowDecodingError.self) { try PrefixedBook.fetchAll(db, sql: "SELECT id AS book_id FROM book") }
        }
    }

    @Test func dateComponentsAreCodable() throws {
        struct Event: Codable {
            var date: DatabaseDateComponents
        }
        let event = Event(date: DatabaseDateComponents(DateComponents(year: 2018, month: 12, day: 31), format: .YMD))
        let json = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
        #expect(json == #"{"date":"2018-12-31"}"#)
        let decoded = try JSONDecoder().decode(Event.self, from: Data(#"{"date":"2018-12-31 12:34"}"#.utf8))
        #expect(decoded.date.format == .YMD_HM)
        #expect(decoded.date.dateComponents.minute == 34)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Event.self, from: Data(#"{"date":"yesterday"}"#.utf8)) }
    }
}
