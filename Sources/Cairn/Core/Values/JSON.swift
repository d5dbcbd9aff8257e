import Foundation

// Codable values that declare DatabaseValueConvertible are stored as JSON
// text. Enums with a raw value keep storing their raw value.

extension DatabaseValueConvertible where Self: Encodable {
    /// The value encoded as JSON text, with sorted keys so that equal values
    /// give equal text.
    ///
    /// Non-finite floating-point numbers are encoded as the strings `"NaN"`,
    /// `"Infinity"` and `"-Infinity"`. A value whose `encode(to:)` throws is a
    /// programmer error and stops the program with the encoding error.
    public var databaseValue: DatabaseValue {
        do {
            let data = try JSONCoding.makeEncoder().encode(self)
            return DatabaseValue(storage: .string(String(decoding: data, as: UTF8.self)))
        } catch {
            fatalError("Could not encode \(Self.self) as JSON: \(error)")
        }
    }
}

extension DatabaseValueConvertible where Self: Decodable {
    /// Decodes JSON from TEXT or BLOB; nil for other values and for invalid
    /// JSON.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        let data: Data
        switch dbValue.storage {
        case .string(let string): data = Data(string.utf8)
        case .blob(let blob): data = blob
        default: return nil
        }
        return try? JSONCoding.makeDecoder().decode(Self.self, from: data)
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
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
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
