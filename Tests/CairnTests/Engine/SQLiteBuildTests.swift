import Foundation
import Testing
import Cairn

/// Pins the build of the vendored SQLite: version, compile options, traits.
@Suite struct SQLiteBuildTests {
    /// The Vendor/SQLite/VERSION file of the package.
    static func versionFile() throws -> String {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Engine
            .deletingLastPathComponent()  // CairnTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // package root
            .appendingPathComponent("Vendor/SQLite/VERSION")
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test func libraryVersionMatchesVendoredVersion() throws {
        let file = try Self.versionFile()
        let line = try #require(file.split(separator: "\n").first { $0.hasPrefix("version: ") })
        let version = line.dropFirst("version: ".count)
        #expect(String(cString: sqlite3_libversion()) == String(version))
        #expect(sqlite3_libversion_number() == SQLITE_VERSION_NUMBER)
    }

    @Test func sourceIDMatchesVendoredSourceID() throws {
        let file = try Self.versionFile()
        let line = try #require(file.split(separator: "\n").first { $0.hasPrefix("source-id: ") })
        #expect(String(cString: sqlite3_sourceid()) == String(line.dropFirst("source-id: ".count)))
    }

    @Test(arguments: [
        "ENABLE_FTS5", "ENABLE_SNAPSHOT", "ENABLE_PREUPDATE_HOOK",
        "ENABLE_FTS3", "ENABLE_FTS3_PARENTHESIS", "ENABLE_FTS4", "ENABLE_RTREE",
        "ENABLE_MATH_FUNCTIONS", "ENABLE_COLUMN_METADATA", "ENABLE_API_ARMOR",
        "DQS=0", "DEFAULT_MEMSTATUS=0", "OMIT_DEPRECATED", "LIKE_DOESNT_MATCH_BLOBS",
        "THREADSAFE=2",
    ])
    func alwaysOnCompileOption(_ option: String) {
        #expect(sqlite3_compileoption_used(option) == 1, "\(option) should be compiled in")
    }

    @Test func lookasideIsKept() {
        #expect(sqlite3_compileoption_used("OMIT_LOOKASIDE") == 0)
    }

    @Test func threadingModeIsMultiThread() {
        #expect(sqlite3_threadsafe() == 2)
    }

    @Test func optionalOptionsFollowTraits() {
        #if SQLITE_ENABLE_SESSION
        #expect(sqlite3_compileoption_used("ENABLE_SESSION") == 1)
        #else
        #expect(sqlite3_compileoption_used("ENABLE_SESSION") == 0)
        #endif
        #if SQLITE_ENABLE_STAT4
        #expect(sqlite3_compileoption_used("ENABLE_STAT4") == 1)
        #else
        #expect(sqlite3_compileoption_used("ENABLE_STAT4") == 0)
        #endif
        #if SQLITE_ENABLE_DBSTAT_VTAB
        #expect(sqlite3_compileoption_used("ENABLE_DBSTAT_VTAB") == 1)
        #else
        #expect(sqlite3_compileoption_used("ENABLE_DBSTAT_VTAB") == 0)
        #endif
        #if SQLITE_ENABLE_BYTECODE_VTAB
        #expect(sqlite3_compileoption_used("ENABLE_BYTECODE_VTAB") == 1)
        #else
        #expect(sqlite3_compileoption_used("ENABLE_BYTECODE_VTAB") == 0)
        #endif
    }

    @Test func featuresWork() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE doc USING fts5(content)")
            try db.execute(sql: "CREATE VIRTUAL TABLE doc4 USING fts4(content)")
            try db.execute(sql: "CREATE VIRTUAL TABLE box USING rtree(id, minX, maxX)")
            #expect(try Double.fetchOne(db, sql: "SELECT sqrt(16)") == 4)
        }
    }

    /// The pre-update and snapshot functions are visible to Swift, through
    /// `import Cairn` only.
    @Test func cInterfaceIsReexported() throws {
        let preupdateCount: (OpaquePointer?) -> Int32 = sqlite3_preupdate_count
        let snapshotGet: (OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutablePointer<sqlite3_snapshot>?>?) -> Int32 = sqlite3_snapshot_get
        _ = (preupdateCount, snapshotGet)
        let dbQueue = try DatabaseQueue()
        dbQueue.inDatabase { db in
            #expect(sqlite3_get_autocommit(db.sqliteConnection) == 1)
        }
    }

    #if SQLITE_ENABLE_SESSION
    @Test func sessionExtensionIsAvailable() throws {
        // The raw C functions, on a connection that no Cairn observer or
        // DatabaseSession uses (they share the pre-update hook: see
        // DatabaseSession).
        let dbQueue = try DatabaseQueue()
        dbQueue.inDatabase { db in
            var session: OpaquePointer?
            #expect(sqlite3session_create(db.sqliteConnection, "main", &session) == SQLITE_OK)
            sqlite3session_delete(session)
        }
    }
    #endif
}
