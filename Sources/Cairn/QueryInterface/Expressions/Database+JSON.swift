// The JSON functions of SQLite, as expressions of the query interface, and
// the column types of JSON columns.
//
// A JSON value (a `JSONColumn`, an expression marked with `asJSON`) given
// as a value to a function that builds JSON is parsed as JSON, with
// `JSONB(value)`; the result of another JSON function is given as is. Any
// other value is an SQL value: a string is stored as a JSON string.
//
// Related SQLite documentation: <https://www.sqlite.org/json1.html>

extension Database.ColumnType {
    /// `TEXT`, for JSON stored as text.
    ///
    /// ```swift
    /// try db.create(table: "player") { t in
    ///     t.column("info", .jsonText)   // "info" TEXT
    /// }
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html>
    public static let jsonText = Database.ColumnType(rawValue: "TEXT")

    /// `BLOB`, for JSON stored in the binary JSONB format.
    ///
    /// ```swift
    /// try db.create(table: "player") { t in
    ///     t.column("info", .jsonb)   // "info" BLOB
    /// }
    /// // INSERT INTO player (info) VALUES (JSONB('{"score":1000}'))
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/jsonb.html>
    public static let jsonb = Database.ColumnType(rawValue: "BLOB")
}

extension Database {
    // MARK: - Building JSON

    /// Validates JSON text and returns it minified, with the `JSON`
    /// function of SQLite.
    ///
    /// The function fails on malformed JSON. Its result is JSON for the
    /// functions that build JSON.
    ///
    /// ```swift
    /// // JSON(' { "a": [ "test" ] } ') → '{"a":["test"]}'
    /// Database.json(#" { "a": [ "test" ] } "#)
    /// ```
    ///
    /// - Parameter value: JSON text, or JSONB.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jmini>
    public static func json(_ value: some SQLExpressible) -> SQLExpression {
        .jsonFunction("JSON", [value.sqlExpression])
    }

    /// A JSON array of values, with the `JSON_ARRAY` function of SQLite.
    ///
    /// A string is stored as a JSON string, unless it is a JSON value
    /// (see ``SQLJSONExpressible``) or the result of a JSON function.
    ///
    /// ```swift
    /// // JSON_ARRAY(1, 2, 3, 4) → '[1,2,3,4]'
    /// Database.jsonArray(1...4)
    /// ```
    ///
    /// - Parameter values: The elements of the array.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jarray>
    public static func jsonArray(_ values: some Collection<some SQLExpressible>) -> SQLExpression {
        .jsonFunction("JSON_ARRAY", values.map(\.jsonArgument))
    }

    /// A JSON array of values of different types, with the `JSON_ARRAY`
    /// function of SQLite.
    ///
    /// A string is stored as a JSON string, unless it is a JSON value
    /// (see ``SQLJSONExpressible``) or the result of a JSON function.
    ///
    /// ```swift
    /// // JSON_ARRAY(1, '2', JSONB("info"), JSON_ARRAY(3)) → '[1,"2",{"a":true},[3]]'
    /// Database.jsonArray([1, "2", JSONColumn("info"), Database.jsonArray([3])] as [any SQLExpressible])
    /// ```
    ///
    /// - Parameter values: The elements of the array.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jarray>
    public static func jsonArray(_ values: some Collection<any SQLExpressible>) -> SQLExpression {
        .jsonFunction("JSON_ARRAY", values.map(\.jsonArgument))
    }

    /// A JSON object, with the `JSON_OBJECT` function of SQLite.
    ///
    /// Pass the keys and values in any collection of pairs: a dictionary,
    /// or, to keep their order, `KeyValuePairs` or an array of pairs. A
    /// string is stored as a JSON string, unless it is a JSON value (see
    /// ``SQLJSONExpressible``) or the result of a JSON function.
    ///
    /// ```swift
    /// // JSON_OBJECT('a', 2, 'c', '{"e":5}') → '{"a":2,"c":"{\"e\":5}"}'
    /// Database.jsonObject(["a": 2, "c": #"{"e":5}"#] as KeyValuePairs)
    ///
    /// // JSON_OBJECT('c', JSON_OBJECT('e', 5)) → '{"c":{"e":5}}'
    /// Database.jsonObject(["c": Database.jsonObject(["e": 5])])
    ///
    /// // JSON_OBJECT('c', JSONB('{"e":5}')) → '{"c":{"e":5}}'
    /// Database.jsonObject(["c": #"{"e":5}"#.databaseValue.asJSON])
    /// ```
    ///
    /// - Parameter elements: The keys and values of the object.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jobj>
    public static func jsonObject(
        _ elements: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        .jsonFunction("JSON_OBJECT", elements.flatMap { [$0.key.sqlExpression, $0.value.jsonArgument] })
    }

