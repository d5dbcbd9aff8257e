// The shapes that GRDB gives row adapters for its companion libraries: a
// row adapter turns a `_RowLayout` (the columns of a base row, as pairs of
// a base index and a name) into a `_LayoutedRowAdapter` (a
// `_LayoutedColumnMapping` and its scopes). Cairn's adapters compute a
// `RowLayout` from column names; this file converts between the two, so
// that an adapter written either way works everywhere.

/// The columns of a row, as an adapter sees them: for each column, its
/// index in the base row (the row of the statement) and its name.
///
/// A ``Statement`` is a layout (its columns, at their own indexes), and so
/// is a ``_LayoutedColumnMapping`` (the columns of an adapted row): an
/// adapter applied to an adapted row reads the mapping as its layout.
///
/// - Note: This protocol exists for the companion libraries of GRDB, whose
///   custom adapters implement ``RowAdapter/_layoutedAdapter(from:)``.
public protocol _RowLayout {
    /// The columns, from left to right: the index of each column in the
    /// base row, and its name.
    var _layoutColumns: [(Int, String)] { get }

    /// Returns the position, in ``_layoutColumns``, of the leftmost column
    /// named `name` (compared case-insensitively), or nil.
    func _layoutIndex(ofColumn name: String) -> Int?
}

/// What a row adapter makes of a layout: the columns of the adapted row
/// (``_mapping``), and its named scopes.
///
/// - Note: This protocol exists for the companion libraries of GRDB: it is
///   the result of ``RowAdapter/_layoutedAdapter(from:)``.
public protocol _LayoutedRowAdapter {
    /// The columns of the adapted row.
    var _mapping: _LayoutedColumnMapping { get }

    /// The adapted rows of the scopes, by scope name.
    var _scopes: [String: any _LayoutedRowAdapter] { get }
}

/// The columns of an adapted row: for each one, its index in the base row
/// and its name in the adapted row.
///
/// Only Cairn's adapters make mappings: a custom adapter returns what
/// the built-in adapters return for its layout (for example
/// `try ColumnMapping(["name": "fullName"])._layoutedAdapter(from: layout)`).
///
/// - Note: This type exists for the companion libraries of GRDB.
public struct _LayoutedColumnMapping: Sendable {
    /// The columns of the adapted row, from left to right: the index of
    /// each one in the base row, and its adapted name.
    public let _layoutColumns: [(Int, String)]

    /// The position of the leftmost column of each lowercased name.
    let lowercasedPositions: [String: Int]

    init(layoutColumns: [(Int, String)]) {
        self._layoutColumns = layoutColumns
        var positions: [String: Int] = [:]
        for (position, column) in layoutColumns.enumerated() where positions[column.1.lowercased()] == nil {
            positions[column.1.lowercased()] = position
        }
        self.lowercasedPositions = positions
    }
}

extension _LayoutedColumnMapping: _LayoutedRowAdapter {
    /// The mapping itself.
    ///
    /// - Note: This property exists for the companion libraries of GRDB.
    public var _mapping: _LayoutedColumnMapping { self }

    /// No scope: a mapping alone has none.
    ///
    /// - Note: This property exists for the companion libraries of GRDB.
    public var _scopes: [String: any _LayoutedRowAdapter] { [:] }
}

extension _LayoutedColumnMapping: _RowLayout {
    /// Returns the position of the leftmost column named `name` (compared
    /// case-insensitively) in ``_layoutColumns``, or nil.
    ///
    /// - Note: This method exists for the companion libraries of GRDB.
    public func _layoutIndex(ofColumn name: String) -> Int? {
        lowercasedPositions[name] ?? lowercasedPositions[name.lowercased()]
    }
}

extension Statement: _RowLayout {
    /// The columns of the statement, each at its own index.
    ///
    /// - Note: This property exists for the companion libraries of GRDB.
    public var _layoutColumns: [(Int, String)] {
        Array(columnNames.enumerated())
    }

    /// Returns the index of the leftmost column named `name`, compared
    /// case-insensitively (``index(ofColumn:)``).
    ///
    /// - Note: This method exists for the companion libraries of GRDB.
    public func _layoutIndex(ofColumn name: String) -> Int? {
        index(ofColumn: name)
    }
}

/// A mapping with scopes: what Cairn's adapters return from
/// ``RowAdapter/_layoutedAdapter(from:)``.
struct LayoutedScopedAdapter: _LayoutedRowAdapter {
    let _mapping: _LayoutedColumnMapping
    let _scopes: [String: any _LayoutedRowAdapter]
}

