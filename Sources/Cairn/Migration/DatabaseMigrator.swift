import Foundation
/// Runs the migrations of a database, each once, in order.
///
/// ```swift
/// var migrator = DatabaseMigrator()
/// migrator.registerMigration("createPlayer") { db in
///     try db.create(table: "player") { t in
///         t.autoIncrementedPrimaryKey("id")
///         t.column("name", .text).notNull()
///     }
/// }
/// migrator.registerMigration("addScore") { db in
///     try db.alter(table: "player") { t in
///         t.add(column: "score", .integer).notNull().defaults(to: 0)
///     }
/// }
/// try migrator.migrate(dbQueue)
/// ```
///
/// Each migration runs in its own transaction: a migration that fails is
/// rolled back completely, is not recorded, and the migrations after it do
/// not run. The identifiers of applied migrations are stored in the
/// `grdb_migrations` table (the name that GRDB uses, so that databases
/// migrated by GRDB keep their history).
public struct DatabaseMigrator: Sendable {
    /// How foreign keys are checked during a migration.
    public enum ForeignKeyChecks: Sendable {
        /// Foreign keys are disabled while the migration runs, and checked
        /// once, before it commits (the default): the migration may recreate
        /// tables, as SQLite recommends for schema changes that ALTER TABLE
        /// cannot do.
        case deferred
        /// Foreign keys are enforced as the migration runs.
        case immediate
    }

    private struct Migration: Sendable {
        /// How a migration runs with respect to foreign keys.
        enum ForeignKeyChecking: Sendable {
            /// Foreign keys off, checked before the commit.
            case deferred
            /// Foreign keys on.
            case immediate
            /// Foreign keys off, not checked (see
            /// ``DatabaseMigrator/disablingDeferredForeignKeyChecks()``).
            case disabled
        }

        let identifier: String
        /// The identifiers of the migrations that this one replaces.
        let mergedIdentifiers: Set<String>
        let foreignKeyChecking: ForeignKeyChecking
        /// The migration, given the merged migrations already applied.
        let migrate: @Sendable (Database, Set<String>) throws -> Void
    }

    private var registered: [Migration] = []

    /// Whether to erase the database and migrate it again when the
    /// migrations have changed since they were applied (or the database
    /// holds migrations that are no longer registered). Default: false.
    ///
    /// Use it during development only: it destroys data.
    ///
    /// ```swift
    /// var migrator = DatabaseMigrator()
    /// #if DEBUG
    /// migrator.eraseDatabaseOnSchemaChange = true
    /// #endif
    /// ```
    public var eraseDatabaseOnSchemaChange = false

    private var defersForeignKeyChecks = true

    /// The name of the table that records applied migrations.
    static let tableName = "grdb_migrations"

    /// Creates a migrator without migrations.
    public init() { }

    /// The identifiers of the registered migrations, in order.
    public var migrations: [String] { registered.map(\.identifier) }

    /// Registers a migration, which runs after the migrations registered
    /// before it.
    ///
    /// ```swift
    /// migrator.registerMigration("createPlayer") { db in
    ///     try db.create(table: "player") { t in
    ///         t.autoIncrementedPrimaryKey("id")
    ///         t.column("name", .text).notNull()
    ///     }
    /// }
    /// ```
    ///
    /// The migration runs in a transaction: when it throws, it is rolled
    /// back, and the migrating method throws its error.
    ///
    /// - Parameters:
    ///   - identifier: The unique identifier of the migration.
    ///   - foreignKeyChecks: How foreign keys are checked (default
    ///     ``ForeignKeyChecks/deferred``). Ignored when the configuration
    ///     disables foreign keys.
    ///   - migrate: The migration.
    /// - Precondition: No migration has the same identifier.
    public mutating func registerMigration(
        _ identifier: String,
        foreignKeyChecks: ForeignKeyChecks = .deferred,
        migrate: @escaping @Sendable (Database) throws -> Void)
    {
        registerMigration(identifier, foreignKeyChecks: foreignKeyChecks, merging: []) { db, _ in
            try migrate(db)
        }
    }

