import Foundation
import Testing
import Cairn

// Wrapper tokenizers written as GRDB's guides and tests write them: the
// `accept(token:flags:for:tokenCallback:)` requirement only.

/// Drops the token "skip".
private final class SkipWordTokenizer: FTS5WrapperTokenizer {
    static let name = "grdb_compat_skip_word"
    var wrappedTokenizer: FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        if arguments.isEmpty {
            wrappedTokenizer = try db.makeTokenizer(.unicode61())
        } else {
            wrappedTokenizer = try db.makeTokenizer(FTS5TokenizerDescriptor(components: arguments))
        }
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        if token != "skip" {
            try tokenCallback(token, flags)
        }
    }
}

/// Folds tokens to lowercase ASCII with the ICU transform.
private final class FoldingTokenizer: FTS5WrapperTokenizer {
    static let name = "grdb_compat_folding"
    let wrappedTokenizer: FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        if let folded = token.applyingTransform(StringTransform("Latin-ASCII; Lower"), reverse: false) {
            try tokenCallback(folded, flags)
        }
    }
}

/// Indexes "two" and "2" as synonyms in documents, not in queries.
private final class TwoSynonymTokenizer: FTS5WrapperTokenizer {
    static let name = "grdb_compat_two_synonyms"
    let wrappedTokenizer: FTS5Tokenizer
    let synonymGroups: [[String]] = [["two", "2"]]

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        guard !tokenization.contains(.query), let group = synonymGroups.first(where: { $0.contains(token) }) else {
            try tokenCallback(token, flags)
            return
        }
        for (index, synonym) in group.enumerated() {
            try tokenCallback(synonym, index == 0 ? flags : flags.union(.colocated))
        }
    }
}

/// Outputs each token twice, the second time as an empty token or a
/// colocated uppercase copy, depending on its argument.
private final class EchoTokenizer: FTS5WrapperTokenizer {
    static let name = "grdb_compat_echo"
    let wrappedTokenizer: FTS5Tokenizer
    let mode: String

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.ascii())
        mode = arguments.first ?? "upper"
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        try tokenCallback(token, flags)
        try tokenCallback(mode == "empty" ? "" : token.uppercased(), flags.union(.colocated))
    }
}

/// Registers the tokenizers of this file.
private func registerWrappers(_ db: Database) {
    db.add(tokenizer: SkipWordTokenizer.self)
    db.add(tokenizer: FoldingTokenizer.self)
    db.add(tokenizer: TwoSynonymTokenizer.self)
    db.add(tokenizer: EchoTokenizer.self)
}

/// Wrapper tokenizers behave as in GRDB 7.8 (issue 51).
@Suite struct GRDBFTSTokenizerWrapperTests {
    func count(_ db: Database, _ query: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM memo WHERE memo MATCH ?", arguments: [query])!
    }

    func createMemo(_ db: Database, tokenizer: FTS5TokenizerDescriptor) throws {
        try db.create(virtualTable: "memo", using: FTS5()) { t in
            t.tokenizer = tokenizer
            t.column("line")
        }
    }

    func makeQueue() throws -> DatabaseQueue {
        var config = Configuration()
        config.prepareDatabase { db in registerWrappers(db) }
        return try DatabaseQueue(configuration: config)
    }

    @Test(arguments: WriterKind.allCases)
    func skippedWords(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        switch writer {
        case let dbQueue as DatabaseQueue: dbQueue.add(tokenizer: SkipWordTokenizer.self)
        case let dbPool as DatabasePool: dbPool.add(tokenizer: SkipWordTokenizer.self)
        default: Issue.record("unexpected writer")
        }
        try writer.write { db throws in
            try createMemo(db, tokenizer: SkipWordTokenizer.tokenizerDescriptor())
            try db.execute(sql: "INSERT INTO memo VALUES (?)", arguments: ["red skip"])
            try db.execute(sql: "INSERT INTO memo VALUES (?)", arguments: ["red blue"])
            #expect(try count(db, "red") == 2)
            #expect(try count(db, "skip") == 0)
            #expect(try count(db, "\"red skip blue\"") == 1)
        }
        try writer.read { db throws in
            #expect(try count(db, "red") == 2)
            #expect(try count(db, "skip") == 0)
            #expect(try count(db, "\"red skip blue\"") == 1)
        }
    }

