import Cairn
import Foundation

// Minimal helpers for the raw C implementations: they fail loudly, so that a
// broken baseline cannot look fast.

/// Opens a connection with the C API.
public func rawOpen(_ path: String, readonly: Bool = false) throws -> OpaquePointer {
    var db: OpaquePointer?
    let flags = readonly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
    guard sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let db else {
        throw BenchmarkError("could not open \(path)")
    }
    return db
}

/// Runs SQL with the C API.
public func rawExec(_ db: OpaquePointer, _ sql: String) throws {
    guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
        throw BenchmarkError("\(sql): \(String(cString: sqlite3_errmsg(db)))")
    }
}

/// Prepares a statement with the C API.
public func rawPrepare(_ db: OpaquePointer, _ sql: String) throws -> OpaquePointer {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
        throw BenchmarkError("\(sql): \(String(cString: sqlite3_errmsg(db)))")
    }
    return statement
}

/// Throws unless a step returned SQLITE_DONE.
public func rawCheckDone(_ code: Int32, _ db: OpaquePointer) throws {
    guard code == SQLITE_DONE else {
        throw BenchmarkError("step: \(String(cString: sqlite3_errmsg(db)))")
    }
}

/// The sum of all columns of all rows of the `item` table of a database
/// file, read with the C API (to check what an insert workload wrote).
public func rawItemChecksum(_ path: String) throws -> Int {
    let db = try rawOpen(path, readonly: true)
    defer { sqlite3_close(db) }
    return try rawItemChecksum(db)
}

/// The sum of all columns of all rows of the `item` table, and the row
/// count, read with an open raw connection.
public func rawItemChecksum(_ db: OpaquePointer) throws -> Int {
    let statement = try rawPrepare(db, "SELECT TOTAL(i0+i1+i2+i3+i4+i5+i6+i7+i8+i9), COUNT(*) FROM item")
    defer { sqlite3_finalize(statement) }
    guard sqlite3_step(statement) == SQLITE_ROW else { throw BenchmarkError("checksum query failed") }
    return Int(sqlite3_column_double(statement, 0)) &+ Int(sqlite3_column_int64(statement, 1))
}

/// Inserts `rows` rows of 10 integers into the `item` table, in one
/// transaction, with a statement prepared once (the raw C side of the
/// insert workloads).
public func rawInsertItems(_ db: OpaquePointer, rows: Int) throws {
    try rawExec(db, "BEGIN")
    let statement = try rawPrepare(db, "INSERT INTO item VALUES (?,?,?,?,?,?,?,?,?,?)")
    for row in 0..<rows {
        for column in 0..<10 {
            sqlite3_bind_int64(statement, Int32(column + 1), Int64(row &+ column))
        }
        try rawCheckDone(sqlite3_step(statement), db)
        sqlite3_reset(statement)
    }
    sqlite3_finalize(statement)
    try rawExec(db, "COMMIT")
}
