import Cairn
import CairnSearchKit
import Foundation
import Testing

@Suite struct QueryTests {
    /// An index of a few documents.
    struct Fixture {
        let notes: TemporaryFolder
        let databaseFolder: TemporaryFolder
        let index: SearchIndex
        var databasePath: String { databaseFolder.path("index.sqlite") }

        init(_ files: [String: String]) throws {
            notes = try TemporaryFolder()
            databaseFolder = try TemporaryFolder()
            for (path, text) in files {
                try notes.write(path, text)
            }
            index = try SearchIndex(path: databaseFolder.path("index.sqlite"))
            try index.index(directory: notes.path)
        }

        func paths(_ text: String) throws -> [String]? {
            try index.search(text)?.map { ($0.path as NSString).lastPathComponent }
        }
    }

    @Test func accentsAndLatinLettersAreFolded() throws {
        let fixture = try Fixture([
            "cafe.md": "# Le café\n\nUn crème brûlée au café de Zoë.",
            "people.txt": "Meeting with Mr grossmann and Encyclopædia editors.",
            "plain.txt": "Nothing special in here.",
        ])
        #expect(try fixture.paths("cafe") == ["cafe.md"])
        #expect(try fixture.paths("CAFÉ") == ["cafe.md"])
        #expect(try fixture.paths("creme brulee") == ["cafe.md"])
        #expect(try fixture.paths("zoe") == ["cafe.md"])
        #expect(try fixture.paths("Großmann") == ["people.txt"])
        #expect(try fixture.paths("GROSSMANN") == ["people.txt"])
        #expect(try fixture.paths("encyclopaedia") == ["people.txt"])
        // Matches are highlighted in the original text.
        let result = try #require(try fixture.index.search("cafe")?.first)
        #expect(result.title == "Le [café]")
        #expect(result.snippet.contains("au [café] de Zoë"))
    }

    @Test func synonymsMatchEachOther() throws {
        let fixture = try Fixture([
            "long.txt": "The database of the first project.",
            "short.txt": "Our db for the 1st release.",
            "other.txt": "A second opinion in the folder.",
        ])
        #expect(try fixture.paths("db")?.sorted() == ["long.txt", "short.txt"])
        #expect(try fixture.paths("database")?.sorted() == ["long.txt", "short.txt"])
        #expect(try fixture.paths("first")?.sorted() == ["long.txt", "short.txt"])
        #expect(try fixture.paths("1st db")?.sorted() == ["long.txt", "short.txt"])
        #expect(try fixture.paths("2nd") == ["other.txt"])
        #expect(try fixture.paths("directory") == ["other.txt"])
        #expect(try fixture.paths("dir") == ["other.txt"])
        // The synonym is highlighted where the word is.
        let long = try #require(try fixture.index.search("db")?.first { $0.path.hasSuffix("long.txt") })
        #expect(long.snippet == "The [database] of the first project.")
    }

    @Test func stopWordsAreIgnored() throws {
        let fixture = try Fixture([
            "ring.txt": "The Lord of the Rings",
            "game.txt": "A Game of Thrones",
        ])
        // Only stop words: a pattern, but no match.
        #expect(try fixture.index.search("the") == [])
        #expect(try fixture.index.search("of the and") == [])
        // Stop words of a query do not have to be in the document.
        #expect(try fixture.paths("lord with the rings") == ["ring.txt"])
        #expect(try fixture.paths("the game") == ["game.txt"])
        // Without stop words, "lord of the rings" would need "of".
        #expect(try fixture.paths("rings of lord") == ["ring.txt"])
    }

    @Test func bestMatchesComeFirst() throws {
        let fixture = try Fixture([
            "a-body-once.txt": "Some notes. Sqlite appears once among many other words of this text.",
            "b-body-often.txt": "Sqlite sqlite sqlite: all about sqlite.",
            "c-title.md": "# SQLite\n\nA page about an embedded engine, with many words in it.",
            "d-unrelated.txt": "Postgres only.",
        ])
        let results = try #require(try fixture.index.search("sqlite"))
        #expect(results.map { ($0.path as NSString).lastPathComponent } == ["c-title.md", "b-body-often.txt", "a-body-once.txt"])
        // Scores decrease.
        #expect(zip(results, results.dropFirst()).allSatisfy { $0.score > $1.score })
        #expect(results.allSatisfy { $0.score > 0 })
        #expect(results[0].title == "[SQLite]")

        // The limit keeps the best ones.
        #expect(try fixture.index.search("sqlite", limit: 2)?.map(\.path) == Array(results.prefix(2)).map(\.path))
        #expect(try fixture.index.search("sqlite", limit: 0) == [])
    }

