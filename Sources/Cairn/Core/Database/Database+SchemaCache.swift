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

/// The schema information of a connection, part of its
/// ``ConnectionState``: only the thread of the current access touches it.
///
/// As in GRDB, the cache is kept per schema (main, temp, attached
/// databases), keyed by table names as written, and remembers misses too:
/// an unqualified name is looked up in the temp schema before main, and the
/// temp schema rarely holds it.
struct SchemaCache {
    /// The schemas of the connection in SQLite's search order (temp when
    /// listed, main, then attached databases), from `PRAGMA database_list`.
    var schemaNames: [String]?
    /// The tables, views and triggers of each schema, from its
    /// `sqlite_master` table, by schema name as listed.
    var schemaObjects: [String: SchemaObjects] = [:]
    /// The columns of tables and views; nil for a missing table.
    var columns: [SchemaTableKey: [ColumnInfo]?] = [:]
    /// The indexes of tables; nil for a missing table.
    var indexes: [SchemaTableKey: [IndexInfo]?] = [:]
    /// The foreign keys of tables; nil for a missing table.
    var foreignKeys: [SchemaTableKey: [ForeignKeyInfo]?] = [:]
    /// The primary keys of tables (and of views, given by the schema
    /// source), by table name as written and schema name as given (nil for
    /// an unqualified name).
    var primaryKeys: [SchemaTableKey: PrimaryKeyInfo] = [:]
    /// The columns that `table.*` selects, by lowercased table name:
    /// joined requests split their rows with their number.
    var selectedColumnNames: [String: [String]] = [:]
    /// Whether a name is the name of a view, keyed by lowercased name.
    var isView: [String: Bool] = [:]
    /// The lowercased names that denote the rowid of a table, keyed by
    /// lowercased table name; an empty set for a view, a `WITHOUT ROWID`
    /// table, or a missing table (see `Database.rowIDNames(ofTable:)`).
    var rowIDNames: [String: Set<String>] = [:]
    /// The SQL of the lookup of a row by primary key, keyed by table name
    /// as written; nil for a primary key of several columns (see
    /// `Database.primaryKeyLookupSQL(_:)`).
    var primaryKeyLookupSQL: [String: String?] = [:]
    /// The last entry of `primaryKeyLookupSQL` that was read: a loop of
    /// lookups in one table finds it by comparing the table name, which is
    /// immediate for the same string, without hashing it.
    var lastPrimaryKeyLookup: (tableName: String, sql: String?)?
    /// The schema version the cache was filled with, when checked.
    var schemaVersion: Int?
    /// Whether the schema version must be checked before the cache is used.
    var needsVersionCheck = false
    /// Changes each time the cache is cleared: what was derived from the
    /// cache is valid as long as the generation does not change.
    private(set) var generation: UInt64 = 0
    /// Whether a statement changed the schema inside the current
    /// transaction: a rollback must forget the cache then. GRDB forgets it
    /// on schema changes only, and never runs its introspection again after
    /// a rollback: Cairn does, only when the rollback undid a change of the
    /// schema.
    private var changedInTransaction = false

    /// Forgets the cache after a statement changed the schema (`CREATE`,
    /// `DROP`, `ALTER`, `ATTACH`, `DETACH`) or rolled back (a transaction
    /// or a savepoint).
    ///
    /// - Parameter isInsideTransaction: Whether a transaction is open after
    ///   the statement.
    mutating func statementDidInvalidate(rollingBack: Bool, isInsideTransaction: Bool) {
        if rollingBack {
            didRollBack(isInsideTransaction: isInsideTransaction)
        } else {
            clear()
            if isInsideTransaction { changedInTransaction = true }
        }
    }

    /// Forgets the cache after a rollback, or a failure that may have rolled
    /// back, when the rolled back changes may include schema changes.
    ///
    /// - Parameter isInsideTransaction: Whether a transaction is still open.
    mutating func didRollBack(isInsideTransaction: Bool) {
        if changedInTransaction { clear() }
        if !isInsideTransaction { changedInTransaction = false }
    }

    /// Notes that a transaction ended with a commit: its schema changes
    /// stay.
    ///
    /// - Parameter isInsideTransaction: Whether a transaction is still open
    ///   (after the release of a savepoint inside a transaction).
    mutating func didCommit(isInsideTransaction: Bool) {
        if !isInsideTransaction { changedInTransaction = false }
    }

    mutating func clear() {
        schemaNames = nil
        schemaObjects.removeAll()
        columns.removeAll()
        indexes.removeAll()
        foreignKeys.removeAll()
        primaryKeys.removeAll()
        selectedColumnNames.removeAll()
        isView.removeAll()
        rowIDNames.removeAll()
        primaryKeyLookupSQL.removeAll()
        lastPrimaryKeyLookup = nil
        schemaVersion = nil
        generation &+= 1
    }
}

/// A table of a schema, as a key of the schema cache: the table name as
/// written by the caller (SQLite compares names without regard to case, the
/// cache does not), and the schema name (nil: unqualified).
struct SchemaTableKey: Hashable {
    var schema: String?
    var table: String
}

/// The tables, views and triggers of one schema, by lowercased name (the
/// rows of its `sqlite_master` table).
struct SchemaObjects {
    var tables: Set<String> = []
    /// The names of the tables as they were created, by lowercased name.
    var tableNames: [String: String] = [:]
    var views: Set<String> = []
    var triggers: Set<String> = []
}

extension Database {
    /// Clears the schema cache. Call it after the schema was changed in a way
    /// Cairn cannot notice (by another process, for instance).
    public func clearSchemaCache() {
        state.schemaCache.clear()
    }

    /// Tells that another connection may have changed the schema: the cache
    /// checks the schema version before it is used next (in the same read
    /// transaction, so that the version matches what the read sees). Reads
    /// that do not use the cache pay nothing.
    func clearSchemaCacheIfNeeded() {
        state.schemaCache.needsVersionCheck = true
    }

    /// Clears the schema cache if another connection changed the schema
    /// since the cache was filled, when a check is due.
    func checkSchemaCacheVersion() throws {
        guard state.schemaCache.needsVersionCheck else { return }
        let version = try Int.fetchOne(internalCachedStatement(sql: "PRAGMA schema_version")) ?? 0
        if state.schemaCache.schemaVersion != version {
            state.schemaCache.clear()
            state.schemaCache.schemaVersion = version
        }
        state.schemaCache.needsVersionCheck = false
    }
}
