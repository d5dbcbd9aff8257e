import Foundation
internal import CairnSQLiteShims

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
/// For data you do not control, use the throwing ``decode(_:atIndex:)-4ljdf`` and
/// ``decode(_:forColumn:)-1qboz`` methods, which throw a ``RowDecodingError``.
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
        /// Copied values, in ``Row/copiedValues``.
        case values(columnNames: [String])
        /// Some columns of a base row, under the names of a row adapter.
        case adapted(base: Row, layout: RowLayout)
    }

    @usableFromInline
    let storage: Storage

    /// The values of a copied row, which subscripts read without going
    /// through `storage`; nil for the other rows.
    ///
    /// Invariant: non-nil exactly when `storage` is `.values`: both are set
    /// by `init(columnNames:copiedValues:)` and
    /// `init(prefetchedColumnNames:values:offset:)` only. The values of the
    /// row are `count` values from ``valuesOffset``: a prefetched row is a
    /// view on the values of several rows of its query (see
    /// `PrefetchedRows.swift`).
    @usableFromInline
    let copiedValues: RowValues?

    /// The index in ``copiedValues`` of the value of the first column: 0,
    /// but for prefetched rows, whose values are in the values of several
    /// rows (see `PrefetchedRows.swift`).
    @usableFromInline
    let valuesOffset: Int

    /// The statement of a cursor row; nil for copied rows, which may leave
    /// the database access (and the thread) of their statement.
    @usableFromInline
    let statement: Statement?

    /// The raw statement of a cursor row; nil for copied rows.
    @usableFromInline
    let sqliteStatement: SQLiteStatement?

    /// The number of columns.
    public let count: Int

    /// Whether the row comes from the database: the row of a cursor, a
    /// fetched row, a copy or an adapted view of one. False for rows built
    /// from values (`Row(["name": "Arthur"])`).
    ///
    /// A ``Record`` created from a fetched row remembers it, to tell which
    /// of its columns changed since (see ``Record/hasDatabaseChanges``).
    ///
    /// Only written by the code that has just made or fetched the row,
    /// before the row is returned to anyone (no other thread can see it
    /// yet); read-only afterwards, so concurrent reads of a row shared
    /// between tasks never meet a write.
    public internal(set) var isFetched: Bool {
        get { state.isFetched }
        set { state.isFetched = newValue }
    }

    /// What the row remembers beside its values: whether it was fetched,
    /// and, for a cursor row, what its decoders and scopes cached (see
    /// ``RowState``).
    ///
    /// Unchecked exclusivity: the decoding state changes only on statement
    /// rows, on the thread of their access (each read checks it), and a
    /// copied row is written only before anyone else sees it. Checked, it
    /// costs 1229 instructions per row of FetchBenchmark "4 Decodable
    /// fetchCursor" (5038 -> 6267) and 78 of AssociationBenchmark "15"
    /// (3294 -> 3372).
    @usableFromInline @exclusivity(unchecked) var state: RowState

    /// For a row adapted from a cursor row: the raw statement of its base,
    /// which the subscripts read directly (see `Row+Decoding.swift`). Nil
    /// otherwise.
    @usableFromInline
    let adaptedSQLiteStatement: SQLiteStatement?

    /// For the row of a statement, or a row adapted from it: the access that
    /// made the row (see `DatabaseAccess.swift`). Nil for copied rows, whose
    /// values are immutable.
    ///
    /// A statement row reads the statement in place, and SQLite's memory
    /// may only be read on the thread that uses the connection, during the
    /// access: each read checks both (see ``_checkStatementAccess()``), so
    /// that a row kept after its access, or sent to another task, stops the
    /// program with a clear message instead of reading memory that the
    /// connection changes or frees.
    @usableFromInline
    let statementAccess: DatabaseAccess?

    /// The rows prefetched for this row by `including(all:)`, keyed by
    /// association key, and those of its scopes (see ``prefetchedRows``).
    ///
    /// Set once, by the request that fetched the row, before the row is
    /// handed to the caller; never changed afterwards.
    var prefetchTree: PrefetchedRowsTree?

    /// Whether decoders may cache what they build for this row, which a
    /// cursor reuses at each step (see `RecordDecoder`). Only cursor rows
    /// turn it on (see `Row.cursorRow(statement:adapter:)`). A cached value
    /// must not retain the row: the cache lives as long as the row.
    var cachesDecoding = false


    /// The maximum number of ``RowState/decodingCaches``: beyond, records decode
    /// without a cache.
    static let maximumDecodingCacheCount = 8

    /// The number of records being decoded from a statement row, nested
    /// decodings included. A decoder or a container that a record kept after
    /// its `init(from:)` returned reads the row only while a decoding runs
    /// (the statement has moved on otherwise). Always zero for copied rows.
    /// Only the thread of the access of the row changes it, twice per
    /// record.
    @inlinable
    var decodingDepth: Int { state.decodingDepth }

    /// Whether the values of the row are read from a running statement
    /// (cursor rows, and rows adapted from them), rather than copied.
    var readsStatement: Bool { statementAccess != nil }

    /// Whether a kept decoder or container may read this statement row now:
    /// on the thread of its access, during the access, while a record is
    /// being decoded from it.
    ///
    /// - Precondition: the row is a statement row.
    var isBeingDecoded: Bool {
        // Callers test readsStatement first: statementAccess is not nil.
        statementAccess.unsafelyUnwrapped.isCurrent && decodingDepth > 0
    }

    /// Creates a view on the current row of a statement.
    @usableFromInline
    init(statement: Statement) {
        self.storage = .statement
        self.copiedValues = nil
        self.valuesOffset = 0
        self.statement = statement
        self.sqliteStatement = statement.sqliteStatement
        self.count = statement.uncheckedColumnCount
        self.statementAccess = statement.database.accessForNewCursor
        self.adaptedSQLiteStatement = nil
        self.state = RowState(isFetched: true)
    }

    /// Creates a fetched row from the values of the current row of a
    /// statement, copied.
    convenience init(fetchedValuesOf statement: Statement, sqliteStatement: SQLiteStatement) {
        let values = Row.valuesCopied(from: sqliteStatement, count: Int(sqlite3_column_count(sqliteStatement)))
        self.init(columnNames: statement.columnNames, copiedValues: values)
        isFetched = true
    }

    /// Creates a row from values.
    convenience init(columnNames: [String], values: [DatabaseValue]) {
        self.init(columnNames: columnNames, copiedValues: RowValues.make(copying: values))
    }

    /// Creates a row from copied values.
    ///
    /// - Precondition: `columnNames` and `values` have the same count.
    init(columnNames: [String], copiedValues values: RowValues) {
        self.storage = .values(columnNames: columnNames)
        self.copiedValues = values
        self.valuesOffset = 0
        self.statement = nil
        self.sqliteStatement = nil
        self.count = values.count
        self.statementAccess = nil
        self.adaptedSQLiteStatement = nil
        self.state = RowState(isFetched: false)
    }

    /// Creates a view on one prefetched row, whose values start at `offset`
    /// in the values of several rows (see `PrefetchedRows.swift`).
    ///
    /// - Precondition: `values` holds `columnNames.count` values from
    ///   `offset`.
    init(prefetchedColumnNames columnNames: [String], values: RowValues, offset: Int) {
        self.storage = .values(columnNames: columnNames)
        self.copiedValues = values
        self.valuesOffset = offset
        self.statement = nil
        self.sqliteStatement = nil
        self.count = columnNames.count
        self.statementAccess = nil
        self.adaptedSQLiteStatement = nil
        self.state = RowState(isFetched: true)
    }

    /// Creates a row that presents a base row through a layout.
    init(adaptedBase base: Row, layout: RowLayout) {
        self.storage = .adapted(base: base, layout: layout)
        self.copiedValues = nil
        self.valuesOffset = 0
        self.statement = base.statement
        self.sqliteStatement = nil
        self.count = layout.baseIndexes.count
        // An adapted cursor row reads the statement through its base.
        self.statementAccess = base.statementAccess
        self.adaptedSQLiteStatement = base.sqliteStatement
        self.state = RowState(isFetched: base.isFetched)
    }


    /// For a cursor row, its scope of this name if it was already made
    /// (see ``RowState/cachedScopeRows``); nil otherwise.
    ///
    /// - Precondition: a cursor row is used inside the access that fetched
    ///   it, on its thread.
    func cachedScope(named name: String) -> Row? {
        guard statementAccess != nil else { return nil }
        _checkStatementAccess()
        return cachedScopeRow(named: name)
    }

    /// The cached scope row of a name, or nil.
    func cachedScopeRow(named name: String) -> Row? {
        for entry in state.cachedScopeRows where entry.name == name {
            return entry.row
        }
        return nil
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

    /// Creates a row from a dictionary of untyped values (in the
    /// dictionary's order), or returns nil when a key is not a string, or a
    /// value is not ``DatabaseValueConvertible`` (`NSNull` is NULL).
    ///
    /// ```swift
    /// let values: [AnyHashable: Any] = ["name": "Arthur", "score": 1000]
    /// let row = Row(values)!
    /// ```
    public convenience init?(_ dictionary: [AnyHashable: Any]) {
        var columnNames: [String] = []
        var values: [DatabaseValue] = []
        columnNames.reserveCapacity(dictionary.count)
        values.reserveCapacity(dictionary.count)
        for (key, value) in dictionary {
            guard let columnName = key.base as? String, let dbValue = DatabaseValue(value: value) else { return nil }
            columnNames.append(columnName)
            values.append(dbValue)
        }
        self.init(columnNames: columnNames, values: values)
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
            _checkStatementAccess()
            let copy = Row(columnNames: statement?.columnNames ?? [], copiedValues: copiedStatementValues())
            copy.isFetched = true
            return copy
        case let .adapted(base, layout):
            let copy = Row(adaptedBase: base.copy(), layout: layout)
            copy.prefetchTree = prefetchTree
            return copy
        }
    }

    // MARK: Columns

    /// The names of the columns, in order.
    public var columnNames: [String] {
        switch storage {
        case .statement:
            _checkStatementAccess()
            return statement?.columnNames ?? []
        case .values(let columnNames): return columnNames
        case .adapted(_, let layout): return layout.columnNames
        }
    }

    /// The values of the columns, in order.
    public var databaseValues: [DatabaseValue] {
        (0..<count).map { databaseValue(atUncheckedIndex: $0) }
    }

    /// The values of the current row of the statement, copied (the copy
    /// that `Row.fetchAll` makes of each row).
    ///
    /// - Precondition: a statement row whose access was checked.
    private func copiedStatementValues() -> RowValues {
        guard let sqliteStatement else { return RowValues.make(copying: []) }
        return Row.valuesCopied(from: sqliteStatement, count: count)
    }

    /// The values of the first `count` columns of the current row of a
    /// statement, copied.
    @inline(__always)
    private static func valuesCopied(from sqliteStatement: SQLiteStatement, count: Int) -> RowValues {
        RowValues.make(capacity: count) { header, elements in
            initializeValues(from: sqliteStatement, count: count, at: elements, header: &header)
        }
    }

    /// Initializes `count` values at `pointer` with the values of the first
    /// `count` columns of the current row of a statement, and counts them
    /// in `header`.
    ///
    /// - Precondition: `pointer` addresses `count` uninitialized values.
    @inline(__always)
    static func initializeValues(
        from sqliteStatement: SQLiteStatement,
        count: Int,
        at pointer: UnsafeMutablePointer<DatabaseValue>,
        header: inout RowValues.Header)
    {
        // Numbers and NULL with one call that gives the type and the value
        // (see CairnSQLite.c); text and blobs as usual, and then the values
        // need to be destroyed.
        for index in 0..<count {
            var int64: Int64 = 0
            var double: Double = 0
            let column = CInt(truncatingIfNeeded: index)
            switch _cairn_column_number(sqliteStatement, column, &int64, &double) {
            case SQLITE_INTEGER: (pointer + index).initialize(to: DatabaseValue(storage: .int64(int64)))
            case SQLITE_FLOAT: (pointer + index).initialize(to: DatabaseValue(storage: .double(double)))
            case SQLITE_NULL: (pointer + index).initialize(to: .null)
            default:
                (pointer + index).initialize(to: DatabaseValue(sqliteStatement: sqliteStatement, index: column))
                header.holdsReferences = true
            }
        }
        header.count += count
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
            _checkStatementAccess()
            // A cursor row (the only kind with a raw statement) always has a
            // statement. The constant property of the row is borrowed for
            // the call, with no retain.
            return statement.unsafelyUnwrapped._index(ofColumn: name)
        }
        return _indexOfCopiedColumn(name)
    }

    /// The index of a column of a row that is not a cursor row.
    @usableFromInline
    func _indexOfCopiedColumn(_ name: String) -> Int? {
        switch storage {
        case .statement:
            _checkStatementAccess()
            return statement?._index(ofColumn: name)
        case .values(let columnNames):
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
            _checkStatementAccess()
            return sqlite3_column_type(sqliteStatement, CInt(index)) == SQLITE_NULL
        }
        return databaseValue(atUncheckedIndex: index).isNull
    }

    /// Whether one value at least is not NULL, in the row or in one of its
    /// scopes (at any depth).
    ///
    /// Optional records of joined requests decode as nil when their scope
    /// contains no non-null value: the left join found no row. A scope
    /// made of other scopes only (``EmptyRowAdapter`` as its base) is
    /// present when one of them is.
    ///
    /// ```swift
    /// try Row.fetchOne(db, sql: "SELECT 'foo', 1")!.containsNonNullValue   // true
    /// try Row.fetchOne(db, sql: "SELECT NULL, NULL")!.containsNonNullValue // false
    /// ```
    public var containsNonNullValue: Bool {
        if (0..<count).contains(where: { !hasNull(atIndex: $0) }) { return true }
        guard case .adapted(_, let layout) = storage, !layout.scopes.isEmpty else { return false }
        return scopes.contains { $0.row.containsNonNullValue }
    }

    @usableFromInline
    func columnName(atUncheckedIndex index: Int) -> String {
        switch storage {
        case .statement:
            _checkStatementAccess()
            return statement?.columnNames[index] ?? ""
        case .values(let columnNames): return columnNames[index]
        case .adapted(_, let layout): return layout.columnNames[index]
        }
    }

    @usableFromInline
    func databaseValue(atUncheckedIndex index: Int) -> DatabaseValue {
        switch storage {
        case .statement:
            guard let sqliteStatement else { return .null }
            _checkStatementAccess()
            return DatabaseValue(sqliteStatement: sqliteStatement, index: CInt(index))
        case .values:
            // See the invariant of `copiedValues`.
            return copiedValues.unsafelyUnwrapped[valuesOffset &+ index]
        case let .adapted(base, layout):
            return base.databaseValue(atUncheckedIndex: layout.baseIndexes[index])
        }
    }

    /// Stops the program when a statement row is used outside of the access
    /// that made it, or on another thread (see ``statementAccess``).
    ///
    /// - Precondition: the row is a statement row.
    @inlinable @inline(__always)
    func _checkStatementAccess() {
        // Only called where the row reads a statement (a `.statement`
        // storage, a raw statement, or a statement access): not nil.
        if _slowPath(!statementAccess.unsafelyUnwrapped.isCurrent) {
            // A programmer error that cannot be thrown from the
            // non-throwing row API.
            stopUsedOutsideAccess(.cursorRow)
        }
    }

    // A bare trap on purpose, here and in `RowValues.subscript`: it is
    // cheaper than the out-of-line stop of `stopUnless` on this path, run
    // for each value read by position (FetchBenchmark "1 positional": 2290
    // instructions per row with the trap, 2488 with `stopUnless`, 2515 with
    // a call out of line). Like an index out of range of an array, it
    // stops without a message in optimized builds; debug builds say what
    // went wrong first (`assert`), since a `precondition` message would be
    // dropped from optimized builds anyway.
    @inlinable
    func checkIndex(_ index: Int) {
        assert(index >= 0 && index < count, "row index \(index) out of range (the row has \(count) column(s))")
        precondition(index >= 0 && index < count)
    }

    // MARK: Data without copy

    /// The BLOB at `index`, or nil if the value is NULL. Text is returned as
    /// its UTF-8 bytes.
    ///
    /// A copied row returns the data it holds, without copy. A cursor row
    /// returns a copy of the bytes of the statement: `Data` can be kept and
    /// sent anywhere, and SQLite frees the bytes when the cursor steps, so
    /// sharing them would let a legal program read freed memory.
    ///
    /// - Precondition: `index` is a valid column index.
    public func dataNoCopy(atIndex index: Int) -> Data? {
        guard let data = _borrowedData(atIndex: index) else { return nil }
        if sqliteStatement != nil {
            return Data(data)
        }
        return data
    }

    /// The BLOB of the leftmost column of this name, or nil if the column
    /// is missing or NULL (see ``dataNoCopy(atIndex:)``).
    public func dataNoCopy(named columnName: String) -> Data? {
        guard let index = index(forColumn: columnName) else { return nil }
        return dataNoCopy(atIndex: index)
    }

    /// The BLOB of a column, or nil if the column is missing or NULL (see
    /// ``dataNoCopy(atIndex:)``).
    ///
    /// ```swift
    /// let thumbnail = row.dataNoCopy(Column("thumbnail"))
    /// ```
    public func dataNoCopy(_ column: some ColumnExpression) -> Data? {
        dataNoCopy(named: column.name)
    }

    /// The BLOB at `index`, sharing the statement's memory for a cursor row:
    /// valid only until the cursor steps, for Cairn's own use inside one
    /// call (decoding JSON, for instance). It must not escape.
    ///
    /// - Precondition: `index` is a valid column index.
    func _borrowedData(atIndex index: Int) -> Data? {
        checkIndex(index)
        if let sqliteStatement {
            _checkStatementAccess()
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
}

// MARK: - Collection

extension Row {
    /// A position in a ``Row``: the index of a column.
    ///
    /// ```swift
    /// for (columnName, dbValue) in row { ... }
    /// let (name, value) = row[row.startIndex]
    /// ```
    public struct Index: Comparable, Strideable, Sendable {
        let index: Int

        init(_ index: Int) {
            self.index = index
        }

        /// Returns whether a position comes before another.
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.index < rhs.index }

        /// Returns whether two positions are equal.
        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.index == rhs.index }

        /// The number of columns from this position to another.
        public func distance(to other: Self) -> Int { other.index - index }

        /// The position `n` columns after this one (before it when `n` is
        /// negative).
        public func advanced(by n: Int) -> Row.Index { Row.Index(index + n) }
    }
}

