import Dispatch
import Foundation
import Testing
import Cairn

@TaskLocal private var accessTag: String?

/// Async accesses run their closure in the calling task: task-local values
/// are visible, and the cancellation of the task reaches the statements of
/// the closure.
@Suite struct AsyncAccessTaskTests {
    private func setup(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE t(a)")
        try db.execute(sql: "INSERT INTO t VALUES (1), (2)")
    }

    /// A task that waits for `start` to be signalled, then runs `body`
    /// with the task itself at hand (to cancel it from inside).
    private func makeTask<T: Sendable>(
        start: DispatchSemaphore,
        _ body: @escaping @Sendable (_ cancel: @escaping @Sendable () -> Void) async throws -> T) -> Task<T, Error>
    {
        let handle = Locked<Task<T, Error>?>(nil)
        let task = Task {
            await TestThreads.wait(start)
            return try await body { handle.withLock { $0 }?.cancel() }
        }
        handle.withLock { $0 = task }
        return task
    }

    // MARK: Task locals

    @Test(arguments: ReaderKind.allCases)
    func readsSeeTaskLocals(_ kind: ReaderKind) async throws {
        let directory = try TemporaryDirectory()
        let (reader, _) = try kind.make(in: directory, setup: setup)
        let seen = try await $accessTag.withValue("read") {
            try await reader.read { _ in accessTag }
        }
        #expect(seen == "read")
        let seenUnsafe = try await $accessTag.withValue("unsafeRead") {
            try await reader.unsafeRead { _ in accessTag }
        }
        #expect(seenUnsafe == "unsafeRead")
    }

    @Test(arguments: WriterKind.allCases)
    func writesSeeTaskLocals(_ kind: WriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        let seen = try await $accessTag.withValue("write") {
            try await writer.write { _ in accessTag }
        }
        #expect(seen == "write")
        let seenWithoutTransaction = try await $accessTag.withValue("writeWithoutTransaction") {
            try await writer.writeWithoutTransaction { _ in accessTag }
        }
        #expect(seenWithoutTransaction == "writeWithoutTransaction")
        let seenBarrier = try await $accessTag.withValue("barrier") {
            try await writer.barrierWriteWithoutTransaction { _ in accessTag }
        }
        #expect(seenBarrier == "barrier")
    }

    // MARK: Where the closure runs

