import Foundation

/// A database row: an ordered list of columns, each with a name and a value.
///
/// Fetch rows with SQL, and read their values by index or by column name:
///
/// ```swift
/// let rows = try Row.fetchCursor(db, sql: "SELECT id, name, score FROM player")
/// while let row = try rows.next() {
///     let id: Int64 = row[0]
///     let name: String = row["name"]
///     let score: Int? = row["score"]  // nil for NULL
/// }
/// ```
///
/// Column names are compared without regard to ASCII case, as SQLite does;
/// when several columns have the same name, the leftmost one wins.
///
/// Subscripts stop the program when the value cannot be converted (a NULL
/// read as a non-optional, 256 read as `UInt8`), as the GRDB guides document.
/// For data you do not control, use the throwing ``decode(_:atIndex:)`` and
/// ``decode(_:forColumn:)`` methods, which throw a ``RowDecodingError``.
///
/// A row that comes from a cursor is a view on the statement's current row:
/// the cursor reuses it at each step, so that iterating allocates nothing.
/// Call ``copy()`` to keep it, or fetch an array with `fetchAll`.
public final class Row: @unchecked Sendable {
    /// Where the values of the row live.
    @usableFromInline
    enum Storage {
        /// The current row of a statement (a cursor row).
        case statement
        /// Copied values.
        case values(columnNames: [String], values: [DatabaseValue])
        /// Some columns of a base row, under the names of a row adapter.
        case adapted(base: Row, layout: RowLayout)
    }

    @usableFromInline
    let storage: Storage

    /// The statement of a cursor row; nil for copied rows, which may leave
    /// the database access (and the thread) of their statement.
    @usableFromInline
    let statement: Statement?

    /// The raw statement of a cursor row; nil for copied rows.
    @usableFromInline
    let sqliteStatement: SQLiteStatement?

    /// The number of columns.
    public let count: Int

    /// Whether decoders may cache what they build for this row, which a
    /// cursor reuses at each step (see `RecordDecoder`). Only cursor rows
    /// turn it on (see `Row.cursorRow(statement:adapter:)`). A cached value
    /// must not retain the row: the cache lives as long as the row.
    var cachesDecoding = false

    /// What decoders cached for this row, when ``cachesDecoding`` is on:
    /// one keyed container per record type and coding key type, at most
    /// ``maximumDecodingCacheCount``.
    ///
    /// Entries are never replaced: they live as long as the row, because
    /// the containers refer to their ``DecodingPlan`` without retaining it,
    /// and a container may still be in use (a record that decodes another
    /// record from the same row, inside its own `init(from:)`).
    ///
    /// Unchecked exclusivity: a row is used by one thread at a time, and
    /// the lookup calls nothing that could access the caches again.
    @exclusivity(unchecked) var decodingCaches: [CachedKeyedContainer] = []

    /// The maximum number of ``decodingCaches``: beyond, records decode
    /// without a cache.
    static let maximumDecodingCacheCount = 8

    /// Creates a view on the current row of a statement.
    @usableFromInline
    init(statement: Statement) {
        self.storage = .statement
        self.statement = statement
        self.sqliteStatement = statement.sqliteStatement
        self.count = statement.columnCount
    }

    /// Creates a row from copied values.
    init(columnNames: [String], values: [DatabaseValue]) {
        self.storage = .values(columnNames: columnNames, values: values)
        self.statement = nil
        self.sqliteStatement = nil
        self.count = values.count
    }

    /// Creates a row that presents a base row through a layout.
    init(adaptedBase base: Row, layout: RowLayout) {
        self.storage = .adapted(base: base, layout: layout)
        self.statement = base.statement
        self.sqliteStatement = nil
        self.count = layout.baseIndexes.count
    }

    /// Creates an empty row.
    public convenience init() {
        self.init(columnNames: [], values: [])
    }

