import Dispatch
import Foundation
import Testing
import Cairn

/// Marks the dispatch queue that a test delivers values on.
let schedulingTestQueueKey = DispatchSpecificKey<Bool>()

/// The events of `handleEvents`, in the order they happen.
final class ObservationEventLog: Sendable {
    private let events = Locked<[String]>([])

    var all: [String] { events.withLock { $0 } }

    func append(_ event: String) {
        events.withLock { $0.append(event) }
    }

    /// The observation with its events recorded here.
    func recording<R>(_ observation: ValueObservation<R>) -> ValueObservation<ValueReducers.Trace<R>>
    where R.Value: Sendable {
        observation.handleEvents(
            willStart: { self.append("start") },
            willFetch: { self.append("fetch") },
            willTrackRegion: { _ in self.append("region") },
            databaseDidChange: { self.append("change") },
            didReceiveValue: { self.append("value \($0)") },
            didFail: { _ in self.append("fail") },
            didCancel: { self.append("cancel") })
    }
}

/// Polls `condition` until it holds, for at most 60 seconds (a loaded
/// machine, or a sanitizer, may starve the cooperative pool), without
/// blocking the main actor (values delivered on the main actor arrive
/// meanwhile).
@MainActor
func eventually(_ condition: @MainActor () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(60)
    while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(nanoseconds: 5_000_000)
    }
    return true
}

/// Polls `condition` until it holds, for at most 60 seconds (a loaded
/// machine, or a sanitizer, may starve the cooperative pool), without
/// blocking a thread of the cooperative pool.
func eventuallyInTask(_ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(60)
    while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(nanoseconds: 5_000_000)
    }
    return true
}

/// Where and when observations deliver their values, with each scheduler,
/// as in GRDB 7.8.
@Suite struct GRDBObservationSchedulingTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func makeWriter(_ kind: WriterKind, configuration: Configuration = Configuration()) throws -> any DatabaseWriter {
        let writer = try kind.make(path: directory.filePath(), configuration: configuration)
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL DEFAULT 0)")
        }
        return writer
    }

    func insert(_ writer: any DatabaseWriter) throws {
        try writer.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
    }

    static func count() -> ValueObservation<ValueReducers.Fetch<Int>> {
        ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
    }

    func makeQueue() -> DispatchQueue {
        let queue = DispatchQueue(label: "GRDBObservationSchedulingTests")
        queue.setSpecific(key: schedulingTestQueueKey, value: true)
        return queue
    }

    // MARK: .async(onQueue:)

    /// The initial value is never delivered before `start` returns, and
    /// all values arrive on the queue; a database queue delivers one value
    /// per transaction, a pool may coalesce them, never out of order.
    @Test(arguments: WriterKind.allCases)
    func asyncSchedulerDeliversOnTheQueue(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let queue = makeQueue()
        let recorder = Recorder<Int>()
        let onQueue = Locked<[Bool]>([])
        // Started from the delivery queue itself: a synchronous delivery
        // would show before start returns.
        let cancellable = queue.sync {
            let cancellable = Self.count().start(
                in: writer, scheduling: .async(onQueue: queue),
                onError: recorder.receive(error:),
                onChange: { value in
                    onQueue.withLock { $0.append(DispatchQueue.getSpecific(key: schedulingTestQueueKey) == true) }
                    recorder.receive(value)
                })
            #expect(recorder.values.isEmpty)
            return cancellable
        }
        #expect(recorder.wait { $0 == [0] })
        try insert(writer)
        try insert(writer)
        #expect(recorder.wait { $0.last == 2 })
        let values = recorder.values
        switch kind {
        case .queue: #expect(values == [0, 1, 2])
        case .pool: #expect(values.first == 0 && zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
        }
        #expect(onQueue.withLock { $0 }.allSatisfy { $0 })
        #expect(recorder.errors.isEmpty)
        withExtendedLifetime(cancellable) { }
    }

    // MARK: .immediate, .mainActor

    /// `.immediate`: the initial value before `start` returns, the later
    /// ones asynchronously on the main actor, never inside the write.
    @Test(arguments: WriterKind.allCases) @MainActor
    func immediateSchedulerDeliversTheInitialValueSynchronously(kind: WriterKind) async throws {
        let writer = try makeWriter(kind)
        var values: [Int] = []
        let cancellable = Self.count().start(in: writer, scheduling: .immediate) { error in
            Issue.record(error)
        } onChange: { value in
            values.append(value)
        }
        #expect(values == [0])
        try insert(writer)
        // The main actor is busy here: the value waits for it.
        #expect(values == [0])
        #expect(await eventually { values == [0, 1] })
        withExtendedLifetime(cancellable) { }
    }

    /// `.mainActor` (the default of the main-actor start): all values
    /// asynchronously, on the main actor.
    @Test(arguments: WriterKind.allCases) @MainActor
    func mainActorSchedulerDeliversAsynchronously(kind: WriterKind) async throws {
        let writer = try makeWriter(kind)
        var values: [Int] = []
        let cancellable = Self.count().start(in: writer) { error in
            Issue.record(error)
        } onChange: { value in
            values.append(value)
        }
        #expect(values.isEmpty)
        #expect(await eventually { values == [0] })
        try insert(writer)
        #expect(values == [0])
        #expect(await eventually { values == [0, 1] })
        withExtendedLifetime(cancellable) { }
    }

    /// An immediate initial value from the main actor that fails: the
    /// error before `start` returns, and nothing afterwards.
    @Test(arguments: WriterKind.allCases) @MainActor
    func immediateInitialErrorIsSynchronous(kind: WriterKind) async throws {
        let writer = try makeWriter(kind)
        var errors: [any Error] = []
        let cancellable = ValueObservation
            .tracking { db -> Int in throw ObservationTestError() }
            .start(in: writer, scheduling: .immediate) { error in
                errors.append(error)
            } onChange: { _ in
                Issue.record("unexpected value")
            }
        #expect(errors.count == 1)
        #expect(errors.first is ObservationTestError)
        try insert(writer)
        try await writer.read { _ in }
        withExtendedLifetime(cancellable) { }
        #expect(errors.count == 1)
    }

    // MARK: Custom schedulers, .task

    /// A custom scheduler that wants the initial value at once gets it on
    /// the calling thread, from any thread; the others go through its
    /// `schedule`.
    @Test(arguments: WriterKind.allCases)
    func customImmediateScheduler(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let recorder = Recorder<Int>()
        let cancellable = Self.count().start(
            in: writer, scheduling: AnyThreadImmediateScheduler(),
            onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.values == [0])
        try insert(writer)
        #expect(recorder.wait { $0 == [0, 1] })
        withExtendedLifetime(cancellable) { }
    }

    /// `.task` delivers in order, asynchronously, in a task: the test
    /// waits without blocking a thread of the cooperative pool.
    @Test(arguments: WriterKind.allCases)
    func taskScheduler(kind: WriterKind) async throws {
        let writer = try makeWriter(kind)
        let recorder = Recorder<Int>()
        let cancellable = Self.count().start(
            in: writer, scheduling: .task, onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(await eventuallyInTask { recorder.values == [0] }, "\(recorder.values) \(recorder.errors)")
        try insert(writer)
        #expect(await eventuallyInTask { recorder.values.last == 1 })
        #expect(recorder.values == [0, 1])
        withExtendedLifetime(cancellable) { }
    }
}

