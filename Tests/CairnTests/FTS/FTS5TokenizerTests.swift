import Foundation
import Testing
import Cairn

// The custom tokenizers of the spec.

/// Passes tokens through; wraps unicode61, or the tokenizer of its
/// arguments.
final class MyTokenizer: FTS5WrapperTokenizer {
    static let name = "custom"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        if arguments.isEmpty {
            wrappedTokenizer = try db.makeTokenizer(.unicode61())
        } else {
            let descriptor = FTS5TokenizerDescriptor(components: arguments)
            wrappedTokenizer = try db.makeTokenizer(descriptor)
        }
    }

    func accept(
        token: String,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback) throws
    {
        // pass through
        try tokenCallback(token, flags)
    }
}

final class SynonymsTokenizer: FTS5WrapperTokenizer {
    static let name = "synonyms"
    let wrappedTokenizer: any FTS5Tokenizer
    let synonyms: [Set<String>] = [["first", "1st"]]

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }

    func synonyms(for token: String) -> Set<String>? {
        synonyms.first { $0.contains(token) }
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        if tokenization.contains(.query) {
            // Don't look for synonyms when tokenizing queries
            try tokenCallback(token, flags)
            return
        }

        guard let synonyms = synonyms(for: token) else {
            // Token has no synonym
            try tokenCallback(token, flags)
            return
        }

        for (index, synonym) in synonyms.enumerated() {
            // Notify each synonym, and set the colocated flag for all but the first
            let synonymFlags = (index == 0) ? flags : flags.union(.colocated)
            try tokenCallback(synonym, synonymFlags)
        }
    }
}

final class LatinAsciiTokenizer: FTS5WrapperTokenizer {
    static let name = "latinascii"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        if let token = token.applyingTransform(StringTransform("Latin-ASCII; Lower"), reverse: false) {
            try tokenCallback(token, flags)
        }
    }
}

struct TokenizerTestError: Error, Equatable {
    var message: String
}

/// Throws for a given token, or from its initializer.
final class FailingTokenizer: FTS5WrapperTokenizer {
    static let name = "failing"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        if arguments.first == "fail_init" {
            throw TokenizerTestError(message: "init")
        }
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        if token == "poison" {
            throw TokenizerTestError(message: "poison")
        }
        try tokenCallback(token, flags)
    }
}

/// Asks a failing Swift tokenizer for the tokens of each token, and keeps
/// the token when that tokenization fails: a failure that a tokenizer
/// recovers from must not fail the statement.
final class RecoveringTokenizer: FTS5WrapperTokenizer {
    static let name = "recovering"
    let wrappedTokenizer: any FTS5Tokenizer
    let failing: any FTS5Tokenizer
    nonisolated(unsafe) static var recoveredFailures = 0

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
        failing = try db.makeTokenizer(FailingTokenizer.tokenizerDescriptor())
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        do {
            for (inner, _) in try failing.tokenize(document: token) {
                try tokenCallback(inner, flags)
            }
        } catch let error as TokenizerTestError {
            #expect(error == TokenizerTestError(message: "poison"))
            RecoveringTokenizer.recoveredFailures += 1
            try tokenCallback("recovered", flags)
        }
    }
}

/// A tokenizer written against the low-level C interface: each byte of the
/// text is a token.
final class ByteTokenizer: FTS5CustomTokenizer {
    static let name = "bytes"
    init(db: Database, arguments: [String]) throws { }

    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: FTS5TokenCallback?) -> CInt
    {
        guard let pText, let tokenCallback else { return SQLITE_OK }
        for offset in 0..<nText {
            let code = tokenCallback(context, 0, pText + Int(offset), 1, offset, offset + 1)
            if code != SQLITE_OK { return code }
        }
        return SQLITE_OK
    }
}

@Suite struct FTS5TokenizerTests {
    func makeDatabase(_ kind: WriterKind = .queue, directory: TemporaryDirectory) throws -> any DatabaseWriter {
        var config = Configuration()
        config.prepareDatabase { db in
            db.add(tokenizer: MyTokenizer.self)
            db.add(tokenizer: SynonymsTokenizer.self)
            db.add(tokenizer: LatinAsciiTokenizer.self)
            db.add(tokenizer: FailingTokenizer.self)
            db.add(tokenizer: RecoveringTokenizer.self)
            db.add(tokenizer: ByteTokenizer.self)
            db.add(tokenizer: FTS5LatinASCIITokenizer.self)
            db.add(tokenizer: FTS5SynonymTokenizer.self)
            db.add(tokenizer: FTS5StopWordTokenizer.self)
        }
        return try kind.make(path: directory.filePath(), configuration: config)
    }

