import BenchmarkSupport
import Cairn
import Foundation

// Fetch throughput: reading 10 INTEGER columns of every row of a table, with
// Cairn and with the raw C API of the same SQLite, in one process.

runCurveIfAsked()  // `--curve`: Curve.swift
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

/// A record of the `item` table fetched by primary key (the hidden rowid),
/// with a hand-written `init(row:)`.
struct KeyedItem: FetchableRecord, TableRecord {
    static let databaseTableName = "item"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int

    init(row: Row) {
        i0 = row[0]; i1 = row[1]; i2 = row[2]; i3 = row[3]; i4 = row[4]
        i5 = row[5]; i6 = row[6]; i7 = row[7]; i8 = row[8]; i9 = row[9]
    }

    var sum: Int { i0 &+ i1 &+ i2 &+ i3 &+ i4 &+ i5 &+ i6 &+ i7 &+ i8 &+ i9 }
}

/// The rowids of the point lookups of workloads 11 and 12: 100,000 ids
/// spread over the table in a fixed pseudo-random order.
let lookupIDs: [Int] = {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0..<100_000).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(options.rows)) + 1
    }
}()

/// The number of rows the cursor of the memory workload iterates.
let generatedRowCount = 2_000_000
let generatedRowsSQL = """
    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < \(generatedRowCount)) SELECT x FROM n
    """

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

/// The rowids of workload 18: 50,000 distinct ids of the table, in a fixed
/// pseudo-random order (more than SQLite's 32,766 parameters).
let manyKeys: [Int64] = {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    var keys = Set<Int64>()
    var ordered: [Int64] = []
    let count = min(50_000, options.rows)
    while ordered.count < count {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let key = Int64((state >> 33) % UInt64(options.rows)) + 1
        if keys.insert(key).inserted { ordered.append(key) }
    }
    return ordered
}()

/// The blob of workload 19: 64 MB, read in pieces of 1 MB.
let blobPath = temporaryPath("cairn-blob-benchmark-64MB.sqlite")
let blobPieceSize = 1 << 20
let blobPieceCount = 64

/// Generates the database of the blob once; later runs reuse the file.
func makeBlobDatabase() throws {
    if FileManager.default.fileExists(atPath: blobPath) { return }
    let buildPath = blobPath + "-building"
    try? FileManager.default.removeItem(atPath: buildPath)
    let db = try rawOpen(buildPath)
    try rawExec(db, "CREATE TABLE file (id INTEGER PRIMARY KEY, content BLOB NOT NULL); BEGIN")
    try rawExec(db, "INSERT INTO file VALUES (1, zeroblob(\(blobPieceSize * blobPieceCount)))")
    var blob: OpaquePointer?
    guard sqlite3_blob_open(db, "main", "file", "content", 1, 1, &blob) == SQLITE_OK, let blob else {
        throw BenchmarkError("blob: \(String(cString: sqlite3_errmsg(db)))")
    }
    var piece = [UInt8](repeating: 0, count: blobPieceSize)
    for index in 0..<blobPieceCount {
        for offset in stride(from: 0, to: blobPieceSize, by: 4096) {
            piece[offset] = UInt8(truncatingIfNeeded: index &+ offset >> 12)
        }
        guard sqlite3_blob_write(blob, piece, Int32(blobPieceSize), Int32(index * blobPieceSize)) == SQLITE_OK else {
            throw BenchmarkError("blob write: \(String(cString: sqlite3_errmsg(db)))")
        }
    }
    sqlite3_blob_close(blob)
    try rawExec(db, "COMMIT")
    sqlite3_close(db)
    try FileManager.default.moveItem(atPath: buildPath, toPath: blobPath)
}

/// A checksum of a piece of the blob: one byte per page.
func pieceChecksum(_ bytes: UnsafeRawBufferPointer) -> Int {
    var sum = 0
    for offset in stride(from: 0, to: bytes.count, by: 4096) { sum &+= Int(bytes[offset]) }
    return sum
}

