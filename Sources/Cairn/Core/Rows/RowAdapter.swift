/// A row adapter presents the columns of a row differently: a subset, other
/// names, or named scopes of columns.
///
/// Adapters help consume rows of joined queries:
///
/// ```swift
/// let sql = "SELECT player.*, team.* FROM player JOIN team ON team.id = player.teamId"
/// let adapters = splittingRowAdapters(columnCounts: [playerColumnCount, teamColumnCount])
/// let adapter = ScopeAdapter(base: adapters[0], scopes: ["team": adapters[1]])
/// for row in try Row.fetchAll(db, sql: sql, adapter: adapter) {
///     let player = try Player(row: row)                   // the player columns
///     let team = try Team(row: row.scopes["team"]!)       // the team columns
/// }
/// ```
///
/// Cairn provides the adapters: ``ColumnMapping``, ``SuffixRowAdapter``,
/// ``RangeRowAdapter``, ``ScopeAdapter``, ``RenameColumnAdapter`` and
/// ``EmptyRowAdapter``; you do not define your own.
public protocol RowAdapter: Sendable {
    /// The layout of the adapted row, from the columns of the base row.
    ///
    /// - Throws: A ``DatabaseError`` when the adapter does not fit the row
    ///   (a column or an index that does not exist).
    func _layout(columnNames: [String]) throws -> RowLayout

    /// The adapted columns and scopes for a layout of a base row: the
    /// requirement that adapters written for GRDB implement (see
    /// `RowAdapter+Underscored.swift`). An adapter implements this method
    /// or ``_layout(columnNames:)``: each has a default that calls the
    /// other.
    ///
    /// - Throws: A ``DatabaseError`` when the adapter does not fit the
    ///   layout.
    func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter
}

/// The layout of an adapted row: which columns of the base row it shows,
/// under which names, and its scopes.
public struct RowLayout: Sendable {
    /// For each column of the adapted row, its index in the base row.
    @usableFromInline let baseIndexes: [Int]
    /// The column names of the adapted row.
    @usableFromInline let columnNames: [String]
    /// The named scopes, laid out on the same base row.
    @usableFromInline let scopes: [String: RowLayout]

    init(baseIndexes: [Int], columnNames: [String], scopes: [String: RowLayout] = [:]) {
        self.baseIndexes = baseIndexes
        self.columnNames = columnNames
        self.scopes = scopes
    }
}

/// Shows the columns of the base row under other names.
///
/// ```swift
/// // The "authorName" column is visible as "name":
/// let adapter = ColumnMapping(["name": "authorName"])
/// ```
public struct ColumnMapping: RowAdapter {
    /// Adapted names, keyed to base names.
    let mapping: [(String, String)]

    /// Creates an adapter from a mapping of adapted names to base names.
    public init(_ mapping: [String: String]) {
        self.mapping = mapping.sorted { $0.key < $1.key }
    }

    /// See ``RowAdapter/_layout(columnNames:)``.
    public func _layout(columnNames: [String]) throws -> RowLayout {
        let indexes = try mapping.map { _, baseName -> Int in
            guard let index = columnNames.firstIndex(where: { $0.equalsIgnoringASCIICase(baseName) }) else {
                // GRDB's message, which names the columns of the row.
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: """
                    Mapping references missing column \(baseName). \
                    Valid column names are: \(columnNames.joined(separator: ", ")).
                    """)
            }
            return index
        }
        // Present the columns in the order of the base row.
        let sorted = zip(indexes, mapping.map(\.0)).sorted { $0.0 < $1.0 }
        return RowLayout(baseIndexes: sorted.map(\.0), columnNames: sorted.map(\.1))
    }
}

/// Shows the columns of the base row from an index.
///
/// ```swift
/// let adapter = SuffixRowAdapter(fromIndex: 2) // all columns but the first two
/// ```
public struct SuffixRowAdapter: RowAdapter {
    let index: Int

    /// Creates an adapter that shows the columns from `fromIndex`.
    public init(fromIndex index: Int) {
        self.index = index
    }

