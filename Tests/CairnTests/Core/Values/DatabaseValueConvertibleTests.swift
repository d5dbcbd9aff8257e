import Foundation
import Testing
import Cairn

/// Round trips and conversion rules of the built-in value types.
@Suite struct DatabaseValueConvertibleTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
    }

    /// Stores `value`, then reads it back through both paths: DatabaseValue
    /// (copied row) and direct column reads (cursor row).
    func roundTrip<T: DatabaseValueConvertible>(_ value: T) throws -> T? {
        try dbQueue.inDatabase { db throws in
            let fromValue = try T.fetchOne(db, sql: "SELECT ?", arguments: [value])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT ? AS value", arguments: [value]))
            let fromRow: T? = row["value"]
            #expect(fromValue.map(\.databaseValue) == fromRow.map(\.databaseValue))
            return fromValue
        }
    }

    @Test func integers() throws {
        #expect(try roundTrip(Int.max) == Int.max)
        #expect(try roundTrip(Int.min) == Int.min)
        #expect(try roundTrip(Int8.min) == Int8.min)
        #expect(try roundTrip(Int16.max) == Int16.max)
        #expect(try roundTrip(Int32.min) == Int32.min)
        #expect(try roundTrip(Int64.max) == Int64.max)
        #expect(try roundTrip(UInt8.max) == UInt8.max)
        #expect(try roundTrip(UInt16.max) == UInt16.max)
        #expect(try roundTrip(UInt32.max) == UInt32.max)
        #expect(try roundTrip(UInt64(Int64.max)) == UInt64(Int64.max))
        #expect(try roundTrip(UInt(42)) == 42)
    }

    @Test func outOfRangeIntegersThrow() throws {
        try dbQueue.inDatabase { db throws in
            #expect {
                try UInt8.fetchOne(db, sql: "SELECT 256")
            } throws: { error in
                String(describing: error).hasPrefix("could not decode UInt8 from database value 256")
            }
            #expect(throws: RowDecodingError.self) { try Int8.fetchAll(db, sql: "SELECT -129") }
            #expect(throws: RowDecodingError.self) { try UInt.fetchOne(db, sql: "SELECT -1") }
            #expect(throws: RowDecodingError.self) { try Int32.fetchOne(db, sql: "SELECT 1e20") }
            #expect(throws: RowDecodingError.self) { try Int.fetchOne(db, sql: "SELECT 'abc'") }
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 256 AS value"))
            #expect(throws: RowDecodingError.self) { try row.decode(UInt8.self, forColumn: "value") }
            #expect(try row.decode(UInt16.self, forColumn: "value") == 256)
            // Reals are truncated toward zero, as CAST does.
            #expect(try Int.fetchOne(db, sql: "SELECT 3.7") == 3)
            #expect(try Int.fetchOne(db, sql: "SELECT -3.7") == -3)
        }
    }

    @Test func nullIntoNonOptionalThrows() throws {
        try dbQueue.inDatabase { db throws in
            #expect {
                try Int.fetchAll(db, sql: "SELECT 1 UNION ALL SELECT NULL")
            } throws: { error in
                guard case .valueMismatch(let type, let context) = error as? RowDecodingError else { return false }
                return type == "Int" && context.columnIndex == 0
                    && String(describing: error).contains("could not decode Int from database value NULL")
            }
            #expect(try Int?.fetchAll(db, sql: "SELECT 1 UNION ALL SELECT NULL") == [1, nil])
            // fetchOne returns nil for NULL.
            #expect(try Int.fetchOne(db, sql: "SELECT NULL") == nil)
            #expect(try Int.fetchOne(db, sql: "SELECT 1 WHERE 0") == nil)
            #expect(try String.fetchSet(db, sql: "SELECT 'a' UNION ALL SELECT 'a' UNION ALL SELECT 'b'") == ["a", "b"])
        }
    }

    @Test func boolDoubleFloatString() throws {
        #expect(try roundTrip(true) == true)
        #expect(try roundTrip(false) == false)
        #expect(try roundTrip(3.25) == 3.25)
        #expect(try roundTrip(Float(1.5)) == 1.5)
        #expect(try roundTrip("") == "")
        #expect(try roundTrip("Hello 🌍 wörld\u{0}nul") == "Hello 🌍 wörld\u{0}nul")
        try dbQueue.inDatabase { db throws in
            #expect(try Bool.fetchOne(db, sql: "SELECT 2") == true)
            #expect(try Double.fetchOne(db, sql: "SELECT 2") == 2.0)
            // A number read as String is spelled as SQLite's CAST would spell it.
            #expect(try String.fetchOne(db, sql: "SELECT 1") == "1")
            #expect(throws: RowDecodingError.self) { try String.fetchOne(db, sql: "SELECT x'00ff'") }
            #expect(throws: RowDecodingError.self) { try Double.fetchOne(db, sql: "SELECT 'x'") }
        }
    }

    @Test func invalidUTF8Throws() throws {
        try dbQueue.inDatabase { db throws in
            #expect {
                try String.fetchOne(db, sql: "SELECT CAST(x'C328' AS TEXT)")
            } throws: { error in
                String(describing: error).contains("not valid UTF-8")
            }
            let row = try #require(try Row.fetchOne(db, sql: "SELECT CAST(x'C328' AS TEXT) AS t"))
            #expect(throws: RowDecodingError.self) { try row.decode(String.self, forColumn: "t") }
            // The bytes are kept.
            #expect(row["t"] as Data == Data([0xC3, 0x28]))
            let cursor = try Row.fetchCursor(db, sql: "SELECT CAST(x'C328' AS TEXT) AS t")
            let cursorRow = try #require(try cursor.next())
            #expect {
                try cursorRow.decode(String.self, atIndex: 0)
            } throws: { error in
                String(describing: error).contains("not valid UTF-8")
            }
        }
    }

    @Test func data() throws {
        #expect(try roundTrip(Data([0, 1, 2, 255])) == Data([0, 1, 2, 255]))
        #expect(try roundTrip(Data()) == Data())
        try dbQueue.inDatabase { db throws in
            #expect(try Data.fetchOne(db, sql: "SELECT 'abc'") == Data("abc".utf8))
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT ?", arguments: [Data([1])]) == DatabaseValue(storage: .blob(Data([1]))))
        }
    }

    @Test func datesAreStoredAsUTCText() throws {
        try dbQueue.inDatabase { db throws in
            // Whole milliseconds since 2001, the interval a Date stores,
            // read back equal (the text holds milliseconds).
            let date = Date(timeIntervalSinceReferenceDate: 21_692_800.123)
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [date]) == "2001-09-09 01:46:40.123")
            #expect(try Date.fetchOne(db, sql: "SELECT ?", arguments: [date]) == date)
            // SQLite's date functions understand the format.
            #expect(try String.fetchOne(db, sql: "SELECT date(?)", arguments: [date]) == "2001-09-09")
            let old = Date(timeIntervalSince1970: -1_000_000_000.5)
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [old]) == "1938-04-24 22:13:19.500")
            #expect(try Date.fetchOne(db, sql: "SELECT ?", arguments: [old]) == old)
            // Out of the format's years: stored as a timestamp.
            let far = Date(timeIntervalSince1970: 1e13)
            #expect(try Date.fetchOne(db, sql: "SELECT ?", arguments: [far]) == far)
        }
    }

    @Test(arguments: [
        ("2001-09-09", 999_993_600.0),
        ("2001-09-09 01:46", 1_000_000_000.0 - 40),
        ("2001-09-09 01:46:40", 1_000_000_000.0),
        ("2001-09-09T01:46:40.5", 1_000_000_000.5),
        ("2001-09-09 01:46:40.123", 1_000_000_000.123),
        ("2001-09-09 03:46:40+02:00", 1_000_000_000.0),
        ("2001-09-09 01:46:40Z", 1_000_000_000.0),
    ])
    func dateFormats(text: String, timestamp: Double) throws {
        try dbQueue.inDatabase { db throws in
            let date = try #require(try Date.fetchOne(db, sql: "SELECT ?", arguments: [text]))
            #expect(abs(date.timeIntervalSince1970 - timestamp) < 1e-6)
            // Same as SQLite's reading of the format:
            let sqlite = try Double.fetchOne(db, sql: "SELECT unixepoch(?, 'subsec')", arguments: [text])
            #expect(abs((sqlite ?? .nan) - timestamp) < 1e-3)
        }
    }

    @Test func datesUseTheCalendarOfFoundation() throws {
        // GRDB writes dates with a DateFormatter: the Julian calendar before
        // 1582-10-15. Cairn writes and reads the same text.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        try dbQueue.inDatabase { db throws in
            for text in ["0001-01-03 00:00:00.000", "0100-02-29 12:00:00.000", "1000-06-15 01:02:03.250",
                         "1582-10-04 23:59:59.500", "1582-10-15 00:00:00.000", "1600-02-29 00:00:00.000",
                         "1900-03-01 00:00:00.000", "2024-02-29 06:07:08.750"] {
                // Fractions that are exact in binary: the formatter parses
                // other ones with float noise.
                let date = try #require(formatter.date(from: text))
                #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [date]) == text)
                #expect(try Date.fetchOne(db, sql: "SELECT ?", arguments: [text]) == date)
            }
            // 1582-10-04 (Julian) is the day before 1582-10-15 (Gregorian).
            let before = try #require(try Date.fetchOne(db, sql: "SELECT '1582-10-04'"))
            let after = try #require(try Date.fetchOne(db, sql: "SELECT '1582-10-15'"))
            #expect(after.timeIntervalSince(before) == 86_400)
        }
    }

    @Test func datesToTheMillisecond() throws {
        try dbQueue.inDatabase { db throws in
            // Digits after the milliseconds are ignored, as the stored
            // format has milliseconds.
            let date = try #require(try Date.fetchOne(db, sql: "SELECT '2001-09-09 01:46:40.123456'"))
            // The milliseconds are added to the interval since 2001, which
            // a Date stores: no float noise, the text reads back the same.
            #expect(date == Date(timeIntervalSinceReferenceDate: 21_692_800.123))
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [date]) == "2001-09-09 01:46:40.123")
            let date2015 = try #require(try Date.fetchOne(db, sql: "SELECT '2015-07-22 01:02:03.00456'"))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(secondsFromGMT: 0)!
            #expect(abs(calendar.component(.nanosecond, from: date2015) - 4_000_000) < 10)
            #expect(calendar.component(.second, from: date2015) == 3)
            // A time without a date is not a date…
            #expect(Date.fromDatabaseValue("12:00".databaseValue) == nil)
            #expect(Date.fromDatabaseValue("01:02:03.456".databaseValue) == nil)
            #expect(throws: RowDecodingError.self) { try Date.fetchOne(db, sql: "SELECT '12:00'") }
            // …but is date components.
            let components = try #require(try DatabaseDateComponents.fetchOne(db, sql: "SELECT '12:00'"))
            #expect(components.dateComponents.hour == 12)
        }
    }

    @Test func unixTimestampsAndInvalidDates() throws {
        try dbQueue.inDatabase { db throws in
            #expect(try Date.fetchOne(db, sql: "SELECT 1000000000") == Date(timeIntervalSince1970: 1_000_000_000))
            #expect(try Date.fetchOne(db, sql: "SELECT 1.5") == Date(timeIntervalSince1970: 1.5))
            #expect(throws: RowDecodingError.self) { try Date.fetchOne(db, sql: "SELECT 'yesterday'") }
            // Components out of their ranges carry over, as in GRDB.
            #expect(try Date.fetchOne(db, sql: "SELECT '2001-13-01'") == Date(timeIntervalSince1970: 1_009_843_200))
        }
    }

    @Test func dateComponents() throws {
        try dbQueue.inDatabase { db throws in
            var components = DateComponents()
            components.year = 1973
            components.month = 9
            components.day = 18
            let birthDate = DatabaseDateComponents(components, format: .YMD)
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [birthDate]) == "1973-09-18")
            let stored = try #require(try DatabaseDateComponents.fetchOne(db, sql: "SELECT ?", arguments: [birthDate]))
            #expect(stored.format == .YMD)
            #expect(stored.dateComponents.day == 18)

            var time = DateComponents()
            time.hour = 13
            time.minute = 45
            time.second = 7
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [time]) == "13:45:07")
            let read = try #require(try DateComponents.fetchOne(db, sql: "SELECT '2020-02-29 13:45:07.250'"))
            #expect(read.year == 2020 && read.month == 2 && read.day == 29)
            #expect(read.hour == 13 && read.minute == 45 && read.second == 7 && read.nanosecond == 250_000_000)
        }
    }

    @Test func uuid() throws {
        let uuid = UUID()
        #expect(try roundTrip(uuid) == uuid)
        try dbQueue.inDatabase { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT length(?)", arguments: [uuid]) == 16)
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [uuid]) == "blob")
            let text = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
            #expect(try UUID.fetchOne(db, sql: "SELECT ?", arguments: [text]) == UUID(uuidString: text))
            #expect(try UUID.fetchOne(db, sql: "SELECT ?", arguments: [text.lowercased()]) == UUID(uuidString: text))
            // The hyphens are required, as in GRDB.
            #expect(throws: RowDecodingError.self) { try UUID.fetchOne(db, sql: "SELECT 'E621E1F8C36C495A93FC0C247A3E6E5F'") }
            #expect(UUID.fromDatabaseValue("E621E1F8C36C495A93FC0C247A3E6E5F".databaseValue) == nil)
            #expect(throws: RowDecodingError.self) { try UUID.fetchOne(db, sql: "SELECT x'0102'") }
        }
    }

    @Test func urlAndDecimal() throws {
        let url = try #require(URL(string: "https://example.com/a?b=c"))
        #expect(try roundTrip(url) == url)
        let decimal = try #require(Decimal(string: "12345678901234567890.123456789"))
        #expect(try roundTrip(decimal) == decimal)
        try dbQueue.inDatabase { db throws in
            #expect(try Decimal.fetchOne(db, sql: "SELECT 12") == Decimal(12))
            #expect(try Decimal.fetchOne(db, sql: "SELECT '-1.5e3'") == Decimal(-1500))
            #expect(throws: RowDecodingError.self) { try Decimal.fetchOne(db, sql: "SELECT '12 apples'") }
        }
    }

    enum Grape: String, DatabaseValueConvertible, Codable {
        case chardonnay, merlot, riesling
    }

    enum Level: Int, DatabaseValueConvertible {
        case low = 1, high = 2
    }

    struct Address: Codable, Equatable, DatabaseValueConvertible {
        var street: String
        var city: String
        var tags: [String]
    }

    @Test func enumsStoreTheirRawValue() throws {
        #expect(try roundTrip(Grape.merlot) == .merlot)
        #expect(try roundTrip(Level.high) == .high)
        try dbQueue.inDatabase { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [Grape.riesling]) == "riesling")
            #expect(throws: RowDecodingError.self) { try Grape.fetchOne(db, sql: "SELECT 'syrah'") }
            #expect(try Level.fetchAll(db, sql: "SELECT 1 UNION ALL SELECT 2") == [.low, .high])
        }
    }

    @Test func codableValuesAreStoredAsJSON() throws {
        let address = Address(street: "1 Infinite Loop", city: "Cupertino", tags: ["a/b"])
        #expect(try roundTrip(address) == address)
        try dbQueue.inDatabase { db throws in
            // GRDB's JSON: sorted keys, slashes escaped.
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [address])
                == #"{"city":"Cupertino","street":"1 Infinite Loop","tags":["a\/b"]}"#)
            #expect(try String.fetchOne(db, sql: "SELECT json_extract(?, '$.city')", arguments: [address]) == "Cupertino")
            #expect(try String.fetchOne(db, sql: "SELECT json_extract(?, '$.tags[0]')", arguments: [address]) == "a/b")
            #expect(throws: RowDecodingError.self) { try Address.fetchOne(db, sql: "SELECT '{}'") }
        }
    }

    /// Encodes one String in a single value container.
    struct Token: Codable, Equatable, DatabaseValueConvertible {
        var raw: String
        init(raw: String) { self.raw = raw }
        init(from decoder: any Decoder) throws { raw = try decoder.singleValueContainer().decode(String.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(raw)
        }
    }

    /// Encodes one Double, or a date, in a single value container.
    struct Reading: Codable, Equatable, DatabaseValueConvertible {
        var value: Double?
        var date: Date?
        init(value: Double) { self.value = value }
        init(date: Date) { self.date = date }
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Double.self) { self.value = value } else { date = try container.decode(Date.self) }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if let date { try container.encode(date) } else { try container.encode(value) }
        }
    }

    @Test func codableValuesOfOneSingleValueAreStoredAsThatValue() throws {
        // As GRDB stores them: not as JSON ('"tok/123"', '21.5').
        #expect(Token(raw: "tok/123").databaseValue == "tok/123".databaseValue)
        #expect(Reading(value: 21.5).databaseValue.storage == .double(21.5))
        #expect(Reading(value: 21).databaseValue.storage == .double(21))
        let date = Date(timeIntervalSince1970: 1_700_000_000.5)
        #expect(Reading(date: date).databaseValue == date.databaseValue)
        #expect(try roundTrip(Token(raw: "tok/123")) == Token(raw: "tok/123"))
        #expect(try roundTrip(Reading(value: 21.5)) == Reading(value: 21.5))
        #expect(try roundTrip(Reading(date: date)) == Reading(date: date))
        try dbQueue.inDatabase { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [Reading(value: 21.5)]) == "real")
            #expect(try Token.fetchOne(db, sql: "SELECT 'abc'") == Token(raw: "abc"))
        }
    }

    @Test func databaseValueEquality() {
        #expect(1.databaseValue == 1.0.databaseValue)
        #expect(Set([1.databaseValue, 1.0.databaseValue]).count == 1)
        #expect(1.databaseValue != "1".databaseValue)
        #expect(DatabaseValue.null == DatabaseValue.null)
        #expect(DatabaseValue.null.isNull)
        #expect("a\"b".databaseValue.description == #""a\"b""#)
        #expect(Data([0, 255]).databaseValue.description == "Data(2 bytes)")
    }
}

