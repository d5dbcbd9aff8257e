import Dispatch
import Foundation
import Testing
import Cairn

/// A pool observation that delivers its initial value at once reads it
/// with a reader, as GRDB does: a committed state, without waiting for the
/// writer. The changes committed afterwards are delivered.
@Suite struct PoolImmediateStartTests {
    /// Starts an observation of the number of rows of `t`, which delivers
    /// its initial value before it returns.
    func startCount(in dbPool: DatabasePool) -> (Recorder<Int>, AnyDatabaseCancellable) {
        let recorder = Recorder<Int>()
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
            .start(in: dbPool, scheduling: AnyThreadImmediateScheduler(),
                   onError: recorder.receive(error:), onChange: recorder.receive)
        return (recorder, cancellable)
    }

    @Test func theInitialValueIsACommittedStateReadWithoutTheWriter() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.filePath())
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }

        // A write holds the writer, with an uncommitted row, until the
        // observation has started (or two seconds have passed).
        let writeStarted = DispatchSemaphore(value: 0)
        let observationStarted = DispatchSemaphore(value: 0)
        let writeDone = DispatchSemaphore(value: 0)
        TestThreads.detach {
            try? dbPool.write { db in
                try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                writeStarted.signal()
                _ = observationStarted.wait(timeout: .now() + 2)
            }
            writeDone.signal()
        }
        writeStarted.wait()

        let (recorder, cancellable) = startCount(in: dbPool)
        // Delivered before start returned: the committed state.
        #expect(recorder.values == [0])
        observationStarted.signal()
        writeDone.wait()
        // The commit that came while the observer was not added yet.
        #expect(recorder.wait { $0 == [0, 1] })
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        #expect(recorder.wait { $0 == [0, 1, 2] })
        #expect(recorder.errors.isEmpty)
        withExtendedLifetime(cancellable) { }
    }

    @Test func noChangeMeansNoSecondValue() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.filePath())
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY); CREATE TABLE u (id INTEGER PRIMARY KEY)") }
        let (recorder, cancellable) = startCount(in: dbPool)
        #expect(recorder.values == [0])
        // The observer is added after the writer's current work: a write
        // after it tells when it is in place.
        try dbPool.write { db in try db.execute(sql: "INSERT INTO u DEFAULT VALUES") }
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        #expect(recorder.wait { $0 == [0, 1] })
        // No value for the state of the initial read again.
        #expect(recorder.values == [0, 1])
        withExtendedLifetime(cancellable) { }
    }
}
