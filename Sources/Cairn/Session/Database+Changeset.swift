#if SQLITE_ENABLE_SESSION
import Foundation

/// A change of a changeset that cannot be applied as it is (see
/// ``Database/apply(_:filter:onConflict:)``).
public struct ChangesetConflict: Sendable {
    /// The kinds of conflicts, as SQLite reports them.
    public enum Kind: Sendable, Hashable {
        /// The row to update or delete exists, but its values are not the
        /// former values of the change (``ChangesetConflict/conflictingValues``
        /// holds them). ``ChangesetConflictResolution/replace`` applies the
        /// change anyway.
        case data
        /// The row to update or delete does not exist.
        case notFound
        /// The row to insert already exists (``ChangesetConflict/conflictingValues``
        /// holds its values). ``ChangesetConflictResolution/replace``
        /// replaces it.
        case conflict
        /// The change breaks a constraint (UNIQUE, CHECK, NOT NULL).
        case constraint
        /// Once all changes are applied, foreign key constraints are broken
        /// (``ChangesetConflict/foreignKeyViolationCount`` tells how many):
        /// ``ChangesetConflictResolution/omit`` commits anyway, and
        /// ``ChangesetConflictResolution/abort`` undoes everything.
        case foreignKey
    }

    /// The kind of conflict.
    public var kind: Kind

    /// The change that conflicts; nil for ``Kind/foreignKey`` conflicts,
    /// which concern the whole changeset.
    public var operation: ChangesetOperation?

    /// For ``Kind/data`` and ``Kind/conflict`` conflicts, the current values
    /// of the row in the database; nil otherwise.
    public var conflictingValues: [DatabaseValue?]?

    /// For ``Kind/foreignKey`` conflicts, the number of broken foreign key
    /// constraints; 0 otherwise.
    public var foreignKeyViolationCount: Int
}

/// What to do with a change that conflicts (see
/// ``Database/apply(_:filter:onConflict:)``).
public enum ChangesetConflictResolution: Sendable, Hashable {
    /// Skips the change (for a foreign key conflict: commits anyway).
    case omit
    /// Applies the change anyway: for ``ChangesetConflict/Kind/data`` and
    /// ``ChangesetConflict/Kind/conflict`` conflicts only. For other kinds
    /// the application stops with an error, and nothing is applied.
    case replace
    /// Stops: nothing of the changeset is applied, and
    /// ``Database/apply(_:filter:onConflict:)`` throws a ``DatabaseError``
    /// with the `SQLITE_ABORT` code.
    case abort
}

