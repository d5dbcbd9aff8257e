/// The interpolation of an ``SQL`` literal (and of ``SQLRequest``): what
/// may appear between `\(` and `)`.
///
/// ```swift
/// let name = "O'Brien"
/// let query: SQL = """
///     SELECT \(Column("score")) FROM \(identifier: "player")
///     WHERE name = \(name) AND id IN \([1, 2, 3])
///     """
/// // SELECT "score" FROM "player" WHERE name = ? AND id IN (?,?,?)
/// ```
///
/// Values become statement arguments, never SQL text; expressions,
/// selections and ordering terms render as SQL; raw SQL is only inserted
/// with the explicit `\(sql:)` and `\(literal:)` forms.
public struct SQLInterpolation: StringInterpolationProtocol, Sendable {
    /// The parts of the literal being built.
    var elements: [SQL.Element] = []

    /// Creates an empty interpolation.
    public init(literalCapacity: Int, interpolationCount: Int) {
        elements.reserveCapacity(interpolationCount * 2 + 1)
    }

    /// Appends raw SQL.
    public mutating func appendLiteral(_ literal: String) {
        guard !literal.isEmpty else { return }
        elements.append(.sql(literal, StatementArguments()))
    }

    /// Appends a value as a statement argument: `?` in the SQL, and the
    /// value in the arguments. `nil` and NULL are written `NULL`, with no
    /// argument, as GRDB writes them.
    ///
    /// ```swift
    /// let name: String? = "Arthur"
    /// let query: SQL = "SELECT * FROM player WHERE name = \(name)"
    /// // SELECT * FROM player WHERE name = ? with arguments ["Arthur"]
    /// ```
    public mutating func appendInterpolation<Value: DatabaseValueConvertible>(_ value: Value?) {
        let dbValue = value?.databaseValue ?? .null
        if dbValue.isNull {
            appendLiteral("NULL")
        } else {
            elements.append(.sql("?", [dbValue]))
        }
    }

    /// Appends an expression: a value, a column, an operation, or any
    /// other ``SQLExpressible`` value. Values become statement
    /// arguments.
    ///
    /// ```swift
    /// let query: SQL = "SELECT * FROM player WHERE \(Column("score") > 1000)"
    /// // SELECT * FROM player WHERE "score" > ? with arguments [1000]
    ///
    /// func select(_ expression: some SQLExpressible) -> SQL {
    ///     "SELECT \(expression)"
    /// }
    /// ```
    public mutating func appendInterpolation(_ expression: some SQLExpressible) {
        elements.append(.expression(expression.sqlExpression))
    }

    /// Appends the column named after a coding key.
    ///
    /// ```swift
    /// let request: SQLRequest<Player> = "SELECT * FROM player WHERE \(CodingKeys.id) = \(id)"
    /// // SELECT * FROM player WHERE "id" = ?
    /// ```
    public mutating func appendInterpolation(_ codingKey: some CodingKey) {
        elements.append(.expression(Column(codingKey.stringValue).sqlExpression))
    }

    /// Appends a value that is also a sequence of values, such as `Data`,
    /// as one statement argument.
    public mutating func appendInterpolation<Value>(_ value: Value)
    where Value: DatabaseValueConvertible & Sequence, Value.Element: DatabaseValueConvertible
    {
        elements.append(.sql("?", [value.databaseValue]))
    }

    /// Appends raw SQL and its arguments.
    ///
    /// ```swift
    /// let query: SQL = "SELECT * FROM player WHERE \(sql: "score > ?", arguments: [1000])"
    /// ```
    public mutating func appendInterpolation(sql: String, arguments: StatementArguments = StatementArguments()) {
        elements.append(.sql(sql, arguments))
    }

    /// Appends another literal.
    ///
    /// ```swift
    /// let condition: SQL = "score > \(1000)"
    /// let query: SQL = "SELECT * FROM player WHERE \(literal: condition)"
    /// ```
    public mutating func appendInterpolation(literal sqlLiteral: SQL) {
        elements.append(contentsOf: sqlLiteral.elements)
    }

    /// Appends a sequence of values as a parenthesized list of arguments.
    ///
    /// ```swift
    /// let ids = [1, 2, 3]
    /// let query: SQL = "DELETE FROM player WHERE id IN \(ids)"
    /// // DELETE FROM player WHERE id IN (?,?,?) with arguments [1, 2, 3]
    /// ```
    ///
    /// An empty sequence is the empty subquery `(SELECT NULL WHERE NULL)`:
    /// `x IN \(empty)` matches no row, and `x NOT IN \(empty)` matches all
    /// rows.
    public mutating func appendInterpolation<S: Sequence>(_ sequence: S) where S.Element: DatabaseValueConvertible {
        elements.append(.valueList(sequence.map(\.databaseValue)))
    }

    /// Appends another literal: its SQL and its arguments.
    ///
    /// ```swift
    /// let condition: SQL = "score > \(1000)"
    /// let query: SQL = "SELECT * FROM player WHERE \(condition)"
    /// ```
    public mutating func appendInterpolation(_ sqlLiteral: SQL) {
        elements.append(contentsOf: sqlLiteral.elements)
    }

    /// Appends a quoted identifier: a table or column name.
    ///
    /// ```swift
    /// let table = "player"
    /// let query: SQL = "SELECT * FROM \(identifier: table)"
    /// // SELECT * FROM "player"
    /// ```
    public mutating func appendInterpolation(identifier: String) {
        elements.append(.sql(identifier.quotedDatabaseIdentifier, StatementArguments()))
    }

