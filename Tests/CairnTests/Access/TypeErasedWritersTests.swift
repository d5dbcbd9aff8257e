import Foundation
import Testing
import Cairn

/// `AnyDatabaseReader`, `AnyDatabaseWriter`, and maintenance of writers.
@Suite struct TypeErasedWritersTests {
    @Test(arguments: WriterKind.allCases)
    func typeErasedWritersForward(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = AnyDatabaseWriter(try kind.make(path: directory.filePath()))
        try writer.write { db throws -> Void in
            try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)")
        }
        #expect(writer.path == directory.filePath())
        #expect(try writer.read { db throws in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)

        let reader = AnyDatabaseReader(writer)
        #expect(try reader.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
        // Writes are refused in reads.
        #expect(throws: DatabaseError.self) { try reader.read { db throws in try db.execute(sql: "DELETE FROM t") } }
    }

    @Test(arguments: WriterKind.allCases)
    func observationsThroughTypeErasedReaders(_ kind: WriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = AnyDatabaseWriter(try kind.make(path: directory.filePath()))
        try await writer.write { db throws -> Void in try db.execute(sql: "CREATE TABLE t(a)") }
        #expect(try await writer.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)

        // Observations through a type-erased reader see changes, as through
        // the wrapped writer.
        let reader = AnyDatabaseReader(writer)
        let observation = ValueObservation.tracking { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? 0 }
        var iterator = observation.values(in: reader).makeAsyncIterator()
        #expect(try await iterator.next() == 0)
        try await writer.write { db throws -> Void in try db.execute(sql: "INSERT INTO t VALUES (3)") }
        #expect(try await iterator.next() == 1)
    }

    @Test(arguments: WriterKind.allCases)
    func eraseAndVacuum(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db throws -> Void in
            try db.execute(sql: "CREATE TABLE t(a); CREATE VIEW v AS SELECT * FROM t; INSERT INTO t VALUES (1)")
        }
        #expect(try writer.read { db throws in try db.tableExists("t") })
        try writer.vacuum()
        let copyPath = directory.filePath("copy.sqlite")
        try writer.vacuum(into: copyPath)
        // The copy exists: a second one is refused.
        #expect(throws: DatabaseError.self) { try writer.vacuum(into: copyPath) }
        let copy = try DatabaseQueue(path: copyPath)
        #expect(try copy.read { db throws in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)

        try writer.erase()
        try writer.read { db throws -> Void in
            #expect(try !db.tableExists("t"))
            #expect(try !db.viewExists("v"))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") == 0)
        }
        // The erased database is usable, in the same journal mode.
        try writer.write { db throws -> Void in try db.execute(sql: "CREATE TABLE t(b)") }
        if kind == .pool {
            #expect(try writer.read { db throws in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        }
    }
}
