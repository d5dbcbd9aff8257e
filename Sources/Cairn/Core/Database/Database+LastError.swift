// The result code of the last failed call on the connection.

extension Database {
    /// The extended result code of the last call on the connection that
    /// failed, such as `SQLITE_CONSTRAINT_UNIQUE`; `SQLITE_MISUSE` once the
    /// connection is closed. Read it right after the failure: after a call
    /// that succeeds, SQLite does not specify the code (`SQLITE_OK`, or
    /// `SQLITE_DONE` after a statement that completed).
    ///
    /// ```swift
    /// if sqlite3_exec(db.sqliteConnection, "...", nil, nil, nil) != SQLITE_OK {
    ///     throw DatabaseError(resultCode: db.lastErrorCode, message: db.lastErrorMessage)
    /// }
    /// ```
    ///
    /// It is mostly useful with the C interface: the methods of Cairn throw
    /// a ``DatabaseError`` that carries the code.
    ///
    /// The corresponding C function is `sqlite3_extended_errcode`.
    public var lastErrorCode: ResultCode {
        preconditionInsideAccess()
        guard let sqliteConnection else { return .SQLITE_MISUSE }
        return ResultCode(rawValue: sqlite3_extended_errcode(sqliteConnection))
    }
}
