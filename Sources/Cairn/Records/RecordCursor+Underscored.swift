// The members of RecordCursor that GRDB declares with an underscore, for
// its companion libraries (see DatabaseCursor+Underscored.swift).

extension RecordCursor {
    /// The statement that the cursor iterates (``statement``).
    ///
    /// - Note: This property exists for the companion libraries of GRDB.
    public var _statement: Statement { storage.state.statement }

    /// Whether the iteration is over: once true, ``next()`` returns nil.
    ///
    /// Setting it to true ends the iteration and resets the statement;
    /// setting it to false does nothing (a cursor does not start again).
    ///
    /// - Note: This property exists for the companion libraries of GRDB.
    public var _isDone: Bool {
        get { storage.state.isDone }
        set { if newValue { storage.state.markDone() } }
    }

    /// A record decoded from the current row, as the last successful
    /// ``next()`` did.
    ///
    /// - Parameter sqliteStatement: The cursor's statement
    ///   (`_statement.sqliteStatement`).
    /// - Throws: A ``DatabaseError`` (`SQLITE_MISUSE`) when the cursor has no
    ///   current row, or the statement is not the cursor's; the error of
    ///   ``FetchableRecord/init(row:)``.
    /// - Note: This method exists for the companion libraries of GRDB.
    public func _element(sqliteStatement: SQLiteStatement) throws -> Record {
        try storage.state.checkCurrentRow(of: sqliteStatement)
        return try Record(row: row)
    }
}
