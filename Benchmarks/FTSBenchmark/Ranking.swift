import BenchmarkSupport
import Cairn
import CairnSQLiteShims
import Foundation

// Workload 23: ranking with an auxiliary function written in Swift, a BM25
// with the formula, constants and order of operations of SQLite's built-in
// bm25(), against bm25() itself in raw C. Both rank the rows of the same
// queries on the same table.

/// BM25 in Swift: what an application writes to rank with its own
/// formula. The IDF of each phrase is computed once per query and kept as
/// auxiliary data.
let swiftBM25 = FTS5AuxiliaryFunction("swift_bm25") { context, arguments in
    let data: BM25QueryData
    if let cached = try context.auxiliaryData(as: BM25QueryData.self) {
        data = cached
    } else {
        data = try BM25QueryData(context)
        try context.setAuxiliaryData(data)
    }
    let phraseCount = data.idf.count
    return try withUnsafeTemporaryAllocation(of: Double.self, capacity: phraseCount) { frequencies in
        frequencies.initialize(repeating: 0)
        for index in 0..<(try context.instanceCount()) {
            let instance = try context.instance(at: index)
            frequencies[instance.phrase] += instance.column < arguments.count
                ? (Double.fromDatabaseValue(arguments[instance.column]) ?? 1) : 1
        }
        let length = Double(try context.columnSize())
        let (k1, b) = (1.2, 0.75)
        var score = 0.0
        for phrase in 0..<phraseCount {
            score += data.idf[phrase] * ((frequencies[phrase] * (k1 + 1.0))
                / (frequencies[phrase] + k1 * (1 - b + b * length / data.averageLength)))
        }
        return -1.0 * score
    }
}

/// What BM25 computes once per query.
final class BM25QueryData {
    let idf: [Double]
    let averageLength: Double

    init(_ context: FTS5AuxiliaryContext) throws {
        let rowCount = try context.rowCount()
        averageLength = Double(try context.columnTotalSize()) / Double(rowCount)
        idf = try (0..<context.phraseCount()).map { phrase in
            var hits = 0
            try context.queryPhrase(phrase) { _ in hits += 1; return true }
            let idf = log((Double(rowCount) - Double(hits) + 0.5) / (Double(hits) + 0.5))
            return idf <= 0 ? 1e-6 : idf
        }
    }
}

/// The queries of the workload: each matches about a third of the rows.
/// Each runs 4 times per iteration, so that an iteration lasts long
/// enough to time.
let rankingQueries = Array(repeating: ["river", "sea OR storm", "\"gold silver\"", "snapshot", "rain"], count: 4).flatMap { $0 }

/// Creates the table that the ranking workload queries (before it is
/// timed), and returns the path of its database.
func makeRankingDatabase(_ documents: [String]) throws -> String {
    let path = temporaryPath("cairn-fts-benchmark-ranking.sqlite")
    for suffix in ["", "-journal", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
    }
    let dbQueue = try DatabaseQueue(path: path)
    try dbQueue.write { db in
        try db.execute(sql: "CREATE VIRTUAL TABLE doc USING fts5(content)")
        let statement = try db.makeStatement(sql: "INSERT INTO doc(content) VALUES (?)")
        for document in documents {
            try statement.execute(arguments: [document])
        }
    }
    try dbQueue.close()
    return path
}

/// The sum of the rowids of the 10 best rows of each query, weighted by
/// rank: the same for both implementations only when they rank alike.
func rankingChecksum(_ rowIDs: [[Int64]]) -> Int {
    rowIDs.reduce(0) { sum, rows in
        rows.enumerated().reduce(sum) { $0 &+ Int($1.element) &* ($1.offset + 1) }
    }
}

func rawRank(_ path: String) throws -> Int {
    let db = try rawOpen(path, readonly: true)
    defer { sqlite3_close(db) }
    let statement = try rawPrepare(db, "SELECT rowid FROM doc WHERE doc MATCH ? ORDER BY bm25(doc), rowid LIMIT 10")
    defer { sqlite3_finalize(statement) }
    var results: [[Int64]] = []
    for query in rankingQueries {
        _ = query.withCString { sqlite3_bind_text(statement, 1, $0, -1, _cairn_sqlite_transient()) }
        var rows: [Int64] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append(sqlite3_column_int64(statement, 0))
        }
        sqlite3_reset(statement)
        results.append(rows)
    }
    return rankingChecksum(results)
}

func cairnRank(_ path: String) throws -> Int {
    var configuration = Configuration()
    configuration.readonly = true
    configuration.prepareDatabase { db in db.add(auxiliaryFunction: swiftBM25) }
    let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
    defer { try? dbQueue.close() }
    let results = try dbQueue.read { db in
        let statement = try db.cachedStatement(sql: "SELECT rowid FROM doc WHERE doc MATCH ? ORDER BY swift_bm25(doc), rowid LIMIT 10")
        return try rankingQueries.map { query in
            try Int64.fetchAll(statement, arguments: [query])
        }
    }
    return rankingChecksum(results)
}
