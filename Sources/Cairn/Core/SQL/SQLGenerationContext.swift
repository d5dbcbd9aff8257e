import Foundation

/// Collects the arguments of the SQL that expressions and literals render.
///
/// Values are always rendered as `?` and appended to the arguments, in the
/// order they appear in the SQL.
final class SQLGenerationContext {
    /// The connection (some renderings need the schema).
    let db: Database

    /// The arguments collected so far.
    private(set) var arguments = StatementArguments()

    /// The number of `IN (SELECT +value FROM cairn_values(?))` subqueries
    /// rendered so far (long lists of values, see `DatabaseValueArray`):
    /// they read no table, and do not make a request read other rows.
    var arraySubqueryCount = 0

    /// Whether values are written as SQL literals instead of `?`: schema
    /// statements (CREATE TABLE, CREATE VIEW…) cannot have parameters.
    let inlinesArguments: Bool

    /// The name that qualifies the unqualified columns of the expressions
    /// being rendered, or nil to leave them unqualified.
    ///
    /// A request that joins several tables sets it while it renders the
    /// parts of each table (`"book"."title"`), and restores it afterwards,
    /// so that a subquery renders its own columns with its own qualifier.
    var defaultQualifier: String?

    /// The names that table aliases resolve to in the query being rendered,
    /// keyed by the identity of the alias (see `TableAlias`).
    var aliasNames: [ObjectIdentifier: String] = [:]

    /// The table aliases without name of a request whose columns are not
    /// qualified (one table, no join): their columns render unqualified.
    var unqualifiedAliases: Set<ObjectIdentifier> = []

    /// The names of the tables that the relation being rendered joins, at
    /// any depth, keyed by their path of association keys (joined with
    /// ``joinedTablePathSeparator``): association aggregates refer to the
    /// joined table through its path (`COUNT(DISTINCT "book"."id")`).
    var joinedTableNames: [String: String] = [:]

    /// The table whose parts are being rendered, for selections that need
    /// its columns (`allColumns(excluding:)`).
    var currentTableName: String?

    /// The lowercased names of the common table expressions that the
    /// current SQL literal (or subquery) defines with
    /// `\(definitionFor:)`: a name defined twice is an error.
    var definedCTENames: Set<String> = []

    /// Separates the keys of a path in ``joinedTableNames``.
    static let joinedTablePathSeparator = "\u{1F}"

    /// Runs `body` with another default qualifier, and restores the
    /// current one.
    func withDefaultQualifier<T>(_ qualifier: String?, _ body: () throws -> T) rethrows -> T {
        let saved = defaultQualifier
        defaultQualifier = qualifier
        defer { defaultQualifier = saved }
        return try body()
    }

    init(_ db: Database, inlinesArguments: Bool = false) {
        self.db = db
        self.inlinesArguments = inlinesArguments
    }

    /// Appends a value, and returns its SQL: `?`, or an SQL literal when
    /// arguments are inlined.
    func append(argument: DatabaseValue) -> String {
        if inlinesArguments {
            return argument.sqlLiteral
        }
        arguments.values.append(argument)
        return "?"
    }

    /// Appends the arguments of raw SQL.
    ///
    /// - Throws: A ``DatabaseError`` when a named argument already has a
    ///   value.
    func append(arguments newArguments: StatementArguments) throws {
        if inlinesArguments && !newArguments.isEmpty {
            throw db.makeError(
                resultCode: .SQLITE_MISUSE,
                message: "raw SQL with arguments cannot be used in a schema statement, which has no parameters: "
                    + "interpolate the values in an SQL literal instead",
                sql: nil, arguments: nil)
        }
        let replaced = arguments.append(contentsOf: newArguments)
        if !replaced.isEmpty {
            throw db.makeError(
                resultCode: .SQLITE_MISUSE,
                message: "the named argument(s) \(replaced.keys.sorted()) are defined more than once",
                sql: nil, arguments: nil)
        }
    }
}

extension DatabaseValue {
    /// The value as an SQL literal: `NULL`, `42`, `1.5`, `'O''Brien'`,
    /// `X'0102'`.
    var sqlLiteral: String {
        switch storage {
        case .null:
            return "NULL"
        case .int64(let int64):
            return String(int64)
        case .double(let double):
            if double.isNaN { return "NULL" }
            if double.isInfinite { return double < 0 ? "-9e999" : "9e999" }
            return String(double)
        case .string(let string):
            return "'" + string.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data):
            return "X'" + data.map { byte in
                let hex = String(byte, radix: 16, uppercase: true)
                return byte < 16 ? "0" + hex : hex
            }.joined() + "'"
        }
    }
}
