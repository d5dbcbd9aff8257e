/// An SQL expression: a column, a value, an operation, a function call…
///
/// You build expressions from columns, values and operators, and requests
/// render them as SQL, with values always bound as statement arguments:
///
/// ```swift
/// let condition = Column("score") > 1000 && Column("name") != nil
/// // "score" > ? AND "name" IS NOT NULL
/// let players = try Player.filter(condition).fetchAll(db)
/// ```
public struct SQLExpression: Sendable {
    /// The kinds of expressions.
    indirect enum Impl: Sendable {
        /// A column, optionally qualified by a table name.
        case column(String, qualifier: String?)
        /// The hidden rowid column.
        case rowID(qualifier: String?)
        /// A value, rendered as a statement argument (NULL is rendered as
        /// the NULL keyword).
        case value(DatabaseValue)
        /// Raw SQL, with its arguments.
        case literal(SQL)
        /// A prefix operator: `NOT x`, `-x`.
        case unary(String, SQLExpression, needsSpace: Bool)
        /// An infix operator: `x = y`, `x LIKE y`.
        case binary(String, SQLExpression, SQLExpression)
        /// An associative operator applied to several operands: `a AND b AND c`.
        case associative(AssociativeBinaryOperator, [SQLExpression])
        /// `x IN (a, b, c)`, or `x NOT IN (...)`.
        case isIn(SQLExpression, [SQLExpression], negated: Bool)
        /// `x BETWEEN a AND b`, or `x NOT BETWEEN a AND b`.
        case between(SQLExpression, SQLExpression, SQLExpression, negated: Bool)
        /// A function call: `f(a, b)`, `COUNT(DISTINCT a)`. `isAggregate`
        /// tells an aggregate function (`MAX(a)`) from a scalar one
        /// (`MAX(a, b)`).
        case function(String, [SQLExpression], isDistinct: Bool, isAggregate: Bool)
        /// `COUNT(*)`.
        case countAll
        /// `x COLLATE name`.
        case collated(SQLExpression, String)
        /// `CAST(x AS type)`.
        case cast(SQLExpression, String)
        /// A parenthesized expression that is never unwrapped.
        case parenthesized(SQLExpression)
        /// An expression whose unqualified columns belong to a table that
        /// the request joins, identified by its path of association keys
        /// (see `SQLGenerationContext.joinedTableNames`): association
        /// aggregates such as `COUNT(DISTINCT "book"."id")`.
        case qualifiedByJoin(String, SQLExpression)
        /// An expression whose unqualified columns are qualified by the
        /// name that the closure returns when the expression renders (nil
        /// leaves them unqualified): expressions of a table alias,
        /// `alias[expression]`.
        case qualified(@Sendable (SQLGenerationContext) throws -> String?, SQLExpression)
        /// An aggregate function call with a filter clause:
        /// `f(a) FILTER (WHERE condition)`.
        case filtered(SQLExpression, filter: SQLExpression)
    }

    /// How the SQLite functions that build JSON (`JSON_ARRAY`,
    /// `JSON_OBJECT`…) take an expression given as a value.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html>
    enum JSONInterpretation: Sendable {
        /// A plain SQL value: a string is stored as a JSON string.
        case sqlValue
        /// JSON text (or JSONB) that the functions must parse as JSON: a
        /// JSON column, or an expression marked with `asJSON`.
        case jsonValue
        /// The result of an SQLite JSON function, which the other JSON
        /// functions already take as JSON.
        case jsonResult
    }

    let impl: Impl

    /// How JSON-building functions take the expression.
    let jsonInterpretation: JSONInterpretation

    init(impl: Impl, jsonInterpretation: JSONInterpretation = .sqlValue) {
        self.impl = impl
        self.jsonInterpretation = jsonInterpretation
    }

    // MARK: Factories

    static func column(_ name: String, qualifier: String? = nil) -> SQLExpression {
        SQLExpression(impl: .column(name, qualifier: qualifier))
    }

