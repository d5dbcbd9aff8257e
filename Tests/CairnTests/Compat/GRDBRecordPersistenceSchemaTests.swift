import Foundation
import Testing
import Cairn

/// The schema that records are persisted into, as GRDB 7.8 describes it:
/// `columns(in:)`, `indexes(on:)`, `foreignKeys(on:)`,
/// `table(_:hasUniqueKey:)`, and the errors for missing tables.
@Suite struct GRDBRecordPersistenceSchemaTests {
    func inDatabase<T>(_ schema: String, _ body: (Database) throws -> T) throws -> T {
        try DatabaseQueue().inDatabase { db in
            try db.execute(sql: schema)
            return try body(db)
        }
    }

    /// The message of the DatabaseError that `body` throws.
    func errorMessage(_ body: () throws -> Void) -> String? {
        do {
            try body()
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_ERROR)
            return error.message
        } catch {
            Issue.record("unexpected error: \(error)")
        }
        return nil
    }

    static let inventory = """
        CREATE TABLE item (
            serial INT,
            label TEXT,
            code VARCHAR(12),
            shelf int DEFAULT NULL,
            state Text NOT NULL DEFAULT 'new',
            "prix€" INT DEFAULT 0,
            big INT DEFAULT 2e3,
            weight REAL DEFAULT 0.5,
            added DATETIME DEFAULT CURRENT_TIMESTAMP,
            seen DATE DEFAULT (DATE('now')),
            "" odd€type,
            PRIMARY KEY(code, serial)
        );
        CREATE VIEW itemView AS SELECT * FROM item;
        """

    @Test func columnsOfATable() throws {
        let columns = try inDatabase(Self.inventory) { db in try db.columns(in: "item") }
        #expect(columns.map(\.name) == ["serial", "label", "code", "shelf", "state", "prix€", "big", "weight", "added", "seen", ""])
        // SQLite spells the types that it knows in capitals (GRDB's tests
        // accept both spellings, which depend on the version of SQLite).
        #expect(columns.map(\.type) == ["INT", "TEXT", "VARCHAR(12)", "INT", "TEXT", "INT", "INT", "REAL", "DATETIME", "DATE", "odd€type"])
        #expect(columns.map(\.isNotNull) == [false, false, false, false, true, false, false, false, false, false, false])
        #expect(columns.map(\.primaryKeyIndex) == [2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(columns.map(\.defaultValueSQL) == [nil, nil, nil, "NULL", "'new'", "0", "2e3", "0.5", "CURRENT_TIMESTAMP", "DATE('now')", nil])
    }

    @Test func columnsOfAView() throws {
        let columns = try inDatabase(Self.inventory) { db in try db.columns(in: "itemView") }
        #expect(columns.map(\.name) == ["serial", "label", "code", "shelf", "state", "prix€", "big", "weight", "added", "seen", ""])
        #expect(columns.map(\.type) == ["INT", "TEXT", "VARCHAR(12)", "INT", "TEXT", "INT", "INT", "REAL", "DATETIME", "DATE", "odd€type"])
        // A view has no default, no key, and no NOT NULL constraint.
        #expect(columns.allSatisfy { !$0.isNotNull && $0.primaryKeyIndex == 0 && $0.defaultValueSQL == nil })
    }

    @Test func generatedColumns() throws {
        let columns = try inDatabase("""
            CREATE TABLE g (
                a INT,
                b ALWAYS GENERATED AS (a),
                c ALWAYS GENERATED AS (a) VIRTUAL,
                d ALWAYS GENERATED AS (a) STORED,
                e INT ALWAYS GENERATED AS (a),
                f TEXT GENERATED ALWAYS AS (a),
                h ALWAYS GENERATED AS (a) NOT NULL
            )
            """) { db in try db.columns(in: "g") }
        #expect(columns.map(\.name) == ["a", "b", "c", "d", "e", "f", "h"])
        #expect(columns.map(\.type) == [
            "INT", "ALWAYS GENERATED", "ALWAYS GENERATED", "ALWAYS GENERATED", "INT ALWAYS GENERATED", "TEXT", "ALWAYS GENERATED",
        ])
        #expect(columns.map(\.isNotNull) == [false, false, false, false, false, false, true])
        #expect(columns.allSatisfy { $0.primaryKeyIndex == 0 && $0.defaultValueSQL == nil })
    }

    @Test func missingTables() throws {
        try inDatabase("") { db throws in
            #expect(errorMessage { _ = try db.columns(in: "nowhere") } == "no such table: nowhere")
            #expect(errorMessage { _ = try db.indexes(on: "nowhere") } == "no such table: nowhere")
            #expect(errorMessage { _ = try db.foreignKeys(on: "nowhere") } == "no such table: nowhere")
            #expect(errorMessage { _ = try db.primaryKey("nowhere") } == "no such table: nowhere")
            #expect(errorMessage { _ = try db.table("nowhere", hasUniqueKey: ["id"]) } == "no such table: nowhere")
        }
    }

    /// A schema source that gives `keyed` the key `code`, `unkeyed` an
    /// empty key, and knows no other view.
    struct ViewKeys: DatabaseSchemaSource {
        func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
            switch view.name {
            case "keyed": return ["code"]
            case "unkeyed": return []
            default: return nil
            }
        }
    }

    @Test func primaryKeysOfViewsAndMissingTables() throws {
        var config = Configuration()
        config.schemaSource = ViewKeys()
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE item (code TEXT PRIMARY KEY, label TEXT);
                CREATE VIEW keyed AS SELECT * FROM item;
                CREATE VIEW unkeyed AS SELECT * FROM item;
                CREATE VIEW unknown AS SELECT * FROM item;
                """)
            func error(_ body: () throws -> Void) -> DatabaseError? {
                do {
                    try body()
                    Issue.record("expected an error")
                } catch let error as DatabaseError {
                    return error
                } catch {
                    Issue.record("unexpected error: \(error)")
                }
                return nil
            }
            let keyed = try db.primaryKey("keyed")
            #expect(keyed.columns == ["code"])
            #expect(keyed.rowIDColumn == nil)
            #expect(!keyed.isRowID)
            #expect(!keyed.tableHasRowID)
            // A view whose source gives no key (nil or an empty list) has no
            // primary key.
            for view in ["unknown", "unkeyed"] {
                let failure = error { _ = try db.primaryKey(view) }
                #expect(failure?.resultCode == .SQLITE_ERROR)
                #expect(failure?.message == "database view \(view) has no primary key")
                #expect(failure?.sql == nil)
                #expect(failure?.description == "SQLite error 1: database view \(view) has no primary key")
            }
            let missing = error { _ = try db.primaryKey("nothing") }
            #expect(missing?.description == "SQLite error 1: no such table: nothing")
            let schema = error { _ = try db.primaryKey("item", in: "elsewhere") }
            #expect(schema?.description == "SQLite error 1: no such schema: elsewhere")
        }
        // Without a schema source, views have no primary key either.
        try DatabaseQueue().write { db throws in
            try db.execute(sql: "CREATE TABLE item (code TEXT PRIMARY KEY); CREATE VIEW keyed AS SELECT * FROM item")
            do {
                _ = try db.primaryKey("keyed")
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "database view keyed has no primary key")
            }
        }
    }

    @Test func indexesAndTheirOrigins() throws {
        try inDatabase("""
            CREATE TABLE member (id INTEGER PRIMARY KEY, nick TEXT, mail TEXT UNIQUE);
            CREATE TABLE seat (row INTEGER, memberId INTEGER NOT NULL, hall TEXT NOT NULL, PRIMARY KEY (memberId, hall));
            CREATE INDEX seatOnRow ON seat(row);
            CREATE INDEX memberOnNickLength ON member(length(nick));
            CREATE UNIQUE INDEX memberOnNick ON member(nick);
            """) { db throws in
            // An INTEGER PRIMARY KEY has no index; an index on an expression
            // is left out.
            let memberIndexes = try db.indexes(on: "member")
            #expect(Set(memberIndexes.map(\.name)) == ["sqlite_autoindex_member_1", "memberOnNick"])
            let mail = try #require(memberIndexes.first { $0.name == "sqlite_autoindex_member_1" })
            #expect(mail.columns == ["mail"])
            #expect(mail.isUnique)
            #expect(mail.origin == .uniqueConstraint)
            let nick = try #require(memberIndexes.first { $0.name == "memberOnNick" })
            #expect(nick.columns == ["nick"])
            #expect(nick.isUnique)
            #expect(nick.origin == .createIndex)

            let seatIndexes = try db.indexes(on: "seat")
            #expect(seatIndexes.count == 2)
            let byRow = try #require(seatIndexes.first { $0.columns == ["row"] })
            #expect(byRow.name == "seatOnRow")
            #expect(!byRow.isUnique)
            #expect(byRow.origin == .createIndex)
            let key = try #require(seatIndexes.first { $0.columns == ["memberId", "hall"] })
            #expect(key.name == "sqlite_autoindex_seat_1")
            #expect(key.isUnique)
            #expect(key.origin == .primaryKeyConstraint)
        }
    }

    @Test func uniqueKeys() throws {
        try inDatabase("""
            CREATE TABLE member (id INTEGER PRIMARY KEY, nick TEXT, mail TEXT UNIQUE);
            CREATE TABLE seat (row INTEGER, memberId INTEGER NOT NULL, hall TEXT NOT NULL, PRIMARY KEY (memberId, hall));
            CREATE INDEX seatOnRow ON seat(row);
            """) { db throws in
            #expect(try db.table("member", hasUniqueKey: ["rowid"]))
            #expect(try db.table("member", hasUniqueKey: ["id"]))
            #expect(try db.table("member", hasUniqueKey: ["ID"]))
            #expect(try db.table("member", hasUniqueKey: ["mail"]))
            #expect(try db.table("member", hasUniqueKey: ["id", "mail"]))
            #expect(try db.table("member", hasUniqueKey: ["nick", "mail"]))
            #expect(try !db.table("member", hasUniqueKey: []))
            #expect(try !db.table("member", hasUniqueKey: ["nick"]))

            #expect(try db.table("seat", hasUniqueKey: ["rowid"]))
            #expect(try db.table("seat", hasUniqueKey: ["memberId", "hall"]))
            #expect(try db.table("seat", hasUniqueKey: ["hall", "memberId"]))
            #expect(try !db.table("seat", hasUniqueKey: []))
            #expect(try !db.table("seat", hasUniqueKey: ["row"]))
            #expect(try !db.table("seat", hasUniqueKey: ["memberId"]))
            #expect(try !db.table("seat", hasUniqueKey: ["hall"]))
        }
    }

    @Test func foreignKeysInTheOrderOfSQLite() throws {
        try inDatabase("""
            CREATE TABLE album (id PRIMARY KEY);
            CREATE TABLE pair (x, y, PRIMARY KEY (x, y));
            CREATE TABLE track (albumId REFERENCES album);
            CREATE TABLE twoAlbums (firstId REFERENCES album, secondId REFERENCES album);
            CREATE TABLE onePair (px, py, FOREIGN KEY (px, py) REFERENCES pair);
            CREATE TABLE twoPairs (ax, ay, bx, by, FOREIGN KEY (ax, ay) REFERENCES pair, FOREIGN KEY (bx, by) REFERENCES pair(y, x));
            """) { db throws in
            func describe(_ table: String) throws -> [String] {
                try db.foreignKeys(on: table).map { foreignKey in
                    foreignKey.destinationTable + ":" + foreignKey.mapping.map { "\($0.origin)>\($0.destination)" }.joined(separator: ",")
                }
            }
            #expect(try describe("album") == [])
            #expect(try describe("pair") == [])
            #expect(try describe("track") == ["album:albumId>id"])
            // SQLite lists the last foreign key first.
            #expect(try describe("twoAlbums") == ["album:secondId>id", "album:firstId>id"])
            #expect(try describe("onePair") == ["pair:px>x,py>y"])
            #expect(try describe("twoPairs") == ["pair:bx>y,by>x", "pair:ax>x,ay>y"])
            let foreignKey = try #require(try db.foreignKeys(on: "onePair").first)
            #expect(foreignKey.originColumns == ["px", "py"])
            #expect(foreignKey.destinationColumns == ["x", "y"])
        }
    }

    @Test func foreignKeyViolations() throws {
        try DatabaseQueue().writeWithoutTransaction { db throws in
            try db.execute(sql: """
                CREATE TABLE owner(id TEXT NOT NULL PRIMARY KEY);
                CREATE TABLE pet(id INTEGER NOT NULL PRIMARY KEY, ownerId TEXT REFERENCES owner(id));
                CREATE TABLE toy(id INTEGER NOT NULL PRIMARY KEY, ownerId TEXT REFERENCES owner(id));
                PRAGMA foreign_keys = OFF;
                INSERT INTO pet (id, ownerId) VALUES (5, 'a');
                INSERT INTO pet (id, ownerId) VALUES (6, 'b');
                INSERT INTO toy (id, ownerId) VALUES (7, 'c');
                """)
            let all = try Array(db.foreignKeyViolations())
            #expect(Set(all.map { "\($0.originTable) \($0.originRowID.map(String.init) ?? "-") \($0.destinationTable)" })
                    == ["pet 5 owner", "pet 6 owner", "toy 7 owner"])
            let toys = try Array(db.foreignKeyViolations(in: "tOy"))
            #expect(toys.map(\.originTable) == ["toy"])
            #expect(toys.map(\.originRowID) == [7])
        }
    }
}