    @Test func englishWordsAreStemmed() throws {
        let fixture = try Fixture([
            "pool.txt": "A pool of connections.",
            "index.md": "# Indexing\n\nThe indexer indexes files.",
        ])
        #expect(try fixture.paths("pools") == ["pool.txt"])
        #expect(try fixture.paths("connection") == ["pool.txt"])
        #expect(try fixture.paths("index") == ["index.md"])
        #expect(try fixture.paths("indexed") == ["index.md"])
        // The words of the text are highlighted, whatever their form.
        #expect(try fixture.index.search("index")?.first?.snippet == "# [Indexing] The [indexer] [indexes] files.")
    }

    @Test func allWordsMustMatch() throws {
        let fixture = try Fixture([
            "both.txt": "apples and oranges",
            "one.txt": "apples only",
        ])
        #expect(try fixture.paths("apples")?.sorted() == ["both.txt", "one.txt"])
        #expect(try fixture.paths("oranges apples") == ["both.txt"])
        #expect(try fixture.paths("apples pears") == [])
    }

    @Test func textWithoutWordsIsNoSearch() throws {
        let fixture = try Fixture(["a.txt": "text"])
        for text in ["", "   ", "***", "\"\"", "()", "-", "^", "\u{0}", ":"] {
            #expect(try fixture.index.search(text) == nil, "\(text)")
        }
    }

    /// Text typed by users never makes an SQL or FTS5 syntax error.
    @Test(arguments: [
        "\"", "\"unbalanced quote", "'", "''", "'; DROP TABLE document; --",
        "NEAR(", "NEAR(a b", "NEAR(near, 2)", "near/3", "*", "near*", "^", "^near", "near^",
        "(", ")", "((near)", "near))", "(((((((((((((((((((((((((((((((",
        "AND", "OR", "NOT", "AND OR NOT", "near AND", "NOT near", "near OR OR near", "- near", "+near",
        "title:", "title: near", "body : near", "{title body}: near", "missing: near", ":near:",
        "😀", "near 😀 👍🏽 🇫🇷", "日本語 near", "\u{0}near", "near\u{0}", "\\", "\\\"", "%_", "[near]", "{", "}",
        String(repeating: "near ", count: 5_000), String(repeating: "x", count: 200_000),
        String(repeating: "(\"", count: 2_000), String(repeating: "NEAR(", count: 2_000),
        String(repeating: "AND OR NOT ", count: 1_000),
    ])
    func hostileTextIsSearchedAsText(text: String) throws {
        let fixture = try Self.hostileFixture()
        let results = try fixture.index.search(text)
        if let results {
            #expect(results.allSatisfy { $0.path.hasSuffix("near.txt") || $0.path.hasSuffix("syntax.txt") })
        }
        // And through the command line.
        let run = run(["query", "--db", fixture.databasePath, "--json", "--", text])
        #expect(run.status == 0)
        #expect(!run.standardError.contains("error"))
        #expect(try JSONDecoder().decode([SearchResult].self, from: Data(run.standardOutput.utf8)).count == (results?.count ?? 0))
    }

    /// Random mixes of the query syntax, words and odd characters.
    @Test func randomHostileTextIsSearchedAsText() throws {
        let fixture = try Self.hostileFixture()
        let pieces = [
            "\"", "'", "(", ")", "*", "^", ":", "+", "-", "{", "}", "[", "]", ",", ".", "\\", " ", "\t", "\n",
            "\u{0}", "\u{301}", "\u{200B}", "\u{FEFF}", "é", "ß", "æ", "日", "😀", "👍🏽", "NEAR", "AND", "OR", "NOT",
            "near", "title", "body", "rank", "the", "a", "db", "1st", "x*", "\"a b\"", "NEAR(", "title:", "{title}",
        ]
        // A fixed linear congruential generator: the same texts at each run.
        var state: UInt64 = 2024
        func random(_ upperBound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % upperBound
        }
        for _ in 0..<1_000 {
            let text = (0..<random(12)).map { _ in pieces[random(pieces.count)] }
                .joined(separator: random(2) == 0 ? "" : " ")
            #expect(throws: Never.self, "\(text.debugDescription)") {
                try fixture.index.search(text)
            }
        }
    }

    @Test func syntaxWordsAreSearchedAsWords() throws {
        let fixture = try Self.hostileFixture()
        #expect(try fixture.paths("NEAR") == ["near.txt"])
        #expect(try fixture.paths("NEAR(") == ["near.txt"])
        #expect(try fixture.paths("\"near\"") == ["near.txt"])
        #expect(try fixture.paths("NOT") == ["syntax.txt"])
        #expect(try fixture.paths("title: near") == [])  // "title" is a word, not a column filter
        // The table and its content are still there.
        #expect(try fixture.index.search("'; DROP TABLE document; --") == [])
        #expect(try fixture.index.documents().count == 2)
    }

    static func hostileFixture() throws -> Fixture {
        try Fixture([
            "near.txt": "The shop is near the station.",
            "syntax.txt": "Words of the query syntax: NOT, AND, OR, title: x.",
        ])
    }
}
