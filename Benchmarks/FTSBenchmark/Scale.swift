import BenchmarkSupport
import Cairn
import CairnSQLiteShims
import Foundation

// `FTSBenchmark --scale N`: indexes N documents (a million for the report;
// CI runs it tiny) with raw C and with Cairn, then times queries of four
// kinds on both indexes. The documents mix the English vocabulary of the
// other workloads with 20,000 generated words of Zipf-like frequencies, so
// that terms range from very common to rare, as in real text.

/// The documents of the scale run, generated one at a time (a million
/// documents do not stay in memory).
struct ScaleCorpus: Sequence, IteratorProtocol {
    static let syllables = ["ba", "ce", "di", "fo", "gu", "ha", "je", "ki", "lo", "mu",
                            "na", "pe", "ri", "so", "tu", "va", "we", "xi", "yo", "zu"]
    static let wordCount = 20_000

    /// The generated word of a rank (0 is the most frequent).
    static func word(_ rank: Int) -> String {
        var rank = rank
        var word = ""
        for _ in 0..<4 {
            word += syllables[rank % syllables.count]
            rank /= syllables.count
        }
        return word
    }

    var remaining: Int
    var generator = CorpusGenerator(seed: 0x5EED_5CA1E)

    init(count: Int) {
        remaining = count
    }

    mutating func next() -> String? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        var words: [String] = []
        words.reserveCapacity(40)
        for _ in 0..<40 {
            if generator.next(below: 2) == 0 {
                words.append(englishVocabulary[generator.next(below: englishVocabulary.count)])
            } else {
                // rank = wordCount^u - 1: frequency about 1/rank.
                let u = Double(generator.next(below: 1 << 24)) / Double(1 << 24)
                let rank = Swift.min(Self.wordCount - 1, Int(pow(Double(Self.wordCount), u)) - 1)
                words.append(Self.word(rank))
            }
        }
        return words.joined(separator: " ")
    }
}

/// The queries of one kind, and how to run them.
struct ScaleQuery {
    var name: String
    var sql: String
    var patterns: [String]
}

func scaleQueries() -> [ScaleQuery] {
    var generator = CorpusGenerator(seed: 0xC0FFEE)
    func words(_ ranks: Range<Int>, count: Int) -> [String] {
        (0..<count).map { _ in ScaleCorpus.word(ranks.lowerBound + generator.next(below: ranks.count)) }
    }
    let select = "SELECT rowid FROM doc WHERE doc MATCH ?"
    return [
        ScaleQuery(name: "term", sql: select, patterns: words(200..<2_000, count: 200)),
        ScaleQuery(name: "phrase", sql: select, patterns: zip(words(0..<30, count: 200), words(0..<30, count: 200)).map { "\"\($0) \($1)\"" }),
        ScaleQuery(name: "prefix", sql: select, patterns: words(0..<2_000, count: 200).map { String($0.prefix(6)) + "*" }),
        ScaleQuery(name: "ORDER BY rank LIMIT 10", sql: select + " ORDER BY rank LIMIT 10", patterns: words(20..<200, count: 200)),
    ]
}

/// Latency percentiles, in milliseconds.
func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))] * 1000
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func freshScalePath(_ name: String) -> String {
    let path = temporaryPath("cairn-fts-scale-\(name).sqlite")
    for suffix in ["", "-journal", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
    }
    return path
}

