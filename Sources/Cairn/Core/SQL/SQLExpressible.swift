/// A type that can be used as an SQL expression: values (every
/// ``DatabaseValueConvertible`` type), columns, and expressions.
///
/// ```swift
/// // "score" > ?
/// let condition = Column("score") > 1000
/// ```
public protocol SQLExpressible {
    /// The SQL expression.
    var sqlExpression: SQLExpression { get }
}

extension SQLExpression: SQLExpressible {
    /// The expression itself.
    public var sqlExpression: SQLExpression { self }
}

extension DatabaseValueConvertible {
    /// The value, as an expression that renders as a statement argument.
    public var sqlExpression: SQLExpression {
        .value(databaseValue)
    }
}

extension SQL: SQLExpressible {
    /// The literal, as an expression (parenthesized when it is the operand
    /// of an operator).
    ///
    /// ```swift
    /// let condition = SQL("score > \(1000)")
    /// let players = try Player.filter(condition).fetchAll(db)
    /// ```
    public var sqlExpression: SQLExpression {
        .literal(self)
    }
}

extension Optional: SQLExpressible where Wrapped: SQLExpressible {
    /// The wrapped expression, or NULL.
    public var sqlExpression: SQLExpression {
        switch self {
        case .none: return .value(.null)
        case .some(let wrapped): return wrapped.sqlExpression
        }
    }
}

extension Optional: SQLSelectable where Wrapped: SQLSelectable {
    /// The selection of the wrapped value, or NULL.
    public var sqlSelection: SQLSelection {
        self?.sqlSelection ?? SQLSelection(impl: .expression(.value(.null)))
    }
}

extension Optional: SQLOrderingTerm where Wrapped: SQLOrderingTerm {
    /// The ordering of the wrapped value, or NULL (no order).
    public var sqlOrdering: SQLOrdering {
        self?.sqlOrdering ?? SQLOrdering(impl: .expression(.value(.null)))
    }
}

extension Optional where Wrapped == any SQLExpressible {
    /// The expression, or NULL.
    var sqlExpressionOrNull: SQLExpression {
        self?.sqlExpression ?? .value(.null)
    }
}
