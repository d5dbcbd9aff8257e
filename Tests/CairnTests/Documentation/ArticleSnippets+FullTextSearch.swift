import Foundation
import Cairn

// The Swift code of Sources/Cairn/Documentation.docc/FullTextSearch.md,
// block by block, so that it compiles and runs in the tests (ArticleTests
// checks that each block of the article is here, line after line, between
// its markers). Lines that are not in the article only wrap the blocks: a
// namespace for its types, functions for its statements (with the `db` and
// `userInput` that the article assumes), and the use of values the article
// leaves unused. The article's "/path/to/database.sqlite" is `databasePath`
// here.
enum FullTextSearchArticle { }

// FullTextSearch.md block 0
extension FullTextSearchArticle {
    static func block0(_ db: Database) throws {
        try db.create(virtualTable: "document", using: FTS5()) { t in
            t.tokenizer = .porter()          // English stemming: "running" matches "run"
            t.column("title")
            t.column("body")
            t.column("uuid").notIndexed()    // stored, not searched
        }
    }
}
// end of FullTextSearch.md block 0

// FullTextSearch.md block 1
extension FullTextSearchArticle {
    struct Document: Codable, FetchableRecord, PersistableRecord {
        var title: String
        var body: String
        var uuid: String
    }

    static func block1(_ db: Database) throws {
        try Document(title: "SQLite", body: "A database engine", uuid: "A1").insert(db)
    }
}
// end of FullTextSearch.md block 1

// FullTextSearch.md block 2
extension FullTextSearchArticle {
    static func block2(_ db: Database) throws {
        try db.create(virtualTable: "book_ft", using: FTS5()) { t in
            t.synchronize(withTable: "book")
            t.column("title")
            t.column("summary")
        }
    }
}
// end of FullTextSearch.md block 2

// FullTextSearch.md block 3
extension FullTextSearchArticle {
    static func block3() -> [FTS5Pattern?] {
        let input = "SQLite database"
        let all = FTS5Pattern(matchingAllTokensIn: input)          // both words, anywhere
        let any = FTS5Pattern(matchingAnyTokenIn: input)           // one of the words
        let phrase = FTS5Pattern(matchingPhrase: input)            // the words, in this order
        let prefixes = FTS5Pattern(matchingAllPrefixesIn: input)   // words that start with "sqlite" and "database"
        let start = FTS5Pattern(matchingPrefixPhrase: input)       // a column that starts with the phrase
        return [all, any, phrase, prefixes, start]
    }
}
// end of FullTextSearch.md block 3

// FullTextSearch.md block 4
extension FullTextSearchArticle {
    static func block4(_ db: Database, userInput: String) throws -> [Document] {
        let pattern = FTS5Pattern(matchingAllTokensIn: userInput)
        let documents = try Document
            .matching(pattern)          // WHERE "document" MATCH ?; nil matches nothing
            .order(Column.rank)
            .fetchAll(db)
        return documents
    }
}
// end of FullTextSearch.md block 4

// FullTextSearch.md block 5
extension FullTextSearchArticle {
    static func block5(_ db: Database, userInput: String) throws -> [String]? {
        var result: [String]?
        if let pattern = FTS5Pattern(matchingAnyTokenIn: userInput) {
            let titles = try String.fetchAll(db, sql: """
                SELECT title FROM document WHERE document MATCH ? ORDER BY rank
                """, arguments: [pattern])
            result = titles
        }
        return result
    }
}
// end of FullTextSearch.md block 5

// FullTextSearch.md block 6
extension FullTextSearchArticle {
    static func block6(_ db: Database) throws -> (pattern: FTS5Pattern, titled: FTS5Pattern) {
        let pattern = try FTS5Pattern(rawPattern: "sqlite NOT mysql")
        let titled = try db.makeFTS5Pattern(rawPattern: "title: sqlite", forTable: "document")
        return (pattern, titled)
    }
}
// end of FullTextSearch.md block 6

// FullTextSearch.md block 7
extension FullTextSearchArticle {
    static func block7(_ db: Database) throws -> [(token: String, flags: FTS5TokenFlags)] {
        let tokenizer = try db.makeTokenizer(.porter())
        let tokens = try tokenizer.tokenize(document: "Running databases")
        // [("run", []), ("databas", [])]
        return tokens
    }
}
// end of FullTextSearch.md block 7

