import Foundation
import Testing
import Cairn

/// Migrations and full-text table definitions, compared with GRDB 7.8: the
/// statements that the migrator runs (and their order), its queries about
/// applied migrations, its foreign key checks and errors, and the SQL of
/// FTS3, FTS4 and FTS5 tables, with the triggers of synchronized tables as
/// SQLite keeps them in `sqlite_master`.
@Suite struct GRDBMigrationSchemaTests {
    struct Failure: Error { }

    /// A database queue whose statements are recorded, expanded, as GRDB's
    /// tests record them.
    struct Recorder {
        let dbQueue: DatabaseQueue
        private let statements = Locked<[String]>([])

        init(path: String? = nil) throws {
            let statements = self.statements
            var config = Configuration()
            config.prepareDatabase { db throws in
                db.trace { event in statements.withLock { $0.append(event.expandedDescription) } }
            }
            if let path {
                dbQueue = try DatabaseQueue(path: path, configuration: config)
            } else {
                dbQueue = try DatabaseQueue(configuration: config)
            }
        }

        /// The statements run by `body`, all of them.
        func all(_ body: () throws -> Void) throws -> [String] {
            statements.withLock { $0.removeAll() }
            try body()
            return statements.withLock { $0 }
        }

        /// The statements run by `body`, without schema queries
        /// (`sqlite_master`) and pragmas that read the schema.
        func withoutIntrospection(_ body: () throws -> Void) throws -> [String] {
            try all(body).filter {
                !$0.contains("sqlite_master") && !$0.hasPrefix("PRAGMA database_list")
                    && !$0.hasPrefix("PRAGMA main.") && !$0.hasPrefix("PRAGMA schema_version")
            }
        }
    }

    // MARK: - Migrator statements

