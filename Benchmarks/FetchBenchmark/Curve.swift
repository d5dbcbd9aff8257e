import BenchmarkSupport
import Cairn
import Foundation

// `FetchBenchmark --curve`: the cost per row of a cursor and of fetchAll of
// records, from 10^4 to 10^7 rows (see Benchmarks/Support/Curve.swift).

/// The connections of the curve's current table, opened once per size, so
/// that opening costs nothing to the small sizes.
private final class CurveConnections {
    let path = temporaryPath("cairn-fetch-curve.sqlite")
    var rawDB: OpaquePointer?
    var dbQueue: DatabaseQueue?

    func reopen(rows: Int) throws {
        close()
        for suffix in ["", "-journal", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
        let db = try rawOpen(path)
        try rawExec(db, "PRAGMA synchronous = OFF")
        // The table of the other workloads (main.swift's globals are not
        // initialized yet when the curve runs).
        try rawExec(db, "CREATE TABLE item (i0 INTEGER, i1 INTEGER, i2 INTEGER, i3 INTEGER, i4 INTEGER, i5 INTEGER, i6 INTEGER, i7 INTEGER, i8 INTEGER, i9 INTEGER)")
        try rawExec(db, """
            WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < \(rows - 1))
            INSERT INTO item SELECT x*10, x*10+1, x*10+2, x*10+3, x*10+4, x*10+5, x*10+6, x*10+7, x*10+8, x*10+9 FROM n
            """)
        sqlite3_close(db)
        rawDB = try rawOpen(path, readonly: true)
        dbQueue = try DatabaseQueue(path: path)
    }

    func close() {
        if let rawDB { sqlite3_close(rawDB) }
        rawDB = nil
        try? dbQueue?.close()
        dbQueue = nil
    }
}

/// Runs the curve and exits, when the command line asks for it.
func runCurveIfAsked() {
    guard let options = CurveOptions() else { return }
    let connections = CurveConnections()
    let selectAll = "SELECT * FROM item"
    runCurve(title: "Fetch", options: options, prepare: { try connections.reopen(rows: $0) }, workloads: [
        CurveWorkload("cursor, positional", raw: { _ in
            try rawColumnSum(connections.rawDB!, sql: selectAll)
        }, cairn: { _ in
            try connections.dbQueue!.read { db in try cairnPositionalColumnSum(db, sql: selectAll) }
        }),
        CurveWorkload("fetchAll, init(row:)", raw: { _ in
            try rawRecordArraySum(connections.rawDB!, sql: selectAll)
        }, cairn: { _ in
            try connections.dbQueue!.read { db in try totalSum(ItemRecord.fetchAll(db, sql: selectAll)) }
        }),
    ])
}
