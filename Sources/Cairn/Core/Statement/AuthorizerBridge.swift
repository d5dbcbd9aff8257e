import Foundation

// The C callback of the authorizer, which analyses each statement that the
// connection prepares (see `StatementAnalysis` in StatementAuthorizer.swift).

/// `sqlite3_set_authorizer` callback: notes schema changes, the tables a
/// statement reads and changes, the number of SELECT it runs, and its
/// effect on transactions. It authorizes everything.
///
/// A DELETE gets SQLITE_IGNORE, which SQLite documents as "the DELETE
/// proceeds, but the truncate optimization is disabled": without it,
/// `DELETE FROM t` would empty the table without telling observers about
/// the deleted rows.
let authorizerCallback: @convention(c) (
    UnsafeMutableRawPointer?, CInt,
    UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> CInt =
{ context, action, argument1, argument2, _, _ in
    guard let context else { return SQLITE_OK }
    let analysis = Unmanaged<StatementAnalysis>.fromOpaque(context).takeUnretainedValue()
    analysis.authorizationCount += 1
    switch action {
    case SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TABLE,
         SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW,
         SQLITE_DROP_INDEX, SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TABLE,
         SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW,
         SQLITE_ALTER_TABLE, SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE, SQLITE_ATTACH, SQLITE_DETACH:
        analysis.changesSchema = true
        if action == SQLITE_ATTACH || action == SQLITE_DETACH {
            analysis.changesConnectionState = true
        }
        // DROP TABLE and DROP VIEW check SQLITE_DELETE on the dropped
        // table or view next (see below).
        if action == SQLITE_DROP_TABLE || action == SQLITE_DROP_TEMP_TABLE || action == SQLITE_DROP_VTABLE
            || action == SQLITE_DROP_VIEW || action == SQLITE_DROP_TEMP_VIEW
        {
            analysis.dropsTable = true
        }
    case SQLITE_PRAGMA:
        analysis.changesConnectionState = true
    case SQLITE_SELECT:
        analysis.selectCount += 1
    case SQLITE_READ:
        guard let argument1, let argument2 else { break }
        analysis.noteRead(table: String(cString: argument1), column: String(cString: argument2))
    case SQLITE_INSERT:
        guard let argument1, !isInternalTable(argument1) else { break }
        analysis.noteChange(table: String(cString: argument1), insert: true)
    case SQLITE_DELETE:
        // DROP TABLE and DROP VIEW check SQLITE_DELETE after
        // SQLITE_DROP_TABLE or SQLITE_DROP_VIEW: there, SQLITE_IGNORE would
        // skip the drop, silently.
        guard let argument1, !isInternalTable(argument1), !analysis.dropsTable else { break }
        analysis.noteChange(table: String(cString: argument1), delete: true)
        return SQLITE_IGNORE
    case SQLITE_UPDATE:
        guard let argument1, let argument2, !isInternalTable(argument1) else { break }
        analysis.noteChange(table: String(cString: argument1), updatedColumn: String(cString: argument2))
    case SQLITE_TRANSACTION:
        guard let argument1 else { break }
        if strcmp(argument1, "BEGIN") == 0 {
            analysis.transactionEffect = .beginTransaction
        } else if strcmp(argument1, "COMMIT") == 0 {
            analysis.transactionEffect = .commitTransaction
        } else if strcmp(argument1, "ROLLBACK") == 0 {
            analysis.transactionEffect = .rollbackTransaction
            analysis.isRollback = true
        }
    case SQLITE_SAVEPOINT:
        guard let argument1, let argument2 else { break }
        let name = String(cString: argument2).lowercased()
        if strcmp(argument1, "BEGIN") == 0 {
            analysis.transactionEffect = .beginSavepoint(name)
        } else if strcmp(argument1, "RELEASE") == 0 {
            analysis.transactionEffect = .releaseSavepoint(name)
        } else if strcmp(argument1, "ROLLBACK") == 0 {
            analysis.transactionEffect = .rollbackSavepoint(name)
            analysis.isRollback = true
        }
    default:
        break
    }
    return SQLITE_OK
}

/// Whether a table is an internal table of SQLite (`sqlite_master`,
/// `sqlite_sequence`…), whose changes are not notified.
private func isInternalTable(_ name: UnsafePointer<CChar>) -> Bool {
    sqlite3_strnicmp(name, "sqlite_", 7) == 0
}
