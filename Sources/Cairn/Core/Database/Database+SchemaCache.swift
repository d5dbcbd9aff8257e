import Foundation

// The schema cache: primary keys and other schema information that records
// need at each insert or update, read once and kept until the schema
// changes.
//
// Schema changes made by this connection are detected when statements are
// prepared, with SQLite's authorizer (CREATE, DROP, ALTER statements), and
// the cache is also cleared when a transaction is rolled back. Changes made
// by other connections are detected with the schema version, at the start
// of the reads of pool readers.

/// The schema information of a connection.
final class SchemaCache {
    @exclusivity(unchecked) var primaryKeys: [String: PrimaryKeyInfo] = [:]
    /// The columns that `table.*` selects, by lowercased table name:
    /// joined requests split their rows with their number.
    var selectedColumnNames: [String: [String]] = [:]
    /// The foreign keys of tables, by lowercased table name: associations
    /// infer their join conditions from them.
    var foreignKeys: [String: [ForeignKeyInfo]] = [:]
    /// Whether a name is the name of a view, keyed by lowercased name.
    var isView: [String: Bool] = [:]
    /// The SQL of the lookup of a row by primary key, keyed by table name
    /// as written; nil for a primary key of several columns (see
    /// `Database.primaryKeyLookupSQL(_:)`).
    ///
    /// Unchecked exclusivity, as `primaryKeys`: the schema cache is used on
    /// the thread of its connection's access only, and no lookup calls code
    /// that could reach the dictionary while it is accessed.
    @exclusivity(unchecked) var primaryKeyLookupSQL: [String: String?] = [:]
    /// The last entry of `primaryKeyLookupSQL` that was read: a loop of
    /// lookups in one table finds it by comparing the table name, which is
    /// immediate for the same string, without hashing it.
    @exclusivity(unchecked) var lastPrimaryKeyLookup: (tableName: String, sql: String?)?
    /// The schema version the cache was filled with, when checked.
    var schemaVersion: Int?
    /// Whether the schema version must be checked before the cache is used.
    var needsVersionCheck = false
    /// Changes each time the cache is cleared: what was derived from the
    /// cache is valid as long as the generation does not change.
    private(set) var generation: UInt64 = 0

    func clear() {
        primaryKeys.removeAll()
        selectedColumnNames.removeAll()
        foreignKeys.removeAll()
        isView.removeAll()
        primaryKeyLookupSQL.removeAll()
        lastPrimaryKeyLookup = nil
        schemaVersion = nil
        generation &+= 1
    }
}

/// The INSERT statement of a record type, with what it was built for.
///
/// A class, so that each insert updates it in place.
final class CachedInsertStatement {
    let tableName: String
    let resolution: Database.ConflictResolution
    /// The columns of the statement: the template of the next containers
    /// of the record type (see ``PersistenceContainer/init(template:)``).
    let columns: PersistenceContainer.ColumnTemplate
    let statement: Statement
    /// The encoder that the next record of the type may reuse, when the
    /// type is `Encodable`.
    let encoder: RecordEncoder?
    /// The values of the previous insert, whose storage the next container
    /// of the record type takes (see
    /// ``PersistenceContainer/recycleValues(from:)``). Empty when they
    /// are too large to keep (see ``recycle(_:)``).
    var recycledValues: [DatabaseValue] = []
    /// The rowid alias of the table, valid while the schema cache keeps
    /// its generation.
    var rowIDColumn: String?
    var schemaGeneration: UInt64

    init(
        recordType: any EncodableRecord.Type,
        tableName: String,
        resolution: Database.ConflictResolution,
        columns: PersistenceContainer.ColumnTemplate,
        statement: Statement,
        schemaGeneration: UInt64)
    {
        self.encoder = recordType is any Encodable.Type ? RecordEncoder(recordType: recordType, reusable: true) : nil
        self.tableName = tableName
        self.resolution = resolution
        self.columns = columns
        self.statement = statement
        self.schemaGeneration = schemaGeneration
    }

    /// Keeps the values of an insert, for the next container of the record
    /// type to reuse their storage.
    ///
    /// The values stay in memory until the next insert of the record type.
    /// Values that hold large strings or blobs are not kept.
    func recycle(_ values: [DatabaseValue]) {
        let isSmall = values.withUnsafeBufferPointer { buffer in
            for index in buffer.indices {
                switch buffer[index].storage {
                case .null, .int64, .double:
                    continue
                case .string(let string):
                    if string.utf8.count > 256 { return false }
                case .blob(let data):
                    if data.count > 256 { return false }
                }
            }
            return true
        }
        if isSmall {
            recycledValues = values
        }
    }
}

