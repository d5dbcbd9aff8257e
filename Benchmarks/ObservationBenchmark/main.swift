import BenchmarkSupport
import Cairn
import Dispatch
import Foundation

// The cost of a commit as observations grow: N ValueObservations, each
// tracking one different row of a table, then one-row updates, each in its
// own transaction, on a DatabaseQueue. A commit should cost about the same
// whatever N: the regions are row-precise, so an update concerns the one
// observation of its row. Reported per observer count: the time of a commit
// (median of the iterations), its ratio to the commit of raw C doing the
// same updates without observation, and the memory that each observation
// takes (the resident memory after the start of the N observations, minus
// before, divided by N, in the first iteration of each count: later ones
// reuse what the allocator kept; at small counts, the one-time costs of the
// first observation weigh).
//
// Usage: ObservationBenchmark [--counts 10,100,1000,10000] [--updates 2000]
//                             [--iterations 3] [--check]
// `--check` exits 1 when the commit at the largest count costs more than
// twice the commit at the smallest one.

/// The options of the command line.
struct Options {
    var counts = [10, 100, 1_000, 10_000]
    var updateCount = 2_000
    var iterations = 3
    var check = false

    init(arguments: [String]) {
        var arguments = arguments
        while !arguments.isEmpty {
            let argument = arguments.removeFirst()
            switch argument {
            case "--counts":
                counts = arguments.isEmpty ? [] : arguments.removeFirst().split(separator: ",").compactMap { Int($0) }
            case "--updates":
                updateCount = arguments.isEmpty ? 0 : Int(arguments.removeFirst()) ?? 0
            case "--iterations":
                iterations = arguments.isEmpty ? 0 : Int(arguments.removeFirst()) ?? 0
            case "--check":
                check = true
            default:
                FileHandle.standardError.write(Data("""
                    usage: ObservationBenchmark [--counts 10,100,1000,10000] [--updates N] [--iterations N] [--check]

                    """.utf8))
                exit(2)
            }
        }
        guard !counts.isEmpty, counts.allSatisfy({ $0 > 0 }), updateCount > 0, iterations > 0 else {
            FileHandle.standardError.write(Data("error: counts, updates and iterations must be positive\n".utf8))
            exit(2)
        }
    }
}

let options = Options(arguments: Array(CommandLine.arguments.dropFirst()))
let counts = options.counts
let updateCount = options.updateCount
let iterations = options.iterations
let check = options.check

/// The table: one row per observation of the largest count.
let rowCount = counts.max()!
let rawPath = temporaryPath("cairn-observation-benchmark-raw.sqlite")
let cairnPath = temporaryPath("cairn-observation-benchmark-cairn.sqlite")

func removeDatabase(_ path: String) {
    for suffix in ["", "-journal", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
    }
}

/// The row of update number `index`: spread over all the rows, so that
/// each count's observations see some of the updates.
func updatedRow(_ index: Int, rows: Int) -> Int {
    (index &* 7919) % rows + 1
}

let createSQL = "CREATE TABLE item (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)"
let updateSQL = "UPDATE item SET value = value + 1 WHERE id = ?"
let fillSQL = """
    WITH RECURSIVE n(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM n WHERE id < \(rowCount))
    INSERT INTO item(id, value) SELECT id, 0 FROM n
    """