    static func value(_ dbValue: DatabaseValue) -> SQLExpression {
        SQLExpression(impl: .value(dbValue))
    }

    static func literal(_ sql: SQL) -> SQLExpression {
        SQLExpression(impl: .literal(sql))
    }

    static func function(_ name: String, _ arguments: [SQLExpression], isDistinct: Bool = false) -> SQLExpression {
        SQLExpression(impl: .function(name, arguments, isDistinct: isDistinct, isAggregate: false))
    }

    /// A call of an aggregate function: `MAX(a)`, `COUNT(DISTINCT a)`.
    static func aggregate(_ name: String, _ arguments: [SQLExpression], isDistinct: Bool = false) -> SQLExpression {
        SQLExpression(impl: .function(name, arguments, isDistinct: isDistinct, isAggregate: true))
    }

    /// The expression that is true (`1`).
    static let `true` = SQLExpression.literal(SQL(sql: "1"))

    /// The expression that is false (`0`).
    static let `false` = SQLExpression.literal(SQL(sql: "0"))

    /// The operators that combine any number of operands, for
    /// `joined(operator:)` on sequences of expressions.
    ///
    /// ```swift
    /// let conditions = [Column("a") == 1, Column("b") == 2]
    /// conditions.joined(operator: .and)  // "a" = ? AND "b" = ?
    /// ```
    public struct AssociativeBinaryOperator: Hashable, Sendable {
        let sql: String

        /// The value of the operator applied to no operand: a value, as
        /// GRDB gives it (`[].joined(operator: .and) || x` is `1 OR x`).
        let neutralValue: SQLExpression

        /// Whether `(a op b) op c` is `a op (b op c)` for all values, so
        /// that nested applications are flattened: `AND`, `OR`, `||` and
        /// the bitwise operators. `+` and `*` are not (floating point
        /// rounding, integer overflow), and keep their parentheses, as in
        /// GRDB: `("a" + 1) + (2 + "b")`.
        let isStrictlyAssociative: Bool

        init(_ sql: String, neutralValue: DatabaseValue, isStrictlyAssociative: Bool) {
            self.sql = sql
            self.neutralValue = .value(neutralValue)
            self.isStrictlyAssociative = isStrictlyAssociative
        }

        /// `AND`; the conjunction of no operand is true (`1`).
        public static let and = AssociativeBinaryOperator("AND", neutralValue: true.databaseValue, isStrictlyAssociative: true)

        /// `OR`; the disjunction of no operand is false (`0`).
        public static let or = AssociativeBinaryOperator("OR", neutralValue: false.databaseValue, isStrictlyAssociative: true)

        /// `+`; the sum of no operand is 0.
        public static let add = AssociativeBinaryOperator("+", neutralValue: 0.databaseValue, isStrictlyAssociative: false)

        /// `*`; the product of no operand is 1.
        public static let multiply = AssociativeBinaryOperator("*", neutralValue: 1.databaseValue, isStrictlyAssociative: false)

        /// `||`; the concatenation of no operand is the empty string.
        public static let concat = AssociativeBinaryOperator("||", neutralValue: "".databaseValue, isStrictlyAssociative: true)

        /// `&`, bitwise AND; the bitwise AND of no operand is -1 (all bits
        /// set).
        public static let bitwiseAnd = AssociativeBinaryOperator("&", neutralValue: (-1).databaseValue, isStrictlyAssociative: true)

        /// `|`, bitwise OR; the bitwise OR of no operand is 0.
        public static let bitwiseOr = AssociativeBinaryOperator("|", neutralValue: 0.databaseValue, isStrictlyAssociative: true)

        /// Compares the SQL of operators.
        public static func == (lhs: AssociativeBinaryOperator, rhs: AssociativeBinaryOperator) -> Bool {
            lhs.sql == rhs.sql
        }

