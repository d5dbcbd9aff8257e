import Foundation
import Testing
import Cairn

/// The built-in FTS5 tokenizers, as GRDB 7.8 describes and runs them: what
/// matches in tables that use them, and the tokens that
/// `tokenize(query:)` and `tokenize(document:)` return (issue 51).
@Suite struct GRDBFTSTokenizerBuiltInTests {
    /// Whether `query` finds `text` in a one-column FTS5 table that uses
    /// `tokenizer`.
    func finds(_ text: String, _ query: String, with tokenizer: FTS5TokenizerDescriptor) throws -> Bool {
        let dbQueue = try DatabaseQueue()
        return try dbQueue.write { db throws in
            try db.create(virtualTable: "memo", using: FTS5()) { t in
                t.tokenizer = tokenizer
                t.column("line")
            }
            try db.execute(sql: "INSERT INTO memo VALUES (?)", arguments: [text])
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM memo WHERE memo MATCH ?", arguments: [query])! > 0
        }
    }

    /// The tokens of a document, for a tokenizer.
    func documentTokens(_ text: String, _ descriptor: FTS5TokenizerDescriptor) throws -> [String] {
        try DatabaseQueue().read { db throws in
            try db.makeTokenizer(descriptor).tokenize(document: text).map(\.token)
        }
    }

    /// The tokens of a query, for a tokenizer.
    func queryTokens(_ text: String, _ descriptor: FTS5TokenizerDescriptor) throws -> [String] {
        try DatabaseQueue().read { db throws in
            try db.makeTokenizer(descriptor).tokenize(query: text).map(\.token)
        }
    }

    // MARK: - Matches

    @Test func asciiMatchesASCIIOnlyWithoutCase() throws {
        #expect(try finds("xyzÀÉ", "XYZÀÉ", with: .ascii()))
        #expect(try !finds("table", "tables", with: .ascii()))
        #expect(try !finds("aàÀ", "Ààa", with: .ascii()))
        #expect(try !finds("émile", "ÉMILE", with: .ascii()))
    }

    @Test func porterStemsWordsOfUnicode61() throws {
        #expect(try finds("xyzÀÉ", "XYZÀÉ", with: .porter()))
        #expect(try finds("table", "tables", with: .porter()))
        #expect(try finds("aàÀ", "Ààa", with: .porter()))
        #expect(try finds("émile", "ÉMILE", with: .porter()))
        // The same, with unicode61 named.
        #expect(try finds("table", "tables", with: .porter(wrapping: .unicode61())))
        #expect(try finds("émile", "ÉMILE", with: .porter(wrapping: .unicode61())))
    }

    @Test func porterOverASCII() throws {
        #expect(try finds("xyzÀÉ", "XYZÀÉ", with: .porter(wrapping: .ascii())))
        #expect(try finds("table", "tables", with: .porter(wrapping: .ascii())))
        #expect(try !finds("aàÀ", "Ààa", with: .porter(wrapping: .ascii())))
        #expect(try !finds("émile", "ÉMILE", with: .porter(wrapping: .ascii())))
    }

    @Test func unicode61FoldsCaseAndDiacritics() throws {
        #expect(try finds("xyzÀÉ", "XYZÀÉ", with: .unicode61()))
        #expect(try !finds("table", "tables", with: .unicode61()))
        #expect(try finds("aàÀ", "Ààa", with: .unicode61()))
        #expect(try finds("émile", "ÉMILE", with: .unicode61()))
    }

    @Test func unicode61KeepingDiacritics() throws {
        #expect(try finds("xyzÀÉ", "XYZÀÉ", with: .unicode61(diacritics: .keep)))
        #expect(try !finds("aàÀ", "Ààa", with: .unicode61(diacritics: .keep)))
        #expect(try finds("émile", "ÉMILE", with: .unicode61(diacritics: .keep)))
    }

    @Test func unicode61RemovingAllDiacritics() throws {
        #expect(try finds("aàÀ", "Ààa", with: .unicode61(diacritics: .remove)))
        #expect(try finds("émile", "ÉMILE", with: .unicode61(diacritics: .remove)))
        // U+1EA5 has two diacritics: only remove_diacritics=2 removes them.
        #expect(try finds("\u{1EA5}", "a", with: .unicode61(diacritics: .remove)))
        #expect(try !finds("\u{1EA5}", "a", with: .unicode61()))
    }