/// The former name of ``Row/Index``.
public typealias RowIndex = Row.Index

extension Row: RandomAccessCollection {
    /// The position of the first column.
    public var startIndex: Row.Index { Row.Index(0) }

    /// The position after the last column.
    public var endIndex: Row.Index { Row.Index(count) }

    /// The name and value of the column at a position.
    public subscript(position: Row.Index) -> (String, DatabaseValue) {
        checkIndex(position.index)
        return (columnName(atUncheckedIndex: position.index), databaseValue(atUncheckedIndex: position.index))
    }
}

// MARK: - Equatable, Hashable

extension Row: Equatable, Hashable {
    /// Whether two rows have the same column names and values, in the same
    /// order, the same scopes (compared by name, whatever their order), and
    /// the same prefetched rows.
    public static func == (lhs: Row, rhs: Row) -> Bool {
        if lhs === rhs { return true }
        guard lhs.count == rhs.count else { return false }
        for index in 0..<lhs.count {
            guard lhs.columnName(atUncheckedIndex: index) == rhs.columnName(atUncheckedIndex: index),
                  lhs.databaseValue(atUncheckedIndex: index) == rhs.databaseValue(atUncheckedIndex: index)
            else { return false }
        }
        let lhsScopes = lhs.scopes, rhsScopes = rhs.scopes
        let names = lhsScopes.names
        guard names == rhsScopes.names else { return false }
        for name in names where lhsScopes[name] != rhsScopes[name] {
            return false
        }
        return PrefetchedRowsTree.rowsAreEqual(lhs.prefetchTree, rhs.prefetchTree)
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

    /// The columns and values, and, for the rows of joined requests, the
    /// fetched row, the scopes and the prefetched rows:
    ///
    /// ```
    /// ▿ [id:1 authorId:2 title:"Moby-Dick"]
    ///   unadapted: [id:1 authorId:2 title:"Moby-Dick" id:2 name:"Herman Melville"]
    ///   - author: [id:2 name:"Herman Melville"]
    ///   + prizes: 3 rows
    /// ```
    ///
    /// As in GRDB, the unadapted row is shown only when it differs from the
    /// row (an adapter that keeps all columns and adds no scope changes
    /// nothing), and a row equal to its unadapted row, without prefetched
    /// rows, is described as ``description`` describes it.
    public var debugDescription: String {
        guard case .adapted(let base, _) = storage else {
            guard !prefetchedRows.isEmpty else { return description }
            return (["▿ " + description] + prefetchedLines(indent: "  ")).joined(separator: "\n")
        }
        let differsFromBase = self != base
        guard differsFromBase || !prefetchedRows.isEmpty else { return description }
        var lines = ["▿ " + description]
        if differsFromBase {
            lines.append("  unadapted: " + base.description)
        }
        lines.append(contentsOf: scopeLines(indent: "  "))
        lines.append(contentsOf: prefetchedLines(indent: "  "))
        return lines.joined(separator: "\n")
    }

    private func scopeLines(indent: String) -> [String] {
        scopes.flatMap { name, row -> [String] in
            [indent + "- " + name + ": " + row.description]
                + row.scopeLines(indent: indent + "  ")
                + row.prefetchedLines(indent: indent + "  ")
        }
    }

    /// The prefetched rows of the row and of its scopes (see
    /// ``prefetchedRows``).
    private func prefetchedLines(indent: String) -> [String] {
        let prefetched = prefetchedRows
        return prefetched.keys.sorted().map { key in
            let count = prefetched[key]?.count ?? 0
            return indent + "+ " + key + ": \(count) row" + (count > 1 ? "s" : "")
        }
    }
}

/// An object that a decoder of a layer above Core keeps on a row, from one
/// step of a cursor to the next (see ``RowState/decodingCaches``): the record
/// decoder's keyed containers subclass it. Lookups compare its identifiers
/// without a cast.
class RowDecodingCache {
    /// The type of the coding keys of the cached container.
    let keyType: ObjectIdentifier
    /// The record type whose strategies the cached container follows.
    let recordType: ObjectIdentifier