        /// Hashes the SQL of the operator.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(sql)
        }
    }

    /// The former name of ``AssociativeBinaryOperator``.
    public typealias AssociativeOperator = AssociativeBinaryOperator

    /// Applies an associative operator, flattening nested applications of
    /// the same strictly associative operator: `(a AND b) AND c` is
    /// `a AND b AND c`, while `(a + b) + c` keeps its parentheses.
    static func associative(_ op: AssociativeBinaryOperator, _ operands: [SQLExpression]) -> SQLExpression {
        var flattened: [SQLExpression] = []
        for operand in operands {
            if op.isStrictlyAssociative, case let .associative(innerOp, innerOperands) = operand.impl, innerOp == op {
                flattened.append(contentsOf: innerOperands)
            } else {
                flattened.append(operand)
            }
        }
        switch flattened.count {
        case 0: return op.neutralValue
        case 1: return flattened[0]
        default: return SQLExpression(impl: .associative(op, flattened))
        }
    }

    /// The comparison operators whose collated operand is written at the
    /// end of the comparison, as GRDB writes it: `"name" = ? COLLATE NOCASE`
    /// rather than `("name" COLLATE NOCASE) = ?`. SQLite uses the explicit
    /// collation of either operand of a comparison: both mean the same.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/datatype3.html#assigning_collating_sequences_from_sql>
    static let collatedComparisonOperators: Set<String> = ["=", "<>", "IS", "IS NOT", "<", "<=", ">", ">="]

    /// `expression COLLATE collation`, with the collation moved where SQLite
    /// applies it to what the expression compares:
    ///
    /// - `x IN (...)`: on `x` (SQLite takes the collation of an IN
    ///   operator from its left operand only): `(x COLLATE c) IN (...)`;
    /// - `x BETWEEN a AND b`: on `x`, so that both bounds compare with it;
    /// - a comparison: on its left operand (written `x = y COLLATE c`);
    /// - `AND` and `OR`: on each operand.
    ///
    /// Other expressions are collated as a whole (`"name" COLLATE NOCASE`).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/datatype3.html#assigning_collating_sequences_from_sql>
    static func collated(_ expression: SQLExpression, _ collation: String) -> SQLExpression {
        switch expression.impl {
        case let .isIn(value, values, negated):
            return SQLExpression(impl: .isIn(.collated(value, collation), values, negated: negated))
        case let .between(value, lower, upper, negated):
            return SQLExpression(impl: .between(.collated(value, collation), lower, upper, negated: negated))
        case let .binary(op, lhs, rhs) where collatedComparisonOperators.contains(op):
            if case .collated = lhs.impl { break }
            if case .collated = rhs.impl { break }
            return SQLExpression(impl: .binary(op, SQLExpression(impl: .collated(lhs, collation)), rhs))
        case let .associative(op, operands) where op == .and || op == .or:
            return SQLExpression(impl: .associative(op, operands.map { .collated($0, collation) }))
        default:
            break
        }
        return SQLExpression(impl: .collated(expression, collation))
    }

    /// Whether the expression is the false literal (`0`).
    var isFalseLiteral: Bool {
        if case .literal(let sql) = impl, sql.elements.count == 1,
           case .sql("0", let arguments) = sql.elements[0], arguments.isEmpty
        {
            return true
        }
        return false
    }

    /// The column name, if the expression is a column.
    var columnName: String? {
        if case let .column(name, _) = impl { return name }
        return nil
    }

    /// Whether the expression calls an aggregate function outside of raw
    /// SQL: `MAX("score")`, `COUNT(*) + 1`, `ABS(SUM("score"))`.
    ///
    /// SQLite runs a statement that selects such an expression, without
    /// GROUP BY, as an aggregate query, which returns exactly one row.
    /// Raw SQL is not parsed: it contains no aggregate here.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_select.html#resultset>
    var containsAggregate: Bool {
        switch impl {
        case .countAll:
            return true
        case let .function(_, arguments, _, isAggregate):
            return isAggregate || arguments.contains(where: \.containsAggregate)
        case let .filtered(function, _):
            return function.containsAggregate
        case let .unary(_, operand, _),
             let .collated(operand, _),
             let .cast(operand, _),
             let .parenthesized(operand),
             let .qualifiedByJoin(_, operand),
             let .qualified(_, operand):
            return operand.containsAggregate
        case let .binary(_, lhs, rhs):
            return lhs.containsAggregate || rhs.containsAggregate
        case let .associative(_, operands):
            return operands.contains(where: \.containsAggregate)
        case let .isIn(expression, values, _):
            return expression.containsAggregate || values.contains(where: \.containsAggregate)
        case let .between(expression, lower, upper, _):
            return expression.containsAggregate || lower.containsAggregate || upper.containsAggregate
        case .column, .rowID, .value, .literal:
            return false
        }
    }

}