extension Database {
    /// Applies a changeset (or a patchset) to the database: all its
    /// changes, or none.
    ///
    /// ```swift
    /// try db.apply(changeset) { conflict in
    ///     switch conflict.kind {
    ///     case .data, .conflict: return .replace   // the changeset wins
    ///     case .notFound: return .omit
    ///     case .constraint, .foreignKey: return .abort
    ///     }
    /// }
    /// ```
    ///
    /// The changes are applied inside a savepoint: when the application
    /// fails, when `onConflict` returns ``ChangesetConflictResolution/abort``
    /// or throws, nothing is applied and the database is left as it was.
    ///
    /// SQLite applies the changes with statements of its own, whose rows
    /// Cairn does not see one by one: transaction observers of the changed
    /// tables hear of an unspecified change
    /// (``TransactionObserver/databaseDidChange()``), so that a
    /// `ValueObservation` fetches again, then of the commit or the rollback,
    /// as of other transactions. An observer that prevents the commit makes
    /// the method throw its error.
    ///
    /// - Parameters:
    ///   - changeset: A changeset or a patchset.
    ///   - filter: Tells which tables to change (all by default); it gets
    ///     the name of each table of the changeset.
    ///   - onConflict: Decides what to do with each change that conflicts.
    ///     An error it throws stops the application, which then throws it.
    /// - Throws: A ``DatabaseError``: `SQLITE_CORRUPT` for bytes that are
    ///   not a changeset, `SQLITE_ABORT` when `onConflict` aborted or after
    ///   the transaction of the block was aborted, `SQLITE_MISUSE` for
    ///   ``ChangesetConflictResolution/replace`` on a conflict that does not
    ///   allow it and for an `apply` called from the `onConflict` of
    ///   another, `SQLITE_INTERRUPT` when the task of an async access is
    ///   cancelled; or the error of `onConflict`, or of an observer that
    ///   prevented the commit.
    ///
    /// The corresponding C function is `sqlite3changeset_apply_v2`.
    public func apply(
        _ changeset: Changeset,
        filter: ((String) -> Bool)? = nil,
        onConflict: (ChangesetConflict) throws -> ChangesetConflictResolution) throws
    {
        try checkSessionAccess()
        try checkValidAccess(forWritesOf: "a changeset is applied")
        guard let connection = sqliteConnection else { return }
        // SQLite applies the changeset inside a savepoint, which it cannot
        // begin while a blob opened for writing is open.
        if let error = closeTransactionScopedResources() { throw error }
        // The tables that the changeset changes, for transaction observers.
        let tableNames = Set(try changeset.operations().map(\.tableName))
        let changesBefore = totalChangesCount
        // The conflict handler's errors, and the veto of an observer when
        // the application commits, go to the connection's callback errors.
        callbackErrors.forget()
        let code = try withNonReentrantOperation("apply(_:filter:onConflict:)") {
            try withoutActuallyEscaping(onConflict) { onConflict in
                try withoutActuallyEscaping(filter ?? { _ in true }) { filter in
                    // The context does not outlive the closures.
                    let context = ChangesetApplyContext(
                        filter: filter, onConflict: onConflict, errors: callbackErrors)
                    return try changeset.withUnsafeBytes { count, bytes in
                        Database.applyChangeset(connection, count, bytes, context)
                    }
                }
            }
        }
        // The savepoint of the changeset is released or rolled back: a
        // failure may have rolled back the transaction of a block too.
        state.schemaCache.clear()
        let callbackFailure = callbackErrors.take()
        let changedRegion = code == SQLITE_OK && totalChangesCount != changesBefore
            ? tableNames.reduce(into: DatabaseRegion()) { $0.formUnion(DatabaseRegion(table: $1)) }
            : nil
        externalStatementsDidRun(changing: changedRegion)
        if let (error, _) = callbackFailure {
            throw error
        }
        guard code == SQLITE_OK else {
            let message = code == SQLITE_ABORT
                ? "the changeset was not applied: the conflict handler aborted"
                : lastErrorMessage
            throw makeError(resultCode: ResultCode(rawValue: code), message: message, sql: nil, arguments: nil)
        }
    }

    /// Calls `sqlite3changeset_apply_v2` with the callbacks of
    /// ChangesetBridge.swift, whose context lives for the time of the call.
    private static func applyChangeset(
        _ connection: SQLiteConnection,
        _ count: CInt,
        _ bytes: UnsafeMutableRawPointer?,
        _ context: ChangesetApplyContext) -> CInt
    {
        withExtendedLifetime(context) {
            let pointer = context.unretainedCContext()
            var rebase: UnsafeMutableRawPointer?
            var rebaseCount: CInt = 0
            let code = sqlite3changeset_apply_v2(
                connection, count, bytes,
                changesetApplyFilter, changesetApplyConflict, pointer,
                &rebase, &rebaseCount, 0)
            sqlite3_free(rebase)
            return code
        }
    }
}

/// What the C callbacks of `sqlite3changeset_apply_v2` need, for the time of
/// the call (see `ChangesetBridge.swift`).
final class ChangesetApplyContext: CCallbackContext {
    let filter: (String) -> Bool
    let onConflict: (ChangesetConflict) throws -> ChangesetConflictResolution
    /// The connection's callback errors, which receive the error that
    /// stopped the application (thrown by `onConflict`, met while reading
    /// the conflict, or a resolution that SQLite does not allow).
    let errors: CallbackErrorStash

    init(
        filter: @escaping (String) -> Bool,
        onConflict: @escaping (ChangesetConflict) throws -> ChangesetConflictResolution,
        errors: CallbackErrorStash)
    {
        self.filter = filter
        self.onConflict = onConflict
        self.errors = errors
    }
}
#endif