    /// Async accesses awaited from the main actor run on the connection's
    /// queue, not on the actor: one after the other, never on the main
    /// thread, even when they overlap with synchronous accesses of other
    /// threads.
    @MainActor
    @Test(arguments: WriterKind.allCases)
    func accessesFromTheMainActorRunOnTheConnectionQueue(_ kind: WriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        try await writer.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        // Counts the closures that run at once, and the most seen.
        let running = Locked((now: 0, most: 0, onMainThread: 0))
        let enter: @Sendable () -> Void = {
            running.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
                if Thread.isMainThread { $0.onMainThread += 1 }
            }
        }
        let leave: @Sendable () -> Void = { running.withLock { $0.now -= 1 } }
        let finishSync = TestThreads.start {
            for _ in 0..<50 {
                try writer.write { db in
                    enter()
                    defer { leave() }
                    try db.execute(sql: "INSERT INTO t VALUES (1)")
                }
            }
        }
        for _ in 0..<50 {
            try await writer.write { db in
                enter()
                defer { leave() }
                try db.execute(sql: "INSERT INTO t VALUES (2)")
            }
        }
        try await finishSync()
        let seen = running.withLock { $0 }
        #expect(seen.most == 1)
        #expect(seen.onMainThread == 0)
        #expect(try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 100)
    }

    // MARK: Cancellation during the access

    @Test(arguments: ReaderKind.allCases)
    func cancelledReadWithoutStatementSucceeds(_ kind: ReaderKind) async throws {
        let directory = try TemporaryDirectory()
        let (reader, _) = try kind.make(in: directory, setup: setup)
        let start = DispatchSemaphore(value: 0)
        let task = makeTask(start: start) { cancel in
            try await reader.read { _ in
                cancel()
                return Task.isCancelled
            }
        }
        start.signal()
        // The closure sees the cancellation of its task, and the read,
        // which ran no statement after it, returns its value.
        #expect(try await task.value == true)
    }

    @Test(arguments: ReaderKind.allCases)
    func statementAfterCancellationThrowsCancellationError(_ kind: ReaderKind) async throws {
        let directory = try TemporaryDirectory()
        let (reader, _) = try kind.make(in: directory, setup: setup)
        let start = DispatchSemaphore(value: 0)
        let reached = Locked(false)
        let task = makeTask(start: start) { cancel in
            try await reader.read { db in
                cancel()
                _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
                reached.withLock { $0 = true }
            }
        }
        start.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(reached.withLock { $0 } == false)
        // The reader is usable again.
        #expect(try await reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
    }

    @Test(arguments: ReaderKind.allCases)
    func cursorIterationAfterCancellationThrowsCancellationError(_ kind: ReaderKind) async throws {
        let directory = try TemporaryDirectory()
        let (reader, _) = try kind.make(in: directory, setup: setup)
        let start = DispatchSemaphore(value: 0)
        let firstValue = Locked<Int?>(nil)
        let task = makeTask(start: start) { cancel in
            try await reader.unsafeRead { db in
                let cursor = try Int.fetchCursor(db, sql: "SELECT a FROM t ORDER BY a")
                let first = try cursor.next()
                firstValue.withLock { $0 = first }
                cancel()
                _ = try cursor.next()
            }
        }
        start.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(firstValue.withLock { $0 } == 1)
        #expect(try await reader.unsafeRead { db in try Int.fetchOne(db, sql: "SELECT MAX(a) FROM t") } == 2)
    }

    @Test(arguments: WriterKind.allCases)
    func cancelledWriteIsRolledBack(_ kind: WriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        try await writer.write { db in try setup(db) }
        let start = DispatchSemaphore(value: 0)
        let task = makeTask(start: start) { cancel in
            try await writer.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (3)")
                cancel()
                // No statement after the cancellation: the commit is what
                // the cancellation refuses.
            }
        }
        start.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
        // Writes work again, and are committed.
        try await writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (4)") }
        #expect(try await writer.read { db in try Int.fetchOne(db, sql: "SELECT MAX(a) FROM t") } == 4)
    }

    @Test(arguments: WriterKind.allCases)
    func statementOfBarrierWriteAfterCancellationThrows(_ kind: WriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        try await writer.write { db in try setup(db) }
        let start = DispatchSemaphore(value: 0)
        let task = makeTask(start: start) { cancel in
            try await writer.barrierWriteWithoutTransaction { db in
                cancel()
                try db.execute(sql: "INSERT INTO t VALUES (3)")
            }
        }
        start.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
    }

    @Test(arguments: WriterKind.allCases)
    func writesWorkAfterACancelledRead(_ kind: WriterKind) async throws {
        // A read of a queue runs with `PRAGMA query_only = 1`: the pragma
        // that ends it must run even though the task was cancelled.
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        let start = DispatchSemaphore(value: 0)
        let task = makeTask(start: start) { cancel in
            try await writer.read { _ in cancel() }
        }
        start.signal()
        try? await task.value
        try await writer.write { db in try db.execute(sql: "CREATE TABLE u(a)") }
        #expect(try await writer.read { db in try db.tableExists("u") })
    }

    // MARK: Many tasks

    @Test(arguments: ReaderKind.allCases)
    func cancellationDoesNotLeakIntoOtherTasks(_ kind: ReaderKind) async throws {
        let directory = try TemporaryDirectory()
        let (reader, _) = try kind.make(in: directory, setup: setup)
        // Far more tasks than there are threads: async accesses must not
        // block a thread each while they wait for a connection.
        for _ in 0..<3 {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<300 {
                    let task = Task {
                        try await reader.read { db in try db.execute(sql: "SELECT 1") }
                    }
                    group.addTask {
                        if index.isMultiple(of: 2) {
                            task.cancel()
                            _ = try? await task.value
                        } else {
                            // Not cancelled: must succeed.
                            try await task.value
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    @Test func poolReadCancelledWhileWaitingForAReader() async throws {
        let directory = try TemporaryDirectory()
        var configuration = Configuration()
        configuration.maximumReaderCount = 1
        let dbPool = try DatabasePool(path: directory.filePath(), configuration: configuration)
        try await dbPool.write { db in try setup(db) }

        // The only reader is busy until `release` is signalled.
        let busy = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let blockingRead = TestThreads.start {
            try dbPool.read { (_: Database) -> Void in
                busy.signal()
                release.wait()
            }
        }
        await TestThreads.wait(busy)

        let ran = Locked(false)
        let waiting = Task {
            try await dbPool.read { _ in ran.withLock { $0 = true } }
        }
        try await Task.sleep(nanoseconds: 50_000_000)
        waiting.cancel()
        // The waiting read gives up without the reader.
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(ran.withLock { $0 } == false)

        release.signal()
        try await blockingRead()
        #expect(try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
    }

    /// Many async accesses that wait for a busy connection hold no thread
    /// of Swift concurrency while they wait: a plain task still runs. This
    /// machine's cooperative pool has as many threads as cores (2 here), and
    /// 32 waiting accesses that each held one would starve it. A watchdog
    /// on a dispatch thread frees the connection after 60 s whatever
    /// happens, so that a failure fails instead of hanging (generous: the
    /// synchronous tests of the suite may hold the cooperative threads for
    /// a while). Checked by making the reads synchronous: the probe never
    /// runs.
    @Test(arguments: [WaitingAccess.poolRead, .poolWrite, .queueWrite])
    func waitingAccessesHoldNoCooperativeThread(_ access: WaitingAccess) async throws {
        let directory = try TemporaryDirectory()
        var configuration = Configuration()
        configuration.maximumReaderCount = 1
        let writer: any DatabaseWriter = access == .queueWrite
            ? try DatabaseQueue(path: directory.filePath(), configuration: configuration)
            : try DatabasePool(path: directory.filePath(), configuration: configuration)
        try await writer.write { db in try setup(db) }

        // The connection the accesses need is busy until `release`.
        let busy = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let blockingAccess = TestThreads.start {
            switch access {
            case .poolRead:
                try writer.read { (_: Database) -> Void in
                    busy.signal()
                    release.wait()
                }
            case .poolWrite, .queueWrite:
                writer.writeWithoutTransaction { (_: Database) -> Void in
                    busy.signal()
                    release.wait()
                }
            }
        }
        await TestThreads.wait(busy)

        let waitingCount = 32
        let waiting = (0..<waitingCount).map { _ in
            Task { () -> Int in
                switch access {
                case .poolRead:
                    return try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
                case .poolWrite, .queueWrite:
                    return try await writer.write { db in
                        try db.execute(sql: "INSERT INTO t VALUES (0)")
                        return 1
                    }
                }
            }
        }
        // The watchdog: waits for the probe, then frees the connection.
        let probeRan = DispatchSemaphore(value: 0)
        let probeRanInTime = Locked<Bool?>(nil)
        TestThreads.detach {
            let ranInTime = probeRan.wait(timeout: .now() + 60) == .success
            probeRanInTime.withLock { $0 = ranInTime }
            release.signal()
        }
        // Let the accesses reach their wait, then run a plain task.
        try await Task.sleep(nanoseconds: 100_000_000)
        Task { probeRan.signal() }

        var results: [Int] = []
        for task in waiting {
            results.append(try await task.value)
        }
        try await blockingAccess()
        #expect(probeRanInTime.withLock { $0 } == true)
        #expect(results.count == waitingCount)
        if access == .poolRead {
            #expect(results.allSatisfy { $0 == 2 })
        } else {
            #expect(try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2 + waitingCount)
        }
    }

    enum WaitingAccess: CaseIterable, Sendable {
        /// Reads of a pool whose only reader is busy.
        case poolRead
        /// Writes of a pool whose writer is busy.
        case poolWrite
        /// Writes of a queue whose connection is busy.
        case queueWrite
    }

    @Test func asyncBarrierWaitsForReadsAndHoldsNewOnes() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.filePath())
        try await dbPool.write { db in try setup(db) }
        let events = Locked<[String]>([])

        let busy = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let read = TestThreads.start {
            try dbPool.read { (_: Database) -> Void in
                busy.signal()
                release.wait()
                events.withLock { $0.append("read end") }
            }
        }
        await TestThreads.wait(busy)
        let barrier = Task {
            try await dbPool.barrierWriteWithoutTransaction { db in
                events.withLock { $0.append("barrier") }
                try db.execute(sql: "INSERT INTO t VALUES (3)")
            }
        }
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(events.withLock { $0 }.isEmpty)
        release.signal()
        try await read()
        try await barrier.value
        #expect(events.withLock { $0 } == ["read end", "barrier"])
        #expect(try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 3)
    }
}
