// The operators of the query interface, declared on SQLSpecificExpressible
// (as the GRDB guides declare them): `Column("score") > 1000` builds an
// expression, while `1 > 1000` keeps the operator of Swift. Each binary
// operator has three overloads: an expression with a value, a value with
// an expression, and two expressions (the most specific, so that two
// expressions of different types are not ambiguous).

// MARK: - Equality

extension SQLSpecificExpressible {
    /// `lhs = rhs`, or `lhs IS NULL` when `rhs` is nil.
    ///
    /// ```swift
    /// Column("name") == "Arthur"   // "name" = ?
    /// Column("name") == nil        // "name" IS NULL
    /// ```
    public static func == (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        equality(lhs.sqlExpression, rhs.sqlExpressionOrNull, negated: false)
    }

    /// `lhs = rhs`, with a boolean: `Column("isActive") == true` is
    /// `"isActive" = 1`.
    public static func == (lhs: Self, rhs: Bool) -> SQLExpression {
        equality(lhs.sqlExpression, rhs.sqlExpression, negated: false)
    }

    /// `lhs = rhs`, or `rhs IS NULL` when `lhs` is nil.
    public static func == (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        // `2 = "a"`, in the order written; `"a" IS NULL` for nil.
        equality(lhs.sqlExpressionOrNull, rhs.sqlExpression, negated: false)
    }

    /// `rhs = lhs`, with a boolean: `true == Column("isActive")` is
    /// `"isActive" = 1`, the same test as `Column("isActive") == true`.
    public static func == (lhs: Bool, rhs: Self) -> SQLExpression {
        equality(rhs.sqlExpression, lhs.sqlExpression, negated: false)
    }

    /// `lhs = rhs`.
    ///
    /// ```swift
    /// Column("authorId") == Column("id")   // "authorId" = "id"
    /// ```
    public static func == (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        equality(lhs.sqlExpression, rhs.sqlExpression, negated: false)
    }

    /// `lhs <> rhs`, or `lhs IS NOT NULL` when `rhs` is nil.
    ///
    /// ```swift
    /// Column("name") != "Arthur"   // "name" <> ?
    /// Column("name") != nil        // "name" IS NOT NULL
    /// ```
    public static func != (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        equality(lhs.sqlExpression, rhs.sqlExpressionOrNull, negated: true)
    }

    /// `lhs <> rhs`, with a boolean: `Column("isActive") != true` is
    /// `"isActive" <> 1`.
    public static func != (lhs: Self, rhs: Bool) -> SQLExpression {
        equality(lhs.sqlExpression, rhs.sqlExpression, negated: true)
    }

    /// `lhs <> rhs`, or `rhs IS NOT NULL` when `lhs` is nil.
    public static func != (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        equality(lhs.sqlExpressionOrNull, rhs.sqlExpression, negated: true)
    }

    /// `rhs <> lhs`, with a boolean: `true != Column("isActive")` is
    /// `"isActive" <> 1`.
    public static func != (lhs: Bool, rhs: Self) -> SQLExpression {
        equality(rhs.sqlExpression, lhs.sqlExpression, negated: true)
    }

    /// `lhs <> rhs`.
    public static func != (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        equality(lhs.sqlExpression, rhs.sqlExpression, negated: true)
    }

    /// `lhs IS rhs`: true when both are NULL, or equal.
    ///
    /// ```swift
    /// Column("email") === nil          // "email" IS NULL
    /// Column("email") === "a@b.c"      // "email" IS ?
    /// ```
    public static func === (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        SQLExpression(impl: .binary("IS", lhs.sqlExpression, rhs.sqlExpressionOrNull))
    }