do {
    try makeDatabase()
    try makeBlobDatabase()
    let rawDB = try rawOpen(path, readonly: true)
    let dbQueue = try DatabaseQueue(path: path)
    let selectAll = "SELECT * FROM item"

    // Raw C: step and read each column with sqlite3_column_int64
    // (Workloads.swift).
    func rawSumOfAllColumns() throws -> Int {
        try rawColumnSum(rawDB, sql: selectAll)
    }

    // Raw C: the same, building an array of structs first, as fetchAll does.
    func rawArrayOfRecords() throws -> Int {
        try rawRecordArraySum(rawDB, sql: selectAll)
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

    // Raw C: 100,000 lookups by rowid with one prepared statement, in one
    // read transaction as `dbQueue.read` does (outside a transaction, each
    // lookup would lock and unlock the file).
    func rawPointLookups() throws -> Int {
        let statement = try rawPrepare(rawDB, "SELECT * FROM item WHERE rowid = ?")
        defer { sqlite3_finalize(statement) }
        try rawExec(rawDB, "BEGIN")
        defer { try? rawExec(rawDB, "COMMIT") }
        var sum = 0
        for id in lookupIDs {
            sqlite3_bind_int64(statement, 1, Int64(id))
            guard sqlite3_step(statement) == SQLITE_ROW else { throw BenchmarkError("no row \(id)") }
            for column in Int32(0)..<10 {
                sum &+= Int(sqlite3_column_int64(statement, column))
            }
            sqlite3_reset(statement)
        }
        return sum
    }

    // Raw C: a cursor over 2,000,000 generated rows.
    func rawGeneratedRows() throws -> Int {
        let statement = try rawPrepare(rawDB, generatedRowsSQL)
        defer { sqlite3_finalize(statement) }
        var sum = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            sum &+= Int(sqlite3_column_int64(statement, 0))
        }
        return sum
    }

    // Raw C: the rows of 50,000 keys, bound as one array with the
    // mechanism of filter(keys:) (a DatabaseValueArray read by the
    // cairn_values table function, which Cairn registers on its
    // connections: the statement runs on the handle of Cairn's connection).
    let manyKeysSQL = "SELECT * FROM item WHERE rowid IN (SELECT +value FROM cairn_values(?))"
    func rawManyKeys() throws -> Int {
        try dbQueue.read { db in
            guard let handle = db.sqliteConnection else { throw BenchmarkError("closed") }
            let statement = try rawPrepare(handle, manyKeysSQL)
            defer { sqlite3_finalize(statement) }
            guard case .blob(let array) = DatabaseValueArray(manyKeys).databaseValue.storage else {
                throw BenchmarkError("not a blob")
            }
            _ = array.withUnsafeBytes { bytes in
                sqlite3_bind_blob(statement, 1, bytes.baseAddress, Int32(bytes.count), nil)
            }
            var sum = 0
            while sqlite3_step(statement) == SQLITE_ROW {
                for column in Int32(0)..<10 {
                    sum &+= Int(sqlite3_column_int64(statement, column))
                }
            }
            return sum
        }
    }

    // Raw C: 64 MB read with sqlite3_blob_read, 1 MB at a time, into one
    // buffer, in one read transaction.
    let blobQueue = try DatabaseQueue(path: blobPath)
    let rawBlobDB = try rawOpen(blobPath, readonly: true)
    func rawBlobRead() throws -> Int {
        try rawExec(rawBlobDB, "BEGIN")
        defer { try? rawExec(rawBlobDB, "COMMIT") }
        var blob: OpaquePointer?
        guard sqlite3_blob_open(rawBlobDB, "main", "file", "content", 1, 0, &blob) == SQLITE_OK, let blob else {
            throw BenchmarkError("blob: \(String(cString: sqlite3_errmsg(rawBlobDB)))")
        }
        defer { sqlite3_blob_close(blob) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: blobPieceSize, alignment: 16)
        defer { buffer.deallocate() }
        var sum = 0
        for index in 0..<blobPieceCount {
            guard sqlite3_blob_read(blob, buffer.baseAddress, Int32(blobPieceSize), Int32(index * blobPieceSize)) == SQLITE_OK else {
                throw BenchmarkError("blob read")
            }
            sum &+= pieceChecksum(UnsafeRawBufferPointer(buffer))
        }
        return sum
    }

    let workloads = [
        Workload("1 positional", budget: 1.20, raw: rawSumOfAllColumns) {
            try dbQueue.read { db in
                try cairnPositionalColumnSum(db, sql: selectAll)
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
        Workload("4 Decodable fetchAll", budget: 2.80, raw: rawArrayOfRecords) {
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
        // What people write for a lookup: the SQL string at each call.
        Workload("11 Row.fetchOne(sql:) by rowid", budget: 1.60, units: lookupIDs.count, raw: rawPointLookups) {
            try dbQueue.read { db in
                var sum = 0
                for id in lookupIDs {
                    guard let row = try Row.fetchOne(db, sql: "SELECT * FROM item WHERE rowid = ?", arguments: [id]) else {
                        throw BenchmarkError("no row \(id)")
                    }
                    sum &+= row[0] as Int; sum &+= row[1] as Int; sum &+= row[2] as Int; sum &+= row[3] as Int
                    sum &+= row[4] as Int; sum &+= row[5] as Int; sum &+= row[6] as Int; sum &+= row[7] as Int
                    sum &+= row[8] as Int; sum &+= row[9] as Int
                }
                return sum
            }
        },
        Workload("12 Record.fetchOne(key:)", budget: 1.55, units: lookupIDs.count, raw: rawPointLookups) {
            try dbQueue.read { db in
                var sum = 0
                for id in lookupIDs {
                    guard let item = try KeyedItem.fetchOne(db, key: id) else { throw BenchmarkError("no row \(id)") }
                    sum &+= item.sum
                }
                return sum
            }
        },
        // Memory: a cursor keeps one row at a time (see the peak column).
        Workload("18 filter(keys:) 50,000 keys", budget: 1.35, units: manyKeys.count, raw: rawManyKeys) {
            try dbQueue.read { db in
                var sum = 0
                for item in try KeyedItem.fetchAll(db, keys: manyKeys) { sum &+= item.sum }
                return sum
            }
        },
        Workload("19 blob read 64 MB", budget: 1.10, units: blobPieceCount, raw: rawBlobRead) {
            try blobQueue.read { db in
                let blob = try db.openBlob(table: "file", column: "content", rowID: 1)
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: blobPieceSize, alignment: 16)
                defer { buffer.deallocate() }
                var sum = 0
                for index in 0..<blobPieceCount {
                    try blob.read(into: buffer, at: index * blobPieceSize)
                    sum &+= pieceChecksum(UnsafeRawBufferPointer(buffer))
                }
                return sum
            }
        },
        Workload("cursor over 2,000,000 rows", budget: nil, units: generatedRowCount, raw: rawGeneratedRows) {
            try dbQueue.read { db in
                var sum = 0
                let rows = try Row.fetchCursor(db, sql: generatedRowsSQL)
                while let row = try rows.next() {
                    sum &+= row[0] as Int
                }
                return sum
            }
        },
    ]
    BenchmarkRunner(title: "Fetch", options: options).run(workloads)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
