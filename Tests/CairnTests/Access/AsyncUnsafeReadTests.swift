import Foundation
import Testing
import Cairn

/// Async reads of snapshots whose pool is released: the snapshot keeps what
/// it needs.
@Suite struct AsyncUnsafeReadTests {
    func makePool(_ directory: TemporaryDirectory) throws -> DatabasePool {
        let pool = try DatabasePool(path: directory.filePath())
        try pool.write { db throws -> Void in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS t(a); DELETE FROM t; INSERT INTO t VALUES (1)")
        }
        return pool
    }

    @Test func snapshotsOfReleasedPools() async throws {
        let directory = try TemporaryDirectory()
        let snapshot = try makePool(directory).makeSnapshot()
        #expect(try await snapshot.unsafeRead { db throws in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
        #expect(try await snapshot.read { db throws in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
        let snapshotPool = try makePool(directory).makeSnapshotPool()
        #expect(try await snapshotPool.unsafeRead { db throws in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
        #expect(try await snapshotPool.read { db throws in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
    }
}
