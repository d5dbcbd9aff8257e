import BenchmarkSupport
import Cairn
import Foundation

// Insert throughput: inserting rows of 10 INTEGER columns into a fresh file
// database in one transaction, with Cairn and with the raw C API of the same
// SQLite, in one process. Timings include opening the database, CREATE TABLE,
// BEGIN…COMMIT and closing, with the default journal mode and
// synchronous=FULL.

runCurveIfAsked()  // `--curve`: Curve.swift
let options = BenchmarkOptions(defaultRows: 50_000)
let createSQL = "CREATE TABLE item (i0 INTEGER, i1 INTEGER, i2 INTEGER, i3 INTEGER, i4 INTEGER, i5 INTEGER, i6 INTEGER, i7 INTEGER, i8 INTEGER, i9 INTEGER)"

/// A record whose `encode(to:)` is written by hand.
struct ItemRecord: PersistableRecord {
    static let databaseTableName = "item"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int

    func encode(to container: inout PersistenceContainer) {
        container["i0"] = i0; container["i1"] = i1; container["i2"] = i2; container["i3"] = i3
        container["i4"] = i4; container["i5"] = i5; container["i6"] = i6; container["i7"] = i7
        container["i8"] = i8; container["i9"] = i9
    }
}

/// An Encodable record of the same table.
struct EncodableItem: Encodable, PersistableRecord {
    static let databaseTableName = "item"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
}

/// The database files of the raw C and Cairn implementations.
let paths = [
    temporaryPath("cairn-insert-benchmark-raw.sqlite"),
    temporaryPath("cairn-insert-benchmark-cairn.sqlite"),
]
let rawPathIndex = 0, cairnPathIndex = 1

/// Removes the database file at `paths[index]`, and returns its path.
func freshPath(_ index: Int) -> String {
    let path = paths[index]
    for suffix in ["", "-journal", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
    }
    return path
}

/// The checksum of the rows an implementation inserted, read back after the
/// timed section.
func checksum(pathIndex: Int) throws -> Int {
    try rawItemChecksum(paths[pathIndex])
}

let rows = options.rows

/// Where the observation of workload 6b delivers its values.
let observationQueue = DispatchQueue(label: "InsertBenchmark.observation")


// Raw C: prepare once, bind 10 integers, step, reset.
func rawInsert() throws -> Int {
    let path = freshPath(rawPathIndex)
    let db = try rawOpen(path)
    try rawExec(db, "PRAGMA synchronous = FULL")
    try rawExec(db, createSQL)
    try rawInsertItems(db, rows: rows)
    sqlite3_close(db)
    return rawPathIndex
}

/// Runs a Cairn insert implementation in a fresh database.
func cairnInsert(_ insertRows: (Database) throws -> Void) throws -> Int {
    let path = freshPath(cairnPathIndex)
    let dbQueue = try DatabaseQueue(path: path)
    try dbQueue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA synchronous = FULL")
        try db.execute(sql: createSQL)
    }
    try dbQueue.write(insertRows)
    try dbQueue.close()
    return cairnPathIndex
}

/// A transaction observer that reads the new values of each inserted row,
/// as an audit log would.
final class PreUpdateObserver: TransactionObserver {
    var sum = 0
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseWillChange(with event: DatabasePreUpdateEvent) {
        if case .int64(let value)? = event.finalDatabaseValue(atIndex: 0)?.storage {
            sum &+= Int(value)
        }
    }
    func databaseDidChange(with event: DatabaseEvent) { }
    func databaseDidCommit(_ db: Database) { }
    func databaseDidRollback(_ db: Database) { }
}

/// Inserts the rows with the positional statement of workload 6.
func insertPositional(_ db: Database) throws {
    let statement = try db.cachedStatement(sql: "INSERT INTO item VALUES (?,?,?,?,?,?,?,?,?,?)")
    for row in 0..<rows {
        try statement.execute(arguments: [
            row, row &+ 1, row &+ 2, row &+ 3, row &+ 4, row &+ 5, row &+ 6, row &+ 7, row &+ 8, row &+ 9])
    }
}