    /// See ``RowAdapter/_layout(columnNames:)``.
    public func _layout(columnNames: [String]) throws -> RowLayout {
        guard index >= 0 && index <= columnNames.count else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE,
                message: "SuffixRowAdapter: index \(index) out of the \(columnNames.count) columns of the row")
        }
        let indexes = Array(index..<columnNames.count)
        return RowLayout(baseIndexes: indexes, columnNames: indexes.map { columnNames[$0] })
    }
}

/// Shows a range of columns of the base row.
///
/// ```swift
/// let adapter = RangeRowAdapter(2..<4) // the third and fourth columns
/// ```
public struct RangeRowAdapter: RowAdapter {
    let range: Range<Int>

    /// Creates an adapter that shows the columns in `range`.
    public init(_ range: Range<Int>) {
        self.range = range
    }

    /// Creates an adapter that shows the columns in `range`.
    public init(_ range: ClosedRange<Int>) {
        self.range = range.lowerBound..<(range.upperBound + 1)
    }

    /// See ``RowAdapter/_layout(columnNames:)``.
    public func _layout(columnNames: [String]) throws -> RowLayout {
        guard range.lowerBound >= 0 && range.upperBound <= columnNames.count else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE,
                message: "RangeRowAdapter: range \(range) out of the \(columnNames.count) columns of the row")
        }
        let indexes = Array(range)
        return RowLayout(baseIndexes: indexes, columnNames: indexes.map { columnNames[$0] })
    }
}

/// Shows no column.
public struct EmptyRowAdapter: RowAdapter {
    /// Creates an adapter that shows no column.
    public init() { }

    /// See ``RowAdapter/_layout(columnNames:)``.
    public func _layout(columnNames: [String]) throws -> RowLayout {
        RowLayout(baseIndexes: [], columnNames: [])
    }
}

/// Renames the columns of the base row.
///
/// ```swift
/// // "player_name" is visible as "playerName"...
/// let adapter = RenameColumnAdapter { $0.replacingOccurrences(of: "_n", with: "N") }
/// ```
public struct RenameColumnAdapter: RowAdapter {
    let transform: @Sendable (String) -> String

    /// Creates an adapter that renames columns with `transform`.
    public init(_ transform: @escaping @Sendable (String) -> String) {
        self.transform = transform
    }

    /// See ``RowAdapter/_layout(columnNames:)``.
    public func _layout(columnNames: [String]) throws -> RowLayout {
        RowLayout(baseIndexes: Array(columnNames.indices), columnNames: columnNames.map(transform))
    }
}

/// Adds named scopes to a row: rows made of some of its columns, that
/// ``Row/scopes`` gives.
///
/// ```swift
/// let adapter = ScopeAdapter([
///     "player": RangeRowAdapter(0..<3),
///     "team": SuffixRowAdapter(fromIndex: 3)])
/// let row = try Row.fetchOne(db, sql: sql, adapter: adapter)!
/// let teamRow = row.scopes["team"]!
/// ```
public struct ScopeAdapter: RowAdapter {
    let base: (any RowAdapter)?
    let scopes: [String: any RowAdapter]

    /// Creates an adapter that shows all columns, and has scopes.
    public init(_ scopes: [String: any RowAdapter]) {
        self.base = nil
        self.scopes = scopes
    }

    /// Creates an adapter that shows the columns of `base`, and has scopes
    /// laid out on the same base row.
    public init(base: any RowAdapter, scopes: [String: any RowAdapter]) {
        self.base = base
        self.scopes = scopes
    }

    /// See ``RowAdapter/_layout(columnNames:)``.
    public func _layout(columnNames: [String]) throws -> RowLayout {
        let baseLayout = try base?._layout(columnNames: columnNames)
            ?? RowLayout(baseIndexes: Array(columnNames.indices), columnNames: columnNames)
        var scopeLayouts = baseLayout.scopes
        for (name, adapter) in scopes {
            scopeLayouts[name] = try adapter._layout(columnNames: columnNames)
        }
        return RowLayout(baseIndexes: baseLayout.baseIndexes, columnNames: baseLayout.columnNames, scopes: scopeLayouts)
    }
}

