import BenchmarkSupport
import Cairn
import Dispatch
import Foundation

// Concurrent read throughput of a DatabasePool: short reads (a transaction
// that sums 100 rows) from 1, 2, 4 and 8 threads at once (this machine has 2
// cores: 4 and 8 show oversubscription). The pool may open as many readers as
// there are threads. Raw C runs the same reads from the same number of
// threads, each with its own connection to the same WAL database. `--rows` is
// the number of reads of an iteration. Then 1,000 tasks that read and write
// with async accesses (AsyncLoad.swift; `--async` reports their latencies).

let tableRowCount = 10_000
let rowsPerRead = 100
let path = temporaryPath("cairn-pool-benchmark.sqlite")

/// Generates the database once, in WAL mode; later runs reuse the file.
func makeDatabase() throws {
    if FileManager.default.fileExists(atPath: path) { return }
    let db = try rawOpen(path)
    defer { sqlite3_close(db) }
    try rawExec(db, "PRAGMA journal_mode = WAL; CREATE TABLE item (a INTEGER, b INTEGER); BEGIN")
    let statement = try rawPrepare(db, "INSERT INTO item VALUES (?, ?)")
    defer { sqlite3_finalize(statement) }
    for row in 0..<tableRowCount {
        sqlite3_bind_int64(statement, 1, Int64(row))
        sqlite3_bind_int64(statement, 2, Int64(row &* 3))
        try rawCheckDone(sqlite3_step(statement), db)
        sqlite3_reset(statement)
    }
    try rawExec(db, "COMMIT")
}

/// The numbers of threads that read at once. `Benchmarks/instructions.sh`
/// counts the reads of one thread only: under callgrind, readers on several
/// threads retry SQLite's WAL read locks a number of times that depends on
/// the scheduling (raw C's count at 8 threads moved by 10% between two runs).
let threadCounts = [1, 2, 4, 8]

let readSQL = "SELECT a, b FROM item WHERE rowid BETWEEN ? AND ?"

/// The first rowid of read number `index`.
func firstRowID(_ index: Int) -> Int {
    (index &* 7919) % (tableRowCount - rowsPerRead) + 1
}

/// Runs `reads` split over `threads` threads, each with its state, and
/// returns the sum of what they return.
func concurrently(threads: Int, _ read: @Sendable (_ thread: Int, _ index: Int) throws -> Int) throws -> Int {
    let results = UnsafeMutableBufferPointer<Int>.allocate(capacity: threads)
    let failures = UnsafeMutableBufferPointer<Bool>.allocate(capacity: threads)
    defer {
        results.deallocate()
        failures.deallocate()
    }
    nonisolated(unsafe) let unsafeResults = results
    nonisolated(unsafe) let unsafeFailures = failures
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
        var sum = 0
        var failed = false
        for index in stride(from: thread, to: readCount, by: threads) {
            do {
                sum &+= try read(thread, index)
            } catch {
                failed = true
                break
            }
        }
        unsafeResults[thread] = sum
        unsafeFailures[thread] = failed
    }
    guard !failures.contains(true) else { throw BenchmarkError("a read failed") }
    return results.reduce(0, &+)
}

/// Raw C: one connection and one prepared statement per thread.
final class RawReaders: @unchecked Sendable {
    var connections: [OpaquePointer] = []
    var statements: [OpaquePointer] = []

    init(count: Int) throws {
        for _ in 0..<count {
            let db = try rawOpen(path, readonly: true)
            connections.append(db)
            statements.append(try rawPrepare(db, readSQL))
        }
    }

    func read(thread: Int, index: Int) throws -> Int {
        let db = connections[thread]
        let statement = statements[thread]
        try rawExec(db, "BEGIN")
        let start = firstRowID(index)
        sqlite3_bind_int64(statement, 1, Int64(start))
        sqlite3_bind_int64(statement, 2, Int64(start + rowsPerRead - 1))
        var sum = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            sum &+= Int(sqlite3_column_int64(statement, 0)) &+ Int(sqlite3_column_int64(statement, 1))
        }
        sqlite3_reset(statement)
        try rawExec(db, "COMMIT")
        return sum
    }
}

runAsyncLoadIfAsked()  // `--async`: AsyncLoad.swift
let options = BenchmarkOptions(defaultRows: 4_000)
let readCount = options.rows

do {
    try makeDatabase()
    var configuration = Configuration()
    configuration.maximumReaderCount = threadCounts.max()!
    let dbPool = try DatabasePool(path: path, configuration: configuration)
    let rawReaders = try RawReaders(count: threadCounts.max()!)

    @Sendable func cairnRead(index: Int) throws -> Int {
        try dbPool.read { db in
            let start = firstRowID(index)
            var sum = 0
            let rows = try Row.fetchCursor(db.cachedStatement(sql: readSQL), arguments: [start, start + rowsPerRead - 1])
            while let row = try rows.next() {
                sum &+= row[0] as Int
                sum &+= row[1] as Int
            }
            return sum
        }
    }

    let workloads = threadCounts.map { threads in
        Workload("13 pool reads, \(threads) thread\(threads == 1 ? "" : "s")", budget: 1.25, countsInstructions: threads == 1, raw: {
            try concurrently(threads: threads) { thread, index in try rawReaders.read(thread: thread, index: index) }
        }) {
            try concurrently(threads: threads) { _, index in try cairnRead(index: index) }
        }
    }
    // Async accesses under load (AsyncLoad.swift): not counted by
    // instructions.sh (the scheduling of tasks varies from run to run).
    let (asyncPool, rawAsync) = try makeAsyncLoadSides()
    let asyncWorkload = Workload(
        "14 async load, \(AsyncLoad.taskCount) tasks", budget: 1.5, units: AsyncLoad.taskCount, countsInstructions: false,
        raw: { try rawAsync.run(stats: nil) })
    {
        try cairnAsyncLoad(asyncPool, stats: nil)
    }
    BenchmarkRunner(title: "Pool reads (--rows = reads per iteration)", options: options).run(workloads + [asyncWorkload])
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
