import Foundation
import Testing
import Cairn

/// The byte-level path of wrapper tokenizers: tokens come in batches from
/// the wrapped tokenizer, long tokens and long texts included, and the
/// String API and the byte API give the same tokens.
@Suite struct FTS5WrapperTokenizerTests {
    func makeQueue(_ directory: TemporaryDirectory) throws -> DatabaseQueue {
        var config = Configuration()
        config.prepareDatabase { db in
            db.add(tokenizer: FTS5LatinASCIITokenizer.self)
            db.add(tokenizer: FTS5SynonymTokenizer.self)
            db.add(tokenizer: FTS5StopWordTokenizer.self)
            db.add(tokenizer: StringOnlyWrapper.self)
        }
        return try DatabaseQueue(path: directory.filePath(), configuration: config)
    }

    /// A text of many tokens, with tokens longer than a batch can hold.
    static let longText: String = {
        var generator = SeededGenerator(seed: 3)
        let words = ["alpha", "Beta", "GAMMA", "café", "Straße", "first", "the", "1st", "œuvre"]
        var parts: [String] = []
        for index in 0..<1_000 {
            if index % 97 == 0 {
                parts.append(String(repeating: "long", count: 100 + index))   // 400+ bytes and more
            } else {
                parts.append(words.randomElement(using: &generator)!)
            }
        }
        return parts.joined(separator: " ")
    }()

    @Test func batchesKeepEveryTokenInOrder() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try makeQueue(directory)
        try dbQueue.read { db throws in
            let unicode61 = try db.makeTokenizer(.unicode61()).tokens(in: Self.longText)
            #expect(unicode61.count == 1_000)
            // The byte path and the String path of the same folding.
            let bytes = try db.makeTokenizer(FTS5LatinASCIITokenizer.tokenizerDescriptor()).tokens(in: Self.longText)
            let strings = try db.makeTokenizer(StringOnlyWrapper.tokenizerDescriptor()).tokens(in: Self.longText)
            #expect(bytes == strings)
            #expect(bytes.map(\.utf8Range) == unicode61.map(\.utf8Range))
            #expect(bytes.map(\.token).filter { $0.hasPrefix("long") }.map(\.count).min() ?? 0 >= 400)
            // Synonyms and stop words, on both paths.
            let synonyms = try db.makeTokenizer(FTS5SynonymTokenizer.tokenizerDescriptor(synonyms: [["first", "1st"]]))
            let withSynonyms = try synonyms.tokens(in: Self.longText)
            let firsts = unicode61.filter { $0.token == "first" || $0.token == "1st" }.count
            #expect(withSynonyms.count == 1_000 + firsts)
            #expect(withSynonyms.filter { $0.flags.contains(.colocated) }.count == firsts)
            let stopWords = try db.makeTokenizer(FTS5StopWordTokenizer.tokenizerDescriptor(stopWords: ["the", "alpha"]))
            #expect(try stopWords.tokens(in: Self.longText).map(\.token) == unicode61.map(\.token).filter { $0 != "the" && $0 != "alpha" })
        }
    }

    /// When FTS5's callback returns a code, the tokenization stops there
    /// and returns it, wherever the token falls in a batch.
    @Test(arguments: [1, 31, 32, 33, 40, 97, 98, 500, 1_000])
    func callbackCodeStopsTheTokenization(stop: Int) throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try makeQueue(directory)
        try dbQueue.read { db throws in
            let tokenizer = try db.makeTokenizer(FTS5LatinASCIITokenizer.tokenizerDescriptor())
            final class Counter {
                let stop: Int
                var count = 0
                init(stop: Int) { self.stop = stop }
            }
            let counter = Counter(stop: stop)
            let code = Self.longText.withCString { text in
                withExtendedLifetime(counter) {
                    tokenizer.tokenize(
                        context: Unmanaged.passUnretained(counter).toOpaque(),
                        tokenization: .document,
                        pText: text, nText: CInt(strlen(text)),
                        locale: nil,
                        tokenCallback: { context, _, _, _, _, _ in
                            let counter = Unmanaged<Counter>.fromOpaque(context!).takeUnretainedValue()
                            counter.count += 1
                            return counter.count == counter.stop ? SQLITE_ABORT : SQLITE_OK
                        })
                }
            }
            #expect(code == SQLITE_ABORT)
            #expect(counter.count == stop)
        }
    }
}

