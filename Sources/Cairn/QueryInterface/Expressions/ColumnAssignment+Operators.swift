// Compound assignments of columns, for batch updates and upserts.

extension ColumnExpression {
    /// Adds to a column: `"column" = "column" + value`.
    public static func += (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        compoundAssignment(column, "+", value)
    }

    /// Subtracts from a column: `"column" = "column" - value`.
    public static func -= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        compoundAssignment(column, "-", value)
    }

    /// Multiplies a column: `"column" = "column" * value`.
    public static func *= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        compoundAssignment(column, "*", value)
    }

    /// Divides a column: `"column" = "column" / value`.
    public static func /= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        compoundAssignment(column, "/", value)
    }

    /// Bitwise AND of a column: `"column" = "column" & value`.
    public static func &= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        compoundAssignment(column, "&", value)
    }

    /// Bitwise OR of a column: `"column" = "column" | value`.
    public static func |= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        compoundAssignment(column, "|", value)
    }

    /// Left shift of a column: `"column" = "column" << value`.
    public static func <<= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        compoundAssignment(column, "<<", value)
    }

    /// Right shift of a column: `"column" = "column" >> value`.
    public static func >>= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        compoundAssignment(column, ">>", value)
    }
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
