import Foundation

extension Database {
    /// The kinds of SQLite transactions.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_transaction.html>
    public enum TransactionKind: String, Sendable {
        /// A transaction that takes locks when statements need them.
        case deferred = "DEFERRED"
        /// A transaction that starts a write at once.
        case immediate = "IMMEDIATE"
        /// A transaction that starts a write at once and, outside WAL mode,
        /// prevents other connections from reading.
        case exclusive = "EXCLUSIVE"
    }

    /// How a transaction or savepoint ends.
    public enum TransactionCompletion: Sendable {
        /// Keep the changes.
        case commit
        /// Undo the changes.
        case rollback
    }

    /// Runs `operations` inside a transaction, and commits or rolls back as
    /// it returns.
    ///
    /// ```swift
    /// try dbQueue.inDatabase { db in
    ///     try db.inTransaction {
    ///         try db.execute(sql: "INSERT INTO credit ...")
    ///         try db.execute(sql: "INSERT INTO debit ...")
    ///         return .commit
    ///     }
    /// }
    /// ```
    ///
    /// When `operations` throws, the transaction is rolled back and the error
    /// is rethrown. When the commit fails, the transaction is rolled back and
    /// the error of the commit is thrown.
    ///
    /// - Parameters:
    ///   - kind: The kind of transaction; nil for
    ///     ``Configuration/defaultTransactionKind``.
    ///   - operations: The work of the transaction.
    /// - Throws: The error of `operations`, or a ``DatabaseError`` (for
    ///   instance when a transaction is already open).
    public func inTransaction(
        _ kind: TransactionKind? = nil,
        _ operations: () throws -> TransactionCompletion) throws
    {
        try beginOwnedTransaction(kind)
        let completion: TransactionCompletion
        do {
            completion = try operations()
        } catch {
            rollbackIgnoringErrors()
            throw error
        }
        switch completion {
        case .commit:
            try commitOwnedTransaction()
        case .rollback:
            try rollbackOwnedTransaction()
        }
    }

    /// Runs `operations` inside a savepoint, and releases or rolls it back
    /// as it returns. Savepoints nest.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try db.execute(sql: "INSERT INTO player ...")   // kept
    ///     try db.inSavepoint {
    ///         try db.execute(sql: "DELETE FROM player")
    ///         return .rollback                             // undone
    ///     }
    /// }
    /// ```
    ///
    /// Outside of a transaction, the savepoint is a transaction of kind
    /// ``Configuration/defaultTransactionKind``. When `operations` throws,
    /// the changes of the savepoint are rolled back and the error is
    /// rethrown.
    ///
    /// - Parameter operations: The work of the savepoint.
    /// - Throws: The error of `operations`, or a ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_savepoint.html>
    public func inSavepoint(_ operations: () throws -> TransactionCompletion) throws {
        if !isInsideTransaction {
            try inTransaction(nil, operations)
            return
        }
        // One name for all savepoints, as in GRDB: SQLite releases and
        // rolls back to the innermost savepoint of that name.
        let name = "grdb"
        // SQLite refuses to begin a savepoint while a blob opened for
        // writing is open.
        if let error = closeTransactionScopedResources() { throw error }
        try execute(sql: "SAVEPOINT \(name)")
        state.transaction.savepointDepth += 1
        defer { state.transaction.savepointDepth -= 1 }
        let completion: TransactionCompletion
        do {
            completion = try operations()
        } catch {
            if isInsideTransaction {
                closeTransactionScopedResources()
                // Even after a cancellation or a time limit: the savepoint
                // must not stay open with the changes of its failed work.
                ignoringAccessCancellation {
                    try? execute(sql: "ROLLBACK TRANSACTION TO SAVEPOINT \(name)")
                    try? execute(sql: "RELEASE SAVEPOINT \(name)")
                }
            }
            throw error
        }
        // SQLite refuses to release a savepoint while a blob opened for
        // writing is open.
        closeTransactionScopedResources()
        switch completion {
        case .commit:
            // The transaction was aborted inside the savepoint: nothing is
            // left to release.
            if state.transaction.wasAborted {
                throw abortedTransactionError(sql: nil, arguments: nil)
            }
            try execute(sql: "RELEASE SAVEPOINT \(name)")
        case .rollback:
            try execute(sql: "ROLLBACK TRANSACTION TO SAVEPOINT \(name)")
            try execute(sql: "RELEASE SAVEPOINT \(name)")
        }
    }

