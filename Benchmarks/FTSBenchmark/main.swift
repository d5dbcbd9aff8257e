import BenchmarkSupport
import Cairn
import Foundation
import CairnSQLiteShims

// Full-text indexing and ranking: documents inserted into an FTS5 table in
// one transaction. Raw C indexes with the built-in unicode61 tokenizer;
// Cairn indexes through Swift wrapper tokenizers around unicode61: a
// tokenizer that passes tokens through (the cost of the Swift bridge), and
// the ready-made Latin-ASCII folding, synonym and stop-word tokenizers.
// Then the word tokenizer (cairn_words) on Chinese text, against raw C
// calling the same ICU break iterator, and on English text, against
// unicode61; and a BM25 written in Swift against the built-in bm25(). The
// corpora are built in: generated from fixed vocabularies with fixed seeds
// (Corpus.swift). `--scale N` reports indexing and query latencies at N
// documents instead (Scale.swift).

var arguments = Array(CommandLine.arguments.dropFirst())
if let index = arguments.firstIndex(of: "--scale") {
    guard index + 1 < arguments.count, let count = Int(arguments[index + 1]), count > 0 else {
        FileHandle.standardError.write(Data("error: --scale takes a number of documents\n".utf8))
        exit(2)
    }
    runScale(documents: count)
}
let options = BenchmarkOptions(arguments: arguments, defaultRows: 20_000)
let documentCount = options.rows

/// A pass-through wrapper: the cost of a Swift tokenizer.
final class PassThroughTokenizer: FTS5WrapperTokenizer {
    static let name = "passthrough"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }

    func accept(
        token: String,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback) throws
    {
        try tokenCallback(token, flags)
    }

    // The byte-level path, which FTS5 takes.
    func accept(
        utf8Token token: UnsafeRawBufferPointer,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        locale: String?,
        tokenCallback: FTS5WrapperUTF8TokenCallback) throws
    {
        try tokenCallback(token, flags)
    }
}

/// A pass-through wrapper that implements the String API only (as in the
/// GRDB guides): a String per token, in and out.
final class StringPassThroughTokenizer: FTS5WrapperTokenizer {
    static let name = "passthrough_string"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }

    func accept(
        token: String,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback) throws
    {
        try tokenCallback(token, flags)
    }
}

/// The corpus: documents of 40 words, mostly English, with some latin
/// letters beyond ASCII.
let corpus = englishCorpus(count: documentCount)

/// Documents of 40 Chinese words, written without spaces.
let chineseDocuments = chineseCorpus(count: documentCount)

let createSQL = "CREATE VIRTUAL TABLE doc USING fts5(content, tokenize=%@)"
let paths = [temporaryPath("cairn-fts-benchmark-raw.sqlite"), temporaryPath("cairn-fts-benchmark-cairn.sqlite")]

func freshPath(_ index: Int) -> String {
    for suffix in ["", "-journal", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: paths[index] + suffix)
    }
    return paths[index]
}

/// The number of documents, and of documents that contain "river": the
/// same for all the tokenizers of the benchmark.
func checksum(pathIndex: Int) throws -> Int {
    var configuration = Configuration()
    configuration.prepareDatabase { db in registerTokenizers(db) }
    let dbQueue = try DatabaseQueue(path: paths[pathIndex], configuration: configuration)
    defer { try? dbQueue.close() }
    return try dbQueue.read { db in
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc")!
        let river = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH 'river'")!
        return count * 1_000_000 + river
    }
}

func registerTokenizers(_ db: Database) {
    db.add(tokenizer: PassThroughTokenizer.self)
    db.add(tokenizer: StringPassThroughTokenizer.self)
    db.add(tokenizer: FTS5LatinASCIITokenizer.self)
    db.add(tokenizer: FTS5SynonymTokenizer.self)
    db.add(tokenizer: FTS5StopWordTokenizer.self)
    db.add(tokenizer: FTS5WordTokenizer.self)
}

// Raw C: prepare once, bind text, step, reset.
func rawIndex(_ documents: [String], tokenizer: String = "unicode61", register: (OpaquePointer) throws -> Void = { _ in }) throws -> Int {
    let db = try rawOpen(freshPath(0))
    try rawExec(db, "PRAGMA synchronous = OFF")
    try register(db)
    try rawExec(db, String(format: createSQL, "'\(tokenizer)'"))
    try rawExec(db, "BEGIN")
    let statement = try rawPrepare(db, "INSERT INTO doc(content) VALUES (?)")
    for document in documents {
        _ = document.withCString { text in
            sqlite3_bind_text(statement, 1, text, -1, _cairn_sqlite_transient())
        }
        try rawCheckDone(sqlite3_step(statement), db)
        sqlite3_reset(statement)
    }
    sqlite3_finalize(statement)
    try rawExec(db, "COMMIT")
    sqlite3_close(db)
    return 0
}

