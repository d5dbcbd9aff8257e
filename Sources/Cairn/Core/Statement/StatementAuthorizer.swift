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
final class StatementAnalysis: CCallbackContext {
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
    /// The number of SELECT the statement runs: its own, and those of its
    /// subqueries, compound members, common table expressions and views.
    var selectCount = 0
    /// Whether the statement attaches or detaches a database, or runs a
    /// pragma: statements that behave otherwise, or fail, inside a
    /// transaction.
    var changesConnectionState = false
    /// The number of calls of the authorizer for the statement. None for
    /// VACUUM, which SQLite does not authorize, and which fails inside a
    /// transaction.
    var authorizationCount = 0

    /// Whether the statement manages transactions, or behaves otherwise
    /// inside a transaction than outside (see
    /// ``Statement/dependsOnTransactionState``).
    var dependsOnTransactionState: Bool {
        transactionEffect != nil || changesConnectionState || authorizationCount == 0
    }

    func reset() {
        changesSchema = false
        changesConnectionState = false
        authorizationCount = 0
        selectCount = 0
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
        sqlite3_set_authorizer(sqliteConnection, authorizerCallback, statementAnalysis.unretainedCContext())
    }
}
