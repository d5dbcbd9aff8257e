import Foundation
import Testing
import Cairn

/// Every value of the GRDB 7.8.0 fixture that GRDB wrote with its API
/// (statement arguments, records, persistence containers), written by Cairn
/// the same way into a fresh database, is stored as GRDB stored it: the same
/// `quote()`, `hex()` and `typeof()` of the cell, or the documented
/// behaviour of Cairn where it deliberately differs
/// (``GRDBValuesWriteTests/deliberateDifferences``). A write that GRDB
/// refuses must throw.
@Suite struct GRDBValuesWriteTests {
    typealias Types = GRDBFixtureTypes

    /// What SQLite holds in a cell.
    struct Stored: Equatable, CustomStringConvertible {
        var quote: String
        var hex: String
        var typeof: String

        var description: String { "\(typeof) \(quote)" }
    }

    /// The probes whose storage deliberately differs from GRDB's, with what
    /// Cairn stores instead and why.
    static let deliberateDifferences: [String: (cairn: (quote: String, hex: String, typeof: String), reason: String)] = [
        // quote() stops at the NUL: the hex shows the whole text.
        "string.arg.nulInside": ((quote: "'a'", hex: "610062", typeof: "text"), "GRDB drops the text after the NUL"),
        "string.record.nulInside": ((quote: "'a'", hex: "610062", typeof: "text"), "GRDB drops the text after the NUL"),
        // GRDB writes a five-digit year that neither GRDB nor SQLite's
        // date functions read back; Cairn stores the seconds since 1970.
        "date.arg.year10000": ((quote: "253402300800.0", hex: "3235333430323330303830302E30", typeof: "real"),
                               "dates after 9999 are stored as seconds since 1970, which read back"),
        "date.record.year10000": ((quote: "253402300800.0", hex: "3235333430323330303830302E30", typeof: "real"),
                                  "dates after 9999 are stored as seconds since 1970, which read back"),
        // GRDB rounds 999.6 ms up to ".1000", which reads back as 100 ms.
        "dateComponents.arg.fractionRoundsUp": ((quote: "'2024-03-05 06:07:08.999'",
                                                 hex: "323032342D30332D30352030363A30373A30382E393939", typeof: "text"),
                                                "milliseconds never round up into the next second"),
        // GRDB's JSON encoder throws on non-finite numbers; Cairn's writes
        // them as strings that it reads back.
        "json.record.nonFiniteDoubles": ((quote: "'[1.5,\"Infinity\"]'", hex: "5B312E352C22496E66696E697479225D", typeof: "text"),
                                         "non-finite doubles are stored in JSON as \"Infinity\", \"-Infinity\" and \"NaN\""),
    ]

    /// The probes that GRDB wrote with its API: all but the values written
    /// in SQL.
    static let writtenProbes = GRDBValuesFixture.probes.filter { $0.write != "sql" }

    /// The tables of the fixture, as its README creates them.
    static let tablesSQL = [
        "CREATE TABLE args (id INTEGER PRIMARY KEY, value)",
        "CREATE TABLE records (id INTEGER PRIMARY KEY, value)",
        "CREATE TABLE dates (id INTEGER PRIMARY KEY, date)",
        "CREATE TABLE uuids (id INTEGER PRIMARY KEY, uuid)",
        "CREATE TABLE datas (id INTEGER PRIMARY KEY, data)",
        "CREATE TABLE events (id INTEGER PRIMARY KEY, createdAt, updatedAt)",
        "CREATE TABLE nulls (id INTEGER PRIMARY KEY, int, string, double, date, data, uuid, nested, tags, color, bool)",
        "CREATE TABLE json_record (id INTEGER PRIMARY KEY, tags, stats, nested, optionalNested, emptyArray, dates)",
        "CREATE TABLE snake_record (id INTEGER PRIMARY KEY, first_name, user_id, created_at, home_address, is_active)",
        "CREATE TABLE custom_columns (id INTEGER PRIMARY KEY, col_name, col_score)",
        "CREATE TABLE custom_json (id INTEGER PRIMARY KEY, payload, plain)",
        "CREATE TABLE snake_json (id INTEGER PRIMARY KEY, nested_value)",
        "CREATE TABLE manual (id INTEGER PRIMARY KEY, dbValue, date, uuid, data, text, flag, real, int64, optionalInt)",
    ]

