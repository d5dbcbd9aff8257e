import Dispatch
import Foundation
import Testing
import Cairn

/// Shared observations and async sequences, as in GRDB 7.8.
@Suite struct GRDBSharedObservationSchedulingTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func makeWriter() throws -> any DatabaseWriter {
        let writer = try DatabaseQueue(path: directory.filePath())
        try writer.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        return writer
    }

    /// After its error, a `.whileObserved` observation starts again with
    /// the next subscription; an `.observationLifetime` one gives it the
    /// error.
    @Test(arguments: [SharedValueObservationExtent.whileObserved, .observationLifetime])
    func subscriptionAfterAnError(extent: SharedValueObservationExtent) throws {
        let writer = try makeWriter()
        let shared = ValueObservation
            .tracking { db -> Int in
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
                if count == 1 { throw ObservationTestError() }
                return count
            }
            .shared(in: writer, scheduling: AnyThreadImmediateScheduler(), extent: extent)
        let first = Recorder<Int>()
        let c1 = shared.start(onError: first.receive(error:), onChange: first.receive)
        #expect(first.values == [0])
        try writer.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        #expect(first.waitForError() is ObservationTestError)
        try writer.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        let second = Recorder<Int>()
        let c2 = shared.start(onError: second.receive(error:), onChange: second.receive)
        switch extent {
        case .whileObserved:
            #expect(second.values == [2])
            #expect(second.errors.isEmpty)
        case .observationLifetime:
            #expect(second.values.isEmpty)
            #expect(second.errors.first is ObservationTestError)
        }
        withExtendedLifetime((c1, c2)) { }
    }

    /// Subscriptions that start at once, from several threads, share one
    /// database observation, and each gets one initial value.
    @Test func concurrentSubscriptionsShareOneObservation() throws {
        let writer = try makeWriter()
        let starts = Locked(0)
        let shared = GRDBObservationSchedulingTests.count()
            .handleEvents(willStart: { starts.withLock { $0 += 1 } })
            .shared(in: writer, scheduling: .async(onQueue: DispatchQueue(label: "shared")))
        let recorders = (0..<8).map { _ in Recorder<Int>() }
        let cancellables = Locked<[AnyDatabaseCancellable]>([])
        TestThreads.concurrentPerform(iterations: 8) { index in
            let c = shared.start(onError: recorders[index].receive(error:), onChange: recorders[index].receive)
            cancellables.withLock { $0.append(c) }
        }
        for recorder in recorders {
            #expect(recorder.wait { $0 == [0] })
        }
        try writer.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        for recorder in recorders {
            #expect(recorder.wait { $0 == [0, 1] })
        }
        #expect(starts.withLock { $0 } == 1)
    }

    /// With `.bufferingNewest(1)`, a loop that is late gets the latest
    /// value only.
    @Test func valuesKeepTheNewestValue() async throws {
        let writer = try makeWriter()
        let queue = DispatchQueue(label: "values")
        let fetched = Recorder<Int>()
        let values = GRDBObservationSchedulingTests.count()
            .handleEvents(didReceiveValue: { fetched.receive($0) })
            .values(in: writer, scheduling: .async(onQueue: queue), bufferingPolicy: .bufferingNewest(1))
        var iterator = values.makeAsyncIterator()
        #expect(try await iterator.next() == 0)
        for _ in 0..<3 {
            try await writer.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        }
        #expect(await eventuallyInTask { fetched.values.last == 3 })
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        #expect(try await iterator.next() == 3)
    }

    /// Cancelling the task of a loop cancels the observation, and ends the
    /// loop without an error.
    @Test func cancellingTheLoopCancelsTheObservation() async throws {
        let writer = try makeWriter()
        let log = ObservationEventLog()
        let received = Recorder<Int>()
        let task = Task {
            for try await value in log.recording(GRDBObservationSchedulingTests.count()).values(in: writer) {
                received.receive(value)
            }
            return "ended"
        }
        #expect(await eventuallyInTask { received.values == [0] }, "\(received.values) \(log.all)")
        task.cancel()
        #expect(try await task.value == "ended")
        #expect(await eventuallyInTask { log.all.last == "cancel" })
    }

    /// The error of the observation ends the loop with that error.
    @Test func loopsThrowTheError() async throws {
        let writer = try makeWriter()
        let values = ValueObservation.tracking { db -> Int in throw ObservationTestError() }.values(in: writer)
        await #expect(throws: ObservationTestError.self) {
            for try await _ in values { }
        }
    }
}
