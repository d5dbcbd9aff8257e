import Dispatch
import Foundation
import Testing
import Cairn

/// How a ValueObservation starts, what it tracks, and how it ends, as in
/// GRDB 7.8: the initial fetches of a pool, explicit regions, views and
/// pragma tables left out of the tracked region, cancellation from a value,
/// the end of async sequences.
@Suite struct GRDBValueObservationLifecycleTests {
    let directory: TemporaryDirectory
    let queue = DispatchQueue(label: "GRDBValueObservationLifecycleTests")

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// A text stream that keeps its lines.
    final class Lines: TextOutputStream, @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func write(_ string: String) { lock.withLock { lines.append(string) } }
        /// Returns the lines written since the last flush, and keeps them.
        func peek() -> [String] { lock.withLock { lines } }
        /// Returns the lines written since the last call.
        func flush() -> [String] {
            lock.withLock {
                defer { lines = [] }
                return lines
            }
        }
    }

    func makePool() throws -> DatabasePool {
        let dbPool = try DatabasePool(path: directory.filePath("pool-\(UUID().uuidString).sqlite"))
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE crate(id INTEGER PRIMARY KEY AUTOINCREMENT)") }
        return dbPool
    }

    // MARK: - Initial fetches of a pool

    /// A write between the initial read of a pool and the start of the
    /// tracking gives a second initial value, even an equal one.
    @Test(arguments: [false, true])
    func writeDuringTheInitialFetchOfAPool(immediate: Bool) async throws {
        try await TestThreads.start { [self] in try self.writeDuringTheInitialFetchOfAPoolOnThread(immediate: immediate) }()
    }

    func writeDuringTheInitialFetchOfAPoolOnThread(immediate: Bool) throws {
        let dbPool = try makePool()
        let firstFetch = Locked(true)
        let observation = ValueObservation.trackingConstantRegion { db -> Int in
            if firstFetch.withLock({ first in defer { first = false }; return first }) {
                try dbPool.write { db in
                    try db.execute(sql: "INSERT INTO crate DEFAULT VALUES; DELETE FROM crate")
                }
            }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM crate")!
        }
        let recorder = Recorder<Int>()
        let cancellable: AnyDatabaseCancellable
        if immediate {
            cancellable = observation.start(
                in: dbPool, scheduling: AnyThreadImmediateScheduler(),
                onError: recorder.receive(error:), onChange: recorder.receive)
        } else {
            cancellable = observation.start(
                in: dbPool, scheduling: .async(onQueue: queue),
                onError: recorder.receive(error:), onChange: recorder.receive)
        }
        #expect(recorder.wait { $0.count >= 2 })
        Thread.sleep(forTimeInterval: 0.1)
        #expect(recorder.values == [0, 0])
        cancellable.cancel()
    }

    /// Without a write between the initial read and the start of the
    /// tracking, a pool fetches its initial value once.
    @Test(arguments: [false, true])
    func noWriteDuringTheInitialFetchOfAPool(immediate: Bool) async throws {
        try await TestThreads.start { [self] in try self.noWriteDuringTheInitialFetchOfAPoolOnThread(immediate: immediate) }()
    }

    func noWriteDuringTheInitialFetchOfAPoolOnThread(immediate: Bool) throws {
        let dbPool = try makePool()
        let firstFetch = Locked(true)
        let observation = ValueObservation.trackingConstantRegion { db -> Int in
            if firstFetch.withLock({ first in defer { first = false }; return first }) {
                TestThreads.detach {
                    Thread.sleep(forTimeInterval: 0.3)
                    try! dbPool.write { db in try db.execute(sql: "INSERT INTO crate DEFAULT VALUES") }
                }
            }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM crate")!
        }
        let recorder = Recorder<Int>()
        let cancellable: AnyDatabaseCancellable
        if immediate {
            cancellable = observation.start(
                in: dbPool, scheduling: AnyThreadImmediateScheduler(),
                onError: recorder.receive(error:), onChange: recorder.receive)
        } else {
            cancellable = observation.start(
                in: dbPool, scheduling: .async(onQueue: queue),
                onError: recorder.receive(error:), onChange: recorder.receive)
        }
        #expect(recorder.wait { $0.last == 1 })
        Thread.sleep(forTimeInterval: 0.1)
        #expect(recorder.values == [0, 1])
        cancellable.cancel()
    }

    /// The printed events of a pool whose initial fetch writes: the initial
    /// value, then the change, the second fetch, and the tracked region,
    /// told once the observer is added, before the second value. (Only
    /// the immediate start reads its initial value before the writer adds
    /// the observer, as GRDB does.)
    @Test(arguments: [true])
    func printedEventsOfAWriteDuringTheInitialFetch(immediate: Bool) async throws {
        try await TestThreads.start { [self] in
            try self.printedEventsOfAWriteDuringTheInitialFetchOnThread(immediate: immediate)
        }()
    }

    func printedEventsOfAWriteDuringTheInitialFetchOnThread(immediate: Bool) throws {
        let dbPool = try makePool()
        let region = try dbPool.read { db in
            try db.makeStatement(sql: "SELECT MAX(id) FROM crate").databaseRegion.description
        }
        let lines = Lines()
        let firstFetch = Locked(true)
        let observation = ValueObservation
            .trackingConstantRegion { db -> Int? in
                if firstFetch.withLock({ first in defer { first = false }; return first }) {
                    try dbPool.write { db in
                        try db.execute(sql: "INSERT INTO crate DEFAULT VALUES; DELETE FROM crate")
                    }
                }
                return try Int.fetchOne(db, sql: "SELECT MAX(id) FROM crate")
            }
            .print(to: lines)
        let recorder = Recorder<Int?>()
        let cancellable: AnyDatabaseCancellable
        if immediate {
            cancellable = observation.start(
                in: dbPool, scheduling: AnyThreadImmediateScheduler(),
                onError: recorder.receive(error:), onChange: recorder.receive)
        } else {
            cancellable = observation.start(
                in: dbPool, scheduling: .async(onQueue: queue),
                onError: recorder.receive(error:), onChange: recorder.receive)
        }
        #expect(recorder.wait { $0.count >= 2 })
        Thread.sleep(forTimeInterval: 0.1)
        #expect(lines.flush() == [
            "start", "fetch", "value: nil",
            "database did change", "fetch", "tracked region: \(region)", "value: nil",
        ])
        cancellable.cancel()
    }

    /// Without a write during the initial fetch, a pool tells the tracked
    /// region once the observer is added, after the initial value.
    @Test(arguments: [true])
    func printedEventsOfAPoolStart(immediate: Bool) async throws {
        try await TestThreads.start { [self] in
            try self.printedEventsOfAPoolStartOnThread(immediate: immediate)
        }()
    }

    func printedEventsOfAPoolStartOnThread(immediate: Bool) throws {
        let dbPool = try makePool()
        let lines = Lines()
        let observation = ValueObservation
            .trackingConstantRegion(Table("crate").fetchCount)
            .print(to: lines)
        let recorder = Recorder<Int>()
        let cancellable: AnyDatabaseCancellable
        if immediate {
            cancellable = observation.start(
                in: dbPool, scheduling: AnyThreadImmediateScheduler(),
                onError: recorder.receive(error:), onChange: recorder.receive)
        } else {
            cancellable = observation.start(
                in: dbPool, scheduling: .async(onQueue: queue),
                onError: recorder.receive(error:), onChange: recorder.receive)
        }
        #expect(recorder.wait { $0.count >= 1 })
        // The region is told by the read that follows the addition of the
        // observer; a write after it gives the next value.
        for _ in 0..<500 where lines.peek().count < 4 {
            Thread.sleep(forTimeInterval: 0.01)
        }
        try dbPool.write { db in try db.execute(sql: "INSERT INTO crate DEFAULT VALUES") }
        #expect(recorder.wait { $0.last == 1 })
        Thread.sleep(forTimeInterval: 0.1)
        #expect(lines.flush() == [
            "start", "fetch", "value: 0", "tracked region: crate(*)",
            "database did change", "fetch", "value: 1",
        ])
        cancellable.cancel()
    }

    /// An observation can deliver snapshot pools, each on the state of its
    /// fetch.
    @Test func observedSnapshotPools() async throws {
        try await TestThreads.start { [self] in try self.observedSnapshotPoolsOnThread() }()
    }

    func observedSnapshotPoolsOnThread() throws {
        let dbPool = try makePool()
        let recorder = Recorder<DatabaseSnapshotPool>()
        let cancellable = ValueObservation
            .trackingConstantRegion { db -> DatabaseSnapshotPool in
                try db.registerAccess(to: Table("crate"))
                return try DatabaseSnapshotPool(db)
            }
            .start(in: dbPool, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0.count >= 1 })
        try dbPool.write { db in try db.execute(sql: "INSERT INTO crate DEFAULT VALUES") }
        #expect(recorder.wait { $0.count >= 2 })
        let counts = try recorder.values.map { snapshot in
            try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM crate")! }
        }
        #expect(counts == [0, 1])
        #expect(recorder.errors.isEmpty)
        cancellable.cancel()
    }

    /// An immediate observation of a pool sees a table created after an
    /// earlier read of the pool.
    @Test func immediateValueSeesATableCreatedAfterARead() async throws {
        try await TestThreads.start { [self] in try self.immediateValueSeesATableCreatedAfterAReadOnThread() }()
    }

    func immediateValueSeesATableCreatedAfterAReadOnThread() throws {
        let dbPool = try DatabasePool(path: directory.filePath("created.sqlite"))
        #expect(try dbPool.read { db in try db.tableExists("late") } == false)
        try dbPool.write { db in try db.create(table: "late") { t in t.column("a") } }
        let recorder = Recorder<Bool>()
        let cancellable = ValueObservation
            .trackingConstantRegion { db in try db.tableExists("late") }
            .start(in: dbPool, scheduling: AnyThreadImmediateScheduler(), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.values == [true])
        #expect(recorder.errors.isEmpty)
        cancellable.cancel()
    }

    // MARK: - Explicit regions

    func explicitRegionLog(
        regions: [any DatabaseRegionConvertible],
        expectedCount: Int) throws -> [String]
    {
        let dbQueue = try DatabaseQueue(path: directory.filePath("explicit-\(UUID().uuidString).sqlite"))
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE crate(id INTEGER PRIMARY KEY AUTOINCREMENT);
                CREATE TABLE label(id INTEGER PRIMARY KEY AUTOINCREMENT);
                """)
        }
        let lines = Lines()
        let recorder = Recorder<Int>()
        let cancellable = ValueObservation
            .tracking(regions: regions, fetch: Table("crate").fetchCount)
            .print(to: lines)
            .start(in: dbQueue, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0.count >= 1 })
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: """
                INSERT INTO label DEFAULT VALUES;
                INSERT INTO crate DEFAULT VALUES;
                """)
        }
        #expect(recorder.wait { $0.count >= expectedCount })
        Thread.sleep(forTimeInterval: 0.05)
        queue.sync { }
        cancellable.cancel()
        return lines.flush().filter { $0 != "cancel" }
    }

    /// An explicit region is tracked as given, whatever the fetch reads.
    @Test func explicitRegionsAreTrackedAsGiven() async throws {
        try await TestThreads.start { [self] in try self.explicitRegionsAreTrackedAsGivenOnThread() }()
    }

    func explicitRegionsAreTrackedAsGivenOnThread() throws {
        #expect(try explicitRegionLog(regions: [Table("crate")], expectedCount: 2) == [
            "start", "fetch", "tracked region: crate(*)", "value: 0",
            "database did change", "fetch", "value: 1",
        ])
        #expect(try explicitRegionLog(regions: [Table("label")], expectedCount: 2) == [
            "start", "fetch", "tracked region: label(*)", "value: 0",
            "database did change", "fetch", "value: 0",
        ])
        #expect(try explicitRegionLog(regions: [Table("crate"), Table("label")], expectedCount: 3) == [
            "start", "fetch", "tracked region: crate(*),label(*)", "value: 0",
            "database did change", "fetch", "value: 0",
            "database did change", "fetch", "value: 1",
        ])
    }

    // MARK: - Tracked regions

    func trackedRegion<T: Sendable>(_ dbQueue: DatabaseQueue, _ fetch: @escaping @Sendable (Database) throws -> T) throws -> String? {
        let region = Locked<String?>(nil)
        let recorder = Recorder<T>()
        let cancellable = ValueObservation
            .trackingConstantRegion(fetch)
            .handleEvents(willTrackRegion: { tracked in region.withLock { $0 = tracked.description } })
            .start(in: dbQueue, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0.count >= 1 })
        cancellable.cancel()
        return region.withLock { $0 }
    }

    /// A view is not tracked: the tables it reads are.
    @Test func viewsAreNotTracked() async throws {
        try await TestThreads.start { [self] in try self.viewsAreNotTrackedOnThread() }()
    }

    func viewsAreNotTrackedOnThread() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE crate(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);
                CREATE VIEW crateView AS SELECT * FROM crate
                """)
        }
        let request = SQLRequest<Row>(sql: "SELECT name FROM crateView ORDER BY id")
        #expect(try dbQueue.read { db in try request.databaseRegion(db).description } == "crate(id,name),crateView(id,name)")
        #expect(try trackedRegion(dbQueue) { db in try request.fetchAll(db).count } == "crate(id,name)")
    }

    /// The pragma tables that the query interface reads to know a primary
    /// key are not tracked.
    @Test func pragmaTablesAreNotTracked() async throws {
        try await TestThreads.start { [self] in try self.pragmaTablesAreNotTrackedOnThread() }()
    }

    func pragmaTablesAreNotTrackedOnThread() throws {
        struct Crate: TableRecord { }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE crate(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT)")
        }
        let request = Crate.filter(key: 1).asRequest(of: Row.self)
        #expect(try trackedRegion(dbQueue) { db in try request.fetchAll(db).count } == "crate(id,name)[1]")
    }

    // MARK: - Changes that SQLite does not report

    /// A change by another connection is not seen, until a change
    /// notification of the observed writer.
    @Test func changesOfOtherConnectionsNeedANotification() async throws {
        try await TestThreads.start { [self] in try self.changesOfOtherConnectionsNeedANotificationOnThread() }()
    }

    func changesOfOtherConnectionsNeedANotificationOnThread() throws {
        let path = directory.filePath("shared.sqlite")
        let dbQueue1 = try DatabaseQueue(path: path)
        try dbQueue1.write { db in try db.execute(sql: "CREATE TABLE crate(a)") }
        let recorder = Recorder<Int>()
        let cancellable = ValueObservation
            .tracking { db in try Table("crate").fetchCount(db) }
            .start(in: dbQueue1, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0.count >= 1 })
        let dbQueue2 = try DatabaseQueue(path: path)
        try dbQueue2.write { db in try db.execute(sql: "INSERT INTO crate (a) VALUES (1)") }
        Thread.sleep(forTimeInterval: 0.2)
        queue.sync { }
        #expect(recorder.values == [0])
        try dbQueue1.write { db in try db.notifyChanges(in: Table("crate")) }
        #expect(recorder.wait { $0.count >= 2 })
        #expect(recorder.values == [0, 1])
        cancellable.cancel()
    }

    // MARK: - Cancellation

    /// A cancellation from the delivery of the second value stops the
    /// values, also when it releases the cancellable instead.
    @Test(arguments: [false, true])
    func cancellationFromAValue(byRelease: Bool) async throws {
        try await TestThreads.start { [self] in try self.cancellationFromAValueOnThread(byRelease: byRelease) }()
    }

    func cancellationFromAValueOnThread(byRelease: Bool) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE crate(id INTEGER PRIMARY KEY AUTOINCREMENT)") }
        let recorder = Recorder<Int?>()
        let box = Locked<AnyDatabaseCancellable?>(nil)
        let delivered = Locked(0)
        // Deliveries wait until both writes are done: the third value is
        // scheduled when the second one cancels.
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        // The box holds the only reference to the cancellable.
        box.withLock { $0 = ValueObservation
            .trackingConstantRegion { try Int.fetchOne($0, sql: "SELECT MAX(id) FROM crate") }
            .start(in: dbQueue, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: { value in
                recorder.receive(value)
                if delivered.withLock({ $0 += 1; return $0 }) == 2 {
                    let cancellable = box.withLock { box in defer { box = nil }; return box }
                    if !byRelease { cancellable?.cancel() }
                }
            })
        }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO crate DEFAULT VALUES") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO crate DEFAULT VALUES") }
        gate.signal()
        #expect(recorder.wait { $0.count >= 2 })
        Thread.sleep(forTimeInterval: 0.1)
        queue.sync { }
        #expect(recorder.values == [nil, 1])
    }

    // MARK: - Async sequences

    func makeCrates() async throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(path: directory.filePath("async-\(UUID().uuidString).sqlite"))
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE crate(id INTEGER PRIMARY KEY AUTOINCREMENT)") }
        return dbQueue
    }

    /// Waits until `flag` is set, for 10 seconds at most.
    func waitUntil(_ flag: Locked<Bool>) async throws -> Bool {
        for _ in 0..<1000 where !flag.withLock({ $0 }) {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        return flag.withLock { $0 }
    }

    /// A loop that breaks out of the sequence cancels the observation.
    @Test func breakingOutOfTheLoopCancelsTheObservation() async throws {
        let dbQueue = try await makeCrates()
        let cancelled = Locked(false)
        let observation = ValueObservation
            .trackingConstantRegion(Table("crate").fetchCount)
            .handleEvents(didCancel: { cancelled.withLock { $0 = true } })
        var counts: [Int] = []
        for try await count in observation.values(in: dbQueue) {
            counts.append(count)
            if count >= 3 { break }
            try await dbQueue.write { db in try db.execute(sql: "INSERT INTO crate DEFAULT VALUES") }
        }
        #expect(counts == [0, 1, 2, 3])
        #expect(try await waitUntil(cancelled))
    }

    /// `prefix(while:)` ends the loop and cancels the observation.
    @Test func prefixCancelsTheObservation() async throws {
        let dbQueue = try await makeCrates()
        let cancelled = Locked(false)
        let observation = ValueObservation
            .trackingConstantRegion(Table("crate").fetchCount)
            .handleEvents(didCancel: { cancelled.withLock { $0 = true } })
        var counts: [Int] = []
        for try await count in try observation.values(in: dbQueue).prefix(while: { $0 <= 2 }) {
            counts.append(count)
            try await dbQueue.write { db in try db.execute(sql: "INSERT INTO crate DEFAULT VALUES") }
        }
        #expect(counts == [0, 1, 2])
        #expect(try await waitUntil(cancelled))
    }

    /// Cancelling the task of a loop ends the loop without an error, and
    /// cancels the observation.
    @Test func cancellingTheTaskEndsTheLoopQuietly() async throws {
        let dbQueue = try await makeCrates()
        let cancelled = Locked(false)
        let first = Locked(false)
        let loop = Task<String, any Error> {
            let observation = ValueObservation
                .trackingConstantRegion(Table("crate").fetchCount)
                .handleEvents(didCancel: { cancelled.withLock { $0 = true } })
            for try await _ in observation.values(in: dbQueue) {
                first.withLock { $0 = true }
            }
            return "ended"
        }
        #expect(try await waitUntil(first))
        loop.cancel()
        #expect(try await loop.value == "ended")
        #expect(try await waitUntil(cancelled))
    }

    /// A fetch error ends the loop with the error.
    @Test func fetchErrorsEndTheLoop() async throws {
        let dbQueue = try await makeCrates()
        let observation = ValueObservation.trackingConstantRegion { db -> Int in
            let count = try Table("crate").fetchCount(db)
            if count == 1 { throw ObservationTestError() }
            return count
        }
        var counts: [Int] = []
        await #expect(throws: ObservationTestError.self) {
            for try await count in observation.values(in: dbQueue) {
                counts.append(count)
                try await dbQueue.write { db in try db.execute(sql: "INSERT INTO crate DEFAULT VALUES") }
            }
        }
        #expect(counts == [0])
    }
}
