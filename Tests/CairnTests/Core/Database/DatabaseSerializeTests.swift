import Foundation
import Testing
import Cairn

/// Serialized databases: `Database.serialize`, `Database.deserialize` and
/// `DatabaseQueue(deserializing:)`.
@Suite struct DatabaseSerializeTests {
    static let schema = """
        CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT);
        INSERT INTO player (name, score) VALUES ('Arthur', 100), ('Barbara', 200);
        """

    func names(_ db: Database, schema: String = "main") throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM \(schema).player ORDER BY id")
    }

    @Test func theBytesOfAFileAreTheFile() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        try dbQueue.write { db in try db.execute(sql: DatabaseSerializeTests.schema) }
        let bytes = try dbQueue.read { db in try db.serialize() }
        let file = try Data(contentsOf: URL(fileURLWithPath: directory.filePath()))
        #expect(bytes.count == 4096 * 2)
        #expect(bytes == file)
    }

    @Test func aPoolGivesItsCommittedContentWithTheWAL() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.filePath())
        try dbPool.write { db in try db.execute(sql: DatabaseSerializeTests.schema) }
        // Still in the WAL: not checkpointed.
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')") }
        let bytes = try dbPool.read { db in try db.serialize() }
        #expect(bytes[18] == 2 && bytes[19] == 2) // WAL mode, as the file says

        let copy = try DatabaseQueue(deserializing: bytes)
        try copy.write { db in
            #expect(try names(db) == ["Arthur", "Barbara", "Craig"])
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "memory")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('David')")
            #expect(try names(db).count == 4)
        }
        // The pool did not change.
        #expect(try dbPool.read { db in try names(db) } == ["Arthur", "Barbara", "Craig"])
    }

    @Test func inMemoryDatabasesRoundTripAndGrow() throws {
        let source = try DatabaseQueue()
        try source.write { db in try db.execute(sql: DatabaseSerializeTests.schema) }
        let bytes = try source.read { db in try db.serialize() }
        let copy = try DatabaseQueue(deserializing: bytes)
        try copy.write { db in
            // Thousands of rows: the copy grows past the deserialized bytes.
            for index in 0..<5000 {
                try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["p\(index)", index])
            }
        }
        let grown = try copy.read { db in try db.serialize() }
        #expect(grown.count > bytes.count)
        #expect(try DatabaseQueue(deserializing: grown).read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 5002)
        try copy.read { db in try #expect(db.serialize() == grown) }
    }

    @Test func anEmptyDatabaseIsNoBytes() throws {
        let empty = try DatabaseQueue()
        #expect(try empty.read { db in try db.serialize() }.isEmpty)
        let copy = try DatabaseQueue(deserializing: Data())
        try copy.write { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        #expect(try copy.read { db in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
    }

    @Test func bytesThatAreNotADatabaseThrowAndLeaveTheConnectionAsItWas() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: DatabaseSerializeTests.schema) }
        let valid = try dbQueue.read { db in try db.serialize() }
        var corruptHeader = valid
        corruptHeader.replaceSubrange(0..<16, with: Data(repeating: 0x41, count: 16))
        let inputs: [(String, Data)] = [
            ("text", Data("hello, world".utf8)),
            ("random", Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919) })),
            ("bad header", corruptHeader),
            ("truncated", valid.prefix(50)),
        ]
        for (label, data) in inputs {
            try dbQueue.writeWithoutTransaction { (db: Database) throws in
                let error = #expect(throws: DatabaseError.self, "\(label)") { try db.deserialize(data) }
                #expect(error?.resultCode == .SQLITE_NOTADB, "\(label): \(String(describing: error))")
                #expect(error?.message?.contains("not a database") == true, "\(label)")
                // The connection kept its database.
                #expect(try names(db) == ["Arthur", "Barbara"], "\(label)")
            }
            #expect(throws: DatabaseError.self, "\(label)") { try DatabaseQueue(deserializing: data) }
        }
    }

    @Test func misuseThrowsClearErrors() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: DatabaseSerializeTests.schema) }
        let bytes = try dbQueue.read { db in try db.serialize() }
        try dbQueue.write { db in
            let error = #expect(throws: DatabaseError.self) { try db.deserialize(bytes) }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message?.contains("inside a transaction") == true)
        }
        try dbQueue.read { db in
            let error = #expect(throws: DatabaseError.self) { try db.deserialize(bytes) }
            #expect(error?.resultCode == .SQLITE_READONLY)
            let missing = #expect(throws: DatabaseError.self) { try db.serialize(schema: "missing") }
            #expect(missing?.message?.contains("no such schema: missing") == true)
        }
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            let error = #expect(throws: DatabaseError.self) { try db.deserialize(bytes, schema: "temp") }
            #expect(error?.resultCode == .SQLITE_ERROR)
            // Temp exists, with no page.
            #expect(try db.serialize(schema: "temp").isEmpty)
        }
    }

    @Test func deserializingIntoAnAttachedSchema() throws {
        let source = try DatabaseQueue()
        try source.write { db in try db.execute(sql: DatabaseSerializeTests.schema) }
        let bytes = try source.read { db in try db.serialize() }

        let dbQueue = try DatabaseQueue()
        try dbQueue.writeWithoutTransaction { db in
            let missing = #expect(throws: DatabaseError.self) { try db.deserialize(bytes, schema: "other") }
            #expect(missing?.message?.contains("no such schema: other") == true)
            let directory = try TemporaryDirectory()
            try db.execute(sql: "ATTACH DATABASE ? AS other", arguments: [directory.filePath()])
            try db.deserialize(bytes, schema: "other")
            #expect(try names(db, schema: "other") == ["Arthur", "Barbara"])
            #expect(try db.serialize(schema: "other") == bytes)
            // The attached file did not change.
            #expect(try Data(contentsOf: URL(fileURLWithPath: directory.filePath())).isEmpty)
            try db.execute(sql: "ATTACH DATABASE ':memory:' AS third")
            try db.deserialize(bytes, schema: "third", readOnly: true)
            #expect(try names(db, schema: "third") == ["Arthur", "Barbara"])
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "DELETE FROM third.player")
            }
            #expect(error?.resultCode == .SQLITE_READONLY)
        }
    }

    @Test func aReadOnlyConfigurationGivesAReadOnlyQueue() throws {
        let source = try DatabaseQueue()
        try source.write { db in try db.execute(sql: DatabaseSerializeTests.schema) }
        let bytes = try source.read { db in try db.serialize() }
        var configuration = Configuration()
        configuration.readonly = true
        let copy = try DatabaseQueue(deserializing: bytes, configuration: configuration)
        #expect(try copy.read { db in try names(db) } == ["Arthur", "Barbara"])
        #expect(throws: DatabaseError.self) {
            try copy.writeWithoutTransaction { db in try db.execute(sql: "DELETE FROM player") }
        }
        #expect(try copy.read { db in try names(db) } == ["Arthur", "Barbara"])
    }

    @Test func aRunningStatementPreventsDeserialization() throws {
        let source = try DatabaseQueue()
        try source.write { db in try db.execute(sql: "CREATE TABLE other (a); INSERT INTO other VALUES (42)") }
        let bytes = try source.read { db in try db.serialize() }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: DatabaseSerializeTests.schema) }
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            let cursor = try String.fetchCursor(db, sql: "SELECT name FROM player ORDER BY id")
            #expect(try cursor.next() == "Arthur")
            let error = #expect(throws: DatabaseError.self) { try db.deserialize(bytes) }
            #expect(error?.resultCode == .SQLITE_BUSY)
            // The cursor goes on reading the database it started with.
            #expect(try cursor.next() == "Barbara")
            #expect(try cursor.next() == nil)
            try db.deserialize(bytes)
            #expect(try Int.fetchOne(db, sql: "SELECT a FROM other") == 42)
        }
    }

    @Test func preparedStatementsReadTheNewDatabase() throws {
        // Two databases with the same schema cookie (two schema changes),
        // whose table t lives in different pages.
        let first = try DatabaseQueue()
        try first.write { db in
            try db.execute(sql: "CREATE TABLE t (a); CREATE TABLE u (a); INSERT INTO t VALUES ('t of first'); INSERT INTO u VALUES ('u of first')")
        }
        let second = try DatabaseQueue()
        try second.write { db in
            try db.execute(sql: "CREATE TABLE u (a); CREATE TABLE t (a); INSERT INTO t VALUES ('t of second'); INSERT INTO u VALUES ('u of second')")
        }
        let firstBytes = try first.read { db in try db.serialize() }
        let secondBytes = try second.read { db in try db.serialize() }
        let dbQueue = try DatabaseQueue(deserializing: firstBytes)
        try dbQueue.writeWithoutTransaction { db in
            let statement = try db.makeStatement(sql: "SELECT a FROM t")
            #expect(try String.fetchOne(statement) == "t of first")
            #expect(try String.fetchOne(db, sql: "SELECT a FROM t") == "t of first")
            try db.deserialize(secondBytes)
            #expect(try String.fetchOne(statement) == "t of second")
            #expect(try String.fetchOne(db, sql: "SELECT a FROM t") == "t of second")
        }
    }

    @Test func statementsAndObserversFollowTheReplacedDatabase() throws {
        let source = try DatabaseQueue()
        try source.write { db in
            try db.execute(sql: DatabaseSerializeTests.schema)
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')")
        }
        let bytes = try source.read { db in try db.serialize() }

        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: DatabaseSerializeTests.schema) }
        let changes = Locked(0)
        let cancellable = DatabaseRegionObservation(tracking: Table("player"))
            .start(in: dbQueue, onError: { _ in }, onChange: { _ in changes.withLock { $0 += 1 } })
        defer { cancellable.cancel() }
        try dbQueue.writeWithoutTransaction { db in
            let statement = try db.cachedStatement(sql: "SELECT COUNT(*) FROM player")
            #expect(try Int.fetchOne(statement) == 2)
            try db.deserialize(bytes)
            #expect(try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM player")) == 3)
        }
        #expect(changes.withLock { $0 } == 1)
    }
}
