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
        let identifier: String
        let foreignKeyChecks: ForeignKeyChecks
        let migrate: @Sendable (Database) throws -> Void
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

    /// Registers a migration.
    ///
    /// - Parameters:
    ///   - identifier: The unique identifier of the migration.
    ///   - foreignKeyChecks: How foreign keys are checked (default
    ///     ``ForeignKeyChecks/deferred``).
    ///   - migrate: The migration.
    /// - Precondition: No migration has the same identifier.
    public mutating func registerMigration(
        _ identifier: String,
        foreignKeyChecks: ForeignKeyChecks = .deferred,
        migrate: @escaping @Sendable (Database) throws -> Void)
    {
        precondition(!registered.contains { $0.identifier == identifier },
            "A migration named \(identifier) is already registered")
        registered.append(Migration(identifier: identifier, foreignKeyChecks: foreignKeyChecks, migrate: migrate))
    }

    /// Returns a migrator whose migrations all check foreign keys
    /// immediately: faster, for migrations that never need to recreate
    /// tables.
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
    /// - Throws: A ``DatabaseError`` when the target is not registered, the
    ///   error of the failing migration, or a ``DatabaseError``.
    public func migrate(_ writer: some DatabaseWriter, upTo targetIdentifier: String) throws {
        try writer.barrierWriteWithoutTransaction { db in
            try migrate(db, upTo: targetIdentifier)
        }
    }

    /// Runs the migrations that have not run yet, without blocking the
    /// calling thread.
    ///
    /// - Throws: The error of the failing migration, or a ``DatabaseError``.
    public func migrate(_ writer: some DatabaseWriter) async throws {
        guard let last = registered.last else { return }
        try await writer.barrierWriteWithoutTransaction { db in
            try migrate(db, upTo: last.identifier)
        }
    }

    /// Runs the migrations on a connection, outside of any transaction.
    private func migrate(_ db: Database, upTo targetIdentifier: String) throws {
        guard let targetIndex = registered.firstIndex(where: { $0.identifier == targetIdentifier }) else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "undefined migration: \(targetIdentifier)")
        }
        if eraseDatabaseOnSchemaChange, try needsErasure(db) {
            try db.erase()
        }
        try createMigrationsTable(db)
        let applied = try appliedIdentifiers(db)
        for migration in registered[...targetIndex] where !applied.contains(migration.identifier) {
            try run(migration, in: db)
        }
    }

    private func createMigrationsTable(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(Self.tableName.quotedDatabaseIdentifier) (identifier TEXT NOT NULL PRIMARY KEY)")
    }

    private func run(_ migration: Migration, in db: Database) throws {
        let record = { (db: Database) in
            try db.execute(
                sql: "INSERT INTO \(Self.tableName.quotedDatabaseIdentifier) (identifier) VALUES (?)",
                arguments: [migration.identifier])
        }
        let foreignKeysEnabled = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false
        guard foreignKeysEnabled && defersForeignKeyChecks && migration.foreignKeyChecks == .deferred else {
            try db.inTransaction(.immediate) {
                try migration.migrate(db)
                try record(db)
                return .commit
            }
            return
        }
        // Foreign keys can only be disabled outside of a transaction.
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
        try db.inTransaction(.immediate) {
            try migration.migrate(db)
            try checkForeignKeys(db, migration: migration.identifier)
            try record(db)
            return .commit
        }
    }

    private func checkForeignKeys(_ db: Database, migration: String) throws {
        let violations = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
        guard let violation = violations.first else { return }
        let table: String = violation["table"]
        let parent: String = violation["parent"]
        throw DatabaseError(
            resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY,
            message: "migration \(migration) leaves \(violations.count) foreign key violation(s), "
                + "such as a row of \(table) (rowid \(violation["rowid"] as Int64? ?? -1)) that refers to a missing row of \(parent)")
    }

    // MARK: Querying migrations

    /// The identifiers of all migrations recorded in the database, registered
    /// or not.
    ///
    /// - Throws: A ``DatabaseError``.
    public func appliedIdentifiers(_ db: Database) throws -> Set<String> {
        guard try db.tableExists(Self.tableName) else { return [] }
        return try String.fetchSet(db, sql: "SELECT identifier FROM \(Self.tableName.quotedDatabaseIdentifier)")
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
    /// registered: the database was migrated by a newer version of the
    /// application.
    ///
    /// - Throws: A ``DatabaseError``.
    public func hasBeenSuperseded(_ db: Database) throws -> Bool {
        let registeredIdentifiers = Set(migrations)
        return try appliedIdentifiers(db).contains { !registeredIdentifiers.contains($0) }
    }

    // MARK: Erasing on schema change

    /// Whether the schema built by the applied migrations differs from the
    /// schema of the database.
    private func needsErasure(_ db: Database) throws -> Bool {
        if try hasBeenSuperseded(db) { return true }
        let applied = try appliedMigrations(db)
        guard let last = applied.last else { return false }
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

    /// The SQL of the schema objects of a database.
    private static func schema(_ db: Database) throws -> Set<String> {
        try String.fetchSet(db, sql: """
            SELECT type || ':' || name || ':' || IFNULL(sql, '') FROM sqlite_master
            WHERE name NOT LIKE 'sqlite_%'
            """)
    }
}

extension Configuration {
    /// The configuration of the temporary database that replays migrations:
    /// same setups, no WAL, writable.
    var forReplayedMigrations: Configuration {
        var configuration = self
        configuration.journalMode = .default
        configuration.readonly = false
        return configuration
    }
}