    /// A value as a JSON value, with the `JSON_QUOTE` function of SQLite:
    /// a string becomes a quoted JSON string, a JSON value is left as is.
    ///
    /// ```swift
    /// // JSON_QUOTE('[1]') → '"[1]"'
    /// Database.jsonQuote("[1]")
    ///
    /// // JSON_QUOTE(JSON('[1]')) → '[1]'
    /// Database.jsonQuote(Database.json("[1]"))
    /// ```
    ///
    /// - Parameter value: An SQL value, or a JSON value.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jquote>
    public static func jsonQuote(_ value: some SQLExpressible) -> SQLExpression {
        .jsonFunction("JSON_QUOTE", [value.jsonArgument])
    }

    // MARK: - Reading JSON

    /// The number of elements of a JSON array (0 for another JSON value),
    /// with the `JSON_ARRAY_LENGTH` function of SQLite.
    ///
    /// ```swift
    /// // JSON_ARRAY_LENGTH('[1,2,3,4]') → 4
    /// Database.jsonArrayLength("[1,2,3,4]")
    /// ```
    ///
    /// - Parameter value: A JSON array.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jarraylen>
    public static func jsonArrayLength(_ value: some SQLExpressible) -> SQLExpression {
        .function("JSON_ARRAY_LENGTH", [value.sqlExpression])
    }

    /// The number of elements of the JSON array at a path (NULL when the
    /// path does not exist), with the `JSON_ARRAY_LENGTH` function of
    /// SQLite.
    ///
    /// ```swift
    /// // JSON_ARRAY_LENGTH('{"one":[1,2,3]}', '$.one') → 3
    /// Database.jsonArrayLength(#"{"one":[1,2,3]}"#, atPath: "$.one")
    /// ```
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - path: A JSON path, such as `'$.one'`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jarraylen>
    public static func jsonArrayLength(
        _ value: some SQLExpressible,
        atPath path: some SQLExpressible) -> SQLExpression
    {
        .function("JSON_ARRAY_LENGTH", [value.sqlExpression, path.sqlExpression])
    }

    /// The SQL value at a path of a JSON value, with the `JSON_EXTRACT`
    /// function of SQLite.
    ///
    /// ```swift
    /// // JSON_EXTRACT('{"a":123}', '$.a') → 123
    /// Database.jsonExtract(#"{"a":123}"#, atPath: "$.a")
    /// ```
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - path: A JSON path, such as `'$.a'`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jex>
    public static func jsonExtract(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        .function("JSON_EXTRACT", [value.sqlExpression, path.sqlExpression])
    }

    /// The values at several paths of a JSON value, as a JSON array, with
    /// the `JSON_EXTRACT` function of SQLite.
    ///
    /// ```swift
    /// // JSON_EXTRACT('{"a":2,"c":[4,5]}', '$.c', '$.a') → '[[4,5],2]'
    /// Database.jsonExtract(#"{"a":2,"c":[4,5]}"#, atPaths: ["$.c", "$.a"])
    /// ```
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - paths: JSON paths, such as `'$.a'`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jex>
    public static func jsonExtract(
        _ value: some SQLExpressible,
        atPaths paths: some Collection<some SQLExpressible>) -> SQLExpression
    {
        .function("JSON_EXTRACT", [value.sqlExpression] + paths.map(\.sqlExpression))
    }

    /// The type of a JSON value (`'null'`, `'true'`, `'false'`,
    /// `'integer'`, `'real'`, `'text'`, `'array'` or `'object'`), with the
    /// `JSON_TYPE` function of SQLite.
    ///
    /// ```swift
    /// // JSON_TYPE('{"a":[2,3.5,true,false,null,"x"]}') → 'object'
    /// Database.jsonType(#"{"a":[2,3.5,true,false,null,"x"]}"#)
    /// ```
    ///
    /// - Parameter value: A JSON value.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jtype>
    public static func jsonType(_ value: some SQLExpressible) -> SQLExpression {
        .function("JSON_TYPE", [value.sqlExpression])
    }

