/// The values of a record, keyed by column: what ``EncodableRecord`` records
/// encode into, and what persistence methods insert and update.
///
/// ```swift
/// struct Player: EncodableRecord {
///     var id: Int64?
///     var name: String
///     func encode(to container: inout PersistenceContainer) {
///         container["id"] = id
///         container["name"] = name
///     }
/// }
/// ```
///
/// Columns keep the order in which they are set. Column names are compared
/// without regard to ASCII case; setting a column twice replaces its value.
public struct PersistenceContainer: Sendable {
    /// The column names, in order.
    public private(set) var columns: [String] = []

    /// The values, in the order of the columns.
    public private(set) var values: [DatabaseValue] = []

    /// The case-insensitive keys of the columns: a column lookup compares
    /// integers, and compares strings only when they match.
    private var keys: [UInt64] = []

    /// Creates an empty container.
    public init() {
        columns.reserveCapacity(16)
        values.reserveCapacity(16)
        keys.reserveCapacity(16)
    }

    /// Creates a container that holds the values of a row.
    public init(_ row: Row) {
        for (column, value) in row {
            self[column] = value
        }
    }

    /// The value of a column: nil when the column is missing or NULL.
    public subscript(_ column: String) -> (any DatabaseValueConvertible)? {
        get {
            guard let value = databaseValue(forColumn: column), !value.isNull else { return nil }
            return value
        }
        set {
            setValue(newValue?.databaseValue ?? .null, forColumn: column)
        }
    }

    /// The value of a column: nil when the column is missing or NULL.
    public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
        get { self[column.name] }
        set { self[column.name] = newValue }
    }

    /// The (column, value) pairs, in order.
    var storage: Zip2Sequence<[String], [DatabaseValue]> { zip(columns, values) }

    /// Whether the container is empty.
    var isEmpty: Bool { columns.isEmpty }

    /// Whether the container has a column (compared without regard to case).
    public func hasColumn(_ column: String) -> Bool {
        index(ofColumn: column) != nil
    }

    /// The stored value of a column, NULL included, or nil when the column
    /// is missing.
    func databaseValue(forColumn column: String) -> DatabaseValue? {
        index(ofColumn: column).map { values[$0] }
    }

    mutating func setValue(_ value: DatabaseValue, forColumn column: String) {
        let key = column.caseInsensitiveKey
        if let index = index(ofColumn: column, key: key) {
            values[index] = value
        } else {
            columns.append(column)
            values.append(value)
            keys.append(key)
        }
    }

    /// Sets a value, replacing the value of a column of the exact same name.
    /// Encoders use it: coding keys are unique, and a case-insensitive
    /// search for each key would cost more than the rest of encoding.
    mutating func setValueMatchingExactly(_ value: DatabaseValue, forColumn column: String) {
        if let index = columns.firstIndex(of: column) {
            values[index] = value
        } else {
            columns.append(column)
            values.append(value)
            keys.append(column.caseInsensitiveKey)
        }
    }

    private func index(ofColumn column: String, key: UInt64? = nil) -> Int? {
        let key = key ?? column.caseInsensitiveKey
        for index in keys.indices where keys[index] == key {
            if columns[index].equalsIgnoringASCIICase(column) { return index }
        }
        return nil
    }

    /// The values as a dictionary.
    var dictionary: [String: DatabaseValue] {
        Dictionary(zip(columns, values).map { ($0, $1) }, uniquingKeysWith: { $1 })
    }
}
