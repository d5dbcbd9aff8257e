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

    static func block9(_ db: Database) throws {
        // In each connection:
        db.add(tokenizer: NoNumberTokenizer.self)

        // In the table definition:
        try db.create(virtualTable: "note", using: FTS5()) { t in
            t.tokenizer = NoNumberTokenizer.tokenizerDescriptor()
            t.column("text")
        }
    }
}
// end of FullTextSearch.md block 9