    init(keyType: ObjectIdentifier, recordType: ObjectIdentifier) {
        self.keyType = keyType
        self.recordType = recordType
    }
}

/// What a row remembers beside its values (see ``Row/state``).
@usableFromInline
struct RowState {
    /// See ``Row/isFetched``.
    var isFetched: Bool

    /// What decoders cached for this row, when ``Row/cachesDecoding`` is on:
    /// one keyed container per record type and coding key type, at most
    /// ``Row/maximumDecodingCacheCount``.
    ///
    /// Opaque to Core: only the record decoder
    /// (`Records/FetchableRecord+Decodable.swift`) appends to it, its
    /// `CachedKeyedContainer`s, which it finds by their identifiers and
    /// reads back with a checked cast.
    var decodingCaches: [RowDecodingCache] = []

    /// The column plans of the cached keyed containers, which name them by
    /// index (see ``DecodingPlan``). Entries are never removed: a container
    /// may still be in use (a record that decodes another record from the
    /// same row, inside its own `init(from:)`).
    var decodingPlans: [DecodingPlan] = []

    /// The position of the next read in the column plan of the record being
    /// decoded (see ``DecodingPlan``). A record decoded inside the decoding
    /// of another, from the same row, has its own: ``Row/_endDecoding(_:)``
    /// puts the outer one back when the inner decoding ends.
    var decodingPlanPosition = 0

    /// See ``Row/decodingSerial``; zero until it is made.
    var decodingSerial: UInt64 = 0

    /// See ``Row/decodingDepth``.
    @usableFromInline var decodingDepth = 0

    /// The scope rows of a cursor row, made once: the cursor reuses the row
    /// and its scopes at each step. Only the thread of the access of the
    /// row touches it (a cursor row is not used elsewhere: see
    /// ``Row/_checkStatementAccess()``).
    ///
    /// A short array searched in order, not a dictionary: a row has few
    /// scopes, and comparing a few short names costs less than hashing one.
    var cachedScopeRows: [(name: String, row: Row)] = []

    init(isFetched: Bool) {
        self.isFetched = isFetched
    }
}
