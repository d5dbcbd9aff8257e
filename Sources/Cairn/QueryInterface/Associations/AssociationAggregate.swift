/// A value computed from the records of a to-many association, for each
/// record of a request: a count, a minimum, a sum…
///
/// ```swift
/// struct AuthorInfo: Decodable, FetchableRecord {
///     var author: Author
///     var bookCount: Int
/// }
/// // SELECT "author".*, COUNT(DISTINCT "book"."id") AS "bookCount"
/// // FROM "author"
/// // LEFT JOIN "book" ON "book"."authorId" = "author"."id"
/// // GROUP BY "author"."id"
/// let infos = try AuthorInfo.fetchAll(db, Author.annotated(with: Author.books.count))
///
/// // Authors who wrote at least two books:
/// let prolific = try Author.having(Author.books.count >= 2).fetchAll(db)
/// ```
///
/// Aggregates have a default name (`bookCount`, `maxBookYear`), which
/// ``forKey(_:)-(String)`` changes, and which operators drop (except `??`).
/// Aggregates that use the same association key are computed on the same
/// joined records: give associations distinct keys to aggregate distinct
/// populations (`Author.books.filter(...).forKey("novels").count`).
public struct AssociationAggregate<RowDecoder>: Sendable {
    /// The associations the aggregate joins (with LEFT JOIN).
    let children: [SQLRelation.Child]

    /// The value.
    let expression: SQLExpression

    /// The name of the value in the selection.
    let key: String?

    /// For `isEmpty`, the count: negations test `count > 0`.
    let emptinessCount: SQLExpression?

    init(children: [SQLRelation.Child], expression: SQLExpression, key: String?, emptinessCount: SQLExpression? = nil) {
        self.children = children
        self.expression = expression
        self.key = key
        self.emptinessCount = emptinessCount
    }

    /// Returns the aggregate with another name.
    ///
    /// ```swift
    /// let numberOfBooks = Author.books.count.forKey("numberOfBooks")
    /// ```
    public func forKey(_ key: String) -> Self {
        AssociationAggregate(children: children, expression: expression, key: key, emptinessCount: emptinessCount)
    }

    /// Returns the aggregate with the name of a coding key.
    public func forKey(_ key: some CodingKey) -> Self {
        forKey(key.stringValue)
    }

    /// A new unnamed aggregate.
    func map(_ transform: (SQLExpression) -> SQLExpression) -> Self {
        AssociationAggregate(children: children, expression: transform(expression), key: nil)
    }

    /// An unnamed aggregate from two.
    static func combine(_ lhs: Self, _ rhs: Self, _ transform: (SQLExpression, SQLExpression) -> SQLExpression) -> Self {
        AssociationAggregate(children: lhs.children + rhs.children, expression: transform(lhs.expression, rhs.expression), key: nil)
    }

    /// The selection of the aggregate: `expression AS "key"`.
    var selection: SQLSelection {
        key.map { SQLSelection(impl: .aliased(expression, $0)) } ?? SQLSelection(impl: .expression(expression))
    }
}

// MARK: - Building aggregates

extension AssociationToMany {
    /// The path of keys from the origin to the associated table, for
    /// `SQLExpression.Impl.qualifiedByJoin`.
    private var joinPath: String {
        _sqlAssociation.steps.map { $0.keyName(plural: false) }.joined(separator: SQLGenerationContext.joinedTablePathSeparator)
    }

    /// The singular form of the association key: `books` gives `book`.
    private var singularKey: String {
        Inflections.default.singularize(_sqlAssociation.keyName)
    }

    private func aggregate(_ expression: SQLExpression, key: String?, emptinessCount: SQLExpression? = nil) -> AssociationAggregate<OriginRowDecoder> {
        AssociationAggregate(
            children: [_sqlAssociation.child(kind: .optional, mode: .join)],
            expression: expression, key: key, emptinessCount: emptinessCount)
    }

    /// An expression of the columns of the associated table.
    private func joined(_ expression: some SQLExpressible) -> SQLExpression {
        SQLExpression(impl: .qualifiedByJoin(joinPath, expression.sqlExpression))
    }

    /// `COUNT(DISTINCT "book"."id")`: the count of distinct associated
    /// records, by primary key (the rowid of a table without a primary key
    /// of one column).
    private var countExpression: SQLExpression {
        let tableName = _sqlAssociation.destinationTableName
        let primaryKey = SQLExpression.literal(SQL(elements: [.deferred { context in
            let columns = try SQLSelection.primaryKeyExpressions(context.db, tableName: tableName)
            let column = columns.count == 1 ? columns[0] : SQLExpression(impl: .rowID(qualifier: nil))
            return try column.sql(context)
        }]))
        return .aggregate("COUNT", [joined(primaryKey)], isDistinct: true)
    }