    @Test func unicode61Separators() throws {
        #expect(try finds("oneQtwo", "oneQtwo", with: .unicode61(separators: ["Q"])))
        // The query is the phrase "two one".
        #expect(try !finds("oneQtwo", "twoQone", with: .unicode61(separators: ["Q"])))
        #expect(try finds("oneQtwo", "one", with: .unicode61(separators: ["Q"])))
        #expect(try finds("oneQtwo", "two", with: .unicode61(separators: ["Q"])))
    }

    @Test func unicode61TokenCharacters() throws {
        #expect(try finds("v1.2-beta.log", "\"v1.2-beta.log\"", with: .unicode61(tokenCharacters: Set(".-"))))
        #expect(try !finds("v1.2-beta.log", "beta", with: .unicode61(tokenCharacters: Set(".-"))))
        #expect(try !finds("v1.2-beta.log", "log", with: .unicode61(tokenCharacters: Set(".-"))))
        // Without them, the same text is several tokens.
        #expect(try finds("v1.2-beta.log", "beta", with: .unicode61()))
    }

    @Test func asciiSeparatorsAndTokenCharacters() throws {
        #expect(try documentTokens("oneQtwo", .ascii(separators: ["Q"])) == ["one", "two"])
        #expect(try documentTokens("snake_case here", .ascii(tokenCharacters: ["_"])) == ["snake_case", "here"])
        #expect(try documentTokens("snake_case here", .ascii()) == ["snake", "case", "here"])
    }

    // MARK: - FTS3 and FTS4 tokenizers

    /// Whether `query` finds `text` in a one-column FTS3 or FTS4 table that
    /// uses `tokenizer`.
    func finds(_ text: String, _ query: String, fts4: Bool, with tokenizer: FTS3TokenizerDescriptor) throws -> Bool {
        let dbQueue = try DatabaseQueue()
        return try dbQueue.write { db throws in
            if fts4 {
                try db.create(virtualTable: "memo", using: FTS4()) { t in t.tokenizer = tokenizer }
            } else {
                try db.create(virtualTable: "memo", using: FTS3()) { t in t.tokenizer = tokenizer }
            }
            try db.execute(sql: "INSERT INTO memo VALUES (?)", arguments: [text])
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM memo WHERE memo MATCH ?", arguments: [query])! > 0
        }
    }

    @Test(arguments: [false, true])
    func fts3Tokenizers(fts4: Bool) throws {
        // simple
        #expect(try finds("xyzÀÉ", "xyzÀÉ", fts4: fts4, with: .simple))
        #expect(try !finds("table", "tables", fts4: fts4, with: .simple))
        #expect(try !finds("aàÀ", "Ààa", fts4: fts4, with: .simple))
        #expect(try !finds("émile", "ÉMILE", fts4: fts4, with: .simple))
        // porter
        #expect(try finds("xyzÀÉ", "xyzÀÉ", fts4: fts4, with: .porter))
        #expect(try finds("table", "tables", fts4: fts4, with: .porter))
        #expect(try !finds("aàÀ", "Ààa", fts4: fts4, with: .porter))
        #expect(try !finds("émile", "ÉMILE", fts4: fts4, with: .porter))
        // unicode61
        #expect(try finds("xyzÀÉ", "XYZÀÉ", fts4: fts4, with: .unicode61()))
        #expect(try !finds("table", "tables", fts4: fts4, with: .unicode61()))
        #expect(try finds("aàÀ", "Ààa", fts4: fts4, with: .unicode61()))
        #expect(try finds("émile", "ÉMILE", fts4: fts4, with: .unicode61()))
        #expect(try !finds("aàÀ", "Ààa", fts4: fts4, with: .unicode61(diacritics: .keep)))
        #expect(try finds("émile", "ÉMILE", fts4: fts4, with: .unicode61(diacritics: .keep)))
        #expect(try finds("\u{1EA5}", "a", fts4: fts4, with: .unicode61(diacritics: .remove)))
        // Separators: unlike FTS5, the query "twoQone" finds "oneQtwo".
        #expect(try finds("oneQtwo", "oneQtwo", fts4: fts4, with: .unicode61(separators: ["Q"])))
        #expect(try finds("oneQtwo", "twoQone", fts4: fts4, with: .unicode61(separators: ["Q"])))
        #expect(try finds("oneQtwo", "one", fts4: fts4, with: .unicode61(separators: ["Q"])))
        // Token characters
        #expect(try finds("v1.2-beta.log", "v1.2-beta.log", fts4: fts4, with: .unicode61(tokenCharacters: Set(".-"))))
        #expect(try !finds("v1.2-beta.log", "beta", fts4: fts4, with: .unicode61(tokenCharacters: Set(".-"))))
    }

