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
    /// The schema version the cache was filled with, when checked.
    var schemaVersion: Int?
    /// Changes each time the cache is cleared: what was derived from the
    /// cache is valid as long as the generation does not change.
    private(set) var generation: UInt64 = 0

    func clear() {
        primaryKeys.removeAll()
        schemaVersion = nil
        generation &+= 1
    }
}

/// The INSERT statement of a record type, with what it was built for.
struct CachedInsertStatement {
    var tableName: String
    var resolution: Database.ConflictResolution
    var columns: [String]
    var statement: Statement
    /// The rowid alias of the table, valid while the schema cache keeps
    /// its generation.
    var rowIDColumn: String?
    var schemaGeneration: UInt64
}

/// What the authorizer notices while a statement is prepared.
final class AuthorizerBox {
    /// Whether the statement being prepared changes the schema.
    var changesSchema = false
    /// Whether the statement being prepared is a ROLLBACK (of a transaction
    /// or to a savepoint).
    var isRollback = false

    func reset() {
        changesSchema = false
        isRollback = false
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

    /// Clears the schema cache if another connection changed the schema
    /// since the cache was filled.
    func clearSchemaCacheIfNeeded() throws {
        let version = try Int.fetchOne(cachedStatement(sql: "PRAGMA schema_version")) ?? 0
        if schemaCache.schemaVersion != version {
            schemaCache.clear()
            schemaCache.schemaVersion = version
        }
    }
}

/// `sqlite3_set_authorizer` callback: notes schema changes and rollbacks,
/// and authorizes everything.
let authorizerCallback: @convention(c) (
    UnsafeMutableRawPointer?, CInt,
    UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> CInt =
{ context, action, argument1, _, _, _ in
    guard let context else { return SQLITE_OK }
    let box = Unmanaged<AuthorizerBox>.fromOpaque(context).takeUnretainedValue()
    switch action {
    case SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TABLE,
         SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW,
         SQLITE_DROP_INDEX, SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TABLE,
         SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW,
         SQLITE_ALTER_TABLE, SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE, SQLITE_ATTACH, SQLITE_DETACH:
        box.changesSchema = true
    case SQLITE_TRANSACTION, SQLITE_SAVEPOINT:
        if let argument1, strcmp(argument1, "ROLLBACK") == 0 {
            box.isRollback = true
        }
    default:
        break
    }
    return SQLITE_OK
}
