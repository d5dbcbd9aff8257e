import Foundation
import Cairn

// The GRDB 7.8.0 values fixture (Tests/Fixtures/GRDB-7.8.0, see its
// README): a database that GRDB wrote, and the manifest of its 342 values
// ("probes"): where each one is stored, how GRDB wrote and read it, what
// SQLite holds, and what GRDB reads back, as a description.
//
// This file loads the manifest, describes values the way the manifest does,
// and declares the Swift types that GRDB used to write and read them.

/// One value of the fixture.
struct GRDBValuesProbe: Decodable, Sendable, CustomStringConvertible {
    var name: String
    var category: String
    var table: String
    var rowid: Int64
    var column: String
    /// `argument`, `named-argument`, `record`, `container` or `sql`.
    var write: String
    /// `fetchOne`, `record` or `row`.
    var read: String
    var swiftType: String
    var written: String
    var quote: String
    var typeof: String
    var hex: String
    /// What GRDB read back: `error` when the read threw, `(no row)` when
    /// the write threw.
    // The manifest names it `description`, which `CustomStringConvertible`
    // takes: decoded under another name.
    var readBack: String

    enum CodingKeys: String, CodingKey {
        case name, category, table, rowid, column, write, read, swiftType, written, quote, typeof, hex
        case readBack = "description"
    }

    var description: String { name }
}

enum GRDBValuesFixture {
    /// Tests/Fixtures/GRDB-7.8.0.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Compat
        .deletingLastPathComponent()  // CairnTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures/GRDB-7.8.0")

    static let databaseURL = directory.appendingPathComponent("grdb-7.8.0-values.sqlite")

    private struct Manifest: Decodable {
        var probeCount: Int
        var probes: [GRDBValuesProbe]
    }

    /// The probes of the manifest, in its order.
    static let probes: [GRDBValuesProbe] = {
        do {
            let data = try Data(contentsOf: directory.appendingPathComponent("grdb-7.8.0-values.json"))
            let manifest = try JSONDecoder().decode(Manifest.self, from: data)
            guard manifest.probes.count == manifest.probeCount else {
                fatalError("the manifest declares \(manifest.probeCount) probes and holds \(manifest.probes.count)")
            }
            return manifest.probes
        } catch {
            fatalError("cannot read the manifest of the GRDB values fixture: \(error)")
        }
    }()

    /// A read-only queue on a copy of the fixture in `directory`.
    static func openCopy(in directory: TemporaryDirectory) throws -> DatabaseQueue {
        let path = directory.filePath("grdb-7.8.0-values.sqlite")
        try FileManager.default.copyItem(atPath: databaseURL.path, toPath: path)
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}

// MARK: - Descriptions

/// A value that describes itself as the manifest does.
protocol FixtureDescribable {
    var fixtureDescription: String { get }
}

/// The manifest's description of an optional value.
func fixtureDescription(_ value: (any FixtureDescribable)?) -> String {
    value?.fixtureDescription ?? "nil"
}

extension Optional: FixtureDescribable where Wrapped: FixtureDescribable {
    var fixtureDescription: String { map(\.fixtureDescription) ?? "nil" }
}

/// `Int8(127)`: the type, then Swift's description.
protocol TypedFixtureDescribable: FixtureDescribable, CustomStringConvertible { }

extension TypedFixtureDescribable {
    var fixtureDescription: String { "\(Self.self)(\(description))" }
}

extension Bool: TypedFixtureDescribable { }
extension Int: TypedFixtureDescribable { }
extension Int8: TypedFixtureDescribable { }
extension Int16: TypedFixtureDescribable { }
extension Int32: TypedFixtureDescribable { }
extension Int64: TypedFixtureDescribable { }
extension UInt: TypedFixtureDescribable { }
extension UInt8: TypedFixtureDescribable { }
extension UInt16: TypedFixtureDescribable { }
extension UInt32: TypedFixtureDescribable { }
extension UInt64: TypedFixtureDescribable { }
extension Double: TypedFixtureDescribable { }
extension Float: TypedFixtureDescribable { }

extension String: FixtureDescribable {
    /// A Swift literal: `"a\0b"`.
    var fixtureDescription: String { String(reflecting: self) }
}

/// `x'000102ff'`, lowercase.
func fixtureHex(_ data: Data) -> String {
    "x'" + data.map { byte in byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }.joined() + "'"
}

extension Data: FixtureDescribable {
    var fixtureDescription: String { "Data(\(count) bytes \(fixtureHex(self)))" }
}

extension UUID: FixtureDescribable {
    var fixtureDescription: String { "UUID(\(uuidString))" }
}

extension Date: FixtureDescribable {
    private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        return formatter
    }()

