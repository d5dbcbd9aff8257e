import Foundation
import Testing
import Cairn

/// Records persisted to views through INSTEAD OF triggers: SQLite counts no
/// change for the view itself, only those of its triggers.
@Suite struct ViewRecordPersistenceTests {
    struct Source: DatabaseSchemaSource {
        func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
            view.name == "captain" ? ["id"] : nil
        }
    }

    struct Captain: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: String
        var name: String
    }

    func makeQueue() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.schemaSource = Source()
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id TEXT PRIMARY KEY, name TEXT NOT NULL, isCaptain BOOLEAN NOT NULL);
                CREATE VIEW captain AS SELECT id, name FROM player WHERE isCaptain;
                CREATE TRIGGER captain_insert INSTEAD OF INSERT ON captain BEGIN
                    INSERT INTO player VALUES (NEW.id, NEW.name, 1);
                END;
                CREATE TRIGGER captain_update INSTEAD OF UPDATE ON captain BEGIN
                    UPDATE player SET name = NEW.name WHERE id = OLD.id;
                END;
                CREATE TRIGGER captain_delete INSTEAD OF DELETE ON captain BEGIN
                    DELETE FROM player WHERE id = OLD.id;
                END;
                """)
        }
        return dbQueue
    }

    @Test func updateAndDeleteThroughTriggers() throws {
        try makeQueue().write { db in
            var alice = Captain(id: "alice", name: "Alice")
            try alice.insert(db)

            let modified = try alice.updateChanges(db) { $0.name = "Alicia" }
            #expect(modified)
            #expect(try Captain.fetchOne(db, key: "alice") == Captain(id: "alice", name: "Alicia"))

            // A missing record is still noticed.
            #expect(throws: RecordError.self) {
                try Captain(id: "bob", name: "Bob").update(db)
            }

            #expect(try alice.delete(db))
            #expect(try !alice.delete(db))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
        }
    }
}
