// SQL functions and aggregates of the query interface.

/// `ABS(value)`.
public func abs(_ value: some SQLSpecificExpressible) -> SQLExpression {
    .function("ABS", [value.sqlExpression])
}

/// `LENGTH(value)`: the number of characters of a string, or of bytes of
/// a blob.
public func length(_ value: some SQLSpecificExpressible) -> SQLExpression {
    .function("LENGTH", [value.sqlExpression])
}

/// `AVG(value)`: the average of the non-NULL values of a group.
public func average(_ value: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("AVG", [value.sqlExpression])
}

/// `COUNT(value)`: the number of non-NULL values of a group.
///
/// ```swift
/// // SELECT COUNT("email") FROM "player"
/// let request = Player.select(count(Column("email")))
/// ```
public func count(_ value: some SQLSelectable) -> SQLExpression {
    if case .allColumns = value.sqlSelection.impl {
        return SQLExpression(impl: .countAll)
    }
    switch value.sqlSelection.impl {
    case .expression(let expression), .aliased(let expression, _):
        return .aggregate("COUNT", [expression])
    case .literal(let sql):
        return .aggregate("COUNT", [.literal(sql)])
    case .allColumns, .allColumnsExcluding, .primaryKey, .deferred:
        return SQLExpression(impl: .countAll)
    }
}

/// `COUNT(DISTINCT value)`: the number of distinct non-NULL values of a
/// group.
public func count(distinct value: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("COUNT", [value.sqlExpression], isDistinct: true)
}

/// `MAX(value)`: the largest value of a group.
public func max(_ value: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("MAX", [value.sqlExpression])
}

/// `MIN(value)`: the smallest value of a group.
public func min(_ value: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("MIN", [value.sqlExpression])
}

/// `SUM(value)`: the sum of the non-NULL values of a group, NULL when there
/// is none.
public func sum(_ value: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("SUM", [value.sqlExpression])
}

/// `TOTAL(value)`: the sum of the non-NULL values of a group, as a double,
/// 0.0 when there is none.
public func total(_ value: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("TOTAL", [value.sqlExpression])
}

// MARK: - Aggregates with a filter

/// `name(value) FILTER (WHERE filter)`: an aggregate of the rows of a group
/// that satisfy a condition.
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_aggfunc.html#aggfilter>
private func filteredAggregate(
    _ name: String,
    _ value: some SQLSpecificExpressible,
    filter: some SQLSpecificExpressible) -> SQLExpression
{
    SQLExpression(impl: .filtered(.aggregate(name, [value.sqlExpression]), filter: filter.sqlExpression))
}

/// `AVG(value) FILTER (WHERE filter)`: the average of the non-NULL values of
/// the rows of a group that satisfy a condition.
///
/// ```swift
/// // SELECT AVG("score") FILTER (WHERE "isActive") FROM "player"
/// let request = Player.select(average(Column("score"), filter: Column("isActive")))
/// ```
///
/// - Parameters:
///   - value: The averaged value.
///   - filter: The condition of the rows that count.
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_aggfunc.html#aggfilter>
public func average(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    filteredAggregate("AVG", value, filter: filter)
}

/// `MAX(value) FILTER (WHERE filter)`: the largest value of the rows of a
/// group that satisfy a condition.
///
/// ```swift
/// // SELECT MAX("score") FILTER (WHERE "teamId" = ?) FROM "player"
/// let request = Player.select(max(Column("score"), filter: Column("teamId") == 1))
/// ```
///
/// - Parameters:
///   - value: The compared value.
///   - filter: The condition of the rows that count.
public func max(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    filteredAggregate("MAX", value, filter: filter)
}

/// `MIN(value) FILTER (WHERE filter)`: the smallest value of the rows of a
/// group that satisfy a condition.
///
/// - Parameters:
///   - value: The compared value.
///   - filter: The condition of the rows that count.
public func min(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    filteredAggregate("MIN", value, filter: filter)
}

/// `SUM(value) FILTER (WHERE filter)`: the sum of the non-NULL values of the
/// rows of a group that satisfy a condition, NULL when there is none.
///
/// - Parameters:
///   - value: The summed value.
///   - filter: The condition of the rows that count.
public func sum(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    filteredAggregate("SUM", value, filter: filter)
}

/// `TOTAL(value) FILTER (WHERE filter)`: the sum of the non-NULL values of
/// the rows of a group that satisfy a condition, as a double, 0.0 when
/// there is none.
///
/// - Parameters:
///   - value: The summed value.
///   - filter: The condition of the rows that count.
public func total(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    filteredAggregate("TOTAL", value, filter: filter)
}

// MARK: - Scalar minimum and maximum

/// `MAX(a, b, ...)`: the largest of several values (the scalar function,
/// not the aggregate), NULL if one of them is NULL.
///
/// ```swift
/// // SELECT MAX("score", "bonus", ?) FROM "player"
/// let request = Player.select(max(Column("score"), Column("bonus"), 0))
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_corefunc.html#max_scalar>
public func max(
    _ value1: any SQLSpecificExpressible,
    _ value2: any SQLExpressible,
    _ values: any SQLExpressible...) -> SQLExpression
{
    .function("MAX", [value1.sqlExpression, value2.sqlExpression] + values.map(\.sqlExpression))
}

