// JSON values of the query interface: `SQLJSONExpressible`,
// `AnySQLJSONExpressible`, and `asJSON`.
//
// Related SQLite documentation: <https://www.sqlite.org/json1.html>

/// An SQL expression whose value is JSON.
///
/// A JSON value gives access to its parts with the `->>` and `->`
/// operators and the `JSON_EXTRACT` function of SQLite:
///
/// ```swift
/// let info = JSONColumn("info")
///
/// // SELECT "info" ->> 'firstName' FROM "player"
/// let firstName = try Player.select(info["firstName"], as: String.self).fetchOne(db)
///
/// // SELECT "info" -> 'address' FROM "player"  (the address, as JSON text)
/// let address = try Player.select(info.jsonRepresentation(atPath: "address"), as: String.self).fetchOne(db)
/// ```
///
/// The functions that build JSON (`Database.jsonArray(_:)`,
/// ``Database/jsonObject(_:)``…) parse a JSON value as JSON, where they
/// would store any other string as a JSON string:
///
/// ```swift
/// // SELECT JSON_ARRAY(JSONB("address"), "address") FROM "player"
/// // → '[{"city":"Paris"},"{\"city\":\"Paris\"}"]'
/// let array = Database.jsonArray([JSONColumn("address"), Column("address")] as [any SQLExpressible])
/// ```
///
/// ``JSONColumn`` and ``AnySQLJSONExpressible`` adopt this protocol, and
/// ``SQLSpecificExpressible/asJSON`` turns any expression into a JSON
/// value. A type of yours that adopts both ``ColumnExpression`` and this
/// protocol is a JSON column.
///
/// Related SQLite documentation: <https://www.sqlite.org/json1.html>
public protocol SQLJSONExpressible: SQLSpecificExpressible { }

extension ColumnExpression where Self: SQLJSONExpressible {
    /// The column, as an expression whose value is JSON: `"name"`.
    public var sqlExpression: SQLExpression {
        SQLExpression.column(name).withJSONInterpretation(.jsonValue)
    }
}

/// A type-erased ``SQLJSONExpressible``: an SQL expression whose value
/// is JSON.
///
/// ```swift
/// let info: AnySQLJSONExpressible = Column("info").asJSON
/// // "info" ->> 'score'
/// let score = info["score"]
/// ```
public struct AnySQLJSONExpressible: SQLJSONExpressible, Sendable {
    /// The expression, whose value is JSON.
    public let sqlExpression: SQLExpression

    /// Wraps a JSON value.
    ///
    /// - Parameter base: An expression whose value is JSON.
    public init(_ base: some SQLJSONExpressible) {
        self.init(jsonValue: base.sqlExpression)
    }

    /// Wraps an expression, taken as a JSON value unless it is already
    /// the result of a JSON function.
    init(jsonValue expression: SQLExpression) {
        switch expression.jsonInterpretation {
        case .jsonValue, .jsonResult:
            sqlExpression = expression
        case .sqlValue:
            sqlExpression = expression.withJSONInterpretation(.jsonValue)
        }
    }
}

extension SQLSpecificExpressible {
    /// The expression, as a JSON value.
    ///
    /// The SQL of the expression does not change. The JSON value gives
    /// access to the ``SQLJSONExpressible`` operators, and the functions
    /// that build JSON parse it as JSON instead of storing it as a string:
    ///
    /// ```swift
    /// let info = Column("info").asJSON
    ///
    /// // SELECT "info" ->> 'firstName' FROM "player"
    /// let firstName = try Player.select(info["firstName"], as: String.self).fetchOne(db)
    ///
    /// // JSON_ARRAY(JSONB('[1, 2]')) → '[[1,2]]'
    /// // (JSON_ARRAY('[1, 2]') would give '["[1, 2]"]')
    /// let array = Database.jsonArray(["[1, 2]".databaseValue.asJSON])
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html>
    public var asJSON: AnySQLJSONExpressible {
        AnySQLJSONExpressible(jsonValue: sqlExpression)
    }
}