    /// Creates a row from a dictionary of values (in the dictionary's order).
    ///
    /// ```swift
    /// let row = Row(["name": "Arthur", "score": 1000])
    /// ```
    public convenience init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
        self.init(columnNames: Array(dictionary.keys), values: dictionary.values.map { $0?.databaseValue ?? .null })
    }

    /// Returns a row that holds its own copy of the values.
    ///
    /// Rows from cursors are views on a statement that change at each step:
    /// copy the rows you want to keep.
    ///
    /// ```swift
    /// var kept: [Row] = []
    /// let rows = try Row.fetchCursor(db, sql: "SELECT * FROM player")
    /// while let row = try rows.next() {
    ///     kept.append(row.copy())
    /// }
    /// ```
    public func copy() -> Row {
        switch storage {
        case .values:
            return self
        case .statement:
            return Row(columnNames: columnNames, values: databaseValues)
        case let .adapted(base, layout):
            return Row(adaptedBase: base.copy(), layout: layout)
        }
    }

    // MARK: Columns

    /// The names of the columns, in order.
    public var columnNames: [String] {
        switch storage {
        case .statement: return statement?.columnNames ?? []
        case .values(let columnNames, _): return columnNames
        case .adapted(_, let layout): return layout.columnNames
        }
    }

    /// The values of the columns, in order.
    public var databaseValues: [DatabaseValue] {
        (0..<count).map { databaseValue(atUncheckedIndex: $0) }
    }

    /// Whether the row has a column of this name (compared without regard
    /// to ASCII case).
    public func hasColumn(_ columnName: String) -> Bool {
        index(forColumn: columnName) != nil
    }

    /// The index of the leftmost column of this name (compared without
    /// regard to ASCII case), or nil.
    @inlinable @inline(__always)
    public func index(forColumn name: String) -> Int? {
        if sqliteStatement != nil {
            // A cursor row (the only kind with a raw statement) always has a
            // statement, which the row keeps alive: no need to retain it for
            // the call.
            return Unmanaged.passUnretained(statement.unsafelyUnwrapped)._withUnsafeGuaranteedRef {
                $0._index(ofColumn: name)
            }
        }
        return _indexOfCopiedColumn(name)
    }

    /// The index of a column of a row that is not a cursor row.
    @usableFromInline
    func _indexOfCopiedColumn(_ name: String) -> Int? {
        switch storage {
        case .statement:
            return statement?._index(ofColumn: name)
        case .values(let columnNames, _):
            return columnNames.firstIndex { $0.equalsIgnoringASCIICase(name) }
        case .adapted(_, let layout):
            return layout.columnNames.firstIndex { $0.equalsIgnoringASCIICase(name) }
        }
    }

    /// Whether the value at `index` is NULL.
    ///
    /// - Precondition: `index` is a valid column index.
    public func hasNull(atIndex index: Int) -> Bool {
        checkIndex(index)
        if let sqliteStatement {
            return sqlite3_column_type(sqliteStatement, CInt(index)) == SQLITE_NULL
        }
        return databaseValue(atUncheckedIndex: index).isNull
    }

    /// Whether one value at least is not NULL.
    public var containsNonNullValue: Bool {
        (0..<count).contains { !hasNull(atIndex: $0) }
    }

    @usableFromInline
    func columnName(atUncheckedIndex index: Int) -> String {
        switch storage {
        case .statement: return statement?.columnNames[index] ?? ""
        case .values(let columnNames, _): return columnNames[index]
        case .adapted(_, let layout): return layout.columnNames[index]
        }
    }

    @usableFromInline
    func databaseValue(atUncheckedIndex index: Int) -> DatabaseValue {
        switch storage {
        case .statement:
            guard let sqliteStatement else { return .null }
            return DatabaseValue(sqliteStatement: sqliteStatement, index: CInt(index))
        case .values(_, let values):
            return values[index]
        case let .adapted(base, layout):
            return base.databaseValue(atUncheckedIndex: layout.baseIndexes[index])
        }
    }

    @inlinable
    func checkIndex(_ index: Int) {
        precondition(index >= 0 && index < count, "row index \(index) out of range (the row has \(count) column(s))")
    }

    // MARK: Data without copy

    /// The BLOB at `index`, as `Data` that shares the statement's memory
    /// when the row comes from a cursor, or nil if the value is NULL.
    ///
    /// The data is valid only until the cursor steps again: copy it to keep
    /// it. Text is returned as its UTF-8 bytes.
    ///
    /// - Precondition: `index` is a valid column index.
    public func dataNoCopy(atIndex index: Int) -> Data? {
        checkIndex(index)
        if let sqliteStatement {
            let index = CInt(index)
            switch sqlite3_column_type(sqliteStatement, index) {
            case SQLITE_NULL:
                return nil
            default:
                guard let bytes = sqlite3_column_blob(sqliteStatement, index) else { return Data() }
                let count = Int(sqlite3_column_bytes(sqliteStatement, index))
                return Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes), count: count, deallocator: .none)
            }
        }
        return Data.fromDatabaseValue(databaseValue(atUncheckedIndex: index))
    }

    /// The BLOB of the leftmost column of this name, without copy when the
    /// row comes from a cursor, or nil if the column is missing or NULL.
    ///
    /// The data is valid only until the cursor steps again.
    public func dataNoCopy(named columnName: String) -> Data? {
        guard let index = index(forColumn: columnName) else { return nil }
        return dataNoCopy(atIndex: index)
    }
}

