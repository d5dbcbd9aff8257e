import Foundation
import Testing
import Cairn

/// Strings made of the syntax of FTS queries: none of them may produce an
/// invalid pattern.
let hostilePatternInputs: [String] = [
    "", " ", "*", "**", "^", "\"", "\"\"", "\"\"\"", "'", "''", ":", "::", "-", "--", "+", "(", ")", "()", ")(",
    "((((", "))))", "{", "}", "{a b}", "[", "]", "NEAR", "NEAR(", "NEAR()", "NEAR(a b, 2)", "NEAR/2", "a NEAR/3 b",
    "AND", "OR", "NOT", "and", "or", "not", "AND OR NOT", "a AND", "OR b", "NOT NOT", "a OR OR b",
    "a*", "*a", "a**", "a * b", "^a", "a^", "^^a", "^\"a\"", "a:b", "col:word", "missing: sqlite", ":a", "a:",
    "-a", "a-", "a - b", "a--b", "\"a b\"", "\"a b", "a b\"", "\"a\" \"", "(a OR b)", "(a OR", "a) OR (b",
    "a + b", "+a", "a+", "{col1 col2}: word", "- col: word", "\\", "\\\"", "a\\b", "%", "_", "a%b", "a_b",
    "\u{0}", "a\u{0}b", "\t\n", "NEAR(a\" b)", "a AND \"", "NOT a", "a NOT", "* OR *", "\"*\"", "\"^\"",
    "Dupont's", "l'été", "naïve café", "C++ C#", "e-mail", "x:y:z", "1 2 3", "0xFF", "ÉLODIE", "東京 大阪",
    "🙂 smile", "a\u{301}", "ﬁ", "\u{FEFF}bom", String(repeating: "(", count: 200), String(repeating: "a ", count: 200),
]

