import Foundation
import Testing
import Cairn

/// Connections as GRDB 7.8 opens and describes them: the order of the
/// configuration's setups, the read-only flag of the readers, the labels of
/// snapshots, and the names of the suspension notifications.
@Suite struct GRDBConnectionTests {
    @Test func suspensionNotificationsHaveGRDBNames() {
        #expect(Database.suspendNotification.rawValue == "GRDB.Database.Suspend")
        #expect(Database.resumeNotification.rawValue == "GRDB.Database.Resume")
    }

    @Test func readersAndSnapshotsAreReadOnlyConnections() throws {
        let directory = try TemporaryDirectory()
        let seen = Locked<[String: Bool]>([:])
        var config = Configuration()
        config.prepareDatabase { db in
            seen.withLock { $0[db.description] = db.configuration.readonly }
        }
        let dbPool = try DatabasePool(path: directory.filePath(), configuration: config)
        #expect(!dbPool.configuration.readonly)
        #expect(try dbPool.read { db in db.configuration.readonly })
        #expect(try !dbPool.write { db in db.configuration.readonly })
        let snapshot = try dbPool.makeSnapshot()
        #expect(snapshot.configuration.readonly)
        #expect(seen.withLock { $0 } == [
            "GRDB.DatabasePool.writer": false,
            "GRDB.DatabasePool.reader.1": true,
            "GRDB.DatabasePool.snapshot.1": true,
        ])
        // Readers still read what the writer writes, and do not write.
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE ticket (code TEXT)") }
        #expect(try dbPool.read { db in try db.tableExists("ticket") })
        #expect {
            try dbPool.read { db in try db.execute(sql: "INSERT INTO ticket VALUES ('a')") }
        } throws: { ($0 as? DatabaseError)?.resultCode == .SQLITE_READONLY }
    }

    @Test func setupsRunBeforeTheJournalModeIsSet() throws {
        let directory = try TemporaryDirectory()
        let modes = Locked<[String]>([])
        var config = Configuration()
        config.prepareDatabase { db in
            guard !db.configuration.readonly else { return }
            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? ""
            modes.withLock { $0.append(mode) }
            // Only possible before the database file is written.
            try db.execute(sql: "PRAGMA page_size = 8192")
        }
        let dbPool = try DatabasePool(path: directory.filePath(), configuration: config)
        #expect(modes.withLock { $0 } == ["delete"])
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == 8192)
        #expect(try dbPool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    }

    @Test func setupsSeeTheFormatCheck() throws {
        let statements = Locked<[String]>([])
        var config = Configuration()
        config.prepareDatabase { db in
            db.trace { event in statements.withLock { $0.append(event.expandedDescription) } }
        }
        _ = try DatabaseQueue(configuration: config)
        #expect(statements.withLock { $0 } == ["SELECT * FROM sqlite_master LIMIT 1"])
    }

    @Test func snapshotsKeepTheLabelOfTheirConfiguration() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.filePath("default.sqlite"))
        let first = try dbPool.makeSnapshot()
        let second = try dbPool.makeSnapshot()
        #expect(first.configuration.label == nil)
        #expect(try first.read { db in db.configuration.label } == nil)
        #expect(try first.read { db in db.description } == "GRDB.DatabasePool.snapshot.1")
        #expect(try second.read { db in db.description } == "GRDB.DatabasePool.snapshot.2")

        var config = Configuration()
        config.label = "Ledger"
        let labelled = try DatabasePool(path: directory.filePath("labelled.sqlite"), configuration: config)
        let snapshot = try labelled.makeSnapshot()
        #expect(try snapshot.read { db in db.configuration.label } == "Ledger")
        #expect(try snapshot.read { db in db.description } == "Ledger.snapshot.1")
    }
}