// MARK: - SQL generation

extension SQLExpression {
    /// The precedence of the expression, following SQLite's operator
    /// precedence: an operand is parenthesized when its precedence is not
    /// higher than its operator's.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_expr.html#operators_and_parse_affecting_attributes>
    var precedence: Int {
        switch impl {
        case let .qualifiedByJoin(_, expression), let .qualified(_, expression):
            return expression.precedence
        case .column, .rowID, .value, .function, .countAll, .cast, .parenthesized, .filtered:
            return 100
        case .literal:
            return 0 // unknown: always parenthesized as an operand, unless a single token
        case let .unary(op, _, _):
            return op == "NOT" || op == "EXISTS" || op == "NOT EXISTS" ? 30 : 90
        case .collated:
            return 85
        case let .binary(op, _, _):
            return SQLExpression.precedence(ofBinaryOperator: op)
        case let .associative(op, _):
            return SQLExpression.precedence(ofBinaryOperator: op.sql)
        case .isIn, .between:
            return 40
        }
    }

    /// The parent precedence given to the operands of `AND` and `OR`: they
    /// are parenthesized when they are operations, or raw SQL.
    static let logicalOperandPrecedence = 25

    /// The parent precedence given to the operands of the other operators:
    /// they are parenthesized when they are operations, or raw SQL of
    /// several tokens.
    static let operationOperandPrecedence = 26

    static func precedence(ofBinaryOperator op: String) -> Int {
        switch op {
        case "||", "->", "->>": return 80
        case "*", "/", "%": return 70
        case "+", "-": return 60
        case "&", "|", "<<", ">>": return 50
        case "<", ">", "<=", ">=": return 45
        case "AND": return 20
        case "OR": return 10
        default: return 40 // =, <>, IS, IS NOT, LIKE, GLOB, MATCH, REGEXP
        }
    }

    /// The operands of a comparison of which one operand is collated, with
    /// the collation taken out: the comparison is written with the
    /// collation at its end (see ``collatedComparisonOperators``). Nil for
    /// other operations, and when both operands are collated.
    static func collatedComparison(
        _ op: String,
        _ lhs: SQLExpression,
        _ rhs: SQLExpression) -> (SQLExpression, SQLExpression, String)?
    {
        guard collatedComparisonOperators.contains(op) else { return nil }
        switch (lhs.impl, rhs.impl) {
        case (.collated, .collated):
            return nil
        case let (.collated(lhs, collation), _):
            return (lhs, rhs, collation)
        case let (_, .collated(rhs, collation)):
            return (lhs, rhs, collation)
        default:
            return nil
        }
    }

