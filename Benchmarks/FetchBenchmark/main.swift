import BenchmarkSupport
import Cairn
import Foundation

// Fetch throughput: reading 10 INTEGER columns of every row of a table, with
// Cairn and with the raw C API of the same SQLite, in one process.

let options = BenchmarkOptions(defaultRows: 200_000)
let path = temporaryPath("cairn-fetch-benchmark-\(options.rows).sqlite")
let columnsSQL = "i0 INTEGER, i1 INTEGER, i2 INTEGER, i3 INTEGER, i4 INTEGER, i5 INTEGER, i6 INTEGER, i7 INTEGER, i8 INTEGER, i9 INTEGER"

/// Generates the database once; later runs reuse the file.
func makeDatabase() throws {
    if FileManager.default.fileExists(atPath: path) { return }
    let db = try rawOpen(path)
    defer { sqlite3_close(db) }
    try rawExec(db, "DROP TABLE IF EXISTS item; CREATE TABLE item (\(columnsSQL)); BEGIN")
    let statement = try rawPrepare(db, "INSERT INTO item VALUES (?,?,?,?,?,?,?,?,?,?)")
    defer { sqlite3_finalize(statement) }
    for row in 0..<options.rows {
        for column in 0..<10 {
            sqlite3_bind_int64(statement, Int32(column + 1), Int64(row &* 10 &+ column))
        }
        try rawCheckDone(sqlite3_step(statement), db)
        sqlite3_reset(statement)
    }
    try rawExec(db, "COMMIT")
}

/// A record whose `init(row:)` is written by hand.
struct ItemRecord: FetchableRecord {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int

    init(row: Row) {
        i0 = row[0]; i1 = row[1]; i2 = row[2]; i3 = row[3]; i4 = row[4]
        i5 = row[5]; i6 = row[6]; i7 = row[7]; i8 = row[8]; i9 = row[9]
    }

    init(i0: Int, i1: Int, i2: Int, i3: Int, i4: Int, i5: Int, i6: Int, i7: Int, i8: Int, i9: Int) {
        (self.i0, self.i1, self.i2, self.i3, self.i4) = (i0, i1, i2, i3, i4)
        (self.i5, self.i6, self.i7, self.i8, self.i9) = (i5, i6, i7, i8, i9)
    }

    var sum: Int { i0 &+ i1 &+ i2 &+ i3 &+ i4 &+ i5 &+ i6 &+ i7 &+ i8 &+ i9 }
}

/// A Decodable record of the same table.
struct DecodableItem: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "item"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
    var sum: Int { i0 &+ i1 &+ i2 &+ i3 &+ i4 &+ i5 &+ i6 &+ i7 &+ i8 &+ i9 }
}

/// A record of the `item` table, whose values a workload sums.
protocol ItemSum {
    var sum: Int { get }
}
extension ItemRecord: ItemSum { }
extension DecodableItem: ItemSum { }

/// The sum of the values of records.
///
/// A function, not a closure given to `reduce`: a closure written in
/// top-level code is isolated to the main actor, and Swift checks the
/// executor at each of its calls, which would add the same cost per row to
/// both implementations.
func totalSum(_ records: [some ItemSum]) -> Int {
    var total = 0
    for record in records { total &+= record.sum }
    return total
}

do {
    try makeDatabase()
    let rawDB = try rawOpen(path, readonly: true)
    let dbQueue = try DatabaseQueue(path: path)
    let selectAll = "SELECT * FROM item"

    // Raw C: step and read each column with sqlite3_column_int64.
    func rawSumOfAllColumns() throws -> Int {
        let statement = try rawPrepare(rawDB, selectAll)
        defer { sqlite3_finalize(statement) }
        var sum = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            for column in Int32(0)..<10 {
                sum &+= Int(sqlite3_column_int64(statement, column))
            }
        }
        return sum
    }

    // Raw C: the same, building an array of structs first, as fetchAll does.
    func rawArrayOfRecords() throws -> Int {
        let statement = try rawPrepare(rawDB, selectAll)
        defer { sqlite3_finalize(statement) }
        var records: [ItemRecord] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            func value(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }
            records.append(ItemRecord(
                i0: value(0), i1: value(1), i2: value(2), i3: value(3), i4: value(4),
                i5: value(5), i6: value(6), i7: value(7), i8: value(8), i9: value(9)))
        }
        return totalSum(records)
    }

    // Raw C: an array of the values of one column.
    func rawArrayOfValues() throws -> Int {
        let statement = try rawPrepare(rawDB, "SELECT i0 FROM item")
        defer { sqlite3_finalize(statement) }
        var values: [Int] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            values.append(Int(sqlite3_column_int64(statement, 0)))
        }
        return values.reduce(0, &+)
    }

    let workloads = [
        Workload("1 positional", budget: 1.10, raw: rawSumOfAllColumns) {
            try dbQueue.read { db in
                var sum = 0
                let rows = try Row.fetchCursor(db, sql: selectAll)
                while let row = try rows.next() {
                    sum &+= row[0] as Int; sum &+= row[1] as Int; sum &+= row[2] as Int; sum &+= row[3] as Int
                    sum &+= row[4] as Int; sum &+= row[5] as Int; sum &+= row[6] as Int; sum &+= row[7] as Int
                    sum &+= row[8] as Int; sum &+= row[9] as Int
                }
                return sum
            }
        },
        Workload("2 named", budget: 1.35, raw: rawSumOfAllColumns) {
            try dbQueue.read { db in
                var sum = 0
                let rows = try Row.fetchCursor(db, sql: selectAll)
                while let row = try rows.next() {
                    sum &+= row["i0"] as Int; sum &+= row["i1"] as Int; sum &+= row["i2"] as Int
                    sum &+= row["i3"] as Int; sum &+= row["i4"] as Int; sum &+= row["i5"] as Int
                    sum &+= row["i6"] as Int; sum &+= row["i7"] as Int; sum &+= row["i8"] as Int
                    sum &+= row["i9"] as Int
                }
                return sum
            }
        },
        Workload("3 record init(row:)", budget: 1.30, raw: rawArrayOfRecords) {
            try dbQueue.read { db in
                try totalSum(ItemRecord.fetchAll(db, sql: selectAll))
            }
        },
        Workload("4 Decodable fetchAll", budget: 2.0, raw: rawArrayOfRecords) {
            try dbQueue.read { db in
                try totalSum(DecodableItem.fetchAll(db))
            }
        },
        Workload("4 Decodable fetchCursor", budget: nil, raw: rawSumOfAllColumns) {
            try dbQueue.read { db in
                var sum = 0
                let records = try DecodableItem.fetchCursor(db)
                while let record = try records.next() {
                    sum &+= record.sum
                }
                return sum
            }
        },
        Workload("5 values Int.fetchAll", budget: nil, raw: rawArrayOfValues) {
            try dbQueue.read { db in
                try Int.fetchAll(db, sql: "SELECT i0 FROM item").reduce(0, &+)
            }
        },
    ]
    BenchmarkRunner(title: "Fetch", options: options).run(workloads)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
