/// A connection between two record types, declared on the origin type, that
/// requests use to join, include, prefetch or aggregate the associated
/// records.
///
/// ```swift
/// extension Author {
///     static let books = hasMany(Book.self)
/// }
/// extension Book {
///     static let author = belongsTo(Author.self)
/// }
///
/// // SELECT "book".*, "author".* FROM "book"
/// // JOIN "author" ON "author"."id" = "book"."authorId"
/// let request = Book.including(required: Book.author)
/// ```
///
/// Associations are built by ``TableRecord/belongsTo(_:key:using:)-(Destination.Type,_,_)``,
/// ``TableRecord/hasMany(_:key:using:)-(Destination.Type,_,_)``,
/// ``TableRecord/hasOne(_:key:using:)-(Destination.Type,_,_)``, and their
/// `through:` variants. Like requests, they can be filtered, sorted, and
/// their selection changed: the refinements apply to the associated
/// records.
///
/// The concrete types are ``BelongsToAssociation``, ``HasOneAssociation``,
/// ``HasManyAssociation``, ``HasOneThroughAssociation`` and
/// ``HasManyThroughAssociation``; you do not define your own.
public protocol Association: DerivableRequest, Sendable {
    /// The record type the association starts from.
    associatedtype OriginRowDecoder

    /// The definition of the association. Not for use by applications.
    ///
    /// - Note: Settable, as in GRDB, for its companion libraries, which
    ///   copy the definition of one association into another.
    var _sqlAssociation: _SQLAssociation { get set }

    /// Creates an association from its definition. Not for use by
    /// applications.
    init(_sqlAssociation: _SQLAssociation)
}

/// An association to at most one record: ``BelongsToAssociation``,
/// ``HasOneAssociation``, ``HasOneThroughAssociation``.
public protocol AssociationToOne: Association { }

extension AssociationToOne {
    /// Returns the association with another key: the name of the scope of
    /// the included record (see ``Association/forKey(_:)-(String)``).
    public func forKey(_ key: String) -> Self { withKey(key) }
}

/// An association to any number of records: ``HasManyAssociation``,
/// ``HasManyThroughAssociation``. They can be prefetched with
/// `including(all:)`, and aggregated (`Author.books.count`).
public protocol AssociationToMany: Association { }

extension AssociationToMany {
    /// Returns the association with another key: the name of the
    /// prefetched records, and the base of the default names of aggregates
    /// (see ``Association/forKey(_:)-(String)``).
    public func forKey(_ key: String) -> Self { withKey(key) }
}

extension AssociationToMany where RowDecoder: TableRecord {
    /// The type of the values that the closures of aggregates receive: the
    /// associated record type's ``TableRecord/DatabaseComponents``.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents
}

extension Association {
    /// Returns the association with another key: the name of the scope of
    /// the included records, of the prefetched records, and the base of the
    /// default names of aggregates.
    ///
    /// ```swift
    /// // struct BookInfo: Decodable, FetchableRecord { var book: Book; var writer: Author }
    /// let request = Book.including(required: Book.author.forKey("writer"))
    /// ```
    public func forKey(_ key: String) -> Self {
        withKey(key)
    }

    func withKey(_ key: String) -> Self {
        var association = _sqlAssociation
        association.steps[association.steps.count - 1].key = .fixed(key)
        return Self(_sqlAssociation: association)
    }

    /// Returns the association with another key, from a coding key.
    ///
    /// ```swift
    /// Book.author.forKey(CodingKeys.authorInfo)
    /// ```
    public func forKey(_ codingKey: some CodingKey) -> Self {
        forKey(codingKey.stringValue)
    }

    /// See ``_SQLRelationRefinable/_mapRelation(_:)``: refinements apply to
    /// the associated records.
    public func _mapRelation(_ transform: (inout _SQLRelationBox) -> Void) -> Self {
        var association = _sqlAssociation
        var box = _SQLRelationBox(relation: association.steps[association.steps.count - 1].relation)
        transform(&box)
        association.steps[association.steps.count - 1].relation = box.relation
        return Self(_sqlAssociation: association)
    }

    /// The table of the associated records.
    public var databaseTableName: String { _relation.relation.tableName }