    /// Appends a string, as a statement argument (substrings included).
    ///
    /// ```swift
    /// let word = "Arthur Dent".split(separator: " ")[0]
    /// let query: SQL = "SELECT * FROM player WHERE name = \(word)"
    /// ```
    @_disfavoredOverload
    public mutating func appendInterpolation(_ string: some StringProtocol) {
        elements.append(.sql("?", [String(string)]))
    }

    /// Appends an expression, or NULL.
    ///
    /// ```swift
    /// let expression: (any SQLExpressible)? = Column("score")
    /// let query: SQL = "SELECT \(expression) FROM player"
    /// ```
    @_disfavoredOverload
    public mutating func appendInterpolation(_ expressible: (any SQLExpressible)?) {
        elements.append(.expression(expressible.sqlExpressionOrNull))
    }

    /// Appends an expression that can also be selected and sorted (a
    /// column, an expression): rendered as an expression.
    ///
    /// ```swift
    /// let query: SQL = "SELECT \(Column("score") + 1) FROM player"
    /// // SELECT "score" + ? FROM player
    /// ```
    public mutating func appendInterpolation(_ expressible: some SQLExpressible & SQLSelectable & SQLOrderingTerm) {
        elements.append(.expression(expressible.sqlExpression))
    }

    /// Appends a selection: `*`, an aliased expression…
    ///
    /// ```swift
    /// let query: SQL = "SELECT \(AllColumns()) FROM player"
    /// // SELECT * FROM player
    /// ```
    public mutating func appendInterpolation(_ selection: some SQLSelectable) {
        let selection = selection.sqlSelection
        elements.append(.deferred { context in try selection.sql(context) })
    }

    /// Appends a selection, or NULL.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ selection: (any SQLSelectable)?) {
        guard let selection = selection?.sqlSelection else {
            elements.append(.sql("NULL", StatementArguments()))
            return
        }
        elements.append(.deferred { context in try selection.sql(context) })
    }

    /// Appends an ordering term: `"score" DESC`.
    ///
    /// ```swift
    /// let query: SQL = "SELECT * FROM player ORDER BY \(Column("score").desc)"
    /// ```
    public mutating func appendInterpolation(_ orderingTerm: some SQLOrderingTerm) {
        let ordering = orderingTerm.sqlOrdering
        elements.append(.deferred { context in try ordering.sql(context) })
    }

    /// Appends an ordering term.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ orderingTerm: any SQLOrderingTerm) {
        let ordering = orderingTerm.sqlOrdering
        elements.append(.deferred { context in try ordering.sql(context) })
    }

    /// Appends the column named after a coding key that is also an
    /// expression (such as a `Columns` enum that adopts `CodingKey`).
    public mutating func appendInterpolation(_ key: some CodingKey & SQLExpressible & SQLSelectable & SQLOrderingTerm) {
        elements.append(.expression(Column(key.stringValue).sqlExpression))
    }

    /// Appends the column named after a coding key.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ key: any CodingKey) {
        elements.append(.expression(Column(key.stringValue).sqlExpression))
    }

    /// Appends a sequence of expressions, as a parenthesized list.
    ///
    /// ```swift
    /// let columns = [Column("b"), Column("c")]
    /// let query: SQL = "SELECT * FROM t WHERE a IN \(columns)"
    /// // SELECT * FROM t WHERE a IN ("b","c")
    /// ```
    ///
    /// An empty sequence is the empty subquery `(SELECT NULL WHERE NULL)`:
    /// `x IN \(empty)` matches no row, and `x NOT IN \(empty)` matches all
    /// rows.
    public mutating func appendInterpolation(_ sequence: some Sequence<some SQLExpressible>) {
        appendExpressionList(sequence.map(\.sqlExpression))
    }

    /// Appends a sequence of expressions, as a parenthesized list.
    public mutating func appendInterpolation(_ sequence: some Sequence<any SQLExpressible>) {
        appendExpressionList(sequence.map(\.sqlExpression))
    }

    /// Appends a value that is also a sequence of expressions as one
    /// expression.
    public mutating func appendInterpolation<S>(_ expressible: S)
    where S: SQLExpressible & Sequence, S.Element: SQLExpressible
    {
        elements.append(.expression(expressible.sqlExpression))
    }

    /// Appends the name of a custom collation: `... COLLATE \(collation)`.
    ///
    /// ```swift
    /// let query: SQL = "SELECT * FROM player ORDER BY name COLLATE \(DatabaseCollation.localizedCompare)"
    /// ```
    public mutating func appendInterpolation(_ collation: DatabaseCollation) {
        elements.append(.sql(collation.name, StatementArguments()))
    }

    /// `(a,b,c)`, or the empty subquery when empty (see
    /// `SQL.emptyListSQL`).
    private mutating func appendExpressionList(_ expressions: [SQLExpression]) {
        guard !expressions.isEmpty else {
            elements.append(.sql(SQL.emptyListSQL, StatementArguments()))
            return
        }
        elements.append(.sql("(", StatementArguments()))
        for (index, expression) in expressions.enumerated() {
            if index > 0 { elements.append(.sql(",", StatementArguments())) }
            elements.append(.expression(expression))
        }
        elements.append(.sql(")", StatementArguments()))
    }
}
