import Foundation
import Testing
import Cairn

/// Comparisons of records (`databaseEquals`, `databaseChanges`) and the
/// UPDATE statements of `updateChanges`, as GRDB 7.8 runs them: records of
/// different widths and cases, class records, records without columns.
@Suite struct GRDBRecordPersistenceChangesTests {
    /// A runner of the table `runner`.
    struct Runner: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "runner"
        var id: Int64?
        var nick: String?
        var laps: Int?
        var joined: Date?
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    /// A runner that encodes two columns, in capitals.
    struct ShortRunner: Codable, MutablePersistableRecord {
        static let databaseTableName = "runner"
        var ID: Int64?
        var NICK: String?
    }

    /// A runner that is a class.
    final class RunnerObject: Codable, PersistableRecord, @unchecked Sendable {
        static let databaseTableName = "runner"
        var id: Int64
        var nick: String?
        var laps: Int?
        init(id: Int64, nick: String?, laps: Int?) {
            self.id = id
            self.nick = nick
            self.laps = laps
        }
    }

    /// A record without any column.
    struct Nothing: MutablePersistableRecord {
        static let databaseTableName = "runner"
        func encode(to container: inout PersistenceContainer) {}
    }

    static let schema = "CREATE TABLE runner (id INTEGER PRIMARY KEY, nick TEXT, laps INTEGER, joined DATETIME);"

    @Test func aRecordEqualsItself() throws {
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        let runners = [Runner(), Runner(id: 1, nick: "Kip", laps: 3, joined: Date())]
        var updated = true
        for runner in runners {
            #expect(runner.databaseEquals(runner))
            #expect(try runner.databaseChanges(from: runner).isEmpty)
            #expect(try recorder.sql { db in updated = try runner.updateChanges(db, from: runner) } == [])
            #expect(!updated)
        }
        let nothing = Nothing()
        #expect(nothing.databaseEquals(nothing))
        #expect(try nothing.databaseChanges(from: nothing).isEmpty)
        updated = true
        #expect(try recorder.sql { db in updated = try nothing.updateChanges(db, from: nothing) } == [])
        #expect(!updated)
    }

    @Test func changesOfValues() throws {
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        var runner = Runner(id: 1, nick: "Kip", laps: nil)
        try recorder.dbQueue.inDatabase { db in try runner.insert(db) }

        var renamed = runner
        renamed.nick = "Lou"
        #expect(!renamed.databaseEquals(runner))
        #expect(try renamed.databaseChanges(from: runner) == ["nick": "Kip".databaseValue])
        var updated = false
        #expect(try recorder.sql { db in updated = try renamed.updateChanges(db, from: runner) } == [
            #"UPDATE "runner" SET "nick"='Lou' WHERE "id"=1"#,
        ])
        #expect(updated)

        var unnamed = runner
        unnamed.nick = nil
        #expect(try unnamed.databaseChanges(from: runner) == ["nick": "Kip".databaseValue])
        #expect(try recorder.sql { db in _ = try unnamed.updateChanges(db, from: runner) } == [
            #"UPDATE "runner" SET "nick"=NULL WHERE "id"=1"#,
        ])

        var counted = runner
        counted.laps = 4
        #expect(try counted.databaseChanges(from: runner) == ["laps": .null])
        #expect(try recorder.sql { db in _ = try counted.updateChanges(db, from: runner) } == [
            #"UPDATE "runner" SET "laps"=4 WHERE "id"=1"#,
        ])
    }

    @Test func changesBetweenRecordsOfDifferentWidths() throws {
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        var short = ShortRunner(ID: 1, NICK: "Kip")
        try recorder.dbQueue.inDatabase { db in try short.insert(db) }

        // Columns are matched without regard to case; a column that the old
        // record does not encode counts as NULL there.
        let wide = Runner(id: 1, nick: "Kip", laps: 5, joined: nil)
        #expect(try wide.databaseChanges(from: short) == ["laps": .null])
        #expect(try recorder.sql { db in _ = try wide.updateChanges(db, from: short) } == [
            #"UPDATE "runner" SET "laps"=5 WHERE "id"=1"#,
        ])

        // Columns that only the old record encodes are no change.
        let old = Runner(id: 1, nick: "Kip", laps: 9, joined: nil)
        #expect(try ShortRunner(ID: 1, NICK: "Kip").databaseChanges(from: old).isEmpty)

        // The changes are named as the new record encodes them; the UPDATE
        // names them as the table does.
        let renamed = ShortRunner(ID: 1, NICK: "Lou")
        #expect(try renamed.databaseChanges(from: old) == ["NICK": "Kip".databaseValue])
        #expect(try recorder.sql { db in _ = try renamed.updateChanges(db, from: old) } == [
            #"UPDATE "runner" SET "nick"='Lou' WHERE "id"=1"#,
        ])
    }

    @Test func updateChangesOfAClassRecord() throws {
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        var runner = RunnerObject(id: 1, nick: "Kip", laps: 1)
        try recorder.dbQueue.inDatabase { db in try runner.insert(db) }
        let sameObject = runner

        var modified = true
        #expect(try recorder.sql { db in modified = try runner.updateChanges(db) { _ in } } == [])
        #expect(!modified)
        #expect(try recorder.sql { db in modified = try runner.updateChanges(db) { $0.nick = "Kip" } } == [])
        #expect(!modified)
        #expect(try recorder.sql { db in modified = try runner.updateChanges(db) { $0.nick = nil } } == [
            #"UPDATE "runner" SET "nick"=NULL WHERE "id"=1"#,
        ])
        #expect(modified)
        #expect(sameObject.nick == nil)
        #expect(try recorder.sql { db in modified = try runner.updateChanges(db) { $0.nick = "Lou"; $0.laps = 2 } } == [
            #"UPDATE "runner" SET "nick"='Lou', "laps"=2 WHERE "id"=1"#,
        ])
        #expect(sameObject.laps == 2)
    }

    @Test func databaseChangesOfAModification() throws {
        var runner = Runner(id: 1, nick: "Kip", laps: 1)
        let changes = try runner.databaseChanges { $0.laps = 2; $0.nick = "Kip" }
        #expect(changes == ["laps": 1.databaseValue])
        #expect(runner.laps == 2)
    }
}
