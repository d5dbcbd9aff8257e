import BenchmarkSupport
import Cairn
import Dispatch
import Foundation

// Async accesses under load (issue 53, item 2): 1,000 concurrent tasks, each
// doing 4 short `await dbPool.read` accesses (the reads of the other
// workloads), and one task in ten also an `await dbPool.write` that updates
// a row. Raw C does the same work on a pool of threads of the size of the
// pool's readers, each thread with its own reader connection, and one writer
// connection behind a lock. `PoolBenchmark --async` reports throughput, p50
// and p99 latency of the accesses and the threads that ran them.

/// The shape of the load.
enum AsyncLoad {
    static let taskCount = 1_000
    static let readsPerTask = 4
    /// One task in `writeEvery` writes once.
    static let writeEvery = 10
    static let updateSQL = "UPDATE item SET b = b + 1 WHERE rowid = ?"
    /// The readers of the pool, and raw C's threads: this machine's cores.
    static let readerCount = 2

    /// The first rowid of the read number `read` of task `task`.
    static func firstRowID(task: Int, read: Int) -> Int {
        ((task &* readsPerTask &+ read) &* 7919) % (tableRowCount - rowsPerRead) + 1
    }

    /// The row that task `task` updates, when it writes.
    static func updatedRow(task: Int) -> Int {
        (task &* 31) % tableRowCount + 1
    }

    /// Whether task `task` writes.
    static func writes(task: Int) -> Bool {
        task % writeEvery == 0
    }
}

/// Latencies and threads of one run, filled from any thread.
final class AsyncLoadStats: @unchecked Sendable {
    private let lock = NSLock()
    private var latencies: [Double] = []
    private var threads: Set<UInt> = []

    func record(latency: Double) {
        #if os(Linux)
        let thread = UInt(pthread_self())
        #else
        let thread = UInt(bitPattern: pthread_self())
        #endif
        lock.withLock {
            latencies.append(latency)
            threads.insert(thread)
        }
    }

    /// The latency at `fraction` (0.5 for the median), in seconds.
    func percentile(_ fraction: Double) -> Double {
        lock.withLock {
            let sorted = latencies.sorted()
            guard !sorted.isEmpty else { return 0 }
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
    }

    var accessCount: Int { lock.withLock { latencies.count } }
    var threadCount: Int { lock.withLock { threads.count } }
}

/// Runs an async body from synchronous code and waits for it. The caller
/// is the main thread, not a thread of the cooperative pool.
func waitForAsync<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let semaphore = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: Result<T, Error>?
    Task.detached {
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        semaphore.signal()
    }
    semaphore.wait()
    return try result!.get()
}

/// Seconds since `start`.
func seconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

/// Cairn: the tasks of the load, on a pool.
func cairnAsyncLoad(_ dbPool: DatabasePool, stats: AsyncLoadStats?) throws -> Int {
    try waitForAsync {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<AsyncLoad.taskCount {
                group.addTask {
                    var sum = 0
                    for read in 0..<AsyncLoad.readsPerTask {
                        let start = DispatchTime.now()
                        sum &+= try await dbPool.read { db in
                            let first = AsyncLoad.firstRowID(task: task, read: read)
                            var sum = 0
                            let rows = try Row.fetchCursor(db.cachedStatement(sql: readSQL), arguments: [first, first + rowsPerRead - 1])
                            while let row = try rows.next() {
                                sum &+= row[0] as Int
                            }
                            stats?.record(latency: seconds(since: start))
                            return sum
                        }
                    }
                    if AsyncLoad.writes(task: task) {
                        let start = DispatchTime.now()
                        try await dbPool.write { db in
                            try db.execute(sql: AsyncLoad.updateSQL, arguments: [AsyncLoad.updatedRow(task: task)])
                            stats?.record(latency: seconds(since: start))
                        }
                    }
                    return sum
                }
            }
            var total = 0
            for try await sum in group { total &+= sum }
            return total
        }
    }
}

/// Raw C: the same reads and writes, on `readers.count` threads that take
/// the tasks in order, each thread with its own reader connection; the
/// writes go through one writer connection, behind a lock.
final class RawAsyncLoad: @unchecked Sendable {
    let readers: [OpaquePointer]
    let readStatements: [OpaquePointer]
    let writer: OpaquePointer
    let updateStatement: OpaquePointer
    let writerLock = NSLock()

    init(readerCount: Int) throws {
        var readers: [OpaquePointer] = []
        var statements: [OpaquePointer] = []
        for _ in 0..<readerCount {
            let db = try rawOpen(path, readonly: true)
            readers.append(db)
            statements.append(try rawPrepare(db, readSQL))
        }
        self.readers = readers
        self.readStatements = statements
        writer = try rawOpen(path)
        try rawExec(writer, "PRAGMA busy_timeout = 5000")
        updateStatement = try rawPrepare(writer, AsyncLoad.updateSQL)
    }

