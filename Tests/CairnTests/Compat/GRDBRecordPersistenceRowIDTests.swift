import Foundation
import Testing
import Cairn

/// Records keyed by the hidden rowid of their table, and deletions of whole
/// tables, as in GRDB 7.8: the SQL of each method, the keys of the errors,
/// and the deletions that observers see although SQLite truncates tables.
@Suite struct GRDBRecordPersistenceRowIDTests {
    /// A note whose table has no explicit primary key: the note selects and
    /// encodes the rowid.
    struct Note: FetchableRecord, MutablePersistableRecord, Hashable {
        static let databaseTableName = "note"
        static var databaseSelection: [any SQLSelectable] { [AllColumns(), Column.rowID] }
        var id: Int64?
        var text: String

        init(id: Int64? = nil, text: String) {
            self.id = id
            self.text = text
        }

        init(row: Row) throws {
            id = row[Column.rowID]
            text = row["text"]
        }

        func encode(to container: inout PersistenceContainer) {
            container[Column.rowID] = id
            container["text"] = text
        }

        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    static let schema = "CREATE TABLE note (text TEXT NOT NULL);"

    /// The key of the RecordError.recordNotFound that `body` throws.
    func notFoundKey(_ body: () throws -> Void) -> [String: DatabaseValue]? {
        do {
            try body()
            Issue.record("expected RecordError.recordNotFound")
        } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
            #expect(table == "note")
            return key
        } catch {
            Issue.record("unexpected error: \(error)")
        }
        return nil
    }

