import Foundation
import Testing
import Cairn

/// `Database.dumpSQL`, `dumpTables`, `dumpSchema` and `dumpContent`.
@Suite struct DatabaseDumpTests {
    func makeQueue(configuration: Configuration = Configuration(), _ sql: String) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in try db.execute(sql: sql) }
        return dbQueue
    }

    let teamsAndPlayers = """
        CREATE TABLE team (id TEXT PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE player (id INTEGER PRIMARY KEY AUTOINCREMENT, teamId TEXT REFERENCES team(id), name TEXT NOT NULL);
        CREATE INDEX player_on_teamId ON player(teamId);
        INSERT INTO team VALUES ('RED', 'Red'), ('BLUE', 'Blue');
        INSERT INTO player (teamId, name) VALUES ('RED', 'Arthur'), (NULL, 'Barbara'), ('BLUE', 'Craig');
        """

    // MARK: dumpSQL

    @Test func dumpSQLRunsStatementsOneAfterTheOther() throws {
        let dbQueue = try DatabaseQueue()
        let output = DumpOutput()
        try dbQueue.write { db in
            try db.dumpSQL("""
                CREATE TABLE t(a);
                INSERT INTO t VALUES (1), (2);
                SELECT a FROM t ORDER BY a DESC;
                SELECT COUNT(*) FROM t;
                """, to: output)
        }
        #expect(output.text == "2\n1\n2\n")
    }

    @Test func dumpSQLConsumesArgumentsStatementAfterStatement() throws {
        let dbQueue = try DatabaseQueue()
        let output = DumpOutput()
        try dbQueue.write { db in
            try db.dumpSQL("SELECT \(1), \("a"); SELECT \(2.5)", to: output)
            try db.dumpSQL(SQL(sql: "SELECT ?, ?; SELECT ?", arguments: [1, 2, 3]), to: output)
            try db.dumpSQL(SQL(sql: "SELECT :name; SELECT :name || '!'", arguments: ["name": "x"]), to: output)
        }
        #expect(output.text == "1|a\n2.5\n1|2\n3\nx\nx!\n")
    }

    @Test func dumpSQLErrors() throws {
        let dbQueue = try DatabaseQueue()
        let output = DumpOutput()
        // The rows of the statements that ran before the error are printed.
        #expect(throws: DatabaseError.self) {
            try dbQueue.read { db in try db.dumpSQL("SELECT 'Hello'; Not SQL", to: output) }
        }
        #expect(output.text == "Hello\n")
        #expect {
            try dbQueue.read { db in try db.dumpSQL(SQL(sql: "SELECT ?", arguments: [1, 2]), to: output) }
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_MISUSE
        }
        #expect {
            try dbQueue.read { db in try db.dumpSQL("SELECT * FROM missing", to: output) }
        } throws: { error in
            (error as? DatabaseError)?.message?.contains("no such table: missing") == true
        }
    }

    // MARK: dumpTables

    @Test func dumpTablesHeaders() throws {
        let dbQueue = try makeQueue(teamsAndPlayers)
        try dbQueue.read { db in
            let none = DumpOutput()
            try db.dumpTables([], to: none)
            #expect(none.text == "")

            let single = DumpOutput()
            try db.dumpTables(["team"], to: single)
            #expect(single.text == "BLUE|Blue\nRED|Red\n")

            let always = DumpOutput()
            try db.dumpTables(["team"], tableHeader: .always, to: always)
            #expect(always.text == "team\nBLUE|Blue\nRED|Red\n")

            let several = DumpOutput()
            try db.dumpTables(["team", "player"], format: .quote(), to: several)
            #expect(several.text == """
                team
                'BLUE','Blue'
                'RED','Red'

                player
                1,'RED','Arthur'
                2,NULL,'Barbara'
                3,'BLUE','Craig'

                """)
        }
    }

    @Test func dumpTablesSortsTablesByPrimaryKey() throws {
        let dbQueue = try makeQueue("""
            CREATE TABLE textKey (code TEXT PRIMARY KEY, name TEXT);
            INSERT INTO textKey VALUES ('b', 'first'), ('a', 'second');
            CREATE TABLE withoutRowID (a INT, b INT, PRIMARY KEY (b, a)) WITHOUT ROWID;
            INSERT INTO withoutRowID VALUES (1, 2), (2, 1), (0, 2);
            CREATE TABLE hiddenRowID (name TEXT);
            INSERT INTO hiddenRowID (rowid, name) VALUES (3, 'c'), (1, 'a'), (2, 'b');
            CREATE TABLE rowidColumn (rowid TEXT, name TEXT);
            INSERT INTO rowidColumn VALUES ('z', 'first'), ('a', 'second');
            """)
        try dbQueue.read { db in
            let output = DumpOutput()
            try db.dumpTables(["textKey", "withoutRowID", "hiddenRowID", "rowidColumn"], to: output)
            #expect(output.text == """
                textKey
                a|second
                b|first

                withoutRowID
                2|1
                0|2
                1|2

                hiddenRowID
                a
                b
                c

                rowidColumn
                z|first
                a|second

                """)
        }
    }

    @Test func dumpTablesOfViews() throws {
        let dbQueue = try makeQueue(teamsAndPlayers + """
            CREATE VIEW playerName AS SELECT name, teamId FROM player ORDER BY id DESC;
            """)
        try dbQueue.read { db in
            let natural = DumpOutput()
            try db.dumpTables(["playerName"], to: natural)
            #expect(natural.text == "Craig|BLUE\nBarbara|\nArthur|RED\n")

            let stable = DumpOutput()
            try db.dumpTables(["playerName"], stableOrder: true, to: stable)
            #expect(stable.text == "Arthur|RED\nBarbara|\nCraig|BLUE\n")
        }
    }

    @Test func dumpTablesOfViewsWithSchemaSource() throws {
        struct Source: DatabaseSchemaSource {
            func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
                view.name == "playerName" ? ["teamId", "name"] : nil
            }
        }
        var configuration = Configuration()
        configuration.schemaSource = Source()
        let dbQueue = try makeQueue(configuration: configuration, teamsAndPlayers + """
            CREATE VIEW playerName AS SELECT teamId, name FROM player WHERE teamId IS NOT NULL ORDER BY id;
            """)
        try dbQueue.read { db in
            let stable = DumpOutput()
            try db.dumpTables(["playerName"], format: .json(), stableOrder: true, to: stable)
            #expect(stable.text == """
                [{"teamId":"BLUE","name":"Craig"},
                {"teamId":"RED","name":"Arthur"}]

                """)
        }
    }

    @Test func dumpTablesOfAMissingTable() throws {
        let dbQueue = try makeQueue(teamsAndPlayers)
        let output = DumpOutput()
        #expect {
            try dbQueue.read { db in try db.dumpTables(["team", "missing"], to: output) }
        } throws: { error in
            (error as? DatabaseError)?.message?.contains("no such table: missing") == true
        }
        // As in GRDB, the missing table is named before the error.
        #expect(output.text == "team\nBLUE|Blue\nRED|Red\n\nmissing\n")
    }

    // MARK: dumpSchema

    @Test func dumpSchemaGroupsObjectsByTable() throws {
        let dbQueue = try makeQueue("""
            CREATE TABLE b(name TEXT UNIQUE);
            CREATE TABLE A(name);
            CREATE INDEX b_index2 ON b(name);
            CREATE INDEX B_index1 ON b(name);
            CREATE VIEW aView AS SELECT name FROM A;
            CREATE TRIGGER aView_insert INSTEAD OF INSERT ON aView BEGIN INSERT INTO A VALUES (NEW.name); END;
            CREATE TRIGGER a_delete AFTER DELETE ON A BEGIN DELETE FROM b; END;
            CREATE TEMP TABLE temporary(name);
            """)
        try dbQueue.read { db in
            let output = DumpOutput()
            try db.dumpSchema(to: output)
            // The index of the UNIQUE constraint has no SQL; temporary
            // tables are not in the main schema.
            #expect(output.text == """
                sqlite_master
                CREATE TABLE A(name);
                CREATE TRIGGER a_delete AFTER DELETE ON A BEGIN DELETE FROM b; END;
                CREATE TRIGGER aView_insert INSTEAD OF INSERT ON aView BEGIN INSERT INTO A VALUES (NEW.name); END;
                CREATE VIEW aView AS SELECT name FROM A;
                CREATE TABLE b(name TEXT UNIQUE);
                CREATE INDEX B_index1 ON b(name);
                CREATE INDEX b_index2 ON b(name);

                """)
        }
    }

    @Test func dumpSchemaLeavesInternalTablesOut() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE document (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT);
                INSERT INTO document (body) VALUES ('Hello');
                CREATE VIRTUAL TABLE document_ft USING fts5(body, content='document', content_rowid='id');
                INSERT INTO document_ft(document_ft) VALUES ('rebuild');
                ANALYZE;
                """)
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { db in
            // sqlite_sequence, sqlite_stat1, grdb_migrations and the shadow
            // tables of document_ft exist…
            let tableCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'")
            #expect(tableCount ?? 0 > 5)

            // …and are not printed.
            let schema = DumpOutput()
            try db.dumpSchema(to: schema)
            #expect(schema.text == """
                sqlite_master
                CREATE TABLE document (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT);
                CREATE VIRTUAL TABLE document_ft USING fts5(body, content='document', content_rowid='id');

                """)

            let content = DumpOutput()
            try db.dumpContent(to: content)
            #expect(content.text == schema.text + """

                document
                1|Hello

                document_ft
                Hello

                """)
        }
    }

    @Test func dumpSchemaOfAnEmptyDatabase() throws {
        let output = DumpOutput()
        try DatabaseQueue().read { db in try db.dumpSchema(to: output) }
        #expect(output.text == "sqlite_master\n")
    }

    // MARK: dumpContent

    @Test func dumpContentPrintsTheSchemaThenTheTables() throws {
        let dbQueue = try makeQueue(teamsAndPlayers + """
            CREATE VIEW redPlayer AS SELECT * FROM player WHERE teamId = 'RED';
            CREATE TABLE empty(a);
            """)
        try dbQueue.read { db in
            let output = DumpOutput()
            try db.dumpContent(format: .json(), to: output)
            // Views are not printed; empty tables are.
            #expect(output.text == """
                sqlite_master
                CREATE TABLE empty(a);
                CREATE TABLE player (id INTEGER PRIMARY KEY AUTOINCREMENT, teamId TEXT REFERENCES team(id), name TEXT NOT NULL);
                CREATE INDEX player_on_teamId ON player(teamId);
                CREATE VIEW redPlayer AS SELECT * FROM player WHERE teamId = 'RED';
                CREATE TABLE team (id TEXT PRIMARY KEY, name TEXT NOT NULL);

                empty
                []

                player
                [{"id":1,"teamId":"RED","name":"Arthur"},
                {"id":2,"teamId":null,"name":"Barbara"},
                {"id":3,"teamId":"BLUE","name":"Craig"}]

                team
                [{"id":"BLUE","name":"Blue"},
                {"id":"RED","name":"Red"}]

                """)
        }
    }
}
