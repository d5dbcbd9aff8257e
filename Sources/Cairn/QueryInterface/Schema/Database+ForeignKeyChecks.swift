// Foreign key checks: the rows whose foreign keys refer to missing rows,
// from PRAGMA foreign_key_check. Useful when foreign keys were disabled
// while the data changed (migrations do so, then check).

extension Database {
    /// Returns a cursor over the foreign key violations of the database: the
    /// rows whose foreign key refers to a row that does not exist.
    ///
    /// ```swift
    /// let violations = try db.foreignKeyViolations()
    /// while let violation = try violations.next() {
    ///     print(violation) // FOREIGN KEY constraint violation - from player to team, in rowid 1
    /// }
    /// ```
    ///
    /// Violations can exist when foreign keys are not enforced
    /// (``Configuration/foreignKeysEnabled`` is false, `PRAGMA foreign_keys
    /// = OFF`, or a deferred constraint before the commit).
    ///
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_foreign_key_check>
    public func foreignKeyViolations() throws -> RecordCursor<ForeignKeyViolation> {
        try ForeignKeyViolation.fetchCursor(self, sql: "PRAGMA foreign_key_check")
    }

    /// Returns a cursor over the foreign key violations of a table: its rows
    /// whose foreign key refers to a row that does not exist.
    ///
    /// ```swift
    /// let violations = try Array(db.foreignKeyViolations(in: "player"))
    /// ```
    ///
    /// - Parameters:
    ///   - tableName: The table.
    ///   - schemaName: A schema name ("main", "temp", or an attached
    ///     database); nil searches the temp schema, then main, then attached
    ///     databases.
    /// - Throws: A ``DatabaseError`` when the schema or the table does not
    ///   exist.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_foreign_key_check>
    public func foreignKeyViolations(
        in tableName: String,
        in schemaName: String? = nil) throws -> RecordCursor<ForeignKeyViolation>
    {
        guard try tableExists(tableName, in: schemaName) else {
            throw makeError(resultCode: .SQLITE_ERROR, message: "no such table: \(tableName)", sql: nil, arguments: nil)
        }
        let schema = schemaName.map { $0.quotedDatabaseIdentifier + "." } ?? ""
        return try ForeignKeyViolation.fetchCursor(
            self, sql: "PRAGMA \(schema)foreign_key_check(\(tableName.quotedDatabaseIdentifier))")
    }

    /// Throws an error when the database has a foreign key violation.
    ///
    /// ```swift
    /// try db.execute(sql: "PRAGMA foreign_keys = OFF")
    /// // ... change the data ...
    /// try db.checkForeignKeys()
    /// try db.execute(sql: "PRAGMA foreign_keys = ON")
    /// ```
    ///
    /// The error describes the first violation (see
    /// ``ForeignKeyViolation/databaseError(_:)``). Use
    /// ``foreignKeyViolations()`` to get them all.
    ///
    /// - Throws: A ``DatabaseError`` of extended code
    ///   `SQLITE_CONSTRAINT_FOREIGNKEY` for the first violation, or the
    ///   error of the check.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_foreign_key_check>
    public func checkForeignKeys() throws {
        try checkForeignKeys(from: foreignKeyViolations())
    }

    /// Throws an error when a table has a foreign key violation.
    ///
    /// ```swift
    /// try db.checkForeignKeys(in: "player")
    /// ```
    ///
    /// - Parameters:
    ///   - tableName: The table.
    ///   - schemaName: A schema name; nil searches the temp schema, then
    ///     main, then attached databases.
    /// - Throws: A ``DatabaseError`` of extended code
    ///   `SQLITE_CONSTRAINT_FOREIGNKEY` for the first violation; a
    ///   ``DatabaseError`` when the schema or the table does not exist.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_foreign_key_check>
    public func checkForeignKeys(in tableName: String, in schemaName: String? = nil) throws {
        try checkForeignKeys(from: foreignKeyViolations(in: tableName, in: schemaName))
    }

    private func checkForeignKeys(from violations: RecordCursor<ForeignKeyViolation>) throws {
        guard let violation = try violations.next() else { return }
        throw violation.databaseError(self)
    }
}
