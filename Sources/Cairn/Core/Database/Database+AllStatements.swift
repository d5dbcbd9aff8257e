// The statements of an SQL string, one after the other: see SQLStatementCursor.

extension Database {
    /// Returns a cursor over the statements of an SQL string, which prepares
    /// them one after the other, as it advances.
    ///
    /// ```swift
    /// let statements = try db.allStatements(sql: """
    ///     INSERT INTO player (name) VALUES (?);
    ///     INSERT INTO player (name) VALUES (?);
    ///     """, arguments: ["Arthur", "Barbara"])
    /// while let statement = try statements.next() {
    ///     try statement.execute()
    /// }
    /// ```
    ///
    /// Use it to run statements one by one, or to fetch from several
    /// statements (`Row.fetchAll(statement)`).
    ///
    /// - Parameters:
    ///   - sql: SQL statements separated by semicolons.
    ///   - arguments: The arguments that the statements consume, statement
    ///     after statement (positional values in order, named values by
    ///     name); nil gives no arguments to the statements.
    /// - Returns: A ``SQLStatementCursor``.
    /// - Throws: A ``DatabaseError`` when the connection is closed; the
    ///   errors of the statements are thrown by the cursor.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/prepare.html>
    public func allStatements(sql: String, arguments: StatementArguments? = nil) throws -> SQLStatementCursor {
        preconditionInsideAccess()
        guard !isClosed else {
            throw DatabaseError.connectionIsClosed()
        }
        return SQLStatementCursor(database: self, sql: sql, arguments: arguments)
    }

    /// Returns a cursor over the statements of an SQL literal, which prepares
    /// them one after the other, as it advances. Interpolated values become
    /// the arguments of the statements.
    ///
    /// ```swift
    /// let statements = try db.allStatements(literal: """
    ///     INSERT INTO player (name) VALUES (\("Arthur"));
    ///     INSERT INTO player (name) VALUES (\("O'Brien"));
    ///     """)
    /// while let statement = try statements.next() {
    ///     try statement.execute()
    /// }
    /// ```
    ///
    /// Interpolate all the values, or none of them: in a literal without
    /// values, the statements have no arguments, and the `?` parameters get
    /// their values when the statements are executed.
    ///
    /// - Parameter sqlLiteral: An ``SQL`` literal.
    /// - Returns: A ``SQLStatementCursor``.
    /// - Throws: A ``DatabaseError`` when the literal cannot be built (a
    ///   table name that is not known, for instance) or the connection is
    ///   closed; the errors of the statements are thrown by the cursor.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/prepare.html>
    public func allStatements(literal sqlLiteral: SQL) throws -> SQLStatementCursor {
        let (sql, arguments) = try sqlLiteral.build(self)
        return try allStatements(sql: sql, arguments: arguments.isEmpty ? nil : arguments)
    }
}