    /// `lhs IS rhs`: true when both are NULL, or equal. A nil `lhs` gives
    /// `rhs IS NULL`.
    public static func === (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        guard let lhs else { return SQLExpression(impl: .binary("IS", rhs.sqlExpression, .value(.null))) }
        return SQLExpression(impl: .binary("IS", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// `lhs IS rhs`: true when both are NULL, or equal.
    public static func === (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("IS", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// `lhs IS NOT rhs`: false when both are NULL, or equal.
    public static func !== (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        SQLExpression(impl: .binary("IS NOT", lhs.sqlExpression, rhs.sqlExpressionOrNull))
    }

    /// `lhs IS NOT rhs`: false when both are NULL, or equal. A nil `lhs`
    /// gives `rhs IS NOT NULL`.
    public static func !== (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        guard let lhs else { return SQLExpression(impl: .binary("IS NOT", rhs.sqlExpression, .value(.null))) }
        return SQLExpression(impl: .binary("IS NOT", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// `lhs IS NOT rhs`: false when both are NULL, or equal.
    public static func !== (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("IS NOT", lhs.sqlExpression, rhs.sqlExpression))
    }
}

/// `lhs = rhs`, or `IS NULL` when one side is the NULL value.
private func equality(_ lhs: SQLExpression, _ rhs: SQLExpression, negated: Bool) -> SQLExpression {
    if case .value(let dbValue) = rhs.impl, dbValue.isNull {
        return SQLExpression(impl: .binary(negated ? "IS NOT" : "IS", lhs, rhs))
    }
    if case .value(let dbValue) = lhs.impl, dbValue.isNull {
        return SQLExpression(impl: .binary(negated ? "IS NOT" : "IS", rhs, lhs))
    }
    return SQLExpression(impl: .binary(negated ? "<>" : "=", lhs, rhs))
}

/// `lhs op rhs`.
private func binary(_ op: String, _ lhs: some SQLExpressible, _ rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(impl: .binary(op, lhs.sqlExpression, rhs.sqlExpression))
}

// MARK: - Comparison

extension SQLSpecificExpressible {
    /// `lhs < rhs`.
    ///
    /// ```swift
    /// Column("score") < 1000   // "score" < ?
    /// ```
    public static func < (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { binary("<", lhs, rhs) }

    /// `lhs < rhs`.
    public static func < (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { binary("<", lhs, rhs) }

    /// `lhs < rhs`.
    public static func < (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("<", lhs, rhs) }

    /// `lhs <= rhs`.
    public static func <= (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { binary("<=", lhs, rhs) }

    /// `lhs <= rhs`.
    public static func <= (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { binary("<=", lhs, rhs) }

    /// `lhs <= rhs`.
    public static func <= (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("<=", lhs, rhs) }

    /// `lhs > rhs`.
    public static func > (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { binary(">", lhs, rhs) }

    /// `lhs > rhs`.
    public static func > (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { binary(">", lhs, rhs) }

    /// `lhs > rhs`.
    public static func > (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { binary(">", lhs, rhs) }

    /// `lhs >= rhs`.
    public static func >= (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { binary(">=", lhs, rhs) }

    /// `lhs >= rhs`.
    public static func >= (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { binary(">=", lhs, rhs) }

    /// `lhs >= rhs`.
    public static func >= (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { binary(">=", lhs, rhs) }
}

// MARK: - Logical operators

extension SQLSpecificExpressible {
    /// `lhs AND rhs`.
    ///
    /// ```swift
    /// Column("score") > 1000 && Column("name") != nil
    /// // "score" > ? AND "name" IS NOT NULL
    /// ```
    public static func && (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .associative(.and, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs AND rhs`.
    public static func && (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .associative(.and, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs AND rhs`.
    public static func && (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .associative(.and, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs OR rhs`.
    public static func || (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .associative(.or, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs OR rhs`.
    public static func || (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .associative(.or, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs OR rhs`.
    public static func || (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .associative(.or, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `NOT value`, written as GRDB writes it: the negation of a
    /// comparison, `LIKE`, `IN`, `BETWEEN` or `EXISTS` is its opposite
    /// operator, the negation of the constants 0 and 1 is the other one, and
    /// a collated comparison keeps its collation.
    ///
    /// ```swift
    /// !Column("isActive")               // NOT "isActive"
    /// !(Column("name") == nil)          // "name" IS NOT NULL
    /// !(Column("score") == 0)           // "score" <> 0
    /// !Column("name").like("A%")        // "name" NOT LIKE 'A%'
    /// !(!Column("isActive"))            // NOT (NOT "isActive"): 0 or 1
    /// ```
    public static prefix func ! (value: Self) -> SQLExpression {
        SQLExpression.logicalNegation(of: value.sqlExpression)
    }
}

extension SQLExpression {
    /// The comparison operators and their negations.
    private static let negatedOperators = [
        "=": "<>", "<>": "=", "IS": "IS NOT", "IS NOT": "IS",
        "LIKE": "NOT LIKE", "NOT LIKE": "LIKE", "EXISTS": "NOT EXISTS", "NOT EXISTS": "EXISTS",
    ]

    /// The negation of `expression` (see `!`).
    static func logicalNegation(of expression: SQLExpression) -> SQLExpression {
        switch expression.impl {
        case let .binary(op, lhs, rhs):
            if let negated = negatedOperators[op] {
                return SQLExpression(impl: .binary(negated, lhs, rhs))
            }
        case let .unary(op, operand, needsSpace) where op != "NOT":
            // `EXISTS (…)`. A double negation stays (`NOT (NOT x)` is a way
            // to get 0 or 1), as in GRDB.
            if let negated = negatedOperators[op] {
                return SQLExpression(impl: .unary(negated, operand, needsSpace: needsSpace))
            }
        case let .isIn(lhs, values, negated):
            return SQLExpression(impl: .isIn(lhs, values, negated: !negated))
        case let .between(value, lower, upper, negated):
            return SQLExpression(impl: .between(value, lower, upper, negated: !negated))
        case let .collated(inner, collation):
            // A collated comparison keeps its collation; `NOT` wraps other
            // collated expressions: `NOT ("name" COLLATE NOCASE)`.
            if case let .binary(op, lhs, rhs) = inner.impl, let negated = negatedOperators[op] {
                return SQLExpression(impl: .collated(SQLExpression(impl: .binary(negated, lhs, rhs)), collation))
            }
        case let .value(dbValue):
            if dbValue.isNull { return expression }
            if case .int64(let number) = dbValue.storage, number == 0 || number == 1 {
                return (number == 0).sqlExpression
            }
        default:
            break
        }
        return SQLExpression(impl: .unary("NOT", expression, needsSpace: true))
    }
}

// MARK: - Arithmetic

extension SQLSpecificExpressible {
    /// `lhs + rhs`.
    ///
    /// ```swift
    /// Column("score") + Column("bonus")   // "score" + "bonus"
    /// ```
    public static func + (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .associative(.add, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs + rhs`.
    public static func + (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .associative(.add, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs + rhs`.
    public static func + (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .associative(.add, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs - rhs`.
    public static func - (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { binary("-", lhs, rhs) }

    /// `lhs - rhs`.
    public static func - (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { binary("-", lhs, rhs) }

    /// `lhs - rhs`.
    public static func - (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("-", lhs, rhs) }

    /// `lhs * rhs`.
    public static func * (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .associative(.multiply, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs * rhs`.
    public static func * (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .associative(.multiply, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs * rhs`.
    public static func * (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .associative(.multiply, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs / rhs`.
    public static func / (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { binary("/", lhs, rhs) }

    /// `lhs / rhs`.
    public static func / (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { binary("/", lhs, rhs) }

    /// `lhs / rhs`.
    public static func / (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("/", lhs, rhs) }

    /// `-value`.
    public static prefix func - (value: Self) -> SQLExpression {
        SQLExpression(impl: .unary("-", value.sqlExpression, needsSpace: false))
    }

    /// `IFNULL(lhs, rhs)`: `lhs`, or `rhs` when `lhs` is NULL.
    ///
    /// ```swift
    /// Column("nickname") ?? Column("name")   // IFNULL("nickname", "name")
    /// ```
    public static func ?? (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .function("IFNULL", [lhs.sqlExpression, rhs.sqlExpression])
    }
}

// MARK: - Bitwise operators

extension SQLSpecificExpressible {
    /// `lhs & rhs`: bitwise AND.
    ///
    /// ```swift
    /// Column("flags") & 4   // "flags" & ?
    /// ```
    public static func & (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .associative(.bitwiseAnd, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs & rhs`: bitwise AND.
    public static func & (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .associative(.bitwiseAnd, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs & rhs`: bitwise AND.
    public static func & (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .associative(.bitwiseAnd, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs | rhs`: bitwise OR.
    public static func | (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .associative(.bitwiseOr, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs | rhs`: bitwise OR.
    public static func | (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .associative(.bitwiseOr, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs | rhs`: bitwise OR.
    public static func | (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .associative(.bitwiseOr, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs << rhs`: left shift.
    public static func << (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { binary("<<", lhs, rhs) }

    /// `lhs << rhs`: left shift.
    public static func << (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { binary("<<", lhs, rhs) }

    /// `lhs << rhs`: left shift.
    public static func << (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("<<", lhs, rhs) }

    /// `lhs >> rhs`: right shift.
    public static func >> (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { binary(">>", lhs, rhs) }

    /// `lhs >> rhs`: right shift.
    public static func >> (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { binary(">>", lhs, rhs) }

    /// `lhs >> rhs`: right shift.
    public static func >> (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { binary(">>", lhs, rhs) }

    /// `~value`: bitwise NOT.
    public static prefix func ~ (value: Self) -> SQLExpression {
        SQLExpression(impl: .unary("~", value.sqlExpression, needsSpace: false))
    }
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
    /// `.add` gives 0, `.multiply` gives 1, `.concat` gives the empty
    /// string, `.bitwiseAnd` gives -1 and `.bitwiseOr` gives 0.
    public func joined(operator: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
        .associative(`operator`, map(\.sqlExpression))
    }
}

extension Sequence where Element == any SQLExpressible {
    /// Combines the expressions with an operator: see
    /// ``Swift/Sequence/joined(operator:)-(SQLExpression.AssociativeBinaryOperator)``.
    public func joined(operator: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
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
    /// An empty sequence contains nothing: the condition is false. A
    /// single value is compared with `=`, as GRDB writes it:
    /// `[1].contains(Column("id"))` is `"id" = ?` (never `IS NULL`, so
    /// that it means what `IN` means, even for NULL).
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression.membership(element.sqlExpression, map(\.sqlExpression))
    }
}

extension Sequence where Element == any SQLExpressible {
    /// Whether the expression is one of the values: `expression IN (...)`,
    /// or `expression = value` for a single value.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression.membership(element.sqlExpression, map(\.sqlExpression))
    }
}

extension SQLExpression {
    /// `element IN (values)`; `element = value` for a single value.
    fileprivate static func membership(_ element: SQLExpression, _ values: [SQLExpression]) -> SQLExpression {
        if values.count == 1 {
            return SQLExpression(impl: .binary("=", element, values[0]))
        }
        return SQLExpression(impl: .isIn(element, values, negated: false))
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
        // Its subject is parenthesized when it is an operation, as GRDB
        // writes it: `"name" LIKE ? ESCAPE ?`, `("a" || "b") LIKE ...`.
        let subject = sqlExpression
        return .literal(SQL(elements: [
            .expression(subject.precedence >= 100 ? subject : SQLExpression(impl: .parenthesized(subject))),
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
    /// Column("name").collating(.nocase) == "arthur"   // "name" = ? COLLATE NOCASE
    /// ["a", "b"].contains(Column("name").collating(.nocase))   // ("name" COLLATE NOCASE) IN (?, ?)
    /// ```
    ///
    /// A collated condition applies its collation to what it compares:
    /// `["a", "b"].contains(Column("name")).collating(.nocase)` is
    /// `("name" COLLATE NOCASE) IN (?, ?)` too.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/datatype3.html#collation>
    public func collating(_ collation: Database.CollationName) -> SQLExpression {
        .collated(sqlExpression, collation.rawValue)
    }

    /// `expression COLLATE name`, with a custom collation.
    ///
    /// ```swift
    /// Column("name").collating(.localizedCaseInsensitiveCompare)
    /// ```
    public func collating(_ collation: DatabaseCollation) -> SQLExpression {
        .collated(sqlExpression, collation.name)
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
