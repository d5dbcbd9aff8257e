import Foundation
import Testing
import Cairn

/// Unique keys, indexes and schema names, as the schema introspection
/// methods of `Database` report them.
@Suite struct SchemaIntrospectionTests {
    @Test func uniqueKeysOfARowIDTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT, email TEXT UNIQUE)")
            #expect(try db.table("person", hasUniqueKey: ["id"]))
            #expect(try db.table("person", hasUniqueKey: ["ID"]))
            #expect(try db.table("person", hasUniqueKey: ["email"]))
            // The rowid is an alias of the primary key.
            #expect(try db.table("person", hasUniqueKey: ["rowid"]))
            #expect(try db.table("person", hasUniqueKey: ["_rowid_"]))
            // Columns that contain a unique key identify rows too.
            #expect(try db.table("person", hasUniqueKey: ["id", "email"]))
            #expect(try db.table("person", hasUniqueKey: ["name", "email"]))
            #expect(try !db.table("person", hasUniqueKey: ["name"]))
            #expect(try !db.table("person", hasUniqueKey: []))
        }
    }

    @Test func uniqueKeysOfACompositePrimaryKey() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: """
                CREATE TABLE citizenship (
                  year INTEGER, personId INTEGER NOT NULL, countryCode TEXT NOT NULL,
                  PRIMARY KEY (personId, countryCode));
                CREATE INDEX citizenshipOnYear ON citizenship(year);
                """)
            #expect(try db.table("citizenship", hasUniqueKey: ["personId", "countryCode"]))
            #expect(try db.table("citizenship", hasUniqueKey: ["countryCode", "personId"]))
            #expect(try db.table("citizenship", hasUniqueKey: ["rowid"]))
            #expect(try !db.table("citizenship", hasUniqueKey: ["personId"]))
            #expect(try !db.table("citizenship", hasUniqueKey: ["year"]))
        }
    }

    @Test func rowIDNamesTakenByColumnsAreColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: """
                CREATE TABLE shadow (id INTEGER PRIMARY KEY, oid INTEGER);
                CREATE TABLE withoutRowID (code TEXT PRIMARY KEY, name TEXT) WITHOUT ROWID;
                """)
            #expect(try db.table("shadow", hasUniqueKey: ["rowid"]))
            // "oid" is a column here, not the rowid.
            #expect(try !db.table("shadow", hasUniqueKey: ["oid"]))
            #expect(try db.table("withoutRowID", hasUniqueKey: ["code"]))
            #expect(try !db.table("withoutRowID", hasUniqueKey: ["rowid"]))
        }
    }

    @Test func viewsHaveUniqueKeysFromTheSchemaSourceOnly() throws {
        struct ViewKeys: DatabaseSchemaSource {
            func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
                view.name == "keyedView" ? ["id"] : nil
            }
        }
        var configuration = Configuration()
        configuration.schemaSource = ViewKeys()
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.inDatabase { db in
            try db.execute(sql: """
                CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT, email TEXT UNIQUE);
                CREATE VIEW plainView AS SELECT * FROM person;
                CREATE VIEW keyedView AS SELECT * FROM person;
                """)
            for columns in [["rowid"], ["id"], ["email"], ["id", "email"], []] {
                #expect(try !db.table("plainView", hasUniqueKey: columns), "\(columns)")
            }
            #expect(try db.table("keyedView", hasUniqueKey: ["id"]))
            #expect(try db.table("keyedView", hasUniqueKey: ["id", "email"]))
            #expect(try !db.table("keyedView", hasUniqueKey: ["email"]))
            #expect(try !db.table("keyedView", hasUniqueKey: []))
        }
    }

    @Test func indexesOnExpressionsAreNotListed() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, team TEXT);
                CREATE UNIQUE INDEX playerOnLowercaseName ON player(lower(name));
                CREATE INDEX playerOnTeamAndNameLength ON player(team, length(name));
                CREATE INDEX playerOnName ON player(name);
                """)
            let indexes = try db.indexes(on: "player")
            #expect(indexes.map(\.name) == ["playerOnName"])
            #expect(indexes.first?.columns == ["name"])
            // A unique index on an expression is no unique key of columns.
            #expect(try !db.table("player", hasUniqueKey: ["name"]))
            #expect(try !db.table("player", hasUniqueKey: [""]))
        }
    }

    @Test func unknownSchemasAreReportedAsSuch() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            let error = try #require(throws: DatabaseError.self) {
                try db.indexes(on: "player", in: "invalid")
            }
            #expect(error.resultCode == .SQLITE_ERROR)
            #expect(error.message == "no such schema: invalid")
            #expect(throws: DatabaseError.self) { try db.columns(in: "player", in: "invalid") }
            #expect(throws: DatabaseError.self) { try db.tableExists("player", in: "invalid") }
            // Known schemas, the temporary one included before any use.
            #expect(try db.indexes(on: "player", in: "main").isEmpty)
            #expect(try !db.tableExists("player", in: "temp"))
            #expect(try db.tableExists("player", in: "MAIN"))
        }
    }

    @Test func columnInfosFromPragmaRows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE player (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL DEFAULT 'Anonymous',
                    score,
                    total GENERATED ALWAYS AS (score * 2))
                """)
            let columns = try ColumnInfo.fetchAll(db, sql: "PRAGMA table_xinfo(player)")
            #expect(columns == (try db.columns(in: "player")))
            #expect(columns.map(\.name) == ["id", "name", "score", "total"])
            #expect(columns.map(\.type) == ["INTEGER", "TEXT", "", ""])
            #expect(columns.map(\.isNotNull) == [false, true, false, false])
            #expect(columns.map(\.defaultValueSQL) == [nil, "'Anonymous'", nil, nil])
            #expect(columns.map(\.primaryKeyIndex) == [1, 0, 0, 0])
            #expect(columns.map(\.isGenerated) == [false, false, false, true])
            // table_info has no hidden column.
            let infoColumns = try ColumnInfo.fetchAll(db, sql: "PRAGMA table_info(player)")
            #expect(infoColumns.map(\.name) == ["id", "name", "score"])
            // A row without the expected columns gives neutral values.
            let odd = ColumnInfo(row: ["name": "a", "pk": "not a number"])
            #expect(odd.name == "a")
            #expect(odd.type == "")
            #expect(odd.primaryKeyIndex == 0)
        }
    }

    @Test func schemaTableNames() throws {
        #expect(DatabaseSchemaID.main.schemaTableName == "sqlite_master")
        #expect(DatabaseSchemaID.temp.schemaTableName == "sqlite_temp_master")
        #expect(DatabaseSchemaID.attached("my archive").schemaTableName == #""my archive".sqlite_master"#)
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue()
        try dbQueue.writeWithoutTransaction { db throws in
            try db.execute(sql: "ATTACH DATABASE ? AS \"my archive\"", arguments: [directory.filePath("archive.sqlite")])
            try db.execute(sql: #"CREATE TABLE "my archive".old (a)"#)
            try db.execute(sql: "CREATE TEMPORARY TABLE scratch (a)")
            for (schemaID, table) in [(DatabaseSchemaID.attached("my archive"), "old"), (.temp, "scratch")] {
                let names = try String.fetchAll(db, sql: "SELECT name FROM \(schemaID.schemaTableName) WHERE type = 'table'")
                #expect(names == [table])
            }
        }
    }

    @Test func objectIdentifiers() {
        let view = DatabaseObjectID(name: "playerView", schemaID: .main)
        #expect(view.name == "playerView")
        #expect(view.schemaID == .main)
        #expect(view == DatabaseObjectID(schemaID: .main, name: "playerView"))
        #expect(view != DatabaseObjectID(name: "playerView", schemaID: .temp))
    }
}