    /// Opens a transaction.
    ///
    /// The open blobs of the connection (``DatabaseBlob``) are closed
    /// first.
    ///
    /// - Parameter kind: The kind of transaction; nil for
    ///   ``Configuration/defaultTransactionKind``.
    /// - Throws: A ``DatabaseError``, for instance when a transaction is
    ///   already open.
    public func beginTransaction(_ kind: TransactionKind? = nil) throws {
        let statement: TransactionStatement
        switch kind ?? defaultTransactionKind {
        case .deferred: statement = .beginDeferred
        case .immediate: statement = .beginImmediate
        case .exclusive: statement = .beginExclusive
        }
        if let error = closeTransactionScopedResources() { throw error }
        try transactionStatement(statement).execute()
    }

    /// The statements that start and end transactions.
    enum TransactionStatement: Int, CaseIterable {
        case beginDeferred, beginImmediate, beginExclusive, commit, rollback

        var sql: String {
            switch self {
            case .beginDeferred: "BEGIN DEFERRED TRANSACTION"
            case .beginImmediate: "BEGIN IMMEDIATE TRANSACTION"
            case .beginExclusive: "BEGIN EXCLUSIVE TRANSACTION"
            case .commit: "COMMIT TRANSACTION"
            case .rollback: "ROLLBACK TRANSACTION"
            }
        }
    }

    /// The statement of `which`, from the connection's cache of internal
    /// statements (see ``cachedStatement(sql:kind:)``): a running one (a
    /// COMMIT whose commit hook commits again) is not reused, a new
    /// statement is prepared for the nested call.
    ///
    /// - Throws: A ``DatabaseError`` if the statement cannot be prepared.
    func transactionStatement(_ which: TransactionStatement) throws -> Statement {
        try cachedStatement(sql: which.sql, kind: .internal)
    }

    /// The kind of the transactions that do not say theirs: deferred where
    /// writes are forbidden (a read-only connection, or inside
    /// ``readOnly(_:)``), ``Configuration/defaultTransactionKind`` otherwise.
    var defaultTransactionKind: TransactionKind {
        if isReadOnlyAccess {
            return .deferred
        }
        return configuration.defaultTransactionKind
    }

    /// Commits the current transaction.
    ///
    /// The open blobs of the connection (``DatabaseBlob``) are closed
    /// first: SQLite refuses to commit while a blob opened for writing is
    /// open.
    ///
    /// - Throws: A ``DatabaseError``, for instance when no transaction is
    ///   open or a deferred foreign key constraint fails.
    public func commit() throws {
        if let error = closeTransactionScopedResources() { throw error }
        try transactionStatement(.commit).execute()
    }

    /// Rolls back the current transaction, if any: outside of a
    /// transaction, it does nothing (SQLite may have rolled back already,
    /// after an error).
    ///
    /// The open blobs of the connection (``DatabaseBlob``) are closed
    /// first.
    ///
    /// - Throws: A ``DatabaseError`` if the rollback fails.
    public func rollback() throws {
        closeTransactionScopedResources()
        guard isInsideTransaction else { return }
        try transactionStatement(.rollback).execute()
    }

    /// Rolls back the current transaction, if any, when an error is already
    /// on its way: SQLite may have rolled back already (after SQLITE_FULL,
    /// for instance), and a failure of the rollback would hide the error.
    func rollbackIgnoringErrors() {
        let wasAborted = state.transaction.wasAborted
        state.transaction.isOwnedByBlock = false
        state.transaction.wasAborted = false
        if isInsideTransaction && !wasAborted {
            rollbackAfterInterrupts()
        }
        state.schemaCache.didRollBack(isInsideTransaction: isInsideTransaction)
    }

