/// A type-erased ``FetchRequest``: any request that fetches values of type
/// `RowDecoder`, behind one concrete type.
///
/// ```swift
/// func playersRequest(bestOnly: Bool) -> AnyFetchRequest<Player> {
///     if bestOnly {
///         return AnyFetchRequest(Player.order(Column("score").desc).limit(10))
///     }
///     return AnyFetchRequest(SQLRequest<Player>(sql: "SELECT * FROM player"))
/// }
/// let players = try playersRequest(bestOnly: true).fetchAll(db)
/// ```
///
/// Every method forwards to the wrapped request.
public struct AnyFetchRequest<RowDecoder>: FetchRequest {
    private let prepare: @Sendable (Database, Bool) throws -> PreparedRequest
    private let count: @Sendable (Database) throws -> Int
    private let region: @Sendable (Database) throws -> DatabaseRegion
    private let subquery: @Sendable () -> SQLSubquery

    private init<Base: FetchRequest>(wrapping base: Base) {
        prepare = { db, singleResult in try base.makePreparedRequest(db, forSingleResult: singleResult) }
        count = { db in try base.fetchCount(db) }
        region = { db in try base.databaseRegion(db) }
        subquery = { base.sqlSubquery }
    }

    /// Wraps a request.
    ///
    /// - Parameter request: The request that does the work.
    public init(_ request: some FetchRequest<RowDecoder>) {
        self.init(wrapping: request)
    }

    /// The same request, whose rows decode as `T`.
    ///
    /// ```swift
    /// let names = try AnyFetchRequest(Player.select(Column("name"))).asRequest(of: String.self).fetchAll(db)
    /// ```
    public func asRequest<T>(of type: T.Type) -> AnyFetchRequest<T> {
        AnyFetchRequest<T>(erasing: self)
    }

    private init<Other>(erasing other: AnyFetchRequest<Other>) {
        prepare = other.prepare
        count = other.count
        region = other.region
        subquery = other.subquery
    }

    /// The SQL of the wrapped request, as a subquery.
    public var sqlSubquery: SQLSubquery { subquery() }

    /// The prepared statement of the wrapped request: see
    /// ``FetchRequest/makePreparedRequest(_:forSingleResult:)``.
    ///
    /// - Throws: A ``DatabaseError`` when the request cannot be prepared.
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws -> PreparedRequest {
        try prepare(db, singleResult)
    }

    /// The number of rows of the wrapped request.
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchCount(_ db: Database) throws -> Int {
        try count(db)
    }

    /// The region that the wrapped request reads.
    ///
    /// - Throws: A ``DatabaseError``.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try region(db)
    }
}