extension FTS5WrapperTokenizerTests {
    /// An output callback kept after its tokenization throws, and gives
    /// nothing to FTS5.
    @Test func keptOutputCallbackThrows() throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.prepareDatabase { db in db.add(tokenizer: KeepingWrapper.self) }
        let dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: config)
        KeepingWrapper.kept.withLock { $0 = [] }
        try dbQueue.write { db throws in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = KeepingWrapper.tokenizerDescriptor()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO doc VALUES ('alpha beta')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH 'beta'") == 1)
        }
        let kept = KeepingWrapper.kept.withLock { $0 }
        #expect(kept.count >= 2)
        for callback in kept {
            let error = #expect(throws: DatabaseError.self) {
                try "late".utf8CString.withUnsafeBytes { try callback(UnsafeRawBufferPointer(rebasing: $0.dropLast()), []) }
            }
            #expect(error?.resultCode == .SQLITE_MISUSE)
        }
    }
}

/// Keeps the output callbacks it receives (a misuse).
final class KeepingWrapper: FTS5WrapperTokenizer {
    static let name = "keeping"
    static let kept = Locked<[FTS5WrapperUTF8TokenCallback]>([])
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        try tokenCallback(token, flags)
    }

    func accept(
        utf8Token token: UnsafeRawBufferPointer,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        locale: String?,
        tokenCallback: FTS5WrapperUTF8TokenCallback) throws
    {
        Self.kept.withLock { $0.append(tokenCallback) }
        try tokenCallback(token, flags)
    }
}

/// A Latin-ASCII folding wrapper with the String API only, to compare the
/// two paths.
final class StringOnlyWrapper: FTS5WrapperTokenizer {
    static let name = "string_only_latin_ascii"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        let folded = token.applyingTransform(StringTransform("Latin-ASCII; Lower"), reverse: false) ?? token
        try tokenCallback(folded, flags)
    }
}

extension FTS5WrapperTokenizerTests {
    /// The byte path of Latin-ASCII folding gives what the String path
    /// gives, for every ASCII character and for the latin letters.
    @Test func latinASCIIBytePathMatchesStringPath() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try makeQueue(directory)
        try dbQueue.read { db throws in
            // ascii keeps the case, and characters beyond ASCII inside
            // tokens: the wrapper sees them all.
            let folding = try db.makeTokenizer(FTS5LatinASCIITokenizer.tokenizerDescriptor(wrapping: .ascii()))
            let stringPath = try FTS5LatinASCIITokenizer(db: db, arguments: ["ascii"])
            let asciiCharacters = (0x21...0x7E).map { String(UnicodeScalar(UInt8($0))) }.joined()
            let latin = (0xC0...0x24F).compactMap(UnicodeScalar.init).map(String.init).joined()
            for text in ["ABCxyz", "@[`{", asciiCharacters, latin, "ÀÉÎÕÜ ßŒÆ ﬁﬂ", "Zz Aa @A Z[ a`"] {
                let expected = try db.makeTokenizer(.ascii()).tokens(in: text).map { token in
                    var folded: [String] = []
                    try stringPath.accept(token: token.token, flags: token.flags, for: .document) { token, _ in
                        folded.append(token)
                    }
                    return FTS5Token(token: folded.joined(), flags: token.flags, utf8Range: token.utf8Range)
                }
                #expect(try folding.tokens(in: text) == expected, "\(text)")
            }
        }
    }
}

