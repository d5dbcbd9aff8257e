import Foundation
import Testing
import Cairn

/// Behaviour that all readers share: queues, pools, snapshots and snapshot
/// pools.
@Suite struct DatabaseReaderTests {
    func makeReader(_ kind: ReaderKind, _ directory: TemporaryDirectory) throws -> any DatabaseReader {
        try kind.make(in: directory) { db throws in
            try db.execute(sql: createPlayerTableSQL)
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Arthur', 1000), ('Barbara', 750)")
        }.reader
    }

    @Test(arguments: ReaderKind.allCases)
    func readFetches(_ kind: ReaderKind) throws {
        let directory = try TemporaryDirectory()
        let reader = try makeReader(kind, directory)
        let names = try reader.read { db in try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id") }
        #expect(names == ["Arthur", "Barbara"])
        let rows = try reader.unsafeRead { db in try Row.fetchAll(db, sql: "SELECT * FROM player") }
        #expect(rows.count == 2)
        let reentrant = try reader.unsafeReentrantRead { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
        #expect(reentrant == 2)
    }

    @Test(arguments: ReaderKind.allCases)
    func readCannotWrite(_ kind: ReaderKind) throws {
        let directory = try TemporaryDirectory()
        let reader = try makeReader(kind, directory)
        #expect {
            try reader.read { db in try db.execute(sql: "DELETE FROM player") }
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_READONLY
        }
        #expect(try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 2)
    }

    @Test(arguments: ReaderKind.allCases)
    func asyncReads(_ kind: ReaderKind) async throws {
        let directory = try TemporaryDirectory()
        let reader = try makeReader(kind, directory)
        let count = try await reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
        #expect(count == 2)
        let unsafeCount = try await reader.unsafeRead { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
        #expect(unsafeCount == 2)
        let completionCount: Int = try await withCheckedThrowingContinuation { continuation in
            reader.asyncRead { result in
                continuation.resume(with: result.flatMap { db in
                    Result { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
                })
            }
        }
        #expect(completionCount == 2)
    }

    @Test(arguments: ReaderKind.allCases)
    func closedReaderThrows(_ kind: ReaderKind) throws {
        let directory = try TemporaryDirectory()
        let reader = try makeReader(kind, directory)
        try reader.close()
        #expect {
            try reader.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
        } throws: { error in
            (error as? DatabaseError)?.message == "Connection is closed"
        }
    }

    @Test(arguments: ReaderKind.allCases)
    func readSeesOneStateDuringAConcurrentWrite(_ kind: ReaderKind) throws {
        guard kind != .queue else { return } // a queue serializes the write after the read
        let directory = try TemporaryDirectory()
        let (reader, writer) = try kind.make(in: directory) { db throws in
            try db.execute(sql: createPlayerTableSQL)
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
        }
        let writeDone = DispatchSemaphore(value: 0)
        try reader.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 1)
            TestThreads.detach {
                try? writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
                writeDone.signal()
            }
            #expect(writeDone.wait(timeout: .now() + 10) == .success)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 1)
        }
        let after = try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
        // Pools see the new state; snapshots never do.
        #expect(after == (kind == .pool ? 2 : 1))
    }
}
