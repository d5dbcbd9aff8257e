import Foundation
import Testing
import Cairn

/// The date, data and UUID strategies of Codable records store and read
/// the values that GRDB 7.8's strategies store and read: the same numbers
/// (rounded down), the same text, the same keys in the SQL of requests.
@Suite struct GRDBFoundationStrategiesTests {
    // MARK: - Encoding dates

    struct Stamp: Encodable, EncodableRecord {
        nonisolated(unsafe) static var strategy = DatabaseDateEncodingStrategy.deferredToDate
        static var databaseDateEncodingStrategy: DatabaseDateEncodingStrategy { strategy }
        var at: Date
        var maybe: Date?
    }

    /// Dates before and after 1970 and 2001, with milliseconds.
    static let stamps = [
        Date(timeIntervalSince1970: -987654.321),
        Date(timeIntervalSince1970: 123456.789),
        Date(timeIntervalSinceReferenceDate: 0),
        Date(timeIntervalSinceReferenceDate: 123456.789),
    ]

    /// The value of both columns of a `Stamp` of each date, with a strategy.
    static func encoded(with strategy: DatabaseDateEncodingStrategy) throws -> [DatabaseValue] {
        // One strategy at a time: the tests of this suite that encode
        // stamps run one after the other (see `encodingLock`).
        Stamp.strategy = strategy
        return try stamps.map { date in
            let dictionary = try Stamp(at: date, maybe: date).databaseDictionary
            #expect(dictionary["at"] == dictionary["maybe"])
            #expect(try Stamp(at: date, maybe: nil).databaseDictionary["maybe"] == .null)
            return dictionary["at"]!
        }
    }

    static let encodingLock = NSLock()

