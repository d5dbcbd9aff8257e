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
    ///
    /// When the container follows a template, these are the columns of a
    /// previous container of the same record type, and only the first
    /// `valueCount` of them have been set (see ``init(template:)``).
    @usableFromInline var columnEntries: [Column] = []

    /// The values, in the order of the columns: the first `valueCount` are the
    /// values of the container.
    ///
    /// While the container follows a template, the values beyond `valueCount`
    /// are those of a previous container, recycled: setting the expected
    /// column overwrites them in place, without allocating (see
    /// ``recycleValues(from:)``). Otherwise there is none.
    @usableFromInline var valueStorage: [DatabaseValue] = []

    /// The number of columns that have a value.
    @usableFromInline var valueCount = 0

    /// Whether `columnEntries` is a template: the columns of a previous
    /// container, shared, of which the first `valueCount` were set in the same
    /// order. Otherwise, each column has a value.
    @usableFromInline var followsTemplate = false

    /// The values, in the order of the columns.
    public var values: [DatabaseValue] {
        valueCount == valueStorage.count ? valueStorage : Array(valueStorage[..<valueCount])
    }

    /// The column names, in order.
    public var columns: [String] { columnEntries[..<valueCount].map(\.name) }

    /// Creates an empty container.
    public init() {
        self.init(reservingCapacity: 16)
    }

    /// Creates a container that holds the values of a row.
    ///
    /// ```swift
    /// let row = try Row.fetchOne(db, sql: "SELECT 1 AS id, 'Arthur' AS name")!
    /// let container = PersistenceContainer(row)
    /// print(container.columns) // ["id", "name"]
    /// ```
    public init(_ row: Row) {
        self.init()
        for (column, value) in row {
            self[column] = value
        }
    }

    /// Creates an empty container with room for `capacity` columns.
    init(reservingCapacity capacity: Int) {
        if capacity > 0 {
            columnEntries.reserveCapacity(capacity)
            valueStorage.reserveCapacity(capacity)
        }
    }

    /// Creates an empty container that expects the given columns, in the
    /// same order: a record type usually encodes the same columns in the
    /// same order each time, and `template` comes from ``columnTemplate``
    /// of a previous container.
    ///
    /// Setting the expected column shares the column list of the template:
    /// the key of the column is neither computed nor searched. Setting any
    /// other column makes the container copy the columns set so far, and
    /// go on as a container created empty.
    init(template: ColumnTemplate) {
        columnEntries = template.columns
        followsTemplate = true
    }

    /// Takes the values that an insert statement keeps from its previous
    /// insert (see ``CachedInsertStatement/recycle(_:)``): the expected
    /// columns overwrite them in place, without allocating. When no other
    /// reference to their storage remains, the values are not copied.
    mutating func recycleValues(from cached: CachedInsertStatement) {
        swap(&valueStorage, &cached.recycledValues)
        if valueStorage.isEmpty {
            valueStorage.reserveCapacity(columnEntries.count)
        }
    }

    /// Drops the recycled values that were not overwritten: afterwards,
    /// `values` is the value storage itself.
    mutating func dropRecycledValues() {
        if valueStorage.count > valueCount {
            valueStorage.removeSubrange(valueCount...)
        }
    }

    /// The columns of a container, to expect in a later one.
    struct ColumnTemplate: Sendable {
        fileprivate let columns: [Column]
    }

    /// The columns of the container, to expect in a later container of the
    /// same record type.
    var columnTemplate: ColumnTemplate {
        if columnEntries.count > valueCount {
            return ColumnTemplate(columns: Array(columnEntries[..<valueCount]))
        }
        return ColumnTemplate(columns: columnEntries)
    }

    /// Whether the container set all the columns of the template it was
    /// created with (see ``init(template:)``), and no other: it then has
    /// the exact columns of the template, in the same order.
    var followsWholeTemplate: Bool {
        followsTemplate && valueCount == columnEntries.count
    }

    /// Whether the container has the exact columns of `template`, in the
    /// same order.
    func hasColumns(of template: ColumnTemplate) -> Bool {
        guard valueCount == template.columns.count else { return false }
        return columnEntries.withUnsafeBufferPointer { lhs in
            template.columns.withUnsafeBufferPointer { rhs in
                // A container that followed the template shares its storage.
                if lhs.baseAddress == rhs.baseAddress { return true }
                for index in 0..<rhs.count where lhs[index].name != rhs[index].name {
                    return false
                }
                return true
            }
        }
    }

    /// Leaves the template: keeps the columns that have been set, and drops
    /// the recycled values.
    @usableFromInline
    mutating func leaveTemplate() {
        followsTemplate = false
        if columnEntries.count > valueCount {
            columnEntries.removeSubrange(valueCount...)
        }
        dropRecycledValues()
    }

    /// Sets the value of the column the template expects next, and returns
    /// true, or returns false when the column is not the expected one.
    ///
    /// Inlined in the `encode(to:)` of records, so that setting a column
    /// costs a string comparison and a store.
    @inlinable @inline(__always)
    mutating func setExpectedValue(_ value: DatabaseValue, forColumn column: String) -> Bool {
        let position = valueCount
        let isExpected = columnEntries.withUnsafeBufferPointer { entries in
            position < entries.count && entries[position].name == column
        }
        guard isExpected else { return false }
        if position < valueStorage.count {
            valueStorage[position] = value
        } else {
            valueStorage.append(value)
        }
        valueCount = position &+ 1
        return true
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
        // Inlined, so that the caller's column name, usually a literal, is
        // neither retained nor released.
        @inline(__always) set {
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


    /// Whether the container has a column (compared without regard to case).
    public func hasColumn(_ column: String) -> Bool {
        index(ofColumn: column) != nil
    }

    /// The stored value of a column, NULL included, or nil when the column
    /// is missing.
    @usableFromInline
    func databaseValue(forColumn column: String) -> DatabaseValue? {
        index(ofColumn: column).map { valueStorage[$0] }
    }

    @inlinable @inline(__always)
    mutating func setValue(_ value: DatabaseValue, forColumn column: String) {
        if followsTemplate && setExpectedValue(value, forColumn: column) { return }
        setValueAfterTemplate(value, forColumn: column)
    }

    /// After an insert, sets the inserted rowid in the column that aliases
    /// the rowid, unless the `ignore` conflict resolution skipped the row.
    mutating func setInsertedRowID(
        _ db: Database,
        rowIDColumn: String?,
        resolution: Database.ConflictResolution,
        changesBefore: Int)
    {
        guard let rowIDColumn else { return }
        if resolution == .ignore && db.totalChangesCount == changesBefore { return }
        setValueAfterTemplate(DatabaseValue(storage: .int64(db.lastInsertedRowID)), forColumn: rowIDColumn)
    }

    /// Sets a value, replacing the value of a column of the same name
    /// (compared without regard to ASCII case), once the column is known
    /// not to be the one a template expects.
    @usableFromInline
    mutating func setValueAfterTemplate(_ value: DatabaseValue, forColumn column: String) {
        if followsTemplate { leaveTemplate() }
        let key = column.caseInsensitiveKey
        if let index = index(ofColumn: column, key: key) {
            valueStorage[index] = value
        } else {
            append(value, forColumn: column, key: key)
        }
    }

    /// Sets a value, replacing the value of a column of the exact same name.
    /// Encoders use it: coding keys are unique, and a case-insensitive
    /// search for each key would cost more than the rest of encoding.
    @inline(__always)
    mutating func setValueMatchingExactly(_ value: DatabaseValue, forColumn column: String) {
        if followsTemplate && setExpectedValue(value, forColumn: column) { return }
        setValueMatchingExactlyAfterSearch(value, forColumn: column)
    }

    /// See ``setValueMatchingExactly(_:forColumn:)``.
    private mutating func setValueMatchingExactlyAfterSearch(_ value: DatabaseValue, forColumn column: String) {
        if followsTemplate { leaveTemplate() }
        let key = column.caseInsensitiveKey
        let index = columnEntries.withUnsafeBufferPointer { entries in
            (0..<valueCount).first { entries[$0].key == key && entries[$0].name == column }
        }
        if let index {
            valueStorage[index] = value
        } else {
            append(value, forColumn: column, key: key)
        }
    }

    /// Appends a column, out of any template.
    private mutating func append(_ value: DatabaseValue, forColumn column: String, key: UInt64) {
        columnEntries.append(Column(name: column, key: key))
        valueStorage.append(value)
        valueCount += 1
    }

    private func index(ofColumn column: String, key: UInt64? = nil) -> Int? {
        let key = key ?? column.caseInsensitiveKey
        return columnEntries.withUnsafeBufferPointer { entries in
            for index in 0..<valueCount where entries[index].key == key {
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

// MARK: - RandomAccessCollection

extension PersistenceContainer: RandomAccessCollection {
    /// A position in the container: from 0 to the number of columns.
    public typealias Index = Int

    /// The position of the first column: 0.
    public var startIndex: Int { 0 }

    /// The position after the last column: the number of columns.
    public var endIndex: Int { valueCount }

    /// Whether the container has no column.
    public var isEmpty: Bool { valueCount == 0 }

    /// The column name and value at a position, in the order the record
    /// encoded them.
    ///
    /// ```swift
    /// var container = PersistenceContainer()
    /// try player.encode(to: &container)
    /// for (column, dbValue) in container {
    ///     print("\(column): \(dbValue)")
    /// }
    /// ```
    ///
    /// - Parameter position: A valid position: `startIndex..<endIndex`.
    /// - Precondition: `position` is a valid position (an invalid one stops
    ///   the program, as an array does).
    public subscript(position: Int) -> (String, DatabaseValue) {
        (columnEntries[..<valueCount][position].name, valueStorage[..<valueCount][position])
    }
}
