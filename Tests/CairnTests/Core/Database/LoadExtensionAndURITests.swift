import Foundation
import Testing
import Cairn
import CairnSQLiteShims

/// `Database.loadExtension` and `Configuration.acceptsURIFilenames`, which
/// read replicas of Litestream use (Scripts/check-replication.sh loads the
/// real `litestream-vfs` extension).
@Suite struct LoadExtensionAndURITests {
    /// Whether the C interface may load extensions on this connection.
    static func loadingIsEnabled(_ db: Database) -> Bool {
        var value: CInt = -1
        _ = _cairn_sqlite_db_config_int(db.sqliteConnection, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, -1, &value)
        return value == 1
    }

    @Test func aMissingLibraryThrowsTheMessageOfSQLite() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            let error = try #require(throws: DatabaseError.self) {
                try db.loadExtension("/nonexistent/cairn-extension.so")
            }
            #expect(error.resultCode == .SQLITE_ERROR)
            #expect(error.message?.contains("/nonexistent/cairn-extension.so") == true)
            // Refused again afterwards, through C and through SQL.
            #expect(!Self.loadingIsEnabled(db))
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "SELECT load_extension('/nonexistent/cairn-extension.so')")
            }
        }
    }

    #if os(Linux)
    /// A library that opens, but has no entry point: the error comes from
    /// the entry point, which shows that the C interface was allowed to open
    /// it (with loading refused, SQLite says "not authorized" first).
    @Test func aLibraryWithoutEntryPointThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            let error = try #require(throws: DatabaseError.self) {
                try db.loadExtension("libm.so.6", entryPoint: "cairn_no_such_entry_point")
            }
            #expect(error.message?.contains("cairn_no_such_entry_point") == true)
            #expect(error.message?.contains("not authorized") == false)
            #expect(!Self.loadingIsEnabled(db))
        }
    }
    #endif

    @Test func loadingIsRefusedByDefault() throws {
        try DatabaseQueue().inDatabase { db in
            #expect(!Self.loadingIsEnabled(db))
        }
    }

    @Test func uriFilenamesOpenWithTheirParameters() throws {
        let directory = try TemporaryDirectory()
        let path = directory.filePath()
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "CREATE TABLE player (name TEXT); INSERT INTO player VALUES ('Arthur')")
        }
        let uri = "file:\(path)?mode=ro"

        var config = Configuration()
        config.acceptsURIFilenames = true
        let dbQueue = try DatabaseQueue(path: uri, configuration: config)
        #expect(try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT name FROM player") } == ["Arthur"])
        // mode=ro: the URI's parameter applies.
        let error = try #require(throws: DatabaseError.self) {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO player VALUES ('Barbara')") }
        }
        #expect(error.resultCode.primaryResultCode == .SQLITE_READONLY)

        // An unknown VFS is an error of the URI, not a file.
        #expect(throws: DatabaseError.self) {
            try DatabaseQueue(path: "file:\(path)?vfs=cairn-no-such-vfs", configuration: config)
        }

        // Without the option, the same string is a file name: its folder
        // ("file:" + the directory) does not exist.
        #expect(throws: DatabaseError.self) {
            try DatabaseQueue(path: uri)
        }
    }

    /// A pool on a URI filename finds its WAL file (it writes a first frame
    /// in an empty WAL, so that snapshots work): the file that SQLite
    /// opened, not the URI plus "-wal".
    @Test func poolsOpenURIFilenames() throws {
        let directory = try TemporaryDirectory()
        let path = directory.filePath()
        var config = Configuration()
        config.acceptsURIFilenames = true
        let dbPool = try DatabasePool(path: "file:\(path)?cache=private", configuration: config)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE player (name TEXT); INSERT INTO player VALUES ('Arthur')")
        }
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
        // A second pool finds frames in the WAL, and writes none.
        let walSize = { try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int }
        let sizeBefore = try walSize()
        let secondPool = try DatabasePool(path: "file:\(path)?cache=private", configuration: config)
        #expect(try walSize() == sizeBefore)
        #expect(try secondPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
        let snapshot = try dbPool.makeSnapshotPool()
        #expect(try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
    }
}