    func run(stats: AsyncLoadStats?) throws -> Int {
        let next = Locked(0)
        let sums = Locked(0)
        let failed = Locked(false)
        DispatchQueue.concurrentPerform(iterations: readers.count) { thread in
            let db = readers[thread]
            let statement = readStatements[thread]
            while true {
                let task = next.withLock { value -> Int in
                    defer { value += 1 }
                    return value
                }
                guard task < AsyncLoad.taskCount else { break }
                var sum = 0
                do {
                    for read in 0..<AsyncLoad.readsPerTask {
                        let start = DispatchTime.now()
                        try rawExec(db, "BEGIN")
                        let first = AsyncLoad.firstRowID(task: task, read: read)
                        sqlite3_bind_int64(statement, 1, Int64(first))
                        sqlite3_bind_int64(statement, 2, Int64(first + rowsPerRead - 1))
                        while sqlite3_step(statement) == SQLITE_ROW {
                            sum &+= Int(sqlite3_column_int64(statement, 0))
                        }
                        sqlite3_reset(statement)
                        try rawExec(db, "COMMIT")
                        stats?.record(latency: seconds(since: start))
                    }
                    if AsyncLoad.writes(task: task) {
                        let start = DispatchTime.now()
                        try writerLock.withLock {
                            try rawExec(writer, "BEGIN IMMEDIATE")
                            sqlite3_bind_int64(updateStatement, 1, Int64(AsyncLoad.updatedRow(task: task)))
                            try rawCheckDone(sqlite3_step(updateStatement), writer)
                            sqlite3_reset(updateStatement)
                            try rawExec(writer, "COMMIT")
                        }
                        stats?.record(latency: seconds(since: start))
                    }
                } catch {
                    failed.withLock { $0 = true }
                    break
                }
                sums.withLock { $0 &+= sum }
            }
        }
        guard !failed.withLock({ $0 }) else { throw BenchmarkError("a raw read or write failed") }
        return sums.withLock { $0 }
    }
}


private func asyncUsage(_ error: String) -> Never {
    FileHandle.standardError.write(Data("error: \(error)\nusage: PoolBenchmark --async [--rounds N] [--check]\n".utf8))
    exit(2)
}

/// The pool and raw C's connections of the load.
func makeAsyncLoadSides() throws -> (DatabasePool, RawAsyncLoad) {
    var configuration = Configuration()
    configuration.maximumReaderCount = AsyncLoad.readerCount
    return (try DatabasePool(path: path, configuration: configuration), try RawAsyncLoad(readerCount: AsyncLoad.readerCount))
}

/// `PoolBenchmark --async [--rounds N] [--check]`: throughput, latencies and
/// threads of the load, raw C and Cairn, over N rounds (medians), then exits.
/// `--check` exits 1 when Cairn's time is over 1.5 times raw C's.
func runAsyncLoadIfAsked() {
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard let index = arguments.firstIndex(of: "--async") else { return }
    arguments.remove(at: index)
    var rounds = 5
    var check = false
    while !arguments.isEmpty {
        let argument = arguments.removeFirst()
        switch argument {
        case "--rounds":
            guard let value = arguments.first.flatMap({ Int($0) }), value > 0 else { asyncUsage("--rounds takes a positive number") }
            arguments.removeFirst()
            rounds = value
        case "--check":
            check = true
        default:
            asyncUsage("unknown option of --async: \(argument)")
        }
    }
    do {
        try makeDatabase()
        let (dbPool, raw) = try makeAsyncLoadSides()
        // Warm-up, then the rounds, interleaved.
        _ = try raw.run(stats: nil)
        _ = try cairnAsyncLoad(dbPool, stats: nil)
        var rawTimes: [Double] = [], cairnTimes: [Double] = []
        let rawStats = AsyncLoadStats(), cairnStats = AsyncLoadStats()
        for _ in 0..<rounds {
            var start = DispatchTime.now()
            _ = try raw.run(stats: rawStats)
            rawTimes.append(seconds(since: start))
            start = DispatchTime.now()
            _ = try cairnAsyncLoad(dbPool, stats: cairnStats)
            cairnTimes.append(seconds(since: start))
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let accesses = Double(rawStats.accessCount / rounds)
        let ratio = median(cairnTimes) / median(rawTimes)
        print("Async load: \(AsyncLoad.taskCount) tasks × \(AsyncLoad.readsPerTask) reads, a write every \(AsyncLoad.writeEvery) tasks; \(AsyncLoad.readerCount) readers; \(rounds) rounds, medians")
        print("side    accesses/s  p50 µs  p99 µs  threads")
        for (name, times, stats) in [("raw C", rawTimes, rawStats), ("Cairn", cairnTimes, cairnStats)] {
            print(name.padding(toLength: 6, withPad: " ", startingAt: 0)
                  + String(format: "  %10.0f  %6.1f  %6.1f  %7d",
                           accesses / median(times), stats.percentile(0.5) * 1e6, stats.percentile(0.99) * 1e6, stats.threadCount))
        }
        print("ratio (Cairn time / raw C time): \(format(ratio)) (budget 1.50)")
        print("Latency: from the request of an access to the end of its work (for Cairn, waiting for a reader or the writer included; raw C's threads never wait for a connection).")
        if check && ratio > 1.5 {
            print("over budget")
            exit(1)
        }
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
