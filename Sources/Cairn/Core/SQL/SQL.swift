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
///   gives `WHERE id IN (?,?,?)`; an empty sequence gives the empty
///   subquery `(SELECT NULL WHERE NULL)`, so that `IN` matches no row and
///   `NOT IN` matches all rows.
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

    /// The SQL of an empty list of values: a subquery without rows. `x IN
    /// (SELECT NULL WHERE NULL)` is false and `x NOT IN (...)` is true,
    /// whatever `x`, where `(NULL)` would make both NULL.
    static let emptyListSQL = "(SELECT NULL WHERE NULL)"

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
                    sql += SQL.emptyListSQL
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
    /// The interpolation of ``SQL`` literals: ``SQLInterpolation``.
    public typealias StringInterpolation = SQLInterpolation

    /// Creates a literal from a string literal without interpolation: raw
    /// SQL.
    public init(stringLiteral value: String) {
        self.init(sql: value)
    }

    /// Creates a literal from an interpolated string.
    public init(stringInterpolation sqlInterpolation: SQLInterpolation) {
        self.init(elements: sqlInterpolation.elements)
    }
}

extension SQL {
    /// Creates a literal from an expression.
    ///
    /// ```swift
    /// let literal = SQL(Column("score") + 1)
    /// let request = Player.select(literal) // SELECT "score" + ? FROM "player"
    /// ```
    ///
    /// - Parameter expression: The expression, rendered as SQL with its
    ///   values as statement arguments.
    public init(_ expression: some SQLSpecificExpressible) {
        self.init(elements: [.expression(expression.sqlExpression)])
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
        joinedLiteral(separator: separator)
    }

    /// The concatenation of the literals, with a separator between them.
    fileprivate func joinedLiteral(separator: String) -> SQL {
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

extension Collection where Element == SQL {
    /// Returns the concatenation of the literals, with a separator between
    /// them.
    ///
    /// ```swift
    /// let columns: [SQL] = ["name", "score"]
    /// let query: SQL = "SELECT \(literal: columns.joined(separator: ", ")) FROM player"
    /// // SELECT name, score FROM player
    /// ```
    ///
    /// - Parameter separator: The SQL between two literals; none by default.
    public func joined(separator: String = "") -> SQL {
        joinedLiteral(separator: separator)
    }
}