// MARK: - Operators

extension GRDBObservationSchedulingTests {
    /// A transaction that leaves the value as it was delivers nothing after
    /// `removeDuplicates()`; `map` runs before.
    @Test(arguments: WriterKind.allCases)
    func removeDuplicatesAfterMap(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let queue = makeQueue()
        let recorder = Recorder<String>()
        let cancellable = Self.count()
            .map { "\($0 / 2)" }
            .removeDuplicates()
            .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0 == ["0"] })
        try insert(writer) // 1 -> "0"
        try writer.write { db in try db.execute(sql: "UPDATE t SET v = v + 1") }
        try insert(writer) // 2 -> "1"
        #expect(recorder.wait { $0.last == "1" })
        #expect(recorder.values == ["0", "1"])
        withExtendedLifetime(cancellable) { }
    }

    /// The events of an observation on a database queue, in GRDB's order:
    /// the region is known after the first fetch, the value is received
    /// before it is delivered.
    @Test func eventsOfADatabaseQueue() throws {
        let writer = try makeWriter(.queue)
        let queue = makeQueue()
        let log = ObservationEventLog()
        let recorder = Recorder<Int>()
        let cancellable = log.recording(Self.count())
            .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0 == [0] })
        #expect(log.all == ["start", "fetch", "region", "value 0"])
        try insert(writer)
        #expect(recorder.wait { $0 == [0, 1] })
        #expect(log.all == ["start", "fetch", "region", "value 0", "change", "fetch", "value 1"])
        cancellable.cancel()
        #expect(log.all.last == "cancel")
    }

    /// `requiresWriteAccess`: the fetch may write, on the writer, in a
    /// savepoint that commits; on a pool too.
    @Test(arguments: WriterKind.allCases)
    func requiresWriteAccess(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        try writer.write { db in try db.execute(sql: "CREATE TABLE log (id INTEGER PRIMARY KEY)") }
        var observation = ValueObservation.trackingConstantRegion { db -> Int in
            try db.execute(sql: "INSERT INTO log DEFAULT VALUES")
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
        }
        observation.requiresWriteAccess = true
        let recorder = Recorder<Int>()
        let cancellable = observation.start(
            in: writer, scheduling: .async(onQueue: makeQueue()),
            onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0 == [0] })
        try insert(writer)
        #expect(recorder.wait { $0 == [0, 1] })
        #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM log") } == 2)
        #expect(recorder.errors.isEmpty)
        withExtendedLifetime(cancellable) { }
    }
}