    /// Registers a migration that replaces migrations of a previous version
    /// of the application: databases that were migrated by that version
    /// run it as well as new databases.
    ///
    /// To merge "v1", "v2" and "v3", for instance, remove the migrations
    /// "v1" and "v2", and register "v3" again as merging them. The second
    /// argument of the migration is the set of the merged migrations that
    /// the database already applied: skip their work.
    ///
    /// ```swift
    /// migrator.registerMigration("v3", merging: ["v1", "v2"]) { db, appliedIdentifiers in
    ///     if !appliedIdentifiers.contains("v1") {
    ///         // what v1 did
    ///     }
    ///     if !appliedIdentifiers.contains("v2") {
    ///         // what v2 did
    ///     }
    ///     // what v3 did
    /// }
    /// ```
    ///
    /// When it has run, the identifiers of the merged migrations are removed
    /// from the database, in the same transaction, and replaced with its
    /// own. A database that applied the migration and still records merged
    /// identifiers loses them at the next migration. Do not name the merged
    /// migration as one of the migrations it merges (such an identifier is
    /// ignored in `mergedIdentifiers`).
    ///
    /// - Parameters:
    ///   - identifier: The unique identifier of the migration.
    ///   - foreignKeyChecks: How foreign keys are checked (default
    ///     ``ForeignKeyChecks/deferred``). Ignored when the configuration
    ///     disables foreign keys.
    ///   - mergedIdentifiers: The identifiers of the migrations that this
    ///     one replaces.
    ///   - migrate: The migration, given the database and the set of the
    ///     merged migrations that the database already applied.
    /// - Precondition: No migration has the same identifier.
    public mutating func registerMigration(
        _ identifier: String,
        foreignKeyChecks: ForeignKeyChecks = .deferred,
        merging mergedIdentifiers: Set<String> = [],
        migrate: @escaping @Sendable (_ db: Database, _ appliedIdentifiers: Set<String>) throws -> Void)
    {
        stopUnless(!registered.contains { $0.identifier == identifier },
            "already registered migration: \(String(reflecting: identifier))")
        let checking: Migration.ForeignKeyChecking
        switch foreignKeyChecks {
        case .deferred: checking = defersForeignKeyChecks ? .deferred : .disabled
        case .immediate: checking = .immediate
        }
        var mergedIdentifiers = mergedIdentifiers
        mergedIdentifiers.remove(identifier)
        registered.append(Migration(
            identifier: identifier, mergedIdentifiers: mergedIdentifiers,
            foreignKeyChecking: checking, migrate: migrate))
    }

    /// Returns a migrator whose migrations registered from now on with
    /// ``ForeignKeyChecks/deferred`` checks run with foreign keys disabled,
    /// and without any check: faster, on large databases, but the integrity
    /// of the database is then yours to check (with
    /// ``Database/checkForeignKeys()`` or ``Database/checkForeignKeys(in:in:)``
    /// at the end of such a migration, for instance).
    ///
    /// ```swift
    /// var migrator = DatabaseMigrator()
    /// migrator.registerMigration("v1") { db in ... }   // deferred checks
    /// migrator = migrator.disablingDeferredForeignKeyChecks()
    /// migrator.registerMigration("v2") { db in ... }   // no check
    /// migrator.registerMigration("v3", foreignKeyChecks: .immediate) { db in ... } // immediate checks
    /// ```
    ///
    /// The migrations registered before keep their checks.
    public func disablingDeferredForeignKeyChecks() -> DatabaseMigrator {
        var migrator = self
        migrator.defersForeignKeyChecks = false
        return migrator
    }

    // MARK: Migrating