/// Conversions that code written for the GRDB API relies on.
@Suite struct DatabaseValueConversionRulesTests {
    /// Decodes from one string: `init(from:)` reads a single value.
    struct Token: Decodable, DatabaseValueConvertible, Equatable {
        var string: String
        init(string: String) { self.string = string }
        init(from decoder: any Decoder) throws {
            string = try decoder.singleValueContainer().decode(String.self)
        }
        var databaseValue: DatabaseValue { string.databaseValue }
    }

    /// Wraps a token: the single value decodes through its type.
    struct Wrapper: Decodable, DatabaseValueConvertible {
        var token: Token
        init(from decoder: any Decoder) throws {
            token = try decoder.singleValueContainer().decode(Token.self)
        }
        var databaseValue: DatabaseValue { token.databaseValue }
    }

    /// Stored as JSON, with a JSON decoder of its own.
    struct Duration: Codable, DatabaseValueConvertible {
        var seconds: Double
        static func databaseJSONDecoder() -> JSONDecoder {
            let decoder = JSONDecoder()
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
            return decoder
        }
        static func databaseJSONEncoder() -> JSONEncoder {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            encoder.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
            return encoder
        }
    }

    @Test func decodableValuesReadASingleDatabaseValue() throws {
        #expect(Token.fromDatabaseValue("foo".databaseValue) == Token(string: "foo"))
        #expect(Token.fromDatabaseValue(1.databaseValue) == nil)
        #expect(Token.fromDatabaseValue(.null) == nil)
        #expect(Wrapper.fromDatabaseValue("bar".databaseValue)?.token.string == "bar")
        #expect(Wrapper.fromDatabaseValue(2.databaseValue) == nil)
        let dbQueue = try DatabaseQueue()
        let token = try dbQueue.read { db in try Wrapper.fetchOne(db, sql: "SELECT 'baz'") }
        #expect(token?.token.string == "baz")
    }

