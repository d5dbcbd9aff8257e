import Foundation

// The analysis of each statement while SQLite prepares it, from SQLite's
// authorizer: whether it changes the schema, the region it reads, the
// changes it may perform, and its effect on transactions.

/// What a statement does to transactions, as SQLite's authorizer reports it
/// when the statement is prepared.
enum TransactionEffect: Equatable {
    case beginTransaction
    case commitTransaction
    case rollbackTransaction
    /// The name is lowercased: savepoint names compare without regard to
    /// case.
    case beginSavepoint(String)
    case releaseSavepoint(String)
    case rollbackSavepoint(String)
}

/// The analysis of the statement being prepared: what the authorizer
/// notices while SQLite prepares it.
final class StatementAnalysis {
    /// Whether the statement being prepared changes the schema.
    var changesSchema = false
    /// Whether the statement being prepared is a ROLLBACK (of a transaction
    /// or to a savepoint).
    var isRollback = false
    /// The tables and columns the statement reads, keyed by lowercased table
    /// name: the name as given, and the columns as SQLite names them (nil
    /// for the whole table; the region compares them without regard to
    /// case).
    var readTables: [String: (name: String, columns: Set<String>?)] = [:]
    /// The changes the statement may perform, triggers and foreign key
    /// actions included, keyed by lowercased table name.
    var changedTables: [String: (name: String, insert: Bool, delete: Bool, updatedColumns: Set<String>)] = [:]
    /// What the statement does to transactions.
    var transactionEffect: TransactionEffect?
    /// Whether the statement drops a table.
    var dropsTable = false

    func reset() {
        changesSchema = false
        dropsTable = false
        isRollback = false
        readTables.removeAll()
        changedTables.removeAll()
        transactionEffect = nil
    }

    /// The region the statement reads.
    var readRegion: DatabaseRegion {
        var region = DatabaseRegion()
        for table in readTables.values {
            if let columns = table.columns {
                region.formUnion(DatabaseRegion(table: table.name, columns: columns))
            } else {
                region.formUnion(DatabaseRegion(table: table.name))
            }
        }
        return region
    }

    /// The kinds of changes the statement may perform.
    var eventKinds: [DatabaseEventKind] {
        changedTables.values.flatMap { table -> [DatabaseEventKind] in
            var kinds: [DatabaseEventKind] = []
            if table.insert { kinds.append(.insert(tableName: table.name)) }
            if table.delete { kinds.append(.delete(tableName: table.name)) }
            if !table.updatedColumns.isEmpty {
                kinds.append(.update(tableName: table.name, columnNames: table.updatedColumns))
            }
            return kinds
        }
    }

    func noteRead(table: String, column: String) {
        let key = table.lowercased()
        if column.isEmpty {
            // The whole table (SELECT COUNT(*) FROM t, for instance).
            readTables[key] = (readTables[key]?.name ?? table, nil)
        } else if let existing = readTables[key] {
            readTables[key] = (existing.name, existing.columns.map { $0.union([column]) })
        } else {
            readTables[key] = (table, [column])
        }
    }

    func noteChange(table: String, insert: Bool = false, delete: Bool = false, updatedColumn: String? = nil) {
        let key = table.lowercased()
        var entry = changedTables[key] ?? (table, false, false, [])
        entry.insert = entry.insert || insert
        entry.delete = entry.delete || delete
        if let updatedColumn { entry.updatedColumns.insert(updatedColumn) }
        changedTables[key] = entry
    }
}

extension Database {
    /// Installs the authorizer that tells which statements change the
    /// schema.
    func setUpAuthorizer() {
        // The connection owns the analysis, for its whole life.
        sqlite3_set_authorizer(sqliteConnection, authorizerCallback, Unmanaged.passUnretained(statementAnalysis).toOpaque())
    }
}

/// `sqlite3_set_authorizer` callback: notes schema changes, the tables a
/// statement reads and changes, and its effect on transactions. It
/// authorizes everything.
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
    switch action {
    case SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TABLE,
         SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW,
         SQLITE_DROP_INDEX, SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TABLE,
         SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW,
         SQLITE_ALTER_TABLE, SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE, SQLITE_ATTACH, SQLITE_DETACH:
        analysis.changesSchema = true
        // DROP TABLE and DROP VIEW check SQLITE_DELETE on the dropped
        // table or view next (see below).
        if action == SQLITE_DROP_TABLE || action == SQLITE_DROP_TEMP_TABLE || action == SQLITE_DROP_VTABLE
            || action == SQLITE_DROP_VIEW || action == SQLITE_DROP_TEMP_VIEW
        {
            analysis.dropsTable = true
        }
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