    /// Runs the migrations that have not run yet.
    ///
    /// - Parameter writer: A queue or pool.
    /// - Throws: The error of the failing migration (the migrations before
    ///   it stay applied), or a ``DatabaseError``.
    public func migrate(_ writer: some DatabaseWriter) throws {
        guard let last = registered.last else { return }
        try migrate(writer, upTo: last.identifier)
    }

    /// Runs the migrations that have not run yet, up to and including a
    /// migration.
    ///
    /// - Parameters:
    ///   - writer: A queue or pool.
    ///   - targetIdentifier: The identifier of a registered migration.
    /// - Throws: A ``DatabaseError`` with code `SQLITE_MISUSE` when the
    ///   target is not registered (`undefined migration: "v3"`), or when a
    ///   later migration is already applied (`database is already migrated
    ///   beyond migration "v1"`): GRDB stops the program there. Otherwise
    ///   the error of the failing migration, or a ``DatabaseError``.
    public func migrate(_ writer: some DatabaseWriter, upTo targetIdentifier: String) throws {
        try writer.barrierWriteWithoutTransaction { db in
            try migrate(db, upTo: targetIdentifier)
        }
    }

    /// Schedules the migrations that have not run yet, and returns at once.
    ///
    /// ```swift
    /// migrator.asyncMigrate(dbQueue) { result in
    ///     switch result {
    ///     case .success(let db):
    ///         // The database is migrated: use db until the closure returns.
    ///     case .failure(let error):
    ///         // A migration failed.
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - writer: A queue or pool.
    ///   - completion: Called on the writer's queue, with the connection to
    ///     the migrated database, or the error of the failing migration.
    ///     The connection is valid until `completion` returns.
    public func asyncMigrate(
        _ writer: any DatabaseWriter,
        completion: @escaping @Sendable (Result<Database, Error>) -> Void)
    {
        writer.asyncBarrierWriteWithoutTransaction { dbResult in
            do {
                let db = try dbResult.get()
                if let last = registered.last {
                    try migrate(db, upTo: last.identifier)
                }
                completion(.success(db))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Runs the migrations on a connection, outside of any transaction.
    private func migrate(_ db: Database, upTo targetIdentifier: String) throws {
        // GRDB stops the program on these two misuses, with these messages.
        guard let targetIndex = registered.firstIndex(where: { $0.identifier == targetIdentifier }) else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "undefined migration: \(String(reflecting: targetIdentifier))")
        }
        if eraseDatabaseOnSchemaChange {
            // As GRDB: the schemas are compared inside a deferred
            // transaction, and the database is erased after it.
            var needsErase = false
            try db.inTransaction(.deferred) {
                needsErase = try hasSchemaChanges(db)
                return .commit
            }
            if needsErase {
                try db.erase()
            }
        }
        try createMigrationsTable(db)
        // GRDB reads the applied migrations twice: the registered ones, to
        // check the target, then all of them.
        let appliedRegistered = Set(try appliedMigrations(db))
        if registered[(targetIndex + 1)...].contains(where: { appliedRegistered.contains($0.identifier) }) {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "database is already migrated beyond migration \(String(reflecting: targetIdentifier))")
        }
        let applied = try appliedIdentifiers(db)
        for migration in registered[...targetIndex] {
            if applied.contains(migration.identifier) {
                // Applied, maybe before it merged migrations that the
                // database still records: one DELETE, outside of any
                // transaction, as GRDB runs it.
                if !migration.mergedIdentifiers.isDisjoint(with: applied) {
                    try deleteMergedIdentifiers(of: migration, in: db)
                }
            } else {
                try db.withSchemaSource(nil) {
                    try run(migration, appliedMergedIdentifiers: migration.mergedIdentifiers.intersection(applied), in: db)
                }
            }
        }
    }

    private func createMigrationsTable(_ db: Database) throws {
        // GRDB's statement, word for word: the schema of the table is the
        // same in files that GRDB and Cairn migrate.
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
    }