    func count(_ db: Database, _ table: String, matching query: String) throws -> Int {
        let pattern = try db.makeFTS5Pattern(rawPattern: query, forTable: table)
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE \(table) MATCH ?", arguments: [pattern])!
    }

    @Test(arguments: WriterKind.allCases)
    func customTokenizerChoosesItsWrappedTokenizer(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeDatabase(kind, directory: directory)
        try writer.write { db throws in
            try db.create(virtualTable: "documents", using: FTS5()) { t in
                // Wraps the default unicode61
                t.tokenizer = MyTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.create(virtualTable: "asciiDocuments", using: FTS5()) { t in
                // Wraps ascii
                let ascii = FTS5TokenizerDescriptor.ascii()
                t.tokenizer = MyTokenizer.tokenizerDescriptor(arguments: ascii.components)
                t.column("content")
            }
            #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'asciiDocuments'")?
                .contains("tokenize='''custom'' ''ascii'''") == true)
            for table in ["documents", "asciiDocuments"] {
                try db.execute(sql: "INSERT INTO \(table) VALUES (?)", arguments: ["Jérôme is here"])
            }
            #expect(try count(db, "documents", matching: "jerome") == 1)
            #expect(try count(db, "asciiDocuments", matching: "jerome") == 0)
            #expect(try count(db, "asciiDocuments", matching: "jérôme") == 1)
        }
        // Readers of a pool know the tokenizer too.
        let hereCount = try writer.read { db in try self.count(db, "documents", matching: "here") }
        #expect(hereCount == 1)
    }