    @Test func skippedWordsOverAnotherTokenizer() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            try createMemo(db, tokenizer: SkipWordTokenizer.tokenizerDescriptor(arguments: FTS5TokenizerDescriptor.porter().components))
            try db.execute(sql: "INSERT INTO memo VALUES (?)", arguments: ["skip databases"])
            #expect(try count(db, "database") == 1)
            #expect(try count(db, "skip") == 0)
            let tokenizer = try db.makeTokenizer(SkipWordTokenizer.tokenizerDescriptor(arguments: ["porter"]))
            #expect(try tokenizer.tokenize(document: "skip databases").map(\.token) == ["databas"])
        }
    }

    @Test func latinASCIIFolding() throws {
        let dbQueue = try makeQueue()
        let text = "aimé \u{FB01}délité Encyclopædia Großmann Diyarbakır"
        // unicode61 alone
        try dbQueue.inDatabase { db throws in
            try createMemo(db, tokenizer: .unicode61())
            try db.execute(sql: "INSERT INTO memo VALUES (?)", arguments: [text])
            #expect(try count(db, text) == 1)
            #expect(try count(db, "aime fidelite encyclopaedia grossmann diyarbakir") == 0)
            #expect(try count(db, "aime\u{0301} \u{FB01}de\u{0301}lite\u{0301} Encyclopædia Großmann Diyarbakır") == 1)
            try db.drop(table: "memo")
        }
        // With folding
        try dbQueue.inDatabase { db throws in
            try createMemo(db, tokenizer: FoldingTokenizer.tokenizerDescriptor())
            try db.execute(sql: "INSERT INTO memo VALUES (?)", arguments: [text])
            #expect(try count(db, text) == 1)
            #expect(try count(db, "aime fidelite encyclopaedia grossmann diyarbakir") == 1)
            #expect(try count(db, "aime\u{0301} \u{FB01}de\u{0301}lite\u{0301} Encyclopædia Großmann Diyarbakır") == 1)
            let tokenizer = try db.makeTokenizer(FoldingTokenizer.tokenizerDescriptor())
            #expect(try tokenizer.tokenize(query: "Encyclopædia Großmann").map(\.token) == ["encyclopaedia", "grossmann"])
        }
    }

    @Test func synonyms() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            try createMemo(db, tokenizer: TwoSynonymTokenizer.tokenizerDescriptor())
            try db.execute(sql: "INSERT INTO memo VALUES (?)", arguments: ["two cats"])
            try db.execute(sql: "INSERT INTO memo VALUES (?)", arguments: ["2 dogs"])
            #expect(try count(db, "two") == 2)
            #expect(try count(db, "2") == 2)
            #expect(try count(db, "\"two cats\"") == 1)
            #expect(try count(db, "\"2 cats\"") == 1)
            #expect(try count(db, "\"two dogs\"") == 1)
            #expect(try count(db, "\"2 dogs\"") == 1)
            #expect(try count(db, "tw*") == 2)
            #expect(try count(db, "2*") == 2)

            let tokenizer = try db.makeTokenizer(TwoSynonymTokenizer.tokenizerDescriptor())
            let tokens = try tokenizer.tokenize(document: "two cats")
            #expect(tokens.map(\.token) == ["two", "2", "cats"])
            #expect(tokens.map(\.flags) == [[], .colocated, []])
            #expect(try tokenizer.tokenize(query: "two cats").map(\.token) == ["two", "cats"])
            // FTS5Pattern ignores colocated tokens.
            #expect(try db.makeFTS5Pattern(rawPattern: "two", forTable: "memo").rawPattern == "two")
        }
    }

    @Test func colocatedTokensInQueries() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            try createMemo(db, tokenizer: EchoTokenizer.tokenizerDescriptor())
            try db.execute(sql: "INSERT INTO memo VALUES (?)", arguments: ["some Text"])
            // The ascii tokenizer lowercases; the echo adds uppercase
            // synonyms: both cases match.
            #expect(try count(db, "text") == 1)
            #expect(try count(db, "TEXT") == 1)
            let tokens = try db.makeTokenizer(EchoTokenizer.tokenizerDescriptor()).tokenize(query: "Some")
            #expect(tokens.map(\.token) == ["some", "SOME"])
            #expect(tokens.map(\.flags) == [[], .colocated])
        }
    }

    @Test func emptyTokens() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            let tokenizer = try db.makeTokenizer(EchoTokenizer.tokenizerDescriptor(arguments: ["empty"]))
            let tokens = try tokenizer.tokenize(document: "word")
            #expect(tokens.first?.token == "word")
            try createMemo(db, tokenizer: EchoTokenizer.tokenizerDescriptor(arguments: ["empty"]))
            try db.execute(sql: "INSERT INTO memo VALUES (?)", arguments: ["some text"])
            #expect(try count(db, "text") == 1)
        }
    }

    /// A wrapper created directly, outside of FTS5, tokenizes as the
    /// tokenizer that `makeTokenizer` returns.
    @Test func wrapperInstancesTokenizeDirectly() throws {
        try DatabaseQueue().read { db throws in
            let synonyms = try TwoSynonymTokenizer(db: db, arguments: [])
            let tokens = try synonyms.tokenize(document: "Two Birds")
            #expect(tokens.map(\.token) == ["two", "2", "birds"])
            #expect(tokens.map(\.flags) == [[], .colocated, []])
            #expect(try synonyms.tokenize(query: "Two Birds").map(\.token) == ["two", "birds"])
            let skipping = try SkipWordTokenizer(db: db, arguments: ["ascii"])
            #expect(try skipping.tokenize(query: "skip Élan").map(\.token) == ["Élan"])
        }
    }
}