    /// `Date(721692800.123 = 2023-11-14 22:13:20.123 UTC)`.
    var fixtureDescription: String {
        "Date(\(timeIntervalSinceReferenceDate) = \(Date.formatter.string(from: self)) UTC)"
    }
}

extension DatabaseDateComponents: FixtureDescribable {
    /// `DatabaseDateComponents(yyyy-MM-dd: y=2024 mo=3 d=5 h=- mi=- s=- ns=- tz=-)`.
    var fixtureDescription: String {
        let c = dateComponents
        func part(_ value: Int?) -> String { value.map(String.init) ?? "-" }
        let tz = c.timeZone.map { "\($0.secondsFromGMT())s" } ?? "-"
        return "DatabaseDateComponents(\(format.rawValue): y=\(part(c.year)) mo=\(part(c.month)) d=\(part(c.day)) "
            + "h=\(part(c.hour)) mi=\(part(c.minute)) s=\(part(c.second)) ns=\(part(c.nanosecond)) tz=\(tz))"
    }
}

extension DatabaseValue: FixtureDescribable {
    /// `DatabaseValue(INTEGER 42)`, `DatabaseValue(BLOB x'0102')`.
    var fixtureDescription: String {
        switch storage {
        case .null: return "DatabaseValue(NULL)"
        case .int64(let value): return "DatabaseValue(INTEGER \(value))"
        case .double(let value): return "DatabaseValue(REAL \(value))"
        case .string(let value): return "DatabaseValue(TEXT \(String(reflecting: value)))"
        case .blob(let value): return "DatabaseValue(BLOB \(fixtureHex(value)))"
        }
    }
}

/// `Color.green(raw: "green")`.
protocol RawFixtureDescribable: FixtureDescribable, RawRepresentable where RawValue: FixtureDescribable { }

extension RawFixtureDescribable {
    var fixtureDescription: String { "\(Self.self).\(self)(raw: \(rawValue.fixtureDescription))" }
}

/// Other Codable values: the type name, a space, and their JSON (sorted
/// keys, dates as seconds since 2001, data in base64).
protocol JSONFixtureDescribable: FixtureDescribable, Encodable { }

extension JSONFixtureDescribable {
    var fixtureDescription: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .deferredToDate
        encoder.dataEncodingStrategy = .base64
        do {
            return "\(Self.self) " + String(decoding: try encoder.encode(self), as: UTF8.self)
        } catch {
            return "\(Self.self) (cannot be encoded: \(error))"
        }
    }
}

extension Array: FixtureDescribable, JSONFixtureDescribable where Element: Encodable { }
extension Dictionary: FixtureDescribable, JSONFixtureDescribable where Key: Encodable, Value: Encodable { }

// MARK: - The value types of the fixture

enum GRDBFixtureTypes {
    enum Color: String, Codable, DatabaseValueConvertible, RawFixtureDescribable {
        case red, green
    }

    enum Level: Int, Codable, DatabaseValueConvertible, RawFixtureDescribable {
        case low = 1, high = 2
    }

    /// Codable only.
    enum Mood: String, Codable, RawFixtureDescribable {
        case happy, grumpy
    }

    /// Encodes one Double.
    struct Celsius: Codable, DatabaseValueConvertible, JSONFixtureDescribable {
        var degrees: Double

        init(degrees: Double) { self.degrees = degrees }

        init(from decoder: any Decoder) throws {
            degrees = try decoder.singleValueContainer().decode(Double.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(degrees)
        }
    }

    /// Encodes one String.
    struct Token: Codable, DatabaseValueConvertible, JSONFixtureDescribable {
        var raw: String

        init(raw: String) { self.raw = raw }

        init(from decoder: any Decoder) throws {
            raw = try decoder.singleValueContainer().decode(String.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(raw)
        }
    }

    struct Address: Codable, DatabaseValueConvertible, JSONFixtureDescribable {
        var street: String
        var city: String
        var zip: Int?
    }

    /// JSON with its own coders.
    struct Place: Codable, DatabaseValueConvertible, JSONFixtureDescribable {
        var name: String
        var url: String
        var visited: Date

        static func databaseJSONEncoder() -> JSONEncoder {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            return encoder
        }