/// What the authorizer notices while a statement is prepared.
final class AuthorizerBox {
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
        // The connection owns the box, for its whole life.
        sqlite3_set_authorizer(sqliteConnection, authorizerCallback, Unmanaged.passUnretained(authorizerBox).toOpaque())
    }

    /// Clears the schema cache. Call it after the schema was changed in a way
    /// Cairn cannot notice (by another process, for instance).
    public func clearSchemaCache() {
        schemaCache.clear()
    }

    /// Tells that another connection may have changed the schema: the cache
    /// checks the schema version before it is used next (in the same read
    /// transaction, so that the version matches what the read sees). Reads
    /// that do not use the cache pay nothing.
    func clearSchemaCacheIfNeeded() {
        schemaCache.needsVersionCheck = true
    }

    /// Clears the schema cache if another connection changed the schema
    /// since the cache was filled, when a check is due.
    func checkSchemaCacheVersion() throws {
        guard schemaCache.needsVersionCheck else { return }
        let version = try Int.fetchOne(cachedStatement(sql: "PRAGMA schema_version")) ?? 0
        if schemaCache.schemaVersion != version {
            schemaCache.clear()
            schemaCache.schemaVersion = version
        }
        schemaCache.needsVersionCheck = false
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
    let box = Unmanaged<AuthorizerBox>.fromOpaque(context).takeUnretainedValue()
    switch action {
    case SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TABLE,
         SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW,
         SQLITE_DROP_INDEX, SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TABLE,
         SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW,
         SQLITE_ALTER_TABLE, SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE, SQLITE_ATTACH, SQLITE_DETACH:
        box.changesSchema = true
        // DROP TABLE and DROP VIEW check SQLITE_DELETE on the dropped
        // table or view next (see below).
        if action == SQLITE_DROP_TABLE || action == SQLITE_DROP_TEMP_TABLE || action == SQLITE_DROP_VTABLE
            || action == SQLITE_DROP_VIEW || action == SQLITE_DROP_TEMP_VIEW
        {
            box.dropsTable = true
        }
    case SQLITE_READ:
        guard let argument1, let argument2 else { break }
        box.noteRead(table: String(cString: argument1), column: String(cString: argument2))
    case SQLITE_INSERT:
        guard let argument1, !isInternalTable(argument1) else { break }
        box.noteChange(table: String(cString: argument1), insert: true)
    case SQLITE_DELETE:
        // DROP TABLE and DROP VIEW check SQLITE_DELETE after
        // SQLITE_DROP_TABLE or SQLITE_DROP_VIEW: there, SQLITE_IGNORE would
        // skip the drop, silently.
        guard let argument1, !isInternalTable(argument1), !box.dropsTable else { break }
        box.noteChange(table: String(cString: argument1), delete: true)
        return SQLITE_IGNORE
    case SQLITE_UPDATE:
        guard let argument1, let argument2, !isInternalTable(argument1) else { break }
        box.noteChange(table: String(cString: argument1), updatedColumn: String(cString: argument2))
    case SQLITE_TRANSACTION:
        guard let argument1 else { break }
        if strcmp(argument1, "BEGIN") == 0 {
            box.transactionEffect = .beginTransaction
        } else if strcmp(argument1, "COMMIT") == 0 {
            box.transactionEffect = .commitTransaction
        } else if strcmp(argument1, "ROLLBACK") == 0 {
            box.transactionEffect = .rollbackTransaction
            box.isRollback = true
        }
    case SQLITE_SAVEPOINT:
        guard let argument1, let argument2 else { break }
        let name = String(cString: argument2).lowercased()
        if strcmp(argument1, "BEGIN") == 0 {
            box.transactionEffect = .beginSavepoint(name)
        } else if strcmp(argument1, "RELEASE") == 0 {
            box.transactionEffect = .releaseSavepoint(name)
        } else if strcmp(argument1, "ROLLBACK") == 0 {
            box.transactionEffect = .rollbackSavepoint(name)
            box.isRollback = true
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
