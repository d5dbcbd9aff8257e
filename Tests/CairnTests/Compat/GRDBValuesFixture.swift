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
