// Building blocks of the access methods of queues and pools: the access
// itself (see `DatabaseAccess.swift`), read-only accesses, isolation, and
// the check for transactions left open.

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
            try internalCachedStatement(sql: "PRAGMA query_only = 1").execute()
        }
        readOnlyDepth += 1
        defer {
            readOnlyDepth -= 1
            if readOnlyDepth == 0 {
                // Cannot fail: the pragma neither reads nor writes the file.
                // It runs even when the task of the access was cancelled: the
                // connection must be writable again for the next access.
                ignoringAccessCancellation {
                    try? internalCachedStatement(sql: "PRAGMA query_only = 0").execute()
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

    /// Runs `body`, which cannot throw; a transaction it leaves open is
    /// rolled back, and stops the program: the error cannot be thrown.
    func checkingNoTransactionLeftOpen<T>(_ body: () -> T) -> T {
        do {
            return try checkingTransactionLeftOpen(body)
        } catch {
            stopProgram("\(error)")
        }
    }

    /// Runs `body`, then rolls back and throws if it left a transaction open
    /// (unless ``Configuration/allowsUnsafeTransactions`` is set).
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

extension Database {
    /// Runs `body` as a database access (see `DatabaseAccess.swift`):
    /// statements and cursors check that they are used inside the access
    /// that created them.
    ///
    /// A nested call, on a thread that runs an access to this connection
    /// already (a reentrant access), runs `body` directly.
    ///
    /// - Parameters:
    ///   - group: The group of connections of the connection, for the
    ///     reentrancy checks of the access layer.
    ///   - enclosing: The access that runs this one, if any: by default the
    ///     innermost access of the current thread; the access layer gives
    ///     the one of the thread that waits for this access.
    ///   - cancellation: For an async access, whether its task was
    ///     cancelled (see ``DatabaseAccess/cancellation``).
    func withAccess<T>(
        group: AnyObject? = nil,
        enclosing: DatabaseAccess? = DatabaseAccess.current,
        cancellation: (@Sendable () -> Bool)? = nil,
        _ body: () throws -> T) rethrows -> T
    {
        if isInsideAccess {
            return try body()
        }
        let access = DatabaseAccess(
            connection: statementHandles, group: group, enclosing: enclosing, cancellation: cancellation)
        // An open access of another thread, which waits for this one: its
        // cursors end with this access (see
        // `DatabaseAccess.suspendForNestedAccess()`).
        DatabaseAccess.suspendOpenAccess(to: statementHandles, inChainOf: enclosing)
        return try access.run {
            // Finalizes the statements released on other threads.
            statementHandles.finalizePendingIfNeeded()
            if connectionResources != nil { runPendingReleases() }
            defer {
                // Blobs first: they are statements of SQLite too. The failed
                // commit of a blob cannot be thrown here: the error log has it.
                if let error = closeTransactionScopedResources() {
                    Database.errorLogFunction.load()?(error.resultCode, error.message ?? "")
                }
                resetBusyStatements()
                // The progress handler belongs to the access.
                if progressBox != nil { removeProgressHandler() }
                // The access, and what nested accesses on other threads
                // left for it to go on with.
                access.finish()
            }
            return try body()
        }
    }

    /// Whether the current thread is running an access to this connection.
    /// Safe to call from any thread (the connection may have escaped its
    /// access): only the current thread's chain of accesses is read.
    var isInsideAccess: Bool {
        DatabaseAccess.currentThreadRuns(statementHandles)
    }

    /// Whether the current thread's chain of accesses holds an access to
    /// this connection, on this thread or on a thread that waits for the
    /// current access: a new access to the connection would wait for
    /// itself, and a reentrant access may use it (see
    /// `DatabaseAccess.chainContains(_:)`).
    var isInCurrentAccessChain: Bool {
        DatabaseAccess.chainContains(statementHandles)
    }

    /// The open access to the connection, for a cursor or a row that is made
    /// now: stops the program outside of an access.
    @usableFromInline
    var accessForNewCursor: DatabaseAccess {
        if let access = DatabaseAccess.innermostOpenAccess(to: statementHandles) {
            return access
        }
        // An access to another connection runs inside this one, or a nested
        // access on another thread suspended it.
        guard let currentAccess else { stopUsedOutsideAccess(.statement) }
        return currentAccess
    }

    /// The open access to the connection that the current thread runs: its
    /// access to the connection, or the access that resumed it after a
    /// nested access on another thread (see
    /// `DatabaseAccess.suspendForNestedAccess()`). Nil outside of an
    /// access. Computed from the thread slot, the one pointer to the
    /// current access.
    var currentAccess: DatabaseAccess? {
        DatabaseAccess.withCurrentThreadAccess(to: statementHandles) { $0?.latest }
    }
}