    /// The type of the JSON value at a path (NULL when the path does not
    /// exist), with the `JSON_TYPE` function of SQLite.
    ///
    /// ```swift
    /// // JSON_TYPE('{"a":[2,3.5,true,false,null,"x"]}', '$.a') → 'array'
    /// Database.jsonType(#"{"a":[2,3.5,true,false,null,"x"]}"#, atPath: "$.a")
    /// ```
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - path: A JSON path, such as `'$.a'`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jtype>
    public static func jsonType(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        .function("JSON_TYPE", [value.sqlExpression, path.sqlExpression])
    }

    /// Whether a value is well-formed JSON text (1) or not (0), with the
    /// `JSON_VALID` function of SQLite. NULL gives NULL.
    ///
    /// ```swift
    /// // JSON_VALID('{"x":35') → 0
    /// Database.jsonIsValid(#"{"x":35"#)
    /// ```
    ///
    /// - Parameter value: The tested value.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jvalid>
    public static func jsonIsValid(_ value: some SQLExpressible) -> SQLExpression {
        .function("JSON_VALID", [value.sqlExpression])
    }

    // MARK: - Modifying JSON

    /// A JSON value with values inserted at paths that do not exist yet,
    /// with the `JSON_INSERT` function of SQLite. Existing values are
    /// left unchanged.
    ///
    /// ```swift
    /// // JSON_INSERT('[1,2,3,4]', '$[#]', 99) → '[1,2,3,4,99]'
    /// Database.jsonInsert("[1,2,3,4]", ["$[#]": 99])
    /// ```
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - assignments: Pairs of a JSON path and a value. A string is
    ///     stored as a JSON string, unless it is a JSON value (see
    ///     ``SQLJSONExpressible``) or the result of a JSON function.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jins>
    public static func jsonInsert(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        jsonEdit("JSON_INSERT", value, assignments)
    }

    /// A JSON value with the values at existing paths replaced, with the
    /// `JSON_REPLACE` function of SQLite. Paths that do not exist are
    /// ignored.
    ///
    /// ```swift
    /// // JSON_REPLACE('{"a":2,"c":4}', '$.a', 99) → '{"a":99,"c":4}'
    /// Database.jsonReplace(#"{"a":2,"c":4}"#, ["$.a": 99])
    /// ```
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - assignments: Pairs of a JSON path and a value. A string is
    ///     stored as a JSON string, unless it is a JSON value (see
    ///     ``SQLJSONExpressible``) or the result of a JSON function.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jins>
    public static func jsonReplace(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        jsonEdit("JSON_REPLACE", value, assignments)
    }

    /// A JSON value with values set at paths, created or replaced, with
    /// the `JSON_SET` function of SQLite.
    ///
    /// ```swift
    /// // JSON_SET('{"a":2,"c":4}', '$.a', 99) → '{"a":99,"c":4}'
    /// Database.jsonSet(#"{"a":2,"c":4}"#, ["$.a": 99])
    /// ```
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - assignments: Pairs of a JSON path and a value. A string is
    ///     stored as a JSON string, unless it is a JSON value (see
    ///     ``SQLJSONExpressible``) or the result of a JSON function.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jins>
    public static func jsonSet(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        jsonEdit("JSON_SET", value, assignments)
    }

    /// A JSON value merged with a patch, with the `JSON_PATCH` function of
    /// SQLite (the MergePatch algorithm of RFC 7396: `null` in the patch
    /// removes a member).
    ///
    /// ```swift
    /// // JSON_PATCH('{"a":1,"b":2}', '{"c":3,"d":4}') → '{"a":1,"b":2,"c":3,"d":4}'
    /// Database.jsonPatch(#"{"a":1,"b":2}"#, with: #"{"c":3,"d":4}"#)
    /// ```
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - patch: A JSON value.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jpatch>
    public static func jsonPatch(_ value: some SQLExpressible, with patch: some SQLExpressible) -> SQLExpression {
        .jsonFunction("JSON_PATCH", [value.sqlExpression, patch.sqlExpression])
    }

