import Foundation
import Testing
@testable import Cairn

/// The tools of FTS5Table: the table's schema, token statistics,
/// suggestions, key tokens, similar rows; in read-only accesses too.
@Suite struct FTS5TableTests {
    @Test(arguments: [
        ("CREATE VIRTUAL TABLE t USING fts5(a, b)", ["a", "b"], [true, true], ["unicode61"], false),
        ("CREATE VIRTUAL TABLE t USING fts5(a, b UNINDEXED, tokenize = 'porter ascii')", ["a", "b"], [true, false], ["porter", "ascii"], false),
        ("create virtual table \"t\" using FTS5(\"a b\", [c], tokenize=porter, prefix='2 3')", ["a b", "c"], [true, true], ["porter"], false),
        ("CREATE VIRTUAL TABLE t USING fts5(content, tokenize='''porter'' ''unicode61'' ''remove_diacritics'' ''2''', locale=1)",
         ["content"], [true], ["porter", "unicode61", "remove_diacritics", "2"], true),
        ("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = \"unicode61 tokenchars '-_'\", content='', detail=none)",
         ["x"], [true], ["unicode61", "tokenchars", "-_"], false),
        ("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'cairn_synonyms ''a b'' ''c d'' -- cairn_words')",
         ["x"], [true], ["cairn_synonyms", "a b", "c d", "--", "cairn_words"], false),
        // Comments stay in sqlite_master.
        ("CREATE VIRTUAL TABLE t USING fts5(\n  title, -- the user's title\n  body /* (notes, 'quoted') */,\n  tokenize='porter'\n)",
         ["title", "body"], [true, true], ["porter"], false),
    ])
    func schemaParsing(sql: String, columns: [String], indexed: [Bool], tokenizer: [String], locale: Bool) throws {
        let schema = try #require(FTS5TableSchema(sql: sql))
        #expect(schema.columns.map(\.name) == columns)
        #expect(schema.columns.map(\.isIndexed) == indexed)
        #expect(schema.tokenizer.components == tokenizer)
        #expect(schema.hasLocale == locale)
    }