extension RowAdapter {
    /// Returns an adapter that shows the columns of this one, with extra
    /// scopes laid out on the same base row. A scope of the same name as a
    /// scope of this adapter replaces it.
    ///
    /// ```swift
    /// let adapter = ColumnMapping(["id": "playerId"])
    ///     .addingScopes(["team": SuffixRowAdapter(fromIndex: 2)])
    /// ```
    ///
    /// - Parameter scopes: The scopes to add, by name.
    public func addingScopes(_ scopes: [String: any RowAdapter]) -> any RowAdapter {
        guard !scopes.isEmpty else { return self }
        return ScopeAdapter(base: self, scopes: scopes)
    }
}

/// Returns adapters that split a row into consecutive groups of columns,
/// plus one adapter for the remaining columns.
///
/// ```swift
/// // SELECT player.*, team.*, ... FROM ...
/// let adapters = splittingRowAdapters(columnCounts: [3, 2])
/// // adapters[0]: columns 0..<3, adapters[1]: 3..<5, adapters[2]: the others
/// ```
public func splittingRowAdapters(columnCounts: [Int]) -> [any RowAdapter] {
    var adapters: [any RowAdapter] = []
    var start = 0
    for count in columnCounts {
        adapters.append(RangeRowAdapter(start..<(start + count)))
        start += count
    }
    adapters.append(SuffixRowAdapter(fromIndex: start))
    return adapters
}

// MARK: - Adapted rows

extension Row {
    /// Creates a row that presents a base row through a layout.
    convenience init(base: Row, layout: RowLayout) {
        self.init(adaptedBase: base, layout: layout)
    }

    /// The named scopes of a row fetched with a ``ScopeAdapter``.
    ///
    /// ```swift
    /// if let teamRow = row.scopes["team"] { ... }
    /// ```
    public var scopes: ScopesView {
        ScopesView(row: self)
    }

    /// The scopes of a row: a collection of (name, row) pairs, sorted by
    /// name.
    ///
    /// ```swift
    /// for (name, scopeRow) in row.scopes { ... }
    /// let teamRow = row.scopes["team"]
    /// ```
    public struct ScopesView: Collection {
        let row: Row

        /// A position in the scopes: from 0 to the number of scopes.
        public typealias Index = Int

        /// The position of the first scope.
        public var startIndex: Int { 0 }

        /// The position after the last scope.
        public var endIndex: Int { count }

        /// The position after a position.
        public func index(after i: Int) -> Int { i + 1 }

        /// The name and row of the scope at a position, in the order of
        /// scope names.
        ///
        /// - Precondition: `position` is a valid position.
        public subscript(position: Int) -> (name: String, row: Row) {
            let name = names[position]
            // A name of the layout always has its row.
            guard let scopeRow = self[name] else {
                stopProgram("missing scope \(name)")
            }
            return (name, scopeRow)
        }

        /// The number of scopes.
        public var count: Int { names.count }

        /// Whether the row has no scope.
        public var isEmpty: Bool { names.isEmpty }

        /// The names of the scopes.
        public var names: [String] {
            guard case .adapted(_, let layout) = row.storage else { return [] }
            return layout.scopes.keys.sorted()
        }

        /// The row of a scope, or nil if the row has no such scope.
        public subscript(_ name: String) -> Row? {
            if row.readsStatement {
                // Checked before the cache is read: a cursor row used on
                // another thread stops here.
                row._checkStatementAccess()
                if let cached = row.cachedScopeRow(named: name) { return cached }
            }
            guard case .adapted(let base, let layout) = row.storage,
                  let scope = layout.scopes[name]
            else { return nil }
            if row.readsStatement {
                // A cursor row: its scopes are views on the statement too,
                // made once.
                row._checkStatementAccess()
                let scopeRow = Row(base: base, layout: scope)
                scopeRow.cachesDecoding = row.cachesDecoding
                row.state.cachedScopeRows.append((name, scopeRow))
                return scopeRow
            }
            let scopeRow = Row(base: base, layout: scope)
            scopeRow.prefetchTree = row.prefetchTree?.scopes[name]
            return scopeRow
        }

