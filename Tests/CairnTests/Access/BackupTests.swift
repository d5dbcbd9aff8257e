import Foundation
import Testing
import Cairn

/// Online backups between queues and pools.
@Suite struct BackupTests {
    struct Abandon: Error { }

    static let kinds: [(WriterKind, WriterKind)] = [(.queue, .queue), (.queue, .pool), (.pool, .queue), (.pool, .pool)]

    func makeSource(_ kind: WriterKind, in directory: TemporaryDirectory) throws -> any DatabaseWriter {
        let source = try kind.make(path: directory.filePath("source.sqlite"))
        try source.write { db throws -> Void in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT)")
            // Several pages, to back up step by step.
            for index in 0..<200 {
                try db.execute(sql: "INSERT INTO item (name) VALUES (?)", arguments: [String(repeating: "x", count: 100) + "\(index)"])
            }
        }
        return source
    }

    func makeDestination(_ kind: WriterKind, in directory: TemporaryDirectory) throws -> any DatabaseWriter {
        let destination = try kind.make(path: directory.filePath("destination.sqlite"))
        try destination.write { db throws -> Void in
            try db.execute(sql: "CREATE TABLE other (a); INSERT INTO other VALUES (1)")
        }
        return destination
    }

    @Test(arguments: kinds)
    func backupReplacesTheDestination(_ kinds: (WriterKind, WriterKind)) throws {
        let directory = try TemporaryDirectory()
        let source = try makeSource(kinds.0, in: directory)
        let destination = try makeDestination(kinds.1, in: directory)
        // The destination's schema cache is filled.
        #expect(try destination.read { db throws in try db.tableExists("other") })

        try source.backup(to: destination)
        try destination.read { db throws -> Void in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") == 200)
            #expect(try !db.tableExists("other"))
        }
        // The destination is a usable database.
        try destination.write { db throws -> Void in
            try db.execute(sql: "INSERT INTO item (name) VALUES ('new')")
        }
        #expect(try destination.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 201)
    }

    @Test(arguments: kinds)
    func progressAndAbandon(_ kinds: (WriterKind, WriterKind)) throws {
        let directory = try TemporaryDirectory()
        let source = try makeSource(kinds.0, in: directory)
        let destination = try makeDestination(kinds.1, in: directory)
        let pageCount = try source.read { db throws in try Int.fetchOne(db, sql: "PRAGMA page_count")! }
        #expect(pageCount > 3)

        // An error before the end abandons the backup: the destination is
        // left as it was.
        var abandonedProgress: [DatabaseBackupProgress] = []
        #expect(throws: Abandon.self) {
            try source.backup(to: destination, pagesPerStep: 1) { progress in
                abandonedProgress.append(progress)
                if progress.completedPageCount == 2 { throw Abandon() }
            }
        }
        #expect(abandonedProgress.map(\.completedPageCount) == [1, 2])
        #expect(abandonedProgress.allSatisfy { !$0.isCompleted && $0.totalPageCount == pageCount })
        try destination.read { db throws -> Void in
            #expect(try Int.fetchOne(db, sql: "SELECT a FROM other") == 1)
            #expect(try !db.tableExists("item"))
        }

        // One call per step; an error after the last step is ignored.
        var steps: [DatabaseBackupProgress] = []
        try source.backup(to: destination, pagesPerStep: 1) { progress in
            steps.append(progress)
            if progress.isCompleted { throw Abandon() }
        }
        #expect(steps.count == pageCount)
        #expect(steps.map(\.completedPageCount) == Array(1...pageCount))
        #expect(steps.last?.isCompleted == true)
        #expect(steps.last?.remainingPageCount == 0)
        #expect(try destination.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 200)
    }

    @Test func connectionLevelBackupAndMisuse() throws {
        let directory = try TemporaryDirectory()
        let source = try makeSource(.queue, in: directory)
        let destination = try makeDestination(.pool, in: directory)
        try source.read { sourceDb throws -> Void in
            try destination.barrierWriteWithoutTransaction { destinationDb throws -> Void in
                try sourceDb.backup(to: destinationDb)
                // A connection cannot back up into itself.
                #expect(throws: DatabaseError.self) { try destinationDb.backup(to: destinationDb) }
            }
        }
        #expect(try destination.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 200)
        // Nor can a database.
        #expect(throws: DatabaseError.self) { try source.backup(to: source) }

        // A destination inside a transaction is refused: nothing is copied.
        let otherDirectory = try TemporaryDirectory()
        let other = try makeDestination(.queue, in: otherDirectory)
        try source.read { sourceDb throws -> Void in
            try other.writeWithoutTransaction { otherDb throws -> Void in
                for kind in [Database.TransactionKind.deferred, .immediate] {
                    try otherDb.beginTransaction(kind)
                    #expect(throws: DatabaseError.self) { try sourceDb.backup(to: otherDb) }
                    try otherDb.rollback()
                }
            }
        }
        #expect(try other.read { db throws in try db.tableExists("other") })
    }
}
