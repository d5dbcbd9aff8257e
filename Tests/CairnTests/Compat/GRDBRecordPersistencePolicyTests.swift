import Foundation
import Testing
import Cairn

/// Conflict policies, generated columns, single-row tables and encoded
/// dictionaries of records, as GRDB 7.8 handles them: the SQL of each
/// statement, the rows it leaves, and the errors it throws.
@Suite struct GRDBRecordPersistencePolicyTests {
    /// A ticket with a unique code, whose type replaces on conflict.
    struct Ticket: Codable, MutablePersistableRecord {
        static let databaseTableName = "ticket"
        static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace, update: .replace)
        var id: Int64?
        var code: String
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    /// A ticket whose type fails on conflict when it inserts, and rolls back
    /// when it updates.
    struct StrictTicket: Codable, MutablePersistableRecord {
        static let databaseTableName = "ticket"
        static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .fail, update: .rollback)
        var id: Int64?
        var code: String
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    static let schema = "CREATE TABLE ticket (id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE);"

    @Test func theDefaultPolicyAborts() {
        let policy = PersistenceConflictPolicy()
        #expect(policy.conflictResolutionForInsert == .abort)
        #expect(policy.conflictResolutionForUpdate == .abort)
        #expect(NamedPlayer.persistenceConflictPolicy.conflictResolutionForInsert == .abort)
        #expect(NamedPlayer.persistenceConflictPolicy.conflictResolutionForUpdate == .abort)
    }

