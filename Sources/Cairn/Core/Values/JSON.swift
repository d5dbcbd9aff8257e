import Foundation

// Codable values that declare DatabaseValueConvertible are stored as the
// single value they encode (a wrapper of a String is stored as that
// string), or else as JSON text. Enums with a raw value store their raw
// value.

extension DatabaseValueConvertible where Self: Encodable {
    /// The single value that the value encodes, when its `encode(to:)`
    /// uses a single value container (a `Double`, a `String`, a `Date`…,
    /// stored as they are), or else the value encoded as JSON text by
    /// ``DatabaseValueConvertible/databaseJSONEncoder()`` (sorted keys, so
    /// that equal values give equal text).
    ///
    /// ```swift
    /// struct Token: Codable, DatabaseValueConvertible {
    ///     var raw: String
    ///     init(from decoder: any Decoder) throws { raw = try decoder.singleValueContainer().decode(String.self) }
    ///     func encode(to encoder: any Encoder) throws {
    ///         var container = encoder.singleValueContainer()
    ///         try container.encode(raw)
    ///     }
    /// }
    /// Token(raw: "tok/123").databaseValue   // TEXT 'tok/123'
    ///
    /// struct Address: Codable, DatabaseValueConvertible { var street: String; var city: String }
    /// Address(street: "1 Main St", city: "Paris").databaseValue
    /// // TEXT '{"city":"Paris","street":"1 Main St"}'
    /// ```
    ///
    /// A value whose `encode(to:)` throws is a programmer error and stops
    /// the program with the encoding error.
    public var databaseValue: DatabaseValue {
        do {
            if let single = try SingleValueProbe.databaseValue(of: self) {
                return single
            }
            let data = try Self.databaseJSONEncoder().encode(self)
            return DatabaseValue(storage: .string(String(decoding: data, as: UTF8.self)))
        } catch {
            stopProgram("Could not encode \(Self.self) for the database: \(error)")
        }
    }
}

extension DatabaseValueConvertible where Self: Decodable {
    /// Decodes the value from the database value itself (a value whose
    /// `init(from:)` reads a single value: a string, a number…), or else
    /// from JSON in TEXT or BLOB; nil when neither works.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        if let value = try? Self(from: DatabaseValueDecoder(dbValue: dbValue)) {
            return value
        }
        let data: Data
        switch dbValue.storage {
        case .string(let string): data = Data(string.utf8)
        case .blob(let blob): data = blob
        default: return nil
        }
        return try? databaseJSONDecoder().decode(Self.self, from: data)
    }
}

/// A decoder of one database value, for `Decodable` values that read a
/// single value: anything else (keyed or unkeyed containers) throws, and
/// the value is then decoded from JSON.
private struct DatabaseValueDecoder: Decoder, SingleValueDecodingContainer {
    let dbValue: DatabaseValue
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw DecodingError.typeMismatch(
            [String: Any].self,
            DecodingError.Context(codingPath: codingPath, debugDescription: "a single database value is not keyed"))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self,
            DecodingError.Context(codingPath: codingPath, debugDescription: "a single database value is not a list"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { dbValue.isNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let convertible = T.self as? any DatabaseValueConvertible.Type {
            guard let value = convertible.fromDatabaseValue(dbValue) as? T else {
                throw DecodingError.typeMismatch(
                    T.self,
                    DecodingError.Context(codingPath: codingPath, debugDescription: "cannot convert \(dbValue) to \(T.self)"))
            }
            return value
        }
        // A Decodable type that reads a single value in its turn.
        return try T(from: self)
    }
}

// Enums that are both Codable and RawRepresentable store their raw value.

extension DatabaseValueConvertible where Self: Encodable & RawRepresentable, Self.RawValue: DatabaseValueConvertible {
    /// The database value of the raw value.
    public var databaseValue: DatabaseValue { rawValue.databaseValue }
}

extension DatabaseValueConvertible where Self: Decodable & RawRepresentable, Self.RawValue: DatabaseValueConvertible {
    /// The value whose raw value is converted from the database value, or
    /// nil if there is none.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(dbValue).flatMap { self.init(rawValue: $0) }
    }
}

/// The JSON coders for values stored as JSON.
enum JSONCoding {
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        // GRDB's JSON: sorted keys, and slashes escaped (`"b\/c"`), so
        // that both libraries write the same text for the same value.
        encoder.outputFormatting = .sortedKeys
        encoder.dataEncodingStrategy = .base64
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return encoder
    }

    static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dataDecodingStrategy = .base64
        decoder.dateDecodingStrategy = .millisecondsSince1970
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return decoder
    }
}
