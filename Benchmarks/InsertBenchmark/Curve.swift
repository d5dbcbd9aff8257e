import BenchmarkSupport
import Cairn
import Foundation

// `InsertBenchmark --curve`: the cost per row of positional and record
// inserts into a fresh table, in one transaction, from 10^4 to 10^7 rows
// (see Benchmarks/Support/Curve.swift). Both sides run with synchronous=OFF:
// the curve measures the cost of a row, not the time of an fsync.

private let curvePaths = [
    temporaryPath("cairn-insert-curve-raw.sqlite"),
    temporaryPath("cairn-insert-curve-cairn.sqlite"),
]

/// The table of the other workloads (main.swift's globals are not
/// initialized yet when the curve runs).
private let curveCreateSQL = "CREATE TABLE item (i0 INTEGER, i1 INTEGER, i2 INTEGER, i3 INTEGER, i4 INTEGER, i5 INTEGER, i6 INTEGER, i7 INTEGER, i8 INTEGER, i9 INTEGER)"

private func freshCurvePath(_ index: Int) -> String {
    for suffix in ["", "-journal", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: curvePaths[index] + suffix)
    }
    return curvePaths[index]
}

/// A cheap check of what a run wrote: the last rowid and the values of the
/// last row (a full scan would weigh as much as the insert).
private func lastRowChecksum(_ db: OpaquePointer) throws -> Int {
    let statement = try rawPrepare(db, "SELECT rowid, i0, i9 FROM item ORDER BY rowid DESC LIMIT 1")
    defer { sqlite3_finalize(statement) }
    guard sqlite3_step(statement) == SQLITE_ROW else { throw BenchmarkError("no row was inserted") }
    return Int(sqlite3_column_int64(statement, 0)) &* 1_000_003
        &+ Int(sqlite3_column_int64(statement, 1)) &* 31 &+ Int(sqlite3_column_int64(statement, 2))
}

private func rawCurveInsert(rows: Int) throws -> Int {
    let db = try rawOpen(freshCurvePath(0))
    defer { sqlite3_close(db) }
    try rawExec(db, "PRAGMA synchronous = OFF")
    try rawExec(db, curveCreateSQL)
    try rawInsertItems(db, rows: rows)
    return try lastRowChecksum(db)
}

private func cairnCurveInsert(rows: Int, _ insertRows: (Database) throws -> Void) throws -> Int {
    let dbQueue = try DatabaseQueue(path: freshCurvePath(1))
    try dbQueue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA synchronous = OFF")
        try db.execute(sql: curveCreateSQL)
    }
    try dbQueue.write(insertRows)
    let checksum = try dbQueue.read { db in try lastRowChecksum(db.sqliteConnection!) }
    try dbQueue.close()
    return checksum
}

/// Runs the curve and exits, when the command line asks for it.
func runCurveIfAsked() {
    guard let options = CurveOptions() else { return }
    runCurve(title: "Insert", options: options, workloads: [
        CurveWorkload("insert positional", raw: rawCurveInsert(rows:), cairn: { rows in
            try cairnCurveInsert(rows: rows) { db in
                let statement = try db.cachedStatement(sql: "INSERT INTO item VALUES (?,?,?,?,?,?,?,?,?,?)")
                for row in 0..<rows {
                    try statement.execute(arguments: [
                        row, row &+ 1, row &+ 2, row &+ 3, row &+ 4, row &+ 5, row &+ 6, row &+ 7, row &+ 8, row &+ 9])
                }
            }
        }),
        CurveWorkload("insert record", raw: rawCurveInsert(rows:), cairn: { rows in
            try cairnCurveInsert(rows: rows) { db in
                for row in 0..<rows {
                    try ItemRecord(
                        i0: row, i1: row &+ 1, i2: row &+ 2, i3: row &+ 3, i4: row &+ 4,
                        i5: row &+ 5, i6: row &+ 6, i7: row &+ 7, i8: row &+ 8, i9: row &+ 9).insert(db)
                }
            }
        }),
    ])
}
