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
    /// A column name, and its case-insensitive key.
    @usableFromInline
    struct Column: Sendable {
        @usableFromInline var name: String
        /// A summary of the name: a lookup compares integers, and compares
        /// strings only when they match.
        @usableFromInline var key: UInt64

        @inlinable init(name: String, key: UInt64) {
            self.name = name
            self.key = key
        }
    }

    /// The columns, in order.
    @usableFromInline var columnEntries: [Column] = []

    /// The values, in the order of the columns.
    public private(set) var values: [DatabaseValue] = []

    /// The column names, in order.
    public var columns: [String] { columnEntries.map(\.name) }

    /// Creates an empty container.
    public init() {
        columnEntries.reserveCapacity(16)
        values.reserveCapacity(16)
    }

    /// Creates a container that holds the values of a row.
    public init(_ row: Row) {
        for (column, value) in row {
            self[column] = value
        }
    }

    /// The value of a column: nil when the column is missing or NULL.
    ///
    /// When the type of the value is known, the compiler prefers the generic
    /// subscript, which does not box the value.
    @_disfavoredOverload
    public subscript(_ column: String) -> (any DatabaseValueConvertible)? {
        get {
            guard let value = databaseValue(forColumn: column), !value.isNull else { return nil }
            return value
        }
        set {
            setValue(newValue?.databaseValue ?? .null, forColumn: column)
        }
    }

    /// The value of a column, converted: nil when the column is missing,
    /// NULL, or does not convert to `Value`.
    ///
    /// Setting a value through this subscript, which the compiler picks when
    /// the type of the value is known, spares the boxing of the value in an
    /// existential:
    ///
    /// ```swift
    /// func encode(to container: inout PersistenceContainer) {
    ///     container["score"] = score  // an Int
    /// }
    /// ```
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ column: String) -> Value? {
        get {
            guard let value = databaseValue(forColumn: column), !value.isNull else { return nil }
            return Value.fromDatabaseValue(value)
        }
        set {
            setValue(newValue?.databaseValue ?? .null, forColumn: column)
        }
    }

    /// The value of a column: nil when the column is missing or NULL.
    @_disfavoredOverload
    public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
        get { self[column.name] }
        set { self[column.name] = newValue }
    }

    /// The value of a column, converted: nil when the column is missing,
    /// NULL, or does not convert to `Value`.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ column: some ColumnExpression) -> Value? {
        get { self[column.name] }
        set { self[column.name] = newValue }
    }

    /// The (column, value) pairs, in order.
    var storage: Zip2Sequence<[String], [DatabaseValue]> { zip(columns, values) }

    /// Whether the container is empty.
    var isEmpty: Bool { columnEntries.isEmpty }

    /// Whether the container has the given columns, in this order, with the
    /// exact same names.
    func hasColumns(exactly names: [String]) -> Bool {
        guard names.count == columnEntries.count else { return false }
        return columnEntries.withUnsafeBufferPointer { entries in
            names.withUnsafeBufferPointer { names in
                for index in 0..<names.count where entries[index].name != names[index] {
                    return false
                }
                return true
            }
        }
    }

    /// Whether the container has a column (compared without regard to case).
    public func hasColumn(_ column: String) -> Bool {
        index(ofColumn: column) != nil
    }

    /// The stored value of a column, NULL included, or nil when the column
    /// is missing.
    @usableFromInline
    func databaseValue(forColumn column: String) -> DatabaseValue? {
        index(ofColumn: column).map { values[$0] }
    }

    @usableFromInline
    mutating func setValue(_ value: DatabaseValue, forColumn column: String) {
        let key = column.caseInsensitiveKey
        if let index = index(ofColumn: column, key: key) {
            values[index] = value
        } else {
            columnEntries.append(Column(name: column, key: key))
            values.append(value)
        }
    }

    /// Sets a value, replacing the value of a column of the exact same name.
    /// Encoders use it: coding keys are unique, and a case-insensitive
    /// search for each key would cost more than the rest of encoding.
    mutating func setValueMatchingExactly(_ value: DatabaseValue, forColumn column: String) {
        let key = column.caseInsensitiveKey
        let index = columnEntries.withUnsafeBufferPointer { entries in
            (0..<entries.count).first { entries[$0].key == key && entries[$0].name == column }
        }
        if let index {
            values[index] = value
        } else {
            columnEntries.append(Column(name: column, key: key))
            values.append(value)
        }
    }

    private func index(ofColumn column: String, key: UInt64? = nil) -> Int? {
        let key = key ?? column.caseInsensitiveKey
        return columnEntries.withUnsafeBufferPointer { entries in
            for index in 0..<entries.count where entries[index].key == key {
                if entries[index].name.equalsIgnoringASCIICase(column) { return index }
            }
            return nil
        }
    }

    /// The values as a dictionary.
    var dictionary: [String: DatabaseValue] {
        Dictionary(zip(columns, values).map { ($0, $1) }, uniquingKeysWith: { $1 })
    }
}