    @Test func eachPolicyWritesItsClause() throws {
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        var strict = StrictTicket(id: nil, code: "s1")
        #expect(try recorder.sql { db in try strict.insert(db) } == [
            #"INSERT OR FAIL INTO "ticket" ("id", "code") VALUES (NULL,'s1')"#,
        ])
        #expect(strict.id == 1)
        strict.code = "s2"
        #expect(try recorder.sql { db in try strict.update(db) } == [
            #"UPDATE OR ROLLBACK "ticket" SET "code"='s2' WHERE "id"=1"#,
        ])
        // An explicit policy wins over the one of the type.
        #expect(try recorder.sql { db in try strict.update(db, onConflict: .ignore) } == [
            #"UPDATE OR IGNORE "ticket" SET "code"='s2' WHERE "id"=1"#,
        ])
        // Save gives the policy to both statements, the update and the
        // insert that follows it when no row was updated.
        var missing = StrictTicket(id: 9, code: "s9")
        #expect(try recorder.sql { db in try missing.save(db, onConflict: .replace) } == [
            #"UPDATE OR REPLACE "ticket" SET "code"='s9' WHERE "id"=9"#,
            #"INSERT OR REPLACE INTO "ticket" ("id", "code") VALUES (9,'s9')"#,
        ])
        // Without explicit policy, each statement has the policy of the type.
        var other = StrictTicket(id: 10, code: "s10")
        #expect(try recorder.sql { db in try other.save(db) } == [
            #"UPDATE OR ROLLBACK "ticket" SET "code"='s10' WHERE "id"=10"#,
            #"INSERT OR FAIL INTO "ticket" ("id", "code") VALUES (10,'s10')"#,
        ])
    }

    /// An observer that keeps the changes of the last committed transaction.
    final class ChangeLog: TransactionObserver, @unchecked Sendable {
        private let pending = Locked<[String]>([])
        let committed = Locked<[String]>([])
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {
            let kind: String
            switch event.kind {
            case .insert: kind = "insert"
            case .update: kind = "update"
            case .delete: kind = "delete"
            }
            pending.withLock { $0.append("\(kind) \(event.tableName) \(event.rowID)") }
        }
        func databaseDidCommit(_ db: Database) {
            let events = pending.withLock { events in
                defer { events = [] }
                return events
            }
            committed.withLock { $0 = events }
        }
        func databaseDidRollback(_ db: Database) {
            pending.withLock { $0 = [] }
            committed.withLock { $0 = [] }
        }
    }

    @Test func replacePolicyReplacesConflictingRows() throws {
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        let log = ChangeLog()
        recorder.dbQueue.add(transactionObserver: log)

        var first = Ticket(id: nil, code: "same")
        #expect(try recorder.sql { db in try first.insert(db) } == [
            #"INSERT OR REPLACE INTO "ticket" ("id", "code") VALUES (NULL,'same')"#,
        ])
        #expect(first.id == 1)
        #expect(log.committed.withLock { $0 } == ["insert ticket 1"])

        // The second insert replaces the first row: the record gets the new
        // rowid, and the deletion that REPLACE makes is not reported.
        var second = Ticket(id: nil, code: "same")
        try recorder.dbQueue.inDatabase { db in try second.insert(db) }
        #expect(second.id == 2)
        #expect(log.committed.withLock { $0 } == ["insert ticket 2"])
        #expect(try recorder.dbQueue.read { db in try Ticket.fetchCount(db) } == 1)

        // An update that takes the unique code of another row replaces it.
        var third = Ticket(id: 3, code: "other")
        try recorder.dbQueue.inDatabase { db in try third.insert(db) }
        third.code = "same"
        #expect(try recorder.sql { db in try third.update(db) } == [
            #"UPDATE OR REPLACE "ticket" SET "code"='same' WHERE "id"=3"#,
        ])
        #expect(log.committed.withLock { $0 } == ["update ticket 3"])
        #expect(try recorder.dbQueue.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM ticket") } == [3])
    }

    // MARK: Generated columns

    /// A record that encodes a value for a generated column.
    struct Measure: MutablePersistableRecord {
        static let databaseTableName = "measure"
        var id: Int64
        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["twice"] = id * 2
        }
    }

    @Test func generatedColumnsCannotBeWritten() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE measure (id INTEGER PRIMARY KEY, twice INTEGER GENERATED ALWAYS AS (id * 2))")
            do {
                var measure = Measure(id: 1)
                try measure.insert(db)
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_ERROR)
                #expect(error.message == #"cannot INSERT into generated column "twice""#)
                #expect(error.sql == #"INSERT INTO "measure" ("id", "twice") VALUES (?,?)"#)
            }
            try db.execute(sql: "INSERT INTO measure (id) VALUES (1)")
            do {
                try Measure(id: 1).update(db)
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_ERROR)
                #expect(error.message == #"cannot UPDATE generated column "twice""#)
                #expect(error.sql == #"UPDATE "measure" SET "twice"=? WHERE "id"=?"#)
            }
        }
    }

    // MARK: Dictionaries

    /// A record that encodes its columns with another case than the table.
    struct Shouting: MutablePersistableRecord {
        static let databaseTableName = "ticket"
        var id: Int64?
        var code: String
        func encode(to container: inout PersistenceContainer) {
            container["Id"] = id
            container["CODE"] = code
        }
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test func databaseDictionaryKeepsTheEncodedNames() throws {
        let record = Shouting(id: nil, code: "x")
        #expect(try record.databaseDictionary == ["Id": .null, "CODE": "x".databaseValue])
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        var inserted = record
        // Statements name the columns as the record encodes them, except
        // the key of the update, named as the table names it.
        #expect(try recorder.sql { db in try inserted.insert(db) } == [
            #"INSERT INTO "ticket" ("Id", "CODE") VALUES (NULL,'x')"#,
        ])
        #expect(inserted.id == 1)
        inserted.code = "y"
        #expect(try recorder.sql { db in try inserted.update(db) } == [
            #"UPDATE "ticket" SET "code"='y' WHERE "id"=1"#,
        ])
        #expect(try recorder.sql { db in _ = try inserted.delete(db) } == [
            #"DELETE FROM "ticket" WHERE "id"=1"#,
        ])
    }

    // MARK: A table of one row

    /// Settings kept in a table of one row, whose update inserts the
    /// default row first when the table is empty.
    struct Settings: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "settings"
        static let standard = Settings(theme: "light")
        private var id = 1
        var theme: String
        init(theme: String) { self.theme = theme }

        func willUpdate(_ db: Database, columns: Set<String>) throws {
            if try !exists(db) { try Settings.standard.insert(db) }
        }

        static func current(_ db: Database) throws -> Settings {
            try fetchOne(db) ?? .standard
        }
    }

    func settingsQueue(populated: Bool) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "settings") { t in
                t.primaryKey("id", .integer, onConflict: .replace).check { $0 == 1 }
                t.column("theme", .text).notNull()
            }
            if populated { try Settings(theme: "dark").insert(db) }
        }
        return dbQueue
    }

    @Test func aTableOfOneRow() throws {
        let operations: [(String, (Database) throws -> Void)] = [
            ("insert", { db in try Settings(theme: "blue").insert(db) }),
            ("update", { db in try Settings(theme: "blue").update(db) }),
            ("save", { db in try Settings(theme: "blue").save(db) }),
            ("upsert", { db in try Settings(theme: "blue").upsert(db) }),
            ("updateChanges", { db in
                var settings = try Settings.current(db)
                try settings.updateChanges(db) { $0.theme = "blue" }
            }),
        ]
        for populated in [false, true] {
            for (name, operation) in operations {
                let dbQueue = try settingsQueue(populated: populated)
                try dbQueue.write { db in
                    #expect(try Settings.current(db).theme == (populated ? "dark" : "light"))
                    try operation(db)
                    #expect(try Settings.current(db).theme == "blue", "\(name), populated: \(populated)")
                    #expect(try Row.fetchAll(db, sql: "SELECT * FROM settings") == [["id": 1, "theme": "blue"]],
                            "\(name), populated: \(populated)")
                }
            }
        }
    }
}