/// Raw C: the same updates, each in its own transaction, no observation.
func rawUpdates(rows: Int) throws -> Double {
    removeDatabase(rawPath)
    let db = try rawOpen(rawPath)
    defer { sqlite3_close(db) }
    try rawExec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF")
    try rawExec(db, createSQL)
    try rawExec(db, fillSQL)
    let statement = try rawPrepare(db, updateSQL)
    defer { sqlite3_finalize(statement) }
    let start = DispatchTime.now()
    for index in 0..<updateCount {
        try rawExec(db, "BEGIN IMMEDIATE")
        sqlite3_bind_int64(statement, 1, Int64(updatedRow(index, rows: rows)))
        try rawCheckDone(sqlite3_step(statement), db)
        sqlite3_reset(statement)
        try rawExec(db, "COMMIT")
    }
    return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

/// The values the observations received, for the checksum.
final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

struct Measure {
    var seconds: Double
    var bytesPerObservation: Int?
    var notified: Int
}

/// Cairn: `observers` observations of one row each, then the updates.
func cairnUpdates(observers: Int) throws -> Measure {
    removeDatabase(cairnPath)
    var configuration = Configuration()
    configuration.prepareDatabase { db in
        try db.execute(sql: "PRAGMA synchronous = OFF")
    }
    let dbQueue = try DatabaseQueue(path: cairnPath, configuration: configuration)
    // WAL, as raw C.
    try dbQueue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA journal_mode = WAL")
    }
    try dbQueue.write { db in
        try db.execute(sql: createSQL)
        try db.execute(sql: fillSQL)
    }
    let received = Received()
    let deliveryQueue = DispatchQueue(label: "ObservationBenchmark.delivery")
    let memoryBefore = PeakMemory.resident()
    var cancellables: [AnyDatabaseCancellable] = []
    cancellables.reserveCapacity(observers)
    for id in 1...observers {
        // A request by primary key: its region is the row (raw SQL would
        // track the whole table).
        let observation = ValueObservation.tracking { db in
            try Table("item").filter(key: id).fetchOne(db)
        }
        cancellables.append(observation.start(
            in: dbQueue,
            scheduling: .async(onQueue: deliveryQueue),
            onError: { error in fatalError("observation failed: \(error)") },
            onChange: { _ in received.add() }))
    }
    // The initial values are fetched asynchronously: wait for them all.
    let deadline = Date().addingTimeInterval(120)
    while received.value < observers && Date() < deadline {
        Thread.sleep(forTimeInterval: 0.01)
    }
    guard received.value >= observers else { throw BenchmarkError("the observations did not start") }
    let memoryAfter = PeakMemory.resident()
    let initial = received.value
    let start = DispatchTime.now()
    for index in 0..<updateCount {
        try dbQueue.write { db in
            try db.execute(sql: updateSQL, arguments: [updatedRow(index, rows: observers)])
        }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    // Every update changed an observed row: each is notified once (values
    // may be coalesced by nothing here: the delivery queue only counts).
    let expected = initial + updateCount
    while received.value < expected && Date() < deadline {
        Thread.sleep(forTimeInterval: 0.01)
    }
    let notified = received.value - initial
    cancellables.removeAll()
    try dbQueue.close()
    let bytes: Int? = if let memoryBefore, let memoryAfter { max(0, memoryAfter - memoryBefore) / observers } else { nil }
    return Measure(seconds: seconds, bytesPerObservation: bytes, notified: notified)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

do {
    print("Commit cost as observations grow: \(updateCount) one-row updates, each in its own transaction, \(iterations) iterations, medians")
    print("observers  raw C µs/commit  Cairn µs/commit  ratio  vs smallest  bytes/observation  notified")
    var firstCost: Double?
    var lastRelative = 0.0
    for observers in counts {
        var raw: [Double] = []
        var cairn: [Double] = []
        var bytes: Int?
        var notified = 0
        for _ in 0..<iterations {
            raw.append(try rawUpdates(rows: observers))
            let measure = try cairnUpdates(observers: observers)
            cairn.append(measure.seconds)
            if bytes == nil { bytes = measure.bytesPerObservation }
            notified = measure.notified
        }
        guard notified == updateCount else {
            throw BenchmarkError("\(observers) observers: \(notified) changes notified, expected \(updateCount)")
        }
        let rawCost = median(raw) / Double(updateCount)
        let cairnCost = median(cairn) / Double(updateCount)
        let relative = cairnCost / (firstCost ?? cairnCost)
        firstCost = firstCost ?? cairnCost
        lastRelative = relative
        let bytesColumn = bytes.map { String($0) } ?? "-"
        print(String(
            format: "%9d  %15.2f  %15.2f  %5.2f  %11.2f  ",
            observers, rawCost * 1e6, cairnCost * 1e6, cairnCost / rawCost, relative)
            + String(repeating: " ", count: max(0, 17 - bytesColumn.count)) + bytesColumn
            + String(format: "  %8d", notified))
    }
    if check {
        if counts.count > 1 && lastRelative > 2.0 {
            print("over budget: the commit at \(counts.last!) observers costs \(format(lastRelative)) times the commit at \(counts.first!) (budget 2.00)")
            exit(1)
        }
        print("within budget")
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
