// The operators of the query interface. Each has three overloads: an
// expression with a value, a value with an expression, and two expressions,
// so that plain Swift values keep their own operators.

// MARK: - Equality

/// `lhs = rhs`, or `lhs IS NULL` when `rhs` is nil.
///
/// ```swift
/// Column("name") == "Arthur"   // "name" = ?
/// Column("name") == nil        // "name" IS NULL
/// Column("isActive") == true   // "isActive" = ?, with argument 1
/// ```
public func == (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
    equality(lhs.sqlExpression, rhs.sqlExpressionOrNull, negated: false)
}

/// `lhs = rhs`, or `rhs IS NULL` when `lhs` is nil.
public func == (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    // `2 = "a"`, in the order written; `"a" IS NULL` for nil.
    equality(lhs.sqlExpressionOrNull, rhs.sqlExpression, negated: false)
}

/// `lhs = rhs`.
public func == (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    equality(lhs.sqlExpression, rhs.sqlExpression, negated: false)
}

/// `lhs <> rhs`, or `lhs IS NOT NULL` when `rhs` is nil.
public func != (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
    equality(lhs.sqlExpression, rhs.sqlExpressionOrNull, negated: true)
}

/// `lhs <> rhs`, or `rhs IS NOT NULL` when `lhs` is nil.
public func != (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    equality(lhs.sqlExpressionOrNull, rhs.sqlExpression, negated: true)
}

/// `lhs <> rhs`.
public func != (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    equality(lhs.sqlExpression, rhs.sqlExpression, negated: true)
}

/// `lhs IS rhs`: true when both are NULL, or equal.
public func === (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
    SQLExpression(impl: .binary("IS", lhs.sqlExpression, rhs.sqlExpressionOrNull))
}

/// `lhs IS rhs`: true when both are NULL, or equal.
public func === (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("IS", lhs.sqlExpressionOrNull, rhs.sqlExpression))
}