    /// The number of associated records, named `bookCount` for the `books`
    /// key.
    public var count: AssociationAggregate<OriginRowDecoder> {
        aggregate(countExpression, key: singularKey + "Count")
    }

    /// Whether there is no associated record, named `hasNoBook` for the
    /// `books` key: `COUNT(DISTINCT "book"."id") = 0`. Its negation is
    /// `COUNT(DISTINCT "book"."id") > 0`.
    public var isEmpty: AssociationAggregate<OriginRowDecoder> {
        let count = countExpression
        return aggregate(
            .emptinessTest(count, isEmpty: true),
            key: "hasNo" + Inflections.capitalizingFirstLetter(singularKey),
            emptinessCount: count)
    }

    /// The name of an aggregate of a column: `prefix` + key + column +
    /// `suffix` (`maxBookYear`, `bookAwardsSum`); nil when the value is
    /// not a column.
    private func name(prefix: String, _ value: some SQLExpressible, suffix: String = "") -> String? {
        guard let column = value.sqlExpression.columnName else { return nil }
        let key = prefix.isEmpty ? singularKey : prefix + Inflections.capitalizingFirstLetter(singularKey)
        return key + Inflections.capitalizingFirstLetter(column) + suffix
    }

    /// The minimum value of an expression of the associated records, named
    /// `minBookYear` for `Author.books.min(Column("year"))`.
    public func min(_ value: some SQLExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate(.aggregate("MIN", [joined(value)]), key: name(prefix: "min", value))
    }

    /// The maximum value of an expression of the associated records, named
    /// `maxBookYear` for `Author.books.max(Column("year"))`.
    public func max(_ value: some SQLExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate(.aggregate("MAX", [joined(value)]), key: name(prefix: "max", value))
    }

    /// The average value of an expression of the associated records, named
    /// `averageBookPrice` for `Author.books.average(Column("price"))`.
    public func average(_ value: some SQLExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate(.aggregate("AVG", [joined(value)]), key: name(prefix: "average", value))
    }

    /// The sum of an expression of the associated records (`SUM`: NULL
    /// when there is none), named `bookAwardsSum` for
    /// `Author.books.sum(Column("awards"))`.
    public func sum(_ value: some SQLExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate(.aggregate("SUM", [joined(value)]), key: name(prefix: "", value, suffix: "Sum"))
    }

    /// The sum of an expression of the associated records (`TOTAL`: 0.0
    /// when there is none), named like ``AssociationToMany/sum(_:)-(SQLExpressible)``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_aggfunc.html#sumunc>
    public func total(_ value: some SQLExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate(.aggregate("TOTAL", [joined(value)]), key: name(prefix: "", value, suffix: "Sum"))
    }
}

extension AssociationToMany where RowDecoder: TableRecord {
    /// See ``AssociationToMany/min(_:)-(SQLExpressible)``: `Author.books.min(\.year)`.
    public func min(_ value: (RowDecoder.DatabaseComponents) throws -> some SQLExpressible) rethrows -> AssociationAggregate<OriginRowDecoder> {
        min(try value(RowDecoder.databaseComponents))
    }

    /// See ``AssociationToMany/max(_:)-(SQLExpressible)``: `Author.books.max(\.year)`.
    public func max(_ value: (RowDecoder.DatabaseComponents) throws -> some SQLExpressible) rethrows -> AssociationAggregate<OriginRowDecoder> {
        max(try value(RowDecoder.databaseComponents))
    }

    /// See ``AssociationToMany/average(_:)-(SQLExpressible)``: `Author.books.average(\.price)`.
    public func average(_ value: (RowDecoder.DatabaseComponents) throws -> some SQLExpressible) rethrows -> AssociationAggregate<OriginRowDecoder> {
        average(try value(RowDecoder.databaseComponents))
    }

    /// See ``AssociationToMany/sum(_:)-(SQLExpressible)``: `Author.books.sum(\.awards)`.
    public func sum(_ value: (RowDecoder.DatabaseComponents) throws -> some SQLExpressible) rethrows -> AssociationAggregate<OriginRowDecoder> {
        sum(try value(RowDecoder.databaseComponents))
    }

    /// See ``AssociationToMany/total(_:)-(SQLExpressible)``: `Author.books.total(\.awards)`.
    public func total(_ value: (RowDecoder.DatabaseComponents) throws -> some SQLExpressible) rethrows -> AssociationAggregate<OriginRowDecoder> {
        total(try value(RowDecoder.databaseComponents))
    }
}

