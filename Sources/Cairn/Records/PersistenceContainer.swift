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
    /// The columns and values, in order.
    private(set) var storage: [(column: String, value: DatabaseValue)] = []

    /// Creates an empty container.
    public init() { }

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

    /// The column names, in order.
    public var columns: [String] { storage.map { $0.column } }

    /// The values, in the order of the columns.
    public var values: [DatabaseValue] { storage.map { $0.value } }

    /// Whether the container has a column (compared without regard to case).
    public func hasColumn(_ column: String) -> Bool {
        index(ofColumn: column) != nil
    }

    /// The stored value of a column, NULL included, or nil when the column
    /// is missing.
    func databaseValue(forColumn column: String) -> DatabaseValue? {
        index(ofColumn: column).map { storage[$0].value }
    }

    mutating func setValue(_ value: DatabaseValue, forColumn column: String) {
        if let index = index(ofColumn: column) {
            storage[index].value = value
        } else {
            storage.append((column, value))
        }
    }

    /// Sets a value, replacing the value of a column of the exact same name.
    /// Encoders use it: coding keys are unique, and a case-insensitive
    /// search for each key would cost more than the rest of encoding.
    mutating func setValueMatchingExactly(_ value: DatabaseValue, forColumn column: String) {
        if let index = storage.firstIndex(where: { $0.column == column }) {
            storage[index].value = value
        } else {
            storage.append((column, value))
        }
    }

    private func index(ofColumn column: String) -> Int? {
        // Most lookups use the exact spelling.
        if let index = storage.firstIndex(where: { $0.column == column }) { return index }
        return storage.firstIndex { $0.column.equalsIgnoringASCIICase(column) }
    }

    /// The values as a dictionary.
    var dictionary: [String: DatabaseValue] {
        Dictionary(storage.map { ($0.column, $0.value) }, uniquingKeysWith: { $1 })
    }
}