let workloads = [
    Workload("6 insert positional", budget: 1.55, raw: rawInsert, checksum: checksum(pathIndex:)) {
        // Like raw C, the statement is prepared once and reused.
        try cairnInsert(insertPositional)
    },
    Workload("7 insert named", budget: 1.80, raw: rawInsert, checksum: checksum(pathIndex:)) {
        try cairnInsert { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO item VALUES (:i0,:i1,:i2,:i3,:i4,:i5,:i6,:i7,:i8,:i9)")
            for row in 0..<rows {
                try statement.execute(arguments: [
                    "i0": row, "i1": row &+ 1, "i2": row &+ 2, "i3": row &+ 3, "i4": row &+ 4,
                    "i5": row &+ 5, "i6": row &+ 6, "i7": row &+ 7, "i8": row &+ 8, "i9": row &+ 9])
            }
        }
    },
    Workload("8 insert record", budget: 1.60, raw: rawInsert, checksum: checksum(pathIndex:)) {
        try cairnInsert { db in
            for row in 0..<rows {
                try ItemRecord(
                    i0: row, i1: row &+ 1, i2: row &+ 2, i3: row &+ 3, i4: row &+ 4,
                    i5: row &+ 5, i6: row &+ 6, i7: row &+ 7, i8: row &+ 8, i9: row &+ 9).insert(db)
            }
        }
    },
    // What people write: the SQL string at each call, no statement kept.
    Workload("10 execute(sql:) per row", budget: 1.65, raw: rawInsert, checksum: checksum(pathIndex:)) {
        try cairnInsert { db in
            for row in 0..<rows {
                try db.execute(sql: "INSERT INTO item VALUES (?,?,?,?,?,?,?,?,?,?)", arguments: [
                    row, row &+ 1, row &+ 2, row &+ 3, row &+ 4, row &+ 5, row &+ 6, row &+ 7, row &+ 8, row &+ 9])
            }
        }
    },
    Workload("9 insert Encodable", budget: 2.50, raw: rawInsert, checksum: checksum(pathIndex:)) {
        try cairnInsert { db in
            for row in 0..<rows {
                try EncodableItem(
                    i0: row, i1: row &+ 1, i2: row &+ 2, i3: row &+ 3, i4: row &+ 4,
                    i5: row &+ 5, i6: row &+ 6, i7: row &+ 7, i8: row &+ 8, i9: row &+ 9).insert(db)
            }
        }
    },
]

// The cost of observation: workload 6 with a transaction observer that reads
// the new values of each row (pre-update hook), and with a ValueObservation
// of the row count (one fetch after the commit, on the writer).
let observationWorkloads = [
    Workload("6a insert, pre-update observer", budget: nil, raw: rawInsert, checksum: checksum(pathIndex:)) {
        let observer = PreUpdateObserver()
        let result = try cairnInsert { db in
            db.add(transactionObserver: observer)
            try insertPositional(db)
        }
        precondition(observer.sum == (0..<rows).reduce(0, &+), "the observer missed rows")
        return result
    },
    Workload("6b insert, ValueObservation", budget: nil, raw: rawInsert, checksum: checksum(pathIndex:)) {
        let path = freshPath(cairnPathIndex)
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: createSQL)
        }
        let lastCount = Locked(-1)
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item")! }
            .start(in: dbQueue, scheduling: .async(onQueue: observationQueue), onError: { error in
                fatalError("observation failed: \(error)")
            }, onChange: { count in lastCount.withLock { $0 = count } })
        try dbQueue.write(insertPositional)
        observationQueue.sync { }
        precondition(lastCount.withLock { $0 } == rows, "the observation missed the commit")
        cancellable.cancel()
        try dbQueue.close()
        return cairnPathIndex
    },
]

BenchmarkRunner(title: "Insert", options: options).run(workloads + observationWorkloads)
