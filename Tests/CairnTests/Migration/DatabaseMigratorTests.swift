import Foundation
import Testing
import Cairn

@Suite struct DatabaseMigratorTests {
    func makeMigrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createPlayer") { db throws in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
        }
        migrator.registerMigration("addScore") { db throws in
            try db.alter(table: "player") { t in
                t.add(column: "score", .integer).notNull().defaults(to: 0)
            }
        }
        return migrator
    }

    @Test(arguments: WriterKind.allCases)
    func migrate(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        let migrator = makeMigrator()
        #expect(migrator.migrations == ["createPlayer", "addScore"])
        try migrator.migrate(writer, upTo: "createPlayer")
        try writer.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["createPlayer"])
            #expect(try migrator.completedMigrations(db) == ["createPlayer"])
            #expect(try !migrator.hasCompletedMigrations(db))
            #expect(try db.columns(in: "player").map(\.name) == ["id", "name"])
        }
        try migrator.migrate(writer)
        try migrator.migrate(writer) // applied migrations do not run again
        try writer.read { db throws in
            #expect(try migrator.appliedIdentifiers(db) == ["createPlayer", "addScore"])
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try !migrator.hasBeenSuperseded(db))
            #expect(try db.columns(in: "player").map(\.name) == ["id", "name", "score"])
        }
        // An older version of the application sees a superseded database.
        var older = DatabaseMigrator()
        older.registerMigration("createPlayer") { _ in }
        try writer.read { db throws in #expect(try older.hasBeenSuperseded(db)) }
        #expect(throws: DatabaseError.self) { try migrator.migrate(writer, upTo: "missing") }
    }

    struct MigrationError: Error {}

    @Test func failingMigrationRollsBackAndIsNotRecorded() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = makeMigrator()
        migrator.registerMigration("failing") { db throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            try db.create(table: "other") { t in t.column("a") }
            throw MigrationError()
        }
        migrator.registerMigration("never") { db throws in
            try db.create(table: "never") { t in t.column("a") }
        }
        #expect(throws: MigrationError.self) { try migrator.migrate(dbQueue) }
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["createPlayer", "addScore"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
            #expect(try !db.tableExists("other"))
            #expect(try !db.tableExists("never"))
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
    }

    @Test func deferredForeignKeyChecks() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db throws in
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("team")
            }
            try db.execute(sql: "INSERT INTO team (id) VALUES (1); INSERT INTO player (teamId) VALUES (1)")
        }
        // Recreating a referenced table is possible with deferred checks.
        migrator.registerMigration("v2") { db throws in
            try db.create(table: "new_team") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
            }
            try db.execute(sql: "INSERT INTO new_team (id) SELECT id FROM team")
            try db.drop(table: "team")
            try db.rename(table: "new_team", to: "team")
        }
        try migrator.migrate(dbQueue)
        // A migration that leaves a violation fails.
        migrator.registerMigration("v3") { db throws in
            try db.execute(sql: "DELETE FROM team")
        }
        #expect {
            try migrator.migrate(dbQueue)
        } throws: { error in
            (error as? DatabaseError)?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY
        }
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team") == 1)
        }
        // With immediate checks, the statement itself fails.
        var immediate = DatabaseMigrator()
        immediate.registerMigration("v1") { _ in }
        immediate.registerMigration("delete", foreignKeyChecks: .immediate) { db throws in
            try db.execute(sql: "DELETE FROM team")
        }
        #expect(throws: DatabaseError.self) { try immediate.migrate(dbQueue) }
    }

    /// A migrator that erases the database on schema change, with one
    /// migration that creates `player (name)`.
    static func erasingPlayerMigrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.eraseDatabaseOnSchemaChange = true
        migrator.registerMigration("v1") { db throws in
            try db.create(table: "player") { t in t.column("name", .text) }
        }
        return migrator
    }

    @Test func eraseDatabaseOnSchemaChange() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        let migrator = Self.erasingPlayerMigrator()
        try migrator.migrate(dbQueue)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player VALUES ('Arthur')") }
        // Same migrations: nothing is erased.
        try migrator.migrate(dbQueue)
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)

        // The migration changed during development: the database is erased.
        var changed = DatabaseMigrator()
        changed.eraseDatabaseOnSchemaChange = true
        changed.registerMigration("v1") { db throws in
            try db.create(table: "player") { t in
                t.column("name", .text)
                t.column("score", .integer)
            }
        }
        try changed.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
            #expect(try db.columns(in: "player").map(\.name) == ["name", "score"])
            #expect(try changed.appliedMigrations(db) == ["v1"])
        }
    }

    /// The tables that Litestream adds to the databases it replicates do
    /// not make the schema look changed: a replicated database is not
    /// erased. Any other table does.
    @Test func litestreamTablesAreNotSchemaChanges() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        let migrator = Self.erasingPlayerMigrator()
        try migrator.migrate(dbQueue)
        try dbQueue.write { db in
            // As Litestream 0.5.17 creates them.
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS _litestream_seq (id INTEGER PRIMARY KEY, seq INTEGER);
                CREATE TABLE IF NOT EXISTS _litestream_lock (id INTEGER);
                INSERT INTO player VALUES ('Arthur');
                """)
        }
        #expect(try dbQueue.read { db in try migrator.hasSchemaChanges(db) } == false)
        try migrator.migrate(dbQueue)
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)

        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE _litestream_other (id INTEGER)") }
        #expect(try dbQueue.read { db in try migrator.hasSchemaChanges(db) } == true)
    }

    /// The migrations are replayed on a database that has a file, so that
    /// setups that need one (persistent WAL) do not fail.
    @Test func eraseDatabaseOnSchemaChangeWithSetupThatNeedsAFile() throws {
        let directory = try TemporaryDirectory()
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            var flag: CInt = 0
            let code = sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, &flag)
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
        }
        let dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: configuration)
        let migrator = Self.erasingPlayerMigrator()
        try migrator.migrate(dbQueue)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player VALUES ('Arthur')") }
        // The comparison replays v1 with the same setup.
        try migrator.migrate(dbQueue)
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
    }

    /// As in GRDB, `migrate` has no async variant: an async function calls
    /// the synchronous one, without `await`.
    @Test func migrationFromAnAsyncFunction() async throws {
        let dbQueue = try DatabaseQueue()
        try makeMigrator().migrate(dbQueue)
        let applied = try await dbQueue.read { db in try makeMigrator().appliedMigrations(db) }
        #expect(applied == ["createPlayer", "addScore"])
    }

    @Test(arguments: WriterKind.allCases)
    func mergedMigrations(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        // Version 1 of the application had three migrations; the database
        // applied the first two.
        var old = DatabaseMigrator()
        old.registerMigration("v1") { db throws in try db.execute(sql: "CREATE TABLE a (x)") }
        old.registerMigration("v2") { db throws in try db.execute(sql: "CREATE TABLE b (x)") }
        old.registerMigration("v3") { db throws in try db.execute(sql: "CREATE TABLE c (x)") }
        try old.migrate(writer, upTo: "v2")

        // Version 2 merges them into v3.
        let received = Locked<[Set<String>]>([])
        var new = DatabaseMigrator()
        new.registerMigration("v3", merging: ["v1", "v2", "v3"]) { db, appliedIdentifiers throws in
            received.withLock { $0.append(appliedIdentifiers) }
            if !appliedIdentifiers.contains("v1") { try db.execute(sql: "CREATE TABLE a (x)") }
            if !appliedIdentifiers.contains("v2") { try db.execute(sql: "CREATE TABLE b (x)") }
            try db.execute(sql: "CREATE TABLE c (x)")
        }
        new.registerMigration("v4") { db throws in try db.execute(sql: "CREATE TABLE d (x)") }
        try writer.read { db throws in
            // As in GRDB, the merged identifiers are not registered ones
            // until the merging migration has removed them.
            #expect(try new.hasBeenSuperseded(db))
            #expect(try new.hasSchemaChanges(db))
        }
        try new.migrate(writer)
        try new.migrate(writer)
        #expect(received.withLock { $0 } == [["v1", "v2"]])
        try writer.read { db throws in
            #expect(try !new.hasBeenSuperseded(db))
            #expect(try new.appliedIdentifiers(db) == ["v3", "v4"])
            #expect(try new.hasCompletedMigrations(db))
            for table in ["a", "b", "c", "d"] { #expect(try db.tableExists(table)) }
        }

        // A new database runs the merged migration from scratch.
        let fresh = try DatabaseQueue()
        try new.migrate(fresh)
        #expect(received.withLock { $0 } == [["v1", "v2"], []])
        try fresh.read { db throws in #expect(try new.appliedIdentifiers(db) == ["v3", "v4"]) }
    }

    @Test func appliedMergedMigrationForgetsTheMergedIdentifiers() throws {
        let dbQueue = try DatabaseQueue()
        // A database that applied "v2" and still records "v1" (merged into
        // "v2" later).
        var old = DatabaseMigrator()
        old.registerMigration("v1") { _ in }
        old.registerMigration("v2") { _ in }
        try old.migrate(dbQueue)
        var new = DatabaseMigrator()
        new.registerMigration("v2", merging: ["v1"]) { _, _ in Issue.record("v2 ran again") }
        try new.migrate(dbQueue)
        try dbQueue.read { db throws in #expect(try new.appliedIdentifiers(db) == ["v2"]) }
    }

    @Test func failedMergedMigrationKeepsTheMergedIdentifiers() throws {
        let dbQueue = try DatabaseQueue()
        var old = DatabaseMigrator()
        old.registerMigration("v1") { _ in }
        try old.migrate(dbQueue)
        var new = DatabaseMigrator()
        new.registerMigration("v2", merging: ["v1"]) { db, _ throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            throw MigrationError()
        }
        #expect(throws: MigrationError.self) { try new.migrate(dbQueue) }
        try dbQueue.read { db throws in
            #expect(try new.appliedIdentifiers(db) == ["v1"])
            #expect(try !db.tableExists("t"))
        }
    }

    @Test func hasSchemaChanges() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db throws in try db.execute(sql: "CREATE TABLE player (name TEXT)") }
        try dbQueue.read { db throws in #expect(try !migrator.hasSchemaChanges(db)) }
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in #expect(try !migrator.hasSchemaChanges(db)) }
        // The schema changed outside of the migrations.
        try dbQueue.write { db throws in try db.execute(sql: "CREATE INDEX player_on_name ON player(name)") }
        try dbQueue.read { db throws in #expect(try migrator.hasSchemaChanges(db)) }
        try dbQueue.erase()
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in #expect(try !migrator.hasSchemaChanges(db)) }
        // The database applied a migration that is not registered.
        var other = DatabaseMigrator()
        other.registerMigration("v0") { _ in }
        try other.migrate(dbQueue)
        try dbQueue.read { db throws in #expect(try migrator.hasSchemaChanges(db)) }
    }

    @Test func asyncMigrateWithCompletion() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.filePath())
        let migrator = makeMigrator()
        let columns = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[String], Error>) in
            migrator.asyncMigrate(dbPool) { result in
                continuation.resume(with: Result { try result.get().columns(in: "player").map(\.name) })
            }
        }
        #expect(columns == ["id", "name", "score"])

        var failing = DatabaseMigrator()
        failing.registerMigration("failing") { _ in throw MigrationError() }
        let error = await withCheckedContinuation { (continuation: CheckedContinuation<(any Error)?, Never>) in
            failing.asyncMigrate(dbPool) { result in
                if case .failure(let error) = result { continuation.resume(returning: error) } else { continuation.resume(returning: nil) }
            }
        }
        #expect(error is MigrationError)
    }

    @Test func disablingDeferredForeignKeyChecksAppliesToLaterMigrations() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY);
                CREATE TABLE player (teamId INTEGER REFERENCES team(id));
                """)
        }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("checked") { db throws in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == false)
        }
        migrator = migrator.disablingDeferredForeignKeyChecks()
        migrator.registerMigration("unchecked") { db throws in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == false)
            // Left as it is: no check.
            try db.execute(sql: "INSERT INTO player VALUES (1)")
        }
        migrator.registerMigration("immediate", foreignKeyChecks: .immediate) { db throws in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["checked", "unchecked", "immediate"])
            #expect(try db.foreignKeyViolations().next() != nil)
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }

        // A migration registered before, with deferred checks, still fails.
        var checked = DatabaseMigrator()
        checked.registerMigration("insert") { db throws in try db.execute(sql: "INSERT INTO player VALUES (2)") }
        checked = checked.disablingDeferredForeignKeyChecks()
        #expect {
            try checked.migrate(dbQueue)
        } throws: { error in
            guard let error = error as? DatabaseError else { return false }
            return error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY
                && error.message?.hasPrefix("FOREIGN KEY constraint violation - from player(teamId) to team(id)") == true
        }
    }

    /// A file that GRDB migrated: its tables, and GRDB's table of applied
    /// migrations, made with the SQL that GRDB 7.8 runs.
    static func makeDatabaseMigratedByGRDB(_ writer: some DatabaseWriter) throws {
        try writer.write { db throws in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations (identifier) VALUES ('createPlayer');
                CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL);
                INSERT INTO player (name) VALUES ('Arthur');
                """)
        }
    }

    @Test(arguments: WriterKind.allCases)
    func migrationsThatGRDBAppliedDoNotRunAgain(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        try Self.makeDatabaseMigratedByGRDB(writer)
        var migrator = makeMigrator()
        migrator.registerMigration("addTeam") { db throws in
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
        }
        try writer.read { db throws in
            #expect(try migrator.appliedIdentifiers(db) == ["createPlayer"])
            #expect(try migrator.appliedMigrations(db) == ["createPlayer"])
            #expect(try !migrator.hasCompletedMigrations(db))
        }
        // createPlayer would fail (the table exists): only the new ones run.
        try migrator.migrate(writer)
        try writer.read { db throws in
            #expect(try migrator.appliedIdentifiers(db) == ["createPlayer", "addScore", "addTeam"])
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player") == ["Arthur"])
            #expect(try db.columns(in: "player").map(\.name) == ["id", "name", "score"])
            #expect(try db.tableExists("team"))
            // The table keeps GRDB's schema, and Cairn writes the same one.
            #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'grdb_migrations'")
                == "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        }

        let fresh = try kind.make(path: directory.filePath("fresh.sqlite"))
        try makeMigrator().migrate(fresh)
        try fresh.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'grdb_migrations'")
                == "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        }
    }
}