extension SQLJSONExpressible {
    /// The SQL value at a path of the JSON value, with the `->>`
    /// operator of SQLite.
    ///
    /// An object or an array is returned as JSON text, a string as an SQL
    /// string, a number as an SQL number, `null` as NULL.
    ///
    /// ```swift
    /// let info = JSONColumn("info")
    /// // SELECT "info" ->> 'firstName' FROM "player"  → 'Arthur'
    /// let firstName = try Player.select(info["firstName"], as: String.self).fetchOne(db)
    /// // SELECT "info" ->> '$.address.city' FROM "player"  → 'Paris'
    /// let city = try Player.select(info["$.address.city"], as: String.self).fetchOne(db)
    /// ```
    ///
    /// - Parameter path: A JSON path (`'$.address.city'`), an object label
    ///   (`'firstName'`), or an array index (`2`).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jptr>
    public subscript(_ path: some SQLExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("->>", sqlExpression, path.sqlExpression))
    }

    /// The SQL value at a path of the JSON value, with the `JSON_EXTRACT`
    /// function of SQLite.
    ///
    /// ```swift
    /// let info = JSONColumn("info")
    /// // SELECT JSON_EXTRACT("info", '$.firstName') FROM "player"  → 'Arthur'
    /// let firstName = try Player.select(info.jsonExtract(atPath: "$.firstName"), as: String.self).fetchOne(db)
    /// ```
    ///
    /// - Parameter path: A JSON path, such as `'$.firstName'`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jex>
    public func jsonExtract(atPath path: some SQLExpressible) -> SQLExpression {
        Database.jsonExtract(self, atPath: path)
    }

    /// The values at several paths of the JSON value, as a JSON array,
    /// with the `JSON_EXTRACT` function of SQLite.
    ///
    /// ```swift
    /// let info = JSONColumn("info")
    /// // SELECT JSON_EXTRACT("info", '$.firstName', '$.lastName') FROM "player"
    /// // → '["Arthur","Miller"]'
    /// let names = try Player
    ///     .select(info.jsonExtract(atPaths: ["$.firstName", "$.lastName"]), as: String.self)
    ///     .fetchOne(db)
    /// ```
    ///
    /// - Parameter paths: JSON paths, such as `'$.firstName'`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jex>
    public func jsonExtract(atPaths paths: some Collection<some SQLExpressible>) -> SQLExpression {
        Database.jsonExtract(self, atPaths: paths)
    }

    /// The JSON representation of the value at a path of the JSON value,
    /// with the `->` operator of SQLite.
    ///
    /// A string is returned quoted (`'"Arthur"'`), and the result is JSON
    /// for the functions that build JSON.
    ///
    /// ```swift
    /// let info = JSONColumn("info")
    /// // SELECT "info" -> 'firstName' FROM "player"  → '"Arthur"'
    /// let name = try Player.select(info.jsonRepresentation(atPath: "firstName"), as: String.self).fetchOne(db)
    /// // SELECT "info" -> 'address' FROM "player"  → '{"city":"Paris"}'
    /// let address = try Player.select(info.jsonRepresentation(atPath: "address"), as: String.self).fetchOne(db)
    /// ```
    ///
    /// - Parameter path: A JSON path (`'$.address'`), an object label
    ///   (`'address'`), or an array index (`2`).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jptr>
    public func jsonRepresentation(atPath path: some SQLExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("->", sqlExpression, path.sqlExpression), jsonInterpretation: .jsonResult)
    }
}

// MARK: - JSON building

extension SQLExpression {
    /// The expression, taken by the JSON functions as described.
    func withJSONInterpretation(_ interpretation: JSONInterpretation) -> SQLExpression {
        SQLExpression(impl: impl, jsonInterpretation: interpretation)
    }

    /// A call of an SQLite JSON function whose result is JSON for the
    /// other JSON functions (`JSON`, `JSON_ARRAY`, `JSON_SET`…).
    static func jsonFunction(_ name: String, _ arguments: [SQLExpression], isAggregate: Bool = false) -> SQLExpression {
        SQLExpression(
            impl: .function(name, arguments, isDistinct: false, isAggregate: isAggregate),
            jsonInterpretation: .jsonResult)
    }

    /// The expression as a value argument of a function that builds JSON
    /// (`JSON_ARRAY`, `JSON_OBJECT`, `JSON_SET`…).
    ///
    /// A JSON value is given as `JSONB(value)`, so that the function
    /// stores it as JSON, and not as a JSON string; the function fails on
    /// malformed JSON. The result of another JSON function, and NULL, are
    /// given as they are. The vendored SQLite (3.45 and later) has JSONB,
    /// whose functions the other JSON functions take as JSON.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html>
    var jsonBuilderArgument: SQLExpression {
        switch jsonInterpretation {
        case .sqlValue, .jsonResult:
            return self
        case .jsonValue:
            if case .value(let dbValue) = impl, dbValue.isNull { return self }
            return .jsonFunction("JSONB", [self])
        }
    }
}

extension SQLExpressible {
    /// The value as a value argument of a function that builds JSON (see
    /// `SQLExpression.jsonBuilderArgument`): a value of an
    /// ``SQLJSONExpressible`` type is JSON.
    var jsonArgument: SQLExpression {
        let expression = sqlExpression
        if self is any SQLJSONExpressible, expression.jsonInterpretation == .sqlValue {
            return expression.withJSONInterpretation(.jsonValue).jsonBuilderArgument
        }
        return expression.jsonBuilderArgument
    }
}