// MARK: - Collection

/// A position in a ``Row``.
public struct RowIndex: Comparable, Strideable, Sendable {
    let index: Int

    init(_ index: Int) {
        self.index = index
    }

    /// Compares two positions.
    public static func < (lhs: RowIndex, rhs: RowIndex) -> Bool { lhs.index < rhs.index }

    /// The distance to another position.
    public func distance(to other: RowIndex) -> Int { other.index - index }

    /// The position at a distance.
    public func advanced(by n: Int) -> RowIndex { RowIndex(index + n) }
}

extension Row: RandomAccessCollection {
    /// The position of the first column.
    public var startIndex: RowIndex { RowIndex(0) }

    /// The position after the last column.
    public var endIndex: RowIndex { RowIndex(count) }

    /// The name and value of the column at a position.
    public subscript(position: RowIndex) -> (String, DatabaseValue) {
        checkIndex(position.index)
        return (columnName(atUncheckedIndex: position.index), databaseValue(atUncheckedIndex: position.index))
    }
}

// MARK: - Equatable, Hashable

extension Row: Equatable, Hashable {
    /// Whether two rows have the same column names and values, in the same
    /// order.
    public static func == (lhs: Row, rhs: Row) -> Bool {
        if lhs === rhs { return true }
        guard lhs.count == rhs.count else { return false }
        for index in 0..<lhs.count {
            guard lhs.columnName(atUncheckedIndex: index) == rhs.columnName(atUncheckedIndex: index),
                  lhs.databaseValue(atUncheckedIndex: index) == rhs.databaseValue(atUncheckedIndex: index)
            else { return false }
        }
        return true
    }

    /// Hashes the column names and values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for index in 0..<count {
            hasher.combine(columnName(atUncheckedIndex: index))
            hasher.combine(databaseValue(atUncheckedIndex: index))
        }
    }
}

// MARK: - Literals and descriptions

extension Row: ExpressibleByDictionaryLiteral {
    /// Creates a row from a dictionary literal, keeping the literal's order.
    ///
    /// ```swift
    /// let row: Row = ["name": "Arthur", "score": 1000]
    /// ```
    public convenience init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        self.init(columnNames: elements.map(\.0), values: elements.map { $0.1?.databaseValue ?? .null })
    }
}

extension Row: CustomStringConvertible, CustomDebugStringConvertible {
    /// The columns and values: `[id:1 name:"Arthur"]`.
    public var description: String {
        "[" + (0..<count).map { index in
            "\(columnName(atUncheckedIndex: index)):\(databaseValue(atUncheckedIndex: index))"
        }.joined(separator: " ") + "]"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }
}