// FullTextSearch.md block 8
extension FullTextSearchArticle {
    static func block8(databasePath: String) throws -> DatabasePool {
        var config = Configuration()
        config.prepareDatabase { db in
            db.add(tokenizer: FTS5LatinASCIITokenizer.self)
            db.add(tokenizer: FTS5StopWordTokenizer.self)
        }
        let dbPool = try DatabasePool(path: databasePath, configuration: config)

        try dbPool.write { db in
            try db.create(virtualTable: "article", using: FTS5()) { t in
                // Stop words are compared after the folding: "L'été" gives "l" and "ete".
                t.tokenizer = FTS5StopWordTokenizer.tokenizerDescriptor(
                    stopWords: ["l", "le", "la", "les"],
                    wrapping: FTS5LatinASCIITokenizer.tokenizerDescriptor())
                t.column("content")
            }
        }
        return dbPool
    }
}
// end of FullTextSearch.md block 8

// FullTextSearch.md block 9
extension FullTextSearchArticle {
    static func block9(databasePath: String) throws -> (dbQueue: DatabaseQueue, posts: [String]) {
        var config = Configuration()
        config.prepareDatabase { db in
            db.add(tokenizer: FTS5WordTokenizer.self)
        }
        let dbQueue = try DatabaseQueue(path: databasePath, configuration: config)

        try dbQueue.write { db in
            try db.create(virtualTable: "post", using: FTS5()) { t in
                t.tokenizer = FTS5WordTokenizer.tokenizerDescriptor()
                t.column("body")
            }
            for body in ["研究生命科学很有意思", "東京都に住んでいます", "采购订单自动审批流程ERP审批"] {
                try db.execute(sql: "INSERT INTO post (body) VALUES (?)", arguments: [body])
            }
        }

        let posts = try dbQueue.read { db in
            try String.fetchAll(db, sql: "SELECT body FROM post WHERE post MATCH ?", arguments: ["科学"])
        }
        // ["研究生命科学很有意思"]: its words are 研究 生命 科学 很 有意思
        return (dbQueue, posts)
    }
}
// end of FullTextSearch.md block 9

// FullTextSearch.md block 10
extension FullTextSearchArticle {
    static func block10(_ dbQueue: DatabaseQueue) throws -> String? {
        let highlighted = try dbQueue.read { db in
            try String.fetchOne(db, sql: """
                SELECT highlight(post, 0, '[', ']') FROM post WHERE post MATCH ?
                """, arguments: ["東京"])
        }
        // "[東京]都に住んでいます"
        return highlighted
    }
}
// end of FullTextSearch.md block 10

// FullTextSearch.md block 11
extension FullTextSearchArticle {
    static func block11(_ dbQueue: DatabaseQueue) throws {
        try dbQueue.write { db in
            try db.create(virtualTable: "message", using: FTS5()) { t in
                t.tokenizer = FTS5WordTokenizer.tokenizerDescriptor()
                t.locale = true
                t.column("text")
            }
            try db.execute(sql: "INSERT INTO message (text) VALUES (fts5_locale('th', ?))", arguments: ["ภาษาไทยง่ายนิดเดียว"])
        }
    }
}
// end of FullTextSearch.md block 11

// FullTextSearch.md block 12
extension FullTextSearchArticle {
    final class NoNumberTokenizer: FTS5WrapperTokenizer {
        static let name = "no_number"
        let wrappedTokenizer: any FTS5Tokenizer

        init(db: Database, arguments: [String]) throws {
            // The arguments describe the wrapped tokenizer: unicode61 by default.
            wrappedTokenizer = try db.makeTokenizer(arguments.isEmpty
                ? .unicode61()
                : FTS5TokenizerDescriptor(components: arguments))
        }

        func accept(
            token: String,
            flags: FTS5TokenFlags,
            for tokenization: FTS5Tokenization,
            tokenCallback: FTS5WrapperTokenCallback) throws
        {
            if token.allSatisfy(\.isNumber) { return }   // "2024", "42"…
            try tokenCallback(token, flags)
        }
    }

