import Foundation
import Testing
import Cairn

/// Text of DatabaseDateComponents, read and written as GRDB 7.8 does. The
/// expected values come from the manifest of the GRDB 7.8.0 values fixture
/// (`grdb-7.8.0-values.json`), probe by probe as named in the comments.
@Suite struct DatabaseDateComponentsTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
    }

    /// The components read from a text, through the column (fetchOne) and
    /// through the database value; both must agree.
    func parse(_ text: String) throws -> DatabaseDateComponents? {
        let fromValue = DatabaseDateComponents.fromDatabaseValue(text.databaseValue)
        let fromColumn = try dbQueue.inDatabase { db throws -> DatabaseDateComponents? in
            do {
                return try DatabaseDateComponents.fetchOne(db, sql: "SELECT ?", arguments: [text])
            } catch is RowDecodingError {
                return nil
            }
        }
        #expect(fromValue == fromColumn)
        return fromColumn
    }

    static func components(
        hour: Int? = nil, minute: Int? = nil, second: Int? = nil, nanosecond: Int? = nil) -> DateComponents
    {
        var components = DateComponents()
        components.year = 2024
        components.month = 3
        components.day = 5
        components.hour = hour
        components.minute = minute
        components.second = second
        components.nanosecond = nanosecond
        return components
    }

    // MARK: - Parsing

    @Test func fractionsAreReadToTheMillisecond() throws {
        // Manifest dateComponents.sql.micros: '2024-03-05 06:07:08.123456'
        // gives ns=123000000.
        let micros = try #require(try parse("2024-03-05 06:07:08.123456"))
        #expect(micros.format == .YMD_HMSS)
        #expect(micros.dateComponents == Self.components(hour: 6, minute: 7, second: 8, nanosecond: 123_000_000))

        // Further digits are ignored, not rounded, with or without a time zone.
        #expect(try parse("2018-04-21T23:59:59.999123")?.dateComponents.nanosecond == 999_000_000)
        let zoned = try #require(try parse("2018-04-21T23:59:59.999999Z"))
        #expect(zoned.dateComponents.nanosecond == 999_000_000)
        #expect(zoned.dateComponents.timeZone == TimeZone(secondsFromGMT: 0))
        #expect(try parse("23:59:59.0009+01:15")?.dateComponents.nanosecond == 0)
        #expect(try parse("23:59:59.0009+01:15")?.dateComponents.timeZone == TimeZone(secondsFromGMT: 4500))

        // One or two digits are tenths and hundredths.
        #expect(try parse("00:00:00.5")?.dateComponents.nanosecond == 500_000_000)
        #expect(try parse("00:00:00.05")?.dateComponents.nanosecond == 50_000_000)
        #expect(try parse("00:00:00.005")?.dateComponents.nanosecond == 5_000_000)

        // Manifest dateComponents.arg.fractionRoundsUp: the text
        // '2024-03-05 06:07:08.1000' that GRDB wrote reads as ns=100000000.
        #expect(try parse("2024-03-05 06:07:08.1000")?.dateComponents.nanosecond == 100_000_000)
    }

    @Test func formatsOfTheFixture() throws {
        // Manifest dateComponents.sql.isoZ
        let isoZ = try #require(try parse("2024-03-05T06:07:08.123Z"))
        #expect(isoZ.format == .YMD_HMSS)
        var expected = Self.components(hour: 6, minute: 7, second: 8, nanosecond: 123_000_000)
        expected.timeZone = TimeZone(secondsFromGMT: 0)
        #expect(isoZ.dateComponents == expected)

        // Manifest dateComponents.sql.isoOffset: tz=5400s, no nanoseconds.
        let isoOffset = try #require(try parse("2024-03-05T06:07:08+01:30"))
        #expect(isoOffset.format == .YMD_HMS)
        #expect(isoOffset.dateComponents.nanosecond == nil)
        #expect(isoOffset.dateComponents.timeZone?.secondsFromGMT() == 5400)

        // Manifest dateComponents.sql.timeOnly
        let time = try #require(try parse("06:07:08"))
        #expect(time.format == .HMS)
        #expect(time.dateComponents.year == nil && time.dateComponents.hour == 6 && time.dateComponents.second == 8)
    }

    @Test func textThatIsNotDateComponents() throws {
        // Manifest dateComponents.sql.unixText, .julianText, .garbage,
        // .unixInteger and .julianReal: the read throws.
        for text in ["1700000000", "2460374.75", "not a date", "2024-03-05 06:07:08.", "06:07:08.x"] {
            #expect(try parse(text) == nil, "\(text)")
        }
        try dbQueue.inDatabase { db throws in
            #expect(throws: RowDecodingError.self) { try DatabaseDateComponents.fetchOne(db, sql: "SELECT 1700000000") }
            #expect(throws: RowDecodingError.self) { try DatabaseDateComponents.fetchOne(db, sql: "SELECT 2460374.75") }
            #expect(throws: RowDecodingError.self) { try DatabaseDateComponents.fetchOne(db, sql: "SELECT 'not a date'") }
        }
    }

    // MARK: - Writing

    @Test func millisecondsAreRoundedToTheNearest() {
        func text(nanosecond: Int) -> DatabaseValue {
            DatabaseDateComponents(
                Self.components(hour: 6, minute: 7, second: 8, nanosecond: nanosecond), format: .YMD_HMSS).databaseValue
        }
        // Manifest dateComponents.arg.YMD_HMSS: 123.6 ms is written .124.
        #expect(text(nanosecond: 123_600_000) == "2024-03-05 06:07:08.124".databaseValue)
        #expect(text(nanosecond: 123_499_999) == "2024-03-05 06:07:08.123".databaseValue)
        #expect(text(nanosecond: 0) == "2024-03-05 06:07:08.000".databaseValue)
        // Manifest dateComponents.arg.fractionRoundsUp: GRDB writes .1000
        // for 999.6 ms (read back as 100 ms); Cairn keeps .999.
        #expect(text(nanosecond: 999_600_000) == "2024-03-05 06:07:08.999".databaseValue)
        // Other formats have no fraction.
        let noFraction = DatabaseDateComponents(
            Self.components(hour: 6, minute: 7, second: 8, nanosecond: 999_600_000), format: .YMD_HMS)
        #expect(noFraction.databaseValue == "2024-03-05 06:07:08".databaseValue)
    }
}