    /// A JSON value without the element at a path, with the `JSON_REMOVE`
    /// function of SQLite.
    ///
    /// ```swift
    /// // JSON_REMOVE('[0,1,2,3,4]', '$[2]') → '[0,1,3,4]'
    /// Database.jsonRemove("[0,1,2,3,4]", atPath: "$[2]")
    /// ```
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - path: A JSON path, such as `'$[2]'`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jrm>
    public static func jsonRemove(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        .jsonFunction("JSON_REMOVE", [value.sqlExpression, path.sqlExpression])
    }

    /// A JSON value without the elements at several paths, removed from
    /// left to right, with the `JSON_REMOVE` function of SQLite.
    ///
    /// ```swift
    /// // JSON_REMOVE('[0,1,2,3,4]', '$[2]', '$[0]') → '[1,3,4]'
    /// Database.jsonRemove("[0,1,2,3,4]", atPaths: ["$[2]", "$[0]"])
    /// ```
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - paths: JSON paths, such as `'$[2]'`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jrm>
    public static func jsonRemove(
        _ value: some SQLExpressible,
        atPaths paths: some Collection<some SQLExpressible>) -> SQLExpression
    {
        .jsonFunction("JSON_REMOVE", [value.sqlExpression] + paths.map(\.sqlExpression))
    }

    // MARK: - Aggregates

    /// The JSON array of the values of a group, with the
    /// `JSON_GROUP_ARRAY` aggregate function of SQLite.
    ///
    /// A string is stored as a JSON string, unless it is a JSON value (see
    /// ``SQLJSONExpressible``) or the result of a JSON function.
    ///
    /// ```swift
    /// // SELECT JSON_GROUP_ARRAY("name") FROM "player"
    /// Player.select(Database.jsonGroupArray(Column("name")))
    ///
    /// // SELECT JSON_GROUP_ARRAY("name") FILTER (WHERE "score" > 0) FROM "player"
    /// Player.select(Database.jsonGroupArray(Column("name"), filter: Column("score") > 0))
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value of each row.
    ///   - filter: When not nil, only the rows that match the condition
    ///     are in the array (`FILTER (WHERE condition)`).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jgrouparray>
    public static func jsonGroupArray(
        _ value: some SQLExpressible,
        filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression
    {
        jsonAggregate("JSON_GROUP_ARRAY", [value.jsonArgument], filter: filter)
    }

    /// The JSON object of the keys and values of a group, with the
    /// `JSON_GROUP_OBJECT` aggregate function of SQLite.
    ///
    /// A string value is stored as a JSON string, unless it is a JSON
    /// value (see ``SQLJSONExpressible``) or the result of a JSON function.
    ///
    /// ```swift
    /// // SELECT JSON_GROUP_OBJECT("name", "score") FROM "player"
    /// Player.select(Database.jsonGroupObject(key: Column("name"), value: Column("score")))
    ///
    /// // SELECT JSON_GROUP_OBJECT("name", "score") FILTER (WHERE "score" > 0) FROM "player"
    /// Player.select(Database.jsonGroupObject(key: Column("name"), value: Column("score"), filter: Column("score") > 0))
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key of each row.
    ///   - value: The value of each row.
    ///   - filter: When not nil, only the rows that match the condition
    ///     are in the object (`FILTER (WHERE condition)`).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jgrouparray>
    public static func jsonGroupObject(
        key: some SQLExpressible,
        value: some SQLExpressible,
        filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression
    {
        jsonAggregate("JSON_GROUP_OBJECT", [key.sqlExpression, value.jsonArgument], filter: filter)
    }

    // MARK: - Helpers

    /// `NAME(value, path1, value1, path2, value2...)`, whose values are
    /// JSON builder arguments.
    private static func jsonEdit(
        _ name: String,
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        .jsonFunction(name, [value.sqlExpression] + assignments.flatMap { [$0.key.sqlExpression, $0.value.jsonArgument] })
    }

    /// An aggregate JSON function, with an optional filter clause.
    private static func jsonAggregate(
        _ name: String,
        _ arguments: [SQLExpression],
        filter: (any SQLSpecificExpressible)?) -> SQLExpression
    {
        let function = SQLExpression.jsonFunction(name, arguments, isAggregate: true)
        guard let filter else { return function }
        return SQLExpression(impl: .filtered(function, filter: filter.sqlExpression), jsonInterpretation: .jsonResult)
    }
}