    @Test func schemaOfTablesCreatedWithTheDSL() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        try dbQueue.write { db throws in
            try db.create(virtualTable: "book", using: FTS5()) { t in
                t.tokenizer = .porter(wrapping: .unicode61(diacritics: .remove, separators: ["'", "="], tokenCharacters: ["-"]))
                t.column("title")
                t.column("isbn").notIndexed()
                t.locale = true
            }
            let schema = try FTS5TableSchema(db, table: "BOOK", schema: "main")
            #expect(schema.columns.map(\.name) == ["title", "isbn"])
            #expect(schema.columns.map(\.isIndexed) == [true, false])
            let expected = FTS5TokenizerDescriptor.porter(wrapping: .unicode61(diacritics: .remove, separators: ["'", "="], tokenCharacters: ["-"]))
            #expect(schema.tokenizer.components == expected.components)
            #expect(schema.hasLocale)
            // The parsed tokenizer is the table's: it tokenizes the same.
            _ = try db.makeTokenizer(schema.tokenizer)
            try db.create(table: "plain") { t in t.column("name") }
            #expect(throws: DatabaseError.self) { try FTS5Table("plain").tokenizerDescriptor(db) }
            #expect(throws: DatabaseError.self) { try FTS5Table("missing").rowCount(db) }
            #expect(throws: DatabaseError.self) { try FTS5Table("missing").documentCount(db, of: "x") }
        }
    }

    /// A corpus where "database" is common, "databases" rare, and
    /// "sqlite" common.
    func makeCorpus(_ writer: some DatabaseWriter) throws {
        try writer.write { db in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.column("title")
                t.column("body")
                t.column("uuid").notIndexed()
            }
            var documents: [(String, String)] = []
            for index in 0..<40 {
                documents.append(("Notes \(index)", "the sqlite database engine stores the database in one file"))
            }
            documents.append(("Whales", "the whale swims; whales and whale songs, a whale of a time"))
            documents.append(("Whale watching", "boats watch a whale near the island"))
            documents.append(("Islands", "an island of the sea, with an island harbor"))
            documents.append(("Rare", "databases and sqlit are misspelled here"))
            for (title, body) in documents {
                try db.execute(sql: "INSERT INTO doc(title, body, uuid) VALUES (?, ?, ?)", arguments: [title, body, UUID().uuidString])
            }
        }
    }

    @Test(arguments: WriterKind.allCases)
    func statisticsAndSuggestions(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        try makeCorpus(writer)
        let doc = FTS5Table("doc")
        // In a read-only access (a pool reader, or a queue's read).
        try writer.read { db throws in
            #expect(try doc.rowCount(db) == 44)
            #expect(try doc.documentCount(db, of: "database") == 40)
            #expect(try doc.occurrenceCount(db, of: "database") == 80)
            #expect(try doc.documentCount(db, of: "whale") == 2)
            #expect(try doc.occurrenceCount(db, of: "whale") == 5)
            #expect(try doc.documentCount(db, of: "missing") == 0)

            let suggestions = try doc.suggestions(db, for: "Databse")
            #expect(suggestions.first == FTS5TokenSuggestion(token: "database", distance: 1, documentCount: 40))
            #expect(try doc.suggestions(db, for: "whale").map(\.token) == ["whales"])
            #expect(try doc.suggestions(db, for: "xyzzy").isEmpty)
            #expect(try doc.suggestions(db, for: "databse", maximumDistance: 2).map(\.token) == ["database", "databases"])

            #expect(try doc.suggestedQuery(db, for: "sqllite databse") == "sqlite database")
            #expect(try doc.suggestedQuery(db, for: "SQLite database") == nil)
            // "databases" is in the index, in 1 row; "database" is in 40.
            #expect(try doc.suggestedQuery(db, for: "databases") == "database")
            #expect(try doc.suggestedQuery(db, for: "databases", popularity: 100) == nil)
            // The query syntax (column filters, operators, quotes, prefix
            // stars, parentheses) is kept as typed, with the words it holds
            // corrected.
            #expect(try doc.suggestedQuery(db, for: "title: \"Whale  watchng\" OR islnd*") == "title: \"Whale  watching\" OR island*")
            #expect(try doc.suggestedQuery(db, for: "{title body}: (sqlit AND NOT databse) NEAR(whle harbr, 3)")
                == "{title body}: (sqlite AND NOT database) NEAR(whale harbor, 3)")
            #expect(try doc.suggestedQuery(db, for: "^sqlite + \"the \"\"databse\"\"\"") == "^sqlite + \"the \"\"database\"\"\"")
        }
        // The read-only access is still read-only after the tools ran.
        try writer.read { db throws in
            _ = try doc.documentCount(db, of: "database")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "DELETE FROM doc") }
        }
    }

    @Test func keyTokensAndSimilarRows() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        try makeCorpus(dbQueue)
        let doc = FTS5Table("doc")
        try dbQueue.read { db throws in
            let whales = try #require(try Int64.fetchOne(db, sql: "SELECT rowid FROM doc WHERE title = 'Whales'"))
            let keys = try doc.keyTokens(db, rowID: whales, limit: 3)
            // "whales" (title and body) is in this row only; "whale" (3
            // times) is in two rows.
            #expect(keys.map(\.token).prefix(2) == ["whales", "whale"])
            #expect(keys.map(\.count).prefix(2) == [2, 3])
            #expect(keys.map(\.documentCount).prefix(2) == [1, 2])
            #expect(keys[0].text == "Whales")
            #expect(keys.map(\.score) == keys.map(\.score).sorted(by: >))
            // The UNINDEXED column is not a source of tokens.
            #expect(try doc.keyTokens(db, rowID: whales, limit: 100).allSatisfy { $0.token.count < 30 })
            #expect(try doc.keyTokens(db, rowID: 999, limit: 3).isEmpty)

            let similar = try doc.similarRowIDs(db, to: whales, limit: 3)
            let watching = try #require(try Int64.fetchOne(db, sql: "SELECT rowid FROM doc WHERE title = 'Whale watching'"))
            #expect(similar.first == watching)
            #expect(!similar.contains(whales))
            #expect(try doc.similarRowIDs(db, to: 999).isEmpty)
        }
    }

    /// Key tokens keep the text of the row, which a stemming tokenizer
    /// turns into the same token again.
    @Test func stemmedTablesAndChineseText() throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.prepareDatabase { db in db.add(tokenizer: FTS5WordTokenizer.self) }
        let dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: config)
        try dbQueue.write { db throws in
            try db.create(virtualTable: "en", using: FTS5()) { t in
                t.tokenizer = .porter()
                t.column("body")
            }
            for body in ["Running runners run", "running shoes", "a cat sleeps", "cats sleeping", "the runner"] {
                try db.execute(sql: "INSERT INTO en VALUES (?)", arguments: [body])
            }
            let keys = try FTS5Table("en").keyTokens(db, rowID: 1)
            #expect(keys.first?.token == "run")
            #expect(keys.first?.text == "Running")
            #expect(keys.first?.count == 2)
            #expect(try Set(FTS5Table("en").similarRowIDs(db, to: 1)) == [2, 5])

            try db.create(virtualTable: "zh", using: FTS5()) { t in
                t.tokenizer = FTS5WordTokenizer.tokenizerDescriptor()
                t.column("body")
            }
            for body in ["研究生命科学很有意思", "生命科学和计算机", "今天天气很好", "科学研究需要时间"] {
                try db.execute(sql: "INSERT INTO zh VALUES (?)", arguments: [body])
            }
            let zh = FTS5Table("zh")
            #expect(try zh.documentCount(db, of: "科学") == 3)
            #expect(try zh.suggestions(db, for: "生命").isEmpty)
            // Rows 2 and 4 share two words with row 1 each; row 3 none.
            #expect(try Set(zh.similarRowIDs(db, to: 1)) == [2, 4])
            #expect(try zh.keyTokens(db, rowID: 3).map(\.token).contains("天气"))
        }
    }

    /// Values that are not text (FTS5 columns have no type), queries
    /// whose corrections need quotes, damaged statistics.
    @Test func unusualValuesAndQueries() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        try dbQueue.write { db throws in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = .unicode61(tokenCharacters: ["-"])
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO doc VALUES (42)")
            try db.execute(sql: "INSERT INTO doc VALUES (3.5)")
            try db.execute(sql: "INSERT INTO doc VALUES (x'616263')")
            for _ in 0..<20 {
                try db.execute(sql: "INSERT INTO doc VALUES ('send an e-mail')")
            }
            let doc = FTS5Table("doc")
            #expect(try doc.keyTokens(db, rowID: 1).map(\.token) == ["42"])
            #expect(try doc.keyTokens(db, rowID: 2).map(\.token).sorted() == ["3", "5"])
            #expect(try doc.keyTokens(db, rowID: 3).map(\.token) == ["abc"])
            _ = try doc.similarRowIDs(db, to: 1)
            // "e-mail" is not a bareword: the correction is quoted.
            #expect(try doc.suggestedQuery(db, for: "e-mial") == nil) // "e" and "mial" are barewords
            #expect(try doc.suggestedQuery(db, for: "\"e-mial\" sendd") == "\"e-mail\" send")
            #expect(try doc.suggestions(db, for: "e-mial", maximumDistance: .max).first?.token == "e-mail")
            // A popularity that overflows the count does not crash.
            #expect(try doc.suggestedQuery(db, for: "send an", popularity: .max) == nil)
        }
    }

    @Test func editDistances() {
        func distance(_ a: String, _ b: String, _ maximum: Int = 3) -> Int? {
            editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars), maximum: maximum)
        }
        #expect(distance("database", "database") == 0)
        #expect(distance("databse", "database") == 1)
        #expect(distance("dtaabase", "database") == 1)   // a swap
        #expect(distance("kitten", "sitting") == 3)
        #expect(distance("kitten", "sitting", 2) == nil)
        #expect(distance("", "abc") == 3)
        #expect(distance("科学", "科技") == 1)
    }
}