    /// Makes the selection of the associated records DISTINCT: see
    /// ``DerivableRequest/distinct()``.
    public func distinct() -> Self { mapSQLRelation { $0.isDistinct = true } }

    /// Reverses the ordering of the associated records: see
    /// ``OrderedRequest/reversed()``.
    public func reversed() -> Self { mapSQLRelation { $0.isReversed.toggle() } }

    /// Removes the ordering of the associated records: see
    /// ``OrderedRequest/unordered()``.
    public func unordered() -> Self {
        mapSQLRelation { $0.removeOrdering() }
    }

    /// Makes the ordering of the associated records total: see
    /// ``OrderedRequest/withStableOrder()``.
    public func withStableOrder() -> Self { mapSQLRelation { $0.makeOrderStable() } }

    /// Embeds a common table expression in the request that joins the
    /// association: see ``DerivableRequest/with(_:)``.
    public func with<RowDecoder>(_ cte: CommonTableExpression<RowDecoder>) -> Self {
        mapSQLRelation { $0.addCTE(cte.definition) }
    }

    /// See ``SelectionRequest/selectWhenConnected(_:)``.
    public func selectWhenConnected(
        _ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self
    {
        select([SQLSelection.whenConnected(selection)])
    }

    /// See ``SelectionRequest/annotatedWhenConnected(with:)``.
    public func annotatedWhenConnected(
        with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self
    {
        annotated(with: [SQLSelection.whenConnected(selection)])
    }

    /// See ``FilteredRequest/filterWhenConnected(_:)``.
    public func filterWhenConnected(
        _ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self
    {
        mapSQLRelation { $0.filters.append { db in try predicate(db).sqlExpression } }
    }

    /// See ``OrderedRequest/orderWhenConnected(_:)``.
    public func orderWhenConnected(
        _ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> Self
    {
        order([SQLOrdering.whenConnected(orderings)])
    }

    /// See ``AggregatingRequest/groupWhenConnected(_:)``.
    public func groupWhenConnected(
        _ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible]) -> Self
    {
        mapSQLRelation { $0.groupExpressions = [{ db in try expressions(db).map(\.sqlExpression) }] }
    }

    /// See ``AggregatingRequest/havingWhenConnected(_:)``.
    public func havingWhenConnected(
        _ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self
    {
        having(SQLExpression.whenConnected(predicate))
    }

    /// See ``_SQLRelationRefinable/_relation``: the relation of the
    /// associated records.
    public var _relation: _SQLRelationBox {
        _SQLRelationBox(relation: _sqlAssociation.steps[_sqlAssociation.steps.count - 1].relation)
    }
}

// MARK: - Definition

/// The definition of an association: the chain of tables from the origin
/// to the associated records (one step, or several for `through:`
/// associations). Not for use by applications.
public struct _SQLAssociation: Sendable {
    /// The steps from the origin: pivots first, the associated records
    /// last.
    var steps: [AssociationStep]

    init(steps: [AssociationStep]) {
        stopUnless(!steps.isEmpty, "an association has at least one step")
        self.steps = steps
    }

    /// The association key of the associated records, when they are
    /// joined or included as one record (singular: `book`).
    var keyName: String { steps[steps.count - 1].keyName(plural: false) }

    /// The association key of the associated records, when they are
    /// prefetched with `including(all:)` (plural: `books`).
    var prefetchKeyName: String { steps[steps.count - 1].keyName(plural: true) }

    /// The table of the associated records.
    var destinationTableName: String { steps[steps.count - 1].relation.tableName }

    /// Appends the steps of another association, that starts where this
    /// one ends (`hasMany(_:through:using:)`).
    func appending(_ other: _SQLAssociation) -> _SQLAssociation {
        _SQLAssociation(steps: steps + other.steps)
    }

    /// The child that joins the associated records to the origin.
    func child(kind: SQLRelation.Child.Kind, mode: SQLRelation.Child.Mode) -> SQLRelation.Child {
        let last = steps[steps.count - 1]
        var child = SQLRelation.Child(
            key: kind == .prefetch ? prefetchKeyName : keyName, kind: kind, mode: mode,
            condition: last.condition, relation: last.relation)
        if mode == .annotation {
            child.annotationRank = SQLRelation.nextAnnotationRank()
        }
        for step in steps.dropLast().reversed() {
            var pivot = step.relation
            pivot.add(child)
            child = SQLRelation.Child(
                key: step.keyName(plural: false), kind: kind == .prefetch ? .required : kind, mode: .join,
                condition: step.condition, relation: pivot)
        }
        return child
    }
}

/// One table of an association, and how it matches the previous one.
struct AssociationStep: Sendable {
    /// How the key of a step is built.
    enum Key: Sendable {
        /// From the table name, singular or plural after the cardinality.
        case table(String)
        /// A key given by the user.
        case fixed(String)
    }

    var key: Key
    /// The columns of this table that match those of the previous table.
    var condition: JoinCondition
    /// The records of this table, with the refinements of the association.
    var relation: SQLRelation
    /// Whether this step may match several rows.
    var isToMany: Bool

    /// The association key: the table name, plural for prefetched records
    /// (`books`), singular otherwise (`book`, `author`). A key given by the
    /// user is kept, except for a to-many association joined as one
    /// record: `hasMany(Child.self, key: "kittens")` gives the `kitten`
    /// scope.
    func keyName(plural: Bool) -> String {
        switch key {
        case .fixed(let name):
            return isToMany && !plural ? Inflections.default.singularize(name) : name
        case .table(let tableName):
            return plural ? Inflections.default.pluralize(tableName) : Inflections.default.singularize(tableName)
        }
    }
}

// MARK: - Association types

/// An association from a record to the record its foreign key refers to:
/// a book belongs to its author.
///
/// ```swift
/// extension Book {
///     static let author = belongsTo(Author.self)
/// }
/// ```
public struct BelongsToAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    /// The definition of the association. Not for use by applications.
    public var _sqlAssociation: _SQLAssociation

    /// Creates an association from its definition. Not for use by
    /// applications.
    public init(_sqlAssociation: _SQLAssociation) {
        self._sqlAssociation = _sqlAssociation
    }
}

/// An association from a record to the one record whose foreign key refers
/// to it: a country has one demographic profile.
///
/// ```swift
/// extension Country {
///     static let demographics = hasOne(Demographics.self, key: "demographics")
/// }
/// ```
public struct HasOneAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    /// The definition of the association. Not for use by applications.
    public var _sqlAssociation: _SQLAssociation

    /// Creates an association from its definition. Not for use by
    /// applications.
    public init(_sqlAssociation: _SQLAssociation) {
        self._sqlAssociation = _sqlAssociation
    }
}

/// An association from a record to the records whose foreign key refers to
/// it: an author has many books.
///
/// ```swift
/// extension Author {
///     static let books = hasMany(Book.self)
/// }
/// ```
public struct HasManyAssociation<Origin, Destination>: AssociationToMany {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    /// The definition of the association. Not for use by applications.
    public var _sqlAssociation: _SQLAssociation

    /// Creates an association from its definition. Not for use by
    /// applications.
    public init(_sqlAssociation: _SQLAssociation) {
        self._sqlAssociation = _sqlAssociation
    }
}

/// An association to one record, through another association: a book has
/// one return address, through its library.
///
/// ```swift
/// extension Book {
///     static let library = belongsTo(Library.self)
///     static let returnAddress = hasOne(Address.self, through: library, using: Library.address)
/// }
/// ```
public struct HasOneThroughAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    /// The definition of the association. Not for use by applications.
    public var _sqlAssociation: _SQLAssociation

    /// Creates an association from its definition. Not for use by
    /// applications.
    public init(_sqlAssociation: _SQLAssociation) {
        self._sqlAssociation = _sqlAssociation
    }
}

/// An association to many records, through another association: a country
/// has many citizens, through its passports.
///
/// ```swift
/// extension Country {
///     static let passports = hasMany(Passport.self)
///     static let citizens = hasMany(Citizen.self, through: passports, using: Passport.citizen)
/// }
/// ```
public struct HasManyThroughAssociation<Origin, Destination>: AssociationToMany {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    /// The definition of the association. Not for use by applications.
    public var _sqlAssociation: _SQLAssociation

    /// Creates an association from its definition. Not for use by
    /// applications.
    public init(_sqlAssociation: _SQLAssociation) {
        self._sqlAssociation = _sqlAssociation
    }
}