// MARK: - Requests

extension DerivableRequest {
    private func applying(_ aggregates: [AssociationAggregate<RowDecoder>], _ transform: (inout SQLRelation) -> Void) -> Self {
        _mapRelation { box in
            for aggregate in aggregates {
                for child in aggregate.children {
                    box.relation.add(child)
                }
            }
            box.relation.groupsByPrimaryKey = true
            transform(&box.relation)
        }
    }

    /// Appends aggregates to the selection, grouping the rows by primary
    /// key.
    ///
    /// ```swift
    /// // SELECT "author".*, COUNT(DISTINCT "book"."id") AS "bookCount",
    /// //        MAX("book"."year") AS "maxBookYear"
    /// // FROM "author" LEFT JOIN "book" ON "book"."authorId" = "author"."id"
    /// // GROUP BY "author"."id"
    /// let request = Author.annotated(with: Author.books.count, Author.books.max(Column("year")))
    /// ```
    public func annotated(with aggregates: AssociationAggregate<RowDecoder>...) -> Self {
        annotated(with: aggregates)
    }

    /// Appends aggregates to the selection, grouping the rows by primary
    /// key.
    public func annotated(with aggregates: [AssociationAggregate<RowDecoder>]) -> Self {
        applying(aggregates) { relation in
            relation.selection.append(contentsOf: aggregates.map(\.selection))
        }
    }

    /// Keeps the records whose aggregate is true, grouping the rows by
    /// primary key.
    ///
    /// ```swift
    /// // SELECT "author".* FROM "author"
    /// // LEFT JOIN "book" ON "book"."authorId" = "author"."id"
    /// // GROUP BY "author"."id" HAVING COUNT(DISTINCT "book"."id") = 0
    /// let lazyAuthors = try Author.having(Author.books.isEmpty).fetchAll(db)
    /// ```
    public func having(_ aggregate: AssociationAggregate<RowDecoder>) -> Self {
        applying([aggregate]) { relation in
            relation.havingExpressions.append(aggregate.expression)
        }
    }
}

extension TableRecord {
    /// See ``DerivableRequest/annotated(with:)-(AssociationAggregate<RowDecoder>...)``.
    public static func annotated(with aggregates: AssociationAggregate<Self>...) -> QueryInterfaceRequest<Self> {
        all().annotated(with: aggregates)
    }

    /// See ``DerivableRequest/annotated(with:)-(AssociationAggregate<RowDecoder>...)``:
    /// the aggregates given as an array.
    public static func annotated(with aggregates: [AssociationAggregate<Self>]) -> QueryInterfaceRequest<Self> {
        all().annotated(with: aggregates)
    }

    /// See ``DerivableRequest/having(_:)-(AssociationAggregate<RowDecoder>)``.
    public static func having(_ aggregate: AssociationAggregate<Self>) -> QueryInterfaceRequest<Self> {
        all().having(aggregate)
    }
}

// MARK: - Operators

extension AssociationAggregate {
    /// The negation of an aggregate: `!Author.books.isEmpty` is
    /// `COUNT(DISTINCT "book"."id") > 0`.
    public static prefix func ! (aggregate: Self) -> Self {
        if let count = aggregate.emptinessCount {
            return aggregate.map { _ in .emptinessTest(count, isEmpty: false) }
        }
        return aggregate.map { !$0 }
    }

    /// Compares an aggregate with a value. `Author.books.isEmpty == false`
    /// is `COUNT(DISTINCT "book"."id") > 0`.
    ///
    /// ```swift
    /// let request = Author.having(Author.books.count == 2)
    /// ```
    public static func == (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        if let bool = rhs as? Bool { return lhs == bool }
        return lhs.map { $0 == rhs }
    }

    /// Compares an aggregate with a boolean: `Author.books.isEmpty == false`
    /// is `COUNT(DISTINCT "book"."id") > 0`.
    public static func == (lhs: Self, rhs: Bool) -> Self {
        if lhs.emptinessCount != nil {
            return rhs ? lhs.map { $0 } : !lhs
        }
        return lhs.map { $0 == rhs }
    }

    /// Compares a value with an aggregate.
    public static func == (lhs: (any SQLExpressible)?, rhs: Self) -> Self {
        if let bool = lhs as? Bool { return bool == rhs }
        return rhs.map { lhs == $0 }
    }

    /// Compares a boolean with an aggregate: `false == Author.books.isEmpty`
    /// is `COUNT(DISTINCT "book"."id") > 0`.
    public static func == (lhs: Bool, rhs: Self) -> Self {
        if rhs.emptinessCount != nil { return rhs == lhs }
        return rhs.map { lhs == $0 }
    }