/// `lhs IS rhs`: true when both are NULL, or equal.
public func === (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("IS", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs IS NOT rhs`.
public func !== (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
    SQLExpression(impl: .binary("IS NOT", lhs.sqlExpression, rhs.sqlExpressionOrNull))
}

/// `lhs IS NOT rhs`.
public func !== (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("IS NOT", lhs.sqlExpressionOrNull, rhs.sqlExpression))
}

/// `lhs IS NOT rhs`.
public func !== (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("IS NOT", lhs.sqlExpression, rhs.sqlExpression))
}

private func equality(_ lhs: SQLExpression, _ rhs: SQLExpression, negated: Bool) -> SQLExpression {
    if case .value(let dbValue) = rhs.impl, dbValue.isNull {
        return SQLExpression(impl: .binary(negated ? "IS NOT" : "IS", lhs, rhs))
    }
    if case .value(let dbValue) = lhs.impl, dbValue.isNull {
        return SQLExpression(impl: .binary(negated ? "IS NOT" : "IS", rhs, lhs))
    }
    return SQLExpression(impl: .binary(negated ? "<>" : "=", lhs, rhs))
}

// MARK: - Comparison

/// `lhs < rhs`.
public func < (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("<", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs < rhs`.
public func < (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("<", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs < rhs`.
public func < (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("<", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs <= rhs`.
public func <= (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("<=", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs <= rhs`.
public func <= (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("<=", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs <= rhs`.
public func <= (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("<=", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs > rhs`.
public func > (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(impl: .binary(">", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs > rhs`.
public func > (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary(">", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs > rhs`.
public func > (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary(">", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs >= rhs`.
public func >= (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(impl: .binary(">=", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs >= rhs`.
public func >= (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary(">=", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs >= rhs`.
public func >= (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary(">=", lhs.sqlExpression, rhs.sqlExpression))
}

// MARK: - Logical operators

/// `lhs AND rhs`.
///
/// ```swift
/// Column("score") > 1000 && Column("name") != nil
/// // "score" > ? AND "name" IS NOT NULL
/// ```
public func && (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .associative(.and, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs AND rhs`.
public func && (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.and, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs AND rhs`.
public func && (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.and, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs OR rhs`.
public func || (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .associative(.or, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs OR rhs`.
public func || (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.or, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs OR rhs`.
public func || (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.or, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `NOT operand`.
///
/// ```swift
/// !Column("isActive")   // NOT "isActive"
/// ```
public prefix func ! (operand: some SQLSpecificExpressible) -> SQLExpression {
    let expression = operand.sqlExpression
    switch expression.impl {
    case let .binary("IS", lhs, rhs):
        return SQLExpression(impl: .binary("IS NOT", lhs, rhs))
    case let .binary("IS NOT", lhs, rhs):
        return SQLExpression(impl: .binary("IS", lhs, rhs))
    case let .isIn(lhs, values, negated):
        return SQLExpression(impl: .isIn(lhs, values, negated: !negated))
    case let .between(value, lower, upper, negated):
        return SQLExpression(impl: .between(value, lower, upper, negated: !negated))
    case let .unary("NOT", inner, _):
        return inner
    default:
        return SQLExpression(impl: .unary("NOT", expression, needsSpace: true))
    }
}

// MARK: - Arithmetic

/// `lhs + rhs`.
public func + (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .associative(.add, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs + rhs`.
public func + (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.add, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs + rhs`.
public func + (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.add, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs - rhs`.
public func - (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("-", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs - rhs`.
public func - (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("-", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs - rhs`.
public func - (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("-", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs * rhs`.
public func * (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .associative(.multiply, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs * rhs`.
public func * (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.multiply, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs * rhs`.
public func * (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.multiply, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs / rhs`.
public func / (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("/", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs / rhs`.
public func / (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("/", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs / rhs`.
public func / (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .binary("/", lhs.sqlExpression, rhs.sqlExpression))
}

/// `-operand`.
public prefix func - (operand: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .unary("-", operand.sqlExpression, needsSpace: false))
}

/// `IFNULL(lhs, rhs)`: `lhs`, or `rhs` when `lhs` is NULL.
///
/// ```swift
/// Column("nickname") ?? Column("name")   // IFNULL("nickname", "name")
/// ```
public func ?? (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .function("IFNULL", [lhs.sqlExpression, rhs.sqlExpression])
}

// MARK: - Joined expressions

extension Sequence where Element: SQLExpressible {
    /// Combines the expressions with an operator.
    ///
    /// ```swift
    /// let conditions = [Column("a") == 1, Column("b") == 2]
    /// conditions.joined(operator: .and)  // "a" = ? AND "b" = ?
    /// ```
    ///
    /// When the sequence is empty, `.and` gives true, `.or` gives false,
    /// `.add` gives 0, `.multiply` gives 1, and `.concat` gives the empty
    /// string.
    public func joined(operator: SQLExpression.AssociativeOperator) -> SQLExpression {
        .associative(`operator`, map(\.sqlExpression))
    }
}

extension Sequence where Element == any SQLExpressible {
    /// Combines the expressions with an operator: see
    /// ``Swift/Sequence/joined(operator:)-(SQLExpression.AssociativeOperator)``.
    public func joined(operator: SQLExpression.AssociativeOperator) -> SQLExpression {
        .associative(`operator`, map(\.sqlExpression))
    }
}

// MARK: - Membership

extension Sequence where Element: SQLExpressible {
    /// Whether the expression is one of the values: `expression IN (...)`.
    ///
    /// ```swift
    /// [1, 2, 3].contains(Column("id"))   // "id" IN (?, ?, ?)
    /// ```
    ///
    /// An empty sequence contains nothing: the condition is false.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .isIn(element.sqlExpression, map(\.sqlExpression), negated: false))
    }
}

extension Sequence where Element == any SQLExpressible {
    /// Whether the expression is one of the values: `expression IN (...)`.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .isIn(element.sqlExpression, map(\.sqlExpression), negated: false))
    }
}

extension ClosedRange where Bound: SQLExpressible {
    /// Whether the expression is in the range: `expression BETWEEN lower AND upper`.
    ///
    /// ```swift
    /// (1...10).contains(Column("level"))   // "level" BETWEEN ? AND ?
    /// ```
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .between(
            element.sqlExpression, lowerBound.sqlExpression, upperBound.sqlExpression, negated: false))
    }
}

extension Range where Bound: SQLExpressible {
    /// Whether the expression is in the range: `expression >= lower AND expression < upper`.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        .associative(.and, [
            SQLExpression(impl: .binary(">=", element.sqlExpression, lowerBound.sqlExpression)),
            SQLExpression(impl: .binary("<", element.sqlExpression, upperBound.sqlExpression)),
        ])
    }
}

extension PartialRangeFrom where Bound: SQLExpressible {
    /// Whether the expression is in the range: `expression >= lower`.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .binary(">=", element.sqlExpression, lowerBound.sqlExpression))
    }
}

extension PartialRangeThrough where Bound: SQLExpressible {
    /// Whether the expression is in the range: `expression <= upper`.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("<=", element.sqlExpression, upperBound.sqlExpression))
    }
}

extension PartialRangeUpTo where Bound: SQLExpressible {
    /// Whether the expression is in the range: `expression < upper`.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("<", element.sqlExpression, upperBound.sqlExpression))
    }
}

extension SQLSpecificExpressible {
    /// `expression BETWEEN lower AND upper`.
    public func between(_ lower: some SQLExpressible, and upper: some SQLExpressible) -> SQLExpression {
        SQLExpression(impl: .between(sqlExpression, lower.sqlExpression, upper.sqlExpression, negated: false))
    }

    /// `expression LIKE pattern`, with an optional escape character.
    ///
    /// SQLite's LIKE is case-insensitive for ASCII letters only.
    ///
    /// ```swift
    /// Column("email").like("%@example.com")   // "email" LIKE ?
    /// ```
    public func like(_ pattern: some SQLExpressible, escape: (any SQLExpressible)? = nil) -> SQLExpression {
        guard let escape else {
            return SQLExpression(impl: .binary("LIKE", sqlExpression, pattern.sqlExpression))
        }
        // ESCAPE belongs to LIKE: `x LIKE p ESCAPE e` is one operation.
        return .literal(SQL(elements: [
            .expression(SQLExpression(impl: .parenthesized(sqlExpression))),
            .sql(" LIKE ", StatementArguments()),
            .expression(pattern.sqlExpression),
            .sql(" ESCAPE ", StatementArguments()),
            .expression(escape.sqlExpression),
        ]))
    }

    /// `expression GLOB pattern`: case-sensitive matching with `*` and `?`.
    public func glob(_ pattern: some SQLExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("GLOB", sqlExpression, pattern.sqlExpression))
    }

    /// `expression MATCH pattern`: full-text matching of an FTS table or
    /// column.
    public func match(_ pattern: (any SQLExpressible)?) -> SQLExpression {
        SQLExpression(impl: .binary("MATCH", sqlExpression, pattern.sqlExpressionOrNull))
    }

    /// `expression COLLATE name`, with one of SQLite's collations.
    ///
    /// ```swift
    /// Column("name").collating(.nocase) == "arthur"   // "name" COLLATE NOCASE = ?
    /// ```
    public func collating(_ collation: Database.CollationName) -> SQLExpression {
        SQLExpression(impl: .collated(sqlExpression, collation.rawValue))
    }

    /// `expression COLLATE name`, with a custom collation.
    ///
    /// ```swift
    /// Column("name").collating(.localizedCaseInsensitiveCompare)
    /// ```
    public func collating(_ collation: DatabaseCollation) -> SQLExpression {
        SQLExpression(impl: .collated(sqlExpression, collation.name))
    }
}

extension Database {
    /// The built-in collations of SQLite.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/datatype3.html#collating_sequences>
    public struct CollationName: RawRepresentable, Hashable, Sendable {
        /// The collation name.
        public let rawValue: String

        /// Creates a collation name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Byte-wise comparison (the default).
        public static let binary = CollationName(rawValue: "BINARY")

        /// Comparison that ignores the case of ASCII letters.
        public static let nocase = CollationName(rawValue: "NOCASE")

        /// Comparison that ignores trailing spaces.
        public static let rtrim = CollationName(rawValue: "RTRIM")
    }
}
