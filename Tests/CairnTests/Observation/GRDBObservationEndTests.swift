import Dispatch
import Foundation
import Testing
import Cairn

/// How observations end, as in GRDB 7.8: cancellation, errors, and the
/// readers that deliver one value.
@Suite struct GRDBObservationEndTests {
    let directory: TemporaryDirectory
    let queue = DispatchQueue(label: "GRDBObservationEndTests")

    init() throws {
        directory = try TemporaryDirectory()
    }

    func makeWriter(_ kind: WriterKind) throws -> any DatabaseWriter {
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        return writer
    }

    func insert(_ writer: any DatabaseWriter) throws {
        try writer.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
    }

    /// Waits until the observation of `writer` by another observation sees
    /// `count` rows, and its delivery queue is drained: whatever an
    /// observation of the same queue had to deliver by then is delivered.
    func settle(_ writer: any DatabaseWriter, count: Int) {
        let sentinel = Recorder<Int>()
        let cancellable = GRDBObservationSchedulingTests.count().start(
            in: writer, scheduling: .async(onQueue: queue),
            onError: sentinel.receive(error:), onChange: sentinel.receive)
        #expect(sentinel.wait { $0.last == count })
        try? writer.write { _ in }
        queue.sync { }
        cancellable.cancel()
    }

    /// Observes the number of rows, and fails when it is `failingCount`
    /// (always when nil); `log` gets the failures and cancellations.
    func failingObservation(at failingCount: Int?, log: ObservationEventLog)
        -> ValueObservation<ValueReducers.Trace<ValueReducers.Fetch<Int>>>
    {
        ValueObservation
            .tracking { db -> Int in
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
                if failingCount == nil || count == failingCount { throw ObservationTestError() }
                return count
            }
            .handleEvents(didFail: { _ in log.append("fail") }, didCancel: { log.append("cancel") })
    }

    /// A cancellation from the delivery queue stops the values at once,
    /// even those of commits that happened before.
    @Test(arguments: WriterKind.allCases)
    func cancelFromTheDeliveryQueue(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let recorder = Recorder<Int>()
        let box = Locked<AnyDatabaseCancellable?>(nil)
        let cancellable = GRDBObservationSchedulingTests.count().start(
            in: writer, scheduling: .async(onQueue: queue),
            onError: recorder.receive(error:),
            onChange: { value in
                recorder.receive(value)
                if value >= 1 { box.withLock { $0 }?.cancel() }
            })
        box.withLock { $0 = cancellable }
        #expect(recorder.wait { $0 == [0] })
        // Two commits whose values are fetched; the first delivery cancels.
        queue.sync {
            try? insert(writer)
            try? insert(writer)
        }
        // A pool may fetch both commits at once.
        #expect(recorder.wait { $0.count == 2 })
        try insert(writer)
        settle(writer, count: 3)
        #expect(recorder.values.count == 2)
    }

    /// An error ends the observation: one error, no value afterwards, and
    /// a later cancellation is not an event (GRDB tells `didCancel` only
    /// of the observations it stops).
    @Test(arguments: WriterKind.allCases)
    func errorEndsTheObservation(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let log = ObservationEventLog()
        let recorder = Recorder<Int>()
        let cancellable = failingObservation(at: 1, log: log)
            .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0 == [0] })
        try insert(writer)
        #expect(recorder.waitForError() is ObservationTestError)
        try insert(writer)
        settle(writer, count: 2)
        #expect(recorder.values == [0])
        #expect(recorder.errors.count == 1)
        cancellable.cancel()
        #expect(log.all == ["fail"])
    }

    /// The failure of an immediate start: the error before `start`
    /// returns, and the cancellable has nothing left to cancel.
    @Test(arguments: WriterKind.allCases)
    func immediateFailureHasNothingToCancel(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let log = ObservationEventLog()
        let recorder = Recorder<Int>()
        let cancellable = failingObservation(at: nil, log: log)
            .start(in: writer, scheduling: AnyThreadImmediateScheduler(), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.errors.count == 1)
        #expect(log.all == ["fail"])
        cancellable.cancel()
        #expect(log.all == ["fail"])
    }

    /// A cancellation before the failure is delivered: the error is not
    /// delivered, the cancellation is an event.
    @Test func cancelBeforeTheErrorIsDelivered() throws {
        let writer = try makeWriter(.queue)
        let log = ObservationEventLog()
        let recorder = Recorder<Int>()
        let cancellable = queue.sync {
            let cancellable = failingObservation(at: nil, log: log)
                .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
            // The failed fetch runs while the delivery queue is busy.
            try? writer.write { _ in }
            cancellable.cancel()
            return cancellable
        }
        queue.sync { }
        #expect(recorder.errors.isEmpty)
        #expect(log.all == ["cancel"])
        withExtendedLifetime(cancellable) { }
    }

    /// Snapshots and read-only connections deliver one value; they track
    /// no region and have nothing to cancel.
    @Test(arguments: ["snapshot", "snapshotPool", "readonlyQueue", "readonlyPool"])
    func readersThatNeverChange(kind: String) throws {
        let path = directory.filePath()
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t DEFAULT VALUES") }
        var readonly = Configuration()
        readonly.readonly = true
        let reader: any DatabaseReader = switch kind {
        case "snapshot": try dbPool.makeSnapshot()
        case "snapshotPool": try dbPool.makeSnapshotPool()
        case "readonlyQueue": try DatabaseQueue(path: path, configuration: readonly)
        default: try DatabasePool(path: path, configuration: readonly)
        }
        let log = ObservationEventLog()
        let recorder = Recorder<Int>()
        let cancellable = log.recording(GRDBObservationSchedulingTests.count())
            .start(in: reader, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0 == [1] })
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        queue.sync { }
        #expect(recorder.values == [1])
        cancellable.cancel()
        #expect(log.all == ["start", "fetch", "value 1"])
    }
}