    /// Compares two aggregates.
    public static func == (lhs: Self, rhs: Self) -> Self {
        .combine(lhs, rhs) { $0 == $1 }
    }

    /// Compares an aggregate with a value: `lhs <> rhs`, or `IS NOT NULL`.
    public static func != (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        if let bool = rhs as? Bool { return lhs != bool }
        return lhs.map { $0 != rhs }
    }

    /// Compares an aggregate with a boolean: `Author.books.isEmpty != true`
    /// is `COUNT(DISTINCT "book"."id") > 0`.
    public static func != (lhs: Self, rhs: Bool) -> Self {
        if lhs.emptinessCount != nil {
            return rhs ? !lhs : lhs.map { $0 }
        }
        return lhs.map { $0 != rhs }
    }

    /// Compares a value with an aggregate.
    public static func != (lhs: (any SQLExpressible)?, rhs: Self) -> Self {
        if let bool = lhs as? Bool { return bool != rhs }
        return rhs.map { lhs != $0 }
    }

    /// Compares a boolean with an aggregate.
    public static func != (lhs: Bool, rhs: Self) -> Self {
        if rhs.emptinessCount != nil { return rhs != lhs }
        return rhs.map { lhs != $0 }
    }

    /// Compares two aggregates.
    public static func != (lhs: Self, rhs: Self) -> Self {
        .combine(lhs, rhs) { $0 != $1 }
    }

    /// `lhs IS rhs`.
    public static func === (lhs: Self, rhs: (any SQLExpressible)?) -> Self { lhs.map { $0 === rhs } }
    /// `lhs IS rhs`.
    public static func === (lhs: (any SQLExpressible)?, rhs: Self) -> Self { rhs.map { lhs === $0 } }
    /// `lhs IS rhs`.
    public static func === (lhs: Self, rhs: Self) -> Self { .combine(lhs, rhs) { $0 === $1 } }
    /// `lhs IS NOT rhs`.
    public static func !== (lhs: Self, rhs: (any SQLExpressible)?) -> Self { lhs.map { $0 !== rhs } }
    /// `lhs IS NOT rhs`.
    public static func !== (lhs: (any SQLExpressible)?, rhs: Self) -> Self { rhs.map { lhs !== $0 } }
    /// `lhs IS NOT rhs`.
    public static func !== (lhs: Self, rhs: Self) -> Self { .combine(lhs, rhs) { $0 !== $1 } }

    /// Compares an aggregate with a value.
    public static func < (lhs: Self, rhs: some SQLExpressible) -> Self { lhs.map { $0 < rhs } }
    /// Compares a value with an aggregate.
    public static func < (lhs: some SQLExpressible, rhs: Self) -> Self { rhs.map { lhs < $0 } }
    /// Compares two aggregates.
    public static func < (lhs: Self, rhs: Self) -> Self { .combine(lhs, rhs) { $0 < $1 } }
    /// Compares an aggregate with a value.
    public static func <= (lhs: Self, rhs: some SQLExpressible) -> Self { lhs.map { $0 <= rhs } }
    /// Compares a value with an aggregate.
    public static func <= (lhs: some SQLExpressible, rhs: Self) -> Self { rhs.map { lhs <= $0 } }
    /// Compares two aggregates.
    public static func <= (lhs: Self, rhs: Self) -> Self { .combine(lhs, rhs) { $0 <= $1 } }
    /// Compares an aggregate with a value.
    public static func > (lhs: Self, rhs: some SQLExpressible) -> Self { lhs.map { $0 > rhs } }
    /// Compares a value with an aggregate.
    public static func > (lhs: some SQLExpressible, rhs: Self) -> Self { rhs.map { lhs > $0 } }
    /// Compares two aggregates.
    public static func > (lhs: Self, rhs: Self) -> Self { .combine(lhs, rhs) { $0 > $1 } }
    /// Compares an aggregate with a value.
    public static func >= (lhs: Self, rhs: some SQLExpressible) -> Self { lhs.map { $0 >= rhs } }
    /// Compares a value with an aggregate.
    public static func >= (lhs: some SQLExpressible, rhs: Self) -> Self { rhs.map { lhs >= $0 } }
    /// Compares two aggregates.
    public static func >= (lhs: Self, rhs: Self) -> Self { .combine(lhs, rhs) { $0 >= $1 } }