    /// Renders the expression, appending its values to the arguments of the
    /// context.
    ///
    /// - Parameter parentPrecedence: The precedence of the operator the
    ///   expression is an operand of; the expression is parenthesized when
    ///   its own precedence is not higher.
    ///
    /// An operand that is itself an operation is always parenthesized,
    /// whatever its precedence: `("a" = ?) AND ("b" > ?)`,
    /// `("a" + ?) = ?`.
    func sql(_ context: SQLGenerationContext, parentPrecedence: Int = -1) throws -> String {
        let own = precedence
        // An operand that is an operation is parenthesized, whatever its
        // precedence, a collated expression included, as GRDB renders it:
        // `("name" COLLATE NOCASE) IN (...)`.
        let isOperand = parentPrecedence == SQLExpression.logicalOperandPrecedence
            || parentPrecedence == SQLExpression.operationOperandPrecedence
        let wrapped = own <= parentPrecedence || (isOperand && own < 100)
        func wrap(_ sql: String) -> String { wrapped ? "(\(sql))" : sql }
        let operandPrecedence = self.operandPrecedence

        switch impl {
        case let .column(name, qualifier):
            if let qualifier = qualifier ?? context.defaultQualifier {
                return qualifier.quotedDatabaseIdentifier + "." + name.quotedDatabaseIdentifier
            }
            return name.quotedDatabaseIdentifier
        case let .rowID(qualifier):
            if let qualifier = qualifier ?? context.defaultQualifier {
                return qualifier.quotedDatabaseIdentifier + ".\"rowid\""
            }
            return "\"rowid\""
        case let .value(dbValue):
            if dbValue.isNull { return "NULL" }
            return context.append(argument: dbValue)
        case let .literal(sql):
            return try SQLExpression.literalSQL(sql, context, parentPrecedence: parentPrecedence)
        case let .unary(op, operand, needsSpace):
            // `NOT ("a" = ?)` reads better than `NOT "a" = ?`.
            let operandSQL = try operand.sql(context, parentPrecedence: op == "NOT" ? 99 : own)
            return wrap(op + (needsSpace ? " " : "") + operandSQL)
        case let .binary(op, lhs, rhs):
            return wrap(try SQLExpression.binarySQL(op, lhs, rhs, context, operandPrecedence: operandPrecedence))
        case let .associative(op, operands):
            return wrap(try operands
                .map { try $0.sql(context, parentPrecedence: operandPrecedence) }
                .joined(separator: " \(op.sql) "))
        case let .isIn(expression, values, negated):
            if values.isEmpty {
                // `x IN ()` is not valid SQL: nothing is in an empty set.
                return negated ? "1" : "0"
            }
            return wrap(try SQLExpression.inSQL(
                expression, values, negated: negated, context, operandPrecedence: operandPrecedence))
        case let .between(expression, lower, upper, negated):
            return wrap(try expression.sql(context, parentPrecedence: operandPrecedence)
                + (negated ? " NOT BETWEEN " : " BETWEEN ")
                + (try lower.sql(context, parentPrecedence: operandPrecedence))
                + " AND "
                + (try upper.sql(context, parentPrecedence: operandPrecedence)))
        case let .function(name, arguments, isDistinct, _):
            return name + "(" + (isDistinct ? "DISTINCT " : "")
                + (try arguments.map { try $0.sql(context) }.joined(separator: ", "))
                + ")"
        case .countAll:
            return "COUNT(*)"
        case let .collated(expression, collation):
            return wrap(try expression.sql(context, parentPrecedence: own) + " COLLATE " + collation)
        case let .cast(expression, type):
            return "CAST(" + (try expression.sql(context)) + " AS " + type + ")"
        case let .parenthesized(expression):
            return "(" + (try expression.sql(context)) + ")"
        case let .qualifiedByJoin(path, expression):
            guard let name = context.joinedTableNames[path] else {
                throw context.db.makeError(
                    resultCode: .SQLITE_MISUSE,
                    message: "an association aggregate is used in a request that does not join its association",
                    sql: nil, arguments: nil)
            }
            return try context.withDefaultQualifier(name) {
                try expression.sql(context, parentPrecedence: parentPrecedence)
            }
        case let .qualified(qualifier, expression):
            let name = try qualifier(context)
            return try context.withDefaultQualifier(name) {
                try expression.sql(context, parentPrecedence: parentPrecedence)
            }
        case let .filtered(function, filter):
            return try function.sql(context) + " FILTER (WHERE " + (try filter.sql(context)) + ")"
        }
    }

