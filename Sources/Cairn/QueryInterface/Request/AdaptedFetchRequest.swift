// Requests whose rows go through an extra row adapter.

/// A request whose rows are adapted by a row adapter, on top of the adapter
/// of its base request (see ``FetchRequest/adapted(_:)``).
public struct AdaptedFetchRequest<Base: FetchRequest>: FetchRequest {
    /// The type that decodes the rows: the one of the base request.
    public typealias RowDecoder = Base.RowDecoder

    let base: Base
    let adapter: @Sendable (Database) throws -> any RowAdapter

    /// The SQL of the base request, as a subquery (adapters do not change
    /// the SQL).
    public var sqlSubquery: SQLSubquery { base.sqlSubquery }

    /// The statement of the base request, with the adapter applied to the
    /// rows that the base adapter produces.
    ///
    /// - Throws: A ``DatabaseError``, or the error of the adapter function.
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool) throws -> PreparedRequest {
        var prepared = try base.makePreparedRequest(db, forSingleResult: singleResult)
        let adapter = try self.adapter(db)
        if let baseAdapter = prepared.adapter {
            prepared.adapter = ChainedAdapter(first: baseAdapter, second: adapter)
        } else {
            prepared.adapter = adapter
        }
        return prepared
    }

    /// The number of rows of the base request.
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchCount(_ db: Database) throws -> Int {
        try base.fetchCount(db)
    }

    /// The region of the base request: an adapter does not change what the
    /// request reads, and a request of some rows keeps their rowids
    /// (`item(id,name)[1,2]`), as in GRDB.
    ///
    /// - Throws: A ``DatabaseError`` when the request cannot be prepared.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try base.databaseRegion(db)
    }
}

extension FetchRequest {
    /// Returns a request whose rows are adapted by the adapter that
    /// `adapter` returns, on top of the adapter of this request, if any.
    ///
    /// ```swift
    /// // Rows without their first column:
    /// let request = SQLRequest<Row>(sql: "SELECT 0, * FROM player")
    ///     .adapted { _ in SuffixRowAdapter(fromIndex: 1) }
    /// ```
    ///
    /// - Parameter adapter: A function that returns the adapter, from the
    ///   connection that prepares the request.
    public func adapted(_ adapter: @escaping @Sendable (Database) throws -> any RowAdapter) -> AdaptedFetchRequest<Self> {
        AdaptedFetchRequest(base: self, adapter: adapter)
    }
}

/// Applies `second` to the rows that `first` adapts.
struct ChainedAdapter: RowAdapter {
    let first: any RowAdapter
    let second: any RowAdapter

    func _layout(columnNames: [String]) throws -> RowLayout {
        let firstLayout = try first._layout(columnNames: columnNames)
        let secondLayout = try second._layout(columnNames: firstLayout.columnNames)
        return ChainedAdapter.compose(secondLayout, over: firstLayout)
    }

    /// A layout over the rows of `lower`, expressed over the base row of
    /// `lower`. The scopes of `lower` remain, unless `upper` defines scopes
    /// of the same name.
    static func compose(_ upper: RowLayout, over lower: RowLayout) -> RowLayout {
        var scopes = lower.scopes
        for (name, scope) in upper.scopes {
            scopes[name] = compose(scope, over: lower)
        }
        return RowLayout(
            baseIndexes: upper.baseIndexes.map { lower.baseIndexes[$0] },
            columnNames: upper.columnNames,
            scopes: scopes)
    }
}
