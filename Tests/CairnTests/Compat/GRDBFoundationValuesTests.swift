import Foundation
import Testing
import Cairn

/// Foundation values convert to and from database values as in GRDB 7.8:
/// the text of date components in each format, the strings that parse,
/// the dates that `Date` refuses, decimals, and the limits of integers
/// read from doubles.
@Suite struct GRDBFoundationValuesTests {
    // MARK: - DatabaseDateComponents

    /// Every component set, stored in each format, keeps the components
    /// of the format only.
    @Test func dateComponentsFormats() throws {
        let full = DateComponents(year: 1984, month: 11, day: 7, hour: 21, minute: 8, second: 45, nanosecond: 654_321_987)
        let expectations: [(DatabaseDateComponents.Format, String, DateComponents)] = [
            (.YMD, "1984-11-07", DateComponents(year: 1984, month: 11, day: 7)),
            (.YMD_HM, "1984-11-07 21:08", DateComponents(year: 1984, month: 11, day: 7, hour: 21, minute: 8)),
            (.YMD_HMS, "1984-11-07 21:08:45",
             DateComponents(year: 1984, month: 11, day: 7, hour: 21, minute: 8, second: 45)),
            (.YMD_HMSS, "1984-11-07 21:08:45.654",
             DateComponents(year: 1984, month: 11, day: 7, hour: 21, minute: 8, second: 45, nanosecond: 654_000_000)),
            (.HM, "21:08", DateComponents(hour: 21, minute: 8)),
            (.HMS, "21:08:45", DateComponents(hour: 21, minute: 8, second: 45)),
            (.HMSS, "21:08:45.654", DateComponents(hour: 21, minute: 8, second: 45, nanosecond: 654_000_000)),
        ]
        try DatabaseQueue().write { db throws in
            try db.execute(sql: "CREATE TABLE moments (id INTEGER PRIMARY KEY, value DATETIME NOT NULL)")
            for (format, text, components) in expectations {
                try db.execute(sql: "DELETE FROM moments")
                try db.execute(sql: "INSERT INTO moments (value) VALUES (?)",
                               arguments: [DatabaseDateComponents(full, format: format)])
                #expect(try String.fetchOne(db, sql: "SELECT value FROM moments") == text)
                let read = try #require(try DatabaseDateComponents.fetchOne(db, sql: "SELECT value FROM moments"))
                #expect(read.format == format)
                #expect(read.dateComponents == components, "\(format)")
            }
        }
    }

    /// Missing components are zero, or one for the month and day.
    @Test func emptyDateComponents() throws {
        let empty = DatabaseDateComponents(DateComponents(), format: .YMD_HMSS)
        #expect(empty.databaseValue == "0000-01-01 00:00:00.000".databaseValue)
        let read = try #require(DatabaseDateComponents.fromDatabaseValue(empty.databaseValue))
        #expect(read.format == .YMD_HMSS)
        #expect(read.dateComponents == DateComponents(year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0, nanosecond: 0))
    }