@Suite struct FTSPatternTests {
    @Test func fts3RawPatterns() throws {
        _ = try FTS3Pattern(rawPattern: "sqlite AND database")
        #expect {
            try FTS3Pattern(rawPattern: "AND")
        } throws: { error in
            (error as? DatabaseError)?.message == "malformed MATCH expression: [AND]"
        }
    }

    @Test func fts3PatternInitializers() throws {
        let query = "SQLite database"
        // Tokens of the simple tokenizer are plain terms: lowercased, with
        // no query syntax left.
        #expect(FTS3Pattern(matchingAnyTokenIn: query)?.rawPattern == "sqlite OR database")
        #expect(FTS3Pattern(matchingAllTokensIn: query)?.rawPattern == "sqlite database")
        #expect(FTS3Pattern(matchingAllPrefixesIn: query)?.rawPattern == "sqlite* database*")
        #expect(FTS3Pattern(matchingPhrase: query)?.rawPattern == #""sqlite database""#)
        #expect(FTS3Pattern(matchingAllTokensIn: "^Écarlates* AND \"near\"")?.rawPattern == "Écarlates and near")
        #expect(FTS3Pattern(matchingAnyTokenIn: "") == nil)
        #expect(FTS3Pattern(matchingAnyTokenIn: "*") == nil)

        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(virtualTable: "document", using: FTS4()) { t in t.column("content") }
            for content in ["SQLite is a database engine", "SQLite rocks", "A database", "databases are fun"] {
                try db.execute(sql: "INSERT INTO document VALUES (?)", arguments: [content])
            }
            func matches(_ pattern: FTS3Pattern?) throws -> [String] {
                try String.fetchAll(db, sql: "SELECT content FROM document WHERE content MATCH ? ORDER BY rowid", arguments: [pattern])
            }
            #expect(try matches(FTS3Pattern(matchingAnyTokenIn: query)) == ["SQLite is a database engine", "SQLite rocks", "A database"])
            #expect(try matches(FTS3Pattern(matchingAllTokensIn: query)) == ["SQLite is a database engine"])
            #expect(try matches(FTS3Pattern(matchingAllPrefixesIn: "sql data")) == ["SQLite is a database engine"])
            #expect(try matches(FTS3Pattern(matchingPhrase: "a database")) == ["SQLite is a database engine", "A database"])
        }
    }

    @Test func fts5PatternInitializers() throws {
        let query = "SQLite database"
        // Plain tokens are barewords; only phrases are quoted.
        #expect(FTS5Pattern(matchingAnyTokenIn: query)?.rawPattern == "sqlite OR database")
        #expect(FTS5Pattern(matchingAllTokensIn: query)?.rawPattern == "sqlite database")
        #expect(FTS5Pattern(matchingAllPrefixesIn: query)?.rawPattern == "sqlite* database*")
        #expect(FTS5Pattern(matchingPhrase: query)?.rawPattern == #""sqlite database""#)
        #expect(FTS5Pattern(matchingPrefixPhrase: query)?.rawPattern == #"^"sqlite database""#)
        #expect(FTS5Pattern(matchingAllTokensIn: "Écarlates NEAR and")?.rawPattern == "Écarlates near and")
        #expect(FTS5Pattern(matchingAllPrefixesIn: "Snake_case")?.rawPattern == "snake* case*")
        #expect(FTS5Pattern(matchingAnyTokenIn: "") == nil)
        #expect(FTS5Pattern(matchingAnyTokenIn: "*") == nil)

        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(virtualTable: "document", using: FTS5()) { t in t.column("content") }
            for content in ["SQLite database engine", "SQLite rocks", "A database of SQLite", "databases are fun"] {
                try db.execute(sql: "INSERT INTO document VALUES (?)", arguments: [content])
            }
            func matches(_ pattern: FTS5Pattern?) throws -> [String] {
                try String.fetchAll(db, sql: "SELECT content FROM document WHERE document MATCH ? ORDER BY rowid", arguments: [pattern])
            }
            #expect(try matches(FTS5Pattern(matchingAnyTokenIn: query)) == ["SQLite database engine", "SQLite rocks", "A database of SQLite"])
            #expect(try matches(FTS5Pattern(matchingAllTokensIn: query)) == ["SQLite database engine", "A database of SQLite"])
            #expect(try matches(FTS5Pattern(matchingAllPrefixesIn: "sql data")) == ["SQLite database engine", "A database of SQLite"])
            #expect(try matches(FTS5Pattern(matchingPhrase: query)) == ["SQLite database engine"])
            #expect(try matches(FTS5Pattern(matchingPrefixPhrase: query)) == ["SQLite database engine"])
            #expect(try matches(FTS5Pattern(matchingPrefixPhrase: "database")) == [])
        }
    }

    @Test func fts5RawPatterns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(virtualTable: "book", using: FTS5()) { t in
                t.column("title")
                t.column("body")
            }
            _ = try db.makeFTS5Pattern(rawPattern: "sqlite", forTable: "book")
            _ = try db.makeFTS5Pattern(rawPattern: "title: sqlite", forTable: "book")
            #expect {
                try db.makeFTS5Pattern(rawPattern: "AND", forTable: "book")
            } throws: { error in
                (error as? DatabaseError)?.message == "fts5: syntax error near \"AND\""
            }
            #expect {
                try db.makeFTS5Pattern(rawPattern: "missing: sqlite", forTable: "book")
            } throws: { error in
                (error as? DatabaseError)?.message == "no such column: missing"
            }
            #expect(throws: DatabaseError.self) {
                try db.makeFTS5Pattern(rawPattern: "sqlite", forTable: "missing")
            }
        }
    }

    /// Patterns are values.
    @Test func patternsAreValues() throws {
        let pattern = try #require(FTS5Pattern(matchingPhrase: "a b"))
        #expect(pattern.databaseValue == #""a b""#.databaseValue)
        #expect(FTS5Pattern.fromDatabaseValue("x".databaseValue)?.rawPattern == "x")
        #expect(FTS3Pattern.fromDatabaseValue(1.databaseValue) == nil)
        let arguments: StatementArguments = [pattern]
        #expect(arguments == [#""a b""#])
    }

    /// No string builds an invalid pattern: every pattern runs.
    @Test func hostileInputsNeverBuildInvalidPatterns() throws {
        #expect(hostilePatternInputs.count >= 50)
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(virtualTable: "fts5", using: FTS5()) { t in
                t.column("col")
                t.column("col1")
                t.column("col2")
            }
            try db.create(virtualTable: "fts4", using: FTS4()) { t in
                t.column("col")
            }
            try db.execute(sql: "INSERT INTO fts5 VALUES ('a b', 'word', 'near and or not')")
            try db.execute(sql: "INSERT INTO fts4 VALUES ('a b near and or not')")
            var builtPatterns = 0
            for input in hostilePatternInputs {
                let fts5Patterns = [
                    FTS5Pattern(matchingAnyTokenIn: input), FTS5Pattern(matchingAllTokensIn: input),
                    FTS5Pattern(matchingAllPrefixesIn: input), FTS5Pattern(matchingPhrase: input),
                    FTS5Pattern(matchingPrefixPhrase: input),
                ]
                for pattern in fts5Patterns.compactMap({ $0 }) {
                    builtPatterns += 1
                    do {
                        _ = try db.makeFTS5Pattern(rawPattern: pattern.rawPattern, forTable: "fts5")
                        _ = try Row.fetchAll(db, sql: "SELECT * FROM fts5 WHERE fts5 MATCH ?", arguments: [pattern])
                    } catch {
                        Issue.record("FTS5 pattern \(pattern.rawPattern) of \(input.debugDescription) is invalid: \(error)")
                    }
                }
                let fts3Patterns = [
                    FTS3Pattern(matchingAnyTokenIn: input), FTS3Pattern(matchingAllTokensIn: input),
                    FTS3Pattern(matchingAllPrefixesIn: input), FTS3Pattern(matchingPhrase: input),
                ]
                for pattern in fts3Patterns.compactMap({ $0 }) {
                    builtPatterns += 1
                    do {
                        _ = try FTS3Pattern(rawPattern: pattern.rawPattern)
                        _ = try Row.fetchAll(db, sql: "SELECT * FROM fts4 WHERE fts4 MATCH ?", arguments: [pattern])
                    } catch {
                        Issue.record("FTS3 pattern \(pattern.rawPattern) of \(input.debugDescription) is invalid: \(error)")
                    }
                }
                // Inputs without tokens give no pattern.
                if try FTS3.tokenize(input).allSatisfy({ $0.allSatisfy { $0 == "\u{0}" } }) {
                    #expect(FTS3Pattern(matchingAnyTokenIn: input) == nil, "\(input.debugDescription)")
                }
            }
            #expect(builtPatterns > 300)
            // Syntax is searched as text: "near" and "and" are words here.
            let keywords = try #require(FTS5Pattern(matchingAllTokensIn: "NEAR AND"))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fts5 WHERE fts5 MATCH ?", arguments: [keywords]) == 1)
            let column = try #require(FTS5Pattern(matchingAllTokensIn: "col1: word"))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fts5 WHERE fts5 MATCH ?", arguments: [column]) == 0)
        }
    }
}
