import Dispatch
import Foundation
import Testing
import Cairn

/// Shared observations, as in GRDB 7.8: when the database observation
/// starts and stops for each extent, what late subscribers get, and what
/// the printed events show.
@Suite struct GRDBValueObservationSharedTests {
    typealias Lines = GRDBValueObservationLifecycleTests.Lines

    let directory: TemporaryDirectory
    let queue = DispatchQueue(label: "GRDBValueObservationSharedTests")

    init() throws {
        directory = try TemporaryDirectory()
    }

    func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(path: directory.filePath("shared-\(UUID().uuidString).sqlite"))
        try dbQueue.write { db in
            try db.create(table: "lamp") { t in t.autoIncrementedPrimaryKey("id") }
        }
        return dbQueue
    }

    func insert(_ dbQueue: DatabaseQueue) throws {
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO lamp DEFAULT VALUES") }
    }

    static let started = ["start", "fetch", "tracked region: lamp(*)", "value: 0"]

    // MARK: - Immediate

    @Test func immediateObservationLifetime() async throws {
        try await TestThreads.start { [self] in
            let dbQueue = try makeQueue()
            let lines = Lines()
            var shared: SharedValueObservation<Int>? = ValueObservation
                .tracking(Table("lamp").fetchCount)
                .print(to: lines)
                .shared(in: dbQueue, scheduling: AnyThreadImmediateScheduler(), extent: .observationLifetime)
            #expect(lines.flush() == [])

            let first = Recorder<Int>()
            let cancellable1 = shared!.start(onError: first.receive(error:), onChange: first.receive)
            #expect(first.values == [0])
            #expect(lines.flush() == Self.started)
            cancellable1.cancel()
            #expect(lines.flush() == [])

            // The observation goes on without subscribers: the next one
            // gets the last value at once, without a fetch.
            let second = Recorder<Int>()
            let cancellable2 = shared!.start(onError: second.receive(error:), onChange: second.receive)
            #expect(second.values == [0])
            #expect(lines.flush() == [])
            cancellable2.cancel()
            #expect(lines.flush() == [])

            shared = nil
            #expect(lines.flush() == ["cancel"])
        }()
    }

    @Test(arguments: [SharedValueObservationExtent.observationLifetime, .whileObserved])
    func immediateSubscriptionFromTheInitialValue(extent: SharedValueObservationExtent) async throws {
        try await TestThreads.start { [self] in
            let dbQueue = try makeQueue()
            let lines = Lines()
            var shared: SharedValueObservation<Int>? = ValueObservation
                .tracking(Table("lamp").fetchCount)
                .print(to: lines)
                .shared(in: dbQueue, scheduling: AnyThreadImmediateScheduler(), extent: extent)
            let first = Recorder<Int>()
            let second = Recorder<Int>()
            let inner = Locked<AnyDatabaseCancellable?>(nil)
            let cancellable1 = withExtendedLifetime(shared) {
                shared!.start(onError: first.receive(error:), onChange: { [shared] value in
                    first.receive(value)
                    if inner.withLock({ $0 }) == nil {
                        let cancellable = shared!.start(onError: second.receive(error:), onChange: second.receive)
                        inner.withLock { $0 = cancellable }
                    }
                })
            }
            #expect(first.values == [0])
            #expect(second.values == [0])
            #expect(lines.flush() == Self.started)
            cancellable1.cancel()
            inner.withLock { $0 = nil }
            switch extent {
            case .observationLifetime:
                #expect(lines.flush() == [])
                shared = nil
                #expect(lines.flush() == ["cancel"])
            case .whileObserved:
                #expect(lines.flush() == ["cancel"])
                shared = nil
                #expect(lines.flush() == [])
            }
        }()
    }

    @Test func immediateWhileObserved() async throws {
        try await TestThreads.start { [self] in
            let dbQueue = try makeQueue()
            let lines = Lines()
            var shared: SharedValueObservation<Int>? = ValueObservation
                .tracking(Table("lamp").fetchCount)
                .print(to: lines)
                .shared(in: dbQueue, scheduling: AnyThreadImmediateScheduler(), extent: .whileObserved)
            #expect(lines.flush() == [])
            for _ in 0..<2 {
                // Each first subscription starts the observation, and its
                // cancellation stops it.
                let recorder = Recorder<Int>()
                let cancellable = shared!.start(onError: recorder.receive(error:), onChange: recorder.receive)
                #expect(recorder.values == [0])
                #expect(lines.flush() == Self.started)
                cancellable.cancel()
                #expect(lines.flush() == ["cancel"])
            }
            shared = nil
            #expect(lines.flush() == [])
        }()
    }

    // MARK: - Async

    /// Three subscriptions that overlap: each gets the last value first,
    /// then the values of later changes, fetched once.
    @Test(arguments: [SharedValueObservationExtent.observationLifetime, .whileObserved])
    func overlappingSubscriptions(extent: SharedValueObservationExtent) async throws {
        try await TestThreads.start { [self] in
            let dbQueue = try makeQueue()
            let lines = Lines()
            var shared: SharedValueObservation<Int>? = ValueObservation
                .tracking(Table("lamp").fetchCount)
                .print(to: lines)
                .shared(in: dbQueue, scheduling: .async(onQueue: queue), extent: extent)
            #expect(lines.flush() == [])

            let first = Recorder<Int>()
            let cancellable1 = shared!.start(onError: first.receive(error:), onChange: first.receive)
            #expect(first.wait { $0.count >= 1 })
            try insert(dbQueue)
            #expect(first.wait { $0 == [0, 1] })
            #expect(lines.flush() == Self.started + ["database did change", "fetch", "value: 1"])

            let second = Recorder<Int>()
            let cancellable2 = shared!.start(onError: second.receive(error:), onChange: second.receive)
            #expect(second.wait { $0.count >= 1 })
            try insert(dbQueue)
            #expect(first.wait { $0 == [0, 1, 2] })
            #expect(second.wait { $0 == [1, 2] })
            #expect(lines.flush() == ["database did change", "fetch", "value: 2"])

            cancellable1.cancel()
            #expect(lines.flush() == [])

            let third = Recorder<Int>()
            let cancellable3 = shared!.start(onError: third.receive(error:), onChange: third.receive)
            #expect(third.wait { $0.count >= 1 })
            try insert(dbQueue)
            #expect(second.wait { $0 == [1, 2, 3] })
            #expect(third.wait { $0 == [2, 3] })
            queue.sync { }
            #expect(first.values == [0, 1, 2])
            #expect(lines.flush() == ["database did change", "fetch", "value: 3"])

            cancellable2.cancel()
            #expect(lines.flush() == [])
            cancellable3.cancel()
            switch extent {
            case .observationLifetime:
                #expect(lines.flush() == [])
                shared = nil
                #expect(lines.flush() == ["cancel"])
            case .whileObserved:
                #expect(lines.flush() == ["cancel"])
                shared = nil
                #expect(lines.flush() == [])
            }
        }()
    }

    /// A shared observation released by its first value goes on for its
    /// subscription.
    @Test func releaseFromAValue() async throws {
        try await TestThreads.start { [self] in
            let dbQueue = try makeQueue()
            let lines = Lines()
            let shared = Locked<SharedValueObservation<Int>?>(ValueObservation
                .tracking(Table("lamp").fetchCount)
                .print(to: lines)
                .shared(in: dbQueue, scheduling: .async(onQueue: queue), extent: .observationLifetime))
            let recorder = Recorder<Int>()
            let logs = Locked<[[String]]>([])
            let cancellable = shared.withLock { $0! }.start(onError: recorder.receive(error:), onChange: { value in
                shared.withLock { $0 = nil }
                logs.withLock { $0.append(lines.flush()) }
                recorder.receive(value)
                if value < 2 {
                    try! dbQueue.write { db in try db.execute(sql: "INSERT INTO lamp DEFAULT VALUES") }
                }
            })
            #expect(recorder.wait { $0.count >= 3 })
            cancellable.cancel()
            #expect(recorder.values == [0, 1, 2])
            #expect(logs.withLock { $0 } == [
                Self.started,
                ["database did change", "fetch", "value: 1"],
                ["database did change", "fetch", "value: 2"],
            ])
            #expect(lines.flush() == ["cancel"])
        }()
    }

    // MARK: - Errors

    struct Blackout: Error { }

    /// After an error, delivered to every subscriber: a `.whileObserved`
    /// observation starts again with the next subscriber; an
    /// `.observationLifetime` one gives it the error, without a fetch.
    @Test(arguments: [SharedValueObservationExtent.observationLifetime, .whileObserved])
    func recoveryAfterAnError(extent: SharedValueObservationExtent) async throws {
        try await TestThreads.start { [self] in
            let dbQueue = try makeQueue()
            let lines = Lines()
            let failing = Locked(false)
            let shared = ValueObservation
                .tracking { db -> Int in
                    if failing.withLock({ $0 }) { throw Blackout() }
                    return try Table("lamp").fetchCount(db)
                }
                .print(to: lines)
                .shared(in: dbQueue, scheduling: .async(onQueue: queue), extent: extent)

            let first = Recorder<Int>()
            let second = Recorder<Int>()
            let c1 = shared.start(onError: first.receive(error:), onChange: first.receive)
            let c2 = shared.start(onError: second.receive(error:), onChange: second.receive)
            #expect(first.wait { $0 == [0] })
            #expect(second.wait { $0 == [0] })
            failing.withLock { $0 = true }
            try insert(dbQueue)
            #expect(first.waitForError() is Blackout)
            #expect(second.waitForError() is Blackout)
            queue.sync { }
            #expect(lines.flush() == Self.started + ["database did change", "fetch", "failure: Blackout()"])

            let third = Recorder<Int>()
            let c3 = shared.start(onError: third.receive(error:), onChange: third.receive)
            #expect(third.waitForError() is Blackout)
            queue.sync { }
            switch extent {
            case .observationLifetime:
                #expect(lines.flush() == [])
            case .whileObserved:
                #expect(lines.flush() == ["start", "fetch", "failure: Blackout()"])
            }

            failing.withLock { $0 = false }
            let fourth = Recorder<Int>()
            let c4 = shared.start(onError: fourth.receive(error:), onChange: fourth.receive)
            switch extent {
            case .observationLifetime:
                #expect(fourth.waitForError() is Blackout)
                queue.sync { }
                #expect(fourth.values.isEmpty)
                #expect(lines.flush() == [])
            case .whileObserved:
                #expect(fourth.wait { $0 == [1] })
                #expect(lines.flush() == ["start", "fetch", "tracked region: lamp(*)", "value: 1"])
            }
            #expect(first.errors.count == 1 && second.errors.count == 1)
            withExtendedLifetime((c1, c2, c3, c4)) { }
        }()
    }

    /// The async values of a shared observation start with its current
    /// value.
    @Test func asyncValuesStartWithTheCurrentValue() async throws {
        let dbQueue = try makeQueue()
        let shared = ValueObservation
            .tracking(Table("lamp").fetchCount)
            .shared(in: dbQueue, scheduling: .async(onQueue: queue))
        for try await value in shared.values() {
            #expect(value == 0)
            break
        }
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO lamp DEFAULT VALUES") }
        for try await value in shared.values() {
            #expect(value == 1)
            break
        }
    }
}
