// The members of the database cursors that GRDB declares with an
// underscore, for its companion libraries: the statement, whether the
// iteration is over, and the element of the current row. They read and
// change the same state as `next()`, with the same checks.

extension DatabaseCursorState {
    /// Ends the iteration: later steps return nil. The statement is reset
    /// when the cursor was still running (see ``finish()``).
    @usableFromInline
    mutating func markDone() {
        finish()
        if phase != .failed { phase = .done }
    }

    /// Checks that the cursor stands on a row of `sqliteStatement`, its own
    /// statement, in the access that created it.
    ///
    /// - Throws: A ``DatabaseError`` (`SQLITE_MISUSE`) when the cursor has
    ///   no current row (it did not step yet, or it is done), or when the
    ///   statement is not the cursor's.
    @usableFromInline
    func checkCurrentRow(of sqliteStatement: SQLiteStatement) throws {
        guard sqliteStatement == self.sqliteStatement else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "the statement is not the one that the cursor iterates", sql: statement.sql)
        }
        guard phase == .running else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "the cursor has no current row: call next() first, and not after it returned nil",
                sql: statement.sql)
        }
        if !accessIsCurrent { stopUsedOutsideAccess(.cursor) }
    }
}

extension RowCursor {
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

    /// The row that the last successful ``next()`` returned: the reused row
    /// of the cursor, a view on the current row of the statement.
    ///
    /// - Parameter sqliteStatement: The cursor's statement
    ///   (`_statement.sqliteStatement`).
    /// - Throws: A ``DatabaseError`` (`SQLITE_MISUSE`) when the cursor has no
    ///   current row, or the statement is not the cursor's.
    /// - Note: This method exists for the companion libraries of GRDB.
    public func _element(sqliteStatement: SQLiteStatement) throws -> Row {
        try storage.state.checkCurrentRow(of: sqliteStatement)
        return row
    }
}

extension DatabaseValueCursor {
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

    /// The value of the current row, as the last successful ``next()``
    /// returned it.
    ///
    /// - Parameter sqliteStatement: The cursor's statement
    ///   (`_statement.sqliteStatement`).
    /// - Throws: A ``DatabaseError`` (`SQLITE_MISUSE`) when the cursor has no
    ///   current row, or the statement is not the cursor's; a
    ///   ``RowDecodingError`` when the value does not convert to `Value`.
    /// - Note: This method exists for the companion libraries of GRDB.
    public func _element(sqliteStatement: SQLiteStatement) throws -> Value {
        try storage.state.checkCurrentRow(of: sqliteStatement)
        let dbValue = DatabaseValue(sqliteStatement: sqliteStatement, index: column)
        if let value = Value.fromDatabaseValue(dbValue) {
            return value
        }
        throw conversionError()
    }
}

extension FastDatabaseValueCursor {
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

    /// The value of the current row, as the last successful ``next()``
    /// returned it.
    ///
    /// - Parameter sqliteStatement: The cursor's statement
    ///   (`_statement.sqliteStatement`).
    /// - Throws: A ``DatabaseError`` (`SQLITE_MISUSE`) when the cursor has no
    ///   current row, or the statement is not the cursor's; a
    ///   ``RowDecodingError`` when the value does not convert to `Value`.
    /// - Note: This method exists for the companion libraries of GRDB.
    public func _element(sqliteStatement: SQLiteStatement) throws -> Value {
        try storage.state.checkCurrentRow(of: sqliteStatement)
        if let value = Value.fromStatement(sqliteStatement, atUncheckedIndex: column) {
            return value
        }
        throw conversionError()
    }
}
