import Foundation
import Testing
import Cairn

/// The column strategies of Codable records map keys and columns as in
/// GRDB 7.8, whose snake case conversions are Foundation's
/// (`JSONEncoder.KeyEncodingStrategy.convertToSnakeCase` and
/// `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase`).
@Suite struct GRDBCodingTests {
    struct Keys: Encodable, EncodableRecord {
        static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
        var id = 1
        var bookTitle = "a"
        var isbnID = "b"
        var myURLValue = "c"
        var URLValue = "d"
        var ID = "e"
        var point3D = "f"
        var a1B2c = "g"
        var _hiddenFlag = "h"
        var ABTest = "i"
    }

    @Test func snakeCaseColumnsAreFoundationsOnes() throws {
        var container = PersistenceContainer()
        try Keys().encode(to: &container)
        #expect(container.columns == [
            "id", "book_title", "isbn_id", "my_url_value", "u_rl_value", "i_d", "point3_d", "a1_b_2c",
            "_hidden_flag", "a_b_test",
        ])
        // The same conversion as JSONEncoder.
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let json = try #require(String(data: try encoder.encode(Keys()), encoding: .utf8))
        for column in container.columns {
            #expect(json.contains("\"\(column)\""))
        }
    }

    struct Book: Decodable, FetchableRecord, Equatable {
        static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
        var id: Int
        var bookTitle: String
        var createdAt: String
        var pageCount: Int?
    }

    @Test func snakeCaseDecodingConvertsTheColumns() throws {
        try DatabaseQueue().read { db throws in
            // Columns already in camel case are their own keys.
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS id, 'Dune' AS book_title, 'today' AS createdAt, 412 AS PAGE_COUNT"))
            #expect(try Book(row: row) == Book(id: 1, bookTitle: "Dune", createdAt: "today", pageCount: 412))
            // Two columns for one key: the last one.
            let twice = try #require(try Row.fetchOne(db, sql: """
                SELECT 1 AS id, 'A' AS bookTitle, 'B' AS book_title, 'x' AS created_at
                """))
            #expect(try Book(row: twice) == Book(id: 1, bookTitle: "B", createdAt: "x", pageCount: nil))
            // Through a cursor, whose rows keep their decoding plan.
            let books = try Book.fetchAll(db, sql: """
                SELECT 1 AS id, 'A' AS book_title, 'x' AS createdAt UNION ALL SELECT 2, 'B', 'y'
                """)
            #expect(books.map(\.bookTitle) == ["A", "B"])
            #expect(books.map(\.createdAt) == ["x", "y"])
        }
    }

    struct Prefixed: Decodable, FetchableRecord, Equatable {
        static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.custom { column in
            AnyCodingKey(column.replacingOccurrences(of: "x_", with: "").replacingOccurrences(of: "y_", with: ""))
        }
        var name: String
    }

    struct AnyCodingKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    @Test func customDecodingReadsTheLastColumnOfAKey() throws {
        try DatabaseQueue().read { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'first' AS x_name, 'second' AS y_name"))
            #expect(try Prefixed(row: row) == Prefixed(name: "second"))
        }
    }
}

