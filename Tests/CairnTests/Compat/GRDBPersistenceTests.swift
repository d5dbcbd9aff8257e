import Foundation
import Testing
import Cairn

/// The persistence methods of records (insert, update, save, delete,
/// exists, and their variants that fetch), as GRDB 7.8 runs them: the SQL
/// they execute, the callbacks they call and in which order, with which
/// arguments, what they return and what they throw.
@Suite struct GRDBPersistenceTests {
    /// What the callbacks and the statements of a test did, in order.
    typealias EventLog = Locked<[String]>

    /// A book whose encoded columns are not in the order of its table, and
    /// that logs its callbacks.
    struct Book: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "book"
        var id: Int64?
        var title: String
        var pages: Int
        var log: EventLog

        init(id: Int64? = nil, title: String, pages: Int, log: EventLog) {
            self.id = id
            self.title = title
            self.pages = pages
            self.log = log
        }

        init(row: Row) throws {
            id = row["id"]
            title = row["title"]
            pages = row["pages"]
            log = EventLog([])
        }

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["title"] = title
            container["pages"] = pages
        }

        func note(_ event: String) { log.withLock { $0.append(event) } }

        mutating func willInsert(_ db: Database) throws { note("willInsert") }
        func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
            note("aroundInsert >")
            let inserted = try insert()
            note("aroundInsert < \(inserted.rowID)")
        }
        mutating func didInsert(_ inserted: InsertionSuccess) {
            note("didInsert \(inserted.rowID) \(inserted.rowIDColumn ?? "-")")
            id = inserted.rowID
        }
        func willUpdate(_ db: Database, columns: Set<String>) throws {
            note("willUpdate " + columns.sorted().joined(separator: ","))
        }
        func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
            note("aroundUpdate > " + columns.sorted().joined(separator: ","))
            _ = try update()
            note("aroundUpdate <")
        }
        func didUpdate(_ updated: PersistenceSuccess) { note("didUpdate") }
        func willSave(_ db: Database) throws { note("willSave") }
        func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
            note("aroundSave >")
            _ = try save()
            note("aroundSave <")
        }
        func didSave(_ saved: PersistenceSuccess) { note("didSave") }
        func willDelete(_ db: Database) throws { note("willDelete") }
        func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
            note("aroundDelete >")
            let deleted = try delete()
            note("aroundDelete < \(deleted)")
        }
        func didDelete(deleted: Bool) { note("didDelete \(deleted)") }
    }

    /// A seat, whose primary key has two columns.
    struct Seat: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "seat"
        var hall: String?
        var num: Int?
        var holder: String
    }

    /// A memo, in a table without explicit primary key.
    struct Memo: Codable, PersistableRecord {
        static let databaseTableName = "memo"
        var body: String
    }

    /// A memo that keeps its rowid.
    struct KeyedMemo: Codable, MutablePersistableRecord {
        static let databaseTableName = "memo"
        var rowID: Int64?
        var body: String
        mutating func didInsert(_ inserted: InsertionSuccess) { rowID = inserted.rowID }
    }

    static let schema = """
        CREATE TABLE book (id INTEGER PRIMARY KEY, pages INTEGER NOT NULL DEFAULT 100, title TEXT NOT NULL, shelf TEXT);
        CREATE TABLE seat (hall TEXT, num INTEGER, holder TEXT, PRIMARY KEY (hall, num));
        CREATE TABLE memo (body TEXT);
        """

    /// A queue whose statements are logged into `log` (without the schema
    /// queries), after the schema is created.
    func makeQueue(log: EventLog) throws -> DatabaseQueue {
        var config = Configuration()
        config.prepareDatabase { db throws in
            db.trace { event in
                let sql = event.expandedDescription
                if sql.hasPrefix("PRAGMA") || sql.contains("sqlite_master") || sql.contains("sqlite_temp_master") { return }
                log.withLock { $0.append("SQL " + sql) }
            }
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in try db.execute(sql: Self.schema) }
        log.withLock { $0.removeAll() }
        return dbQueue
    }

    /// The events that `body` logged.
    func events(_ log: EventLog, _ body: () throws -> Void) rethrows -> [String] {
        log.withLock { $0.removeAll() }
        try body()
        return log.withLock { $0 }
    }

    /// The key of the RecordError.recordNotFound that `body` throws.
    func notFound(_ body: () throws -> Void) -> (table: String, key: [String: DatabaseValue], description: String)? {
        do {
            try body()
            Issue.record("expected RecordError.recordNotFound")
        } catch let error as RecordError {
            if case let .recordNotFound(databaseTableName: table, key: key) = error {
                return (table, key, error.description)
            }
            Issue.record("unexpected error: \(error)")
        } catch {
            Issue.record("unexpected error: \(error)")
        }
        return nil
    }

    // MARK: Callbacks and SQL

    @Test func insertCallsTheSaveAndInsertCallbacksAroundTheStatement() throws {
        let log = EventLog([])
        let dbQueue = try makeQueue(log: log)
        var book = Book(title: "Dune", pages: 412, log: log)
        let events = try events(log) { try dbQueue.inDatabase { db in try book.insert(db) } }
        #expect(events == [
            "willSave", "aroundSave >", "willInsert", "aroundInsert >",
            #"SQL INSERT INTO "book" ("id", "title", "pages") VALUES (NULL,'Dune',412)"#,
            "aroundInsert < 1", "didInsert 1 id", "aroundSave <", "didSave",
        ])
        #expect(book.id == 1)
    }

    @Test func updateWritesTheColumnsInTheOrderOfTheTable() throws {
        let log = EventLog([])
        let dbQueue = try makeQueue(log: log)
        var book = Book(title: "Dune", pages: 412, log: log)
        try dbQueue.inDatabase { db in try book.insert(db) }
        book.pages = 500
        // The update callbacks get all the columns of the table, those that
        // the record does not encode included.
        let events = try events(log) { try dbQueue.inDatabase { db in try book.update(db) } }
        #expect(events == [
            "willSave", "aroundSave >", "willUpdate id,pages,shelf,title", "aroundUpdate > id,pages,shelf,title",
            #"SQL UPDATE "book" SET "pages"=500, "title"='Dune' WHERE "id"=1"#,
            "aroundUpdate <", "didUpdate", "aroundSave <", "didSave",
        ])
    }

    @Test func updateOfSomeColumns() throws {
        let log = EventLog([])
        let dbQueue = try makeQueue(log: log)
        var book = Book(title: "Dune", pages: 412, log: log)
        try dbQueue.inDatabase { db in try book.insert(db) }
        book.title = "Emma"
        book.pages = 300

        // The columns are given to the callbacks as they are written, and
        // matched with the table without regard to case.
        var events = try events(log) { try dbQueue.inDatabase { db in try book.update(db, columns: ["TITLE"]) } }
        #expect(events.filter { $0.hasPrefix("willUpdate") || $0.hasPrefix("SQL") } == [
            "willUpdate TITLE", #"SQL UPDATE "book" SET "title"='Emma' WHERE "id"=1"#,
        ])
        events = try self.events(log) { try dbQueue.inDatabase { db in try book.update(db, columns: [Column("pages"), Column("title")]) } }
        #expect(events.filter { $0.hasPrefix("SQL") } == [#"SQL UPDATE "book" SET "pages"=300, "title"='Emma' WHERE "id"=1"#])

        // Without an updatable column, the key sets itself, so that a
        // missing row is still noticed.
        for columns: [String] in [[], ["shelf"], ["id"], ["nothing"]] {
            events = try self.events(log) { try dbQueue.inDatabase { db in try book.update(db, columns: columns) } }
            #expect(events.filter { $0.hasPrefix("SQL") } == [#"SQL UPDATE "book" SET "id"=1 WHERE "id"=1"#])
        }
        let row = try dbQueue.read { db in try Row.fetchOne(db, sql: "SELECT id, pages, title FROM book") }
        #expect(row == ["id": 1, "pages": 300, "title": "Emma"])
    }

    @Test func updateIgnoresEncodedColumnsThatTheTableDoesNotHave() throws {
        /// A book that encodes a column that its table does not have.
        struct Annotated: MutablePersistableRecord {
            static var databaseTableName: String { "book" }
            var id: Int64
            func encode(to container: inout PersistenceContainer) {
                container["blurb"] = "gripping"
                container["title"] = "Ivanhoe"
                container["id"] = id
            }
        }
        let recorder = try GRDBSQLRecorder(schema: Self.schema + "INSERT INTO book (id, title) VALUES (4, 'Old');")
        let book = Annotated(id: 4)
        #expect(try recorder.sql { db in try book.update(db) } == [#"UPDATE "book" SET "title"='Ivanhoe' WHERE "id"=4"#])
        #expect(try recorder.sql { db in try book.update(db, columns: ["blurb"]) } == [#"UPDATE "book" SET "id"=4 WHERE "id"=4"#])
    }

    @Test func updateOfAMissingRowThrowsRecordNotFound() throws {
        let log = EventLog([])
        let dbQueue = try makeQueue(log: log)
        let book = Book(id: 7, title: "Dune", pages: 412, log: log)
        var events: [String] = []
        let error = notFound {
            events = try self.events(log) { try dbQueue.inDatabase { db in try book.update(db) } }
        }
        events = log.withLock { $0 }
        #expect(error?.table == "book")
        #expect(error?.key == ["id": 7.databaseValue])
        #expect(error?.description == "Key not found in table book: [id:7]")
        #expect(events == [
            "willSave", "aroundSave >", "willUpdate id,pages,shelf,title", "aroundUpdate > id,pages,shelf,title",
            #"SQL UPDATE "book" SET "pages"=412, "title"='Dune' WHERE "id"=7"#,
        ])
    }

    @Test func recordsWithoutPrimaryKeyValueRunNoStatement() throws {
        let log = EventLog([])
        let dbQueue = try makeQueue(log: log)
        let book = Book(title: "Dune", pages: 412, log: log)

        // Update: not found, without any statement.
        log.withLock { $0.removeAll() }
        let error = notFound { try dbQueue.inDatabase { db in try book.update(db) } }
        #expect(error?.key == ["id": .null])
        #expect(error?.description == "Key not found in table book: [id:NULL]")
        #expect(log.withLock { $0 } == [
            "willSave", "aroundSave >", "willUpdate id,pages,shelf,title", "aroundUpdate > id,pages,shelf,title",
        ])

        // Delete: nothing deleted, without any statement.
        var deleted = true
        var events = try events(log) { deleted = try dbQueue.inDatabase { db in try book.delete(db) } }
        #expect(deleted == false)
        #expect(events == ["willDelete", "aroundDelete >", "aroundDelete < false", "didDelete false"])

        // Exists: false, without any statement.
        var exists = true
        events = try self.events(log) { exists = try dbQueue.inDatabase { db in try book.exists(db) } }
        #expect(exists == false)
        #expect(events == [])

        // The hidden rowid of a record that does not encode it.
        let memo = Memo(body: "hello")
        try dbQueue.inDatabase { db in try memo.insert(db) }
        log.withLock { $0.removeAll() }
        let memoError = notFound { try dbQueue.inDatabase { db in try memo.update(db) } }
        #expect(memoError?.table == "memo")
        #expect(memoError?.key == ["rowid": .null])
        #expect(memoError?.description == "Key not found in table memo: [rowid:NULL]")
        #expect(try dbQueue.inDatabase { db in try memo.delete(db) } == false)
        #expect(try dbQueue.inDatabase { db in try memo.exists(db) } == false)
        #expect(log.withLock { $0 } == [])
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM memo") } == 1)
    }

    @Test func saveUpdatesAndInsertsWhenTheRowIsMissing() throws {
        let log = EventLog([])
        let dbQueue = try makeQueue(log: log)
        var book = Book(title: "Dune", pages: 412, log: log)

        // No id: an insert only.
        var events = try events(log) { try dbQueue.inDatabase { db in try book.save(db) } }
        #expect(events == [
            "willSave", "aroundSave >", "willInsert", "aroundInsert >",
            #"SQL INSERT INTO "book" ("id", "title", "pages") VALUES (NULL,'Dune',412)"#,
            "aroundInsert < 1", "didInsert 1 id", "aroundSave <", "didSave",
        ])

        // An id, and a row: an update.
        book.pages = 10
        events = try self.events(log) { try dbQueue.inDatabase { db in try book.save(db) } }
        #expect(events == [
            "willSave", "aroundSave >", "willUpdate id,pages,shelf,title", "aroundUpdate > id,pages,shelf,title",
            #"SQL UPDATE "book" SET "pages"=10, "title"='Dune' WHERE "id"=1"#,
            "aroundUpdate <", "didUpdate", "aroundSave <", "didSave",
        ])

        // An id, and no row: a failed update, then an insert, inside the
        // same save callbacks.
        try dbQueue.inDatabase { db in _ = try book.delete(db) }
        events = try self.events(log) { try dbQueue.inDatabase { db in try book.save(db) } }
        #expect(events == [
            "willSave", "aroundSave >", "willUpdate id,pages,shelf,title", "aroundUpdate > id,pages,shelf,title",
            #"SQL UPDATE "book" SET "pages"=10, "title"='Dune' WHERE "id"=1"#,
            "willInsert", "aroundInsert >",
            #"SQL INSERT INTO "book" ("id", "title", "pages") VALUES (1,'Dune',10)"#,
            "aroundInsert < 1", "didInsert 1 id", "aroundSave <", "didSave",
        ])
    }

    @Test func saveTriesAnUpdateWhenOneColumnOfTheKeyIsNotNull() throws {
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        // One column of the key is NULL: the update finds no row, and the
        // record is inserted.
        let seat = Seat(hall: "A", num: nil, holder: "Kim")
        #expect(try recorder.sql { db in try seat.save(db) } == [
            #"UPDATE "seat" SET "holder"='Kim' WHERE "hall"='A' AND "num"=NULL"#,
            #"INSERT INTO "seat" ("hall", "num", "holder") VALUES ('A',NULL,'Kim')"#,
        ])
        // The whole key is NULL: an insert only.
        let nobody = Seat(hall: nil, num: nil, holder: "Lou")
        #expect(try recorder.sql { db in try nobody.save(db) } == [
            #"INSERT INTO "seat" ("hall", "num", "holder") VALUES (NULL,NULL,'Lou')"#,
        ])
    }

    @Test func saveInsertsOnlyWhenItsOwnUpdateFindsNoRow() throws {
        /// A seat whose update callback refuses the update with the error
        /// of another table.
        struct Guarded: Codable, PersistableRecord {
            static var databaseTableName: String { "seat" }
            var hall: String
            var num: Int
            var holder: String
            func willUpdate(_ db: Database, columns: Set<String>) throws {
                throw RecordError.recordNotFound(databaseTableName: "hall", key: ["name": hall.databaseValue])
            }
        }
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        let seat = Guarded(hall: "C", num: 2, holder: "Max")
        var statements: [String] = []
        let error = notFound { statements = try recorder.sql { db in try seat.save(db) } }
        #expect(error?.table == "hall")
        #expect(error?.key == ["name": "C".databaseValue])
        #expect(statements == [])
        #expect(try recorder.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM seat") } == 0)
    }

    @Test func deleteReportsWhetherARowWasDeleted() throws {
        let log = EventLog([])
        let dbQueue = try makeQueue(log: log)
        var book = Book(title: "Dune", pages: 412, log: log)
        try dbQueue.inDatabase { db in try book.insert(db) }
        var deleted = false
        var events = try events(log) { deleted = try dbQueue.inDatabase { db in try book.delete(db) } }
        #expect(deleted)
        #expect(events == [
            "willDelete", "aroundDelete >", #"SQL DELETE FROM "book" WHERE "id"=1"#,
            "aroundDelete < true", "didDelete true",
        ])
        events = try self.events(log) { deleted = try dbQueue.inDatabase { db in try book.delete(db) } }
        #expect(deleted == false)
        #expect(events == [
            "willDelete", "aroundDelete >", #"SQL DELETE FROM "book" WHERE "id"=1"#,
            "aroundDelete < false", "didDelete false",
        ])
    }

    @Test func existsRunsASelectExists() throws {
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        let seat = Seat(hall: "A", num: 3, holder: "Kim")
        var exists = true
        #expect(try recorder.sql { db in exists = try seat.exists(db) } == [
            #"SELECT EXISTS (SELECT 1 FROM "seat" WHERE "hall"='A' AND "num"=3)"#,
        ])
        #expect(exists == false)
        try recorder.dbQueue.inDatabase { db in try seat.insert(db) }
        #expect(try recorder.dbQueue.inDatabase { db in try seat.exists(db) })
        #expect(try recorder.sql { db in _ = try seat.delete(db) } == [
            #"DELETE FROM "seat" WHERE "hall"='A' AND "num"=3"#,
        ])
        #expect(try recorder.dbQueue.inDatabase { db in try seat.exists(db) } == false)
    }

    @Test func updateChangesUpdatesTheChangedColumnsOnly() throws {
        let log = EventLog([])
        let dbQueue = try makeQueue(log: log)
        var book = Book(title: "Dune", pages: 412, log: log)
        try dbQueue.inDatabase { db in try book.insert(db) }

        // No change: no callback, no statement.
        var changed = true
        var events = try events(log) {
            changed = try dbQueue.inDatabase { db in try book.updateChanges(db) { $0.pages = 412 } }
        }
        #expect(changed == false)
        #expect(events == [])

        events = try self.events(log) {
            changed = try dbQueue.inDatabase { db in try book.updateChanges(db) { $0.pages = 413 } }
        }
        #expect(changed)
        #expect(events == [
            "willSave", "aroundSave >", "willUpdate pages", "aroundUpdate > pages",
            #"SQL UPDATE "book" SET "pages"=413 WHERE "id"=1"#,
            "aroundUpdate <", "didUpdate", "aroundSave <", "didSave",
        ])

        let old = book
        book.title = "Emma"
        book.pages = 1
        events = try self.events(log) {
            changed = try dbQueue.inDatabase { db in try book.updateChanges(db, from: old) }
        }
        #expect(changed)
        #expect(events.filter { $0.hasPrefix("SQL") } == [#"SQL UPDATE "book" SET "pages"=1, "title"='Emma' WHERE "id"=1"#])
    }

    @Test func insertionSuccessNamesTheRowIDColumn() throws {
        /// A record that encodes its key with another case than the table.
        struct Shouting: MutablePersistableRecord {
            static var databaseTableName: String { "book" }
            var id: Int64?
            func encode(to container: inout PersistenceContainer) {
                container["ID"] = id
                container["TITLE"] = "Loud"
            }
            func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
                let inserted = try insert()
                #expect(inserted.rowIDColumn == "id")
                #expect(inserted.persistenceContainer["id"]?.databaseValue == inserted.rowID.databaseValue)
                #expect(inserted.persistenceContainer["ID"]?.databaseValue == inserted.rowID.databaseValue)
            }
            mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: Self.schema)
            var record = Shouting(id: nil)
            try record.insert(db)
            #expect(record.id == 1)

            // A table without rowid alias: no rowid column.
            var memo = KeyedMemo(rowID: nil, body: "a")
            try memo.insert(db)
            #expect(memo.rowID == 1)
            /// A record of the memo table, that reports its insertion.
            struct Probe: PersistableRecord {
                static var databaseTableName: String { "memo" }
                let report: Locked<[String]>
                func encode(to container: inout PersistenceContainer) { container["body"] = "b" }
                func didInsert(_ inserted: InsertionSuccess) {
                    report.withLock {
                        $0 = [inserted.rowIDColumn ?? "nil", "\(inserted.rowID)"] + inserted.persistenceContainer.columns
                    }
                }
            }
            let report = Locked<[String]>([])
            try Probe(report: report).insert(db)
            #expect(report.withLock { $0 } == ["nil", "2", "body"])
        }
    }

    @Test func hiddenRowIDRecordsUpdateAndDeleteByRowID() throws {
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        var first = KeyedMemo(rowID: nil, body: "one")
        var second = KeyedMemo(rowID: nil, body: "two")
        try recorder.dbQueue.inDatabase { db in
            try first.insert(db)
            try second.insert(db)
        }
        first.body = "uno"
        #expect(try recorder.sql { db in try first.update(db) } == [#"UPDATE "memo" SET "body"='uno' WHERE "rowid"=1"#])
        #expect(try recorder.sql { db in _ = try second.delete(db) } == [#"DELETE FROM "memo" WHERE "rowid"=2"#])
        #expect(try recorder.dbQueue.read { db in try String.fetchAll(db, sql: "SELECT body FROM memo") } == ["uno"])
    }

    // MARK: Conflict policy

    @Test func theConflictPolicyOfTheRecordTypeWritesTheOrClause() throws {
        struct Lenient: Codable, PersistableRecord {
            static var databaseTableName: String { "seat" }
            static var persistenceConflictPolicy: PersistenceConflictPolicy {
                PersistenceConflictPolicy(insert: .replace, update: .ignore)
            }
            var hall: String
            var num: Int
            var holder: String
        }
        let recorder = try GRDBSQLRecorder(schema: Self.schema)
        let seat = Lenient(hall: "B", num: 1, holder: "Ann")
        #expect(try recorder.sql { db in try seat.insert(db) } == [
            #"INSERT OR REPLACE INTO "seat" ("hall", "num", "holder") VALUES ('B',1,'Ann')"#,
        ])
        #expect(try recorder.sql { db in try seat.insert(db, onConflict: .ignore) } == [
            #"INSERT OR IGNORE INTO "seat" ("hall", "num", "holder") VALUES ('B',1,'Ann')"#,
        ])
        #expect(try recorder.sql { db in try seat.update(db) } == [
            #"UPDATE OR IGNORE "seat" SET "holder"='Ann' WHERE "hall"='B' AND "num"=1"#,
        ])
        #expect(try recorder.sql { db in try seat.update(db, onConflict: .abort) } == [
            #"UPDATE "seat" SET "holder"='Ann' WHERE "hall"='B' AND "num"=1"#,
        ])
        // An update that changes no row throws, whatever the policy.
        let missing = Lenient(hall: "Z", num: 9, holder: "Ann")
        let error = notFound { try recorder.dbQueue.inDatabase { db in try missing.update(db) } }
        #expect(error?.key == ["hall": "Z".databaseValue, "num": 9.databaseValue])
        #expect(error?.description == #"Key not found in table seat: [hall:"Z" num:9]"#)
    }

    // MARK: Fetching variants

    @Test func fetchingVariantsAddAReturningClause() throws {
        let log = EventLog([])
        let dbQueue = try makeQueue(log: log)
        let book = Book(title: "Dune", pages: 412, log: log)
        var inserted: Book?
        var events = try events(log) { inserted = try dbQueue.inDatabase { db in try book.insertAndFetch(db) } }
        #expect(inserted?.id == 1)
        #expect(book.id == nil)
        #expect(events == [
            "willSave", "aroundSave >", "willInsert", "aroundInsert >",
            #"SQL INSERT INTO "book" ("id", "title", "pages") VALUES (NULL,'Dune',412) RETURNING *"#,
            "aroundInsert < 1", "didInsert 1 id", "aroundSave <", "didSave",
        ])

        var updating = Book(id: 1, title: "Emma", pages: 10, log: log)
        var updated: Book?
        events = try self.events(log) { updated = try dbQueue.inDatabase { db in try updating.updateAndFetch(db) } }
        #expect(updated?.title == "Emma")
        #expect(events.filter { $0.hasPrefix("SQL") || $0.hasPrefix("willUpdate") } == [
            "willUpdate id,pages,shelf,title",
            #"SQL UPDATE "book" SET "pages"=10, "title"='Emma' WHERE "id"=1 RETURNING *"#,
        ])

        // No change: nil, and no statement.
        var changes: Book? = Book(title: "", pages: 0, log: log)
        events = try self.events(log) {
            changes = try dbQueue.inDatabase { db in try updating.updateChangesAndFetch(db) { $0.pages = 10 } }
        }
        #expect(changes == nil)
        #expect(events == [])

        var score: Int?
        events = try self.events(log) {
            score = try dbQueue.inDatabase { db in
                try updating.updateChangesAndFetch(
                    db, selection: [Column("pages")],
                    fetch: { statement in try Int.fetchOne(statement) },
                    modify: { $0.pages = 20 }) ?? nil
            }
        }
        #expect(score == 20)
        #expect(events.filter { $0.hasPrefix("SQL") } == [#"SQL UPDATE "book" SET "pages"=20 WHERE "id"=1 RETURNING "pages""#])

        // A missing row: not found.
        let missing = Book(id: 5, title: "Moby", pages: 1, log: log)
        let error = notFound { _ = try dbQueue.inDatabase { db in try missing.updateAndFetch(db) } }
        #expect(error?.key == ["id": 5.databaseValue])

        // Save of a deleted record: a failed UPDATE … RETURNING, then an
        // INSERT … RETURNING.
        try dbQueue.inDatabase { db in _ = try updating.delete(db) }
        var saved: Book?
        events = try self.events(log) { saved = try dbQueue.inDatabase { db in try updating.saveAndFetch(db) } }
        #expect(saved?.pages == 20)
        #expect(events.filter { $0.hasPrefix("SQL") } == [
            #"SQL UPDATE "book" SET "pages"=20, "title"='Emma' WHERE "id"=1 RETURNING *"#,
            #"SQL INSERT INTO "book" ("id", "title", "pages") VALUES (1,'Emma',20) RETURNING *"#,
        ])
    }

    // MARK: Misuse of the around callbacks

    /// A record whose around callbacks do not call their action.
    struct Forgetful: MutablePersistableRecord {
        static let databaseTableName = "book"
        var skip: String
        func encode(to container: inout PersistenceContainer) {
            container["id"] = 1
            container["title"] = "x"
        }
        func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
            if skip != "aroundSave" { _ = try save() }
        }
        func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
            if skip != "aroundInsert" { _ = try insert() }
        }
        func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
            // Swallows the error of the update.
            if skip != "aroundUpdate" { _ = try update() } else { _ = try? update() }
        }
        func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
            if skip != "aroundDelete" { _ = try delete() }
        }
    }

    @Test func aroundCallbacksThatDoNotRunTheirActionThrowMisuse() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: Self.schema) }
        func misuse(_ skip: String, _ body: (Database, inout Forgetful) throws -> Void) -> DatabaseError? {
            do {
                try dbQueue.inDatabase { db in
                    var record = Forgetful(skip: skip)
                    try body(db, &record)
                }
            } catch let error as DatabaseError {
                return error
            } catch {
                Issue.record("unexpected error: \(error)")
            }
            return nil
        }
        for (callback, body) in [
            ("aroundSave", { (db: Database, record: inout Forgetful) in try record.insert(db) }),
            ("aroundInsert", { (db: Database, record: inout Forgetful) in try record.insert(db) }),
            ("aroundUpdate", { (db: Database, record: inout Forgetful) in try record.update(db, columns: ["title"]) }),
            ("aroundDelete", { (db: Database, record: inout Forgetful) in _ = try record.delete(db) }),
        ] as [(String, (Database, inout Forgetful) throws -> Void)] {
            try dbQueue.inDatabase { db in try db.execute(sql: "DELETE FROM book") }
            let error = misuse(callback, body)
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message == """
                Incorrect implementation of the `Forgetful.\(callback)` persistence callback: \
                the action function was not called, or its error was not rethrown.
                """)
        }
    }
}
