import Dispatch
import Foundation
import Testing
import Cairn

/// A scheduler that asks for the initial value at once, from any thread
/// (`.immediate` asks for it from the main queue only).
struct AnyThreadImmediateScheduler: ValueObservationScheduler {
    func immediateInitialValue() -> Bool { true }
    func schedule(_ action: @escaping @Sendable () -> Void) { DispatchQueue.global().async(execute: action) }
}

/// Starts eight observations of the number of rows of `t` at once, from
/// eight threads, each delivering its initial value before its start
/// returns.
func startCountsFromThreads(
    in reader: some DatabaseReader) -> (Recorder<Int>, Locked<[AnyDatabaseCancellable]>)
{
    let recorder = Recorder<Int>()
    let cancellables = Locked<[AnyDatabaseCancellable]>([])
    TestThreads.concurrentPerform(iterations: 8) { _ in
        let c = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
            .start(in: reader, scheduling: AnyThreadImmediateScheduler(), onError: recorder.receive(error:), onChange: recorder.receive)
        cancellables.withLock { $0.append(c) }
    }
    return (recorder, cancellables)
}

/// Observations started at once, from several threads or main-queue jobs,
/// each deliver their initial value: the starts wait for each other, and
/// none is taken for a nested access.
@Suite struct ConcurrentStartTests {
    @Test(arguments: WriterKind.allCases)
    func customImmediateFromThreads(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        let (recorder, cancellables) = startCountsFromThreads(in: writer)
        #expect(recorder.values == Array(repeating: 0, count: 8))
        #expect(recorder.errors.isEmpty)
        withExtendedLifetime(cancellables) { }
    }

    @Test(arguments: WriterKind.allCases)
    func immediateFromMainQueueBlocks(kind: WriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        try await writer.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        let recorder = Recorder<Int>()
        let cancellables = Locked<[AnyDatabaseCancellable]>([])
        TestThreads.concurrentPerform(iterations: 8) { _ in
            DispatchQueue.main.async {
                let c = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
                    .start(in: writer, scheduling: .immediate, onError: recorder.receive(error:), onChange: recorder.receive)
                cancellables.withLock { $0.append(c) }
            }
        }
        #expect(recorder.wait { $0.count == 8 })
        #expect(recorder.values == Array(repeating: 0, count: 8))
    }

    @Test(arguments: WriterKind.allCases)
    func immediateFromMainActorTasks(kind: WriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        try await writer.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        let recorder = Recorder<Int>()
        let cancellables = Locked<[AnyDatabaseCancellable]>([])
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { @MainActor in
                    let c = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
                        .start(in: writer, scheduling: .immediate, onError: recorder.receive(error:), onChange: recorder.receive)
                    cancellables.withLock { $0.append(c) }
                }
            }
        }
        #expect(recorder.values == Array(repeating: 0, count: 8))
    }
}

extension ConcurrentStartTests {
    @Test(arguments: WriterKind.allCases)
    func immediateStartInsideAccesses(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        let recorder = Recorder<Int>()
        let cancellables = Locked<[AnyDatabaseCancellable]>([])
        func start() {
            let c = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
                .start(in: writer, scheduling: AnyThreadImmediateScheduler(), onError: recorder.receive(error:), onChange: recorder.receive)
            cancellables.withLock { $0.append(c) }
        }
        try writer.read { _ in start() }
        try writer.write { _ in start() }
        writer.writeWithoutTransaction { _ in start() }
        try writer.unsafeRead { _ in start() }
        #expect(recorder.values == [0, 0, 0, 0])
    }
}

extension ConcurrentStartTests {
    /// Snapshots and snapshot pools, which deliver one value, start from
    /// several threads at once too.
    @Test(arguments: ReaderKind.allCases)
    func customImmediateOnReadersFromThreads(kind: ReaderKind) throws {
        let directory = try TemporaryDirectory()
        let (reader, _) = try kind.make(in: directory) { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t DEFAULT VALUES")
        }
        let (recorder, cancellables) = startCountsFromThreads(in: reader)
        #expect(recorder.values == Array(repeating: 1, count: 8))
        #expect(recorder.errors.isEmpty)
        withExtendedLifetime(cancellables) { }
    }

    /// An in-memory queue and read-only connections, which have other
    /// access paths than a file writer.
    @Test(arguments: ["memory", "readonlyQueue", "readonlyPool"])
    func customImmediateOnOtherConnectionsFromThreads(kind: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.filePath()
        try DatabasePool(path: path).write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t DEFAULT VALUES")
        }
        var readonly = Configuration()
        readonly.readonly = true
        let reader: any DatabaseReader
        switch kind {
        case "memory":
            let dbQueue = try DatabaseQueue()
            try dbQueue.write { db in
                try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t DEFAULT VALUES")
            }
            reader = dbQueue
        case "readonlyQueue": reader = try DatabaseQueue(path: path, configuration: readonly)
        default: reader = try DatabasePool(path: path, configuration: readonly)
        }
        let (recorder, cancellables) = startCountsFromThreads(in: reader)
        #expect(recorder.values == Array(repeating: 1, count: 8))
        #expect(recorder.errors.isEmpty)
        withExtendedLifetime(cancellables) { }
    }
}