    /// Both aggregates are true.
    public static func && (lhs: Self, rhs: Self) -> Self { .combine(lhs, rhs) { $0 && $1 } }
    /// The aggregate and the expression are true.
    public static func && (lhs: Self, rhs: some SQLExpressible) -> Self { lhs.map { $0 && rhs } }
    /// The expression and the aggregate are true.
    public static func && (lhs: some SQLExpressible, rhs: Self) -> Self { rhs.map { lhs && $0 } }
    /// One aggregate at least is true.
    public static func || (lhs: Self, rhs: Self) -> Self { .combine(lhs, rhs) { $0 || $1 } }
    /// The aggregate or the expression is true.
    public static func || (lhs: Self, rhs: some SQLExpressible) -> Self { lhs.map { $0 || rhs } }
    /// The expression or the aggregate is true.
    public static func || (lhs: some SQLExpressible, rhs: Self) -> Self { rhs.map { lhs || $0 } }

    /// Adds an aggregate and a value.
    public static func + (lhs: Self, rhs: some SQLExpressible) -> Self { lhs.map { $0 + rhs } }
    /// Adds a value and an aggregate.
    public static func + (lhs: some SQLExpressible, rhs: Self) -> Self { rhs.map { lhs + $0 } }
    /// Adds two aggregates: `Author.books.count + Author.paintings.count`.
    public static func + (lhs: Self, rhs: Self) -> Self { .combine(lhs, rhs) { $0 + $1 } }
    /// Subtracts a value from an aggregate.
    public static func - (lhs: Self, rhs: some SQLExpressible) -> Self { lhs.map { $0 - rhs } }
    /// Subtracts an aggregate from a value.
    public static func - (lhs: some SQLExpressible, rhs: Self) -> Self { rhs.map { lhs - $0 } }
    /// Subtracts two aggregates.
    public static func - (lhs: Self, rhs: Self) -> Self { .combine(lhs, rhs) { $0 - $1 } }
    /// Multiplies an aggregate and a value.
    public static func * (lhs: Self, rhs: some SQLExpressible) -> Self { lhs.map { $0 * rhs } }
    /// Multiplies a value and an aggregate.
    public static func * (lhs: some SQLExpressible, rhs: Self) -> Self { rhs.map { lhs * $0 } }
    /// Multiplies two aggregates.
    public static func * (lhs: Self, rhs: Self) -> Self { .combine(lhs, rhs) { $0 * $1 } }
    /// Divides an aggregate by a value.
    public static func / (lhs: Self, rhs: some SQLExpressible) -> Self { lhs.map { $0 / rhs } }
    /// Divides a value by an aggregate.
    public static func / (lhs: some SQLExpressible, rhs: Self) -> Self { rhs.map { lhs / $0 } }
    /// Divides two aggregates.
    public static func / (lhs: Self, rhs: Self) -> Self { .combine(lhs, rhs) { $0 / $1 } }

    /// The negative of an aggregate.
    public static prefix func - (aggregate: Self) -> Self { aggregate.map { -$0 } }

    /// The aggregate, or a value when it is NULL: `IFNULL(aggregate, value)`.
    /// The aggregate keeps its name.
    ///
    /// ```swift
    /// let request = Team.annotated(with: Team.players.min(Column("score")) ?? 0)
    /// ```
    public static func ?? (lhs: Self, rhs: some SQLExpressible) -> Self {
        AssociationAggregate(children: lhs.children, expression: lhs.expression ?? rhs, key: lhs.key)
    }
}

/// The absolute value of an aggregate: `ABS(aggregate)`.
public func abs<T>(_ aggregate: AssociationAggregate<T>) -> AssociationAggregate<T> {
    aggregate.map { abs($0) }
}

/// The length of an aggregate: `LENGTH(aggregate)`.
public func length<T>(_ aggregate: AssociationAggregate<T>) -> AssociationAggregate<T> {
    aggregate.map { length($0) }
}

/// An aggregate converted to a storage class: `CAST(aggregate AS type)`.
/// The aggregate keeps its name.
public func cast<T>(_ aggregate: AssociationAggregate<T>, as type: Database.ColumnType) -> AssociationAggregate<T> {
    AssociationAggregate(children: aggregate.children, expression: cast(aggregate.expression, as: type), key: aggregate.key)
}

extension SQLExpression {
    /// `count = 0`, or `count > 0`: the test of ``AssociationToMany/isEmpty``
    /// and of its negation. The zero is written in the SQL, not bound as an
    /// argument, as GRDB writes it: `HAVING COUNT(DISTINCT "book"."id") = 0`.
    fileprivate static func emptinessTest(_ count: SQLExpression, isEmpty: Bool) -> SQLExpression {
        SQLExpression(impl: .binary(isEmpty ? "=" : ">", count, .literal(SQL(sql: "0"))))
    }
}
