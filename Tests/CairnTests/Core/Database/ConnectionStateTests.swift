import Dispatch
import Foundation
import Testing
import Cairn

/// The members of `Database` that report or reset the state of the
/// connection: last error code, schema version, memory, schema source,
/// accesses registered for value observations.
@Suite struct ConnectionStateTests {
    @Test func lastErrorCode() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a UNIQUE)")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t VALUES (1)") }
            #expect(db.lastErrorCode == .SQLITE_CONSTRAINT_UNIQUE)
            // With the C interface:
            #expect(sqlite3_exec(db.sqliteConnection, "SELECT * FROM missing", nil, nil, nil) != SQLITE_OK)
            let error = DatabaseError(resultCode: db.lastErrorCode, message: db.lastErrorMessage)
            #expect(error.resultCode == .SQLITE_ERROR)
            #expect(error.message == "no such table: missing")
        }
    }

    @Test(arguments: WriterKind.allCases)
    func schemaVersionChangesWithTheSchema(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        let version = try writer.read { db throws in try db.schemaVersion() }
        try writer.write { db throws in try db.create(table: "player") { t in t.column("name") } }
        let newVersion = try writer.read { db throws in try db.schemaVersion() }
        #expect(newVersion != version)
        try writer.write { db throws in try db.execute(sql: "INSERT INTO player VALUES ('Arthur')") }
        #expect(try writer.read { db throws in try db.schemaVersion() } == newVersion)
    }

    @Test func internalTables() {
        #expect(Database.isSQLiteInternalTable("sqlite_master"))
        #expect(Database.isSQLiteInternalTable("sqlite_sequence"))
        #expect(Database.isSQLiteInternalTable("pragma_table_info"))
        #expect(!Database.isSQLiteInternalTable("player"))
        #expect(!Database.isSQLiteInternalTable("SQLITEX"))
        #expect(Database.isGRDBInternalTable("grdb_migrations"))
        #expect(!Database.isGRDBInternalTable("player"))
    }

    @Test func releaseMemoryFinalizesCachedStatements() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            _ = try db.cachedStatement(sql: "SELECT a FROM t")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            let held = try db.makeStatement(sql: "SELECT 42")
            #expect(preparedSQL(db).contains("SELECT a FROM t"))
            db.releaseMemory()
            #expect(!preparedSQL(db).contains("SELECT a FROM t"))
            #expect(!preparedSQL(db).contains("INSERT INTO t VALUES (1)"))
            // Statements that the code holds stay alive, and everything
            // works as before.
            #expect(try Int.fetchOne(held) == 42)
            #expect(try Int.fetchOne(db.cachedStatement(sql: "SELECT a FROM t")) == 1)
        }
        dbQueue.releaseMemory()
        #expect(try dbQueue.read { db throws in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
    }

    @Test func description() throws {
        var config = Configuration()
        config.label = "Players"
        let dbQueue = try DatabaseQueue(configuration: config)
        let description = try dbQueue.read { db in String(describing: db) }
        #expect(description == "Players")
        let convertible: any CustomStringConvertible = try dbQueue.read { db in db.description }
        #expect("\(convertible)" == "Players")
    }

    struct ViewSource: DatabaseSchemaSource {
        let key: [String]
        func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
            view.name == "playerView" ? key : nil
        }
    }

    /// A queue whose configuration gives `playerView` the key `id`, with
    /// the table `player` and the view `playerView`.
    private func makePlayerView() throws -> DatabaseQueue {
        var config = Configuration()
        config.schemaSource = ViewSource(key: ["id"])
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
                CREATE VIEW playerView AS SELECT * FROM player;
                """)
        }
        return dbQueue
    }

    @Test func withSchemaSourceReplacesTheSourceOfTheConfiguration() throws {
        let dbQueue = try makePlayerView()
        try dbQueue.write { db throws in
            #expect(db.schemaSource is ViewSource)
            #expect(try db.primaryKey("playerView").columns == ["id"])
            try db.withSchemaSource(ViewSource(key: ["name"])) { () throws in
                #expect(try db.primaryKey("playerView").columns == ["name"])
                db.withSchemaSource(nil) {
                    #expect(db.schemaSource == nil)
                    #expect(throws: DatabaseError.self) { try db.primaryKey("playerView") }
                }
                #expect(try db.primaryKey("playerView").columns == ["name"])
            }
            // Back to the source of the configuration, not to the cache of
            // the inner source.
            #expect(try db.primaryKey("playerView").columns == ["id"])
            let result = db.withSchemaSource(nil) { 42 }
            #expect(result == 42)
        }
    }

    /// The stable order of a view and the dumps use the primary key that
    /// the schema source in use gives: the one of `withSchemaSource`, not
    /// the one of the configuration.
    @Test func stableOrderOfViewsUsesTheSourceInUse() throws {
        let dbQueue = try makePlayerView()
        try dbQueue.write { db throws in
            let request = Table("playerView").all().withStableOrder()
            func sql() throws -> String { try request.makePreparedRequest(db).statement.sql }
            #expect(try sql().hasSuffix(#"ORDER BY "id""#))
            try db.withSchemaSource(ViewSource(key: ["name"])) { () throws in
                #expect(try sql().hasSuffix(#"ORDER BY "name""#))
            }
        }
    }

    @Test func registerAccessTracksRegionsThatCairnDoesNotSee() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        try dbQueue.write { db throws in try db.execute(sql: "CREATE TABLE player (name TEXT)") }

        // Outside of observations, the region is not evaluated.
        try dbQueue.read { db throws in
            try db.registerAccess(to: { () -> DatabaseRegion in
                Issue.record("evaluated")
                return DatabaseRegion.fullDatabase
            }())
        }

        // The count is read with the C interface: only registerAccess tells
        // the observation which table it reads.
        let observation = ValueObservation.tracking { db throws -> Int in
            try db.registerAccess(to: Table("player"))
            return ConnectionStateTests.rawCount(db)
        }
        let recorder = Recorder<Int>()
        let queue = DispatchQueue(label: "registerAccess")
        let cancellable = observation.start(
            in: dbQueue, scheduling: .async(onQueue: queue),
            onError: recorder.receive(error:), onChange: recorder.receive)
        defer { cancellable.cancel() }
        #expect(recorder.wait { $0 == [0] })
        try dbQueue.write { db throws in try db.execute(sql: "INSERT INTO player VALUES ('Arthur')") }
        #expect(recorder.wait { $0 == [0, 1] })
    }

    /// `SELECT COUNT(*) FROM player` with the C interface.
    static func rawCount(_ db: Database) -> Int {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db.sqliteConnection, "SELECT COUNT(*) FROM player", -1, &statement, nil) == SQLITE_OK else {
            return -1
        }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return -1 }
        return Int(sqlite3_column_int64(statement, 0))
    }

    @Test func storageClasses() throws {
        #expect(Database.StorageClass.integer.rawValue == "INTEGER")
        #expect(Database.StorageClass.real.rawValue == "REAL")
        #expect(Database.StorageClass.text.rawValue == "TEXT")
        #expect(Database.StorageClass.blob.rawValue == "BLOB")
        #expect(Set([Database.StorageClass.text, .text, .blob]).count == 2)
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            let storageClass = Database.StorageClass.real
            let value = try Double.fetchOne(db, SQLRequest<Double>("SELECT \(cast(1.sqlExpression, as: storageClass))"))
            #expect(value == 1.0)
            #expect(try String.fetchOne(db, sql: "SELECT typeof(CAST(1 AS \(storageClass.rawValue)))") == "real")
            // Literals still resolve to column types.
            let literal = try Double.fetchOne(db, SQLRequest<Double>("SELECT \(cast(1.sqlExpression, as: .real))"))
            #expect(literal == 1.0)
        }
    }
}
