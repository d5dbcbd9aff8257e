import Dispatch
import Foundation
import Testing
import Cairn

@Suite struct DatabasePoolTests {
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

    func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? -1
    }

    /// Readers cache primary keys; they notice the schema changes of the
    /// writer at their next read that needs them.
    @Test func readersNoticeSchemaChanges() throws {
        try dbPool.write { db throws in
            try db.execute(sql: "CREATE TABLE thing (id INTEGER PRIMARY KEY, name TEXT)")
        }
        #expect(try dbPool.read { db in try db.primaryKey("thing").rowIDColumn } == "id")
        try dbPool.write { db throws in
            try db.execute(sql: "DROP TABLE thing; CREATE TABLE thing (code TEXT PRIMARY KEY, name TEXT)")
        }
        #expect(try dbPool.read { db in try db.primaryKey("thing").columns } == ["code"])
        #expect(try dbPool.read { db in try db.primaryKey("thing").rowIDColumn } == nil)
    }

    @Test func usesWAL() throws {
        #expect(try dbPool.read { db throws in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        // In-memory databases cannot use WAL.
        #expect {
            try DatabasePool(path: ":memory:")
        } throws: { error in
            (error as? DatabaseError)?.message?.contains("WAL") == true
        }
    }

    @Test func readOnlyPools() throws {
        // A database that is not in WAL mode: a read-only pool reads it,
        // in parallel, and leaves its journal mode alone.
        let other = try TemporaryDirectory()
        try DatabaseQueue(path: other.filePath()).write { db throws in
            try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1), (2)")
        }
        var config = Configuration()
        config.readonly = true
        let rollbackJournalPool = try DatabasePool(path: other.filePath(), configuration: config)
        #expect(try rollbackJournalPool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "delete")
        let bothReading = DispatchGroup()
        let results = Locked<[Bool]>([])
        let started = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        for index in 0..<2 {
            TestThreads.detach(group: bothReading) {
                try? rollbackJournalPool.read { db in
                    let cursor = try Int.fetchCursor(db, sql: "SELECT a FROM t")
                    _ = try cursor.next()
                    // Each read waits for the other one, inside its own read.
                    started[index].signal()
                    let sawOther = started[1 - index].wait(timeout: .now() + 10) == .success
                    started[1 - index].signal()
                    let count = 1 + ((try? Array(cursor).count) ?? 0)
                    results.withLock { $0.append(sawOther && count == 2) }
                }
            }
        }
        #expect(bothReading.wait(timeout: .now() + 30) == .success)
        #expect(results.withLock { $0 } == [true, true])
        #expect(throws: DatabaseError.self) {
            try rollbackJournalPool.write { db throws in try db.execute(sql: "DELETE FROM t") }
        }
        // A database already in WAL mode opens read-only.
        let readonlyPool = try DatabasePool(path: directory.filePath(), configuration: config)
        #expect(try readonlyPool.read { db throws in try count(db) } == 2)
        #expect(throws: DatabaseError.self) {
            try readonlyPool.write { db throws in try db.execute(sql: "DELETE FROM player") }
        }
    }

    @Test func readsRunInParallel() throws {
        let firstStarted = DispatchSemaphore(value: 0)
        let secondStarted = DispatchSemaphore(value: 0)
        let results = Locked<[Bool]>([])
        let group = DispatchGroup()
        TestThreads.detach(group: group) {
            try? dbPool.read { _ in
                firstStarted.signal()
                let sawSecond = secondStarted.wait(timeout: .now() + 10) == .success
                results.withLock { $0.append(sawSecond) }
            }
        }
        TestThreads.detach(group: group) {
            try? dbPool.read { _ in
                secondStarted.signal()
                let sawFirst = firstStarted.wait(timeout: .now() + 10) == .success
                results.withLock { $0.append(sawFirst) }
            }
        }
        #expect(group.wait(timeout: .now() + 20) == .success)
        #expect(results.withLock { $0 } == [true, true])
    }

    @Test func readsRunInParallelWithTheWriter() throws {
        let readStarted = DispatchSemaphore(value: 0)
        let writeDone = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let readSawWrite = Locked(false)
        TestThreads.detach(group: group) {
            try? dbPool.read { db throws in
                // The read transaction starts with its first statement.
                #expect(try count(db) == 2)
                readStarted.signal()
                // The write completes while the read is running.
                readSawWrite.withLock { $0 = writeDone.wait(timeout: .now() + 10) == .success }
                #expect(try count(db) == 2)
            }
        }
        #expect(readStarted.wait(timeout: .now() + 10) == .success)
        try dbPool.write { db throws in try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')") }
        writeDone.signal()
        #expect(group.wait(timeout: .now() + 20) == .success)
        #expect(readSawWrite.withLock { $0 })
        #expect(try dbPool.read { db throws in try count(db) } == 3)
    }

    @Test func asyncConcurrentReadSeesTheStateItStartedFrom() throws {
        let seen = Locked<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        let deleted = DispatchSemaphore(value: 0)
        try dbPool.writeWithoutTransaction { db throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')")
            dbPool.asyncConcurrentRead { result in
                // Wait until the writer has deleted everything.
                _ = deleted.wait(timeout: .now() + 10)
                seen.withLock { $0 = try? count(result.get()) }
                done.signal()
            }
            try db.execute(sql: "DELETE FROM player")
            deleted.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(seen.withLock { $0 } == 3)
        #expect(try dbPool.read { db throws in try count(db) } == 0)
    }

    @Test func barrierWriteWaitsForRunningReads() throws {
        let readStarted = DispatchSemaphore(value: 0)
        let events = Locked<[String]>([])
        let group = DispatchGroup()
        TestThreads.detach(group: group) {
            try? dbPool.read { _ in
                readStarted.signal()
                Thread.sleep(forTimeInterval: 0.2)
                events.withLock { $0.append("read end") }
            }
        }
        #expect(readStarted.wait(timeout: .now() + 10) == .success)
        try dbPool.barrierWriteWithoutTransaction { db throws in
            events.withLock { $0.append("barrier") }
            try db.execute(sql: "DELETE FROM player")
        }
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(events.withLock { $0 } == ["read end", "barrier"])
    }

    @Test func asyncBarrierWrite() async throws {
        try await dbPool.barrierWriteWithoutTransaction { db throws in
            try db.execute(sql: "DELETE FROM player")
        }
        let playerCount: Int = try await withCheckedThrowingContinuation { continuation in
            dbPool.asyncBarrierWriteWithoutTransaction { result in
                continuation.resume(with: result.flatMap { db in Result { try count(db) } })
            }
        }
        #expect(playerCount == 0)
    }

    @Test func maximumReaderCountLimitsConcurrentReads() throws {
        var config = Configuration()
        config.maximumReaderCount = 2
        let pool = try DatabasePool(path: directory.filePath(), configuration: config)
        let running = Locked(0)
        let maximum = Locked(0)
        TestThreads.concurrentPerform(iterations: 6) { _ in
            try? pool.read { _ in
                let current = running.withLock { value -> Int in
                    value += 1
                    return value
                }
                maximum.withLock { $0 = max($0, current) }
                Thread.sleep(forTimeInterval: 0.05)
                running.withLock { $0 -= 1 }
            }
        }
        #expect(maximum.withLock { $0 } <= 2)
    }

    @Test func readerConnectionsArePrepared() throws {
        let prepared = Locked(0)
        var config = Configuration()
        config.prepareDatabase { db in
            prepared.withLock { $0 += 1 }
            db.add(function: DatabaseFunction("answer", argumentCount: 0) { _ in 42 })
        }
        let pool = try DatabasePool(path: directory.filePath(), configuration: config)
        #expect(try pool.read { db throws in try Int.fetchOne(db, sql: "SELECT answer()") } == 42)
        #expect(try pool.write { db throws in try Int.fetchOne(db, sql: "SELECT answer()") } == 42)
        #expect(prepared.withLock { $0 } == 2) // writer and one reader
        // unsafeRead is on a reader too: it cannot write.
        #expect(throws: DatabaseError.self) {
            try pool.unsafeRead { db throws in try db.execute(sql: "DELETE FROM player") }
        }
        pool.invalidateReadOnlyConnections()
        #expect(try pool.read { db throws in try count(db) } == 2)
        #expect(prepared.withLock { $0 } == 3) // a new reader
        pool.releaseMemory()
        #expect(try pool.read { db throws in try count(db) } == 2)
    }

    @Test func checkpoints() throws {
        try dbPool.write { db throws in
            for index in 0..<100 {
                try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["p\(index)"])
            }
        }
        let result = try dbPool.checkpoint(.full)
        #expect(result.walFrameCount >= result.checkpointedFrameCount)
        #expect(result.checkpointedFrameCount > 0)
        try dbPool.checkpoint(.truncate)
        #expect(try dbPool.read { db throws in try count(db) } == 102)
    }

    @Test func closeWaitsForReadsInFlight() throws {
        let readStarted = DispatchSemaphore(value: 0)
        let readFinished = Locked(false)
        let group = DispatchGroup()
        TestThreads.detach(group: group) {
            try? dbPool.read { db throws in
                readStarted.signal()
                Thread.sleep(forTimeInterval: 0.2)
                _ = try count(db)
                readFinished.withLock { $0 = true }
            }
        }
        #expect(readStarted.wait(timeout: .now() + 10) == .success)
        try dbPool.close()
        // close() returned after the read completed.
        #expect(readFinished.withLock { $0 })
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(throws: DatabaseError.self) { try dbPool.read { db throws in try count(db) } }
        #expect(throws: DatabaseError.self) { try dbPool.write { db throws in try count(db) } }
    }

    /// A close that fails because a statement of a reader or of the writer
    /// is alive closes no connection: the pool stays usable.
    @Test(arguments: [true, false])
    func failedCloseLeavesThePoolOpen(statementOfReader: Bool) throws {
        ErrorLogRecorder.install()
        let marker = statementOfReader ? "kept by a pool reader" : "kept by the pool writer"
        // Two readers exist, so that a failure on one does not hide a close
        // of the other.
        let bothReading = DispatchGroup()
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        for _ in 0..<2 {
            TestThreads.detach(group: bothReading) {
                try? dbPool.read { db throws in
                    started.signal()
                    proceed.wait()
                    _ = try count(db)
                }
            }
        }
        started.wait()
        started.wait()
        proceed.signal()
        proceed.signal()
        bothReading.wait()

        try {
            let statement: Statement
            if statementOfReader {
                statement = try dbPool.read { db throws in try db.makeStatement(sql: "SELECT '\(marker)'") }
            } else {
                statement = try dbPool.write { db throws in try db.makeStatement(sql: "SELECT '\(marker)'") }
            }
            #expect {
                try dbPool.close()
            } throws: { error in
                (error as? DatabaseError)?.resultCode == .SQLITE_BUSY
            }
            #expect(!ErrorLogRecorder.messages(containing: "unfinalized statement: SELECT '\(marker)'").isEmpty)
            // Every connection is still open.
            try dbPool.write { db throws in try db.execute(sql: "INSERT INTO player (name) VALUES ('after')") }
            let concurrentCounts = Locked<[Int]>([])
            TestThreads.concurrentPerform(iterations: 4) { _ in
                if let value = try? dbPool.read({ db throws in try count(db) }) {
                    concurrentCounts.withLock { $0.append(value) }
                }
            }
            #expect(concurrentCounts.withLock { $0 } == [3, 3, 3, 3])
            _ = statement
        }()
        try dbPool.close()
        #expect(throws: DatabaseError.self) { try dbPool.read { db throws in try count(db) } }
    }

    @Test func asyncAccesses() async throws {
        try await dbPool.write { db throws in try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')") }
        #expect(try await dbPool.read { db throws in try count(db) } == 3)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask { try await dbPool.read { db throws in try count(db) } }
            }
            for try await value in group {
                #expect(value == 3)
            }
        }
        let names: [String] = try await withCheckedThrowingContinuation { continuation in
            dbPool.asyncWrite({ db in
                try db.execute(sql: "DELETE FROM player WHERE name = 'Craig'")
            }, completion: { db, result in
                continuation.resume(with: result.flatMap { Result { try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id") } })
            })
        }
        #expect(names == ["Arthur", "Barbara"])
    }

    @Test func reentrantReadFromWriterSeesUncommittedChanges() throws {
        try dbPool.write { db throws in
            try db.execute(sql: "DELETE FROM player")
            #expect(try dbPool.unsafeReentrantRead { db throws in try count(db) } == 0)
        }
        try dbPool.read { _ throws in
            #expect(try dbPool.unsafeReentrantRead { db throws in try count(db) } == 0)
        }
    }

    /// The writer is another connection, which waits for no reader: a
    /// write may start from a read (GRDB allows it too). The read keeps its
    /// snapshot: it does not see the write, which later reads see.
    @Test func writeInsideReadIsAllowed() throws {
        let counts = try dbPool.read { db throws -> [Int] in
            let before = try count(db)
            try dbPool.write { db throws in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')")
            }
            let inTransaction = try dbPool.writeWithoutTransaction { db throws in try count(db) }
            return [before, inTransaction, try count(db)]
        }
        #expect(counts == [2, 3, 2])
        #expect(try dbPool.read { db throws in try count(db) } == 3)
        // From unsafeRead and asyncRead too.
        try dbPool.unsafeRead { _ throws in
            try dbPool.write { db throws in try db.execute(sql: "DELETE FROM player WHERE name = 'Craig'") }
        }
        #expect(try dbPool.read { db throws in try count(db) } == 2)
    }

    @Test func asyncWriteInsideReadIsAllowed() async throws {
        let pool = dbPool
        try await pool.read { _ throws in
            try pool.write { db throws in try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')") }
        }
        #expect(try await pool.read { db throws in try count(db) } == 3)
    }

    /// A value observation of a constant region whose fetch writes through
    /// the pool (a cache, a log) runs: its fetch runs on a reader. (The
    /// fetches of `ValueObservation.tracking`, whose region may change,
    /// run on the writer after a change, as in GRDB: a write through the
    /// pool from there would be reentrant.)
    @Test func observationWhoseFetchWritesThroughThePool() throws {
        try dbPool.write { db throws in try db.execute(sql: "CREATE TABLE fetchLog (id INTEGER PRIMARY KEY)") }
        let pool = dbPool
        let received = Locked<[Int]>([])
        let delivered = DispatchSemaphore(value: 0)
        let cancellable = ValueObservation
            .trackingConstantRegion { db throws -> Int in
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
                try pool.write { db throws in try db.execute(sql: "INSERT INTO fetchLog DEFAULT VALUES") }
                return count
            }
            .start(in: dbPool, scheduling: .async(onQueue: DispatchQueue(label: "values")), onError: { error in
                Issue.record(error)
            }, onChange: { count in
                received.withLock { $0.append(count) }
                delivered.signal()
            })
        #expect(delivered.wait(timeout: .now() + 10) == .success)
        try dbPool.write { db throws in try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')") }
        // The write of the first fetch may come before the region of the
        // observation is known, and count as a change: values may repeat.
        let deadline = Date().addingTimeInterval(10)
        while received.withLock({ $0.last }) != 3 && Date() < deadline {
            _ = delivered.wait(timeout: .now() + 0.1)
        }
        cancellable.cancel()
        let values = received.withLock { $0 }
        #expect(values.first == 2)
        #expect(values.last == 3)
        #expect(Set(values) == [2, 3])
        // Each fetch wrote once: one fetch per value, and at most one more
        // whose value the cancellation stopped before it was delivered.
        let fetchLogCount = try #require(try dbPool.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fetchLog") })
        #expect(fetchLogCount >= values.count && fetchLogCount <= values.count + 1)
    }

    @Test func writeInTransactionCommitsOrRollsBack() throws {
        try dbPool.writeInTransaction { db throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')")
            return .commit
        }
        try dbPool.writeInTransaction(.immediate) { db throws in
            try db.execute(sql: "DELETE FROM player")
            return .rollback
        }
        #expect(try dbPool.read { db throws in try count(db) } == 3)
        struct Failure: Error { }
        #expect(throws: Failure.self) {
            try dbPool.writeInTransaction { db throws in
                try db.execute(sql: "DELETE FROM player")
                throw Failure()
            }
        }
        #expect(try dbPool.read { db throws in try count(db) } == 3)
    }

    /// What would wait for itself still stops: a write inside a write of
    /// the same pool, and a barrier write inside a read (it waits for the
    /// end of all reads).
    @Test func writeInsideWriteStops() async {
        await #expect(processExitsWith: .failure) {
            let directory = try TemporaryDirectory()
            let dbPool = try DatabasePool(path: directory.filePath())
            try dbPool.write { _ in
                try dbPool.write { _ in }
            }
        }
    }

    @Test func barrierWriteInsideReadStops() async {
        await #expect(processExitsWith: .failure) {
            let directory = try TemporaryDirectory()
            let dbPool = try DatabasePool(path: directory.filePath())
            try dbPool.read { _ in
                try dbPool.barrierWriteWithoutTransaction { _ in }
            }
        }
    }

    @Test func readInsideWriteStops() async {
        await #expect(processExitsWith: .failure) {
            let directory = try TemporaryDirectory()
            let dbPool = try DatabasePool(path: directory.filePath())
            try dbPool.write { _ in
                _ = try dbPool.read { _ in 1 }
            }
        }
    }

    @Test func readInsideReadStops() async {
        await #expect(processExitsWith: .failure) {
            let directory = try TemporaryDirectory()
            let dbPool = try DatabasePool(path: directory.filePath())
            try dbPool.read { _ in
                _ = try dbPool.read { _ in 1 }
            }
        }
    }

    @Test func snapshotPoolReadInsideItsReadStops() async {
        await #expect(processExitsWith: .failure) {
            let directory = try TemporaryDirectory()
            let dbPool = try DatabasePool(path: directory.filePath())
            let snapshotPool = try dbPool.makeSnapshotPool()
            try snapshotPool.read { _ in
                _ = try snapshotPool.read { _ in 1 }
            }
        }
    }

    /// An access that runs inside an access to another connection cannot
    /// come back to the outer connection: it would wait for itself.
    @Test func accessToAnOuterConnectionStops() async {
        await #expect(processExitsWith: .failure) {
            let directory = try TemporaryDirectory()
            let dbPool = try DatabasePool(path: directory.filePath())
            let dbQueue = try DatabaseQueue()
            try dbPool.write { _ in
                try dbQueue.read { _ in
                    dbPool.writeWithoutTransaction { _ in }
                }
            }
        }
    }

    /// Accesses to other databases nest, from readers and from the writer,
    /// and each sees its own database.
    @Test func accessesToOtherDatabasesNest() throws {
        let otherPool = try DatabasePool(path: directory.filePath("other.sqlite"))
        try otherPool.write { db throws in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1), (2), (3)") }
        let dbQueue = try DatabaseQueue()
        let counts = try dbPool.read { db throws in
            let outer = try count(db)
            let inner = try otherPool.read { db throws in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! + dbQueue.read { db throws in try Int.fetchOne(db, sql: "SELECT 0")! }
            }
            let fromWriter = try otherPool.write { db throws in
                try dbPool.unsafeReentrantRead { db throws in try count(db) } * 10 + Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
            }
            return [outer, inner, fromWriter]
        }
        #expect(counts == [2, 3, 23])
    }

    /// A thread that reads again gets the reader it used last, when that
    /// reader is available: two threads that take turns keep their own
    /// connections (and their caches), as raw C code with one connection
    /// per thread does.
    @Test func threadsKeepTheirReaderWhenItIsAvailable() throws {
        var config = Configuration()
        config.maximumReaderCount = 2
        let pool = try DatabasePool(path: directory.filePath(), configuration: config)
        // Two threads read at once, so that the pool opens two readers,
        // then take turns, alone, in both orders: whichever reader comes
        // first in the pool, each thread gets its own.
        let bothReading = DispatchGroup()
        bothReading.enter()
        bothReading.enter()
        let turns = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let turnDone = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        let readers = Locked([Int: [ObjectIdentifier]]())
        let rounds = 4
        for thread in 0..<2 {
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                try? pool.read { db in
                    readers.withLock { $0[thread, default: []].append(ObjectIdentifier(db)) }
                    bothReading.leave()
                    _ = bothReading.wait(timeout: .now() + 10)
                }
                for _ in 0..<rounds {
                    guard turns[thread].wait(timeout: .now() + 10) == .success else { return }
                    try? pool.read { db in
                        readers.withLock { $0[thread, default: []].append(ObjectIdentifier(db)) }
                    }
                    turnDone.signal()
                }
            }
        }
        for round in 0..<rounds {
            for thread in round % 2 == 0 ? [0, 1] : [1, 0] {
                turns[thread].signal()
                #expect(turnDone.wait(timeout: .now() + 10) == .success)
            }
        }
        #expect(finished.wait(timeout: .now() + 10) == .success)
        let used = readers.withLock { $0 }
        let first = try #require(used[0]?.first)
        let second = try #require(used[1]?.first)
        #expect(first != second)
        #expect(used[0] == Array(repeating: first, count: rounds + 1))
        #expect(used[1] == Array(repeating: second, count: rounds + 1))
    }

    /// Reads from many threads share the readers: each read gets a reader
    /// that no other read uses, and every reader comes back to the pool.
    @Test func readersAreNotSharedByConcurrentReads() throws {
        var config = Configuration()
        config.maximumReaderCount = 3
        let pool = try DatabasePool(path: directory.filePath(), configuration: config)
        let inUse = Locked(Set<ObjectIdentifier>())
        let failures = Locked(0)
        TestThreads.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<50 {
                do {
                    try pool.read { db in
                        let id = ObjectIdentifier(db)
                        let isNew = inUse.withLock { $0.insert(id).inserted }
                        if !isNew { failures.withLock { $0 += 1 } }
                        _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
                        inUse.withLock { _ = $0.remove(id) }
                    }
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        // Every reader is available again: as many reads as readers run at once.
        let barrier = DispatchGroup()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<3 {
            TestThreads.detach(group: barrier) {
                try? pool.read { _ in
                    started.signal()
                    release.wait()
                }
            }
        }
        for _ in 0..<3 { #expect(started.wait(timeout: .now() + 10) == .success) }
        for _ in 0..<3 { release.signal() }
        barrier.wait()
    }

    /// A tokenizer added to a pool reaches every reader, including the
    /// readers in use, which are not touched during their read and are
    /// replaced after it.
    @Test func tokenizersReachAllReaders() throws {
        var config = Configuration()
        config.maximumReaderCount = 2
        let pool = try DatabasePool(path: directory.filePath(), configuration: config)
        let started = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let longRead = DispatchGroup()
        let longReadCount = Locked<Int?>(nil)
        TestThreads.detach(group: longRead) {
            let count = try? pool.read { db in
                started.signal()
                resume.wait()
                // The read goes on, on its reader, after the registration.
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
            }
            longReadCount.withLock { $0 = count }
        }
        #expect(started.wait(timeout: .now() + 10) == .success)
        pool.add(tokenizer: FTS5LatinASCIITokenizer.self)
        resume.signal()
        longRead.wait()
        #expect(longReadCount.withLock { $0 } == 2)
        // Every reader knows the tokenizer now: two reads at once use both.
        let tokens = Locked<[[String]]>([])
        TestThreads.concurrentPerform(iterations: 2) { _ in
            let result = try? pool.read { db in
                try db.makeTokenizer(FTS5TokenizerDescriptor(components: [FTS5LatinASCIITokenizer.name]))
                    .tokenize(query: "Élodie").map(\.token)
            }
            tokens.withLock { $0.append(result ?? []) }
        }
        #expect(tokens.withLock { $0 } == [["elodie"], ["elodie"]])
        try pool.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE doc USING fts5(body, tokenize='cairn_latin_ascii')")
            try db.execute(sql: "INSERT INTO doc VALUES ('Élodie')")
        }
        #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH 'elodie'") } == 1)
    }
}
