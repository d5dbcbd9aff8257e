import BenchmarkSupport
import Cairn
import Foundation
import CairnSQLiteShims

// Full-text indexing: documents inserted into an FTS5 table in one
// transaction. Raw C indexes with the built-in unicode61 tokenizer; Cairn
// indexes through Swift wrapper tokenizers around unicode61: a tokenizer
// that passes tokens through (the cost of the Swift bridge), and the
// ready-made Latin-ASCII folding, synonym and stop-word tokenizers. The
// corpus is built in: generated from a fixed vocabulary with a fixed seed.

let options = BenchmarkOptions(defaultRows: 20_000)
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
let corpus: [String] = {
    let vocabulary = """
        river mountain database engine search index token query table column record value \
        the a of and to in is it that was for on are as with his they at be this have from \
        first second third 1st 2nd 3rd café naïve Großmann Jérôme encyclopædia fidélité Øresund \
        whale captain sea ship harbor storm wind sail crew island map treasure gold silver \
        swift sqlite pool snapshot writer reader cursor statement argument transaction commit \
        garden flower tree leaf branch root seed rain sun cloud winter summer autumn spring
        """.split(separator: " ").map(String.init)
    var state: UInt64 = 0x2545F4914F6CDD1D
    func next() -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int(truncatingIfNeeded: state >> 33)
    }
    return (0..<documentCount).map { _ in
        (0..<40).map { _ in vocabulary[next() % vocabulary.count] }.joined(separator: " ")
    }
}()

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
}

// Raw C: unicode61, prepare once, bind text, step, reset.
func rawIndex() throws -> Int {
    let db = try rawOpen(freshPath(0))
    try rawExec(db, "PRAGMA synchronous = OFF")
    try rawExec(db, String(format: createSQL, "'unicode61'"))
    try rawExec(db, "BEGIN")
    let statement = try rawPrepare(db, "INSERT INTO doc(content) VALUES (?)")
    for document in corpus {
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

/// Indexes the corpus with Cairn, through a tokenizer.
func cairnIndex(_ tokenizer: FTS5TokenizerDescriptor) throws -> Int {
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
        for document in corpus {
            try statement.execute(arguments: [document])
        }
    }
    try dbQueue.close()
    return 1
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
BenchmarkRunner(title: "Full-text indexing (ratios to unicode61 in raw C)", options: options).run(workloads)
