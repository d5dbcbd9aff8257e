import Foundation
import Testing
import Cairn

/// BM25 written in Swift, with the formula and constants of SQLite's
/// built-in `bm25()`: the IDF of each phrase is computed once per query
/// and kept as auxiliary data.
let swiftBM25 = FTS5AuxiliaryFunction("swift_bm25") { context, arguments in
    final class QueryData {
        let idf: [Double]
        let averageLength: Double
        init(idf: [Double], averageLength: Double) {
            self.idf = idf
            self.averageLength = averageLength
        }
    }
    let data: QueryData
    if let cached = try context.auxiliaryData(as: QueryData.self) {
        data = cached
    } else {
        let rowCount = Double(try context.rowCount())
        let averageLength = Double(try context.columnTotalSize()) / rowCount
        let idf = try (0..<context.phraseCount()).map { phrase in
            var hits = 0.0
            try context.queryPhrase(phrase) { _ in hits += 1; return true }
            let idf = log((rowCount - hits + 0.5) / (hits + 0.5))
            return idf <= 0 ? 1e-6 : idf
        }
        data = QueryData(idf: idf, averageLength: averageLength)
        try context.setAuxiliaryData(data)
    }
    var frequencies = [Double](repeating: 0, count: data.idf.count)
    for index in 0..<(try context.instanceCount()) {
        let instance = try context.instance(at: index)
        let weight = instance.column < arguments.count ? (Double.fromDatabaseValue(arguments[instance.column]) ?? 1) : 1
        frequencies[instance.phrase] += weight
    }
    let length = Double(try context.columnSize())
    let (k1, b) = (1.2, 0.75)
    var score = 0.0
    for (phrase, frequency) in frequencies.enumerated() {
        score += data.idf[phrase] * (frequency * (k1 + 1)) / (frequency + k1 * (1 - b + b * length / data.averageLength))
    }
    return -score
}

/// A snippet: the matched tokens of the first column that has a match,
/// in brackets, with `width` tokens of context around the first match.
let bracketSnippet = FTS5AuxiliaryFunction("bracket_snippet") { context, arguments in
    let width = arguments.first.flatMap { Int.fromDatabaseValue($0) } ?? 2
    let instances = try context.instances()
    guard let first = instances.first, let text = try context.columnText(first.column) else { return nil }
    let tokens = try context.tokens(ofColumn: first.column).filter { !$0.flags.contains(.colocated) }
    var matched = Set<Int>()
    for instance in instances where instance.column == first.column {
        for offset in 0..<(try context.phraseSize(instance.phrase)) {
            matched.insert(instance.offset + offset)
        }
    }
    let window = max(0, first.offset - width)...min(tokens.count - 1, first.offset + width)
    return window.map { index in
        let word = String(text[tokens[index].range(in: text)!])
        return matched.contains(index) ? "[\(word)]" : word
    }.joined(separator: " ")
}

struct AuxiliaryTestError: Error, Equatable {
    var row: Int64
}

@Suite struct FTS5AuxiliaryFunctionTests {
    /// A corpus of documents of two columns, with repeated words, so that
    /// frequencies, lengths and IDFs differ.
    static let corpus: [(title: String, body: String)] = {
        let words = ["sqlite", "swift", "database", "search", "index", "query", "token", "engine",
                     "full", "text", "river", "mountain", "cloud", "rain", "table", "column"]
        var generator = SeededGenerator(seed: 7)
        return (0..<300).map { _ in
            let title = (0..<Int.random(in: 1...4, using: &generator)).map { _ in words.randomElement(using: &generator)! }
            let body = (0..<Int.random(in: 5...60, using: &generator)).map { _ in words.randomElement(using: &generator)! }
            return (title.joined(separator: " "), body.joined(separator: " "))
        }
    }()

    func makeCorpus(_ db: Database) throws {
        try db.create(virtualTable: "doc", using: FTS5()) { t in
            t.column("title")
            t.column("body")
        }
        for (title, body) in Self.corpus {
            try db.execute(sql: "INSERT INTO doc(title, body) VALUES (?, ?)", arguments: [title, body])
        }
    }

