import Foundation
import Testing
import Cairn

/// Snapshots and snapshot pools keep their state across writes and
/// checkpoints.
@Suite struct DatabaseSnapshotTests {
    let directory: TemporaryDirectory
    let dbPool: DatabasePool

    init() throws {
        directory = try TemporaryDirectory()
        dbPool = try DatabasePool(path: directory.filePath())
        try dbPool.write { db throws in
            try db.execute(sql: createPlayerTableSQL)
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur'), ('Barbara')")
        }
    }

    enum SnapshotKind: String, CaseIterable, CustomStringConvertible, Sendable {
        case snapshot, snapshotPool
        var description: String { rawValue }
    }

    func makeSnapshot(_ kind: SnapshotKind) throws -> any DatabaseReader {
        switch kind {
        case .snapshot: return try dbPool.makeSnapshot()
        case .snapshotPool: return try dbPool.makeSnapshotPool()
        }
    }

    func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? -1
    }

    @Test(arguments: SnapshotKind.allCases)
    func snapshotKeepsItsStateAcrossWritesAndCheckpoints(_ kind: SnapshotKind) throws {
        let snapshot = try makeSnapshot(kind)
        try dbPool.write { db throws in
            try db.execute(sql: "DELETE FROM player")
            for index in 0..<200 {
                try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["p\(index)"])
            }
        }
        #expect(try snapshot.read { db throws in try count(db) } == 2)
        try dbPool.checkpoint(.passive)
        #expect(try snapshot.read { db throws in try count(db) } == 2)
        // A full checkpoint waits for readers to reach the latest state: the
        // snapshot never does, so it copies what it can and reports BUSY.
        #expect {
            try dbPool.checkpoint(.full)
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_BUSY
        }
        #expect(try snapshot.read { db throws in try count(db) } == 2)
        try dbPool.write { db throws in try db.execute(sql: "DELETE FROM player") }
        try dbPool.checkpoint(.passive)
        #expect(try snapshot.read { db throws in try count(db) } == 2)
        #expect(try dbPool.read { db throws in try count(db) } == 0)
    }

    @Test(arguments: SnapshotKind.allCases)
    func completionReadsKeepTheirSnapshotAlive(_ kind: SnapshotKind) throws {
        // The only reference to the snapshot is dropped at once: the read,
        // which runs later, still sees the snapshot's state.
        let done = DispatchSemaphore(value: 0)
        let counts = Locked<[Int]>([])
        try dbPool.write { db throws in try db.execute(sql: "DELETE FROM player WHERE name = 'Barbara'") }
        try makeSnapshot(kind).asyncRead { result in
            defer { done.signal() }
            guard let db = try? result.get(), let count = try? count(db) else { return }
            counts.withLock { $0.append(count) }
        }
        try dbPool.write { db throws in try db.execute(sql: "DELETE FROM player") }
        _ = try? dbPool.checkpoint(.passive)
        done.wait()
        #expect(counts.withLock { $0 } == [1])
    }

    @Test func reentrantReadsOfASnapshotCheckItsTransaction() throws {
        let snapshot = try dbPool.makeSnapshot()
        try snapshot.read { db throws -> Void in
            // Ends the snapshot's transaction from inside a read.
            try db.execute(sql: "COMMIT")
            #expect {
                try snapshot.unsafeReentrantRead { db in try count(db) }
            } throws: { error in
                (error as? DatabaseError)?.resultCode == .SQLITE_MISUSE
            }
        }
    }

    @Test(arguments: SnapshotKind.allCases)
    func restartCheckpointCannotOverwriteASnapshot(_ kind: SnapshotKind) throws {
        let snapshot = try makeSnapshot(kind)
        try dbPool.write { db throws in try db.execute(sql: "DELETE FROM player") }
        // The snapshot holds a read transaction: a restart checkpoint, which
        // must wait for all readers, fails rather than reset the WAL.
        #expect {
            try dbPool.checkpoint(.restart)
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_BUSY
        }
        #expect(try snapshot.read { db throws in try count(db) } == 2)
        // Once the snapshot is closed, the checkpoint can run.
        try snapshot.close()
        try dbPool.checkpoint(.truncate)
    }

    @Test func snapshotCreatedFromTheWriterSeesItsCommittedState() throws {
        let (snapshot, snapshotPool) = try dbPool.writeWithoutTransaction { db throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')")
            let snapshot = try dbPool.makeSnapshot()
            let snapshotPool = try dbPool.makeSnapshotPool()
            try db.execute(sql: "INSERT INTO player (name) VALUES ('David')")
            return (snapshot, snapshotPool)
        }
        #expect(try snapshot.read { db throws in try count(db) } == 3)
        #expect(try snapshotPool.read { db throws in try count(db) } == 3)
        #expect(try dbPool.read { db throws in try count(db) } == 4)
    }

    @Test func snapshotPoolFromAConnection() throws {
        let snapshotPool = try dbPool.writeWithoutTransaction { db throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')")
            return try DatabaseSnapshotPool(db)
        }
        try dbPool.write { db throws in try db.execute(sql: "DELETE FROM player") }
        #expect(try snapshotPool.read { db throws in try count(db) } == 3)

        // Inside a transaction that has written, there is no committed state
        // to take.
        #expect(throws: DatabaseError.self) {
            try dbPool.write { db throws in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Eve')")
                _ = try DatabaseSnapshotPool(db)
            }
        }
    }

    @Test func snapshotPoolFromAPath() throws {
        let snapshotPool = try DatabaseSnapshotPool(path: directory.filePath())
        try dbPool.write { db throws in try db.execute(sql: "DELETE FROM player") }
        #expect(try snapshotPool.read { db throws in try count(db) } == 2)
    }

    @Test func snapshotPoolNeedsWAL() throws {
        let other = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: other.filePath())
        try dbQueue.write { db throws in try db.execute(sql: "CREATE TABLE t(a)") }
        #expect {
            try dbQueue.inDatabase { db throws in _ = try DatabaseSnapshotPool(db) }
        } throws: { error in
            (error as? DatabaseError)?.message?.contains("WAL") == true
        }
        #expect(throws: DatabaseError.self) { try DatabaseSnapshotPool(path: other.filePath()) }
        #expect(throws: DatabaseError.self) {
            try DatabaseQueue().inDatabase { db throws in _ = try DatabaseSnapshotPool(db) }
        }
    }

    @Test func fourThreadsReadOneSnapshotPoolAtOnce() throws {
        var config = Configuration()
        config.maximumReaderCount = 4
        let snapshotPool = try dbPool.unsafeRead { db throws in try DatabaseSnapshotPool(db, configuration: config) }
        try dbPool.write { db throws in try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')") }

        // Each read waits until the four reads are running.
        let running = Locked(0)
        let allRunning = DispatchSemaphore(value: 0)
        let results = Locked<[Int]>([])
        let group = DispatchGroup()
        // Four threads (not concurrentPerform, which uses one thread per core).
        for _ in 0..<4 {
            group.enter()
            Thread {
                defer { group.leave() }
                let value = try? snapshotPool.read { db throws -> Int in
                    let current = running.withLock { value -> Int in
                        value += 1
                        return value
                    }
                    if current == 4 {
                        for _ in 0..<3 { allRunning.signal() }
                    } else {
                        guard allRunning.wait(timeout: .now() + 10) == .success else { return -1 }
                    }
                    return try count(db)
                }
                results.withLock { $0.append(value ?? -2) }
            }.start()
        }
        #expect(group.wait(timeout: .now() + 20) == .success)
        #expect(results.withLock { $0 } == [2, 2, 2, 2])
    }

    @Test func snapshotReadCannotWriteNorEndItsTransaction() throws {
        let snapshot = try dbPool.makeSnapshot()
        #expect(throws: DatabaseError.self) {
            try snapshot.read { db throws in try db.execute(sql: "DELETE FROM player") }
        }
        // Ending the snapshot's transaction makes the snapshot unusable, with
        // a clear error rather than a newer state.
        try? snapshot.unsafeRead { db throws in try db.execute(sql: "COMMIT") }
        #expect {
            try snapshot.read { db throws in try count(db) }
        } throws: { error in
            (error as? DatabaseError)?.message?.contains("no longer usable") == true
        }
    }
}

@Suite struct SnapshotPoolEdgeTests {
    @Test func snapshotPoolAfterTruncateCheckpoint() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.filePath())
        try dbPool.write { db throws in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        try dbPool.checkpoint(.truncate)
        let snapshotPool = try dbPool.makeSnapshotPool()
        try dbPool.write { db throws in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try snapshotPool.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test func snapshotPoolOfAReopenedDatabase() throws {
        let directory = try TemporaryDirectory()
        try DatabasePool(path: directory.filePath()).write { db throws in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        let dbPool = try DatabasePool(path: directory.filePath())
        let snapshotPool = try dbPool.makeSnapshotPool()
        try dbPool.write { db throws in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try snapshotPool.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
    }
}