/// Runs the scale report and exits.
func runScale(documents count: Int) -> Never {
    do {
        print("Full-text search at scale: \(count) documents of 40 words")
        // Indexing.
        let rawPath = freshScalePath("raw")
        PeakMemory.reset()
        let rawTime = try seconds {
            let db = try rawOpen(rawPath)
            defer { sqlite3_close(db) }
            try rawExec(db, "PRAGMA synchronous = OFF")
            try rawExec(db, "CREATE VIRTUAL TABLE doc USING fts5(content)")
            try rawExec(db, "BEGIN")
            let statement = try rawPrepare(db, "INSERT INTO doc(content) VALUES (?)")
            for document in ScaleCorpus(count: count) {
                _ = document.withCString { sqlite3_bind_text(statement, 1, $0, -1, _cairn_sqlite_transient()) }
                try rawCheckDone(sqlite3_step(statement), db)
                sqlite3_reset(statement)
            }
            sqlite3_finalize(statement)
            try rawExec(db, "COMMIT")
        }
        let rawPeak = PeakMemory.current()

        func cairnIndex(_ path: String, _ tokenizer: FTS5TokenizerDescriptor?) throws -> (Double, Int?) {
            PeakMemory.reset()
            var configuration = Configuration()
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = OFF")
                db.add(tokenizer: FTS5WordTokenizer.self)
            }
            let time = try seconds {
                let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
                try dbQueue.write { db in
                    try db.create(virtualTable: "doc", using: FTS5()) { t in
                        t.tokenizer = tokenizer
                        t.column("content")
                    }
                    let statement = try db.cachedStatement(sql: "INSERT INTO doc(content) VALUES (?)")
                    for document in ScaleCorpus(count: count) {
                        try statement.execute(arguments: [document])
                    }
                }
                try dbQueue.close()
            }
            return (time, PeakMemory.current())
        }
        let cairnPath = freshScalePath("cairn")
        let (cairnTime, cairnPeak) = try cairnIndex(cairnPath, nil)
        let wordsPath = freshScalePath("words")
        let (wordsTime, wordsPeak) = try cairnIndex(wordsPath, FTS5WordTokenizer.tokenizerDescriptor())
        try? FileManager.default.removeItem(atPath: wordsPath)

        print("indexing                      raw C s   Cairn s   ratio  peak MB raw/Cairn")
        print("unicode61                     \(format(rawTime, 2).padding(9))\(format(cairnTime, 2).padding(10))"
            + "\(format(cairnTime / rawTime).padding(7))\(megabytes(rawPeak))/\(megabytes(cairnPeak))")
        print("cairn_words (raw: unicode61)  \(format(rawTime, 2).padding(9))\(format(wordsTime, 2).padding(10))"
            + "\(format(wordsTime / rawTime).padding(7))\(megabytes(rawPeak))/\(megabytes(wordsPeak))")

        // Queries: the same patterns on both indexes, each timed alone.
        let rawDB = try rawOpen(rawPath, readonly: true)
        defer { sqlite3_close(rawDB) }
        // One read transaction, as Cairn's read access.
        try rawExec(rawDB, "BEGIN")
        defer { try? rawExec(rawDB, "COMMIT") }
        let dbQueue = try DatabaseQueue(path: cairnPath)
        print("")
        print("query (200 of each)           raw C p50/p99 ms   Cairn p50/p99 ms   ratio p50  rows per query")
        for query in scaleQueries() {
            let statement = try rawPrepare(rawDB, query.sql)
            defer { sqlite3_finalize(statement) }
            func rawQuery(_ pattern: String) -> Int {
                _ = pattern.withCString { sqlite3_bind_text(statement, 1, $0, -1, _cairn_sqlite_transient()) }
                var rows = 0
                while sqlite3_step(statement) == SQLITE_ROW { rows += 1 }
                sqlite3_reset(statement)
                return rows
            }
            var rawLatencies: [Double] = []
            var cairnLatencies: [Double] = []
            var rawRows = 0
            var cairnRows = 0
            try dbQueue.read { db in
                let cairnStatement = try db.cachedStatement(sql: query.sql)
                // A first pass warms both page caches; then each pattern is
                // timed with raw C and with Cairn, one after the other.
                for pattern in query.patterns {
                    _ = rawQuery(pattern)
                    _ = try Int64.fetchAll(cairnStatement, arguments: [pattern])
                }
                for pattern in query.patterns {
                    rawLatencies.append(seconds { rawRows += rawQuery(pattern) })
                    try cairnLatencies.append(seconds {
                        cairnRows += try Int64.fetchAll(cairnStatement, arguments: [pattern]).count
                    })
                }
            }
            guard rawRows == cairnRows else {
                throw BenchmarkError("\(query.name): raw C found \(rawRows) rows, Cairn \(cairnRows)")
            }
            rawLatencies.sort()
            cairnLatencies.sort()
            let rawP50 = percentile(rawLatencies, 0.5), rawP99 = percentile(rawLatencies, 0.99)
            let cairnP50 = percentile(cairnLatencies, 0.5), cairnP99 = percentile(cairnLatencies, 0.99)
            print(query.name.padding(30)
                + "\(format(rawP50, 3))/\(format(rawP99, 3))".padding(19)
                + "\(format(cairnP50, 3))/\(format(cairnP99, 3))".padding(19)
                + format(cairnP50 / rawP50).padding(11)
                + String(cairnRows / max(query.patterns.count, 1)))
        }
        try dbQueue.close()
        for path in [rawPath, cairnPath] {
            try? FileManager.default.removeItem(atPath: path)
        }
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        exit(1)
    }
}

extension String {
    /// The string padded with spaces to `width` characters.
    func padding(_ width: Int) -> String {
        padding(toLength: max(width, count + 1), withPad: " ", startingAt: 0)
    }
}
