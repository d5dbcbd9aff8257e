import Foundation
import Testing
import Cairn

/// The statements that introspection, records and associations run, all of
/// them (schema queries included), as `Database.trace` sees them, compared
/// with those of GRDB 7.8: `PRAGMA database_list` once, `SELECT type, name,
/// tbl_name, sql FROM sqlite_master` once per schema, each pragma once per
/// schema and table, until the schema changes.
@Suite struct GRDBStatementTraceTests {
    /// A queue that records every statement it runs, expanded.
    struct Tracer {
        let recorder: GRDBSQLRecorder
        var dbQueue: DatabaseQueue { recorder.dbQueue }

        init(schema: String) throws {
            recorder = try GRDBSQLRecorder(schema: schema)
        }

        /// The statements that `body` runs, the schema cache being empty
        /// when `fresh` is true.
        func statements(fresh: Bool = false, _ body: (Database) throws -> Void) throws -> [String] {
            try recorder.allSQL { db throws in
                if fresh { db.clearSchemaCache() }
                try body(db)
            }
        }
    }

    static let schema = """
        CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), name TEXT);
        CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT UNIQUE);
        CREATE TABLE note (content TEXT);
        CREATE VIEW teamName AS SELECT name FROM team;
        CREATE TRIGGER noteTrigger AFTER INSERT ON note BEGIN SELECT 1; END;
        INSERT INTO team VALUES (1, 'Reds'), (2, 'Blues');
        INSERT INTO player VALUES (1, 1, 'Arthur'), (2, 2, 'Barbara');
        """

    struct Team: Codable, FetchableRecord, PersistableRecord {
        static let players = hasMany(Player.self)
        var id: Int64
        var name: String
    }

    struct Player: Codable, FetchableRecord, PersistableRecord {
        static let team = belongsTo(Team.self)
        var id: Int64
        var teamId: Int64?
        var name: String
    }

    /// Compares the statements that ran with the expected ones.
    func check(_ statements: [String], _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(statements == expected, sourceLocation: sourceLocation)
    }

    static let databaseList = "PRAGMA database_list"
    static let mainObjects = "SELECT type, name, tbl_name, sql FROM sqlite_master"
    static let tempObjects = "SELECT type, name, tbl_name, sql FROM sqlite_temp_master"

    // MARK: Introspection

    @Test func objectExistenceReadsTheSchemaOnce() throws {
        let tracer = try Tracer(schema: Self.schema)
        try check(tracer.statements(fresh: true) { db throws in
            #expect(try db.tableExists("player"))
        }, [Self.databaseList, Self.mainObjects])
        // Everything else comes from the cache, whatever the kind of object,
        // the case of the name, or the schema named.
        try check(tracer.statements { db throws in
            #expect(try db.tableExists("PLAYER"))
            #expect(try db.tableExists("player", in: "main"))
            #expect(try !db.tableExists("missing"))
            #expect(try db.viewExists("teamName"))
            #expect(try !db.viewExists("player"))
            #expect(try db.triggerExists("noteTrigger"))
            #expect(try !db.triggerExists("missing", in: "main"))
        }, [])
    }

