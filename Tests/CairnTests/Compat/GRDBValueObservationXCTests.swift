import Dispatch
import Foundation
import XCTest
import Cairn

/// ValueObservation in the shapes of GRDB's own XCTest cases: the test
/// method runs on the main thread, starts `.immediate` observations from
/// there, and waits with expectations (which run the main queue).
final class GRDBValueObservationXCTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
    }

    /// The three writers of GRDB's tests: an in-memory queue, a file queue,
    /// a file pool (at most five readers).
    private func writers() throws -> [any DatabaseWriter] {
        var config = Configuration()
        config.maximumReaderCount = 5
        return [
            try DatabaseQueue(configuration: config),
            try DatabaseQueue(path: directory.filePath("queue.sqlite"), configuration: config),
            try DatabasePool(path: directory.filePath("pool.sqlite"), configuration: config),
        ]
    }

    private func makeBoxes(_ writer: any DatabaseWriter) throws {
        try writer.write { db in try db.execute(sql: "CREATE TABLE box (id INTEGER PRIMARY KEY AUTOINCREMENT)") }
    }

    private static let boxCount = ValueObservation.tracking { db in try Table("box").fetchCount(db) }

    /// `.immediate`, seen as any scheduler: the test methods are not
    /// isolated to the main actor (although they run on the main thread),
    /// so they start observations with Sendable closures, as GRDB's tests do.
    private static let immediate: some ValueObservationScheduler = ImmediateValueObservationScheduler()

    // MARK: Many observations

    /// A hundred observations started one after the other each deliver
    /// their initial value once, then the value after a write.
    func manyObservations(_ writer: any DatabaseWriter, scheduler: some ValueObservationScheduler, longWrite: Bool) throws {
        try makeBoxes(writer)
        let count = 100
        let initial = expectation(description: "initial")
        initial.expectedFulfillmentCount = count
        initial.assertForOverFulfill = true
        let second = expectation(description: "second")
        second.expectedFulfillmentCount = count
        if longWrite {
            let started = DispatchSemaphore(value: 0)
            writer.asyncWriteWithoutTransaction { _ in
                started.signal()
                Thread.sleep(forTimeInterval: 0.5)
            }
            started.wait()
        }
        var cancellables: [AnyDatabaseCancellable] = []
        for _ in 0..<count {
            cancellables.append(Self.boxCount.start(in: writer, scheduling: scheduler, onError: { error in
                XCTFail("\(error)")
            }, onChange: { value in
                if value == 0 { initial.fulfill() } else { second.fulfill() }
            }))
        }
        try withExtendedLifetime(cancellables) {
            wait(for: [initial], timeout: 30)
            try writer.write { db in try db.execute(sql: "INSERT INTO box DEFAULT VALUES") }
            wait(for: [second], timeout: 30)
        }
    }

    func testManyImmediateObservations() throws {
        for writer in try writers() {
            try manyObservations(writer, scheduler: Self.immediate, longWrite: false)
        }
    }

    func testManyMainQueueObservations() throws {
        for writer in try writers() {
            try manyObservations(writer, scheduler: .async(onQueue: .main), longWrite: false)
        }
    }

    func testManyImmediateObservationsDuringALongWrite() throws {
        for writer in try writers() {
            try manyObservations(writer, scheduler: Self.immediate, longWrite: true)
        }
    }

    func testManyMainQueueObservationsDuringALongWrite() throws {
        for writer in try writers() {
            try manyObservations(writer, scheduler: .async(onQueue: .main), longWrite: true)
        }
    }

    // MARK: Pools whose readers are all busy

    /// An immediate observation of a pool gets the value of a write that
    /// waited while as many observations as the pool has readers were
    /// starting.
    func testImmediateObservationSeesAWriteWhileReadersAreBusy() throws {
        var config = Configuration()
        config.maximumReaderCount = 5
        let writer = try DatabasePool(path: directory.filePath(), configuration: config)
        try makeBoxes(writer)
        var cancellables: [AnyDatabaseCancellable] = []
        let one = expectation(description: "one")
        let two = expectation(description: "two")
        cancellables.append(Self.boxCount.start(in: writer, scheduling: Self.immediate, onError: { error in
            XCTFail("\(error)")
        }, onChange: { value in
            if value == 1 { one.fulfill() }
            if value == 2 { two.fulfill() }
        }))
        try writer.write { db in try db.execute(sql: "INSERT INTO box DEFAULT VALUES") }
        wait(for: [one], timeout: 30)
        let gate = DispatchSemaphore(value: 0)
        writer.asyncWriteWithoutTransaction { db in
            gate.wait()
            try? db.execute(sql: "INSERT INTO box DEFAULT VALUES")
        }
        for _ in 0..<config.maximumReaderCount {
            cancellables.append(Self.boxCount.start(in: writer, scheduling: .async(onQueue: .main), onError: { error in
                XCTFail("\(error)")
            }, onChange: { _ in }))
        }
        Thread.sleep(forTimeInterval: 0.3)
        gate.signal()
        wait(for: [two], timeout: 30)
        withExtendedLifetime(cancellables) { }
    }

    // MARK: Initial fetches of pools

    /// A write between the initial read of a pool and the installation of
    /// its observer makes the pool fetch the initial value again: two
    /// values, although the count did not change.
    func initialFetchThatWrites(scheduler: some ValueObservationScheduler) throws {
        let dbPool = try DatabasePool(path: directory.filePath())
        try makeBoxes(dbPool)
        let writes = Locked(true)
        let observation = ValueObservation.trackingConstantRegion { db -> Int in
            if writes.withLock({ flag in defer { flag = false }; return flag }) {
                try dbPool.write { db in
                    try db.execute(sql: "INSERT INTO box DEFAULT VALUES; DELETE FROM box")
                }
            }
            return try Table("box").fetchCount(db)
        }
        let values = Locked<[Int]>([])
        let done = expectation(description: "values")
        done.expectedFulfillmentCount = 2
        let cancellable = observation.start(in: dbPool, scheduling: scheduler, onError: { error in
            XCTFail("\(error)")
        }, onChange: { value in
            values.withLock { $0.append(value) }
            done.fulfill()
        })
        withExtendedLifetime(cancellable) {
            wait(for: [done], timeout: 30)
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTAssertEqual(values.withLock { $0 }, [0, 0])
    }

    func testInitialFetchThatWritesImmediate() throws {
        try initialFetchThatWrites(scheduler: Self.immediate)
    }

    func testInitialFetchThatWritesAsync() throws {
        try initialFetchThatWrites(scheduler: .async(onQueue: .main))
    }

    /// Without a write between the initial read and the installation of
    /// the observer, a pool fetches the initial value once.
    func initialFetchWithoutWrite(scheduler: some ValueObservationScheduler) throws {
        let dbPool = try DatabasePool(path: directory.filePath())
        try makeBoxes(dbPool)
        let first = Locked(true)
        let observation = ValueObservation.trackingConstantRegion { db -> Int in
            if first.withLock({ flag in defer { flag = false }; return flag }) {
                DispatchQueue.main.asyncAfter(deadline: .now() + 0.5) {
                    try? dbPool.write { db in try db.execute(sql: "INSERT INTO box DEFAULT VALUES") }
                }
            }
            return try Table("box").fetchCount(db)
        }
        let values = Locked<[Int]>([])
        let done = expectation(description: "values")
        done.expectedFulfillmentCount = 2
        let cancellable = observation.start(in: dbPool, scheduling: scheduler, onError: { error in
            XCTFail("\(error)")
        }, onChange: { value in
            values.withLock { $0.append(value) }
            done.fulfill()
        })
        withExtendedLifetime(cancellable) {
            wait(for: [done], timeout: 30)
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTAssertEqual(values.withLock { $0 }, [0, 1])
    }

    func testInitialFetchWithoutWriteImmediate() throws {
        try initialFetchWithoutWrite(scheduler: Self.immediate)
    }

    func testInitialFetchWithoutWriteAsync() throws {
        try initialFetchWithoutWrite(scheduler: .async(onQueue: .main))
    }

    /// A pool whose WAL file is empty starts its observations.
    func testPoolWithEmptyWAL() throws {
        let path = directory.filePath()
        do {
            let dbPool = try DatabasePool(path: path)
            try dbPool.writeWithoutTransaction { db in
                try db.execute(sql: "CREATE TABLE box (id INTEGER PRIMARY KEY)")
                try db.checkpoint(.truncate)
            }
        }
        let dbPool = try DatabasePool(path: path)
        let immediate = Locked<[Int]>([])
        let c1 = Self.boxCount.start(in: dbPool, scheduling: Self.immediate, onError: { error in
            XCTFail("\(error)")
        }, onChange: { value in immediate.withLock { $0.append(value) } })
        XCTAssertEqual(immediate.withLock { $0 }, [0])
        let value = expectation(description: "value")
        let c2 = Self.boxCount.start(in: dbPool, scheduling: .async(onQueue: .main), onError: { error in
            XCTFail("\(error)")
        }, onChange: { _ in value.fulfill() })
        wait(for: [value], timeout: 30)
        withExtendedLifetime((c1, c2)) { }
    }

    /// A pool whose reader cached the schema before a table was created
    /// sees the table in its immediate initial value.
    func testImmediatePoolValueSeesANewTable() throws {
        let dbPool = try DatabasePool(path: directory.filePath())
        try dbPool.read { db in _ = try db.tableExists("box") }
        try dbPool.write { db in try db.create(table: "box") { t in t.column("a") } }
        let values = Locked<[Bool]>([])
        let cancellable = ValueObservation
            .trackingConstantRegion { db in try db.tableExists("box") }
            .start(in: dbPool, scheduling: Self.immediate, onError: { error in
                XCTFail("\(error)")
            }, onChange: { value in values.withLock { $0.append(value) } })
        XCTAssertEqual(values.withLock { $0 }, [true])
        withExtendedLifetime(cancellable) { }
    }

    /// A write that was queued before the cancellation is not notified.
    func testWriteQueuedBeforeCancellationIsNotNotified() throws {
        for writer in try writers() {
            try makeBoxes(writer)
            let counts = Locked<[Int]>([])
            let cancellable = ValueObservation.trackingConstantRegion { db in try Table("box").fetchCount(db) }
                .start(in: writer, scheduling: .async(onQueue: .main), onError: { error in
                    XCTFail("\(error)")
                }, onChange: { count in counts.withLock { $0.append(count) } })
            let gate = DispatchSemaphore(value: 0)
            writer.asyncWriteWithoutTransaction { db in
                gate.wait()
                try? db.execute(sql: "INSERT INTO box DEFAULT VALUES")
            }
            cancellable.cancel()
            gate.signal()
            let after = expectation(description: "after")
            writer.asyncWriteWithoutTransaction { _ in after.fulfill() }
            wait(for: [after], timeout: 30)
            // Let the main queue run what may have been scheduled.
            let drained = expectation(description: "drained")
            DispatchQueue.main.async { drained.fulfill() }
            wait(for: [drained], timeout: 30)
            XCTAssertFalse(counts.withLock { $0 }.contains(1))
        }
    }

    /// The immediate error of an observation is delivered before `start`
    /// returns.
    func testImmediateError() throws {
        for writer in try writers() {
            let errors = Locked<[any Error]>([])
            let cancellable = ValueObservation.trackingConstantRegion { _ -> Int in throw ObservationTestError() }
                .start(in: writer, scheduling: Self.immediate, onError: { error in errors.withLock { $0.append(error) } },
                       onChange: { _ in })
            XCTAssertEqual(errors.withLock { $0.count }, 1)
            XCTAssertTrue(errors.withLock { $0.first } is ObservationTestError)
            withExtendedLifetime(cancellable) { }
        }
    }
}