        /// Iterates the (name, row) pairs of the scopes, sorted by name.
        public func makeIterator() -> IndexingIterator<[(name: String, row: Row)]> {
            names.compactMap { name in self[name].map { (name, $0) } }.makeIterator()
        }
    }

    /// The row without adapter: all columns of the fetched row.
    public var unadapted: Row {
        if case .adapted(let base, _) = storage { return base }
        return self
    }

    /// The row without its scopes and prefetched rows: only its own
    /// columns.
    ///
    /// ```swift
    /// // SELECT "book".*, "author".* FROM "book" JOIN "author" ON ...
    /// let row = try Row.fetchOne(db, Book.including(required: Book.author))!
    /// row.unscoped   // the columns of the book
    /// ```
    public var unscoped: Row {
        guard case .adapted(let base, let layout) = storage else {
            guard prefetchTree != nil else { return self }
            let row = Row(columnNames: columnNames, values: databaseValues)
            row.isFetched = isFetched
            return row
        }
        return Row(base: base, layout: RowLayout(baseIndexes: layout.baseIndexes, columnNames: layout.columnNames))
    }

    /// The scopes of the row and of its scopes, searched breadth-first:
    /// `scopesTree["country"]` finds the "country" scope of the "author"
    /// scope of a book row.
    public var scopesTree: ScopesTreeView {
        ScopesTreeView(row: self)
    }

    /// The scopes of a row, and the scopes of its scopes.
    public struct ScopesTreeView {
        let row: Row

        /// The names of all scopes, at any depth.
        public var names: Set<String> {
            var names: Set<String> = []
            var queue = [row]
            while !queue.isEmpty {
                let current = queue.removeFirst()
                for (name, scope) in current.scopes {
                    names.insert(name)
                    queue.append(scope)
                }
            }
            return names
        }

        /// The nearest scope of this name (breadth-first), or nil.
        public subscript(_ name: String) -> Row? {
            if let scope = row.scopes[name] { return scope }
            guard case .adapted(_, let layout) = row.storage, !layout.scopes.isEmpty else { return nil }
            var queue = [row]
            while !queue.isEmpty {
                let current = queue.removeFirst()
                if let scope = current.scopes[name] { return scope }
                queue.append(contentsOf: current.scopes.map(\.row))
            }
            return nil
        }
    }

    /// The rows that `including(all:)` prefetched for this row, keyed by
    /// association key.
    ///
    /// ```swift
    /// let row = try Row.fetchOne(db, Author.including(all: Author.books))!
    /// let bookRows = row.prefetchedRows["books"]!   // [Row]
    /// ```
    public var prefetchedRows: PrefetchedRowsView {
        PrefetchedRowsView(row: self)
    }

    /// The rows prefetched for a row.
    public struct PrefetchedRowsView: Equatable {
        let row: Row

        /// Returns whether two views have the same keys, and equal rows for
        /// each key.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            let keys = lhs.keys
            guard keys == rhs.keys else { return false }
            return keys.allSatisfy { lhs[$0] == rhs[$0] }
        }

        /// The association keys of the prefetched rows of the row, and of
        /// its scopes.
        public var keys: Set<String> {
            var keys = Set(row.prefetchTree?.keys ?? [])
            for (_, scope) in row.scopes {
                keys.formUnion(scope.prefetchedRows.keys)
            }
            return keys
        }

        /// Whether the row has no prefetched rows.
        public var isEmpty: Bool { keys.isEmpty }

        /// The prefetched rows of this key: those of the row, or of its
        /// nearest scope that has some (breadth-first); nil if none has.
        public subscript(_ key: String) -> [Row]? {
            _rows(forKey: key)?.rows
        }

        /// The prefetched rows of this key, as the row holds them (see
        /// ``subscript(_:)``).
        @usableFromInline
        func _rows(forKey key: String) -> PrefetchedRows? {
            // The rows of the row itself, without a search: the common case.
            if let rows = row.prefetchTree?[key] { return rows }
            var queue = [row]
            while !queue.isEmpty {
                let current = queue.removeFirst()
                if let rows = current.prefetchTree?[key] { return rows }
                queue.append(contentsOf: current.scopes.map(\.row))
            }
            return nil
        }
    }
}
