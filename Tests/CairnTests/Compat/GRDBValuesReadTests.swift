import Foundation
import Testing
import Cairn

/// Every value of the GRDB 7.8.0 fixture, read back by Cairn through the
/// path GRDB used (`fetchOne`, a record property, a row subscript), gives
/// what GRDB read back, or the documented behaviour of Cairn where it
/// deliberately differs (``GRDBValuesReadTests/deliberateDifferences``).
@Suite struct GRDBValuesReadTests {
    typealias Types = GRDBFixtureTypes

    /// The probes whose read deliberately differs from GRDB's, with what
    /// Cairn reads instead and why. None of them is a value that GRDB's
    /// encoders write: they are values written in SQL, as other tools
    /// write them, read into a type that cannot hold them.
    ///
    /// The conversions that SQLite's affinities make are not among them: a
    /// column of TEXT affinity turns the numbers that GRDB writes into text,
    /// and a column of NUMERIC affinity the text of a number into a number;
    /// both read back as in GRDB (``numbersTurnedIntoTextByAffinityReadBack()``).
    static let deliberateDifferences: [String: (cairn: String, reason: String)] = [
        // Conversions that would lose or invent a value throw when a column
        // is read (see the article "Differences from GRDB").
        "string.sql.fromBlob": ("error", "a blob is not read as a String"),
        "bool.sql.fromReal": (
            "Bool(true)",
            "0.5 is not zero: true, as GRDB's own fromDatabaseValue says (its fetchOne truncates to 0)"),
        "bool.sql.fromText": (
            "error",
            "the text 'true' is not a number: GRDB reads false, a silent wrong value"),
        "int.sql.fromHugeReal": (
            "error",
            "1e19 is beyond Int64: GRDB reads Int64.max, a silent wrong value"),
        "string.sql.nulInsideText": (
            "\"a\\0b\"",
            "the whole text is read: GRDB stops at the NUL and loses the rest"),
    ]

    @Test func deliberateDifferencesDifferFromGRDB() {
        let probes = Dictionary(uniqueKeysWithValues: GRDBValuesFixture.probes.map { ($0.name, $0) })
        for (name, difference) in Self.deliberateDifferences {
            let probe = probes[name]
            #expect(probe != nil, "no probe \(name)")
            #expect(probe?.readBack != difference.cairn, "\(name) agrees with GRDB: not a difference")
            // Values written in SQL only, not by GRDB's encoders.
            #expect(probe?.write == "sql", "\(name) is a value that GRDB writes")
        }
    }

    @Test func theManifestIsComplete() {
        #expect(GRDBValuesFixture.probes.count == 342)
        #expect(Set(GRDBValuesFixture.probes.map(\.name)).count == 342)
    }