    /// The precedence given to the operands of this expression: operands
    /// are parenthesized when they are operations themselves, as GRDB
    /// renders them: `("a" + "b") = ?`, `("a" = ?) AND ("b" > ?)`. Nested
    /// applications of one associative operator are flattened before:
    /// `"a" + "b" + "c"`.
    private var operandPrecedence: Int {
        if case let .associative(op, _) = impl, op == .and || op == .or {
            return SQLExpression.logicalOperandPrecedence
        }
        return SQLExpression.operationOperandPrecedence
    }

    /// Raw SQL, which may hold any operation: parenthesized when it is an
    /// operand, unless it is a single token.
    private static func literalSQL(_ sql: SQL, _ context: SQLGenerationContext, parentPrecedence: Int) throws -> String {
        let rendered = try sql.sql(context)
        if parentPrecedence == SQLExpression.logicalOperandPrecedence
            || (parentPrecedence >= 0 && rendered.contains(where: \.isWhitespace))
        {
            return "(\(rendered))"
        }
        return rendered
    }

    /// `lhs op rhs`, not parenthesized.
    private static func binarySQL(
        _ op: String,
        _ lhs: SQLExpression,
        _ rhs: SQLExpression,
        _ context: SQLGenerationContext,
        operandPrecedence: Int) throws -> String
    {
        if let (lhs, rhs, collation) = SQLExpression.collatedComparison(op, lhs, rhs) {
            // `"name" = ? COLLATE NOCASE`: the collation binds to the right
            // operand, which SQLite applies to the comparison.
            return try lhs.sql(context, parentPrecedence: operandPrecedence)
                + " \(op) "
                + (try rhs.sql(context, parentPrecedence: operandPrecedence))
                + " COLLATE " + collation
        }
        return try lhs.sql(context, parentPrecedence: operandPrecedence)
            + " \(op) "
            + (try rhs.sql(context, parentPrecedence: operandPrecedence))
    }

    /// `expression IN (values)` for a non-empty list, not parenthesized.
    private static func inSQL(
        _ expression: SQLExpression,
        _ values: [SQLExpression],
        negated: Bool,
        _ context: SQLGenerationContext,
        operandPrecedence: Int) throws -> String
    {
        if values.count > DatabaseValueArray.inlineLimit, !context.inlinesArguments,
           let array = DatabaseValueArray(valuesOf: values)
        {
            // Any number of values, in one argument (SQLite stops at 32,766
            // parameters). Not in the schema (views, triggers), where
            // arguments are literals and table functions are not trusted.
            context.arraySubqueryCount += 1
            return try expression.sql(context, parentPrecedence: operandPrecedence)
                // `+value` has no affinity: the affinity of the expression
                // applies to the values, as in a list.
                + (negated ? " NOT IN (SELECT +value FROM " : " IN (SELECT +value FROM ")
                + DatabaseValueArray.functionName + "("
                + context.append(argument: array.databaseValue) + "))"
        }
        return try expression.sql(context, parentPrecedence: operandPrecedence)
            + (negated ? " NOT IN (" : " IN (")
            + (try values.map { try $0.sql(context) }.joined(separator: ", "))
            + ")"
    }
}

extension DatabaseValueArray {
    /// The values of expressions that are all plain values; nil otherwise.
    init?(valuesOf expressions: [SQLExpression]) {
        var values: [DatabaseValue] = []
        values.reserveCapacity(expressions.count)
        for expression in expressions {
            guard case .value(let value) = expression.impl else { return nil }
            values.append(value)
        }
        self.init(values: values)
    }
}