    @Test(arguments: WriterKind.allCases)
    func bm25InSwiftRanksAsTheBuiltInOne(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.prepareDatabase { db in db.add(auxiliaryFunction: swiftBM25) }
        let writer = try kind.make(path: directory.filePath(), configuration: config)
        try writer.write { db in try makeCorpus(db) }
        let queries = ["sqlite", "sqlite swift", "sqlite OR river", "\"full text\" search",
                       "title:engine OR body:cloud", "NEAR(index query, 3)", "tok*", "rain NOT cloud"]
        try writer.read { db throws in
            for query in queries {
                for weights in ["", ", 10.0, 1.0", ", 0.5, 2.0"] {
                    let rows = try Row.fetchAll(db, sql: """
                        SELECT rowid, bm25(doc\(weights)) AS builtIn, swift_bm25(doc\(weights)) AS swift
                        FROM doc WHERE doc MATCH ? ORDER BY swift_bm25(doc\(weights)), rowid
                        """, arguments: [query])
                    #expect(!rows.isEmpty, "\(query)")
                    for row in rows {
                        let builtIn: Double = row["builtIn"]
                        let swift: Double = row["swift"]
                        #expect(abs(builtIn - swift) <= 1e-9 * max(1, abs(builtIn)), "\(query) \(weights): \(builtIn) \(swift)")
                    }
                    // The same order as ORDER BY bm25().
                    let builtInOrder = try Int64.fetchAll(db, sql: """
                        SELECT rowid FROM doc WHERE doc MATCH ? ORDER BY bm25(doc\(weights)), rowid
                        """, arguments: [query])
                    #expect(rows.map { $0["rowid"] as Int64 } == builtInOrder, "\(query) \(weights)")
                }
            }
        }
    }

