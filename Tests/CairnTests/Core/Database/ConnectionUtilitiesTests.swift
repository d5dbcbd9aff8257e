import Foundation
import Synchronization
import Testing
import Cairn

/// Small helpers of connections, SQL and expressions.
@Suite struct ConnectionUtilitiesTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
    }

    @Test func builtInStringFunctions() throws {
        try dbQueue.read { db throws -> Void in
            #expect(try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.capitalize.name)('jérÔME')") == "Jérôme")
            #expect(try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.lowercase.name)('jérÔME')") == "jérôme")
            #expect(try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.uppercase.name)('jérÔME')") == "JÉRÔME")
            #expect(try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.localizedUppercase.name)('é')") == "É")
            // Not a string: NULL.
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT \(DatabaseFunction.capitalize.name)(1)") == .null)
            // In the query interface.
            #expect(try String.fetchOne(db, SQLRequest<String>("SELECT \("élan".databaseValue.capitalized)")) == "Élan")
            #expect(try String.fetchOne(db, SQLRequest<String>("SELECT \("ÉLAN".databaseValue.localizedLowercased)")) == "élan")
        }
        // The functions that depend on the locale are not deterministic:
        // SQLite refuses them in indexes.
        try dbQueue.write { db throws -> Void in
            try db.execute(sql: "CREATE TABLE words (w TEXT)")
            try db.execute(sql: "CREATE INDEX byLowercase ON words (\(DatabaseFunction.lowercase.name)(w))")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "CREATE INDEX byLocalizedLowercase ON words (\(DatabaseFunction.localizedLowercase.name)(w))")
            }
        }
    }

    @Test func limitsAndVersion() throws {
        #expect(Database.sqliteLibVersionNumber >= 3_040_000)
        let count = try dbQueue.read { $0.maximumStatementArgumentCount }
        #expect(count >= 999)
        #expect(databaseQuestionMarks(count: 3) == "?,?,?")
        #expect(databaseQuestionMarks(count: 0) == "")
        try dbQueue.write { db throws -> Void in
            try db.execute(sql: "CREATE TABLE t(a, b, c)")
            try db.execute(sql: "INSERT INTO t VALUES (\(databaseQuestionMarks(count: 3)))", arguments: [1, 2, 3])
            #expect(try Int.fetchOne(db, sql: "SELECT a + b + c FROM t") == 6)
        }
    }

    @Test func readOnlyBlocks() throws {
        try dbQueue.writeWithoutTransaction { db throws -> Void in
            try db.execute(sql: "CREATE TABLE t(a)")
            #expect(throws: DatabaseError.self) {
                try db.readOnly { try db.execute(sql: "INSERT INTO t VALUES (1)") }
            }
            #expect(try db.readOnly { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
            // Writes are allowed again after the block.
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
    }

    @Test func accessesWithClosuresThatDoNotThrow() throws {
        let changes = dbQueue.inDatabase { db in db.totalChangesCount }
        #expect(changes == 0)
        #expect(!dbQueue.writeWithoutTransaction { db in db.isInsideTransaction })
        let directory = try TemporaryDirectory()
        let pool = try DatabasePool(path: directory.filePath())
        #expect(pool.writeWithoutTransaction { db in db.totalChangesCount } == 0)
    }

    @Test func codingKeysInSQLInterpolation() throws {
        struct Player: Codable, FetchableRecord, TableRecord {
            var id: Int64
            var name: String
            enum CodingKeys: String, CodingKey { case id, name }
        }
        try dbQueue.write { db throws -> Void in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO player VALUES (1, 'Arthur')")
            let request: SQLRequest<Player> = "SELECT * FROM player WHERE \(Player.CodingKeys.id) = \(1)"
            #expect(try request.fetchOne(db)?.name == "Arthur")
            let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
            #expect(statement.sql == #"SELECT * FROM player WHERE "id" = ?"#)
        }
    }

    @Test func fts5PatternsWithAllowedColumns() throws {
        #expect(try FTS5Pattern(rawPattern: "sqlite AND database").rawPattern == "sqlite AND database")
        #expect(try FTS5Pattern(rawPattern: "title: sqlite", allowedColumns: ["title"]).rawPattern == "title: sqlite")
        #expect(throws: DatabaseError.self) { try FTS5Pattern(rawPattern: "AND") }
        #expect(throws: DatabaseError.self) { try FTS5Pattern(rawPattern: "title: sqlite") }
        #expect(throws: DatabaseError.self) { try FTS5Pattern(rawPattern: "body: sqlite", allowedColumns: ["title"]) }
    }

    @Test func temporaryVirtualTables() throws {
        try dbQueue.write { db throws -> Void in
            try db.create(virtualTable: "document", options: .temporary, using: FTS5()) { t in
                t.column("content")
            }
            #expect(try db.tableExists("document", in: "temp"))
            #expect(try !db.tableExists("document", in: "main"))
            try db.execute(sql: "INSERT INTO document VALUES ('abc')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM document WHERE document MATCH 'abc'") == 1)
        }
    }

    @Test func expressionsOfValuesAndDetachedColumns() throws {
        try dbQueue.write { db throws -> Void in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO player VALUES (1, 'Arthur')")
            let request = Table("player").filter("arthur".databaseValue.collating(.nocase) == Column("name"))
            #expect(try request.fetchCount(db) == 1)
            let ordered = Table("player").select(Column("name").forKey("n")).order(Column("n").detached)
            let statement = try ordered.makePreparedRequest(db, forSingleResult: false).statement
            #expect(statement.sql == #"SELECT "name" AS "n" FROM "player" ORDER BY "n""#)
        }
        #expect(DatabaseValue(storage: .int64(1)).storage == .int64(1))
        #expect(DatabaseValue(storage: .int64(1)).storage != .double(1))
    }

    @Test func busyCallbacks() throws {
        let directory = try TemporaryDirectory()
        let calls = Mutex(0)
        let callback: Database.BusyCallback = { numberOfTries in
            calls.withLock { $0 = numberOfTries + 1 }
            return numberOfTries < 2
        }
        var configuration = Configuration()
        configuration.busyMode = .callback(callback)
        let locker = try DatabaseQueue(path: directory.filePath())
        let waiter = try DatabaseQueue(path: directory.filePath(), configuration: configuration)
        try locker.writeWithoutTransaction { db throws -> Void in
            try db.execute(sql: "CREATE TABLE t(a)")
            try db.beginTransaction(.exclusive)
            #expect(throws: DatabaseError.self) {
                try waiter.write { db throws in try db.execute(sql: "INSERT INTO t VALUES (1)") }
            }
            try db.rollback()
        }
        // Called for tries 0, 1 and 2, then gave up.
        #expect(calls.withLock { $0 } == 3)
    }
}