    static func block12(_ db: Database) throws {
        // In each connection:
        db.add(tokenizer: NoNumberTokenizer.self)

        // In the table definition:
        try db.create(virtualTable: "note", using: FTS5()) { t in
            t.tokenizer = NoNumberTokenizer.tokenizerDescriptor()
            t.column("text")
        }
    }
}
// end of FullTextSearch.md block 12

// FullTextSearch.md block 13
extension FullTextSearchArticle {
    final class ShortTokenTokenizer: FTS5WrapperTokenizer {
        static let name = "short_tokens"
        let wrappedTokenizer: any FTS5Tokenizer

        init(db: Database, arguments: [String]) throws {
            wrappedTokenizer = try db.makeTokenizer(.unicode61())
        }

        // Drops tokens longer than 20 bytes (such as hashes and URLs).
        func accept(
            token: String,
            flags: FTS5TokenFlags,
            for tokenization: FTS5Tokenization,
            tokenCallback: FTS5WrapperTokenCallback) throws
        {
            if token.utf8.count <= 20 { try tokenCallback(token, flags) }
        }

        // The same, on bytes: FTS5 calls this one.
        func accept(
            utf8Token token: UnsafeRawBufferPointer,
            flags: FTS5TokenFlags,
            for tokenization: FTS5Tokenization,
            locale: String?,
            tokenCallback: FTS5WrapperUTF8TokenCallback) throws
        {
            if token.count <= 20 { try tokenCallback(token, flags) }
        }
    }
}
// end of FullTextSearch.md block 13

// FullTextSearch.md block 14
extension FullTextSearchArticle {
    static func block14(_ db: Database) throws -> (tokens: [FTS5Token], queryTokens: [FTS5Token]) {
        let tokenizer = try db.makeTokenizer(FTS5WordTokenizer.tokenizerDescriptor())
        let text = "東京都に住んでいます"
        for token in try tokenizer.tokens(in: text) {
            print(token.token, token.utf8Range)  // 東京 0..<6, 都 6..<9, に 9..<12…
        }
        let queryTokens = try tokenizer.tokens(in: "生命科学", for: .query)
        return (try tokenizer.tokens(in: text), queryTokens)
    }
}
// end of FullTextSearch.md block 14

// FullTextSearch.md block 15
extension FullTextSearchArticle {
    static func block15(databasePath: String) throws -> [Row] {
        // The share of the row's tokens that match the query.
        let matchDensity = FTS5AuxiliaryFunction("match_density") { context, arguments in
            let matches = try context.instanceCount()
            let length = try context.columnSize()
            return length == 0 ? 0.0 : Double(matches) / Double(length)
        }

        var config = Configuration()
        config.prepareDatabase { db in
            db.add(auxiliaryFunction: matchDensity)
        }
        let dbQueue = try DatabaseQueue(path: databasePath, configuration: config)

        let rows = try dbQueue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT title, match_density(document) AS density
                FROM document WHERE document MATCH ? ORDER BY density DESC
                """, arguments: ["sqlite"])
        }
        return rows
    }
}
// end of FullTextSearch.md block 15

// FullTextSearch.md block 16
extension FullTextSearchArticle {
    static func block16(_ dbQueue: DatabaseQueue) throws
        -> (corrections: [FTS5TokenSuggestion], keyTokens: [FTS5KeyToken], similar: [Int64])
    {
        var result: (corrections: [FTS5TokenSuggestion], keyTokens: [FTS5KeyToken], similar: [Int64]) = ([], [], [])
        let documents = FTS5Table("document")
        try dbQueue.read { db in
            // "Did you mean: sqlite database?"
            if let suggestion = try documents.suggestedQuery(db, for: "sqllite databse") {
                print("Did you mean: \(suggestion)?")
            }
            // The index tokens spelled like a word, closest and most frequent first.
            let corrections = try documents.suggestions(db, for: "databse")
            // The tokens that characterize row 1, by BM25 weight.
            let keyTokens = try documents.keyTokens(db, rowID: 1, limit: 5)
            // The rows most like row 1.
            let similar = try documents.similarRowIDs(db, to: 1, limit: 10)
            result = (corrections, keyTokens, similar)
        }
        return result
    }
}
// end of FullTextSearch.md block 16