        static func databaseJSONDecoder() -> JSONDecoder {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return decoder
        }
    }

    struct Child: Codable, Sendable, JSONFixtureDescribable {
        var label: String
    }

    struct Nested: Codable, Sendable, JSONFixtureDescribable {
        var name: String
        var count: Int
        var ratio: Double
        var flag: Bool
        var date: Date
        var data: Data
        var uuid: UUID
        var tags: [String]
        var child: Child?
        var children: [Child]
    }
}

// MARK: - Parsing the descriptions

/// The Swift value that a description of the manifest (`written`) shows:
/// the inverse of the descriptions above.
enum FixtureValueParser {
    /// A description that the parser does not understand: a bug of the
    /// test, not a difference of Cairn.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The value of type `swiftType` that `written` describes, nil for
    /// `nil`.
    ///
    /// `swiftType` is a name of the manifest: `Int8`, `Date?`, `[String]`,
    /// `Array<Nested>`, `Dictionary<String, Int>`…
    static func value(_ written: String, swiftType: String) throws -> Any? {
        if written == "nil" { return nil }
        let type = normalizedType(swiftType)
        switch type {
        case "Bool":
            switch try enclosed(written, in: "Bool") {
            case "true": return true
            case "false": return false
            default: throw Failure("\(written) is not a Bool")
            }
        case "Int": return try integer(written, Int.self)
        case "Int8": return try integer(written, Int8.self)
        case "Int16": return try integer(written, Int16.self)
        case "Int32": return try integer(written, Int32.self)
        case "Int64": return try integer(written, Int64.self)
        case "UInt": return try integer(written, UInt.self)
        case "UInt8": return try integer(written, UInt8.self)
        case "UInt16": return try integer(written, UInt16.self)
        case "UInt32": return try integer(written, UInt32.self)
        case "UInt64": return try integer(written, UInt64.self)
        case "Double": return try double(try enclosed(written, in: "Double"))
        case "Float": return try float(try enclosed(written, in: "Float"))
        case "String": return try stringLiteral(written)
        case "Data": return try data(try enclosed(written, in: "Data"))
        case "UUID":
            let text = try enclosed(written, in: "UUID")
            guard let uuid = UUID(uuidString: text) else { throw Failure("\(written) is not a UUID") }
            return uuid
        case "Date": return try date(try enclosed(written, in: "Date"))
        case "DatabaseDateComponents": return try dateComponents(try enclosed(written, in: "DatabaseDateComponents"))
        case "DatabaseValue": return try databaseValue(try enclosed(written, in: "DatabaseValue"))
        case "Color":
            let raw = try enumRaw(written, type: type)
            return try enumCase(GRDBFixtureTypes.Color.self, try stringLiteral(raw.raw), name: raw.name, written)
        case "Level":
            let raw = try enumRaw(written, type: type)
            return try enumCase(GRDBFixtureTypes.Level.self, try integer(raw.raw, Int.self), name: raw.name, written)
        case "Mood":
            let raw = try enumRaw(written, type: type)
            return try enumCase(GRDBFixtureTypes.Mood.self, try stringLiteral(raw.raw), name: raw.name, written)
        default:
            return try jsonValue(written, type: type)
        }
    }

    /// `Date?` is `Date`, `[String]` is `Array<String>`, `[String: Int]` is
    /// `Dictionary<String, Int>`.
    static func normalizedType(_ swiftType: String) -> String {
        var type = Substring(swiftType)
        if type.hasSuffix("?") { type = type.dropLast() }
        guard type.hasPrefix("["), type.hasSuffix("]") else { return String(type) }
        let inner = type.dropFirst().dropLast()
        if let colon = inner.range(of: ": ") {
            return "Dictionary<\(inner[..<colon.lowerBound]), \(inner[colon.upperBound...])>"
        }
        return "Array<\(inner)>"
    }

    /// `text` of `Type(text)`.
    private static func enclosed(_ written: String, in type: String) throws -> String {
        guard written.hasPrefix(type + "("), written.hasSuffix(")") else {
            throw Failure("\(written) is not \(type)(…)")
        }
        return String(written.dropFirst(type.count + 1).dropLast())
    }

    private static func integer<T: FixedWidthInteger>(_ written: String, _ type: T.Type) throws -> T {
        guard let value = T(try enclosed(written, in: "\(T.self)")) else { throw Failure("\(written) is not a \(T.self)") }
        return value
    }