    @Test func statementsOfRowIDRecords() throws {
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        var note = Note(text: "a")
        #expect(try recorder.sql { db in try note.insert(db) } == [
            #"INSERT INTO "note" ("rowid", "text") VALUES (NULL,'a')"#,
        ])
        #expect(note.id == 1)
        note.text = "b"
        #expect(try recorder.sql { db in try note.update(db) } == [
            #"UPDATE "note" SET "text"='b' WHERE "rowid"=1"#,
        ])
        #expect(try recorder.sql { db in try note.save(db) } == [
            #"UPDATE "note" SET "text"='b' WHERE "rowid"=1"#,
        ])
        #expect(try recorder.sql { db in _ = try Note.fetchOne(db, key: ["rowid": 1]) } == [
            #"SELECT *, "rowid" FROM "note" WHERE "rowid" = 1"#,
        ])
        #expect(try recorder.sql { db in _ = try Note.fetchOne(db, key: 1) } == [
            #"SELECT *, "rowid" FROM "note" WHERE "rowid" = 1"#,
        ])
        #expect(try recorder.sql { db in _ = try note.exists(db) } == [
            #"SELECT EXISTS (SELECT 1 FROM "note" WHERE "rowid"=1)"#,
        ])
        #expect(try recorder.sql { db in _ = try note.delete(db) } == [
            #"DELETE FROM "note" WHERE "rowid"=1"#,
        ])
        // Save after delete inserts the row again, with its rowid.
        #expect(try recorder.sql { db in try note.save(db) } == [
            #"UPDATE "note" SET "text"='b' WHERE "rowid"=1"#,
            #"INSERT INTO "note" ("rowid", "text") VALUES (1,'b')"#,
        ])
        try recorder.dbQueue.inDatabase { db throws in
            #expect(try Row.fetchOne(db, sql: "SELECT rowid, * FROM note") == ["rowid": 1, "text": "b"])
            #expect(try Note.fetchOne(db, key: 1) == note)
        }
    }

    @Test func rowIDRecordsThatAreNotFound() throws {
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        try recorder.dbQueue.inDatabase { db throws in
            #expect(notFoundKey { try Note(text: "x").update(db) } == ["rowid": .null])
            #expect(notFoundKey { try Note(id: 42, text: "x").update(db) } == ["rowid": 42.databaseValue])
            #expect(try Note(text: "x").delete(db) == false)
            #expect(try Note(id: 42, text: "x").delete(db) == false)
            #expect(try Note(text: "x").exists(db) == false)
            // A rowid that is taken: the insert fails.
            var first = Note(text: "x")
            try first.insert(db)
            var copy = first
            #expect(throws: DatabaseError.self) { try copy.insert(db) }
        }
    }

    @Test func fetchingRowIDRecordsByKeys() throws {
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        var first = Note(text: "one")
        var second = Note(text: "two")
        try recorder.dbQueue.inDatabase { db in
            try first.insert(db)
            try second.insert(db)
        }
        try recorder.dbQueue.read { db throws in
            #expect(try Note.fetchAll(db, keys: [[String: (any DatabaseValueConvertible)?]]()).isEmpty)
            #expect(try Set(Note.fetchAll(db, keys: [["rowid": first.id], ["rowid": second.id]])) == [first, second])
            #expect(try Note.fetchAll(db, keys: [["rowid": first.id], ["rowid": nil]]) == [first])
            #expect(try Note.fetchSet(db, keys: [["rowid": second.id], ["rowid": nil]]) == [second])
            let cursor = try Note.fetchCursor(db, keys: [["rowid": second.id]])
            #expect(try cursor.next() == second)
            #expect(try cursor.next() == nil)
            #expect(try cursor.next() == nil)
        }
        #expect(try recorder.sql { db in _ = try Note.fetchAll(db, keys: [["rowid": 1], ["rowid": 2]]) } == [
            #"SELECT *, "rowid" FROM "note" WHERE ("rowid" = 1) OR ("rowid" = 2)"#,
        ])
    }

    // MARK: Deletions of whole tables

    /// An observer that counts the deletions of each committed transaction.
    final class DeletionCounter: TransactionObserver, @unchecked Sendable {
        private let pending = Locked<[String: Int]>([:])
        let committed = Locked<[[String: Int]]>([])
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {
            if event.kind == .delete {
                pending.withLock { $0[event.tableName, default: 0] += 1 }
            }
        }
        func databaseDidCommit(_ db: Database) {
            let counts = pending.withLock { counts in
                defer { counts = [:] }
                return counts
            }
            if !counts.isEmpty { committed.withLock { $0.append(counts) } }
        }
        func databaseDidRollback(_ db: Database) { pending.withLock { $0 = [:] } }
    }

    @Test func observersSeeEachDeletedRowOfADeleteWithoutWhere() throws {
        let dbQueue = try DatabaseQueue()
        let counter = DeletionCounter()
        dbQueue.add(transactionObserver: counter, extent: .databaseLifetime)
        try dbQueue.writeWithoutTransaction { db throws in
            try db.execute(sql: Self.schema)
            try db.execute(sql: "INSERT INTO note VALUES ('a'); INSERT INTO note VALUES ('b')")
            try db.execute(sql: "DELETE FROM note")
            #expect(counter.committed.withLock { $0 } == [["note": 2]])

            // A prepared statement, run twice.
            let statement = try db.makeStatement(sql: "DELETE FROM note")
            try db.execute(sql: "INSERT INTO note VALUES ('c')")
            try statement.execute()
            try db.execute(sql: "INSERT INTO note VALUES ('d'); INSERT INTO note VALUES ('e'); INSERT INTO note VALUES ('f')")
            try statement.execute()
            #expect(counter.committed.withLock { $0 } == [["note": 2], ["note": 1], ["note": 3]])

            // The batch delete of records.
            try db.execute(sql: "INSERT INTO note VALUES ('g'); INSERT INTO note VALUES ('h')")
            #expect(try Note.deleteAll(db) == 2)
            #expect(counter.committed.withLock { $0.last } == ["note": 2])
        }
    }

    @Test func dropsOfEachKindOfObject() throws {
        let cases: [(schema: String, drop: String, exists: (Database) throws -> Bool)] = [
            ("CREATE TABLE t(a); INSERT INTO t VALUES (1)", "DROP TABLE t", { try $0.tableExists("t") }),
            ("CREATE TEMPORARY TABLE t(a); INSERT INTO t VALUES (1)", "DROP TABLE t", { try $0.tableExists("t") }),
            ("CREATE VIRTUAL TABLE t USING fts4(a); INSERT INTO t VALUES ('x')", "DROP TABLE t", { try $0.tableExists("t") }),
            ("CREATE TABLE t(a); CREATE VIEW v AS SELECT * FROM t", "DROP VIEW v", { try $0.viewExists("v") }),
            ("CREATE TABLE t(a); CREATE TEMPORARY VIEW v AS SELECT * FROM t", "DROP VIEW v", { try $0.viewExists("v") }),
            ("CREATE TABLE t(a); CREATE INDEX i ON t(a)", "DROP INDEX i", { try !$0.indexes(on: "t").isEmpty }),
            ("CREATE TEMPORARY TABLE t(a); CREATE INDEX i ON t(a)", "DROP INDEX i", { try !$0.indexes(on: "t").isEmpty }),
            ("CREATE TABLE t(a); CREATE TRIGGER r INSERT ON t BEGIN DELETE FROM t; END", "DROP TRIGGER r", { try $0.triggerExists("r") }),
            ("CREATE TABLE t(a); CREATE TEMPORARY TRIGGER r INSERT ON t BEGIN DELETE FROM t; END", "DROP TRIGGER r", { try $0.triggerExists("r") }),
        ]
        for observed in [false, true] {
            for prepared in [false, true] {
                for (schema, drop, exists) in cases {
                    let dbQueue = try DatabaseQueue()
                    if observed {
                        dbQueue.add(transactionObserver: DeletionCounter(), extent: .databaseLifetime)
                    }
                    try dbQueue.writeWithoutTransaction { db throws in
                        try db.execute(sql: schema)
                        #expect(try exists(db), "\(schema)")
                        if prepared {
                            let statement = try db.makeStatement(sql: drop)
                            try statement.execute()
                        } else {
                            try db.execute(sql: drop)
                        }
                        #expect(try !exists(db), "\(drop) after \(schema), observed: \(observed), prepared: \(prepared)")
                    }
                }
            }
        }
    }
}
