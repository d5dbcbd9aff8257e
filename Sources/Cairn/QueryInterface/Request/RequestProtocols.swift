// The protocols of the requests that can be refined: one per kind of
// refinement (selection, filter, order, grouping, joins, table), and
// DerivableRequest, which gathers them. QueryInterfaceRequest and the
// association types adopt them all: generic code extends the protocol of
// the refinement it needs.
//
// ```swift
// extension FilteredRequest where Self: TypedRequest<Player> {
//     func active() -> Self { filter(Column("isActive")) }
// }
// extension DerivableRequest<Book> {
//     func newestFirst() -> Self { order(Column("publishDate").desc) }
// }
// ```

/// A request whose fetched values have a type, `RowDecoder`.
///
/// Extend it to write refinements for the requests of one record type:
///
/// ```swift
/// extension FilteredRequest where Self: TypedRequest<Player> {
///     func withHighScore() -> Self { filter { $0.score > 1000 } }
/// }
/// ```
public protocol TypedRequest<RowDecoder> {
    /// The type of the fetched values.
    associatedtype RowDecoder
}

/// What the request protocols are built on: a request made of an SQL
/// relation that refinements change. Not for use by applications: the
/// request protocols are adopted by Cairn's requests and associations only.
public protocol _SQLRelationRefinable {
    /// The type of the fetched values.
    associatedtype RowDecoder

    /// Returns the request with its relation changed. Not for use by
    /// applications.
    func _mapRelation(_ transform: (inout _SQLRelationBox) -> Void) -> Self

    /// The relation of the request. Not for use by applications.
    var _relation: _SQLRelationBox { get }
}

/// The relation of a request. Not for use by applications.
public struct _SQLRelationBox: Sendable {
    var relation: SQLRelation
}

/// A request whose selection can change: `select`, `annotated(with:)`.
///
/// Adopted by ``QueryInterfaceRequest`` and the associations.
public protocol SelectionRequest: _SQLRelationRefinable { }

/// A request that can be filtered: `filter`, `none()`.
///
/// Adopted by ``QueryInterfaceRequest`` and the associations.
public protocol FilteredRequest: _SQLRelationRefinable { }

/// A request that can be sorted: `order`, `reversed()`, `unordered()`.
///
/// Adopted by ``QueryInterfaceRequest`` and the associations.
public protocol OrderedRequest: _SQLRelationRefinable { }

/// A request whose rows can be grouped: `group`, `having`.
///
/// Adopted by ``QueryInterfaceRequest`` and the associations.
public protocol AggregatingRequest: _SQLRelationRefinable { }

/// A request that can join associated records: `including`, `joining`,
/// `annotated(withRequired:)`…
///
/// Adopted by ``QueryInterfaceRequest`` and the associations.
public protocol JoinableRequest<RowDecoder>: TypedRequest, _SQLRelationRefinable { }

/// A request that reads from one database table: filtered by primary key,
/// sorted by primary key, aliased.
///
/// Adopted by ``QueryInterfaceRequest`` and the associations.
public protocol TableRequest: _SQLRelationRefinable { }

/// A request that can be refined in every way: query interface requests,
/// and associations.
///
/// Extend it to write refinements once, for requests and associations
/// alike:
///
/// ```swift
/// extension DerivableRequest<Author> {
///     func filter(country: String) -> Self {
///         filter { $0.country == country }
///     }
/// }
///
/// let frenchAuthors = try Author.all().filter(country: "FR").fetchAll(db)
/// let booksOfFrenchAuthors = try Book
///     .joining(required: Book.author.filter(country: "FR"))
///     .fetchAll(db)
/// ```
///
/// ``QueryInterfaceRequest`` and the association types adopt it; you do not
/// adopt it yourself.
public protocol DerivableRequest<RowDecoder>:
    AggregatingRequest, FilteredRequest, JoinableRequest, OrderedRequest, SelectionRequest, TableRequest, Sendable
{ }

extension QueryInterfaceRequest: DerivableRequest {
    /// See ``_SQLRelationRefinable/_mapRelation(_:)``.
    public func _mapRelation(_ transform: (inout _SQLRelationBox) -> Void) -> Self {
        var box = _SQLRelationBox(relation: relation)
        transform(&box)
        return QueryInterfaceRequest(relation: box.relation)
    }

    /// See ``_SQLRelationRefinable/_relation``.
    public var _relation: _SQLRelationBox { _SQLRelationBox(relation: relation) }
}

extension _SQLRelationRefinable {
    /// Changes the relation.
    func mapSQLRelation(_ transform: (inout SQLRelation) -> Void) -> Self {
        _mapRelation { transform(&$0.relation) }
    }
}

extension SQLExpression {
    /// The expression that `expression` returns when the request runs
    /// (`havingWhenConnected`).
    static func whenConnected(_ expression: @escaping @Sendable (Database) throws -> any SQLExpressible) -> SQLExpression {
        .literal(SQL(elements: [.deferred { context in
            try expression(context.db).sqlExpression.sql(context)
        }]))
    }
}
