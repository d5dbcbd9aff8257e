/// An error thrown by a record operation that is not an SQLite error.
public enum RecordError: Error, Sendable, CustomStringConvertible {
    /// The record was not found: an update found no row with its key.
    ///
    /// - Parameters:
    ///   - databaseTableName: The table.
    ///   - key: The key of the record.
    case recordNotFound(databaseTableName: String, key: [String: DatabaseValue])

    /// The key of the record is not a primary key or unique key of its
    /// table, or is missing from the record.
    case invalidKey(databaseTableName: String, message: String)

    /// A description of the error, such as `Key not found in table player:
    /// [id:1]`.
    public var description: String {
        switch self {
        case let .recordNotFound(databaseTableName, key):
            // The key as GRDB prints it, as a row (`[a:1 b:2]`), with its
            // columns sorted by name.
            let keyDescription = key.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: " ")
            return "Key not found in table \(databaseTableName): [\(keyDescription)]"
        case let .invalidKey(databaseTableName, message):
            return "Invalid key for table \(databaseTableName): \(message)"
        }
    }
}

/// The former name of ``RecordError``.
@available(*, deprecated, renamed: "RecordError")
public typealias PersistenceError = RecordError
