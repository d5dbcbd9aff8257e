extension Database {
    // MARK: Preparing statements

    /// Prepares a statement.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "INSERT INTO player (name) VALUES (?)")
    /// try statement.execute(arguments: ["Arthur"])
    /// ```
    ///
    /// - Parameter sql: One SQL statement. Trailing semicolons, whitespace
    ///   and comments are allowed; a second statement is an error.
    /// - Returns: A new statement.
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, empty, or holds
    ///   several statements.
    ///
    /// The corresponding C function is `sqlite3_prepare_v3`.
    public func makeStatement(sql: String) throws -> Statement {
        try makeStatement(sql: sql, prepareFlags: 0)
    }

    /// Prepares a statement built with SQL interpolation: interpolated values
    /// become statement arguments.
    ///
    /// ```swift
    /// let name = "O'Brien"
    /// let statement = try db.makeStatement(literal: "SELECT * FROM player WHERE name = \(name)")
    /// statement.sql       // "SELECT * FROM player WHERE name = ?"
    /// statement.arguments // ["O'Brien"]
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, empty, or holds
    ///   several statements.
    public func makeStatement(literal sqlLiteral: SQL) throws -> Statement {
        let (sql, arguments) = try sqlLiteral.build(self)
        let statement = try makeStatement(sql: sql)
        if arguments.isEmpty {
            // The SQL may have parameters of its own (`WHERE id = ?`),
            // whose values come with the execution.
            statement.setArgumentsOnNextExecution(arguments)
        } else {
            try statement.setArguments(arguments)
        }
        return statement
    }

    /// Returns a prepared statement from the connection's cache, preparing
    /// and caching it the first time.
    ///
    /// Use it for statements that run often: preparing once saves the
    /// parsing of the SQL. When the cached statement is still running (a
    /// cursor iterates it), a new statement is returned instead, so that the
    /// cursor is not disturbed.
    ///
    /// ```swift
    /// let statement = try db.cachedStatement(sql: "INSERT INTO player (name) VALUES (?)")
    /// try statement.execute(arguments: ["Arthur"])
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, empty, or holds
    ///   several statements.
    public func cachedStatement(sql: String) throws -> Statement {
        try cachedStatement(sql: sql, kind: .explicit)
    }

    /// Returns a cached prepared statement built with SQL interpolation; its
    /// arguments are set.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, empty, or holds
    ///   several statements.
    public func cachedStatement(literal sqlLiteral: SQL) throws -> Statement {
        try cachedStatement(literal: sqlLiteral, kind: .explicit)
    }

    /// Returns a cached prepared statement of `kind` built with SQL
    /// interpolation; its arguments are set.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, empty, or holds
    ///   several statements.
    func cachedStatement(literal sqlLiteral: SQL, kind: StatementCache.Kind) throws -> Statement {
        let (sql, arguments) = try sqlLiteral.build(self)
        let statement = try cachedStatement(sql: sql, kind: kind)
        if arguments.isEmpty {
            // The SQL may have parameters of its own (`WHERE id = ?`),
            // whose values come with the execution.
            statement.setArgumentsOnNextExecution(arguments)
        } else {
            try statement.setArguments(arguments)
        }
        return statement
    }

    /// Returns a prepared statement that only Cairn uses, cached apart from
    /// the statements of ``cachedStatement(sql:)``: Cairn may leave its
    /// ``Statement/arguments`` undefined (see ``Statement/execute(values:in:)``).
    ///
    /// A statement that is running (a custom SQL function that runs the
    /// same SQL again while the statement executes) is not returned: a new
    /// statement is prepared instead.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, empty, or holds
    ///   several statements.
    func internalCachedStatement(sql: String) throws -> Statement {
        try cachedStatement(sql: sql, kind: .internal)
    }

    /// Removes the cached statements, so that they are finalized.
    public func clearStatementCache() {
        preconditionInsideAccess()
        removeCachedStatements()
    }

    /// Removes the cached statements, inside an access or when the
    /// connection closes or is deinitialized (nobody else uses it then).
    func removeCachedStatements() {
        let left = state.statementCache.removeAll()
        StatementCache.release(left)
        recordCaches = nil
    }

    func makeStatement(sql: String, prepareFlags: UInt32) throws -> Statement {
        var contiguousSQL = sql
        return try contiguousSQL.withUTF8 { buffer in
            var offset = 0
            let statement: Statement?
            do {
                statement = try prepareNextStatement(utf8: buffer, offset: &offset, prepareFlags: prepareFlags, statementIndex: 0)
            } catch let error as PreparationError {
                throw error.underlyingError
            }
            guard let statement else {
                throw makeError(resultCode: .SQLITE_MISUSE, message: "the SQL holds no statement", sql: sql, arguments: nil)
            }
            // Anything but whitespace and comments after the statement is
            // another statement, even one that cannot be prepared.
            let hasMoreStatements: Bool
            do {
                hasMoreStatements = try prepareNextStatement(
                    utf8: buffer, offset: &offset, prepareFlags: prepareFlags, statementIndex: 1) != nil
            } catch is PreparationError {
                hasMoreStatements = true
            }
            if hasMoreStatements {
                throw makeError(
                    resultCode: .SQLITE_MISUSE,
                    message: "Multiple statements found. To execute multiple statements, "
                        + "use Database.execute(sql:) or Database.allStatements(sql:) instead.",
                    sql: sql, arguments: nil)
            }
            return statement
        }
    }

    /// The error of a statement that cannot be prepared, and the number of
    /// statements prepared before it.
    struct PreparationError: Error {
        /// The error of SQLite, or of a Swift tokenizer that the statement
        /// needed.
        var underlyingError: any Error
        /// The message of SQLite's error.
        var message: String?
        var statementIndex: Int
    }

    /// Prepares the statements of an SQL string one after the other, and
    /// gives each to `body`, which returns false to stop.
    ///
    /// - Throws: A ``PreparationError``, or the error of `body`.
    func forEachStatement(
        sql: String,
        prepareFlags: UInt32 = 0,
        _ body: (Statement) throws -> Bool) throws
    {
        var sql = sql
        try sql.withUTF8 { buffer in
            var offset = 0
            var index = 0
            while let statement = try prepareNextStatement(
                utf8: buffer, offset: &offset, prepareFlags: prepareFlags, statementIndex: index)
            {
                index += 1
                guard try body(statement) else { break }
            }
        }
    }

    /// Prepares the first statement of the UTF-8 SQL `buffer` that starts at
    /// `offset`, and moves `offset` after it. Whitespace and comments are
    /// skipped.
    ///
    /// - Parameters:
    ///   - buffer: SQL statements separated by semicolons, in UTF-8.
    ///   - offset: Where the statement starts in `buffer`; moved after it.
    ///   - prepareFlags: `SQLITE_PREPARE_*` flags.
    ///   - statementIndex: The number of statements prepared from `buffer`
    ///     before this one, for the ``PreparationError``.
    /// - Returns: The statement, or nil when only whitespace and comments
    ///   remain.
    /// - Throws: A ``DatabaseError`` when the connection is closed, or a
    ///   ``PreparationError`` when the statement cannot be prepared.
    func prepareNextStatement(
        utf8 buffer: UnsafeBufferPointer<UInt8>,
        offset: inout Int,
        prepareFlags: UInt32,
        statementIndex: Int) throws -> Statement?
    {
        guard let sqliteConnection else {
            throw DatabaseError.connectionIsClosed()
        }
        preconditionInsideAccess()
        guard let base = buffer.baseAddress else { return nil }
        let start = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
        let end = start + buffer.count
        while offset < buffer.count {
            let current = start + offset
            var sqliteStatement: SQLiteStatement?
            var tail: UnsafePointer<CChar>?
            statementAnalysis.reset()
            callbackErrors.forget()
            let code = sqlite3_prepare_v3(
                sqliteConnection, current, CInt(end - current), prepareFlags, &sqliteStatement, &tail)
            guard code == SQLITE_OK else {
                // The tail is unreliable after an error: show the rest of the SQL.
                let databaseError = lastError(code: code, sql: Database.trimmedSQL(from: current, to: end))
                // A Swift tokenizer may fail while SQLite prepares a query
                // of its table.
                let underlyingError = callbackErrors.take().map {
                    callbackFailureError($0.error, disposition: $0.disposition, statement: nil, sqliteError: databaseError)
                }
                throw PreparationError(
                    underlyingError: underlyingError ?? databaseError,
                    message: databaseError.message,
                    statementIndex: statementIndex)
            }
            guard let tail, tail > current else {
                // No progress: nothing remains to prepare.
                if let sqliteStatement { sqlite3_finalize(sqliteStatement) }
                offset = buffer.count
                return nil
            }
            offset = tail - start
            // Whitespace and comments prepare to no statement.
            guard let sqliteStatement else { continue }
            return Statement(
                database: self, sqliteStatement: sqliteStatement,
                sql: Database.trimmedSQL(from: current, to: tail),
                analysis: statementAnalysis)
        }
        return nil
    }

    /// The SQL between two pointers, without surrounding whitespace and
    /// trailing semicolons.
    private static func trimmedSQL(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>) -> String {
        let buffer = UnsafeRawBufferPointer(start: start, count: end - start)
        let sql = String(decoding: buffer, as: UTF8.self)
        return sql.trimmingSQLWhitespace()
    }

    // MARK: Executing statements

    /// Executes one or several SQL statements, separated by semicolons.
    ///
    /// ```swift
    /// try db.execute(sql: """
    ///     CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT);
    ///     INSERT INTO player (name, score) VALUES (?, ?);
    ///     INSERT INTO player (name, score) VALUES (:name, :score);
    ///     """, arguments: ["Arthur", 750, "name": "Barbara", "score": 1000])
    /// ```
    ///
    /// Positional arguments are consumed statement after statement; named
    /// arguments are shared by all statements.
    ///
    /// Before anything runs, all statements are prepared and the arguments
    /// are checked: invalid SQL and arguments that do not fit throw, and
    /// nothing is executed. A statement that depends on the effects of an
    /// earlier statement of the same string cannot be prepared in advance
    /// (`DROP TABLE t; CREATE TABLE t …`, or an INSERT into a table created
    /// just before): statements are then prepared and run one after the
    /// other, inside a savepoint, so that an error (invalid SQL, wrong
    /// arguments, a failed statement) still leaves the database as it was.
    /// Statements that manage transactions (`BEGIN`, `COMMIT`, `SAVEPOINT`…),
    /// and, outside of a transaction, those that behave otherwise inside one
    /// (`ATTACH`, `DETACH`, `VACUUM`, pragmas), run outside of that
    /// savepoint: an error after one of them comes after the statements
    /// before it ran.
    ///
    /// - Parameters:
    ///   - sql: SQL statements.
    ///   - arguments: The statement arguments.
    /// - Throws: A ``DatabaseError`` when the SQL is invalid, the arguments
    ///   do not fit, or a statement fails; an error thrown by an SQL function
    ///   called by a statement is rethrown.
    public func execute(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        // A single statement that ran before: from the implicit cache.
        if let statement = reusableImplicitStatement(sql: sql) {
            defer { statement.releaseArgumentsAfterImplicitUse() }
            try statement.execute(arguments: arguments)
            return
        }

        // Prepare everything and check the arguments, then run.
        var statements: [Statement] = []
        do {
            try forEachStatement(sql: sql) { statement in
                statements.append(statement)
                return true
            }
        } catch let error as PreparationError {
            // The first statement cannot depend on another one. A later
            // one may depend on the effects of an earlier one: "DROP TABLE
            // t; CREATE TABLE t …" cannot prepare its CREATE while t
            // exists, and "CREATE TABLE t …; INSERT INTO t …" cannot
            // prepare its INSERT before t exists. SQLite does not tell
            // such failures from invalid SQL (both are SQLITE_ERROR, with
            // an error offset): the statements run one after the other,
            // and an error undoes what ran (see executeSequentially).
            guard error.statementIndex > 0 else { throw error.underlyingError }
            try executeSequentially(sql: sql, arguments: arguments)
            return
        }

        // All arguments are checked before any statement runs, so that
        // wrong arguments never leave a partial write (where GRDB runs the
        // statements until the arguments are missing, or checks the unused
        // ones after all ran). The messages are GRDB's.
        var remaining = arguments
        var bindings: [[DatabaseValue]] = []
        for statement in statements {
            // A single statement reports its unused values itself.
            try bindings.append(remaining.extractBindings(
                forStatement: statement, allowingRemainingValues: statements.count > 1))
        }
        if !remaining.values.isEmpty {
            // Unused values: the message gives all the positional values,
            // as GRDB does. SQL without any statement is not repeated.
            throw wrongArgumentCountError(arguments, sql: statements.isEmpty ? nil : sql)
        }
        if statements.count == 1, let statement = statements.first, cache(statement, sql: sql, kind: .implicit) {
            // A single statement: cached for the next execution of the
            // same SQL. Strings of several statements are not cached.
            defer { statement.releaseArgumentsAfterImplicitUse() }
            try statement.setBindings(bindings[0], arguments: arguments)
            try statement.execute()
            return
        }
        for (statement, statementBindings) in zip(statements, bindings) {
            try statement.setBindings(statementBindings, arguments: arguments)
            try statement.execute()
        }
    }

    /// Prepares and runs the statements of `sql` one after the other, for
    /// a string whose statements depend on the effects of earlier ones.
    ///
    /// The statements run inside a savepoint, so that an error (a
    /// statement that cannot be prepared, even after the earlier ones ran;
    /// arguments that do not fit; a failed statement) rolls back what the
    /// earlier ones did. The savepoint is released before a statement that
    /// depends on the transaction state (``Statement/dependsOnTransactionState``):
    /// before any of them inside a transaction when it manages
    /// transactions (a COMMIT would release the savepoint with the
    /// transaction), and before all of them outside of a transaction (the
    /// savepoint is the transaction then, where ATTACH or VACUUM fail). The
    /// statements after it run without a savepoint. The statements of the
    /// savepoint are not traced (see ``untraced(_:)``): the trace shows the
    /// statements of the script.
    private func executeSequentially(sql: String, arguments: StatementArguments) throws {
        // A name that the savepoints of inSavepoint do not use at this
        // depth.
        let savepoint = "cairnExecute\(state.transaction.savepointDepth)"
        let startedInTransaction = isInsideTransaction
        var savepointIsOpen = false
        state.transaction.savepointDepth += 1
        defer { state.transaction.savepointDepth -= 1 }
        var remaining = arguments
        var lastStatement: Statement?
        do {
            try untraced { try execute(sql: "SAVEPOINT \(savepoint)") }
            savepointIsOpen = true
            try forEachStatement(sql: sql) { statement in
                if savepointIsOpen && statement.dependsOnTransactionState
                    && (statement.transactionEffect != nil || !startedInTransaction)
                {
                    try untraced { try execute(sql: "RELEASE SAVEPOINT \(savepoint)") }
                    savepointIsOpen = false
                }
                let statementBindings = try remaining.extractBindings(
                    forStatement: statement, allowingRemainingValues: true)
                try statement.setBindings(statementBindings, arguments: arguments)
                try statement.execute()
                lastStatement = statement
                return true
            }
            if !remaining.values.isEmpty {
                throw wrongArgumentCountError(arguments, sql: lastStatement?.sql ?? sql)
            }
            if savepointIsOpen {
                // Outside of a transaction, this commits, and may fail (a
                // deferred foreign key): the savepoint then stays open.
                try untraced { try execute(sql: "RELEASE SAVEPOINT \(savepoint)") }
                savepointIsOpen = false
            }
        } catch {
            // Nothing to undo when the failure rolled back the whole
            // transaction, savepoint included (SQLITE_FULL, a conflict
            // resolved with ROLLBACK). The rollback runs even when the task
            // of the access was cancelled.
            if savepointIsOpen && isInsideTransaction {
                ignoringAccessCancellation {
                    untraced {
                        try? execute(sql: "ROLLBACK TRANSACTION TO SAVEPOINT \(savepoint)")
                        try? execute(sql: "RELEASE SAVEPOINT \(savepoint)")
                    }
                }
            }
            if let error = error as? PreparationError {
                throw error.underlyingError
            }
            throw error
        }
    }

    /// The error of arguments that hold more values than the statements
    /// of `sql` use. The message gives all the positional values, as
    /// GRDB's does.
    private func wrongArgumentCountError(_ arguments: StatementArguments, sql: String?) -> DatabaseError {
        makeError(
            resultCode: .SQLITE_MISUSE,
            message: "wrong number of statement arguments: \(arguments.values.count)",
            sql: sql, arguments: arguments)
    }

    /// Executes SQL statements built with SQL interpolation: interpolated
    /// values become statement arguments, never SQL text.
    ///
    /// ```swift
    /// let name = "O'Brien"
    /// let id = 42
    /// try db.execute(literal: "UPDATE player SET name = \(name) WHERE id = \(id)")
    /// // UPDATE player SET name = ? WHERE id = ? with arguments ["O'Brien", 42]
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` when the SQL is invalid or a statement
    ///   fails.
    public func execute(literal sqlLiteral: SQL) throws {
        let (sql, arguments) = try sqlLiteral.build(self)
        try execute(sql: sql, arguments: arguments)
    }
}