    @Test func firstMigrationRunsGRDBStatements() throws {
        let recorder = try Recorder()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createItem") { db throws in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY)")
        }
        let statements = try recorder.withoutIntrospection { try migrator.migrate(recorder.dbQueue) }
        #expect(statements == [
            "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)",
            "SELECT identifier FROM grdb_migrations",
            "SELECT identifier FROM grdb_migrations",
            "PRAGMA foreign_keys",
            "PRAGMA foreign_keys = OFF",
            "BEGIN IMMEDIATE TRANSACTION",
            "CREATE TABLE item (id INTEGER PRIMARY KEY)",
            "INSERT INTO grdb_migrations (identifier) VALUES ('createItem')",
            "PRAGMA foreign_key_check",
            "COMMIT TRANSACTION",
            "PRAGMA foreign_keys = ON",
        ])

        // Migrating again reads the applied migrations, and runs nothing.
        let again = try recorder.withoutIntrospection { try migrator.migrate(recorder.dbQueue) }
        #expect(again == [
            "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)",
            "SELECT identifier FROM grdb_migrations",
            "SELECT identifier FROM grdb_migrations",
        ])
    }

    @Test func immediateAndUncheckedMigrationsRunGRDBStatements() throws {
        let recorder = try Recorder()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("a", foreignKeyChecks: .immediate) { db throws in
            try db.execute(sql: "CREATE TABLE a (x)")
        }
        migrator = migrator.disablingDeferredForeignKeyChecks()
        migrator.registerMigration("b") { db throws in
            try db.execute(sql: "CREATE TABLE b (x)")
        }
        let statements = try recorder.withoutIntrospection { try migrator.migrate(recorder.dbQueue) }
        #expect(Array(statements.dropFirst(3)) == [
            "PRAGMA foreign_keys",
            "BEGIN IMMEDIATE TRANSACTION",
            "CREATE TABLE a (x)",
            "INSERT INTO grdb_migrations (identifier) VALUES ('a')",
            "COMMIT TRANSACTION",
            "PRAGMA foreign_keys",
            "PRAGMA foreign_keys = OFF",
            "BEGIN IMMEDIATE TRANSACTION",
            "CREATE TABLE b (x)",
            "INSERT INTO grdb_migrations (identifier) VALUES ('b')",
            "COMMIT TRANSACTION",
            "PRAGMA foreign_keys = ON",
        ])
    }

    @Test func mergedIdentifiersAreDeletedBeforeTheMigrationIsRecorded() throws {
        let recorder = try Recorder()
        var old = DatabaseMigrator()
        old.registerMigration("one") { _ in }
        old.registerMigration("two") { _ in }
        try old.migrate(recorder.dbQueue, upTo: "one")

        var new = DatabaseMigrator()
        new.registerMigration("three", foreignKeyChecks: .immediate, merging: ["one", "two"]) { db, applied throws in
            #expect(applied == ["one"])
            try db.execute(sql: "CREATE TABLE t (x)")
        }
        let statements = try recorder.withoutIntrospection { try new.migrate(recorder.dbQueue) }
        #expect(Array(statements.dropFirst(3)) == [
            "PRAGMA foreign_keys",
            "BEGIN IMMEDIATE TRANSACTION",
            "CREATE TABLE t (x)",
            // All merged identifiers, applied or not.
            "DELETE FROM grdb_migrations WHERE identifier IN ('one', 'two')",
            "INSERT INTO grdb_migrations (identifier) VALUES ('three')",
            "COMMIT TRANSACTION",
        ])
        try recorder.dbQueue.read { db throws in
            #expect(try new.appliedIdentifiers(db) == ["three"])
        }
    }

    @Test func appliedMergedMigrationDeletesItsMergedIdentifiersWithoutTransaction() throws {
        let recorder = try Recorder()
        var old = DatabaseMigrator()
        old.registerMigration("one") { _ in }
        old.registerMigration("two") { _ in }
        try old.migrate(recorder.dbQueue)

        var new = DatabaseMigrator()
        new.registerMigration("two", merging: ["one"]) { _, _ in Issue.record("ran again") }
        let statements = try recorder.withoutIntrospection { try new.migrate(recorder.dbQueue) }
        #expect(statements == [
            "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)",
            "SELECT identifier FROM grdb_migrations",
            "SELECT identifier FROM grdb_migrations",
            "DELETE FROM grdb_migrations WHERE identifier IN ('one')",
        ])
        try recorder.dbQueue.read { db throws in
            #expect(try new.appliedIdentifiers(db) == ["two"])
        }
    }

    @Test func appliedMigrationsAreReadWithOneQuery() throws {
        let recorder = try Recorder()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("one") { _ in }
        try migrator.migrate(recorder.dbQueue)
        let statements = try recorder.all {
            try recorder.dbQueue.read { db throws in _ = try migrator.appliedMigrations(db) }
        }
        #expect(statements.filter { $0.contains("grdb_migrations") } == ["SELECT identifier FROM grdb_migrations"])
    }

    @Test func schemaChangesAreLookedForInADeferredTransaction() throws {
        let directory = try TemporaryDirectory()
        let recorder = try Recorder(path: directory.filePath())
        var migrator = DatabaseMigrator()
        migrator.eraseDatabaseOnSchemaChange = true
        migrator.registerMigration("one") { db throws in try db.execute(sql: "CREATE TABLE t (x)") }
        try migrator.migrate(recorder.dbQueue)
        let statements = try recorder.withoutIntrospection { try migrator.migrate(recorder.dbQueue) }
        // The replay on a temporary database runs on another connection,
        // which the recorder traces too (GRDB gives it the configuration of
        // the migrated database as well): look at the statements of this
        // connection, around the transaction.
        #expect(statements.first == "BEGIN DEFERRED TRANSACTION")
        #expect(statements.contains("COMMIT TRANSACTION"))
        #expect(Array(statements.suffix(3)) == [
            "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)",
            "SELECT identifier FROM grdb_migrations",
            "SELECT identifier FROM grdb_migrations",
        ])
        // Nothing changed: nothing is erased.
        try recorder.dbQueue.read { db throws in #expect(try db.tableExists("t")) }
    }

    // MARK: - Migrator queries

    @Test func migrationQueriesOfADatabaseWithoutMigrationsTable() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        try dbQueue.read { db throws in
            #expect(try migrator.appliedIdentifiers(db).isEmpty)
            #expect(try migrator.appliedMigrations(db).isEmpty)
            #expect(try migrator.completedMigrations(db).isEmpty)
            // No migration at all: completed.
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try !migrator.hasBeenSuperseded(db))
            #expect(try !migrator.hasSchemaChanges(db))
        }
        migrator.registerMigration("first") { _ in }
        try dbQueue.read { db throws in
            #expect(try !migrator.hasCompletedMigrations(db))
        }
        // The migrations table is not created by an empty migrator.
        try DatabaseMigrator().migrate(dbQueue)
        try dbQueue.read { db throws in #expect(try !db.tableExists("grdb_migrations")) }
    }

    @Test func migrationInsertedBetweenAppliedMigrations() throws {
        let dbQueue = try DatabaseQueue()
        var before = DatabaseMigrator()
        before.registerMigration("alpha") { _ in }
        before.registerMigration("gamma") { _ in }
        try before.migrate(dbQueue)

        var after = DatabaseMigrator()
        after.registerMigration("alpha") { _ in }
        after.registerMigration("beta") { _ in }
        after.registerMigration("gamma") { _ in }
        try dbQueue.read { db throws in
            #expect(try after.appliedMigrations(db) == ["alpha", "gamma"])
            #expect(try after.completedMigrations(db) == ["alpha"])
            #expect(try !after.hasCompletedMigrations(db))
            #expect(try !after.hasBeenSuperseded(db))
        }
        // The inserted migration runs, although a later one is applied.
        try after.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try after.appliedMigrations(db) == ["alpha", "beta", "gamma"])
            #expect(try after.hasCompletedMigrations(db))
            #expect(try before.appliedIdentifiers(db) == ["alpha", "beta", "gamma"])
            #expect(try before.completedMigrations(db) == ["alpha", "gamma"])
            #expect(try before.hasCompletedMigrations(db))
            #expect(try before.hasBeenSuperseded(db))
        }
    }

    @Test func migrateUpToTargets() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        for name in ["m1", "m2", "m3"] {
            migrator.registerMigration(name) { db throws in try db.execute(sql: "CREATE TABLE \(name) (x)") }
        }
        #expect(migrator.migrations == ["m1", "m2", "m3"])
        try migrator.migrate(dbQueue, upTo: "m1")
        try migrator.migrate(dbQueue, upTo: "m1")
        try dbQueue.read { db throws in
            #expect(try db.tableExists("m1"))
            #expect(try !db.tableExists("m2"))
        }
        try migrator.migrate(dbQueue, upTo: "m3")
        try dbQueue.read { db throws in #expect(try migrator.appliedMigrations(db) == ["m1", "m2", "m3"]) }
        try migrator.migrate(dbQueue)
        // GRDB stops the program in these two cases; Cairn throws GRDB's
        // message (a documented difference).
        let beyond = #expect(throws: DatabaseError.self) { try migrator.migrate(dbQueue, upTo: "m2") }
        #expect(beyond?.message == #"database is already migrated beyond migration "m2""#)
        let undefined = #expect(throws: DatabaseError.self) { try migrator.migrate(dbQueue, upTo: "m9") }
        #expect(undefined?.message == #"undefined migration: "m9""#)
    }

    // MARK: - Foreign key checks

    static let violation = """
        CREATE TABLE parent(id INTEGER NOT NULL PRIMARY KEY);
        CREATE TABLE child(parentId INTEGER REFERENCES parent(id));
        INSERT INTO child (parentId) VALUES (7);
        """
    static let transientViolation = violation + "DELETE FROM child;"

    enum Checks: String, CaseIterable { case deferred, immediate, disabledDeferred, disabledImmediate }

    func migrator(_ checks: Checks, _ sql: String) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        switch checks {
        case .deferred:
            migrator.registerMigration("m") { db throws in try db.execute(sql: sql) }
        case .immediate:
            migrator.registerMigration("m", foreignKeyChecks: .immediate) { db throws in try db.execute(sql: sql) }
        case .disabledDeferred:
            migrator = migrator.disablingDeferredForeignKeyChecks()
            migrator.registerMigration("m") { db throws in try db.execute(sql: sql) }
        case .disabledImmediate:
            migrator = migrator.disablingDeferredForeignKeyChecks()
            migrator.registerMigration("m", foreignKeyChecks: .immediate) { db throws in try db.execute(sql: sql) }
        }
        return migrator
    }

    @Test(arguments: Checks.allCases)
    func foreignKeyViolations(_ checks: Checks) throws {
        let dbQueue = try DatabaseQueue()
        if checks == .disabledDeferred {
            // No check: the violation is committed.
            try migrator(checks, Self.violation).migrate(dbQueue)
            let error = #expect(throws: DatabaseError.self) { try dbQueue.read { try $0.checkForeignKeys() } }
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        } else {
            let error = #expect(throws: DatabaseError.self) { try migrator(checks, Self.violation).migrate(dbQueue) }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            try dbQueue.read { db throws in
                try db.checkForeignKeys()
                #expect(try !db.tableExists("child"))
            }
        }
    }

    @Test(arguments: Checks.allCases)
    func transientForeignKeyViolations(_ checks: Checks) throws {
        let dbQueue = try DatabaseQueue()
        switch checks {
        case .deferred, .disabledDeferred:
            try migrator(checks, Self.transientViolation).migrate(dbQueue)
            try dbQueue.read { db throws in
                try db.checkForeignKeys()
                #expect(try db.tableExists("child"))
            }
        case .immediate, .disabledImmediate:
            let error = #expect(throws: DatabaseError.self) {
                try migrator(checks, Self.transientViolation).migrate(dbQueue)
            }
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        }
        // Foreign keys are enabled again after the migration.
        try dbQueue.read { db throws in #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true) }
    }

    @Test func disablingChecksLeavesEarlierMigrationsChecked() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("checked") { db throws in try db.execute(sql: Self.violation) }
        migrator = migrator.disablingDeferredForeignKeyChecks()
        migrator.registerMigration("unchecked") { _ in Issue.record("ran after a failed migration") }
        let error = #expect(throws: DatabaseError.self) { try migrator.migrate(DatabaseQueue()) }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
    }

    @Test func failedMigrationKeepsEarlierOnes() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("good") { db throws in
            try db.execute(sql: "CREATE TABLE owner (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "CREATE TABLE pet (ownerId INTEGER NOT NULL REFERENCES owner(id), name TEXT)")
            try db.execute(sql: "INSERT INTO owner (name) VALUES ('Ann')")
        }
        migrator.registerMigration("bad") { db throws in
            try db.execute(sql: "INSERT INTO owner (name) VALUES ('Bob')")
            try db.execute(sql: "INSERT INTO pet (ownerId, name) VALUES (?, ?)", arguments: [99, "Rex"])
        }
        let dbQueue = try DatabaseQueue()
        let error = #expect(throws: DatabaseError.self) { try migrator.migrate(dbQueue) }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        try dbQueue.read { db throws in
            #expect(try String.fetchAll(db, sql: "SELECT name FROM owner") == ["Ann"])
            #expect(try migrator.appliedMigrations(db) == ["good"])
        }
    }

    @Test func migrationErrorIsThrownAsIs() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("throws") { db throws in
            try db.execute(sql: "CREATE TABLE t (x)")
            throw Failure()
        }
        let dbQueue = try DatabaseQueue()
        #expect(throws: Failure.self) { try migrator.migrate(dbQueue) }
        try dbQueue.read { db throws in
            #expect(try !db.tableExists("t"))
            #expect(try migrator.appliedIdentifiers(db).isEmpty)
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
    }

    // MARK: - eraseDatabaseOnSchemaChange

    @Test func changedMigrationFailsUnlessTheDatabaseIsErased() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        var v1 = DatabaseMigrator()
        v1.registerMigration("tables") { db throws in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
            }
        }
        try v1.migrate(dbQueue)

        var v2 = DatabaseMigrator()
        v2.registerMigration("tables") { db throws in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
                t.column("rank", .integer)
            }
        }
        v2.registerMigration("rows") { db throws in
            try db.execute(sql: "INSERT INTO player (name, rank) VALUES ('Cleo', 3)")
        }
        let error = #expect(throws: DatabaseError.self) { try v2.migrate(dbQueue) }
        #expect(error?.resultCode == .SQLITE_ERROR)
        #expect(error?.message == "table player has no column named rank")
        try dbQueue.read { db throws in
            #expect(try v2.appliedMigrations(db) == ["tables"])
            #expect(try v2.hasSchemaChanges(db))
        }

        v2.eraseDatabaseOnSchemaChange = true
        try v2.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try v2.appliedMigrations(db) == ["tables", "rows"])
            #expect(try !v2.hasSchemaChanges(db))
        }
    }

    @Test func renamedMigrationErasesAndAddedMigrationDoesNot() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        var original = DatabaseMigrator()
        original.eraseDatabaseOnSchemaChange = true
        original.registerMigration("one") { db throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t VALUES (1)")
        }
        try original.migrate(dbQueue)

        // An added migration keeps the data.
        var extended = original
        extended.registerMigration("two") { db throws in try db.execute(sql: "CREATE TABLE u (x)") }
        try extended.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT id FROM t") == 1)
            #expect(try db.tableExists("u"))
        }

        // A renamed migration: the database is erased.
        var renamed = DatabaseMigrator()
        renamed.eraseDatabaseOnSchemaChange = true
        renamed.registerMigration("uno") { db throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t VALUES (2)")
        }
        try dbQueue.read { db throws in #expect(try renamed.hasSchemaChanges(db)) }
        try renamed.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT id FROM t") == 2)
            #expect(try !db.tableExists("u"))
            #expect(try renamed.appliedIdentifiers(db) == ["uno"])
        }
    }

    @Test func eraseWithSerialTargetQueues() throws {
        for useWriteTarget in [false, true] {
            var config = Configuration()
            if useWriteTarget {
                config.writeTargetQueue = DispatchQueue(label: "cairn.compat.writeTarget")
            } else {
                config.targetQueue = DispatchQueue(label: "cairn.compat.target")
            }
            let directory = try TemporaryDirectory()
            let dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: config)
            var migrator = DatabaseMigrator()
            migrator.eraseDatabaseOnSchemaChange = true
            migrator.registerMigration("one") { _ in }
            try migrator.migrate(dbQueue)
            migrator.registerMigration("two") { _ in }
            try migrator.migrate(dbQueue)
            try dbQueue.read { db throws in #expect(try migrator.appliedMigrations(db) == ["one", "two"]) }
        }
    }

    // MARK: - FTS5

    func statements(_ setup: String = "", _ body: (Database) throws -> Void) throws -> [String] {
        let recorder = try Recorder()
        if !setup.isEmpty {
            try recorder.dbQueue.write { db throws in try db.execute(sql: setup) }
        }
        // Without the logs of virtual tables (`-- ...`), which GRDB's tests
        // leave out too, and the transaction around the creation.
        return try recorder.withoutIntrospection {
            try recorder.dbQueue.inDatabase(body)
        }.filter { !$0.hasPrefix("--") && !$0.hasPrefix("BEGIN") && !$0.hasPrefix("COMMIT") }
    }

    func triggers(_ dbQueue: DatabaseQueue) throws -> [String] {
        try dbQueue.read { db throws in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
        }
    }

    @Test func fts5SynchronizedWithHiddenRowID() throws {
        let recorder = try Recorder()
        try recorder.dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE memo (body TEXT, title TEXT); INSERT INTO memo VALUES ('hello', 'first')")
        }
        let statements = try recorder.withoutIntrospection {
            try recorder.dbQueue.inDatabase { db throws in
                try db.create(virtualTable: "memo_ft", using: FTS5()) { t in
                    t.synchronize(withTable: "memo")
                    t.column("body")
                }
            }
        }.filter { !$0.hasPrefix("--") && !$0.hasPrefix("BEGIN") && !$0.hasPrefix("COMMIT") }
        // No content_rowid for a hidden rowid: FTS5's default.
        #expect(statements.first == #"CREATE VIRTUAL TABLE "memo_ft" USING fts5(body, content='memo')"#)
        #expect(statements.last == #"INSERT INTO "memo_ft"("memo_ft") VALUES('rebuild')"#)
        #expect(try triggers(recorder.dbQueue) == [
            """
            CREATE TRIGGER "__memo_ft_ad" AFTER DELETE ON "memo" BEGIN
                INSERT INTO "memo_ft"("memo_ft", "rowid", "body") VALUES('delete', old."rowid", old."body");
            END
            """,
            """
            CREATE TRIGGER "__memo_ft_ai" AFTER INSERT ON "memo" BEGIN
                INSERT INTO "memo_ft"("rowid", "body") VALUES (new."rowid", new."body");
            END
            """,
            """
            CREATE TRIGGER "__memo_ft_au" AFTER UPDATE ON "memo" BEGIN
                INSERT INTO "memo_ft"("memo_ft", "rowid", "body") VALUES('delete', old."rowid", old."body");
                INSERT INTO "memo_ft"("rowid", "body") VALUES (new."rowid", new."body");
            END
            """,
        ])
        try recorder.dbQueue.write { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT rowid FROM memo_ft WHERE memo_ft MATCH 'hello'") == 1)
            try db.execute(sql: "UPDATE memo SET body = 'bye'")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM memo_ft WHERE memo_ft MATCH 'hello'") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM memo_ft WHERE memo_ft MATCH 'bye'") == 1)
        }
    }

    @Test func fts5SynchronizedWithIntegerPrimaryKeyAndIfNotExists() throws {
        let statements = try statements("CREATE TABLE memo (code INTEGER PRIMARY KEY, body TEXT)") { db throws in
            try db.create(virtualTable: "memo_ft", options: .ifNotExists, using: FTS5()) { t in
                t.synchronize(withTable: "memo")
                t.column("body")
            }
        }
        #expect(statements == [
            #"CREATE VIRTUAL TABLE IF NOT EXISTS "memo_ft" USING fts5(body, content='memo', content_rowid='code')"#,
            """
            CREATE TRIGGER IF NOT EXISTS "__memo_ft_ai" AFTER INSERT ON "memo" BEGIN
                INSERT INTO "memo_ft"("rowid", "body") VALUES (new."code", new."body");
            END
            """,
            """
            CREATE TRIGGER IF NOT EXISTS "__memo_ft_ad" AFTER DELETE ON "memo" BEGIN
                INSERT INTO "memo_ft"("memo_ft", "rowid", "body") VALUES('delete', old."code", old."body");
            END
            """,
            """
            CREATE TRIGGER IF NOT EXISTS "__memo_ft_au" AFTER UPDATE ON "memo" BEGIN
                INSERT INTO "memo_ft"("memo_ft", "rowid", "body") VALUES('delete', old."code", old."body");
                INSERT INTO "memo_ft"("rowid", "body") VALUES (new."code", new."body");
            END
            """,
            #"INSERT INTO "memo_ft"("memo_ft") VALUES('rebuild')"#,
        ])
    }

    @Test func fts5Options() throws {
        let statements = try statements { db throws in
            try db.create(virtualTable: "a", using: FTS5()) { t in
                t.tokenizer = .porter(wrapping: .unicode61(diacritics: .keep))
                t.content = ""
                t.prefixes = [4, 2]
                t.columnSize = 0
                t.detail = "column"
                t.column("title")
                t.column("tag").notIndexed()
            }
            try db.create(virtualTable: "b", options: .temporary, using: FTS5()) { t in
                t.tokenizer = .ascii(separators: ["-"])
                t.content = "source"
                t.contentRowID = "key"
                t.column("body")
            }
            try db.create(virtualTable: "c", using: FTS5()) { t in
                t.tokenizer = .unicode61(tokenCharacters: ["_", "."])
                t.column("body")
            }
        }
        #expect(statements == [
            #"CREATE VIRTUAL TABLE "a" USING fts5(title, tag UNINDEXED, "#
                + #"tokenize='''porter'' ''unicode61'' ''remove_diacritics'' ''0''', "#
                + #"content='', prefix='2 4', columnSize=0, detail=column)"#,
            #"CREATE VIRTUAL TABLE temp."b" USING fts5(body, tokenize='''ascii'' ''separators'' ''-''', "#
                + #"content='source', content_rowid='key')"#,
            #"CREATE VIRTUAL TABLE "c" USING fts5(body, tokenize='''unicode61'' ''tokenchars'' ''._''')"#,
        ])
    }

    @Test func dropSynchronizationTriggers() throws {
        let fts5 = try statements { db throws in try db.dropFTS5SynchronizationTriggers(forTable: "doc_ft") }
        #expect(fts5 == [
            #"DROP TRIGGER IF EXISTS "__doc_ft_ai""#,
            #"DROP TRIGGER IF EXISTS "__doc_ft_ad""#,
            #"DROP TRIGGER IF EXISTS "__doc_ft_au""#,
        ])
        let fts4 = try statements { db throws in try db.dropFTS4SynchronizationTriggers(forTable: "doc_ft") }
        #expect(fts4 == [
            #"DROP TRIGGER IF EXISTS "__doc_ft_bu""#,
            #"DROP TRIGGER IF EXISTS "__doc_ft_bd""#,
            #"DROP TRIGGER IF EXISTS "__doc_ft_au""#,
            #"DROP TRIGGER IF EXISTS "__doc_ft_ai""#,
        ])
    }

    // MARK: - FTS4 and FTS3

    @Test func fts4Synchronized() throws {
        let statements = try statements("CREATE TABLE memo (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO memo (body) VALUES ('hello')") { db throws in
            try db.create(virtualTable: "memo_ft", using: FTS4()) { t in
                t.synchronize(withTable: "memo")
                t.column("body")
            }
            #expect(try Int.fetchOne(db, sql: "SELECT docid FROM memo_ft WHERE memo_ft MATCH 'hello'") == 1)
        }
        #expect(statements.dropLast() == [
            #"CREATE VIRTUAL TABLE "memo_ft" USING fts4(body, content="memo")"#,
            """
            CREATE TRIGGER "__memo_ft_bu" BEFORE UPDATE ON "memo" BEGIN
                DELETE FROM "memo_ft" WHERE docid=old."id";
            END
            """,
            """
            CREATE TRIGGER "__memo_ft_bd" BEFORE DELETE ON "memo" BEGIN
                DELETE FROM "memo_ft" WHERE docid=old."id";
            END
            """,
            """
            CREATE TRIGGER "__memo_ft_au" AFTER UPDATE ON "memo" BEGIN
                INSERT INTO "memo_ft"("docid", "body") VALUES(new."id", new."body");
            END
            """,
            """
            CREATE TRIGGER "__memo_ft_ai" AFTER INSERT ON "memo" BEGIN
                INSERT INTO "memo_ft"("docid", "body") VALUES(new."id", new."body");
            END
            """,
            #"INSERT INTO "memo_ft"("memo_ft") VALUES('rebuild')"#,
        ])
    }

    @Test func fts4AndFTS3Options() throws {
        let statements = try statements { db throws in
            try db.create(virtualTable: "a", using: FTS4()) { t in
                t.tokenizer = .unicode61(diacritics: .keep)
                t.content = ""
                t.matchinfo = "fts3"
                t.prefixes = [4, 2]
                t.column("title")
                t.column("tag").notIndexed()
                t.column("lid").asLanguageId()
            }
            try db.create(virtualTable: "b", options: .ifNotExists, using: FTS4()) { t in
                t.tokenizer = .porter
                t.compress = "zip"
                t.uncompress = "unzip"
                t.column("body")
            }
            try db.create(virtualTable: "c", using: FTS3()) { t in
                t.tokenizer = .simple
                t.column("title")
                t.column("body")
            }
        }
        #expect(statements == [
            #"CREATE VIRTUAL TABLE "a" USING fts4(title, tag, notindexed=tag, languageid="lid", "#
                + #"tokenize=unicode61 "remove_diacritics=0", content="", matchinfo="fts3", prefix="2,4")"#,
            #"CREATE VIRTUAL TABLE IF NOT EXISTS "b" USING fts4(body, tokenize=porter, compress="zip", uncompress="unzip")"#,
            #"CREATE VIRTUAL TABLE "c" USING fts3(title, body, tokenize=simple)"#,
        ])
    }

    // MARK: - Indexes

    @Test func indexStatements() throws {
        let statements = try statements("CREATE TABLE item (a, b, c)") { db throws in
            try db.create(index: "item_ab", on: "item", columns: ["a", "b"], options: [.unique, .ifNotExists], condition: Column("c") != nil)
            try db.create(indexOn: "item", columns: ["b", "c"])
            try db.drop(indexOn: "item", columns: ["b", "c"])
            try db.drop(index: "item_ab")
        }
        #expect(statements == [
            #"CREATE UNIQUE INDEX IF NOT EXISTS "item_ab" ON "item"("a", "b") WHERE "c" IS NOT NULL"#,
            #"CREATE INDEX "index_item_on_b_c" ON "item"("b", "c")"#,
            #"DROP INDEX "index_item_on_b_c""#,
            #"DROP INDEX "item_ab""#,
        ])
    }

    // MARK: - Introspection

    @Test func indexesOfTables() throws {
        try DatabaseQueue().write { db throws in
            let missing = #expect(throws: DatabaseError.self) { try db.indexes(on: "nowhere") }
            #expect(missing?.resultCode == .SQLITE_ERROR)
            #expect(missing?.message == "no such table: nowhere")

            try db.execute(sql: """
                CREATE TABLE member (id INTEGER PRIMARY KEY, nick TEXT, mail TEXT UNIQUE);
                CREATE TABLE visit (day TEXT, memberId INTEGER NOT NULL, place TEXT NOT NULL, PRIMARY KEY (memberId, place));
                CREATE INDEX visitOnDay ON visit(day);
                CREATE INDEX visitOnLowerPlace ON visit(lower(place));
                """)
            let memberIndexes = try db.indexes(on: "member")
            #expect(memberIndexes.map(\.name) == ["sqlite_autoindex_member_1"])
            #expect(memberIndexes.first?.origin == .uniqueConstraint)
            #expect(memberIndexes.first?.columns == ["mail"])
            #expect(memberIndexes.first?.isUnique == true)

            // The index on an expression is left out.
            let visitIndexes = try db.indexes(on: "visit")
            #expect(visitIndexes.count == 2)
            let day = visitIndexes.first { $0.columns == ["day"] }
            #expect(day?.name == "visitOnDay")
            #expect(day?.origin == .createIndex)
            #expect(day?.isUnique == false)
            let key = visitIndexes.first { $0.columns == ["memberId", "place"] }
            #expect(key?.name == "sqlite_autoindex_visit_1")
            #expect(key?.origin == .primaryKeyConstraint)
            #expect(key?.isUnique == true)
        }
    }

    @Test func uniqueKeys() throws {
        try DatabaseQueue().write { db throws in
            try db.execute(sql: """
                CREATE TABLE member (id INTEGER PRIMARY KEY, nick TEXT, mail TEXT UNIQUE);
                CREATE TABLE visit (day TEXT, memberId INTEGER NOT NULL, place TEXT NOT NULL, PRIMARY KEY (memberId, place));
                CREATE INDEX visitOnDay ON visit(day);
                """)
            #expect(try db.table("member", hasUniqueKey: ["rowid"]))
            #expect(try db.table("member", hasUniqueKey: ["id"]))
            #expect(try db.table("member", hasUniqueKey: ["mail"]))
            // A superset of a unique key is unique too.
            #expect(try db.table("member", hasUniqueKey: ["id", "mail"]))
            #expect(try db.table("member", hasUniqueKey: ["nick", "mail"]))
            #expect(try !db.table("member", hasUniqueKey: []))
            #expect(try !db.table("member", hasUniqueKey: ["nick"]))

            #expect(try db.table("visit", hasUniqueKey: ["rowid"]))
            #expect(try db.table("visit", hasUniqueKey: ["place", "memberId"]))
            #expect(try !db.table("visit", hasUniqueKey: []))
            #expect(try !db.table("visit", hasUniqueKey: ["day"]))
            #expect(try !db.table("visit", hasUniqueKey: ["memberId"]))
        }
    }

    @Test func foreignKeysOfTables() throws {
        try DatabaseQueue().write { db throws in
            try db.execute(sql: """
                CREATE TABLE single (id PRIMARY KEY);
                CREATE TABLE pair (x, y, PRIMARY KEY (x, y));
                CREATE TABLE twoRefs (first REFERENCES single, second REFERENCES single);
                CREATE TABLE pairRefs (p1, q1, p2, q2, FOREIGN KEY (p1, q1) REFERENCES pair, FOREIGN KEY (p2, q2) REFERENCES pair(y, x));
                """)
            let missing = #expect(throws: DatabaseError.self) { try db.foreignKeys(on: "nowhere") }
            #expect(missing?.resultCode == .SQLITE_ERROR)
            #expect(missing?.message == "no such table: nowhere")
            #expect(try db.foreignKeys(on: "single").isEmpty)

            // SQLite's order: the last declared foreign key first.
            let twoRefs = try db.foreignKeys(on: "twoRefs")
            #expect(twoRefs.map(\.destinationTable) == ["single", "single"])
            #expect(twoRefs.map(\.originColumns) == [["second"], ["first"]])
            #expect(twoRefs.map(\.destinationColumns) == [["id"], ["id"]])

            let pairRefs = try db.foreignKeys(on: "pairRefs")
            #expect(pairRefs.map(\.originColumns) == [["p2", "q2"], ["p1", "q1"]])
            #expect(pairRefs.map(\.destinationColumns) == [["y", "x"], ["x", "y"]])
        }
    }

    @Test func foreignKeyViolationOfWithoutRowIDTable() throws {
        try DatabaseQueue().writeWithoutTransaction { db throws in
            try db.execute(sql: """
                CREATE TABLE pair (x TEXT NOT NULL, y TEXT NOT NULL, PRIMARY KEY (x, y));
                CREATE TABLE link (id INTEGER NOT NULL PRIMARY KEY, px, py, FOREIGN KEY (px, py) REFERENCES pair(x, y)) WITHOUT ROWID;
                PRAGMA foreign_keys = OFF;
                INSERT INTO link (id, px, py) VALUES (5, 'u', 'v');
                """)
            let violations = try Array(db.foreignKeyViolations(in: "LINK"))
            #expect(violations.count == 1)
            #expect(violations.first?.originTable == "link")
            #expect(violations.first?.destinationTable == "pair")
            #expect(violations.first?.originRowID == nil)
            let error = #expect(throws: DatabaseError.self) { try db.checkForeignKeys() }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            #expect(error?.message == "FOREIGN KEY constraint violation - from link(px, py) to pair(x, y)")
            #expect(error?.description == "SQLite error 19: FOREIGN KEY constraint violation - from link(px, py) to pair(x, y)")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
    }

    // MARK: - Schema source

    struct MemberViewKey: DatabaseSchemaSource {
        func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
            view.name == "memberView" ? ["id"] : nil
        }
    }

    @Test func migrationsRunWithoutSchemaSource() throws {
        var config = Configuration()
        config.schemaSource = MemberViewKey()
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE member (id INTEGER PRIMARY KEY); CREATE VIEW memberView AS SELECT * FROM member")
            #expect(try db.primaryKey("memberView").columns == ["id"])
        }
        let ran = Locked(false)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("raw schema") { db throws in
            // As in GRDB, a migration sees the raw schema of SQLite: the
            // view has no primary key.
            #expect(db.schemaSource == nil)
            #expect(throws: DatabaseError.self) { try db.primaryKey("memberView") }
            ran.withLock { $0 = true }
        }
        try migrator.migrate(dbQueue)
        #expect(ran.withLock { $0 })
        try dbQueue.read { db throws in
            #expect(db.schemaSource != nil)
            #expect(try db.primaryKey("memberView").columns == ["id"])
        }
    }

    // MARK: - Table alterations

    @Test func alterationStatements() throws {
        let statements = try statements("CREATE TABLE item (a, b, c)") { db in
            try db.alter(table: "item") { t in
                t.add(column: "d", .text).indexed()
                t.rename(column: "a", to: "alpha")
                t.drop(column: "c")
            }
            try db.rename(table: "item", to: "thing")
            try db.drop(table: "thing")
        }
        #expect(statements == [
            #"ALTER TABLE "item" ADD COLUMN "d" TEXT"#,
            #"CREATE INDEX "item_on_d" ON "item"("d")"#,
            #"ALTER TABLE "item" RENAME COLUMN "a" TO "alpha""#,
            #"ALTER TABLE "item" DROP COLUMN "c""#,
            #"ALTER TABLE "item" RENAME TO "thing""#,
            #"DROP TABLE "thing""#,
        ])
    }

    @Test func uniqueColumnsGetNoOtherIndex() throws {
        let statements = try statements { db in
            try db.create(table: "tag") { t in
                t.column("name", .text).unique().indexed()
                t.column("code", .text).indexed().unique()
                t.column("label", .text).indexed()
            }
        }
        #expect(statements == [
            #"CREATE TABLE "tag" ("name" TEXT UNIQUE, "code" TEXT UNIQUE, "label" TEXT)"#,
            #"CREATE INDEX "tag_on_label" ON "tag"("label")"#,
        ])
    }

    @Test func replayedMigrationsUseTheConfiguration() throws {
        var config = Configuration()
        config.prepareDatabase { db in
            db.add(function: DatabaseFunction("defaultName", argumentCount: 0, pure: true) { _ in "Dora" })
        }
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: config)
        var v1 = DatabaseMigrator()
        v1.registerMigration("people") { db throws in
            try db.execute(sql: "CREATE TABLE person (name TEXT); INSERT INTO person VALUES (defaultName())")
        }
        try v1.migrate(dbQueue)

        var v2 = DatabaseMigrator()
        v2.eraseDatabaseOnSchemaChange = true
        v2.registerMigration("people") { db throws in
            try db.execute(sql: "CREATE TABLE person (name TEXT, age INT); INSERT INTO person VALUES (defaultName(), 30)")
        }
        // The replay on a temporary database calls the function too.
        try v2.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT age FROM person WHERE name = 'Dora'") == 30)
        }
    }

    @Test func unreadableMigrationsTableThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in try db.execute(sql: "CREATE TABLE grdb_migrations (other TEXT)") }
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.read { db throws in _ = try DatabaseMigrator().appliedIdentifiers(db) }
        }
        #expect(error?.message == "no such column: identifier")
    }

    @Test func columnsOfTablesAndViews() throws {
        try DatabaseQueue().write { db throws in
            let missing = #expect(throws: DatabaseError.self) { try db.columns(in: "nowhere") }
            #expect(missing?.resultCode == .SQLITE_ERROR)
            #expect(missing?.message == "no such table: nowhere")

            try db.execute(sql: """
                CREATE TABLE sample (
                    k2 TEXT, k1 INT,
                    n int DEFAULT NULL,
                    s Text NOT NULL DEFAULT 'x',
                    d REAL DEFAULT 2.5,
                    t DATETIME DEFAULT CURRENT_TIMESTAMP,
                    e DATE DEFAULT (date('now')),
                    g INT GENERATED ALWAYS AS (k1 * 2) STORED,
                    h GENERATED ALWAYS AS (k1 + 1),
                    PRIMARY KEY (k1, k2));
                CREATE VIEW sampleView AS SELECT * FROM sample;
                CREATE VIRTUAL TABLE doc USING fts5(body);
                """)
            let columns = try db.columns(in: "sample")
            #expect(columns.map(\.name) == ["k2", "k1", "n", "s", "d", "t", "e", "g", "h"])
            // The declared types, as SQLite gives them (its own types in
            // uppercase, since SQLite 3.37).
            #expect(columns.map(\.type) == ["TEXT", "INT", "INT", "TEXT", "REAL", "DATETIME", "DATE", "INT", ""])
            #expect(columns.map(\.primaryKeyIndex) == [2, 1, 0, 0, 0, 0, 0, 0, 0])
            #expect(columns.map(\.isNotNull) == [false, false, false, true, false, false, false, false, false])
            #expect(columns.map(\.defaultValueSQL) == [nil, nil, "NULL", "'x'", "2.5", "CURRENT_TIMESTAMP", "date('now')", nil, nil])

            // Views have columns, without keys or defaults.
            let viewColumns = try db.columns(in: "sampleView")
            #expect(viewColumns.map(\.name) == ["k2", "k1", "n", "s", "d", "t", "e", "g", "h"])
            #expect(viewColumns.allSatisfy { $0.primaryKeyIndex == 0 && $0.defaultValueSQL == nil })

            // The hidden columns of a virtual table are left out.
            #expect(try db.columns(in: "doc").map(\.name) == ["body"])
        }
    }
}
