// The version of the SQLite library, and the limits of a connection.

extension Database {
    /// The version of the SQLite library, as a number: 3051000 for 3.51.0.
    ///
    /// ```swift
    /// if Database.sqliteLibVersionNumber >= 3_038_000 {
    ///     // The ->> operator is available.
    /// }
    /// ```
    ///
    /// The corresponding C function is `sqlite3_libversion_number`.
    public static var sqliteLibVersionNumber: CInt {
        sqlite3_libversion_number()
    }

    /// The largest number of arguments (`?` parameters) a statement of this
    /// connection can have (`SQLITE_LIMIT_VARIABLE_NUMBER`).
    ///
    /// ```swift
    /// let count = try dbQueue.read { $0.maximumStatementArgumentCount }
    /// ```
    ///
    /// The corresponding C function is `sqlite3_limit`.
    public var maximumStatementArgumentCount: Int {
        preconditionInsideAccess()
        guard let sqliteConnection else { return 0 }
        return Int(sqlite3_limit(sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
    }
}

/// A list of `count` question marks separated by commas, for building SQL
/// with as many arguments: `"?,?,?"` for 3.
///
/// ```swift
/// let ids = [1, 2, 3]
/// let sql = "DELETE FROM player WHERE id IN (\(databaseQuestionMarks(count: ids.count)))"
/// try db.execute(sql: sql, arguments: StatementArguments(ids))
/// ```
///
/// - Parameter count: The number of question marks (0 gives an empty
///   string).
public func databaseQuestionMarks(count: Int) -> String {
    Array(repeating: "?", count: Swift.max(count, 0)).joined(separator: ",")
}