    @Test func synonymsOfTheSpec() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeDatabase(directory: directory)
        try writer.write { db throws in
            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = SynonymsTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO documents VALUES ('I won first place')")
            try db.execute(sql: "INSERT INTO documents VALUES ('I won 1st place')")
            try db.execute(sql: "INSERT INTO documents VALUES ('I won second place')")
            #expect(try count(db, "documents", matching: "first") == 2)
            #expect(try count(db, "documents", matching: "1st") == 2)
            #expect(try count(db, "documents", matching: "\"won 1st place\"") == 2)
            #expect(try count(db, "documents", matching: "second") == 1)

            let tokenizer = try db.makeTokenizer(SynonymsTokenizer.tokenizerDescriptor())
            let tokens = try tokenizer.tokenize(document: "first")
            #expect(Set(tokens.map(\.token)) == ["first", "1st"])
            #expect(tokens.map(\.flags) == [[], .colocated])
            #expect(try tokenizer.tokenize(query: "first").map(\.token) == ["first"])
        }
    }

    @Test func latinScriptOfTheSpec() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        dbQueue.add(tokenizer: LatinAsciiTokenizer.self)
        try dbQueue.inDatabase { db throws in
            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = LatinAsciiTokenizer.tokenizerDescriptor()
                t.column("authors")
                t.column("title")
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO documents VALUES (?, ?, ?)", arguments: [
                "Großmann, Jérôme", "Encyclopædia", "ﬁdélité GROSSMANN Diyarbakır"])
            for query in ["grossmann", "Großmann", "GROSSMANN", "encyclopaedia", "jerome", "Jérôme", "fidelite", "diyarbakir"] {
                let pattern = try #require(FTS5Pattern(matchingAllTokensIn: query))
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents WHERE documents MATCH ?", arguments: [pattern]) == 1, "\(query)")
            }
        }
    }

    @Test func lowLevelCustomTokenizer() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeDatabase(directory: directory)
        try writer.write { db throws in
            let tokenizer = try db.makeTokenizer(ByteTokenizer.tokenizerDescriptor())
            #expect(try tokenizer.tokenize(document: "abc").map(\.token) == ["a", "b", "c"])
            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = ByteTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO documents VALUES ('xyz')")
            #expect(try count(db, "documents", matching: "y") == 1)
            #expect(try count(db, "documents", matching: "q") == 0)
        }
    }

    /// A Swift error stops the statement, the caller receives it, the
    /// connection stays usable, and nothing is half-indexed.
    ///
    /// The failing tokenizer is used directly, or wrapped by another Swift
    /// tokenizer (custom → failing → unicode61): its error reaches the
    /// statement through both.
    @Test(arguments: WriterKind.allCases, [false, true])
    func tokenizerErrorsStopTheStatement(kind: WriterKind, wrapped: Bool) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeDatabase(kind, directory: directory)
        let descriptor = wrapped
            ? MyTokenizer.tokenizerDescriptor(arguments: FailingTokenizer.tokenizerDescriptor().components)
            : FailingTokenizer.tokenizerDescriptor()
        try writer.write { db throws in
            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = descriptor
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO documents VALUES ('healthy')")
        }
        #expect(throws: TokenizerTestError(message: "poison")) {
            try writer.write { db in
                try db.execute(sql: "INSERT INTO documents VALUES ('good')")
                try db.execute(sql: "INSERT INTO documents VALUES ('good poison good')")
            }
        }
        // Inside a transaction, FTS5 would leave the document half-indexed:
        // the transaction is rolled back.
        try writer.writeWithoutTransaction { db throws in
            try db.beginTransaction()
            try db.execute(sql: "INSERT INTO documents VALUES ('earlier')")
            #expect(throws: TokenizerTestError(message: "poison")) {
                try db.execute(sql: "INSERT INTO documents VALUES ('good poison')")
            }
            #expect(!db.isInsideTransaction)
            #expect(try count(db, "documents", matching: "good") == 0)
            #expect(try count(db, "documents", matching: "earlier") == 0)
            #expect(try count(db, "documents", matching: "healthy") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents") == 1)
            // Queries are tokenized too.
            #expect(throws: TokenizerTestError(message: "poison")) {
                _ = try Row.fetchAll(db, sql: "SELECT * FROM documents WHERE documents MATCH 'poison'")
            }
            // The connection stays usable.
            try db.execute(sql: "INSERT INTO documents VALUES ('fine')")
            #expect(try count(db, "documents", matching: "fine") == 1)
        }
        // The tokenizer made by makeTokenizer throws too.
        try writer.read { db throws in
            let tokenizer = try db.makeTokenizer(descriptor)
            #expect(throws: TokenizerTestError(message: "poison")) {
                _ = try tokenizer.tokenize(document: "poison")
            }
            #expect(try tokenizer.tokenize(document: "ok").map(\.token) == ["ok"])
        }
    }

    @Test func tokenizerInitializerErrors() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeDatabase(directory: directory)
        try writer.write { db throws in
            #expect(throws: TokenizerTestError(message: "init")) {
                try db.makeTokenizer(FailingTokenizer.tokenizerDescriptor(arguments: ["fail_init"]))
            }
            #expect(throws: TokenizerTestError(message: "init")) {
                try db.create(virtualTable: "documents", using: FTS5()) { t in
                    t.tokenizer = FailingTokenizer.tokenizerDescriptor(arguments: ["fail_init"])
                    t.column("content")
                }
            }
            #expect(try !db.tableExists("documents"))
            // Unknown tokenizer
            #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "documents", using: FTS5()) { t in
                    t.tokenizer = FTS5TokenizerDescriptor(components: ["unknown"])
                    t.column("content")
                }
            }
        }
    }

    /// The rules of `accept`: the errors of the callback are not caught,
    /// and FTS5 codes reach the wrapped tokenizer. A wrapper around a
    /// wrapper works.
    @Test func wrapperOfWrapper() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeDatabase(directory: directory)
        try writer.write { db throws in
            // custom → latinascii-like folding → porter → unicode61
            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = MyTokenizer.tokenizerDescriptor(
                    arguments: FTS5LatinASCIITokenizer.tokenizerDescriptor(wrapping: .porter()).components)
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO documents VALUES ('Großmann databases')")
            #expect(try count(db, "documents", matching: "grossmann") == 1)
            #expect(try count(db, "documents", matching: "database") == 1)
            // highlight() tokenizes with .aux, and uses offsets in bytes.
            let highlighted = try String.fetchOne(db, sql: "SELECT highlight(documents, 0, '[', ']') FROM documents WHERE documents MATCH 'grossmann'")
            #expect(highlighted == "[Großmann] databases")
        }
    }

    /// The error of the initializer of a Swift tokenizer that another
    /// Swift tokenizer wraps reaches `makeTokenizer` and the statement,
    /// through the outer initializer.
    @Test func errorsOfWrappedTokenizerInitializers() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeDatabase(directory: directory)
        let descriptor = MyTokenizer.tokenizerDescriptor(
            arguments: FailingTokenizer.tokenizerDescriptor(arguments: ["fail_init"]).components)
        try writer.write { db throws in
            #expect(throws: TokenizerTestError(message: "init")) {
                try db.makeTokenizer(descriptor)
            }
            #expect(throws: TokenizerTestError(message: "init")) {
                try db.create(virtualTable: "documents", using: FTS5()) { t in
                    t.tokenizer = descriptor
                    t.column("content")
                }
            }
            #expect(try !db.tableExists("documents"))
            // The next statement does not see the error of the last one.
            try db.execute(sql: "CREATE TABLE t(a)")
        }
    }

    /// A tokenizer that calls a failing tokenizer and recovers: the failure
    /// belongs to the inner tokenization, and the statement succeeds.
    @Test func recoveredTokenizerErrorsDoNotFailTheStatement() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeDatabase(directory: directory)
        RecoveringTokenizer.recoveredFailures = 0
        try writer.write { db throws in
            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = RecoveringTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO documents VALUES ('good poison good')")
            #expect(try count(db, "documents", matching: "recovered") == 1)
            #expect(try count(db, "documents", matching: "good") == 1)
            // The query is tokenized by the same tokenizer: 'poison'
            // becomes 'recovered'.
            #expect(try count(db, "documents", matching: "poison") == 1)
            let tokenizer = try db.makeTokenizer(RecoveringTokenizer.tokenizerDescriptor())
            #expect(try tokenizer.tokenize(document: "poison x").map(\.token) == ["recovered", "x"])
        }
        #expect(RecoveringTokenizer.recoveredFailures >= 2)
    }

    @Test func readyMadeLatinASCIIFolding() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeDatabase(directory: directory)
        try writer.write { db throws in
            let tokenizer = try db.makeTokenizer(FTS5LatinASCIITokenizer.tokenizerDescriptor())
            let tokens = try tokenizer.tokenize(document: "Großmann Encyclopædia Jérôme ﬁdélité Diyarbakır Øresund Łódź ÞORN naïve Ärger")
            #expect(tokens.map(\.token) == [
                "grossmann", "encyclopaedia", "jerome", "fidelite", "diyarbakir", "oresund", "lodz", "thorn", "naive", "arger"])
            // Other scripts are kept.
            #expect(try tokenizer.tokenize(document: "Москва 東京").map(\.token) == ["москва", "東京"])

            // Wrapping ascii, which keeps case and diacritics beyond ASCII.
            let asciiBased = try db.makeTokenizer(FTS5LatinASCIITokenizer.tokenizerDescriptor(wrapping: .ascii()))
            #expect(try asciiBased.tokenize(document: "ÉLODIE Straße").map(\.token) == ["elodie", "strasse"])

            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = FTS5LatinASCIITokenizer.tokenizerDescriptor()
                t.column("content")
            }
            for document in ["Großmann", "Encyclopædia", "Jérôme", "ﬁdélité"] {
                try db.execute(sql: "INSERT INTO documents VALUES (?)", arguments: [document])
            }
            for (query, expected) in [("grossmann", 1), ("GROSSMANN", 1), ("Großmann", 1), ("encyclopaedia", 1),
                                      ("jerome", 1), ("JÉRÔME", 1), ("fidelite", 1), ("fi", 0)] {
                let pattern = try #require(FTS5Pattern(matchingAnyTokenIn: query))
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents WHERE documents MATCH ?", arguments: [pattern]) == expected, "\(query)")
            }
        }
    }

    @Test func readyMadeSynonyms() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeDatabase(directory: directory)
        try writer.write { db throws in
            let descriptor = FTS5SynonymTokenizer.tokenizerDescriptor(synonyms: [["first", "1st"], ["Second", "2nd", "II"]])
            let tokenizer = try db.makeTokenizer(descriptor)
            // Document side: synonyms, colocated.
            let tokens = try tokenizer.tokenize(document: "won FIRST place")
            #expect(tokens.map(\.token) == ["won", "first", "1st", "place"])
            #expect(tokens.map(\.flags) == [[], [], .colocated, []])
            // Query side: as is.
            #expect(try tokenizer.tokenize(query: "first").map(\.token) == ["first"])

            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = descriptor
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO documents VALUES ('I won first place')")
            try db.execute(sql: "INSERT INTO documents VALUES ('Henry II')")
            #expect(try count(db, "documents", matching: "1st") == 1)
            #expect(try count(db, "documents", matching: "\"won 1st place\"") == 1)
            #expect(try count(db, "documents", matching: "second") == 1)
            #expect(try count(db, "documents", matching: "2nd") == 1)
            #expect(try count(db, "documents", matching: "third") == 0)

            // A synonym must be one token.
            #expect(throws: DatabaseError.self) {
                try db.makeTokenizer(FTS5SynonymTokenizer.tokenizerDescriptor(synonyms: [["new-york", "ny"]]))
            }
        }
    }

    @Test func readyMadeStopWords() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeDatabase(directory: directory)
        try writer.write { db throws in
            let descriptor = FTS5StopWordTokenizer.tokenizerDescriptor(stopWords: ["the", "a", "of"], wrapping: .porter())
            let tokenizer = try db.makeTokenizer(descriptor)
            #expect(try tokenizer.tokenize(document: "The Lord of the Rings").map(\.token) == ["lord", "ring"])
            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = descriptor
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO documents VALUES ('The Lord of the Rings')")
            try db.execute(sql: "INSERT INTO documents VALUES ('A Game of Thrones')")
            #expect(try count(db, "documents", matching: "lord") == 1)
            #expect(try count(db, "documents", matching: "\"lord rings\"") == 1)
            let theOnly = try #require(FTS5Pattern(matchingAnyTokenIn: "the"))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents WHERE documents MATCH ?", arguments: [theOnly]) == 0)
        }
    }

    /// The tokenizer of a table keeps working in a new connection that
    /// registers it: the arguments live in the schema.
    @Test func configurationLivesInTheSchema() throws {
        let directory = try TemporaryDirectory()
        do {
            let writer = try makeDatabase(directory: directory)
            try writer.write { db throws in
                try db.create(virtualTable: "documents", using: FTS5()) { t in
                    t.tokenizer = FTS5SynonymTokenizer.tokenizerDescriptor(synonyms: [["first", "1st"]])
                    t.column("content")
                }
                try db.execute(sql: "INSERT INTO documents VALUES ('first')")
            }
        }
        let writer = try makeDatabase(directory: directory)
        try writer.read { db throws in
            #expect(try count(db, "documents", matching: "1st") == 1)
        }
        // Without the registration, the table cannot be used.
        let bare = try DatabaseQueue(path: directory.filePath())
        #expect(throws: DatabaseError.self) {
            try bare.read { db in try Row.fetchAll(db, sql: "SELECT * FROM documents WHERE documents MATCH 'first'") }
        }
    }
}

/// Tokenizers that user code keeps after their connection is gone keep
/// working: they own what they use, and never reach the deinitialized
/// connection (the AddressSanitizer lane of CI checks it).
@Suite struct KeptTokenizerTests {
    @Test func tokenizersOutliveTheirConnection() throws {
        let (swiftTokenizer, builtInTokenizer) = try {
            var config = Configuration()
            config.prepareDatabase { db in db.add(tokenizer: MyTokenizer.self) }
            let dbQueue = try DatabaseQueue(configuration: config)
            return try dbQueue.inDatabase { db in
                (try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["custom"])),
                 try db.makeTokenizer(.unicode61()))
            }
        }()
        // The queue, its connection and its registrations are gone.
        #expect(try swiftTokenizer.tokenize(query: "Jérôme Lemoine").map(\.token) == ["jerome", "lemoine"])
        #expect(try builtInTokenizer.tokenize(document: "SQLite Database").map(\.token) == ["sqlite", "database"])
    }
}
