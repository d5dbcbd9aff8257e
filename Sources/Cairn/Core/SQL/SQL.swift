/// SQL built with string interpolation, where interpolated values become
/// statement arguments, never SQL text: an `SQL` literal cannot be used for
/// SQL injection.
///
/// ```swift
/// let name = "O'Brien"
/// let id = 42
/// let query: SQL = "UPDATE player SET name = \(name) WHERE id = \(id)"
/// try db.execute(literal: query)
///
/// let (sql, arguments) = try query.build(db)
/// print(sql)       // prints "UPDATE player SET name = ? WHERE id = ?"
/// print(arguments) // prints ["O'Brien", 42]
/// ```
///
/// Besides values, you can interpolate:
///
/// - raw SQL, with its own arguments: `\(sql: "score > ?", arguments: [1000])`
/// - another `SQL` literal: `\(literal: condition)`
/// - a sequence of values, as a parenthesized list: `"WHERE id IN \(ids)"`
///   gives `WHERE id IN (?,?,?)`; an empty sequence gives `(NULL)`, which
///   matches nothing.
///
/// Literals concatenate with `+`, and join with
/// `joined(separator:)`.
public struct SQL: Sendable {
    /// The parts of the literal.
    enum Element: Sendable {
        /// Raw SQL and its arguments.
        case sql(String, StatementArguments)

        /// A parenthesized list of `?`, one per value.
        case valueList([DatabaseValue])

        /// An expression.
        case expression(SQLExpression)

        /// SQL that is rendered when the literal is built, with access to
        /// the database (table names of records, subqueries…).
        case deferred(@Sendable (SQLGenerationContext) throws -> String)
    }

    var elements: [Element]

    init(elements: [Element]) {
        self.elements = elements
    }

    /// Creates a literal from raw SQL and its arguments.
    ///
    /// ```swift
    /// let query = SQL(sql: "SELECT * FROM player WHERE score > ?", arguments: [1000])
    /// ```
    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        self.init(elements: [.sql(sql, arguments)])
    }

    /// Whether the literal holds no SQL.
    public var isEmpty: Bool {
        elements.allSatisfy { element in
            switch element {
            case .sql(let sql, let arguments): return sql.isEmpty && arguments.isEmpty
            case .valueList, .expression, .deferred: return false
            }
        }
    }

    /// Returns the SQL text and its arguments.
    ///
    /// ```swift
    /// let query: SQL = "UPDATE player SET name = \(name) WHERE id = \(id)"
    /// let (sql, arguments) = try dbQueue.read { db in
    ///     try query.build(db)
    /// }
    /// print(sql)       // prints "UPDATE player SET name = ? WHERE id = ?"
    /// print(arguments) // prints ["O'Brien", 42]
    /// ```
    ///
    /// - Parameter db: A connection: some literals need the schema.
    /// - Throws: A ``DatabaseError`` when the literal cannot be rendered.
    public func build(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        let context = SQLGenerationContext(db)
        let sql = try self.sql(context)
        return (sql, context.arguments)
    }

    /// Renders the literal in a context that collects its arguments.
    func sql(_ context: SQLGenerationContext) throws -> String {
        var sql = ""
        for element in elements {
            switch element {
            case let .sql(elementSQL, elementArguments):
                sql += elementSQL
                try context.append(arguments: elementArguments)
            case .valueList(let values):
                if values.isEmpty {
                    sql += "(NULL)"
                } else {
                    sql += "(" + values.map { context.append(argument: $0) }.joined(separator: ",") + ")"
                }
            case .expression(let expression):
                sql += try expression.sql(context)
            case .deferred(let render):
                sql += try render(context)
            }
        }
        return sql
    }

    /// Appends another literal.
    public mutating func append(literal sqlLiteral: SQL) {
        elements.append(contentsOf: sqlLiteral.elements)
    }

    /// Appends raw SQL and its arguments.
    public mutating func append(sql: String, arguments: StatementArguments = StatementArguments()) {
        elements.append(.sql(sql, arguments))
    }

    /// Returns the concatenation of two literals.
    public static func + (lhs: SQL, rhs: SQL) -> SQL {
        SQL(elements: lhs.elements + rhs.elements)
    }

    /// Appends a literal to another.
    public static func += (lhs: inout SQL, rhs: SQL) {
        lhs.append(literal: rhs)
    }
}

extension SQL: ExpressibleByStringInterpolation {
    /// Creates a literal from a string literal without interpolation: raw
    /// SQL.
    public init(stringLiteral value: String) {
        self.init(sql: value)
    }

    /// Creates a literal from an interpolated string.
    public init(stringInterpolation: StringInterpolation) {
        self.init(elements: stringInterpolation.elements)
    }

    /// The interpolation of an ``SQL`` literal.
    public struct StringInterpolation: StringInterpolationProtocol {
        var elements: [Element] = []

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
        /// value in the arguments. `nil` is NULL.
        ///
        /// ```swift
        /// let name: String? = "Arthur"
        /// let query: SQL = "SELECT * FROM player WHERE name = \(name)"
        /// // SELECT * FROM player WHERE name = ? with arguments ["Arthur"]
        /// ```
        public mutating func appendInterpolation<Value: DatabaseValueConvertible>(_ value: Value?) {
            elements.append(.sql("?", [value?.databaseValue ?? .null]))
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
        /// An empty sequence is `(NULL)`: `x IN (NULL)` matches no row.
        public mutating func appendInterpolation<S: Sequence>(_ sequence: S) where S.Element: DatabaseValueConvertible {
            elements.append(.valueList(sequence.map(\.databaseValue)))
        }
    }
}

extension Sequence where Element == SQL {
    /// Returns the concatenation of the literals, with a separator between
    /// them.
    ///
    /// ```swift
    /// let conditions: [SQL] = ["score > \(1000)", "name = \("Arthur")"]
    /// let query: SQL = "SELECT * FROM player WHERE \(literal: conditions.joined(separator: " AND "))"
    /// ```
    public func joined(separator: String = "") -> SQL {
        var result = SQL(elements: [])
        for (index, literal) in enumerated() {
            if index > 0 && !separator.isEmpty {
                result.append(sql: separator)
            }
            result.append(literal: literal)
        }
        return result
    }
}
