import Foundation
import Testing
import Cairn

/// The errors of records, of decoding and of migrations, as GRDB 7.8
/// throws them, and the few places where Cairn throws where GRDB stops
/// the program.
@Suite struct GRDBRecordErrorCaseTests {
    struct Pet: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
        static let databaseTableName = "pet"
        var id: Int64
        var name: String
    }

    /// A record of a table whose primary key has two columns.
    struct Cell: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "cell"
        var x: Int
        var y: Int
        var label: String
    }

    /// A record of a table without explicit primary key.
    struct Note: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "note"
        var text: String
    }

    func makeQueue(publicArguments: Bool = false) throws -> DatabaseQueue {
        try makeErrorCaseQueue(publicArguments: publicArguments, schema: """
            CREATE TABLE pet (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE cell (x INTEGER, y INTEGER, label TEXT, PRIMARY KEY (x, y));
            CREATE TABLE note (text TEXT);
            """)
    }

    /// The description of the error that `body` throws.
    func thrownDescription(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return String(describing: error)
        }
    }

    /// The table and key of the RecordError.recordNotFound that `body` throws.
    func notFoundKey(_ body: () throws -> Void) -> (String, [String: DatabaseValue])? {
        do {
            try body()
        } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
            return (table, key)
        } catch {
            Issue.record("unexpected error: \(error)")
        }
        return nil
    }

    // MARK: Records

    @Test func recordsThatAreNotFound() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            let pet = Pet(id: 1, name: "Rex")
            var found = notFoundKey { try pet.update(db) }
            #expect(found?.0 == "pet")
            #expect(found?.1 == ["id": 1.databaseValue])
            #expect(thrownDescription { try pet.update(db) } == "Key not found in table pet: [id:1]")

            var changed = pet
            found = notFoundKey { _ = try changed.updateChanges(db) { $0.name = "Max" } }
            #expect(found?.1 == ["id": 1.databaseValue])
            // Without changes, nothing is updated and nothing is thrown.
            #expect(try changed.updateChanges(db) { _ in } == false)

            found = notFoundKey { _ = try Pet.find(db, key: 1) }
            #expect(found?.1 == ["id": 1.databaseValue])
            found = notFoundKey { _ = try Pet.find(db, id: 2) }
            #expect(found?.1 == ["id": 2.databaseValue])
            found = notFoundKey { _ = try Pet.find(db, key: ["name": "Max"]) }
            #expect(found?.1 == ["name": "Max".databaseValue])
            #expect(thrownDescription { _ = try Pet.find(db, key: ["name": "Max"]) }
                == #"Key not found in table pet: [name:"Max"]"#)
            // A table without explicit primary key is keyed by rowid.
            found = notFoundKey { _ = try Note.find(db, key: 3) }
            #expect(found?.0 == "note")
            #expect(found?.1 == ["rowid": 3.databaseValue])

            // Keys of several columns are printed as a row.
            #expect(thrownDescription { try Cell(x: 1, y: 2, label: "a").update(db) }
                == "Key not found in table cell: [x:1 y:2]")

            // Lookups that find nothing return nil or false, and do not throw.
            #expect(try Pet.fetchOne(db, key: 1) == nil)
            #expect(try Pet.fetchOne(db, id: 1) == nil)
            #expect(try pet.delete(db) == false)
            #expect(try pet.exists(db) == false)
            #expect(try Pet.deleteOne(db, key: 1) == false)
            #expect(try Pet.exists(db, key: ["name": "Rex"]) == false)
        }
    }

    @Test func insertingAConflictingRecord() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            try Pet(id: 1, name: "Rex").insert(db)
            do {
                try Pet(id: 1, name: "Max").insert(db)
                Issue.record("no error")
            } catch let error as DatabaseError {
                #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY)
                #expect(error.message == "UNIQUE constraint failed: pet.id")
                #expect(error.sql == #"INSERT INTO "pet" ("id", "name") VALUES (?,?)"#)
                #expect(error.arguments == [1, "Max"])
            }
            do {
                try Pet(id: 2, name: "Rex").insert(db)
                Issue.record("no error")
            } catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE {
                // Another unique index.
            }
            #expect(try Pet.fetchAll(db) == [Pet(id: 1, name: "Rex")])
        }
    }

    /// GRDB stops the program on these lookups: Cairn throws.
    @Test func keysThatAreNotUnique() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            for body in [
                { _ = try Cell.fetchOne(db, key: 1) },
                { _ = try Cell.find(db, key: 1) },
                { _ = try Cell.filter(key: ["label": "a"]).fetchAll(db) },
                { throw Cell.recordNotFound(db, key: 1) },
            ] as [() throws -> Void] {
                do {
                    try body()
                    Issue.record("no error")
                } catch RecordError.invalidKey(databaseTableName: "cell", message: _) {
                } catch {
                    Issue.record("unexpected error: \(error)")
                }
            }
        }
    }

    // MARK: Decoding

    @Test func decodingErrorsOfFetchedRows() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws in
            #expect(thrownDescription { _ = try Pet.fetchAll(db, sql: "SELECT 1 AS id") }
                == #"column not found: "name" - row: [id:1], sql: `SELECT 1 AS id`, arguments: []"#)
            #expect(thrownDescription { _ = try Pet.fetchOne(db, sql: "SELECT 1 AS id, NULL AS name") }
                == #"could not decode String from database value NULL - column: "name", column index: 1, row: [id:1 name:NULL], sql: `SELECT 1 AS id, NULL AS name`, arguments: []"#)
            #expect(thrownDescription { _ = try String.fetchAll(db, sql: "SELECT NULL") }
                == #"could not decode String from database value NULL - column: "NULL", column index: 0, row: [NULL:NULL], sql: `SELECT NULL`, arguments: []"#)
            #expect(thrownDescription { _ = try UInt8.fetchCursor(db, sql: "SELECT 256 AS v").next() }
                == #"could not decode UInt8 from database value 256 - column: "v", column index: 0, row: [v:256], sql: `SELECT 256 AS v`, arguments: []"#)
            let cursor = try Row.fetchCursor(db, sql: "SELECT 1 AS id")
            let cursorRow = try #require(try cursor.next())
            #expect(thrownDescription { _ = try cursorRow.decode(String.self, forColumn: "name") }
                == #"column not found: "name" - row: [id:1], sql: `SELECT 1 AS id`, arguments: []"#)
            // The type of the error.
            #expect(throws: RowDecodingError.self) { try Pet.fetchAll(db, sql: "SELECT 1 AS id") }
            #expect(throws: RowDecodingError.self) { try String.fetchAll(db, sql: "SELECT NULL") }

            // A copied row has no statement.
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS id, NULL AS name"))
            #expect(thrownDescription { _ = try row.decode(String.self, forColumn: "missing") }
                == #"column not found: "missing" - row: [id:1 name:NULL]"#)
            #expect(thrownDescription { _ = try row.decode(String.self, forColumn: "NAME") }
                == #"could not decode String from database value NULL - column: "name", column index: 1, row: [id:1 name:NULL]"#)

            // NULL fits optionals, and fetchOne of NULL is nil.
            #expect(try row.decode(String?.self, forColumn: "name") == nil)
            #expect(try String.fetchOne(db, sql: "SELECT NULL") == nil)
            #expect(try Int?.fetchAll(db, sql: "SELECT NULL") == [nil])
        }
    }

    @Test func decodingErrorsShowPublicArgumentsOnly() throws {
        let sql = "SELECT ? AS name"
        let hidden = try makeQueue().read { db throws in
            thrownDescription { _ = try String.fetchAll(db, sql: sql, arguments: [nil as String?]) }
        }
        // Cairn leaves private arguments out, as DatabaseError does (GRDB shows them).
        #expect(hidden == #"could not decode String from database value NULL - column: "name", column index: 0, row: [name:NULL], sql: `SELECT ? AS name`"#)
        let shown = try makeQueue(publicArguments: true).read { db throws in
            thrownDescription { _ = try String.fetchAll(db, sql: sql, arguments: [nil as String?]) }
        }
        #expect(shown == #"could not decode String from database value NULL - column: "name", column index: 0, row: [name:NULL], sql: `SELECT ? AS name`, arguments: [NULL]"#)
    }

    @Test func failedValueConversions() {
        #expect(String.fromDatabaseValue(.null) == nil)
        #expect(Int.fromDatabaseValue("1".databaseValue) == nil)
        #expect(String.fromDatabaseValue(1.databaseValue) == nil)
        #expect(Bool.fromDatabaseValue("true".databaseValue) == nil)
        #expect(Int.fromDatabaseValue(1.0.databaseValue) == 1)
    }

    // MARK: Migrations

    func makeMigrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db throws in
            try db.execute(sql: """
                CREATE TABLE parent (id INTEGER PRIMARY KEY);
                CREATE TABLE child (parentId INTEGER REFERENCES parent(id));
                """)
        }
        migrator.registerMigration("v2") { db throws in
            try db.execute(sql: "INSERT INTO child (parentId) VALUES (2)")
        }
        return migrator
    }

    @Test func foreignKeyViolationsOfMigrations() throws {
        for publicArguments in [false, true] {
            let dbQueue = try makeErrorCaseQueue(publicArguments: publicArguments, schema: "")
            do {
                try makeMigrator().migrate(dbQueue)
                Issue.record("no error")
            } catch let error as DatabaseError {
                #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
                #expect(error.sql == nil)
                // The values of the row are private unless arguments are public
                // (GRDB always shows them).
                let row = publicArguments ? "[parentId:2]" : "rowid 1"
                #expect(error.message == "FOREIGN KEY constraint violation - from child(parentId) to parent(id), in \(row)")
                #expect(error.description == "SQLite error 19: \(error.message!)")
            }
            #expect(try dbQueue.read(makeMigrator().appliedMigrations) == ["v1"])
        }
    }

    /// GRDB stops the program on these misuses: Cairn throws.
    @Test func migrationTargets() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("a") { db in try db.execute(sql: "CREATE TABLE a (id)") }
        migrator.registerMigration("b") { db in try db.execute(sql: "CREATE TABLE b (id)") }

        var error = try #require(thrownError { try migrator.migrate(dbQueue, upTo: "z") })
        #expect(error.extendedResultCode == .SQLITE_MISUSE)
        #expect(error.message == #"undefined migration: "z""#)
        #expect(try dbQueue.read(migrator.appliedMigrations) == [])

        try migrator.migrate(dbQueue)
        error = try #require(thrownError { try migrator.migrate(dbQueue, upTo: "a") })
        #expect(error.extendedResultCode == .SQLITE_MISUSE)
        #expect(error.message == #"database is already migrated beyond migration "a""#)
        // Migrating up to the last applied migration does nothing.
        try migrator.migrate(dbQueue, upTo: "b")
        #expect(try dbQueue.read(migrator.appliedMigrations) == ["a", "b"])
    }

    func thrownError(_ body: () throws -> Void) -> DatabaseError? {
        do { try body() } catch { return error as? DatabaseError }
        return nil
    }
}