    /// Swift's description of a Double: `0.1`, `1e-300`, `inf`, `-inf`,
    /// `nan`, `-0.0`.
    private static func double(_ text: String) throws -> Double {
        switch text {
        case "inf": return .infinity
        case "-inf": return -.infinity
        case "nan": return .nan
        default:
            guard let value = Double(text), value.isFinite else { throw Failure("\(text) is not a Double") }
            return value
        }
    }

    private static func float(_ text: String) throws -> Float {
        switch text {
        case "inf": return .infinity
        case "-inf": return -.infinity
        case "nan": return .nan
        default:
            guard let value = Float(text), value.isFinite else { throw Failure("\(text) is not a Float") }
            return value
        }
    }

    /// A Swift string literal, as `String(reflecting:)` writes it: escapes
    /// `\0 \t \n \r \" \' \\ \u{…}`.
    static func stringLiteral(_ literal: String) throws -> String {
        let scalars = Array(literal.unicodeScalars)
        guard scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" else {
            throw Failure("\(literal) is not a string literal")
        }
        var result = String.UnicodeScalarView()
        var index = 1
        let end = scalars.count - 1
        while index < end {
            let scalar = scalars[index]
            index += 1
            if scalar == "\"" { throw Failure("\(literal): a quote is not escaped") }
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            guard index < end else { throw Failure("\(literal) ends with a backslash") }
            let escaped = scalars[index]
            index += 1
            switch escaped {
            case "0": result.append("\0")
            case "t": result.append("\t")
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "\"", "'", "\\": result.append(escaped)
            case "u":
                guard index < end, scalars[index] == "{",
                      let close = scalars[index...].firstIndex(of: "}"), close < end,
                      let code = UInt32(String(String.UnicodeScalarView(scalars[(index + 1)..<close])), radix: 16),
                      let unicode = Unicode.Scalar(code)
                else { throw Failure("\(literal): bad \\u{…}") }
                result.append(unicode)
                index = close + 1
            default:
                throw Failure("\(literal): unknown escape \\\(escaped)")
            }
        }
        return String(result)
    }

