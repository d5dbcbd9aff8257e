/// A type that can sort the rows of a request: expressions, columns, and
/// their `asc` / `desc` variants.
public protocol SQLOrderingTerm {
    /// The ordering.
    var sqlOrdering: SQLOrdering { get }
}

/// A term of the ORDER BY clause of a request.
///
/// ```swift
/// // SELECT * FROM "player" ORDER BY "score" DESC, "name"
/// let request = Player.order(Column("score").desc, Column("name"))
/// ```
public struct SQLOrdering: SQLOrderingTerm, Sendable {
    enum Impl: Sendable {
        case expression(SQLExpression)
        case asc(SQLExpression)
        case desc(SQLExpression)
        case ascNullsLast(SQLExpression)
        case descNullsFirst(SQLExpression)
        case literal(SQL)
        /// Terms that need the database to be known (`orderWhenConnected`),
        /// and whether they are reversed.
        case deferred(@Sendable (Database) throws -> [SQLOrdering], reversed: Bool)
    }

    let impl: Impl

    /// The ordering itself.
    public var sqlOrdering: SQLOrdering { self }

    /// The ordering in the opposite direction; raw SQL cannot be reversed,
    /// and is kept as is.
    var reversed: SQLOrdering {
        switch impl {
        case .expression(let expression), .asc(let expression): return SQLOrdering(impl: .desc(expression))
        // Reversed once, `"a" DESC` is `"a" ASC`; a request reversed twice
        // renders its terms as written (see `ResolvedQuery.clausesSQL`).
        case .desc(let expression): return SQLOrdering(impl: .asc(expression))
        case .ascNullsLast(let expression): return SQLOrdering(impl: .descNullsFirst(expression))
        case .descNullsFirst(let expression): return SQLOrdering(impl: .ascNullsLast(expression))
        case .literal: return self
        case let .deferred(orderings, reversed): return SQLOrdering(impl: .deferred(orderings, reversed: !reversed))
        }
    }

    /// Terms that `orderings` returns when the request runs.
    static func whenConnected(_ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> SQLOrdering {
        SQLOrdering(impl: .deferred({ db in try orderings(db).map(\.sqlOrdering) }, reversed: false))
    }

    /// Whether the ordering can be reversed.
    var isReversible: Bool {
        if case .literal = impl { return false }
        return true
    }

    /// Renders the ordering.
    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .expression(let expression): return try expression.sql(context)
        case .asc(let expression): return try expression.sql(context) + " ASC"
        case .desc(let expression): return try expression.sql(context) + " DESC"
        case .ascNullsLast(let expression): return try expression.sql(context) + " ASC NULLS LAST"
        case .descNullsFirst(let expression): return try expression.sql(context) + " DESC NULLS FIRST"
        case .literal(let sql): return try sql.sql(context)
        case let .deferred(orderings, reversed):
            return try orderings(context.db)
                .map { try (reversed ? $0.reversed : $0).sql(context) }
                .joined(separator: ", ")
        }
    }
}

extension SQLSpecificExpressible {
    /// Ascending order: `expression ASC` (NULLs first, as in SQLite).
    public var asc: SQLOrdering { SQLOrdering(impl: .asc(sqlExpression)) }

    /// Descending order: `expression DESC` (NULLs last, as in SQLite).
    public var desc: SQLOrdering { SQLOrdering(impl: .desc(sqlExpression)) }

    /// Ascending order, NULLs last: `expression ASC NULLS LAST`.
    public var ascNullsLast: SQLOrdering { SQLOrdering(impl: .ascNullsLast(sqlExpression)) }

    /// Descending order, NULLs first: `expression DESC NULLS FIRST`.
    public var descNullsFirst: SQLOrdering { SQLOrdering(impl: .descNullsFirst(sqlExpression)) }
}