    @Test func jsonCodersOfAType() throws {
        let infinite = Duration(seconds: .infinity)
        #expect(infinite.databaseValue == #"{"seconds":"+Inf"}"#.databaseValue)
        #expect(Duration.fromDatabaseValue(#"{ "seconds": "-Inf" }"#.databaseValue)?.seconds == -.infinity)
        #expect(Duration.fromDatabaseValue(#"{ "seconds": 2.5 }"#.databaseValue)?.seconds == 2.5)
        #expect(Duration.fromDatabaseValue(#"{ "seconds": "Infinity" }"#.databaseValue) == nil)
    }

    @Test func fetchingADatabaseValue() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws -> Void in
            // nil is "no row"; NULL is DatabaseValue.null.
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT NULL") == .null)
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT 1 WHERE 0") == nil)
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT 'a'") == "a".databaseValue)
            #expect(try DatabaseValue.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT 1") == [.null, 1.databaseValue])
            // Other types: NULL is nil.
            #expect(try Int.fetchOne(db, sql: "SELECT NULL") == nil)
            #expect(try String.fetchOne(db, SQLRequest<String>(sql: "SELECT NULL")) == nil)
        }
    }

    /// An optional type tells "no row" (nil) from "a NULL value"
    /// (`.some(nil)`), on the fast path and on the general one.
    @Test func fetchingAnOptionalTellsNullFromNoRow() throws {
        struct Name: DatabaseValueConvertible, Equatable {
            var rawValue: String
            var databaseValue: DatabaseValue { rawValue.databaseValue }
            static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Name? {
                String.fromDatabaseValue(dbValue).map(Name.init)
            }
        }
        func isNullValue<T>(_ value: T??) -> Bool {
            if case .some(.none) = value { true } else { false }
        }
        func isNoRow<T>(_ value: T??) -> Bool {
            if case .none = value { true } else { false }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws -> Void in
            #expect(isNullValue(try Int?.fetchOne(db, sql: "SELECT NULL")))
            #expect(isNullValue(try Name?.fetchOne(db, sql: "SELECT NULL")))
            #expect(isNullValue(try SQLRequest<Name?>(sql: "SELECT NULL").fetchOne(db)))
            #expect(isNullValue(try SQLRequest<Int?>(sql: "SELECT NULL").fetchOne(db)))
            #expect(isNoRow(try Int?.fetchOne(db, sql: "SELECT 1 WHERE 0")))
            #expect(isNoRow(try SQLRequest<Name?>(sql: "SELECT 'a' WHERE 0").fetchOne(db)))
            #expect(try Name?.fetchOne(db, sql: "SELECT 'a'") == .some(Name(rawValue: "a")))
            #expect(try Int?.fetchOne(db, sql: "SELECT 2") == .some(2))
        }
    }

    @Test func urlsFromTextAndBlobs() {
        #expect(URL.fromDatabaseValue("https://example.com/a".databaseValue)?.absoluteString == "https://example.com/a")
        #expect(URL.fromDatabaseValue(Data("bar".utf8).databaseValue)?.absoluteString == "bar")
        #expect(URL.fromDatabaseValue(Data([0xFF, 0xFE]).databaseValue) == nil)
        #expect(URL.fromDatabaseValue(1.databaseValue) == nil)
        #expect(URL.fromDatabaseValue(.null) == nil)
    }
}