    /// Forgets all the migrations that `migration` merges, applied or not,
    /// with GRDB's statement (`DELETE FROM grdb_migrations WHERE identifier
    /// IN ('v1', 'v2')`, the identifiers sorted).
    private func deleteMergedIdentifiers(of migration: Migration, in db: Database) throws {
        guard !migration.mergedIdentifiers.isEmpty else { return }
        let identifiers = migration.mergedIdentifiers.sorted()
        let placeholders = Array(repeating: "?", count: identifiers.count).joined(separator: ", ")
        try db.execute(
            sql: "DELETE FROM grdb_migrations WHERE identifier IN (\(placeholders))",
            arguments: StatementArguments(identifiers))
    }

    private func run(_ migration: Migration, appliedMergedIdentifiers: Set<String>, in db: Database) throws {
        // GRDB's statements, in GRDB's order: the merged identifiers are
        // deleted before the migration is recorded.
        let migrateAndRecord = { (db: Database) in
            try migration.migrate(db, appliedMergedIdentifiers)
            try deleteMergedIdentifiers(of: migration, in: db)
            try db.execute(
                sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)",
                arguments: [migration.identifier])
        }
        let foreignKeysEnabled = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false
        guard foreignKeysEnabled && migration.foreignKeyChecking != .immediate else {
            try db.inTransaction(.immediate) {
                try migrateAndRecord(db)
                return .commit
            }
            return
        }
        // Foreign keys can only be disabled outside of a transaction.
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
        try db.inTransaction(.immediate) {
            try migrateAndRecord(db)
            if migration.foreignKeyChecking == .deferred {
                // GRDB's error: that of the first violation.
                try db.checkForeignKeys()
            }
            return .commit
        }
    }

    // MARK: Querying migrations

    /// The identifiers of all migrations recorded in the database, registered
    /// or not.
    ///
    /// - Throws: A ``DatabaseError``.
    public func appliedIdentifiers(_ db: Database) throws -> Set<String> {
        // As GRDB: the query first, and the table is looked for only when
        // the query fails.
        do {
            return try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations")
        } catch {
            if (try? !db.tableExists(Self.tableName)) ?? false {
                return []
            }
            throw error
        }
    }

    /// The identifiers of the registered migrations that were applied, in
    /// order.
    ///
    /// - Throws: A ``DatabaseError``.
    public func appliedMigrations(_ db: Database) throws -> [String] {
        let applied = try appliedIdentifiers(db)
        return migrations.filter { applied.contains($0) }
    }

    /// The identifiers of the registered migrations that were applied, up to
    /// the first one that was not.
    ///
    /// - Throws: A ``DatabaseError``.
    public func completedMigrations(_ db: Database) throws -> [String] {
        let applied = try appliedIdentifiers(db)
        return Array(migrations.prefix { applied.contains($0) })
    }

    /// Whether all registered migrations were applied.
    ///
    /// - Throws: A ``DatabaseError``.
    public func hasCompletedMigrations(_ db: Database) throws -> Bool {
        try completedMigrations(db).count == registered.count
    }

    /// Whether the database holds applied migrations that are not
    /// registered: the database was likely migrated by a newer version of
    /// the application.
    ///
    /// As in GRDB, only the identifiers of registered migrations count as
    /// known. The identifiers that a registered migration merges (see
    /// ``registerMigration(_:foreignKeyChecks:merging:migrate:)``) are
    /// unknown until that migration has run and removed them.
    ///
    /// - Throws: A ``DatabaseError``.
    public func hasBeenSuperseded(_ db: Database) throws -> Bool {
        let knownIdentifiers = self.knownIdentifiers
        return try appliedIdentifiers(db).contains { !knownIdentifiers.contains($0) }
    }

    /// The identifiers of the registered migrations.
    private var knownIdentifiers: Set<String> { Set(migrations) }

    // MARK: Detecting schema changes

    /// Whether the migrations of the database differ from the registered
    /// ones: the database applied a migration that is not registered (a
    /// merged identifier that is still recorded counts as such, as in
    /// GRDB), or its schema differs from the schema that the registered
    /// migrations build, up to the last one it applied.
    ///
    /// The schemas are compared with the SQL of their tables, indexes,
    /// views and triggers (`sqlite_master`), without the internal tables of
    /// SQLite and of the migrator. The registered migrations are replayed
    /// on a new temporary database file, with the configuration of `db`.
    ///
    /// ``eraseDatabaseOnSchemaChange`` erases the database when this method
    /// returns true. To decide yourself:
    ///
    /// ```swift
    /// #if DEBUG
    /// if try dbQueue.read(migrator.hasSchemaChanges) {
    ///     try dbQueue.erase()
    /// }
    /// #endif
    /// try migrator.migrate(dbQueue)
    /// ```
    ///
    /// - Parameter db: A connection to the database.
    /// - Throws: A ``DatabaseError``, or the error of a replayed migration.
    public func hasSchemaChanges(_ db: Database) throws -> Bool {
        // One read of the applied migrations, as GRDB.
        let appliedIdentifiers = try appliedIdentifiers(db)
        let knownIdentifiers = self.knownIdentifiers
        if appliedIdentifiers.contains(where: { !knownIdentifiers.contains($0) }) { return true }
        guard let last = migrations.last(where: { appliedIdentifiers.contains($0) }) else { return false }
        // Replay the applied migrations on an empty temporary database. It
        // is a file, not an in-memory database: migrations may copy much
        // data, and the setups of the configuration may need a file (such
        // as `SQLITE_FCNTL_PERSIST_WAL`, which a database without an open
        // file refuses, as SQLite's private temporary databases do until
        // they spill to disk).
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("cairn-migrations-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
        }
        let referenceSchema: Set<String>
        do {
            let reference = try DatabaseQueue(path: path, configuration: db.configuration.forReplayedMigrations)
            var replay = self
            replay.eraseDatabaseOnSchemaChange = false
            try replay.migrate(reference, upTo: last)
            referenceSchema = try reference.read { try Self.schema($0) }
            try reference.close()
        }
        return try Self.schema(db) != referenceSchema
    }

    /// The SQL of the schema objects of the main database, without the
    /// internal tables of SQLite and of the migrator, and without the tables
    /// that Litestream adds to the databases it replicates (see the
    /// "Replication and Backups" article): a replicated database must not
    /// look changed, and be erased by `eraseDatabaseOnSchemaChange`.
    private static func schema(_ db: Database) throws -> Set<String> {
        var schema: Set<String> = []
        for row in try Row.fetchAll(db, sql: "SELECT type, name, sql FROM main.sqlite_master") {
            let name: String = try row.decode(forColumn: "name")
            guard !Database.isSQLiteInternalTable(name), !Database.isGRDBInternalTable(name),
                  !litestreamTables.contains(name) else { continue }
            let type: String = try row.decode(forColumn: "type")
            let sql: String? = try row.decode(forColumn: "sql")
            schema.insert(type + ":" + name + ":" + (sql ?? ""))
        }
        return schema
    }
}

/// The tables that Litestream 0.5 creates in the databases it replicates.
private let litestreamTables: Set<String> = ["_litestream_seq", "_litestream_lock"]

extension Configuration {
    /// The configuration of the temporary database that replays migrations:
    /// same setups, no WAL, writable, with its own dispatch queue (the
    /// migrator runs on the queue of the migrated database, which a serial
    /// target queue would make wait for itself), and never suspended.
    var forReplayedMigrations: Configuration {
        var configuration = self
        configuration.journalMode = .default
        configuration.readonly = false
        configuration.targetQueue = nil
        configuration.writeTargetQueue = nil
        configuration.observesSuspensionNotifications = false
        configuration.label = "Cairn.DatabaseMigrator.replay"
        return configuration
    }
}