/// `MIN(a, b, ...)`: the smallest of several values (the scalar function,
/// not the aggregate), NULL if one of them is NULL.
///
/// ```swift
/// // SELECT MIN("score", ?) FROM "player"
/// let request = Player.select(min(Column("score"), 100))
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_corefunc.html#min_scalar>
public func min(
    _ value1: any SQLSpecificExpressible,
    _ value2: any SQLExpressible,
    _ values: any SQLExpressible...) -> SQLExpression
{
    .function("MIN", [value1.sqlExpression, value2.sqlExpression] + values.map(\.sqlExpression))
}

/// `COALESCE(a, b, ...)`: the first non-NULL value.
///
/// ```swift
/// coalesce([Column("nickname"), Column("name"), "anonymous"])
/// ```
public func coalesce(_ values: some Collection<any SQLExpressible>) -> SQLExpression {
    .function("COALESCE", values.map(\.sqlExpression))
}

/// `CAST(value AS type)`.
///
/// ```swift
/// cast(Column("score"), as: .real)   // CAST("score" AS REAL)
/// ```
public func cast(_ value: some SQLSpecificExpressible, as type: Database.ColumnType) -> SQLExpression {
    SQLExpression(impl: .cast(value.sqlExpression, type.rawValue))
}

extension SQLSpecificExpressible {
    /// `swiftLowercaseString(value)`: the value lowercased by Swift's
    /// `String.lowercased()`, all letters included (SQLite's `LOWER`
    /// changes ASCII letters only). NULL for values that are not text.
    public var lowercased: SQLExpression {
        DatabaseFunction.lowercase(self)
    }

    /// `swiftUppercaseString(value)`: the value uppercased by Swift's
    /// `String.uppercased()`, all letters included (SQLite's `UPPER`
    /// changes ASCII letters only). NULL for values that are not text.
    public var uppercased: SQLExpression {
        DatabaseFunction.uppercase(self)
    }

    /// `IFNULL(value, other)`: the value, or `other` when it is NULL.
    public func ifNull(_ other: some SQLExpressible) -> SQLExpression {
        .function("IFNULL", [sqlExpression, other.sqlExpression])
    }
}

extension Database {
    /// A column type, as used in `CREATE TABLE` and `CAST`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/datatype3.html>
    public struct ColumnType: RawRepresentable, Hashable, Sendable {
        /// The SQL of the type.
        public let rawValue: String

        /// Creates a column type.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// `TEXT`.
        public static let text = ColumnType(rawValue: "TEXT")
        /// `INTEGER`.
        public static let integer = ColumnType(rawValue: "INTEGER")
        /// `DOUBLE`.
        public static let double = ColumnType(rawValue: "DOUBLE")
        /// `REAL`.
        public static let real = ColumnType(rawValue: "REAL")
        /// `NUMERIC`.
        public static let numeric = ColumnType(rawValue: "NUMERIC")
        /// `BOOLEAN`.
        public static let boolean = ColumnType(rawValue: "BOOLEAN")
        /// `BLOB`.
        public static let blob = ColumnType(rawValue: "BLOB")
        /// `DATE`.
        public static let date = ColumnType(rawValue: "DATE")
        /// `DATETIME`.
        public static let datetime = ColumnType(rawValue: "DATETIME")
        /// `ANY` (STRICT tables).
        public static let any = ColumnType(rawValue: "ANY")
        /// `JSON` (stored as text).
        public static let json = ColumnType(rawValue: "JSON")
    }
}

extension DatabaseFunction {
    /// A call of the function, as an SQL expression.
    ///
    /// ```swift
    /// let reverse = DatabaseFunction("reverse", argumentCount: 1, pure: true) { ... }
    /// // SELECT reverse("name") FROM "player"
    /// let request = Player.select(reverse(Column("name")))
    /// ```
    public func callAsFunction(_ arguments: any SQLExpressible...) -> SQLExpression {
        switch kind {
        case .function:
            return .function(name, arguments.map(\.sqlExpression))
        case .aggregate:
            return .aggregate(name, arguments.map(\.sqlExpression))
        }
    }
}

extension SQLSpecificExpressible {
    /// The Unicode-aware capitalization of the value, with
    /// ``DatabaseFunction/capitalize``.
    ///
    /// ```swift
    /// // SELECT swiftCapitalizedString("name") FROM "player"
    /// let names = try Player.select(Column("name").capitalized, as: String.self).fetchAll(db)
    /// ```
    public var capitalized: SQLExpression {
        DatabaseFunction.capitalize(self)
    }

    /// The capitalization of the value in the current locale, with
    /// ``DatabaseFunction/localizedCapitalize``.
    public var localizedCapitalized: SQLExpression {
        DatabaseFunction.localizedCapitalize(self)
    }

    /// The lowercase of the value in the current locale, with
    /// ``DatabaseFunction/localizedLowercase``.
    public var localizedLowercased: SQLExpression {
        DatabaseFunction.localizedLowercase(self)
    }

    /// The uppercase of the value in the current locale, with
    /// ``DatabaseFunction/localizedUppercase``.
    public var localizedUppercased: SQLExpression {
        DatabaseFunction.localizedUppercase(self)
    }
}