extension FTS5WrapperTokenizerTests {
    /// A wrapper that overrides `tokenize` (without a locale), as code
    /// written for the GRDB guides may: FTS5 runs the override for values
    /// without a locale.
    @Test func overriddenTokenizeRuns() throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.prepareDatabase { db in db.add(tokenizer: PrefixingWrapper.self) }
        let dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: config)
        try dbQueue.write { db throws in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = PrefixingWrapper.tokenizerDescriptor()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO doc VALUES ('alpha beta')")
            // The override indexed "zzz alpha beta", and turns the query
            // "alpha" into the phrase "zzz alpha", "beta" into "zzz beta".
            #expect(try FTS5Table("doc").documentCount(db, of: "zzz") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH 'alpha'") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH 'beta'") == 0)
            #expect(try db.makeTokenizer(PrefixingWrapper.tokenizerDescriptor()).tokens(in: "gamma").map(\.token) == ["zzz", "gamma"])
        }
    }
}

/// Adds the word "zzz" before every text, in its own `tokenize`.
final class PrefixingWrapper: FTS5WrapperTokenizer {
    static let name = "prefixing"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        try tokenCallback(token, flags)
    }

    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        let text = "zzz " + String(decoding: UnsafeRawBufferPointer(start: pText, count: Int(nText)), as: UTF8.self)
        return text.withCString { text in
            wrappedTokenizer.tokenize(
                context: context, tokenization: tokenization,
                pText: text, nText: CInt(strlen(text)),
                tokenCallback: tokenCallback)
        }
    }
}

extension FTS5WrapperTokenizerTests {
    /// A wrapper whose `accept` tokenizes again with its wrapped tokenizer
    /// (the same instance of cairn_words): the outer tokenization keeps its
    /// own ICU iterator and buffer.
    @Test func nestedTokenizationWithTheSameTokenizer() throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.prepareDatabase { db in
            db.add(tokenizer: FTS5WordTokenizer.self)
            db.add(tokenizer: NestingWrapper.self)
        }
        let dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: config)
        try dbQueue.read { db throws in
            let text = "研究生命科学很有意思。東京都に住んでいます ÉCOLE"
            let plain = try db.makeTokenizer(FTS5WordTokenizer.tokenizerDescriptor()).tokens(in: text)
            let nested = try db.makeTokenizer(NestingWrapper.tokenizerDescriptor()).tokens(in: text)
            #expect(nested == plain)
            #expect(plain.map(\.token).suffix(2) == ["ます", "ecole"])
        }
    }

    /// Stop words and synonyms match canonically equivalent tokens (a
    /// decomposed "é"), on the byte path as on the String path.
    @Test func canonicalEquivalence() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try makeQueue(directory)
        try dbQueue.read { db throws in
            let keep = FTS5TokenizerDescriptor.unicode61(diacritics: .keep)
            let stopWords = try db.makeTokenizer(FTS5StopWordTokenizer.tokenizerDescriptor(stopWords: ["café"], wrapping: keep))
            #expect(try stopWords.tokens(in: "café cafe\u{301} cafe").map(\.token) == ["cafe"])
            let synonyms = try db.makeTokenizer(FTS5SynonymTokenizer.tokenizerDescriptor(synonyms: [["café", "coffee"]], wrapping: keep))
            #expect(try synonyms.tokens(in: "cafe\u{301}").map(\.token) == ["cafe\u{301}", "coffee"])
            #expect(try synonyms.tokens(in: "coffee").map(\.token) == ["coffee", "café"])
        }
    }
}

/// Tokenizes a short text with its wrapped tokenizer for each token, and
/// passes the token on.
final class NestingWrapper: FTS5WrapperTokenizer {
    static let name = "nesting"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(FTS5WordTokenizer.tokenizerDescriptor())
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        try tokenCallback(token, flags)
    }

    func accept(
        utf8Token token: UnsafeRawBufferPointer,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        locale: String?,
        tokenCallback: FTS5WrapperUTF8TokenCallback) throws
    {
        let inner = try wrappedTokenizer.tokens(in: "ภาษาไทยง่ายนิดเดียว AÉ")
        guard inner.map(\.token) == ["ภาษา", "ไทย", "ง่าย", "นิด", "เดียว", "ae"] else {
            throw TokenizerTestError(message: "nested tokens: \(inner.map(\.token))")
        }
        try tokenCallback(token, flags)
    }
}