    /// Numbers are padded as `printf` pads them, the sign included.
    @Test func dateComponentsOfNegativeAndLargeNumbers() {
        #expect(DatabaseDateComponents(DateComponents(year: -7, month: 3, day: 4), format: .YMD).databaseValue
                == "-007-03-04".databaseValue)
        #expect(DatabaseDateComponents(DateComponents(year: 12345, month: 3, day: 4), format: .YMD).databaseValue
                == "12345-03-04".databaseValue)
        #expect(DatabaseDateComponents(DateComponents(hour: -1, minute: 5), format: .HM).databaseValue
                == "-1:05".databaseValue)
    }

    @Test func dateComponentsParsing() throws {
        let utc = TimeZone(secondsFromGMT: 0)
        let east = TimeZone(secondsFromGMT: 2 * 3600 + 30 * 60)
        let west = TimeZone(secondsFromGMT: -(2 * 3600 + 30 * 60))
        let cases: [(String, DatabaseDateComponents.Format, DateComponents)] = [
            ("0000-01-01", .YMD, DateComponents(year: 0, month: 1, day: 1)),
            ("2020-02-29", .YMD, DateComponents(year: 2020, month: 2, day: 29)),
            ("2020-02-29 13:14", .YMD_HM, DateComponents(year: 2020, month: 2, day: 29, hour: 13, minute: 14)),
            ("2020-02-29T13:14Z", .YMD_HM,
             DateComponents(timeZone: utc, year: 2020, month: 2, day: 29, hour: 13, minute: 14)),
            ("2020-02-29 13:14-00:00", .YMD_HM,
             DateComponents(timeZone: utc, year: 2020, month: 2, day: 29, hour: 13, minute: 14)),
            ("2020-02-29 13:14+02:30", .YMD_HM,
             DateComponents(timeZone: east, year: 2020, month: 2, day: 29, hour: 13, minute: 14)),
            ("2020-02-29 13:14:15", .YMD_HMS,
             DateComponents(year: 2020, month: 2, day: 29, hour: 13, minute: 14, second: 15)),
            ("2020-02-29T13:14:15.7", .YMD_HMSS,
             DateComponents(year: 2020, month: 2, day: 29, hour: 13, minute: 14, second: 15, nanosecond: 700_000_000)),
            ("2020-02-29T13:14:15.07Z", .YMD_HMSS,
             DateComponents(timeZone: utc, year: 2020, month: 2, day: 29, hour: 13, minute: 14, second: 15,
                            nanosecond: 70_000_000)),
            ("2020-02-29 13:14:15.007-02:30", .YMD_HMSS,
             DateComponents(timeZone: west, year: 2020, month: 2, day: 29, hour: 13, minute: 14, second: 15,
                            nanosecond: 7_000_000)),
            // Digits after the milliseconds are ignored.
            ("2020-02-29 13:14:15.987654", .YMD_HMSS,
             DateComponents(year: 2020, month: 2, day: 29, hour: 13, minute: 14, second: 15, nanosecond: 987_000_000)),
            ("2020-02-29 13:14:15.987654Z", .YMD_HMSS,
             DateComponents(timeZone: utc, year: 2020, month: 2, day: 29, hour: 13, minute: 14, second: 15,
                            nanosecond: 987_000_000)),
            ("13:14", .HM, DateComponents(hour: 13, minute: 14)),
            ("13:14+02:30", .HM, DateComponents(timeZone: east, hour: 13, minute: 14)),
            ("13:14:15", .HMS, DateComponents(hour: 13, minute: 14, second: 15)),
            ("13:14:15Z", .HMS, DateComponents(timeZone: utc, hour: 13, minute: 14, second: 15)),
            ("13:14:15.00", .HMSS, DateComponents(hour: 13, minute: 14, second: 15, nanosecond: 0)),
            ("13:14:15.987654-02:30", .HMSS,
             DateComponents(timeZone: west, hour: 13, minute: 14, second: 15, nanosecond: 987_000_000)),
        ]
        try DatabaseQueue().read { db throws in
            for (text, format, components) in cases {
                let converted = try #require(DatabaseDateComponents.fromDatabaseValue(text.databaseValue), "\(text)")
                #expect(converted.format == format, "\(text)")
                #expect(converted.dateComponents == components, "\(text)")
                let fetched = try #require(try DatabaseDateComponents.fetchOne(db, sql: "SELECT ?", arguments: [text]))
                #expect(fetched.format == format, "\(text)")
                #expect(fetched.dateComponents == components, "\(text)")
            }
            #expect(DatabaseDateComponents.fromDatabaseValue("tomorrow".databaseValue) == nil)
        }
    }

    /// The parser checks digits, not ranges: `24:00`, a leap second, a
    /// 13th month parse, and dates carry them over as Foundation's
    /// calendar does.
    @Test func componentsOutOfTheirRanges() throws {
        let endOfDay = try #require(DatabaseDateComponents.fromDatabaseValue("24:00".databaseValue))
        #expect(endOfDay.format == .HM)
        #expect(endOfDay.dateComponents == DateComponents(hour: 24, minute: 0))
        let leap = try #require(DatabaseDateComponents.fromDatabaseValue("2016-12-31 23:59:60".databaseValue))
        #expect(leap.format == .YMD_HMS)
        #expect(leap.dateComponents == DateComponents(year: 2016, month: 12, day: 31, hour: 23, minute: 59, second: 60))
        let month13 = try #require(DatabaseDateComponents.fromDatabaseValue("2001-13-01".databaseValue))
        #expect(month13.dateComponents == DateComponents(year: 2001, month: 13, day: 1))
        // An offset of any two digits parses.
        #expect(DatabaseDateComponents.fromDatabaseValue("12:00+20:00".databaseValue)?.format == .HM)
        // Z is uppercase.
        #expect(DatabaseDateComponents.fromDatabaseValue("12:00z".databaseValue) == nil)
        #expect(DatabaseDateComponents.fromDatabaseValue("2001-01-01 12:00:00z".databaseValue) == nil)

        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let cases: [(String, DateComponents, Date)] = [
            ("2001-13-01", DateComponents(year: 2001, month: 13, day: 1), Date(timeIntervalSince1970: 1_009_843_200)),
            ("2001-00-10", DateComponents(year: 2001, month: 0, day: 10), Date(timeIntervalSince1970: 976_406_400)),
            ("2001-03-00", DateComponents(year: 2001, month: 3, day: 0), Date(timeIntervalSince1970: 983_318_400)),
            ("2001-02-30", DateComponents(year: 2001, month: 2, day: 30), Date(timeIntervalSince1970: 983_491_200)),
            ("2001-01-01 24:00", DateComponents(year: 2001, month: 1, day: 1, hour: 24, minute: 0),
             Date(timeIntervalSince1970: 978_393_600)),
            ("2016-12-31 23:59:60", DateComponents(year: 2016, month: 12, day: 31, hour: 23, minute: 59, second: 60),
             Date(timeIntervalSince1970: 1_483_228_800)),
            ("2001-25-01 10:75", DateComponents(year: 2001, month: 25, day: 1, hour: 10, minute: 75),
             Date(timeIntervalSince1970: 1_041_419_700)),
        ]
        try DatabaseQueue().read { db throws in
            for (text, components, expected) in cases {
                #expect(calendar.date(from: components) == expected, "Foundation: \(text)")
                #expect(Date.fromDatabaseValue(text.databaseValue) == expected, "\(text)")
                #expect(try Date.fetchOne(db, sql: "SELECT ?", arguments: [text]) == expected, "\(text)")
            }
        }
    }

    @Test func dateComponentsInJSON() throws {
        struct Holder: Codable {
            var day: DatabaseDateComponents
        }
        let holder = Holder(day: DatabaseDateComponents(DateComponents(year: 2001, month: 2, day: 3), format: .YMD))
        #expect(String(decoding: try JSONEncoder().encode(holder), as: UTF8.self) == #"{"day":"2001-02-03"}"#)
        let decoded = try JSONDecoder().decode(Holder.self, from: Data(#"{"day":"2001-02-03 04:05"}"#.utf8))
        #expect(decoded.day.format == .YMD_HM)
        #expect(decoded.day.dateComponents == DateComponents(year: 2001, month: 2, day: 3, hour: 4, minute: 5))
    }

    // MARK: - Date

    @Test func datesOfText() throws {
        #expect(Date.fromDatabaseValue("yesterday".databaseValue) == nil)
        // Times without a date are not dates.
        #expect(Date.fromDatabaseValue("07:08".databaseValue) == nil)
        #expect(Date.fromDatabaseValue("07:08:09".databaseValue) == nil)
        #expect(Date.fromDatabaseValue("07:08:09.01234".databaseValue) == nil)

        // Dates are stored as text that sorts with CURRENT_TIMESTAMP.
        try DatabaseQueue().write { db throws in
            try db.execute(sql: "CREATE TABLE log (id INTEGER PRIMARY KEY, at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP)")
            try db.execute(sql: "INSERT INTO log (id, at) VALUES (1, ?)", arguments: [Date().addingTimeInterval(-2)])
            try db.execute(sql: "INSERT INTO log (id) VALUES (2)")
            try db.execute(sql: "INSERT INTO log (id, at) VALUES (3, ?)", arguments: [Date().addingTimeInterval(2)])
            #expect(try Int.fetchAll(db, sql: "SELECT id FROM log ORDER BY at") == [1, 2, 3])
        }
    }

    @Test func datesOfJulianDays() throws {
        // 2000-01-01 12:00:00 UTC is the Julian day 2451545.
        #expect(Date(julianDay: 2_451_545) == Date(timeIntervalSince1970: 946_728_000))
        #expect(Date(julianDay: .nan) == nil)
        #expect(Date(julianDay: 1e300) == nil)
        // The number is truncated to the millisecond, as SQLite and GRDB
        // compute it: the Julian day of a time is that exact time.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let date = try #require(Date(julianDay: 2_456_293.520833))
        #expect(calendar.dateComponents([.hour, .minute, .second], from: date) == DateComponents(hour: 0, minute: 29, second: 59))
        #expect(date == Date(timeIntervalSinceReferenceDate: 378_692_999.971))
        try DatabaseQueue().read { db throws in
            for text in ["2013-01-01 00:30:00", "1999-12-31 23:59:59.999", "1970-01-01 00:00:00.001", "2024-02-29 12:34:56.789"] {
                let julianDay = try #require(try Double.fetchOne(db, sql: "SELECT julianday(?)", arguments: [text]))
                #expect(Date(julianDay: julianDay) == Date.fromDatabaseValue(text.databaseValue), "\(text)")
            }
            // Before 1582-10-15, the day of SQLite's calendar is read in
            // Foundation's, as GRDB does (where dates are written too):
            // SQLite's 1000-01-01 is written back as 1000-01-01.
            let julianDay = try #require(try Double.fetchOne(db, sql: "SELECT julianday('1000-01-01 12:00')"))
            #expect(Date(julianDay: julianDay)?.databaseValue == "1000-01-01 12:00:00.000".databaseValue)
        }
    }

    // MARK: - Decimal

    @Test func decimalsAreStoredAsText() throws {
        for text in ["0", "0.5", "-7", "9223372036854775807", "-9223372036854775808", "18446744073709551615", "123.456"] {
            #expect(Decimal(string: text)!.databaseValue == text.databaseValue)
        }
        try DatabaseQueue().read { db throws in
            for value in [Decimal(Int32.min + 1), Decimal(Double(10000000.01)), Decimal(string: "3.14159")!] {
                #expect(try Decimal.fetchOne(db, sql: "SELECT ?", arguments: [value]) == value)
                #expect(Decimal.fromDatabaseValue(value.databaseValue) == value)
            }
        }
    }

    @Test func decimalsOfNumbersAndText() throws {
        try DatabaseQueue().read { db throws in
            let integers: [Int64] = [0, 1, -1, Int64.max, Int64.max - 1, Int64.min + 1, Int64.min]
            for integer in integers {
                #expect(Decimal.fromDatabaseValue(integer.databaseValue) == Decimal(integer))
                #expect(try Decimal.fetchOne(db, sql: "SELECT ?", arguments: [integer]) == Decimal(integer))
            }
            for double in [0, 0.25, 1, -1] {
                #expect(Decimal.fromDatabaseValue(double.databaseValue) == Decimal(double))
                #expect(try Decimal.fetchOne(db, sql: "SELECT ?", arguments: [double]) == Decimal(double))
            }
            for text in ["0", "0.25", "-1", "9223372036854775807", "-9223372036854775808", "18446744073709551615"] {
                #expect(Decimal.fromDatabaseValue(text.databaseValue) == Decimal(string: text))
                #expect(try Decimal.fetchOne(db, sql: "SELECT ?", arguments: [text]) == Decimal(string: text))
            }
        }
        #expect(Decimal.fromDatabaseValue(.null) == nil)
        #expect(Decimal.fromDatabaseValue("bar".databaseValue) == nil)
        #expect(Decimal.fromDatabaseValue(Data("12".utf8).databaseValue) == nil)
    }

    // MARK: - Integers of doubles

    @Test func integersOfDoublesAtTheLimits() {
        // The greatest double below 2^63, and 2^63.
        let belowInt64Max = Double(9223372036854775295 as Int64)
        let int64MaxPlusOne = Double(9223372036854775296 as Int64)
        #expect(Int64.fromDatabaseValue(belowInt64Max.databaseValue) == 9223372036854774784)
        #expect(Int64.fromDatabaseValue(int64MaxPlusOne.databaseValue) == nil)
        #expect(Int.fromDatabaseValue(belowInt64Max.databaseValue) == 9223372036854774784)
        #expect(Int.fromDatabaseValue(int64MaxPlusOne.databaseValue) == nil)
        #expect(Int64.fromDatabaseValue(Double(Int64.min).databaseValue) == Int64.min)
        #expect(Int64.fromDatabaseValue((-9.223372036854777e+18).databaseValue) == nil)
        #expect(Int.fromDatabaseValue(Double(Int64.min).databaseValue) == Int.min)
        #expect(Int.fromDatabaseValue((-9.223372036854777e+18).databaseValue) == nil)

        // Fractions are truncated, within the range of the type.
        #expect(Int32.fromDatabaseValue(2147483647.999999.databaseValue) == Int32.max)
        #expect(Int32.fromDatabaseValue(2147483648.0.databaseValue) == nil)
        #expect(Int32.fromDatabaseValue((-2147483648.999999).databaseValue) == Int32.min)
        #expect(Int32.fromDatabaseValue((-2147483649.0).databaseValue) == nil)
    }

    // MARK: - Errors

    enum Mood: String, DatabaseValueConvertible, Decodable {
        case calm
    }

    @Test func descriptionsOfConversionErrors() throws {
        try DatabaseQueue().read { db throws in
            // A value that does not convert.
            do {
                _ = try Mood.fetchAll(db, sql: "SELECT 'angry' AS mood")
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.description == """
                    could not decode \(Mood.self) from database value "angry" - \
                    column: "mood", column index: 0, row: [mood:"angry"], sql: `SELECT 'angry' AS mood`, arguments: []
                    """)
            }
            // An integer out of the range of the type.
            do {
                _ = try Int8.fetchOne(db, sql: "SELECT 300 AS level")
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.description == """
                    could not decode Int8 from database value 300 - \
                    column: "level", column index: 0, row: [level:300], sql: `SELECT 300 AS level`, arguments: []
                    """)
            }
            // NULL for a non-optional.
            let row = try #require(try Row.fetchOne(db, sql: "SELECT NULL AS name, 'x' AS team"))
            do {
                _ = try row.decode(String.self, forColumn: "name")
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.description == """
                    could not decode String from database value NULL - \
                    column: "name", column index: 0, row: [name:NULL team:"x"]
                    """)
            }
            // A missing column.
            do {
                _ = try row.decode(String.self, forColumn: "missing")
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.description == """
                    column not found: "missing" - row: [name:NULL team:"x"]
                    """)
            }
        }
    }

    // MARK: - Data, UUID, URL, NSNull

    @Test func conversionsOfDataUUIDAndURL() throws {
        let number = Int64(7).databaseValue
        let real = 2.5.databaseValue
        // Data: blobs, and the bytes of text.
        #expect(Data.fromDatabaseValue("bytes".databaseValue) == Data("bytes".utf8))
        #expect(Data.fromDatabaseValue(Data().databaseValue) == Data())
        for value in [DatabaseValue.null, number, real] {
            #expect(Data.fromDatabaseValue(value) == nil)
        }
        // UUID: 16 bytes, or text with hyphens.
        let uuid = UUID(uuidString: "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")!
        #expect(UUID.fromDatabaseValue(uuid.databaseValue) == uuid)
        #expect(UUID.fromDatabaseValue("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0".databaseValue) == uuid)
        for value in [DatabaseValue.null, number, real, Data("short".utf8).databaseValue] {
            #expect(UUID.fromDatabaseValue(value) == nil)
        }
        // URL: its absolute string.
        for url in [URL(string: "https://example.org/a/b?c=d#e")!, URL(fileURLWithPath: "/tmp/some file")] {
            #expect(url.databaseValue == url.absoluteString.databaseValue)
            #expect(URL.fromDatabaseValue(url.databaseValue) == url)
        }
        for value in [DatabaseValue.null, number, real] {
            #expect(URL.fromDatabaseValue(value) == nil)
        }
        // NSNull is NULL.
        #expect(NSNull().databaseValue == .null)
        try DatabaseQueue().read { db throws in
            #expect(try Data.fetchOne(db, sql: "SELECT ?", arguments: [Data("round".utf8)]) == Data("round".utf8))
            #expect(try Data.fetchOne(db, sql: "SELECT ?", arguments: [Data()]) == Data())
            #expect(try UUID.fetchOne(db, sql: "SELECT ?", arguments: [uuid]) == uuid)
            #expect(try Bool.fetchOne(db, sql: "SELECT ? IS NULL", arguments: [NSNull()]) == true)
        }
    }

    // MARK: - Codable values

    struct Stamp: Encodable, DatabaseValueConvertible {
        var date: Date
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(date)
        }
        static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Stamp? { nil }
    }

    struct Link: Encodable, DatabaseValueConvertible {
        var url: URL
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(url)
        }
        static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Link? { nil }
    }

    struct Serial: Encodable, DatabaseValueConvertible {
        var uuid: UUID
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(uuid)
        }
        static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Serial? { nil }
    }

    struct Wrapped: RawRepresentable, Encodable, DatabaseValueConvertible {
        var rawValue: Date
    }

    struct Shouted: Decodable, DatabaseValueConvertible {
        var text: String
        var databaseValue: DatabaseValue { text.databaseValue }
        static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Shouted? {
            String.fromDatabaseValue(dbValue).map { Shouted(text: $0.uppercased()) }
        }
    }

    /// A single value encodes as the database value of its Foundation
    /// value, not as what `Encodable` gives (a `Date` encodes a number).
    @Test func codableValuesUseDatabaseConversions() throws {
        let date = Date(timeIntervalSinceReferenceDate: 86_400.5)
        #expect(Stamp(date: date).databaseValue == "2001-01-02 00:00:00.500".databaseValue)
        #expect(Wrapped(rawValue: date).databaseValue == "2001-01-02 00:00:00.500".databaseValue)
        #expect(Link(url: URL(string: "https://example.org")!).databaseValue == "https://example.org".databaseValue)
        let uuid = UUID(uuidString: "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")!
        #expect(Serial(uuid: uuid).databaseValue == uuid.databaseValue)
        // A custom conversion wins over Decodable.
        try DatabaseQueue().read { db throws in
            #expect(try Shouted.fetchOne(db, sql: "SELECT 'quiet'")?.text == "QUIET")
        }
    }

    // MARK: - DatabaseValue

    @Test func equalityOfDatabaseValues() {
        let twoTo53 = Int64(1) << 53
        #expect(1.databaseValue == 1.0.databaseValue)
        #expect(1.databaseValue != 1.5.databaseValue)
        #expect(1.databaseValue != "1".databaseValue)
        #expect(1.0.databaseValue != "1.0".databaseValue)
        #expect((twoTo53 + 1).databaseValue != Double(twoTo53 + 1).databaseValue)
        #expect((twoTo53 << 1).databaseValue == Double(twoTo53 << 1).databaseValue)
        #expect(Int64.max.databaseValue != Double(Int64.max).databaseValue)
        #expect("abc".databaseValue != Data("abc".utf8).databaseValue)
        #expect(DatabaseValue.null == DatabaseValue.null)
        #expect(DatabaseValue.null != 0.databaseValue)
        #expect(1.databaseValue.hashValue == 1.0.databaseValue.hashValue)
        #expect(Data("abc".utf8).databaseValue.hashValue == Data("abc".utf8).databaseValue.hashValue)
    }
}