    @Test func columnsAreReadOncePerTable() throws {
        let tracer = try Tracer(schema: Self.schema)
        // No existence check: the pragma answers.
        try check(tracer.statements(fresh: true) { db throws in
            _ = try db.columns(in: "player")
        }, [Self.databaseList, #"PRAGMA main.table_xinfo("player")"#])
        try check(tracer.statements { db throws in
            #expect(try db.columns(in: "player").map(\.name) == ["id", "teamId", "name"])
            _ = try db.columns(in: "player", in: "main")
        }, [])
        // A view has columns too.
        try check(tracer.statements { db throws in
            #expect(try db.columns(in: "teamName").map(\.name) == ["name"])
        }, [#"PRAGMA main.table_xinfo("teamName")"#])
    }

    @Test func primaryKeyOfARowIDTable() throws {
        let tracer = try Tracer(schema: Self.schema)
        try check(tracer.statements(fresh: true) { db throws in
            #expect(try db.primaryKey("player").rowIDColumn == "id")
        }, [Self.databaseList, Self.mainObjects, #"PRAGMA main.table_xinfo("player")"#])
        try check(tracer.statements { db throws in
            _ = try db.primaryKey("player")
            _ = try db.primaryKey("player", in: "main")
            _ = try db.columns(in: "player")
            #expect(try db.primaryKey("note").columns == ["rowid"])
        }, [#"PRAGMA main.table_xinfo("note")"#])
    }

    @Test func primaryKeyOfAnotherKeyAsksTableList() throws {
        // GRDB tells WITHOUT ROWID tables with PRAGMA table_list.
        let tracer = try Tracer(schema: Self.schema + """
            CREATE TABLE tag (name TEXT PRIMARY KEY) WITHOUT ROWID;
            """)
        try check(tracer.statements(fresh: true) { db throws in
            #expect(try db.primaryKey("country").tableHasRowID)
        }, [
            Self.databaseList, Self.mainObjects,
            #"PRAGMA main.table_xinfo("country")"#, #"PRAGMA main.table_list("country")"#,
        ])
        try check(tracer.statements { db throws in
            #expect(try !db.primaryKey("tag").tableHasRowID)
            #expect(try !db.primaryKey("tag").tableHasRowID)
        }, [#"PRAGMA main.table_xinfo("tag")"#, #"PRAGMA main.table_list("tag")"#])
    }

    @Test func missingTableIsRememberedToo() throws {
        let tracer = try Tracer(schema: Self.schema)
        for _ in 0..<2 {
            #expect(throws: DatabaseError.self) { try tracer.dbQueue.inDatabase { try $0.columns(in: "missing") } }
        }
        try check(tracer.statements(fresh: true) { db throws in
            #expect(throws: DatabaseError.self) { try db.columns(in: "missing") }
            #expect(throws: DatabaseError.self) { try db.columns(in: "missing") }
            #expect(throws: DatabaseError.self) { try db.primaryKey("missing") }
            #expect(throws: DatabaseError.self) { try db.indexes(on: "missing") }
        }, [
            Self.databaseList, #"PRAGMA main.table_xinfo("missing")"#,
            Self.mainObjects, #"PRAGMA main.index_list("missing")"#,
        ])
    }

    @Test func indexesAreReadOncePerTable() throws {
        let tracer = try Tracer(schema: Self.schema)
        let first = try tracer.statements(fresh: true) { db throws in
            #expect(try db.indexes(on: "country").count == 2)
        }
        #expect(first.count == 4)
        #expect(Array(first.prefix(2)) == [Self.databaseList, #"PRAGMA main.index_list("country")"#])
        #expect(first.dropFirst(2).allSatisfy { $0.hasPrefix(#"PRAGMA main.index_info("sqlite_autoindex_country_"#) })
        try check(tracer.statements { db throws in
            _ = try db.indexes(on: "country")
            _ = try db.indexes(on: "country", in: "main")
        }, [])
        // An empty list needs the schema, to tell a missing table.
        try check(tracer.statements { db throws in
            #expect(try db.indexes(on: "note").isEmpty)
            #expect(try db.indexes(on: "note").isEmpty)
        }, [#"PRAGMA main.index_list("note")"#, Self.mainObjects])
    }

    @Test func foreignKeysAreReadOncePerTable() throws {
        let tracer = try Tracer(schema: Self.schema)
        try check(tracer.statements(fresh: true) { db throws in
            #expect(try db.foreignKeys(on: "player").map(\.destinationTable) == ["team"])
        }, [Self.databaseList, #"PRAGMA main.foreign_key_list("player")"#])
        try check(tracer.statements { db throws in
            _ = try db.foreignKeys(on: "player")
            _ = try db.foreignKeys(on: "player", in: "main")
        }, [])
    }

    @Test func uniqueKeysReuseTheCache() throws {
        let tracer = try Tracer(schema: Self.schema)
        let first = try tracer.statements(fresh: true) { db throws in
            #expect(try db.table("country", hasUniqueKey: ["name"]))
        }
        #expect(Array(first.prefix(5)) == [
            Self.databaseList, Self.mainObjects,
            #"PRAGMA main.table_xinfo("country")"#, #"PRAGMA main.table_list("country")"#,
            #"PRAGMA main.index_list("country")"#,
        ])
        #expect(first.count == 7)
        try check(tracer.statements { db throws in
            #expect(try db.table("country", hasUniqueKey: ["name"]))
            #expect(try db.table("country", hasUniqueKey: ["code"]))
            #expect(try !db.table("player", hasUniqueKey: ["name"]))
        }, [#"PRAGMA main.table_xinfo("player")"#, #"PRAGMA main.index_list("player")"#])
    }

    @Test func tempSchemaIsSearchedFirst() throws {
        let tracer = try Tracer(schema: Self.schema + """
            CREATE TEMP TABLE scratch (id INTEGER PRIMARY KEY);
            CREATE TEMP TABLE country (code TEXT, label TEXT);
            """)
        try check(tracer.statements(fresh: true) { db throws in
            #expect(try db.primaryKey("player").rowIDColumn == "id")
        }, [
            Self.databaseList, Self.tempObjects, Self.mainObjects,
            #"PRAGMA main.table_xinfo("player")"#,
        ])
        try check(tracer.statements { db throws in
            #expect(try db.columns(in: "player").count == 3)
        }, [#"PRAGMA temp.table_xinfo("player")"#])
        // The temp table hides the one of main, unless main is named.
        try check(tracer.statements { db throws in
            #expect(try db.columns(in: "country").map(\.name) == ["code", "label"])
            #expect(try db.columns(in: "country", in: "main").map(\.name) == ["code", "name"])
            #expect(try db.tableExists("scratch"))
            #expect(try !db.tableExists("scratch", in: "main"))
        }, [#"PRAGMA temp.table_xinfo("country")"#, #"PRAGMA main.table_xinfo("country")"#])
    }

    @Test func attachedSchemas() throws {
        let directory = try TemporaryDirectory()
        let tracer = try Tracer(schema: Self.schema)
        try check(tracer.statements(fresh: true) { db throws in
            #expect(try !db.tableExists("book"))
        }, [Self.databaseList, Self.mainObjects])
        // ATTACH forgets the list of schemas.
        try tracer.dbQueue.inDatabase { db throws in
            try db.execute(sql: "ATTACH DATABASE ? AS aux", arguments: [directory.filePath("aux.sqlite")])
            try db.execute(sql: "CREATE TABLE aux.book (id INTEGER PRIMARY KEY)")
        }
        try check(tracer.statements { db throws in
            #expect(try db.tableExists("book"))
            #expect(try db.tableExists("book", in: "aux"))
            #expect(try db.primaryKey("book").rowIDColumn == "id")
        }, [
            Self.databaseList, Self.mainObjects, "SELECT type, name, tbl_name, sql FROM aux.sqlite_master",
            #"PRAGMA aux.table_xinfo("book")"#,
        ])
        #expect(throws: DatabaseError.self) { try tracer.dbQueue.inDatabase { try $0.tableExists("book", in: "other") } }
        try tracer.dbQueue.inDatabase { db in try db.execute(sql: "DETACH DATABASE aux") }
        #expect(try tracer.dbQueue.inDatabase { try $0.tableExists("book") } == false)
    }

    // MARK: Cache invalidation

    @Test func schemaChangesForgetTheCache() throws {
        let tracer = try Tracer(schema: Self.schema)
        try tracer.dbQueue.inDatabase { db throws in
            _ = try db.columns(in: "note")
            try db.execute(sql: "ALTER TABLE note ADD COLUMN author TEXT")
            #expect(try db.columns(in: "note").map(\.name) == ["content", "author"])
            try db.execute(sql: "CREATE INDEX noteAuthor ON note(author)")
            #expect(try db.indexes(on: "note").map(\.name) == ["noteAuthor"])
            try db.execute(sql: "DROP TABLE note")
            #expect(try !db.tableExists("note"))
            #expect(throws: DatabaseError.self) { try db.columns(in: "note") }
        }
    }

    @Test func rollbackOfASchemaChangeForgetsTheCache() throws {
        let tracer = try Tracer(schema: Self.schema)
        try tracer.dbQueue.inDatabase { db throws in
            try db.inTransaction {
                try db.execute(sql: "CREATE TABLE book (id INTEGER PRIMARY KEY)")
                #expect(try db.primaryKey("book").rowIDColumn == "id")
                return .rollback
            }
            #expect(try !db.tableExists("book"))
            #expect(throws: DatabaseError.self) { try db.primaryKey("book") }
            try db.inTransaction {
                try db.execute(sql: "SAVEPOINT s")
                try db.execute(sql: "ALTER TABLE note ADD COLUMN author TEXT")
                #expect(try db.columns(in: "note").count == 2)
                try db.execute(sql: "ROLLBACK TO SAVEPOINT s")
                #expect(try db.columns(in: "note").count == 1)
                try db.execute(sql: "RELEASE SAVEPOINT s")
                return .commit
            }
        }
    }

    @Test func rollbackWithoutSchemaChangeKeepsTheCache() throws {
        // GRDB forgets its cache on schema changes only: a failed insert,
        // or a rolled back transaction, do not run introspection again.
        let tracer = try Tracer(schema: Self.schema)
        _ = try tracer.statements(fresh: true) { db throws in _ = try db.primaryKey("player") }
        try check(tracer.statements { db throws in
            #expect(throws: DatabaseError.self) {
                try Player(id: 1, teamId: 1, name: "Copy").insert(db)
            }
            try db.inTransaction(.deferred) {
                try Player(id: 3, teamId: 1, name: "Craig").insert(db)
                return .rollback
            }
        }, [
            #"INSERT INTO "player" ("id", "teamId", "name") VALUES (1,1,'Copy')"#,
            "BEGIN DEFERRED TRANSACTION",
            #"INSERT INTO "player" ("id", "teamId", "name") VALUES (3,1,'Craig')"#,
            "ROLLBACK TRANSACTION",
        ])
        // A committed schema change is not undone by a later rollback.
        try tracer.dbQueue.inDatabase { db throws in
            try db.inTransaction {
                try db.execute(sql: "CREATE TABLE book (id INTEGER PRIMARY KEY)")
                return .commit
            }
        }
        _ = try tracer.statements { db throws in _ = try db.primaryKey("book") }
        try check(tracer.statements { db throws in
            try db.inTransaction(.deferred) { .rollback }
            _ = try db.primaryKey("book")
        }, ["BEGIN DEFERRED TRANSACTION", "ROLLBACK TRANSACTION"])
    }

    @Test func poolReadersSeeTheChangesOfTheWriter() throws {
        let directory = try TemporaryDirectory()
        let statements = Locked<[String]>([])
        var config = Configuration()
        config.prepareDatabase { db throws in
            db.trace { event in statements.withLock { $0.append(event.expandedDescription) } }
        }
        let dbPool = try DatabasePool(path: directory.filePath(), configuration: config)
        try dbPool.write { db in try db.execute(sql: Self.schema) }
        #expect(try dbPool.read { try $0.columns(in: "note").count } == 1)
        statements.withLock { $0.removeAll() }
        // The reader checks the schema version before it uses its cache.
        #expect(try dbPool.read { try $0.columns(in: "note").count } == 1)
        #expect(statements.withLock { $0 }.contains("PRAGMA schema_version"))
        #expect(!statements.withLock { $0 }.contains { $0.contains("table_xinfo") })
        try dbPool.write { db in try db.execute(sql: "ALTER TABLE note ADD COLUMN author TEXT") }
        #expect(try dbPool.read { try $0.columns(in: "note").count } == 2)
    }

    // MARK: Records

    @Test func fetchingByKey() throws {
        let tracer = try Tracer(schema: Self.schema)
        try check(tracer.statements(fresh: true) { db throws in
            _ = try Player.fetchOne(db, key: 1)
        }, [
            Self.databaseList, Self.mainObjects, #"PRAGMA main.table_xinfo("player")"#,
            #"SELECT * FROM "player" WHERE "id" = 1"#,
        ])
        try check(tracer.statements { db throws in
            _ = try Player.fetchOne(db, key: 1)
            _ = try Player.find(db, key: 2)
            _ = try Player.fetchAll(db, keys: [1, 2])
            _ = try Player.filter(key: 1).fetchAll(db)
            _ = try Player.exists(db, key: 1)
        }, [
            #"SELECT * FROM "player" WHERE "id" = 1"#,
            #"SELECT * FROM "player" WHERE "id" = 2"#,
            #"SELECT * FROM "player" WHERE "id" IN (1, 2)"#,
            #"SELECT * FROM "player" WHERE "id" = 1"#,
            #"SELECT EXISTS (SELECT * FROM "player" WHERE "id" = 1)"#,
        ])
    }

    @Test func persistence() throws {
        let tracer = try Tracer(schema: Self.schema)
        try check(tracer.statements(fresh: true) { db throws in
            try Player(id: 3, teamId: 1, name: "Craig").insert(db)
        }, [
            Self.databaseList, Self.mainObjects, #"PRAGMA main.table_xinfo("player")"#,
            #"INSERT INTO "player" ("id", "teamId", "name") VALUES (3,1,'Craig')"#,
        ])
        try check(tracer.statements { db throws in
            var player = Player(id: 3, teamId: 2, name: "Craig")
            try player.update(db)
            try player.save(db)
            _ = try player.updateChanges(db) { $0.name = "Cecil" }
            _ = try player.delete(db)
            _ = try Player.deleteAll(db, keys: [7, 8])
        }, [
            #"UPDATE "player" SET "teamId"=2, "name"='Craig' WHERE "id"=3"#,
            #"UPDATE "player" SET "teamId"=2, "name"='Craig' WHERE "id"=3"#,
            #"UPDATE "player" SET "name"='Cecil' WHERE "id"=3"#,
            #"DELETE FROM "player" WHERE "id"=3"#,
            #"DELETE FROM "player" WHERE "id" IN (7, 8)"#,
        ])
    }

    // MARK: Associations

    @Test func prefetch() throws {
        let tracer = try Tracer(schema: Self.schema)
        let request = Team.including(all: Team.players)
        try check(tracer.statements(fresh: true) { db throws in _ = try Row.fetchAll(db, request) }, [
            Self.databaseList, #"PRAGMA main.foreign_key_list("player")"#,
            #"SELECT * FROM "team""#,
            #"SELECT *, "teamId" AS "grdb_teamId" FROM "player" WHERE "teamId" IN (1, 2)"#,
        ])
        try check(tracer.statements { db throws in _ = try Row.fetchAll(db, request) }, [
            #"SELECT * FROM "team""#,
            #"SELECT *, "teamId" AS "grdb_teamId" FROM "player" WHERE "teamId" IN (1, 2)"#,
        ])
    }

    @Test func joins() throws {
        let tracer = try Tracer(schema: Self.schema)
        let request = Player.including(required: Player.team)
        try check(tracer.statements(fresh: true) { db throws in _ = try Row.fetchAll(db, request) }, [
            Self.databaseList, #"PRAGMA main.foreign_key_list("player")"#,
            #"PRAGMA main.table_xinfo("player")"#, #"PRAGMA main.table_xinfo("team")"#,
            #"SELECT "player".*, "team".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId""#,
        ])
        try check(tracer.statements { db throws in
            _ = try Row.fetchAll(db, request)
            _ = try Row.fetchAll(db, Player.including(optional: Player.team))
        }, [
            #"SELECT "player".*, "team".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId""#,
            #"SELECT "player".*, "team".* FROM "player" LEFT JOIN "team" ON "team"."id" = "player"."teamId""#,
        ])
    }

    @Test func aggregates() throws {
        let tracer = try Tracer(schema: Self.schema)
        let annotated = Team.annotated(with: Team.players.count)
        let filtered = Team.having(Team.players.count > 0)
        let first = try tracer.statements(fresh: true) { db throws in _ = try Row.fetchAll(db, annotated) }
        // Each schema query runs once: the foreign key, the primary keys.
        #expect(first.count == Set(first).count)
        #expect(Set(first) == [
            Self.databaseList, Self.mainObjects, #"PRAGMA main.foreign_key_list("player")"#,
            #"PRAGMA main.table_xinfo("player")"#, #"PRAGMA main.table_xinfo("team")"#,
            """
            SELECT "team".*, COUNT(DISTINCT "player"."id") AS "playerCount" FROM "team" \
            LEFT JOIN "player" ON "player"."teamId" = "team"."id" GROUP BY "team"."id"
            """,
        ])
        try check(tracer.statements { db throws in _ = try Row.fetchAll(db, filtered) }, [
            """
            SELECT "team".* FROM "team" LEFT JOIN "player" ON "player"."teamId" = "team"."id" \
            GROUP BY "team"."id" HAVING COUNT(DISTINCT "player"."id") > 0
            """,
        ])
    }
}