    @Test func customSnippet() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        dbQueue.add(auxiliaryFunction: bracketSnippet)
        try dbQueue.write { db throws in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = .porter()
                t.column("title")
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO doc VALUES (?, ?)", arguments: [
                "Notes", "The quick brown fox jumps over the lazy dog, while brown bears are Running."])
            #expect(try String.fetchOne(db, sql: "SELECT bracket_snippet(doc) FROM doc WHERE doc MATCH 'brown'")
                == "The quick [brown] fox jumps")
            #expect(try String.fetchOne(db, sql: "SELECT bracket_snippet(doc, 1) FROM doc WHERE doc MATCH '\"lazy dog\"'")
                == "the [lazy] [dog]")
            // Porter stems the query and the text: the snippet shows the text.
            #expect(try String.fetchOne(db, sql: "SELECT bracket_snippet(doc, 1) FROM doc WHERE doc MATCH 'run'")
                == "are [Running]")
            #expect(try String.fetchOne(db, sql: "SELECT bracket_snippet(doc) FROM doc WHERE doc MATCH 'title:notes'")
                == "[Notes]")
        }
    }

    @Test func extensionAPI() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        let describe = FTS5AuxiliaryFunction("describe") { context, arguments in
            var parts: [String] = []
            parts.append("row \(try context.rowID()) of \(try context.rowCount())")
            parts.append("columns \(try context.columnCount()), sizes \(try context.columnSize(0))+\(try context.columnSize(1))=\(try context.columnSize())")
            parts.append("totals \(try context.columnTotalSize(0))+\(try context.columnTotalSize(1))=\(try context.columnTotalSize())")
            let phrases = try (0..<context.phraseCount()).map { phrase in
                try (0..<context.phraseSize(phrase)).map { try context.queryToken(phrase: phrase, token: $0) }.joined(separator: " ")
            }
            parts.append("phrases \(phrases)")
            parts.append("instances " + (try context.instances().map { "\($0.phrase):\($0.column):\($0.offset)" }.joined(separator: ",")))
            parts.append("tokens " + (try (0..<context.instanceCount()).map { try context.instanceToken(at: $0, token: 0) }.joined(separator: ",")))
            if try context.phraseCount() > 0 {
                parts.append("phrase0 " + (try context.occurrences(ofPhrase: 0).map { "\($0.column):\($0.offset)" }.joined(separator: ",")))
                parts.append("columns0 \(try context.columns(containingPhrase: 0))")
            }
            parts.append("text \(try context.columnText(1) ?? "NULL")")
            parts.append("arguments \(arguments.map(\.description))")
            return parts.joined(separator: "; ")
        }
        dbQueue.add(auxiliaryFunction: describe)
        try dbQueue.write { db throws in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.column("title")
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO doc VALUES ('alpha beta', 'gamma alpha delta')")
            try db.execute(sql: "INSERT INTO doc VALUES ('epsilon', NULL)")
            let description = try String.fetchOne(db, sql: """
                SELECT describe(doc, 1, 'two') FROM doc WHERE doc MATCH 'alph* OR "gamma alpha"'
                """)
            #expect(description == """
                row 1 of 2; columns 2, sizes 2+3=5; totals 3+3=6; phrases ["alph", "gamma alpha"]; \
                instances 0:0:0,1:1:0,0:1:1; tokens alpha,gamma,alpha; phrase0 0:0,1:1; columns0 [0, 1]; \
                text gamma alpha delta; arguments ["1", "\\"two\\""]
                """)
            // Without MATCH, the function sees no phrase; NULL text is nil.
            let texts = try String.fetchAll(db, sql: "SELECT describe(doc) FROM doc WHERE rowid = 2")
            #expect(texts.first?.contains("phrases []; instances ; tokens ;") == true)
            #expect(texts.first?.contains("text NULL") == true)
        }
    }

    @Test func auxiliaryDataLastsOneQuery() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        // Counts the calls of the function within the query.
        let callNumber = FTS5AuxiliaryFunction("call_number") { context, _ in
            final class Counter { var count = 0 }
            let counter = try context.auxiliaryData(as: Counter.self) ?? Counter()
            if counter.count == 0 { try context.setAuxiliaryData(counter) }
            counter.count += 1
            return counter.count
        }
        dbQueue.add(auxiliaryFunction: callNumber)
        try dbQueue.write { db throws in
            try db.create(virtualTable: "doc", using: FTS5()) { t in t.column("content") }
            for _ in 0..<5 { try db.execute(sql: "INSERT INTO doc VALUES ('word')") }
            let sql = "SELECT call_number(doc) FROM doc WHERE doc MATCH 'word' ORDER BY rowid"
            #expect(try Int.fetchAll(db, sql: sql) == [1, 2, 3, 4, 5])
            #expect(try Int.fetchAll(db, sql: sql) == [1, 2, 3, 4, 5])
            // A value of another type reads as nil; a removed value too.
            let typed = FTS5AuxiliaryFunction("typed") { context, _ in
                try context.setAuxiliaryData("text")
                let asInt = try context.auxiliaryData(as: Int.self)
                let asString = try context.auxiliaryData(as: String.self)
                try context.removeAuxiliaryData()
                let removed = try context.auxiliaryData(as: String.self)
                return "\(asInt.map(String.init) ?? "nil") \(asString ?? "nil") \(removed ?? "nil")"
            }
            db.add(auxiliaryFunction: typed)
            #expect(try String.fetchAll(db, sql: "SELECT typed(doc) FROM doc WHERE doc MATCH 'word' LIMIT 1") == ["nil text nil"])
        }
    }

    @Test(arguments: WriterKind.allCases)
    func errorsAreTheStatementsErrors(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        let failing = FTS5AuxiliaryFunction("fail_on") { context, arguments in
            let rowID = try context.rowID()
            if arguments.first.flatMap({ Int64.fromDatabaseValue($0) }) == rowID {
                throw AuxiliaryTestError(row: rowID)
            }
            return rowID
        }
        let failingWithDatabaseError = FTS5AuxiliaryFunction("fail_db") { _, _ in
            throw DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: "custom constraint")
        }
        if let pool = writer as? DatabasePool {
            pool.add(auxiliaryFunction: failing)
            pool.add(auxiliaryFunction: failingWithDatabaseError)
        } else if let queue = writer as? DatabaseQueue {
            queue.add(auxiliaryFunction: failing)
            queue.add(auxiliaryFunction: failingWithDatabaseError)
        }
        try writer.write { db throws in
            try db.create(virtualTable: "doc", using: FTS5()) { t in t.column("content") }
            try db.create(table: "log") { t in t.column("value", .integer) }
            for _ in 0..<3 { try db.execute(sql: "INSERT INTO doc VALUES ('word')") }
        }
        // A statement that writes and fails rolls back its transaction:
        // nothing of the block remains.
        #expect(throws: AuxiliaryTestError(row: 2)) {
            try writer.write { db throws in
                try db.execute(sql: "INSERT INTO log VALUES (-1)")
                try db.execute(sql: "INSERT INTO log SELECT fail_on(doc, 2) FROM doc WHERE doc MATCH 'word' ORDER BY rowid")
            }
        }
        try writer.write { db throws in
            #expect(try Int.fetchAll(db, sql: "SELECT value FROM log") == [])
            try db.execute(sql: "INSERT INTO log VALUES (0)")
            // A query that fails leaves the transaction usable.
            let error = #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, sql: "SELECT fail_db(doc) FROM doc WHERE doc MATCH 'word'")
            }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.message == "custom constraint")
            try db.execute(sql: "INSERT INTO log SELECT fail_on(doc, 99) FROM doc WHERE doc MATCH 'word' ORDER BY rowid")
        }
        try writer.read { db throws in
            #expect(try Int.fetchAll(db, sql: "SELECT value FROM log ORDER BY rowid") == [0, 1, 2, 3])
            // Pool readers have the function too.
            #expect(try Int64.fetchAll(db, sql: "SELECT fail_on(doc) FROM doc WHERE doc MATCH 'word'") == [1, 2, 3])
        }
    }

    @Test func contextKeptAfterItsCallThrows() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        final class Keeper: @unchecked Sendable {
            var contexts: [FTS5AuxiliaryContext] = []
            var phraseContexts: [FTS5AuxiliaryContext] = []
        }
        let keeper = Keeper()
        dbQueue.add(auxiliaryFunction: FTS5AuxiliaryFunction("keep") { context, _ in
            keeper.contexts.append(context)
            try context.queryPhrase(0) { phraseContext in
                keeper.phraseContexts.append(phraseContext)
                return true
            }
            return try context.rowID()
        })
        try dbQueue.write { db throws in
            try db.create(virtualTable: "doc", using: FTS5()) { t in t.column("content") }
            for _ in 0..<3 { try db.execute(sql: "INSERT INTO doc VALUES ('word')") }
            #expect(try Int64.fetchAll(db, sql: "SELECT keep(doc) FROM doc WHERE doc MATCH 'word'") == [1, 2, 3])
        }
        // Each call got its own context, since the previous one was kept.
        #expect(Set(keeper.contexts.map(ObjectIdentifier.init)).count == 3)
        for context in keeper.contexts + keeper.phraseContexts {
            let error = #expect(throws: DatabaseError.self) { try context.rowID() }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(throws: DatabaseError.self) { try context.instances() }
        }
    }

    @Test func invalidIndexesThrow() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        dbQueue.add(auxiliaryFunction: FTS5AuxiliaryFunction("probe") { context, arguments in
            switch String.fromDatabaseValue(arguments[0]) {
            case "column": return try context.columnText(5)
            case "phrase": return try context.phraseSize(3)
            case "instance": return try context.instance(at: 10).offset
            case "locale": return try context.columnLocale(-1)
            case "size": return try context.columnSize(-1)
            case "total": return try context.columnTotalSize(-2)
            case "huge": return try context.instance(at: Int.max).offset
            case "token": return try context.queryToken(phrase: 0, token: -1)
            default: return nil
            }
        })
        try dbQueue.write { db throws in
            try db.create(virtualTable: "doc", using: FTS5()) { t in t.column("content") }
            try db.execute(sql: "INSERT INTO doc VALUES ('word')")
            for probe in ["column", "phrase", "instance", "locale", "size", "total", "huge", "token"] {
                #expect(throws: DatabaseError.self, "\(probe)") {
                    try Row.fetchAll(db, sql: "SELECT probe(doc, ?) FROM doc WHERE doc MATCH 'word'", arguments: [probe])
                }
            }
            #expect(try Row.fetchAll(db, sql: "SELECT probe(doc, 'none') FROM doc WHERE doc MATCH 'word'").count == 1)
        }
    }
}