    /// The number of times ``rollbackAfterInterrupts()`` tries to roll back.
    static let maximumRollbackAttempts = 8

    /// Rolls back, and tries again when an interrupt made the ROLLBACK fail.
    ///
    /// `sqlite3_interrupt`, called from another thread by ``DatabaseReader/interrupt()``
    /// or by the cancellation of an async access, may reach a ROLLBACK just
    /// as it starts: SQLite then fails it with `SQLITE_INTERRUPT`, and the
    /// transaction stays open (a reader would begin its next read inside
    /// the old one, and a writer would commit the changes of a failed write
    /// with its next transaction). The next ROLLBACK starts with no other
    /// statement running, and SQLite forgets the interrupt then: one more
    /// attempt ends the transaction, unless another interrupt comes just
    /// then. Other errors are ignored, as by ``rollbackIgnoringErrors()``.
    ///
    /// See <https://www.sqlite.org/c3ref/interrupt.html>.
    private func rollbackAfterInterrupts() {
        // Neither the progress handler nor a time limit stops it.
        ignoringAccessCancellation { rollbackAfterSQLiteInterrupts() }
    }

    private func rollbackAfterSQLiteInterrupts() {
        for _ in 0..<Database.maximumRollbackAttempts {
            do {
                try rollback()
                return
            } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT && isInsideTransaction {
                continue
            } catch {
                return
            }
        }
    }

    // MARK: Transactions of blocks

    /// Begins a transaction that a block owns: if SQLite or the user ends
    /// it before the block does, the statements of the block throw
    /// `SQLITE_ABORT` until it ends (see ``state.transaction.wasAborted``).
    func beginOwnedTransaction(_ kind: TransactionKind?) throws {
        try beginTransaction(kind)
        state.transaction.isOwnedByBlock = true
        state.transaction.wasAborted = false
    }

    /// Commits the transaction of a block, or throws `SQLITE_ABORT` when
    /// it was aborted; rolls back when the commit fails.
    func commitOwnedTransaction() throws {
        if state.transaction.wasAborted {
            rollbackIgnoringErrors()
            throw abortedTransactionError(sql: nil, arguments: nil)
        }
        state.transaction.isOwnedByBlock = false
        guard isInsideTransaction else { return }
        do {
            try commit()
        } catch {
            rollbackIgnoringErrors()
            throw error
        }
    }

    /// Rolls back the transaction of a block; does nothing when it was
    /// aborted (already rolled back).
    func rollbackOwnedTransaction() throws {
        let wasAborted = state.transaction.wasAborted
        state.transaction.isOwnedByBlock = false
        state.transaction.wasAborted = false
        if wasAborted || !isInsideTransaction { return }
        try rollback()
    }
}

/// The transaction of a connection, as Cairn's blocks know it: what SQLite
/// does not tell (`sqlite3_get_autocommit` and `sqlite3_txn_state` tell
/// whether a transaction is open).
@usableFromInline
struct TransactionState {
    /// Whether the current transaction was begun by a transaction block of
    /// Cairn (`inTransaction`, `write`, an isolated read), which alone may
    /// end it.
    var isOwnedByBlock = false

    /// Whether SQLite, or a statement of the user, ended the transaction
    /// that a block owns (an interrupt, `SQLITE_FULL`, a conflict resolved
    /// with ROLLBACK, an explicit `ROLLBACK` or `COMMIT`…): until the block ends,
    /// statements throw `SQLITE_ABORT` instead of running outside of the
    /// transaction the user believes in.
    @usableFromInline var wasAborted = false

    /// The depth of the savepoints that Cairn opened (``Database/inSavepoint(_:)``,
    /// the sequential run of ``Database/execute(sql:arguments:)``), which
    /// names the next one.
    var savepointDepth = 0

    /// The ``Database/transactionDate`` of the current transaction, once
    /// read; nil outside of transactions (see `Database+TransactionDate.swift`).
    var date: Date?
}