/// The layout that the default ``RowAdapter/_layout(columnNames:)`` gives
/// to ``RowAdapter/_layoutedAdapter(from:)``: the columns of a statement.
/// It names the adapter type that made it, so that an adapter that
/// implements neither method throws instead of calling itself forever.
struct ColumnNamesLayout: _RowLayout {
    let columnNames: [String]
    let adapterType: ObjectIdentifier

    var _layoutColumns: [(Int, String)] { Array(columnNames.enumerated()) }

    func _layoutIndex(ofColumn name: String) -> Int? {
        columnNames.firstIndex { $0.equalsIgnoringASCIICase(name) }
    }
}

extension RowAdapter {
    /// Returns the adapted columns and scopes of this adapter for a layout:
    /// the layout of Cairn's ``_layout(columnNames:)`` for the names of the
    /// layout, with its indexes read through the layout.
    ///
    /// A custom adapter written for GRDB implements this method instead of
    /// ``_layout(columnNames:)``, by calling a built-in adapter:
    ///
    /// ```swift
    /// struct FullNameAdapter: RowAdapter {
    ///     func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
    ///         try ColumnMapping(["name": "fullName"])._layoutedAdapter(from: layout)
    ///     }
    /// }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` when the adapter does not fit the
    ///   layout.
    /// - Note: This method exists for the companion libraries of GRDB.
    public func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
        if let layout = layout as? ColumnNamesLayout, layout.adapterType == ObjectIdentifier(Self.self) {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "the row adapter \(Self.self) implements neither _layout(columnNames:) nor _layoutedAdapter(from:)")
        }
        let columns = layout._layoutColumns
        let rowLayout = try _layout(columnNames: columns.map(\.1))
        return try RowLayout.layoutedAdapter(rowLayout, over: columns)
    }

    /// The layout of the adapted row, from the result of
    /// ``_layoutedAdapter(from:)``: the default of adapters written for
    /// GRDB, which implement that method only.
    ///
    /// - Throws: A ``DatabaseError`` when the adapter does not fit the row,
    ///   or names a column that the row does not have.
    public func _layout(columnNames: [String]) throws -> RowLayout {
        let layouted = try _layoutedAdapter(
            from: ColumnNamesLayout(columnNames: columnNames, adapterType: ObjectIdentifier(Self.self)))
        return try RowLayout(layouted, columnCount: columnNames.count)
    }
}

extension RowLayout {
    /// The layouted adapter of a layout computed over `columns`: positions
    /// in `columns` become the base indexes that `columns` gives.
    ///
    /// - Throws: A ``DatabaseError`` when a position is not one of
    ///   `columns` (an adapter that does not fit).
    static func layoutedAdapter(_ layout: RowLayout, over columns: [(Int, String)]) throws -> any _LayoutedRowAdapter {
        let mapped = try zip(layout.baseIndexes, layout.columnNames).map { position, name -> (Int, String) in
            guard columns.indices.contains(position) else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the row adapter names column \(position) of \(columns.count)")
            }
            return (columns[position].0, name)
        }
        let mapping = _LayoutedColumnMapping(layoutColumns: mapped)
        if layout.scopes.isEmpty { return mapping }
        var scopes: [String: any _LayoutedRowAdapter] = [:]
        for (name, scope) in layout.scopes {
            scopes[name] = try layoutedAdapter(scope, over: columns)
        }
        return LayoutedScopedAdapter(_mapping: mapping, _scopes: scopes)
    }

    /// The layout of a layouted adapter over a row of `columnCount`
    /// columns.
    ///
    /// - Throws: A ``DatabaseError`` when a base index is not a column of
    ///   the row: reading it would read outside the row.
    init(_ layouted: any _LayoutedRowAdapter, columnCount: Int) throws {
        let columns = layouted._mapping._layoutColumns
        for (index, _) in columns where !(0..<columnCount).contains(index) {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the row adapter names column \(index) of a row of \(columnCount)")
        }
        var scopes: [String: RowLayout] = [:]
        for (name, scope) in layouted._scopes {
            scopes[name] = try RowLayout(scope, columnCount: columnCount)
        }
        self.init(baseIndexes: columns.map(\.0), columnNames: columns.map(\.1), scopes: scopes)
    }
}
