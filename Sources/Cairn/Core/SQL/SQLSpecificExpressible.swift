/// A type that is an SQL expression and not a plain value: columns,
/// ``SQLExpression``, and ``SQL`` literals.
///
/// The operators of the query interface (`==`, `&&`, `+`…) apply to these
/// types, so that `Column("score") > 1000` builds an expression while
/// `1 > 1000` stays a Swift comparison.
public protocol SQLSpecificExpressible: SQLExpressible, SQLSelectable, SQLOrderingTerm { }

extension SQLSpecificExpressible {
    /// The expression, selected.
    public var sqlSelection: SQLSelection {
        SQLSelection(impl: .expression(sqlExpression))
    }

    /// The expression, sorted in ascending order.
    public var sqlOrdering: SQLOrdering {
        SQLOrdering(impl: .expression(sqlExpression))
    }
}

extension SQLExpression: SQLSpecificExpressible { }

extension SQLSpecificExpressible {
    /// The expression, selected under a name: `expression AS "name"`.
    ///
    /// ```swift
    /// // SELECT MAX("score") AS "maxScore" FROM "player"
    /// let request = Player.select(max(Column("score")).forKey("maxScore"))
    /// ```
    public func forKey(_ key: String) -> SQLSelection {
        SQLSelection(impl: .aliased(sqlExpression, key))
    }

    /// The expression, selected under the name of a coding key.
    public func forKey(_ key: some CodingKey) -> SQLSelection {
        forKey(key.stringValue)
    }
}

extension SQL: SQLSpecificExpressible {
    /// The literal, selected as is.
    public var sqlSelection: SQLSelection {
        SQLSelection(impl: .literal(self))
    }

    /// The literal, as an ordering term, as is.
    public var sqlOrdering: SQLOrdering {
        SQLOrdering(impl: .literal(self))
    }
}