    @Test func everyWriteKindIsCovered() {
        #expect(Self.writtenProbes.count == 281)
        #expect(Set(Self.writtenProbes.map(\.write)) == ["argument", "named-argument", "record", "container"])
        // The probes of a row are written together, in one way.
        for row in Self.rows() {
            #expect(Set(row.map(\.write)).count == 1, "row \(row[0].table) \(row[0].rowid) is written in several ways")
        }
    }

    /// The parser of the descriptions gives back the values that GRDB
    /// wrote: described again, each one gives its `written`.
    @Test func everyWrittenValueIsParsed() throws {
        for probe in Self.writtenProbes {
            let value = try FixtureValueParser.value(probe.written, swiftType: probe.swiftType)
            if probe.name == "json.record.nonFiniteDoubles" {
                // Its JSON cannot be encoded again: the one infinity.
                #expect((value as? [Double]) == [1.5, .infinity])
                continue
            }
            let description = value.map { ($0 as? any FixtureDescribable)?.fixtureDescription ?? "not describable" } ?? "nil"
            #expect(description == probe.written, "\(probe.name)")
        }
    }

    @Test func deliberateDifferencesDifferFromGRDB() {
        let probes = Dictionary(uniqueKeysWithValues: Self.writtenProbes.map { ($0.name, $0) })
        for (name, difference) in Self.deliberateDifferences {
            guard let probe = probes[name] else {
                Issue.record("no written probe \(name)")
                continue
            }
            let cairn = Stored(quote: difference.cairn.quote, hex: difference.cairn.hex, typeof: difference.cairn.typeof)
            #expect(cairn != Stored(quote: probe.quote, hex: probe.hex, typeof: probe.typeof), "\(name) agrees with GRDB: not a difference")
            #expect(!difference.reason.isEmpty)
        }
    }

