/// Collects the arguments of the SQL that expressions and literals render.
///
/// Values are always rendered as `?` and appended to the arguments, in the
/// order they appear in the SQL.
final class SQLGenerationContext {
    /// The connection (some renderings need the schema).
    let db: Database

    /// The arguments collected so far.
    private(set) var arguments = StatementArguments()

    init(_ db: Database) {
        self.db = db
    }

    /// Appends a value, and returns its SQL: `?`.
    func append(argument: DatabaseValue) -> String {
        arguments.values.append(argument)
        return "?"
    }

    /// Appends the arguments of raw SQL.
    ///
    /// - Throws: A ``DatabaseError`` when a named argument already has a
    ///   value.
    func append(arguments newArguments: StatementArguments) throws {
        let replaced = arguments.append(contentsOf: newArguments)
        if !replaced.isEmpty {
            throw db.makeError(
                resultCode: .SQLITE_MISUSE,
                message: "the named argument(s) \(replaced.keys.sorted()) are defined more than once",
                sql: nil, arguments: nil)
        }
    }
}