    @Test func everyProbeReadsBackAsInGRDB() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try GRDBValuesFixture.openCopy(in: directory)
        var agreements = 0
        var differences: [String] = []
        try dbQueue.read { db in
            for probe in GRDBValuesFixture.probes where probe.readBack != "(no row)" {
                let cairn = Self.readBack(probe, db)
                let expected = Self.deliberateDifferences[probe.name]?.cairn ?? probe.readBack
                if cairn == expected {
                    if cairn == probe.readBack { agreements += 1 }
                } else {
                    differences.append("\(probe.name): GRDB \(probe.readBack), Cairn \(cairn)")
                }
            }
        }
        let report = "\(differences.count) differences, \(agreements) agreements:\n" + differences.joined(separator: "\n")
        #expect(differences.isEmpty, Comment(rawValue: report))
        #expect(agreements == 339 - Self.deliberateDifferences.count)
    }

    /// A record whose columns' affinities change the storage class of what
    /// it writes, as GRDB's encoders write it.
    struct Reading: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "reading"
        var id: Int64
        var count: Int       // in a TEXT column: stored as '42'
        var ratio: Double    // in a TEXT column: stored as '0.5'
        var flag: Bool       // in a TEXT column: stored as '1'
        var code: String     // in a NUMERIC column: '0042' is stored as 42
        var label: String    // in an INTEGER column: '2.5' is stored as 2.5
    }

    @Test func numbersTurnedIntoTextByAffinityReadBack() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE reading (
                    id INTEGER PRIMARY KEY,
                    count TEXT, ratio TEXT, flag TEXT, code NUMERIC, label INTEGER)
                """)
            try Reading(id: 1, count: 42, ratio: 0.5, flag: true, code: "0042", label: "2.5").insert(db)
            // What the affinities stored.
            let types = try Row.fetchOne(db, sql: """
                SELECT typeof(count), typeof(ratio), typeof(flag), typeof(code), typeof(label) FROM reading
                """)
            #expect(types == ["typeof(count)": "text", "typeof(ratio)": "text", "typeof(flag)": "text",
                              "typeof(code)": "integer", "typeof(label)": "real"])

            // A record, fetchOne, and the subscript of a cursor row read
            // the values back (the text '0042' became the number 42: "42").
            let reading = try #require(try Reading.fetchOne(db, key: 1))
            #expect(reading.count == 42)
            #expect(reading.ratio == 0.5)
            #expect(reading.flag == true)
            #expect(reading.code == "42")
            #expect(reading.label == "2.5")
            #expect(try Int.fetchOne(db, sql: "SELECT count FROM reading") == 42)
            #expect(try Double.fetchOne(db, sql: "SELECT ratio FROM reading") == 0.5)
            #expect(try Float.fetchOne(db, sql: "SELECT ratio FROM reading") == 0.5)
            #expect(try Int16?.fetchOne(db, sql: "SELECT count FROM reading") == 42)
            let cursor = try Row.fetchCursor(db, sql: "SELECT count, code FROM reading")
            let row = try #require(try cursor.next())
            #expect(try row.decode(Int.self, atIndex: 0) == 42)
            #expect(try row.decode(String.self, atIndex: 1) == "42")
        }
    }

    @Test func textIsReadAsANumberOnlyWhenItSpellsOne() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            func int(_ text: String) throws -> Int? {
                try Int.fetchOne(db, sql: "SELECT ?", arguments: [text])
            }
            func double(_ text: String) throws -> Double? {
                try Double.fetchOne(db, sql: "SELECT ?", arguments: [text])
            }
            // What NUMERIC affinity accepts: integers, decimals, exponents,
            // spaces around them.
            #expect(try int("-42") == -42)
            #expect(try int(" 42 ") == 42)
            #expect(try int("+7") == 7)
            #expect(try int("9223372036854775807") == Int.max)
            #expect(try int("-9223372036854775808") == Int.min)
            #expect(try int("2.75") == 2)    // truncated toward zero, as a REAL is
            #expect(try int("1e3") == 1000)
            #expect(try UInt8.fetchOne(db, sql: "SELECT '255'") == 255)
            #expect(try double("1.5") == 1.5)
            #expect(try double(".5") == 0.5)
            #expect(try double("-1e-3") == -0.001)
            #expect(try double("12") == 12)
            #expect(try Bool.fetchOne(db, sql: "SELECT '0'") == false)
            #expect(try Bool.fetchOne(db, sql: "SELECT '2'") == true)
            // What it refuses throws, naming the value: never a silent 0.
            for text in ["foo", "", " ", "42abc", "0x10", "1e", "--1", "inf", "NaN", "1,5"] {
                #expect(throws: RowDecodingError.self, "\(text)") { try int(text) }
                #expect(throws: RowDecodingError.self, "\(text)") { try double(text) }
            }
            #expect { try int("1O") } throws: { error in
                String(describing: error).contains("could not decode Int from database value \"1O\"")
            }
            #expect(throws: RowDecodingError.self) { try Bool.fetchOne(db, sql: "SELECT 'true'") }
            // Numbers out of the type's range throw, as REAL values do.
            #expect(throws: RowDecodingError.self) { try int("9223372036854775808") }
            #expect(throws: RowDecodingError.self) { try UInt8.fetchOne(db, sql: "SELECT '256'") }
            #expect(throws: RowDecodingError.self) { try UInt.fetchOne(db, sql: "SELECT '-1'") }
            #expect(throws: RowDecodingError.self) { try int("1e19") }
            // A value converted by DatabaseValue stays strict, as in GRDB.
            #expect(Int.fromDatabaseValue("42".databaseValue) == nil)
            #expect(String.fromDatabaseValue(42.databaseValue) == nil)
        }
    }

    @Test func numbersAreReadAsTextAsSQLiteSpellsThem() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let integers: [Int64] = [0, 42, -1, .max, .min]
            for value in integers {
                #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [value]) == String(value))
            }
            // Reals: the text of CAST(… AS TEXT), fifteen significant digits.
            let reals: [Double] = [0.5, 1.0 / 3, 1e19, -0.0, 2, 1e-300, 123456789.125,
                                   .greatestFiniteMagnitude, .infinity, -.infinity]
            for value in reals {
                let cast = try String.fetchOne(db, sql: "SELECT CAST(? AS TEXT)", arguments: [value])
                #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [value]) == cast, "\(value)")
            }
            #expect(try String.fetchOne(db, sql: "SELECT 0.5") == "0.5")
            #expect(try String.fetchOne(db, sql: "SELECT 1e19") == "1.0e+19")
            #expect(try String.fetchOne(db, sql: "SELECT 1.0 / 3") == "0.333333333333333")
            // The column is not converted: its type and value stay.
            let cursor = try Row.fetchCursor(db, sql: "SELECT 0.5")
            let row = try #require(try cursor.next())
            #expect(try row.decode(String.self, atIndex: 0) == "0.5")
            #expect(row[0] as DatabaseValue == 0.5.databaseValue)
            #expect(try row.decode(Double.self, atIndex: 0) == 0.5)
            // A blob is not text.
            #expect(throws: RowDecodingError.self) { try String.fetchOne(db, sql: "SELECT x'68C3A9'") }
        }
    }

    // MARK: Reading a probe

    /// The description of what Cairn reads for the probe, `error` when the
    /// read throws.
    static func readBack(_ probe: GRDBValuesProbe, _ db: Database) -> String {
        do {
            switch probe.read {
            case "fetchOne":
                return try fetchOne(probe, db)
            case "record":
                return try record(probe, db)
            case "row":
                return try row(probe, db)
            default:
                return "unknown read \(probe.read)"
            }
        } catch {
            return "error"
        }
    }

    /// `T.fetchOne(db, sql: "SELECT value FROM args WHERE id = ?", arguments: [rowid])`.
    static func fetchOne(_ probe: GRDBValuesProbe, _ db: Database) throws -> String {
        let sql = "SELECT \(probe.column) FROM \(probe.table) WHERE id = ?"
        let arguments: StatementArguments = [probe.rowid]
        func columnValue<T: DatabaseValueConvertible & StatementColumnConvertible & FixtureDescribable>(_ type: T.Type) throws -> String {
            fixtureDescription(try T.fetchOne(db, sql: sql, arguments: arguments))
        }
        func value<T: DatabaseValueConvertible & FixtureDescribable>(_ type: T.Type) throws -> String {
            fixtureDescription(try T.fetchOne(db, sql: sql, arguments: arguments))
        }
        // An Int written, read as Int8: the name tells.
        if probe.name == "int.arg.Int8.fromOutOfRange" { return try columnValue(Int8.self) }
        switch probe.swiftType {
        case "Bool": return try columnValue(Bool.self)
        case "Int": return try columnValue(Int.self)
        case "Int8": return try columnValue(Int8.self)
        case "Int16": return try columnValue(Int16.self)
        case "Int32": return try columnValue(Int32.self)
        case "Int64": return try columnValue(Int64.self)
        case "UInt": return try columnValue(UInt.self)
        case "UInt8": return try columnValue(UInt8.self)
        case "UInt16": return try columnValue(UInt16.self)
        case "UInt32": return try columnValue(UInt32.self)
        case "UInt64": return try columnValue(UInt64.self)
        case "Double": return try columnValue(Double.self)
        case "Float": return try columnValue(Float.self)
        case "String":
            // Text read as UUID: the probe of a UUID written as a string.
            if probe.category == "uuid" { return try columnValue(UUID.self) }
            return try columnValue(String.self)
        case "Data": return try columnValue(Data.self)
        case "Date": return try columnValue(Date.self)
        case "DatabaseDateComponents": return try columnValue(DatabaseDateComponents.self)
        case "UUID": return try columnValue(UUID.self)
        case "DatabaseValue": return try value(DatabaseValue.self)
        case "Color": return try value(Types.Color.self)
        case "Level": return try value(Types.Level.self)
        case "Celsius": return try value(Types.Celsius.self)
        case "Token": return try value(Types.Token.self)
        case "Address": return try value(Types.Address.self)
        case "Place": return try value(Types.Place.self)
        default: return "unknown type \(probe.swiftType)"
        }
    }

    /// `R.fetchOne(db, sql: "SELECT * FROM <table> WHERE id = ?", …)`, then
    /// the property of the probe.
    static func record(_ probe: GRDBValuesProbe, _ db: Database) throws -> String {
        let sql = "SELECT * FROM \(probe.table) WHERE id = ?"
        let arguments: StatementArguments = [probe.rowid]
        func fetch<R: FetchableRecord>(_ type: R.Type) throws -> R? {
            try R.fetchOne(db, sql: sql, arguments: arguments)
        }
        func value<T: Codable & FixtureDescribable>(_ type: T.Type) throws -> String {
            fixtureDescription(try fetch(ValueRecord<T>.self)?.value)
        }
        switch probe.table {
        case "records":
            switch probe.swiftType {
            case "Bool": return try value(Bool.self)
            case "Int": return try value(Int.self)
            case "Int8": return try value(Int8.self)
            case "Int16": return try value(Int16.self)
            case "Int32": return try value(Int32.self)
            case "Int64": return try value(Int64.self)
            case "UInt": return try value(UInt.self)
            case "UInt8": return try value(UInt8.self)
            case "UInt16": return try value(UInt16.self)
            case "UInt32": return try value(UInt32.self)
            case "UInt64": return try value(UInt64.self)
            case "Double": return try value(Double.self)
            case "Float": return try value(Float.self)
            case "String": return try value(String.self)
            case "Data": return try value(Data.self)
            case "Date": return try value(Date.self)
            case "DatabaseDateComponents": return try value(DatabaseDateComponents.self)
            case "UUID": return try value(UUID.self)
            case "Color": return try value(Types.Color.self)
            case "Level": return try value(Types.Level.self)
            case "Mood": return try value(Types.Mood.self)
            case "Celsius": return try value(Types.Celsius.self)
            case "Token": return try value(Types.Token.self)
            case "Address": return try value(Types.Address.self)
            case "Place": return try value(Types.Place.self)
            case "Nested": return try value(Types.Nested.self)
            case "Array<String>": return try value([String].self)
            case "Array<Int>": return try value([Int].self)
            case "Array<Double>": return try value([Double].self)
            case "Array<Optional<Int>>": return try value([Int?].self)
            case "Array<Nested>": return try value([Types.Nested].self)
            case "Array<Date>": return try value([Date].self)
            case "Array<Data>": return try value([Data].self)
            case "Dictionary<String, Int>": return try value([String: Int].self)
            case "Dictionary<String, Child>": return try value([String: Types.Child].self)
            default: return "unknown type \(probe.swiftType)"
            }
        case "dates":
            // date.strategy.<strategy>.<value>
            let strategy = probe.name.split(separator: ".").dropFirst(2).first.map(String.init) ?? ""
            guard let date = try fetch(DateRecord.self)?.date(strategy: strategy) else { return "unknown strategy \(strategy)" }
            return date.fixtureDescription
        case "uuids":
            return fixtureDescription(try fetch(UUIDRecord.self)?.uuid)
        case "datas":
            // data.strategy.<strategy>.<value>
            let strategy = probe.name.split(separator: ".").dropFirst(2).first.map(String.init) ?? ""
            if strategy == "custom" {
                return fixtureDescription(try fetch(Base64DataRecord.self)?.data)
            }
            return fixtureDescription(try fetch(DataRecord.self)?.data)
        case "events":
            guard let event = try fetch(EventRecord.self) else { return "nil" }
            return probe.column == "updatedAt" ? event.updatedAt.fixtureDescription : event.createdAt.fixtureDescription
        case "nulls":
            guard let record = try fetch(NullsRecord.self) else { return "(no record)" }
            return record.describe(column: probe.column)
        case "json_record":
            guard let record = try fetch(JSONRecord.self) else { return "(no record)" }
            return record.describe(column: probe.column)
        case "snake_record":
            guard let record = try fetch(SnakeRecord.self) else { return "(no record)" }
            return record.describe(column: probe.column)
        case "custom_columns":
            guard let record = try fetch(CustomColumnsRecord.self) else { return "(no record)" }
            return probe.column == "col_name" ? record.name.fixtureDescription : record.score.fixtureDescription
        case "custom_json":
            guard let record = try fetch(CustomJSONRecord.self) else { return "(no record)" }
            return probe.column == "payload" ? record.payload.fixtureDescription : record.plain.fixtureDescription
        case "snake_json":
            return fixtureDescription(try fetch(SnakeJSONRecord.self)?.nestedValue)
        default:
            return "unknown table \(probe.table)"
        }
    }

    /// `Row.fetchOne`, then `row["<column>"] as T?`.
    static func row(_ probe: GRDBValuesProbe, _ db: Database) throws -> String {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM \(probe.table) WHERE id = ?", arguments: [probe.rowid]) else {
            return "(no row)"
        }
        let column = probe.column
        switch probe.swiftType {
        case "DatabaseValue": return fixtureDescription(row[column] as DatabaseValue?)
        case "Date": return fixtureDescription(row[column] as Date?)
        case "UUID": return fixtureDescription(row[column] as UUID?)
        case "Data": return fixtureDescription(row[column] as Data?)
        case "String": return fixtureDescription(row[column] as String?)
        case "Bool": return fixtureDescription(row[column] as Bool?)
        case "Double": return fixtureDescription(row[column] as Double?)
        case "Int64": return fixtureDescription(row[column] as Int64?)
        case "Int?": return fixtureDescription(row[column] as Int?)
        default: return "unknown type \(probe.swiftType)"
        }
    }

    // MARK: Records

    /// `records`: one value of any type.
    struct ValueRecord<Value: Codable>: Codable, FetchableRecord, TableRecord {
        static var databaseTableName: String { "records" }
        var id: Int64
        var value: Value
    }

    /// `dates`: one record type per strategy, the same for encoding and
    /// decoding (secondsSince1970 is decoded with timeIntervalSince1970).
    struct DateRecord: FetchableRecord {
        var row: Row

        init(row: Row) {
            self.row = row.copy()
        }

        /// The date, as the record type of the strategy decodes it.
        func date(strategy: String) throws -> Date? {
            func decode<R: FetchableRecord & DatedRecord>(_ type: R.Type) throws -> Date {
                try R(row: row).date
            }
            switch strategy {
            case "deferredToDate": return try decode(DeferredDate.self)
            case "timeIntervalSinceReferenceDate": return try decode(ReferenceDate.self)
            case "timeIntervalSince1970", "secondsSince1970": return try decode(UnixDate.self)
            case "millisecondsSince1970": return try decode(MillisecondsDate.self)
            case "iso8601": return try decode(ISO8601Date.self)
            case "formatted": return try decode(FormattedDate.self)
            case "custom": return try decode(CustomDate.self)
            default: return nil
            }
        }
    }

    protocol DatedRecord { var date: Date { get } }

    struct DeferredDate: Codable, FetchableRecord, DatedRecord { var id: Int64; var date: Date }

    struct ReferenceDate: Codable, FetchableRecord, DatedRecord {
        var id: Int64; var date: Date
        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSinceReferenceDate }
    }

    struct UnixDate: Codable, FetchableRecord, DatedRecord {
        var id: Int64; var date: Date
        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }
    }

    struct MillisecondsDate: Codable, FetchableRecord, DatedRecord {
        var id: Int64; var date: Date
        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .millisecondsSince1970 }
    }

    struct ISO8601Date: Codable, FetchableRecord, DatedRecord {
        var id: Int64; var date: Date
        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .iso8601 }
    }

    /// The DateFormatter of the fixture.
    static func fixtureFormatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 3600)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSZZZZZ"
        return formatter
    }

    struct FormattedDate: Codable, FetchableRecord, DatedRecord {
        var id: Int64; var date: Date
        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
            .formatted(GRDBValuesReadTests.fixtureFormatter())
        }
    }

    /// `t=<whole seconds since 1970>`.
    struct CustomDate: Codable, FetchableRecord, DatedRecord {
        var id: Int64; var date: Date
        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
            .custom { dbValue in
                guard let text = String.fromDatabaseValue(dbValue), text.hasPrefix("t="),
                      let seconds = Int(text.dropFirst(2))
                else { return nil }
                return Date(timeIntervalSince1970: TimeInterval(seconds))
            }
        }
    }

    struct UUIDRecord: Codable, FetchableRecord { var id: Int64; var uuid: UUID }

    struct DataRecord: Codable, FetchableRecord { var id: Int64; var data: Data }

    /// Data stored as base64 text.
    struct Base64DataRecord: Codable, FetchableRecord {
        var id: Int64; var data: Data
        static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
            .custom { dbValue in String.fromDatabaseValue(dbValue).flatMap { Data(base64Encoded: $0) } }
        }
    }

    struct EventRecord: Codable, FetchableRecord {
        var id: Int64; var createdAt: Date; var updatedAt: Date
        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
            column == "updatedAt" ? .timeIntervalSince1970 : .deferredToDate
        }
    }

    struct NullsRecord: Codable, FetchableRecord {
        var id: Int64
        var int: Int?
        var string: String?
        var double: Double?
        var date: Date?
        var data: Data?
        var uuid: UUID?
        var nested: Types.Nested?
        var tags: [String]?
        var color: Types.Color?
        var bool: Bool?

        func describe(column: String) -> String {
            switch column {
            case "int": return fixtureDescription(int)
            case "string": return fixtureDescription(string)
            case "double": return fixtureDescription(double)
            case "date": return fixtureDescription(date)
            case "data": return fixtureDescription(data)
            case "uuid": return fixtureDescription(uuid)
            case "nested": return fixtureDescription(nested)
            case "tags": return fixtureDescription(tags)
            case "color": return fixtureDescription(color)
            case "bool": return fixtureDescription(bool)
            default: return "unknown column \(column)"
            }
        }
    }

    struct JSONRecord: Codable, FetchableRecord {
        var id: Int64
        var tags: [String]
        var stats: [String: Int]
        var nested: Types.Nested
        var optionalNested: Types.Nested?
        var emptyArray: [Int]
        var dates: [Date]

        func describe(column: String) -> String {
            switch column {
            case "tags": return tags.fixtureDescription
            case "stats": return stats.fixtureDescription
            case "nested": return nested.fixtureDescription
            case "optionalNested": return fixtureDescription(optionalNested)
            case "emptyArray": return emptyArray.fixtureDescription
            case "dates": return dates.fixtureDescription
            default: return "unknown column \(column)"
            }
        }
    }

    struct SnakeRecord: Codable, FetchableRecord {
        var id: Int64
        var firstName: String
        var userId: Int64
        var createdAt: Date
        var homeAddress: Types.Address
        var isActive: Bool
        static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase

        func describe(column: String) -> String {
            switch column {
            case "first_name": return firstName.fixtureDescription
            case "user_id": return userId.fixtureDescription
            case "created_at": return createdAt.fixtureDescription
            case "home_address": return homeAddress.fixtureDescription
            case "is_active": return isActive.fixtureDescription
            default: return "unknown column \(column)"
            }
        }
    }

    /// A coding key of any name.
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Columns `col_<key>`, except `id`.
    struct CustomColumnsRecord: Codable, FetchableRecord {
        var id: Int64; var name: String; var score: Int
        static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.custom { column in
            AnyKey(stringValue: column.hasPrefix("col_") ? String(column.dropFirst(4)) : column)
        }
    }

    /// A JSON decoder per column.
    struct CustomJSONRecord: Codable, FetchableRecord {
        var id: Int64; var payload: Types.Nested; var plain: Types.Nested
        static func databaseJSONDecoder(for column: String) -> JSONDecoder {
            let decoder = JSONDecoder()
            if column == "payload" {
                decoder.dateDecodingStrategy = .iso8601
                decoder.dataDecodingStrategy = .base64
                decoder.keyDecodingStrategy = .convertFromSnakeCase
            }
            return decoder
        }
    }

    /// Snake-cased columns, and a JSON decoder that reads any key as
    /// `label`.
    struct SnakeJSONRecord: Codable, FetchableRecord {
        var id: Int64; var nestedValue: Types.Child
        static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
        static func databaseJSONDecoder(for column: String) -> JSONDecoder {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .custom { _ in AnyKey(stringValue: "label") }
            return decoder
        }
    }
}