    @Test func everyValueIsStoredAsGRDBStoresIt() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            for sql in Self.tablesSQL { try db.execute(sql: sql) }
        }

        // Write each row; remember why a write threw.
        var writeErrors: [String: String] = [:]
        var testErrors: [String: String] = [:]
        for row in Self.rows() {
            let values: RowValues
            do {
                values = try RowValues(row)
            } catch {
                for probe in row { testErrors[probe.name] = "cannot build the value: \(error)" }
                continue
            }
            do {
                try dbQueue.write { db in try Self.write(row, values, db) }
            } catch let error as FixtureValueParser.Failure {
                for probe in row { testErrors[probe.name] = "cannot build the record: \(error)" }
            } catch {
                for probe in row { writeErrors[probe.name] = "\(error)" }
            }
        }

        // Read each cell back.
        var agreements = 0
        var deliberate = 0
        var differences: [String] = []
        try dbQueue.read { db in
            for probe in Self.writtenProbes {
                if let testError = testErrors[probe.name] {
                    differences.append("\(probe.name): TEST BUG, \(testError)")
                    continue
                }
                let stored = try Self.stored(probe, db)
                let grdb = probe.quote == "(no row)" ? nil : Stored(quote: probe.quote, hex: probe.hex, typeof: probe.typeof)
                let expected = Self.deliberateDifferences[probe.name].map {
                    Stored(quote: $0.cairn.quote, hex: $0.cairn.hex, typeof: $0.cairn.typeof)
                } ?? grdb
                let cairn: String
                switch (writeErrors[probe.name], stored) {
                case (nil, let stored?):
                    if stored == expected {
                        if stored == grdb { agreements += 1 } else { deliberate += 1 }
                        continue
                    }
                    if let grdb, stored.quote == grdb.quote, stored.typeof == grdb.typeof {
                        // quote() hides the difference: -0.0, a NUL.
                        cairn = "\(stored) hex \(stored.hex) (GRDB hex \(grdb.hex))"
                    } else {
                        cairn = "\(stored)"
                    }
                case (let error?, nil):
                    if expected == nil {
                        agreements += 1
                        continue
                    }
                    cairn = "the write throws: \(error)"
                case (nil, nil):
                    cairn = "no row, and the write did not throw"
                case (let error?, let stored?):
                    cairn = "the write throws (\(error)), and the row exists: \(stored)"
                }
                differences.append("\(probe.name): GRDB \(grdb.map(\.description) ?? "refuses the write"), Cairn \(cairn)")
            }
        }
        let report = "\(differences.count) differences, \(agreements) agreements, \(deliberate) deliberate differences:\n"
            + differences.joined(separator: "\n")
        #expect(differences.isEmpty, Comment(rawValue: report))
        #expect(agreements + deliberate + differences.count == Self.writtenProbes.count)
    }

    // MARK: Writing

    /// The written probes, grouped by row (table and rowid), in the order
    /// of the manifest.
    static func rows() -> [[GRDBValuesProbe]] {
        var rows: [[GRDBValuesProbe]] = []
        var indexes: [String: Int] = [:]
        for probe in writtenProbes {
            let key = "\(probe.table) \(probe.rowid)"
            if let index = indexes[key] {
                rows[index].append(probe)
            } else {
                indexes[key] = rows.count
                rows.append([probe])
            }
        }
        return rows
    }

    /// The values of the probes of one row, by column.
    struct RowValues {
        var rowid: Int64
        private var values: [String: Any?] = [:]

        init(_ probes: [GRDBValuesProbe]) throws {
            rowid = probes[0].rowid
            for probe in probes {
                values[probe.column] = .some(try FixtureValueParser.value(probe.written, swiftType: probe.swiftType))
            }
        }

        /// The value of a column, nil for `nil`.
        func optional<T>(_ column: String, as type: T.Type = T.self) throws -> T? {
            guard let entry = values[column] else { throw FixtureValueParser.Failure("no value for the column \(column)") }
            guard let value = entry else { return nil }
            guard let typed = value as? T else {
                throw FixtureValueParser.Failure("the value of \(column) is a \(Swift.type(of: value)), not a \(T.self)")
            }
            return typed
        }

        /// The value of a column that is not nil.
        func value<T>(_ column: String, as type: T.Type = T.self) throws -> T {
            guard let value = try optional(column, as: T.self) else {
                throw FixtureValueParser.Failure("the value of \(column) is nil")
            }
            return value
        }

        /// The value of a column as a statement argument, nil for `nil`.
        func argument(_ column: String) throws -> (any DatabaseValueConvertible)? {
            guard let value = try optional(column, as: Any.self) else { return nil }
            guard let convertible = value as? any DatabaseValueConvertible else {
                throw FixtureValueParser.Failure("the value of \(column), a \(Swift.type(of: value)), is not DatabaseValueConvertible")
            }
            return convertible
        }
    }

    /// Writes the probes of one row as GRDB wrote them.
    static func write(_ row: [GRDBValuesProbe], _ values: RowValues, _ db: Database) throws {
        let probe = row[0]
        switch probe.write {
        case "argument":
            let value = try values.argument(probe.column)
            try db.execute(
                sql: "INSERT INTO \(probe.table) (id, \(probe.column)) VALUES (?, ?)",
                arguments: [values.rowid, value])
        case "named-argument":
            let value = try values.argument(probe.column)
            try db.execute(
                sql: "INSERT INTO \(probe.table) (id, \(probe.column)) VALUES (:id, :\(probe.column))",
                arguments: ["id": values.rowid, probe.column: value])
        case "record":
            try insertRecord(probe, values, db)
        case "container":
            guard probe.table == "manual" else { throw FixtureValueParser.Failure("no container record for \(probe.table)") }
            try ManualRecord(values).insert(db)
        default:
            throw FixtureValueParser.Failure("unknown write \(probe.write)")
        }
    }

    /// The third part of the probe name: `date.strategy.<strategy>.…`.
    static func strategy(_ probe: GRDBValuesProbe) -> String {
        probe.name.split(separator: ".").dropFirst(2).first.map(String.init) ?? ""
    }

    /// Inserts the Codable record of the probe's table, made from the
    /// values of its row.
    static func insertRecord(_ probe: GRDBValuesProbe, _ values: RowValues, _ db: Database) throws {
        let id = values.rowid
        switch probe.table {
        case "records":
            try insertValueRecord(probe.swiftType, values, db)
        case "dates":
            try insertDateRecord(strategy: strategy(probe), id: id, date: values.value("date"), db)
        case "uuids":
            let uuid: UUID = try values.value("uuid")
            switch strategy(probe) {
            case "deferredToUUID": try DeferredUUIDRecord(id: id, uuid: uuid).insert(db)
            case "uppercaseString": try UppercaseUUIDRecord(id: id, uuid: uuid).insert(db)
            case "lowercaseString": try LowercaseUUIDRecord(id: id, uuid: uuid).insert(db)
            default: throw FixtureValueParser.Failure("unknown UUID strategy of \(probe.name)")
            }
        case "datas":
            let data: Data = try values.value("data")
            switch strategy(probe) {
            case "deferredToData": try DeferredDataRecord(id: id, data: data).insert(db)
            case "text": try TextDataRecord(id: id, data: data).insert(db)
            case "custom": try Base64DataRecord(id: id, data: data).insert(db)
            default: throw FixtureValueParser.Failure("unknown data strategy of \(probe.name)")
            }
        case "events":
            try EventRecord(id: id, createdAt: values.value("createdAt"), updatedAt: values.value("updatedAt")).insert(db)
        case "nulls":
            try NullsRecord(
                id: id, int: values.optional("int"), string: values.optional("string"), double: values.optional("double"),
                date: values.optional("date"), data: values.optional("data"), uuid: values.optional("uuid"),
                nested: values.optional("nested"), tags: values.optional("tags"), color: values.optional("color"),
                bool: values.optional("bool")
            ).insert(db)
        case "json_record":
            try JSONRecord(
                id: id, tags: values.value("tags"), stats: values.value("stats"), nested: values.value("nested"),
                optionalNested: values.optional("optionalNested"), emptyArray: values.value("emptyArray"),
                dates: values.value("dates")
            ).insert(db)
        case "snake_record":
            try SnakeRecord(
                id: id, firstName: values.value("first_name"), userId: values.value("user_id"),
                createdAt: values.value("created_at"), homeAddress: values.value("home_address"),
                isActive: values.value("is_active")
            ).insert(db)
        case "custom_columns":
            try CustomColumnsRecord(id: id, name: values.value("col_name"), score: values.value("col_score")).insert(db)
        case "custom_json":
            try CustomJSONRecord(id: id, payload: values.value("payload"), plain: values.value("plain")).insert(db)
        case "snake_json":
            try SnakeJSONRecord(id: id, nestedValue: values.value("nested_value")).insert(db)
        default:
            throw FixtureValueParser.Failure("no record for the table \(probe.table)")
        }
    }

    /// `records`: the record of the value's type.
    static func insertValueRecord(_ swiftType: String, _ values: RowValues, _ db: Database) throws {
        func insert<T: Codable>(_ type: T.Type) throws {
            try ValueRecord(id: values.rowid, value: values.value("value", as: T.self)).insert(db)
        }
        switch FixtureValueParser.normalizedType(swiftType) {
        case "Bool": try insert(Bool.self)
        case "Int": try insert(Int.self)
        case "Int8": try insert(Int8.self)
        case "Int16": try insert(Int16.self)
        case "Int32": try insert(Int32.self)
        case "Int64": try insert(Int64.self)
        case "UInt": try insert(UInt.self)
        case "UInt8": try insert(UInt8.self)
        case "UInt16": try insert(UInt16.self)
        case "UInt32": try insert(UInt32.self)
        case "UInt64": try insert(UInt64.self)
        case "Double": try insert(Double.self)
        case "Float": try insert(Float.self)
        case "String": try insert(String.self)
        case "Data": try insert(Data.self)
        case "Date": try insert(Date.self)
        case "DatabaseDateComponents": try insert(DatabaseDateComponents.self)
        case "UUID": try insert(UUID.self)
        case "Color": try insert(Types.Color.self)
        case "Level": try insert(Types.Level.self)
        case "Mood": try insert(Types.Mood.self)
        case "Celsius": try insert(Types.Celsius.self)
        case "Token": try insert(Types.Token.self)
        case "Address": try insert(Types.Address.self)
        case "Place": try insert(Types.Place.self)
        case "Nested": try insert(Types.Nested.self)
        case "Array<String>": try insert([String].self)
        case "Array<Int>": try insert([Int].self)
        case "Array<Double>": try insert([Double].self)
        case "Array<Optional<Int>>": try insert([Int?].self)
        case "Array<Nested>": try insert([Types.Nested].self)
        case "Array<Date>": try insert([Date].self)
        case "Array<Data>": try insert([Data].self)
        case "Dictionary<String, Int>": try insert([String: Int].self)
        case "Dictionary<String, Child>": try insert([String: Types.Child].self)
        default: throw FixtureValueParser.Failure("no record for the type \(swiftType)")
        }
    }

    /// `dates`: the record of the strategy.
    static func insertDateRecord(strategy: String, id: Int64, date: Date, _ db: Database) throws {
        func insert<R: DateStrategyRecord>(_ type: R.Type) throws {
            try R(id: id, date: date).insert(db)
        }
        switch strategy {
        case "deferredToDate": try insert(DeferredDateRecord.self)
        case "timeIntervalSinceReferenceDate": try insert(ReferenceDateRecord.self)
        case "timeIntervalSince1970": try insert(UnixDateRecord.self)
        case "secondsSince1970": try insert(SecondsDateRecord.self)
        case "millisecondsSince1970": try insert(MillisecondsDateRecord.self)
        case "iso8601": try insert(ISO8601DateRecord.self)
        case "formatted": try insert(FormattedDateRecord.self)
        case "custom": try insert(CustomDateRecord.self)
        default: throw FixtureValueParser.Failure("unknown date strategy \(strategy)")
        }
    }

    // MARK: Reading

    /// `quote()`, `hex()` and `typeof()` of the probe's cell, nil when
    /// there is no row.
    static func stored(_ probe: GRDBValuesProbe, _ db: Database) throws -> Stored? {
        let column = "\"\(probe.column)\""
        guard let row = try Row.fetchOne(
            db,
            sql: "SELECT quote(\(column)), hex(\(column)), typeof(\(column)) FROM \(probe.table) WHERE id = ?",
            arguments: [probe.rowid])
        else { return nil }
        return Stored(quote: row[0], hex: row[1], typeof: row[2])
    }

    // MARK: Records

    /// `records`: one value of any type.
    struct ValueRecord<Value: Codable>: Codable, PersistableRecord {
        static var databaseTableName: String { "records" }
        var id: Int64
        var value: Value
    }

    /// `dates`: one record type per strategy.
    protocol DateStrategyRecord: PersistableRecord {
        init(id: Int64, date: Date)
    }

    struct DeferredDateRecord: Codable, DateStrategyRecord {
        static let databaseTableName = "dates"
        var id: Int64; var date: Date
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .deferredToDate }
    }

    struct ReferenceDateRecord: Codable, DateStrategyRecord {
        static let databaseTableName = "dates"
        var id: Int64; var date: Date
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
            .timeIntervalSinceReferenceDate
        }
    }

    struct UnixDateRecord: Codable, DateStrategyRecord {
        static let databaseTableName = "dates"
        var id: Int64; var date: Date
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
    }

    struct SecondsDateRecord: Codable, DateStrategyRecord {
        static let databaseTableName = "dates"
        var id: Int64; var date: Date
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .secondsSince1970 }
    }

    struct MillisecondsDateRecord: Codable, DateStrategyRecord {
        static let databaseTableName = "dates"
        var id: Int64; var date: Date
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .millisecondsSince1970 }
    }

    struct ISO8601DateRecord: Codable, DateStrategyRecord {
        static let databaseTableName = "dates"
        var id: Int64; var date: Date
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .iso8601 }
    }

    /// The DateFormatter of the fixture (`yyyy-MM-dd'T'HH:mm:ss.SSSZZZZZ`,
    /// UTC+1).
    struct FormattedDateRecord: Codable, DateStrategyRecord {
        static let databaseTableName = "dates"
        var id: Int64; var date: Date
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
            .formatted(GRDBValuesReadTests.fixtureFormatter())
        }
    }

    /// `t=<whole seconds since 1970, rounded down>`.
    struct CustomDateRecord: Codable, DateStrategyRecord {
        static let databaseTableName = "dates"
        var id: Int64; var date: Date
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
            .custom { date in "t=\(Int64(date.timeIntervalSince1970.rounded(.down)))" }
        }
    }

    struct DeferredUUIDRecord: Codable, PersistableRecord {
        static let databaseTableName = "uuids"
        var id: Int64; var uuid: UUID
        static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .deferredToUUID }
    }

    struct UppercaseUUIDRecord: Codable, PersistableRecord {
        static let databaseTableName = "uuids"
        var id: Int64; var uuid: UUID
        static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }
    }

    struct LowercaseUUIDRecord: Codable, PersistableRecord {
        static let databaseTableName = "uuids"
        var id: Int64; var uuid: UUID
        static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .lowercaseString }
    }

    struct DeferredDataRecord: Codable, PersistableRecord {
        static let databaseTableName = "datas"
        var id: Int64; var data: Data
        static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy { .deferredToData }
    }

    struct TextDataRecord: Codable, PersistableRecord {
        static let databaseTableName = "datas"
        var id: Int64; var data: Data
        static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy { .text }
    }

    /// Data stored as base64 text.
    struct Base64DataRecord: Codable, PersistableRecord {
        static let databaseTableName = "datas"
        var id: Int64; var data: Data
        static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
            .custom { $0.base64EncodedString() }
        }
    }

    /// Date strategies chosen by column.
    struct EventRecord: Codable, PersistableRecord {
        static let databaseTableName = "events"
        var id: Int64; var createdAt: Date; var updatedAt: Date
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
            column == "updatedAt" ? .timeIntervalSince1970 : .deferredToDate
        }
    }

    struct NullsRecord: Codable, PersistableRecord {
        static let databaseTableName = "nulls"
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
    }

    struct JSONRecord: Codable, PersistableRecord {
        static let databaseTableName = "json_record"
        var id: Int64
        var tags: [String]
        var stats: [String: Int]
        var nested: Types.Nested
        var optionalNested: Types.Nested?
        var emptyArray: [Int]
        var dates: [Date]
    }

    struct SnakeRecord: Codable, PersistableRecord {
        static let databaseTableName = "snake_record"
        static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
        var id: Int64
        var firstName: String
        var userId: Int64
        var createdAt: Date
        var homeAddress: Types.Address
        var isActive: Bool
    }

    /// Columns `col_<key>`, except `id`.
    struct CustomColumnsRecord: Codable, PersistableRecord {
        static let databaseTableName = "custom_columns"
        static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.custom { key in
            key.stringValue == "id" ? "id" : "col_" + key.stringValue
        }
        var id: Int64; var name: String; var score: Int
    }

    /// A JSON encoder per column.
    struct CustomJSONRecord: Codable, PersistableRecord {
        static let databaseTableName = "custom_json"
        var id: Int64; var payload: Types.Nested; var plain: Types.Nested
        static func databaseJSONEncoder(for column: String) -> JSONEncoder {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            if column == "payload" {
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                encoder.dateEncodingStrategy = .iso8601
                encoder.dataEncodingStrategy = .base64
                encoder.keyEncodingStrategy = .convertToSnakeCase
            }
            return encoder
        }
    }

    /// Snake-cased columns, and a JSON encoder that tells which name it is
    /// given: the coding key (`byKey`) or the column (`byColumn`).
    struct SnakeJSONRecord: Codable, PersistableRecord {
        static let databaseTableName = "snake_json"
        static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
        var id: Int64; var nestedValue: Types.Child
        static func databaseJSONEncoder(for column: String) -> JSONEncoder {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let renamed: String? = switch column {
            case "nestedValue": "byKey"
            case "nested_value": "byColumn"
            default: nil
            }
            if let renamed {
                encoder.keyEncodingStrategy = .custom { _ in GRDBValuesReadTests.AnyKey(stringValue: renamed) }
            }
            return encoder
        }
    }

    /// `manual`: a record without Codable that fills its container.
    struct ManualRecord: PersistableRecord {
        static let databaseTableName = "manual"
        var id: Int64
        var dbValue: DatabaseValue
        var date: Date
        var uuid: UUID
        var data: Data
        var text: String
        var flag: Bool
        var real: Double
        var int64: Int64
        var optionalInt: Int?

        init(_ values: RowValues) throws {
            id = values.rowid
            dbValue = try values.value("dbValue")
            date = try values.value("date")
            uuid = try values.value("uuid")
            data = try values.value("data")
            text = try values.value("text")
            flag = try values.value("flag")
            real = try values.value("real")
            int64 = try values.value("int64")
            optionalInt = try values.optional("optionalInt")
        }

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["dbValue"] = dbValue
            container["date"] = date
            container["uuid"] = uuid
            container["data"] = data
            container["text"] = text
            container["flag"] = flag
            container["real"] = real
            container["int64"] = int64
            container["optionalInt"] = optionalInt
        }
    }
}
