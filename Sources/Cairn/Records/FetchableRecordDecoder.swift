/// Decodes `Decodable` records from rows, as their default
/// ``FetchableRecord/init(row:)`` does.
///
/// Use it when a record type implements its own `init(row:)` and still wants
/// the decoding of its `Decodable` implementation, with its strategies
/// (``FetchableRecord/databaseColumnDecodingStrategy``,
/// ``FetchableRecord/databaseDateDecodingStrategy(for:)``…):
///
/// ```swift
/// struct Player: Decodable, FetchableRecord {
///     var name: String
///     var score: Int
///
///     init(row: Row) throws {
///         // Custom processing, then the Decodable decoding:
///         self = try FetchableRecordDecoder().decode(Player.self, from: row)
///     }
/// }
/// ```
public final class FetchableRecordDecoder {
    /// Creates a decoder.
    public init() { }

    /// Decodes a record from a row, with the `Decodable` implementation of
    /// the record type and the decoding strategies of ``FetchableRecord``.
    ///
    /// - Parameters:
    ///   - type: The record type.
    ///   - row: The row.
    /// - Throws: A ``RowDecodingError`` that names the column that cannot be
    ///   decoded, or the error of the record's `init(from:)`.
    public func decode<T: FetchableRecord & Decodable>(_ type: T.Type, from row: Row) throws -> T {
        let scope = row._beginDecoding()
        defer { row._endDecoding(scope) }
        return try T(from: RecordDecoder(row: row, recordType: T.self))
    }
}