    // MARK: - Tokens

    @Test func tokensOfASCII() throws {
        #expect(try documentTokens("SQLite Database", .ascii()) == ["sqlite", "database"])
        #expect(try queryTokens("SQLite Database", .ascii()) == ["sqlite", "database"])
        // Bytes beyond ASCII belong to tokens, unchanged.
        #expect(try documentTokens("Émile, l'Été!", .ascii()) == ["Émile", "l", "Été"])
        #expect(try documentTokens("中文 検索", .ascii()) == ["中文", "検索"])
        // FTS5 query syntax is only separators for the tokenizer.
        #expect(try queryTokens("\"fast\" OR (slow*)", .ascii()) == ["fast", "or", "slow"])
    }

    @Test func tokensOfUnicode61() throws {
        #expect(try documentTokens("Émile, l'Été!", .unicode61()) == ["emile", "l", "ete"])
        #expect(try documentTokens("Émile", .unicode61(diacritics: .keep)) == ["émile"])
        let greekAndGerman = try documentTokens("ΣΟΦΙΑ Straße", .unicode61())
        #expect(greekAndGerman == ["σοφια", "straße"])
        #expect(try documentTokens("中文 検索", .unicode61()) == ["中文", "検索"])
        #expect(try documentTokens("café☕️bar", .unicode61()) == ["cafe", "bar"])
    }

    @Test func tokensOfPorter() throws {
        #expect(try documentTokens("Databases running quickly", .porter()) == ["databas", "run", "quickli"])
        #expect(try queryTokens("Databases", .porter()) == ["databas"])
        #expect(try documentTokens("Émile", .porter()) == ["emil"])
        #expect(try documentTokens("Émile", .porter(wrapping: .ascii())) == ["Émile"])
    }

    @Test func tokensOfTrigram() throws {
        #expect(try documentTokens("Hello", .trigram()) == ["hel", "ell", "llo"])
        #expect(try documentTokens("Hello", .trigram(caseSensitive: true)) == ["Hel", "ell", "llo"])
        #expect(try documentTokens("Été", .trigram()) == ["été"])
        #expect(try documentTokens("Été", .trigram(removeDiacritics: true)) == ["ete"])
        #expect(try documentTokens("ab", .trigram()) == [])
    }

    @Test func tokensHaveNoFlags() throws {
        try DatabaseQueue().read { db throws in
            for descriptor: FTS5TokenizerDescriptor in [.ascii(), .unicode61(), .porter(), .trigram()] {
                let tokens = try db.makeTokenizer(descriptor).tokenize(document: "several words here")
                #expect(!tokens.isEmpty)
                #expect(tokens.allSatisfy { $0.flags.isEmpty })
            }
        }
    }

    @Test func emptyTextHasNoTokens() throws {
        try DatabaseQueue().read { db throws in
            let tokenizer = try db.makeTokenizer(.unicode61())
            #expect(try tokenizer.tokenize(query: "").isEmpty)
            #expect(try tokenizer.tokenize(document: "").isEmpty)
            #expect(try tokenizer.tokenize(document: " ,;! ").isEmpty)
        }
    }

    /// A tokenizer made in an access keeps working after it, as the
    /// tokenizers of GRDB's built-in modules do (apps keep them in tests).
    @Test func builtInTokenizersOutliveTheirAccess() throws {
        let tokenizer = try DatabaseQueue().read { db throws in
            try db.makeTokenizer(.porter(wrapping: .unicode61(diacritics: .keep)))
        }
        #expect(try tokenizer.tokenize(query: "Élans running").map(\.token) == ["élan", "run"])
    }

    @Test func descriptorsWithArguments() throws {
        // A descriptor made of components tokenizes as the same
        // tokenizer made with its factory method.
        let descriptor = FTS5TokenizerDescriptor(components: ["porter", "unicode61", "remove_diacritics", "0"])
        #expect(descriptor.components == FTS5TokenizerDescriptor.porter(wrapping: .unicode61(diacritics: .keep)).components)
        #expect(try documentTokens("Élans", descriptor) == ["élan"])
        #expect(try documentTokens("a-b c", FTS5TokenizerDescriptor(components: ["unicode61", "tokenchars", "-"])) == ["a-b", "c"])
    }
}