    @Test func dateEncodingStrategies() throws {
        Self.encodingLock.lock()
        defer { Self.encodingLock.unlock() }

        #expect(try Self.encoded(with: .deferredToDate) == [
            "1969-12-20 13:39:05.679", "1970-01-02 10:17:36.789",
            "2001-01-01 00:00:00.000", "2001-01-02 10:17:36.789",
        ].map(\.databaseValue))
        #expect(try Self.encoded(with: .timeIntervalSinceReferenceDate) == [
            -979294854.321, -978183743.211, 0.0, 123456.789,
        ].map(\.databaseValue))
        #expect(try Self.encoded(with: .timeIntervalSince1970) == Self.stamps.map(\.timeIntervalSince1970.databaseValue))
        // Whole seconds and milliseconds are rounded down, before 1970 too.
        #expect(try Self.encoded(with: .secondsSince1970) == [
            -987655, 123456, 978307200, 978430656,
        ].map { Int64($0).databaseValue })
        #expect(try Self.encoded(with: .millisecondsSince1970) == [
            -987654321, 123456789, 978307200000, 978430656789,
        ].map { Int64($0).databaseValue })
        // ISO 8601 without fraction, in UTC.
        #expect(try Self.encoded(with: .iso8601) == [
            "1969-12-20T13:39:05Z", "1970-01-02T10:17:36Z",
            "2001-01-01T00:00:00Z", "2001-01-02T10:17:36Z",
        ].map(\.databaseValue))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)!
        formatter.dateFormat = "dd/MM/yyyy HH:mm"
        #expect(try Self.encoded(with: .formatted(formatter)) == [
            "20/12/1969 13:39", "02/01/1970 10:17", "01/01/2001 00:00", "02/01/2001 10:17",
        ].map(\.databaseValue))
        #expect(try Self.encoded(with: .custom { _ in "when" }) == Array(repeating: "when".databaseValue, count: 4))
        // A custom strategy that returns nil stores NULL.
        #expect(try Self.encoded(with: .custom { _ in nil }) == Array(repeating: DatabaseValue.null, count: 4))
    }

    // MARK: - Decoding dates

    struct Reading: Decodable, FetchableRecord {
        nonisolated(unsafe) static var strategy = DatabaseDateDecodingStrategy.deferredToDate
        static var databaseDateDecodingStrategy: DatabaseDateDecodingStrategy { strategy }
        var moment: Date
    }

    struct OptionalReading: Decodable, FetchableRecord {
        static var databaseDateDecodingStrategy: DatabaseDateDecodingStrategy { Reading.strategy }
        var moment: Date?
    }

    static let decodingLock = NSLock()

    /// The dates that both records read from `value`, straight from the
    /// statement and from a copied row; nil when a read throws.
    static func decoded(
        _ value: (any DatabaseValueConvertible)?,
        with strategy: DatabaseDateDecodingStrategy,
        in db: Database) throws -> [Date?]
    {
        Reading.strategy = strategy
        let request = SQLRequest<Row>(sql: "SELECT ? AS moment", arguments: [value])
        let row = try #require(try Row.fetchOne(db, request))
        return [
            (try? Reading.fetchOne(db, request))?.moment,
            (try? Reading(row: row))?.moment,
            (try? OptionalReading.fetchOne(db, request))?.moment,
            (try? OptionalReading(row: row))?.moment,
        ]
    }

    @Test func dateDecodingStrategies() throws {
        Self.decodingLock.lock()
        defer { Self.decodingLock.unlock() }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        func date(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0, ms: Int = 0) -> Date {
            calendar.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s))!
                .addingTimeInterval(Double(ms) / 1000)
        }

        try DatabaseQueue().read { db throws in
            // deferredToDate: SQLite's formats, with a space or a T, and
            // Unix timestamps.
            let readings: [(any DatabaseValueConvertible, Date)] = [
                ("2019-03-04", date(2019, 3, 4)),
                ("2019-03-04 05:06", date(2019, 3, 4, 5, 6)),
                ("2019-03-04 05:06:07", date(2019, 3, 4, 5, 6, 7)),
                ("2019-03-04 05:06:07.00891", date(2019, 3, 4, 5, 6, 7, ms: 8)),
                ("2019-03-04T05:06", date(2019, 3, 4, 5, 6)),
                ("2019-03-04T05:06:07", date(2019, 3, 4, 5, 6, 7)),
                ("2019-03-04T05:06:07.00891", date(2019, 3, 4, 5, 6, 7, ms: 8)),
                (1551675967, date(2019, 3, 4, 5, 6, 7)),
            ]
            for (value, expected) in readings {
                for decoded in try Self.decoded(value, with: .deferredToDate, in: db) {
                    let decoded = try #require(decoded, "\(value)")
                    #expect(abs(decoded.timeIntervalSince(expected)) < 1e-6, "\(value)")
                }
            }
            // Times without a date are not dates.
            #expect(try Self.decoded("05:06:07", with: .deferredToDate, in: db) == [nil, nil, nil, nil])

            // NULL is nil for optional dates, an error otherwise…
            for strategy in [DatabaseDateDecodingStrategy.deferredToDate, .timeIntervalSince1970, .iso8601] {
                let decoded = try Self.decoded(nil, with: strategy, in: db)
                #expect(decoded == [nil, nil, nil, nil], "\(decoded)")
            }
            // … unless a custom strategy of a non-optional date makes a
            // date of NULL.
            let fallback = Date(timeIntervalSinceReferenceDate: 7)
            let decoded = try Self.decoded(nil, with: .custom { _ in fallback }, in: db)
            #expect(decoded == [fallback, fallback, nil, nil])

            #expect(try Self.decoded(0, with: .timeIntervalSinceReferenceDate, in: db)
                    == Array(repeating: Date(timeIntervalSinceReferenceDate: 0), count: 4))
            #expect(try Self.decoded(654.321, with: .timeIntervalSinceReferenceDate, in: db)
                    == Array(repeating: Date(timeIntervalSinceReferenceDate: 654.321), count: 4))
            #expect(try Self.decoded(654.321, with: .timeIntervalSince1970, in: db)
                    == Array(repeating: Date(timeIntervalSince1970: 654.321), count: 4))
            #expect(try Self.decoded(654321, with: .millisecondsSince1970, in: db)
                    == Array(repeating: Date(timeIntervalSince1970: 654321.0 / 1000), count: 4))
            #expect(try Self.decoded(654321.987, with: .millisecondsSince1970, in: db)
                    == Array(repeating: Date(timeIntervalSince1970: 654321.987 / 1000), count: 4))
            #expect(try Self.decoded("2021-10-11T12:13:14Z", with: .iso8601, in: db)
                    == Array(repeating: date(2021, 10, 11, 12, 13, 14), count: 4))

            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(secondsFromGMT: 0)!
            formatter.dateFormat = "dd/MM/yyyy HH:mm"
            #expect(try Self.decoded("11/10/2021 12:13", with: .formatted(formatter), in: db)
                    == Array(repeating: date(2021, 10, 11, 12, 13), count: 4))
            // Text the formatter does not parse fails.
            #expect(try Self.decoded("2021-10-11", with: .formatted(formatter), in: db) == [nil, nil, nil, nil])

            let custom = DatabaseDateDecodingStrategy.custom { _ in Date(timeIntervalSinceReferenceDate: 42) }
            #expect(try Self.decoded("anything", with: custom, in: db)
                    == Array(repeating: Date(timeIntervalSinceReferenceDate: 42), count: 4))
        }
    }

    // MARK: - Data

    struct Payload: Codable, EncodableRecord, FetchableRecord, TableRecord {
        nonisolated(unsafe) static var encoding = DatabaseDataEncodingStrategy.deferredToData
        nonisolated(unsafe) static var decoding = DatabaseDataDecodingStrategy.deferredToData
        static let databaseTableName = "payload"
        static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy { encoding }
        static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy { decoding }
        var bytes: Data
        var other: Data?
    }

    static let dataLock = NSLock()

    @Test func dataEncodingStrategies() throws {
        Self.dataLock.lock()
        defer { Self.dataLock.unlock() }
        let bar = Data("bar".utf8)
        func stored(_ data: Data) throws -> [DatabaseValue] {
            let dictionary = try Payload(bytes: data, other: data).databaseDictionary
            #expect(try Payload(bytes: data, other: nil).databaseDictionary["other"] == .null)
            return [dictionary["bytes"]!, dictionary["other"]!]
        }
        Payload.encoding = .deferredToData
        #expect(try stored(bar) == [bar.databaseValue, bar.databaseValue])
        #expect(try stored(Data()) == [Data().databaseValue, Data().databaseValue])
        Payload.encoding = .text
        #expect(try stored(bar) == ["bar".databaseValue, "bar".databaseValue])
        #expect(try stored(Data()) == ["".databaseValue, "".databaseValue])
        Payload.encoding = .custom { _ in "custom" }
        #expect(try stored(bar) == ["custom".databaseValue, "custom".databaseValue])
        Payload.encoding = .deferredToData
    }

    @Test func dataDecodingStrategies() throws {
        Self.dataLock.lock()
        defer { Self.dataLock.unlock() }
        defer { Payload.decoding = .deferredToData }
        try DatabaseQueue().read { db throws in
            func decoded(_ value: any DatabaseValueConvertible) throws -> [Data?] {
                let request = SQLRequest<Row>(sql: "SELECT ? AS bytes, ? AS other", arguments: [value, value])
                let row = try #require(try Row.fetchOne(db, request))
                let fetched = try Payload.fetchOne(db, request)
                let copied = try Payload(row: row)
                return [fetched?.bytes, fetched?.other, copied.bytes, copied.other]
            }
            Payload.decoding = .deferredToData
            // Text reads as its UTF-8 bytes.
            #expect(try decoded("") == Array(repeating: Data(), count: 4))
            #expect(try decoded("bar") == Array(repeating: Data("bar".utf8), count: 4))
            #expect(try decoded(Data()) == Array(repeating: Data(), count: 4))
            #expect(try decoded(Data("bar".utf8)) == Array(repeating: Data("bar".utf8), count: 4))

            Payload.decoding = .custom { dbValue in
                dbValue == "refused".databaseValue ? nil : Data("baz".utf8)
            }
            #expect(try decoded("accepted") == Array(repeating: Data("baz".utf8), count: 4))
            // NULL does not reach the custom strategy of an optional.
            let request = SQLRequest<Row>(sql: "SELECT 'accepted' AS bytes, NULL AS other")
            #expect(try Payload.fetchOne(db, request)?.other == nil)
            // A nil of the strategy is an error that names the value.
            let refused = SQLRequest<Row>(sql: "SELECT ? AS bytes, NULL AS other", arguments: ["refused"])
            do {
                _ = try Payload.fetchOne(db, refused)
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.description.hasPrefix("""
                    could not decode Data from database value "refused" - column: "bytes", column index: 0, \
                    row: [bytes:"refused" other:NULL], sql: `SELECT ? AS bytes, NULL AS other`
                    """))
            }
        }
    }

    // MARK: - Keys of requests

    struct Document: Codable, EncodableRecord, FetchableRecord, TableRecord, Identifiable {
        nonisolated(unsafe) static var uuidStrategy = DatabaseUUIDEncodingStrategy.deferredToUUID
        nonisolated(unsafe) static var dataStrategy = DatabaseDataEncodingStrategy.deferredToData
        static let databaseTableName = "document"
        static var databaseUUIDEncodingStrategy: DatabaseUUIDEncodingStrategy { uuidStrategy }
        static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy { dataStrategy }
        var id: UUID
    }

    struct Blob: Codable, EncodableRecord, FetchableRecord, TableRecord, Identifiable {
        static let databaseTableName = "document"
        static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
            Document.dataStrategy
        }
        var id: Data
    }

    static let keyLock = NSLock()

    @Test func keysOfRequestsFollowTheStrategies() throws {
        Self.keyLock.lock()
        defer { Self.keyLock.unlock() }
        defer {
            Document.uuidStrategy = .deferredToUUID
            Document.dataStrategy = .deferredToData
        }
        let recorder = try GRDBSQLRecorder(schema: "CREATE TABLE document (id BLOB PRIMARY KEY)")
        let first = UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF")!
        let second = UUID(uuidString: "fedcba98-7654-3210-fedc-ba9876543210")!

        Document.uuidStrategy = .deferredToUUID
        #expect(try recorder.sql(of: Document.filter(key: first)) == """
            SELECT * FROM "document" WHERE "id" = x'00112233445566778899aabbccddeeff'
            """)
        #expect(try recorder.sql(of: Document.filter(ids: [first, second])) == """
            SELECT * FROM "document" WHERE "id" IN (x'00112233445566778899aabbccddeeff', x'fedcba9876543210fedcba9876543210')
            """)
        Document.uuidStrategy = .uppercaseString
        #expect(try recorder.sql(of: Document.filter(id: second)) == """
            SELECT * FROM "document" WHERE "id" = 'FEDCBA98-7654-3210-FEDC-BA9876543210'
            """)
        Document.uuidStrategy = .lowercaseString
        #expect(try recorder.sql(of: Document.filter(keys: [first, second])) == """
            SELECT * FROM "document" WHERE "id" IN ('00112233-4455-6677-8899-aabbccddeeff', 'fedcba98-7654-3210-fedc-ba9876543210')
            """)
        #expect(try recorder.lastSQL { db in try Document.deleteOne(db, id: first) } == """
            DELETE FROM "document" WHERE "id" = '00112233-4455-6677-8899-aabbccddeeff'
            """)

        Document.dataStrategy = .deferredToData
        #expect(try recorder.sql(of: Blob.filter(keys: [Data("qux".utf8), Data()])) == """
            SELECT * FROM "document" WHERE "id" IN (x'717578', x'')
            """)
        Document.dataStrategy = .text
        #expect(try recorder.sql(of: Blob.filter(ids: [Data("qux".utf8), Data()])) == """
            SELECT * FROM "document" WHERE "id" IN ('qux', '')
            """)
        #expect(try recorder.lastSQL { db in try Blob.deleteAll(db, ids: [Data("qux".utf8), Data()]) } == """
            DELETE FROM "document" WHERE "id" IN ('qux', '')
            """)
    }

    // MARK: - UUID

    struct Ticket: Encodable, EncodableRecord {
        nonisolated(unsafe) static var strategy = DatabaseUUIDEncodingStrategy.deferredToUUID
        static var databaseUUIDEncodingStrategy: DatabaseUUIDEncodingStrategy { strategy }
        var code: UUID
        var spare: UUID?
    }

    static let uuidLock = NSLock()

    @Test func uuidEncodingStrategies() throws {
        Self.uuidLock.lock()
        defer { Self.uuidLock.unlock() }
        defer { Ticket.strategy = .deferredToUUID }
        // The 16 bytes of "qrstuvwxyz012345".
        let uuid = UUID(uuidString: "71727374-7576-7778-797A-303132333435")!
        func stored() throws -> [DatabaseValue] {
            let dictionary = try Ticket(code: uuid, spare: uuid).databaseDictionary
            #expect(try Ticket(code: uuid, spare: nil).databaseDictionary["spare"] == .null)
            return [dictionary["code"]!, dictionary["spare"]!]
        }
        Ticket.strategy = .deferredToUUID
        #expect(try stored() == Array(repeating: Data("qrstuvwxyz012345".utf8).databaseValue, count: 2))
        Ticket.strategy = .uppercaseString
        #expect(try stored() == Array(repeating: "71727374-7576-7778-797A-303132333435".databaseValue, count: 2))
        Ticket.strategy = .lowercaseString
        #expect(try stored() == Array(repeating: "71727374-7576-7778-797a-303132333435".databaseValue, count: 2))
    }
}

/// How Codable records read the Foundation values of their columns, as in
/// GRDB 7.8: text that is no date fails even for an optional date, date
/// components and URLs read their text, JSON is read from text and blobs.
@Suite struct GRDBFoundationRecordColumnsTests {
    struct Event: Decodable, FetchableRecord {
        var when: Date?
    }

    @Test func anOptionalDateOfGarbageThrows() throws {
        try DatabaseQueue().read { db throws in
            #expect(try Event.fetchOne(db, sql: "SELECT NULL AS \"when\"")?.when == nil)
            #expect(throws: RowDecodingError.self) {
                _ = try Event.fetchOne(db, sql: "SELECT 'someday' AS \"when\"")
            }
            let row = try #require(try Row.fetchOne(db, sql: "SELECT '10:11' AS \"when\""))
            #expect(throws: RowDecodingError.self) {
                _ = try Event(row: row)
            }
        }
    }

    struct Cell: Decodable, FetchableRecord {
        var day: DatabaseDateComponents?
        var link: URL?
    }

    @Test func valuesOfFoundationTypesInRecords() throws {
        try DatabaseQueue().read { db throws in
            let cell = try #require(try Cell.fetchOne(
                db, sql: "SELECT '2012-12-21' AS day, 'https://example.org/x' AS link"))
            #expect(cell.day?.format == .YMD)
            #expect(cell.day?.dateComponents == DateComponents(year: 2012, month: 12, day: 21))
            #expect(cell.link == URL(string: "https://example.org/x"))
        }
    }

    struct Settings: Codable, Equatable {
        var volume: Int
        var label: String
    }

    struct Profile: Decodable, FetchableRecord {
        var settings: Settings
        var tags: [String]
    }

    @Test func jsonColumnsOfTextAndBlobs() throws {
        try DatabaseQueue().read { db throws in
            let json = #"{"label":"loud","volume":11}"#
            for settings in [json.databaseValue, Data(json.utf8).databaseValue] {
                let profile = try #require(try Profile.fetchOne(
                    db, sql: "SELECT ? AS settings, ? AS tags", arguments: [settings, #"["a","b"]"#]))
                #expect(profile.settings == Settings(volume: 11, label: "loud"))
                #expect(profile.tags == ["a", "b"])
            }
        }
    }
}
