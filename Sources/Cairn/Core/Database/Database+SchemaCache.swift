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
struct SchemaCache {
    var primaryKeys: [String: PrimaryKeyInfo] = [:]
    /// The columns that `table.*` selects, by lowercased table name:
    /// joined requests split their rows with their number.
    var selectedColumnNames: [String: [String]] = [:]
    /// The foreign keys of tables, by lowercased table name: associations
    /// infer their join conditions from them.
    var foreignKeys: [String: [ForeignKeyInfo]] = [:]
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

    mutating func clear() {
        primaryKeys.removeAll()
        selectedColumnNames.removeAll()
        foreignKeys.removeAll()
        isView.removeAll()
        rowIDNames.removeAll()
        primaryKeyLookupSQL.removeAll()
        lastPrimaryKeyLookup = nil
        schemaVersion = nil
        generation &+= 1
    }
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
