#if SQLITE_ENABLE_SESSION
import Foundation

// The C callbacks of `sqlite3changeset_apply_v2` (see
// `Database.apply(_:filter:onConflict:)`). Their context is the
// `ChangesetApplyContext` of the call, which outlives it. Swift errors never
// cross into C: a callback keeps its error in the connection's callback
// errors (which the context holds) and asks SQLite to abort, and `apply`
// throws the error.

/// Whether to apply the changes of a table.
let changesetApplyFilter: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> CInt = { context, tableName in
    guard let context, let tableName else { return 0 }
    let applyContext = Unmanaged<ChangesetApplyContext>.fromOpaque(context).takeUnretainedValue()
    // Once an error stopped the application, nothing more is applied.
    guard !applyContext.errors.hasError else { return 0 }
    return applyContext.filter(String(cString: tableName)) ? 1 : 0
}

/// What to do with a conflicting change.
let changesetApplyConflict: @convention(c) (UnsafeMutableRawPointer?, CInt, OpaquePointer?) -> CInt = { context, kind, iterator in
    guard let context, let iterator else { return SQLITE_CHANGESET_ABORT }
    let applyContext = Unmanaged<ChangesetApplyContext>.fromOpaque(context).takeUnretainedValue()
    guard !applyContext.errors.hasError else { return SQLITE_CHANGESET_ABORT }
    do {
        let conflict = try ChangesetConflict(kind: kind, iterator: iterator)
        let resolution = try applyContext.onConflict(conflict)
        switch resolution {
        case .omit:
            return SQLITE_CHANGESET_OMIT
        case .abort:
            return SQLITE_CHANGESET_ABORT
        case .replace:
            guard conflict.kind == .data || conflict.kind == .conflict else {
                applyContext.errors.record(DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "the changeset was not applied: .replace resolves .data and .conflict conflicts "
                        + "only, and was returned for a .\(conflict.kind) conflict"),
                    disposition: .asIs)
                return SQLITE_CHANGESET_ABORT
            }
            return SQLITE_CHANGESET_REPLACE
        }
    } catch {
        applyContext.errors.record(error, disposition: .asIs)
        return SQLITE_CHANGESET_ABORT
    }
}

extension ChangesetConflict {
    /// Reads the conflict that SQLite gives a conflict handler.
    ///
    /// - Throws: A ``DatabaseError`` when it cannot be read.
    init(kind: CInt, iterator: OpaquePointer) throws {
        switch kind {
        case SQLITE_CHANGESET_DATA: self.kind = .data
        case SQLITE_CHANGESET_NOTFOUND: self.kind = .notFound
        case SQLITE_CHANGESET_CONFLICT: self.kind = .conflict
        case SQLITE_CHANGESET_CONSTRAINT: self.kind = .constraint
        case SQLITE_CHANGESET_FOREIGN_KEY: self.kind = .foreignKey
        default: throw Changeset.error(SQLITE_MISUSE, "unknown conflict kind \(kind)")
        }
        if self.kind == .foreignKey {
            var count: CInt = 0
            _ = sqlite3changeset_fk_conflicts(iterator, &count)
            operation = nil
            conflictingValues = nil
            foreignKeyViolationCount = Int(count)
            return
        }
        let operation = try ChangesetOperation(iterator: iterator)
        self.operation = operation
        foreignKeyViolationCount = 0
        if self.kind == .data || self.kind == .conflict {
            conflictingValues = try operation.primaryKeyColumns.indices.map { column in
                try ChangesetOperation.value(iterator, column, sqlite3changeset_conflict)
            }
        } else {
            conflictingValues = nil
        }
    }
}
#endif
