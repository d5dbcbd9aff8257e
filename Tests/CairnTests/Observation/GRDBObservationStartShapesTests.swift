import Dispatch
import Foundation
import Testing
import Cairn

/// Runs `body` in the process of an exit test: the process exits with
/// status 3 when `body` has not returned after 20 seconds (a deadlock),
/// and with success when it returns.
func runStartShape(_ body: @escaping @Sendable () throws -> Void) {
    Thread.detachNewThread {
        Thread.sleep(forTimeInterval: 20)
        FileHandle.standardError.write(Data("deadlock\n".utf8))
        exit(3)
    }
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        do { try body() } catch { FileHandle.standardError.write(Data("error: \(error)\n".utf8)); exit(4) }
        done.signal()
    }
    done.wait()
    exit(0)
}

/// A writer on a new temporary file, with a table `t`.
func makeShapeWriter(_ kind: String, configure: (inout Configuration) -> Void = { _ in }) throws -> any DatabaseWriter {
    let path = NSTemporaryDirectory() + "/cairn-shape-\(UUID().uuidString).sqlite"
    var configuration = Configuration()
    configure(&configuration)
    let writer: any DatabaseWriter = kind == "pool"
        ? try DatabasePool(path: path, configuration: configuration)
        : try DatabaseQueue(path: path, configuration: configuration)
    try writer.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
    return writer
}

/// Starts `count` immediate observations of `writer` from main-queue
/// blocks that background threads run with `DispatchQueue.main.sync`, and
/// waits for their initial values.
func startImmediateFromMainSync(_ writer: any DatabaseWriter, count: Int = 8) {
    let recorder = Recorder<Int>()
    let cancellables = Locked<[AnyDatabaseCancellable]>([])
    TestThreads.concurrentPerform(iterations: count) { _ in
        DispatchQueue.main.sync {
            let c = GRDBObservationSchedulingTests.count()
                .start(in: writer, scheduling: .immediate, onError: recorder.receive(error:), onChange: recorder.receive)
            cancellables.withLock { $0.append(c) }
        }
    }
    precondition(recorder.values.count == count, "\(recorder.values)")
}

@Suite struct GRDBObservationStartShapesTests {
    @Test func mainSyncFromThreadsQueue() async {
        await #expect(processExitsWith: .success) {
            runStartShape { startImmediateFromMainSync(try makeShapeWriter("queue")) }
        }
    }

    @Test func mainSyncFromThreadsPool() async {
        await #expect(processExitsWith: .success) {
            runStartShape { startImmediateFromMainSync(try makeShapeWriter("pool")) }
        }
    }

    @Test func mainSyncFromThreadsInsideWritesOfAnotherDatabase() async {
        await #expect(processExitsWith: .success) {
            runStartShape {
                let other = try makeShapeWriter("queue")
                let writer = try makeShapeWriter("queue")
                try other.write { _ in startImmediateFromMainSync(writer) }
            }
        }
    }

    @Test func poolWriteThenMainSyncStart() async {
        await #expect(processExitsWith: .success) {
            runStartShape {
                let writer = try makeShapeWriter("pool")
                try writer.write { db in
                    try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                    startImmediateFromMainSync(writer, count: 1)
                }
            }
        }
    }

    @Test func sharedTargetQueue() async {
        await #expect(processExitsWith: .success) {
            runStartShape {
                // Database queues share a serial queue; the pool's readers
                // need a concurrent one (a pool's writer waits for a reader
                // to start each concurrent fetch).
                let serial = DispatchQueue(label: "shared")
                let concurrent = DispatchQueue(label: "shared.concurrent", attributes: .concurrent)
                var writers: [any DatabaseWriter] = []
                writers.append(try makeShapeWriter("queue") { $0.targetQueue = serial })
                writers.append(try makeShapeWriter("pool") { $0.writeTargetQueue = serial; $0.targetQueue = concurrent })
                writers.append(try makeShapeWriter("queue") { $0.writeTargetQueue = serial })
                let recorder = Recorder<Int>()
                let cancellables = Locked<[AnyDatabaseCancellable]>([])
                let all = writers
                TestThreads.concurrentPerform(iterations: 12) { i in
                    let writer = all[i % 3]
                    let c = GRDBObservationSchedulingTests.count()
                        .start(in: writer, scheduling: AnyThreadImmediateScheduler(),
                               onError: recorder.receive(error:), onChange: recorder.receive)
                    cancellables.withLock { $0.append(c) }
                }
                precondition(recorder.values.count == 12)
                for writer in writers {
                    try writer.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
                }
                precondition(recorder.wait { $0.count == 24 })
                startImmediateFromMainSync(writers[0])
            }
        }
    }

    @Test func sharedImmediateFromMainSync() async {
        await #expect(processExitsWith: .success) {
            runStartShape {
                let writer = try makeShapeWriter("queue")
                let shared = GRDBObservationSchedulingTests.count().shared(in: writer, scheduling: .immediate)
                let recorder = Recorder<Int>()
                let cancellables = Locked<[AnyDatabaseCancellable]>([])
                TestThreads.concurrentPerform(iterations: 8) { _ in
                    DispatchQueue.main.sync {
                        let c = shared.start(onError: recorder.receive(error:), onChange: recorder.receive)
                        cancellables.withLock { $0.append(c) }
                    }
                }
                precondition(recorder.values == Array(repeating: 0, count: 8), "\(recorder.values)")
            }
        }
    }
}
