// Compound assignments of columns, for batch updates and upserts, and the
// bitwise operators of SQL.

/// Adds to a column: `"column" = "column" + value`.
public func += (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment {
    compoundAssignment(column, "+", value)
}

/// Subtracts from a column: `"column" = "column" - value`.
public func -= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment {
    compoundAssignment(column, "-", value)
}

/// Multiplies a column: `"column" = "column" * value`.
public func *= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment {
    compoundAssignment(column, "*", value)
}

/// Divides a column: `"column" = "column" / value`.
public func /= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment {
    compoundAssignment(column, "/", value)
}

/// Bitwise AND of a column: `"column" = "column" & value`.
public func &= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment {
    compoundAssignment(column, "&", value)
}

/// Bitwise OR of a column: `"column" = "column" | value`.
public func |= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment {
    compoundAssignment(column, "|", value)
}

/// Left shift of a column: `"column" = "column" << value`.
public func <<= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment {
    compoundAssignment(column, "<<", value)
}

/// Right shift of a column: `"column" = "column" >> value`.
public func >>= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment {
    compoundAssignment(column, ">>", value)
}

// MARK: - Bitwise operators

/// `lhs & rhs`: bitwise AND.
public func & (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("&", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs & rhs`: bitwise AND.
public func & (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("&", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs & rhs`: bitwise AND.
public func & (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("&", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs | rhs`: bitwise OR.
public func | (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("|", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs | rhs`: bitwise OR.
public func | (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("|", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs | rhs`: bitwise OR.
public func | (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("|", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs << rhs`: left shift.
public func << (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("<<", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs << rhs`: left shift.
public func << (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("<<", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs << rhs`: left shift.
public func << (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("<<", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs >> rhs`: right shift.
public func >> (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(impl: .binary(">>", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs >> rhs`: right shift.
public func >> (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary(">>", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs >> rhs`: right shift.
public func >> (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary(">>", lhs.sqlExpression, rhs.sqlExpression))
}

/// `~operand`: bitwise NOT.
public prefix func ~ (operand: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .unary("~", operand.sqlExpression, needsSpace: false))
}

/// `"column" = "column" op value`, with an operation as value in
/// parentheses: `"score" = "score" * ("bonus" * 2)`.
private func compoundAssignment(
    _ column: some ColumnExpression,
    _ op: String,
    _ value: some SQLExpressible) -> ColumnAssignment
{
    var operand = value.sqlExpression
    switch operand.impl {
    case .unary, .binary, .associative, .isIn, .between, .collated:
        operand = SQLExpression(impl: .parenthesized(operand))
    default:
        break
    }
    return column.set(to: SQLExpression(impl: .binary(op, column.sqlExpression, operand)))
}
