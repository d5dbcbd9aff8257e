import Foundation
import Testing
import Cairn

/// `DatabaseQueue.inMemoryCopy(fromPath:configuration:)` and
/// `DatabaseQueue.temporaryCopy(fromPath:configuration:)`.
@Suite struct DatabaseQueueCopyTests {
    enum CopyKind: String, CaseIterable, CustomStringConvertible, Sendable {
        case inMemory, temporary
        var description: String { rawValue }

        func copy(fromPath path: String, configuration: Configuration = Configuration()) throws -> DatabaseQueue {
            switch self {
            case .inMemory: return try DatabaseQueue.inMemoryCopy(fromPath: path, configuration: configuration)
            case .temporary: return try DatabaseQueue.temporaryCopy(fromPath: path, configuration: configuration)
            }
        }
    }

    static let cases: [(CopyKind, WriterKind)] = CopyKind.allCases.flatMap { copy in WriterKind.allCases.map { (copy, $0) } }

    /// A source database file, written by a queue or a pool (WAL).
    func makeSource(_ kind: WriterKind, in directory: TemporaryDirectory) throws -> any DatabaseWriter {
        let writer = try kind.make(path: directory.filePath("source.sqlite"))
        try writer.write { db in
            try db.execute(sql: createPlayerTableSQL)
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Arthur', 500), ('Barbara', 1000)")
        }
        return writer
    }

    func content(_ dbQueue: DatabaseQueue) throws -> String {
        let output = DumpOutput()
        try dbQueue.dumpTables(["player"], format: .quote(), to: output)
        return output.text
    }

    @Test(arguments: cases)
    func copyHasTheContentAndCanBeWritten(_ kinds: (CopyKind, WriterKind)) throws {
        let directory = try TemporaryDirectory()
        let source = try makeSource(kinds.1, in: directory)
        let copy = try kinds.0.copy(fromPath: directory.filePath("source.sqlite"))
        #expect(try content(copy) == "1,'Arthur',500\n2,'Barbara',1000\n")
        #expect(copy.configuration.readonly == false)

        try copy.write { db in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Craig', 200)")
        }
        #expect(try content(copy) == "1,'Arthur',500\n2,'Barbara',1000\n3,'Craig',200\n")
        // The source is not changed.
        #expect(try source.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 2)
    }

    @Test(arguments: cases)
    func readOnlyCopyRefusesWrites(_ kinds: (CopyKind, WriterKind)) throws {
        let directory = try TemporaryDirectory()
        _ = try makeSource(kinds.1, in: directory)
        var configuration = Configuration()
        configuration.readonly = true
        let copy = try kinds.0.copy(fromPath: directory.filePath("source.sqlite"), configuration: configuration)
        #expect(copy.configuration.readonly)
        #expect(try content(copy) == "1,'Arthur',500\n2,'Barbara',1000\n")

        for _ in 0..<2 {
            #expect {
                try copy.write { db in try db.execute(sql: "DROP TABLE player") }
            } throws: { error in
                let error = error as? DatabaseError
                return error?.resultCode == .SQLITE_READONLY && error?.message == "attempt to write a readonly database"
            }
            #expect {
                try copy.writeWithoutTransaction { db in try db.execute(sql: "DELETE FROM player") }
            } throws: { error in
                (error as? DatabaseError)?.resultCode == .SQLITE_READONLY
            }
            // A read does not make the copy writable.
            try copy.read { db in _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
        }
        #expect(try content(copy) == "1,'Arthur',500\n2,'Barbara',1000\n")
    }

    @Test(arguments: CopyKind.allCases)
    func missingFileThrows(_ kind: CopyKind) throws {
        let directory = try TemporaryDirectory()
        let path = directory.filePath("missing.sqlite")
        #expect {
            _ = try kind.copy(fromPath: path)
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_CANTOPEN
        }
        // The missing file is not created.
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(arguments: CopyKind.allCases)
    func notADatabaseThrows(_ kind: CopyKind) throws {
        let directory = try TemporaryDirectory()
        let path = directory.filePath("text.sqlite")
        try Data(String(repeating: "not a database ", count: 100).utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try kind.copy(fromPath: path)
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_NOTADB
        }
    }

    @Test(arguments: CopyKind.allCases)
    func copyUsesTheConfiguration(_ kind: CopyKind) throws {
        let directory = try TemporaryDirectory()
        _ = try makeSource(.queue, in: directory)
        var configuration = Configuration()
        configuration.label = "Copy"
        configuration.journalMode = .wal
        configuration.prepareDatabase { db in
            db.add(function: DatabaseFunction("twice", argumentCount: 1, pure: true) { values in
                (Int.fromDatabaseValue(values[0]) ?? 0) * 2
            })
        }
        let copy = try kind.copy(fromPath: directory.filePath("source.sqlite"), configuration: configuration)
        #expect(try copy.read { db in try Int.fetchOne(db, sql: "SELECT twice(score) FROM player WHERE id = 1") } == 1000)
        // The copy has no WAL.
        #expect(try copy.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } != "wal")
    }

    @Test func inMemoryAndTemporaryPaths() throws {
        let directory = try TemporaryDirectory()
        _ = try makeSource(.queue, in: directory)
        #expect(try DatabaseQueue.inMemoryCopy(fromPath: directory.filePath("source.sqlite")).path == ":memory:")
        #expect(try DatabaseQueue.temporaryCopy(fromPath: directory.filePath("source.sqlite")).path == "")
    }

    @Test func migrationsOnACopy() throws {
        let directory = try TemporaryDirectory()
        _ = try makeSource(.queue, in: directory)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "ALTER TABLE player ADD COLUMN bonus INTEGER NOT NULL DEFAULT 0")
        }
        let copy = try DatabaseQueue.inMemoryCopy(fromPath: directory.filePath("source.sqlite"))
        try migrator.migrate(copy)
        #expect(try content(copy) == "1,'Arthur',500,0\n2,'Barbara',1000,0\n")
    }
}
