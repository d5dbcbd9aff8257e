import BenchmarkSupport
import Cairn

// The loops that the fixed-size workloads (main.swift) and the curve
// (Curve.swift) share.

/// Raw C: steps `sql` and sums the 10 columns of each row, read with
/// sqlite3_column_int64.
func rawColumnSum(_ db: OpaquePointer, sql: String) throws -> Int {
    let statement = try rawPrepare(db, sql)
    defer { sqlite3_finalize(statement) }
    var sum = 0
    while sqlite3_step(statement) == SQLITE_ROW {
        for column in Int32(0)..<10 {
            sum &+= Int(sqlite3_column_int64(statement, column))
        }
    }
    return sum
}

/// Raw C: the same, building an array of structs first, as fetchAll does.
func rawRecordArraySum(_ db: OpaquePointer, sql: String) throws -> Int {
    let statement = try rawPrepare(db, sql)
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

/// Cairn: a row cursor over `sql`, whose 10 columns are read by position.
func cairnPositionalColumnSum(_ db: Database, sql: String) throws -> Int {
    var sum = 0
    let rows = try Row.fetchCursor(db, sql: sql)
    while let row = try rows.next() {
        sum &+= row[0] as Int; sum &+= row[1] as Int; sum &+= row[2] as Int; sum &+= row[3] as Int
        sum &+= row[4] as Int; sum &+= row[5] as Int; sum &+= row[6] as Int; sum &+= row[7] as Int
        sum &+= row[8] as Int; sum &+= row[9] as Int
    }
    return sum
}