    /// `x'000102ff'`.
    private static func hexBytes(_ text: Substring) throws -> Data {
        guard text.hasPrefix("x'"), text.hasSuffix("'") else { throw Failure("\(text) is not x'…'") }
        let digits = Array(text.dropFirst(2).dropLast())
        guard digits.count.isMultiple(of: 2) else { throw Failure("\(text): odd number of digits") }
        var bytes: [UInt8] = []
        for offset in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(digits[offset...offset + 1]), radix: 16) else {
                throw Failure("\(text) is not hexadecimal")
            }
            bytes.append(byte)
        }
        return Data(bytes)
    }

    /// `4 bytes x'000102ff'`.
    private static func data(_ text: String) throws -> Data {
        guard let separator = text.range(of: " bytes "), let count = Int(text[..<separator.lowerBound]) else {
            throw Failure("\(text) is not `<count> bytes x'…'`")
        }
        let data = try hexBytes(text[separator.upperBound...])
        guard data.count == count else { throw Failure("\(text): \(data.count) bytes, not \(count)") }
        return data
    }

    /// `<timeIntervalSinceReferenceDate> = yyyy-MM-dd HH:mm:ss.SSS UTC`:
    /// the number is exact.
    private static func date(_ text: String) throws -> Date {
        guard let separator = text.range(of: " = "),
              let interval = Double(text[..<separator.lowerBound]), interval.isFinite
        else { throw Failure("\(text) is not `<seconds> = …`") }
        return Date(timeIntervalSinceReferenceDate: interval)
    }

    /// `<format>: y=2024 mo=3 d=5 h=6 mi=7 s=8 ns=123600000 tz=-`, `-` for
    /// a missing component, the time zone in seconds from GMT (`3600s`).
    private static func dateComponents(_ text: String) throws -> DatabaseDateComponents {
        guard let separator = text.range(of: ": "),
              let format = DatabaseDateComponents.Format(rawValue: String(text[..<separator.lowerBound]))
        else { throw Failure("\(text) has no format") }
        var fields: [String: String] = [:]
        for field in text[separator.upperBound...].split(separator: " ") {
            let parts = field.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { throw Failure("\(text): bad field \(field)") }
            fields[String(parts[0])] = String(parts[1])
        }
        guard fields.keys.sorted() == ["d", "h", "mi", "mo", "ns", "s", "tz", "y"] else {
            throw Failure("\(text): fields \(fields.keys.sorted())")
        }
        func component(_ name: String) throws -> Int? {
            guard let value = fields[name], value != "-" else { return nil }
            guard let number = Int(value) else { throw Failure("\(text): \(name)=\(value)") }
            return number
        }
        var components = DateComponents()
        components.year = try component("y")
        components.month = try component("mo")
        components.day = try component("d")
        components.hour = try component("h")
        components.minute = try component("mi")
        components.second = try component("s")
        components.nanosecond = try component("ns")
        if let tz = fields["tz"], tz != "-" {
            guard tz.hasSuffix("s"), let seconds = Int(tz.dropLast()), let timeZone = TimeZone(secondsFromGMT: seconds) else {
                throw Failure("\(text): tz=\(tz)")
            }
            components.timeZone = timeZone
        }
        return DatabaseDateComponents(components, format: format)
    }

    /// `NULL`, `INTEGER 42`, `REAL 3.5`, `TEXT "…"`, `BLOB x'…'`.
    private static func databaseValue(_ text: String) throws -> DatabaseValue {
        if text == "NULL" { return .null }
        guard let space = text.firstIndex(of: " ") else { throw Failure("\(text) is not a database value") }
        let payload = String(text[text.index(after: space)...])
        switch text[..<space] {
        case "INTEGER":
            guard let value = Int64(payload) else { throw Failure("\(text): not an integer") }
            return value.databaseValue
        case "REAL":
            return DatabaseValue(storage: .double(try double(payload)))
        case "TEXT":
            return DatabaseValue(storage: .string(try stringLiteral(payload)))
        case "BLOB":
            return DatabaseValue(storage: .blob(try hexBytes(Substring(payload))))
        default:
            throw Failure("\(text) is not a database value")
        }
    }

    /// `Color.green(raw: "green")`: the case name and the description of
    /// the raw value.
    private static func enumRaw(_ written: String, type: String) throws -> (name: String, raw: String) {
        guard written.hasPrefix(type + "."), let open = written.range(of: "(raw: "), written.hasSuffix(")") else {
            throw Failure("\(written) is not \(type).<case>(raw: …)")
        }
        let name = written[written.index(written.startIndex, offsetBy: type.count + 1)..<open.lowerBound]
        return (String(name), String(written[open.upperBound...].dropLast()))
    }

    /// The case of a raw value, checked against the case name of the
    /// description.
    private static func enumCase<E: RawRepresentable>(
        _ type: E.Type, _ raw: E.RawValue, name: String, _ written: String
    ) throws -> E {
        guard let value = E(rawValue: raw), "\(value)" == name else {
            throw Failure("\(written) is not a case of \(E.self)")
        }
        return value
    }

    /// The JSON decoder of the descriptions: dates as seconds since 2001,
    /// data in base64. The one non-finite value of the manifest
    /// (`json.record.nonFiniteDoubles`) is shown as `"+inf"`.
    static func makeJSONDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .deferredToDate
        decoder.dataDecodingStrategy = .base64
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }

    /// `TypeName <json>`.
    private static func jsonValue(_ written: String, type: String) throws -> Any {
        guard written.hasPrefix(type + " ") else { throw Failure("\(written) is not `\(type) <json>`") }
        let json = Data(written.dropFirst(type.count + 1).utf8)
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            do {
                return try makeJSONDecoder().decode(T.self, from: json)
            } catch {
                throw Failure("\(written): \(error)")
            }
        }
        typealias Types = GRDBFixtureTypes
        switch type {
        case "Celsius": return try decode(Types.Celsius.self)
        case "Token": return try decode(Types.Token.self)
        case "Address": return try decode(Types.Address.self)
        case "Place": return try decode(Types.Place.self)
        case "Child": return try decode(Types.Child.self)
        case "Nested": return try decode(Types.Nested.self)
        case "Array<String>": return try decode([String].self)
        case "Array<Int>": return try decode([Int].self)
        case "Array<Double>": return try decode([Double].self)
        case "Array<Optional<Int>>": return try decode([Int?].self)
        case "Array<Nested>": return try decode([Types.Nested].self)
        case "Array<Date>": return try decode([Date].self)
        case "Array<Data>": return try decode([Data].self)
        case "Dictionary<String, Int>": return try decode([String: Int].self)
        case "Dictionary<String, Child>": return try decode([String: Types.Child].self)
        default: throw Failure("unknown type \(type) of \(written)")
        }
    }
}