func rawIndex() throws -> Int {
    try rawIndex(corpus)
}

/// Indexes documents with Cairn, through a tokenizer.
func cairnIndex(_ tokenizer: FTS5TokenizerDescriptor, documents: [String] = corpus) throws -> Int {
    var configuration = Configuration()
    configuration.prepareDatabase { db in
        // No fsync at commit, as in raw C: the workloads measure indexing,
        // and the time of an fsync varies by tens of milliseconds.
        try db.execute(sql: "PRAGMA synchronous = OFF")
        registerTokenizers(db)
    }
    let dbQueue = try DatabaseQueue(path: freshPath(1), configuration: configuration)
    try dbQueue.write { db in
        try db.create(virtualTable: "doc", using: FTS5()) { t in
            t.tokenizer = tokenizer
            t.column("content")
        }
        let statement = try db.cachedStatement(sql: "INSERT INTO doc(content) VALUES (?)")
        for document in documents {
            try statement.execute(arguments: [document])
        }
    }
    try dbQueue.close()
    return 1
}

/// The number of documents, and of documents that contain 科学 (science).
func chineseChecksum(pathIndex: Int) throws -> Int {
    var configuration = Configuration()
    configuration.prepareDatabase { db in
        registerTokenizers(db)
        #if canImport(_FoundationICU)
        // The raw C table names raw C's tokenizer.
        if let handle = db.sqliteConnection { try rawRegisterICUTokenizer(handle) }
        #endif
    }
    let dbQueue = try DatabaseQueue(path: paths[pathIndex], configuration: configuration)
    defer { try? dbQueue.close() }
    return try dbQueue.read { db in
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc")!
        let matches = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH '科学'")!
        return count * 1_000_000 + matches
    }
}

/// The ranking database, made by the warm-up run of workload 23.
nonisolated(unsafe) var rankingPath: String?

func rankingDatabase() throws -> String {
    if let rankingPath { return rankingPath }
    let path = try makeRankingDatabase(corpus)
    rankingPath = path
    return path
}

let workloads = [
    Workload("16 index, unicode61 through Cairn (no Swift tokenizer)", budget: nil, raw: rawIndex, checksum: checksum(pathIndex:)) {
        try cairnIndex(.unicode61())
    },
    Workload("17 index, Swift pass-through tokenizer", budget: 1.10, raw: rawIndex, checksum: checksum(pathIndex:)) {
        try cairnIndex(PassThroughTokenizer.tokenizerDescriptor())
    },
    Workload("17s index, Swift pass-through tokenizer, String API", budget: nil, raw: rawIndex, checksum: checksum(pathIndex:)) {
        try cairnIndex(StringPassThroughTokenizer.tokenizerDescriptor())
    },
    Workload("18 index, Latin-ASCII folding", budget: 1.25, raw: rawIndex, checksum: checksum(pathIndex:)) {
        try cairnIndex(FTS5LatinASCIITokenizer.tokenizerDescriptor())
    },
    Workload("19 index, synonyms", budget: 1.40, raw: rawIndex, checksum: checksum(pathIndex:)) {
        try cairnIndex(FTS5SynonymTokenizer.tokenizerDescriptor(synonyms: [["first", "1st"], ["second", "2nd"], ["third", "3rd"]]))
    },
    Workload("20 index, stop words", budget: 1.20, raw: rawIndex, checksum: checksum(pathIndex:)) {
        try cairnIndex(FTS5StopWordTokenizer.tokenizerDescriptor(stopWords: ["the", "a", "of", "and", "to", "in", "is"]))
    },
]

#if canImport(_FoundationICU)
let wordWorkloads = [
    Workload("21 index Chinese, cairn_words (raw: the same ICU iterator)", budget: 1.15,
             raw: { try rawIndex(chineseDocuments, tokenizer: "raw_icu", register: rawRegisterICUTokenizer) },
             checksum: chineseChecksum(pathIndex:)) {
        try cairnIndex(FTS5WordTokenizer.tokenizerDescriptor(), documents: chineseDocuments)
    },
]
#else
let wordWorkloads: [Workload] = []
#endif

let otherWorkloads = [
    Workload("22 index English, cairn_words (raw: unicode61)", budget: nil, raw: rawIndex, checksum: checksum(pathIndex:)) {
        try cairnIndex(FTS5WordTokenizer.tokenizerDescriptor())
    },
    Workload("23 rank, Swift BM25 (raw: bm25())", budget: 1.5, units: rankingQueries.count,
             raw: { try rawRank(rankingDatabase()) }) {
        try cairnRank(rankingDatabase())
    },
]

BenchmarkRunner(title: "Full-text search (ratios to raw C)", options: options).run(workloads + wordWorkloads + otherWorkloads)
