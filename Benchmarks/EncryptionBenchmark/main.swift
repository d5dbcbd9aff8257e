import BenchmarkSupport
import Cairn
import Foundation

// Encrypted databases (trait SQLITE_HAS_CODEC): inserts and reads of rows of
// 10 INTEGER columns in a database encrypted in SQLCipher 4's format, with
// Cairn and with the raw C API of the same build (sqlite3_key_v2 after the
// same cipher settings). The connections open once, outside the timed
// sections: the key derivation (PBKDF2, 256,000 iterations) costs the same
// in both, and would hide the cost per row. Workload 23 gives the cost of
// encryption itself: raw C on an encrypted database against raw C on a
// clear-text one.

#if SQLITE_HAS_CODEC
let options = BenchmarkOptions(defaultRows: 50_000)
let rows = options.rows
let passphrase = "benchmark passphrase"
let createSQL = "CREATE TABLE item (i0 INTEGER, i1 INTEGER, i2 INTEGER, i3 INTEGER, i4 INTEGER, i5 INTEGER, i6 INTEGER, i7 INTEGER, i8 INTEGER, i9 INTEGER)"

/// Opens a raw connection, encrypted with the settings of `usePassphrase`
/// (SQLCipher 4) unless `encrypted` is false.
func rawOpenEncrypted(_ path: String, encrypted: Bool = true) throws -> OpaquePointer {
    for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    let db = try rawOpen(path)
    if encrypted {
        let cipher = sqlite3mc_cipher_index("sqlcipher")
        guard sqlite3mc_config(db, "cipher", cipher) == cipher,
              sqlite3mc_config_cipher(db, "sqlcipher", "legacy", 4) == 4,
              sqlite3_key_v2(db, "main", passphrase, Int32(passphrase.utf8.count)) == SQLITE_OK
        else { throw BenchmarkError("could not key \(path)") }
    }
    try rawExec(db, "PRAGMA synchronous = FULL")
    return db
}

let rawEncryptedDB = try rawOpenEncrypted(temporaryPath("cairn-encryption-benchmark-raw.sqlite"))
let rawClearDB = try rawOpenEncrypted(temporaryPath("cairn-encryption-benchmark-clear.sqlite"), encrypted: false)
let cairnQueue: DatabaseQueue = try {
    let path = temporaryPath("cairn-encryption-benchmark-cairn.sqlite")
    for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    var config = Configuration()
    config.prepareDatabase { db in try db.usePassphrase(passphrase) }
    let dbQueue = try DatabaseQueue(path: path, configuration: config)
    try dbQueue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
    return dbQueue
}()

// Raw C: a fresh table, then the rows.
func rawInsert(_ db: OpaquePointer) throws -> Int {
    try rawExec(db, "DROP TABLE IF EXISTS item")
    try rawExec(db, createSQL)
    try rawInsertItems(db, rows: rows)
    return try rawItemChecksum(db)
}

// Raw C: the sum of all columns, read with a statement.
func rawRead(_ db: OpaquePointer) throws -> Int {
    let statement = try rawPrepare(db, "SELECT * FROM item")
    defer { sqlite3_finalize(statement) }
    var sum = 0
    while sqlite3_step(statement) == SQLITE_ROW {
        for column in 0..<10 { sum &+= Int(sqlite3_column_int64(statement, Int32(column))) }
    }
    return sum
}

func cairnInsert() throws -> Int {
    try cairnQueue.writeWithoutTransaction { db in
        try db.execute(sql: "DROP TABLE IF EXISTS item")
        try db.execute(sql: createSQL)
    }
    try cairnQueue.write { db in
        let statement = try db.cachedStatement(sql: "INSERT INTO item VALUES (?,?,?,?,?,?,?,?,?,?)")
        for row in 0..<rows {
            try statement.execute(arguments: [
                row, row &+ 1, row &+ 2, row &+ 3, row &+ 4, row &+ 5, row &+ 6, row &+ 7, row &+ 8, row &+ 9])
        }
    }
    return try cairnQueue.read { db in
        let row = try Row.fetchOne(db, sql: "SELECT TOTAL(i0+i1+i2+i3+i4+i5+i6+i7+i8+i9), COUNT(*) FROM item")!
        return Int(row[0] as Double) &+ (row[1] as Int)
    }
}

func cairnRead() throws -> Int {
    try cairnQueue.read { db in
        let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM item")
        var sum = 0
        while let row = try cursor.next() {
            for column in 0..<10 { sum &+= row[column] as Int }
        }
        return sum
    }
}

// The reads need the rows: insert them once in each database.
_ = try rawInsert(rawEncryptedDB)
_ = try rawInsert(rawClearDB)
_ = try cairnInsert()

BenchmarkRunner(title: "Encrypted databases (SQLCipher 4 format)", options: options).run([
    Workload("21 encrypted insert", budget: nil, raw: { try rawInsert(rawEncryptedDB) }, cairn: cairnInsert),
    Workload("22 encrypted read", budget: nil, raw: { try rawRead(rawEncryptedDB) }, cairn: cairnRead),
    // Not Cairn against raw C: encrypted raw C ("Cairn" column) against
    // clear-text raw C ("raw C" column), both in this build.
    Workload("23 cost of encryption: raw insert, encrypted / clear", budget: nil,
             raw: { try rawInsert(rawClearDB) }, cairn: { try rawInsert(rawEncryptedDB) }),
    Workload("23 cost of encryption: raw read, encrypted / clear", budget: nil,
             raw: { try rawRead(rawClearDB) }, cairn: { try rawRead(rawEncryptedDB) }),
])
#else
print("EncryptionBenchmark measures encrypted databases: build it with the trait SQLITE_HAS_CODEC")
print("  swift run -c release --traits SQLITE_HAS_CODEC EncryptionBenchmark")
#endif
