// Building blocks of the access methods of queues and pools: read-only
// accesses, isolation, and the check for transactions left open.

extension Database {
    /// Whether writes are forbidden now: on a read-only connection, or
    /// inside ``readOnly(_:)`` (a `read` access).
    var isReadOnlyAccess: Bool {
        configuration.readonly || configuration.isQueryOnly || readOnlyDepth > 0
    }

    /// Runs `body` with writes forbidden: a statement that would write fails
    /// with `SQLITE_READONLY`. Nests.
    ///
    /// ```swift
    /// try dbQueue.writeWithoutTransaction { db in
    ///     try db.readOnly {
    ///         try db.execute(sql: "DELETE FROM player") // SQLITE_READONLY
    ///     }
    /// }
    /// ```
    ///
    /// - Throws: The error of `body`, or a ``DatabaseError`` when the
    ///   `query_only` pragma cannot be set.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_query_only>
    public func readOnly<T>(_ body: () throws -> T) throws -> T {
        if configuration.readonly || configuration.isQueryOnly {
            return try body()
        }
        if readOnlyDepth == 0 {
            try cachedStatement(sql: "PRAGMA query_only = 1").execute()
        }
        readOnlyDepth += 1
        defer {
            readOnlyDepth -= 1
            if readOnlyDepth == 0 {
                // Cannot fail: the pragma neither reads nor writes the file.
                // It runs even when the task of the access was cancelled: the
                // connection must be writable again for the next access.
                ignoringAccessCancellation {
                    try? cachedStatement(sql: "PRAGMA query_only = 0").execute()
                }
            }
        }
        return try body()
    }

    /// Runs `body` inside a deferred transaction, so that all its reads see
    /// one committed state; when a transaction is already open, runs `body`
    /// in it.
    func isolated<T>(_ body: () throws -> T) throws -> T {
        if isInsideTransaction {
            return try body()
        }
        return try inTransactionReturning(.deferred, body)
    }

    /// Runs `body` inside a transaction and returns its result: commits when
    /// it returns, rolls back when it throws.
    ///
    /// When `body` ends the transaction itself, there is nothing to commit.
    func inTransactionReturning<T>(_ kind: TransactionKind?, _ body: () throws -> T) throws -> T {
        try beginOwnedTransaction(kind)
        let result: T
        do {
            result = try body()
        } catch {
            rollbackIgnoringErrors()
            throw error
        }
        try commitOwnedTransaction()
        return result
    }

    /// Runs `body`, then rolls back and throws if it left a transaction open
    /// (unless ``Configuration/allowsUnsafeTransactions`` is set).
    /// Runs `body`, which cannot throw; a transaction it leaves open is
    /// rolled back, and stops the program: the error cannot be thrown.
    func checkingNoTransactionLeftOpen<T>(_ body: () -> T) -> T {
        do {
            return try checkingTransactionLeftOpen(body)
        } catch {
            stopProgram("\(error)")
        }
    }

    func checkingTransactionLeftOpen<T>(_ body: () throws -> T) throws -> T {
        let result: T
        do {
            result = try body()
        } catch {
            if !configuration.allowsUnsafeTransactions {
                rollbackIgnoringErrors()
            }
            throw error
        }
        if isInsideTransaction && !configuration.allowsUnsafeTransactions {
            rollbackIgnoringErrors()
            throw makeError(
                resultCode: .SQLITE_MISUSE,
                message: "A transaction was left open at the end of a database access, and was rolled back. "
                    + "Commit or roll back inside the access, use write or inTransaction, "
                    + "or set Configuration.allowsUnsafeTransactions.",
                sql: nil, arguments: nil)
        }
        return result
    }
}
