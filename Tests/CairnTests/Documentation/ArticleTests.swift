import Foundation
import Testing
import Cairn

/// The Swift code of the DocC articles (Sources/Cairn/Documentation.docc)
/// compiles and runs: each block of an article is copied in
/// `ArticleSnippets+<Article>.swift` (the first test checks that the copy
/// holds every line of the block, in order, between the markers
/// `// <Article>.md block N` and `// end of <Article>.md block N`), which the
/// test target compiles, and the other tests run the copies and check what
/// the articles say of them: the SQL they show, the values they return.
/// Blocks of `Package.swift` (`.package(…)`) are not Swift code of a
/// program, and are not copied.
@Suite struct ArticleTests {
    /// The articles, by file name without extension.
    static let articles = [
        "Cairn", "GettingStarted", "RecordsAndQueryInterface", "Associations", "FullTextSearch",
        "Observation", "ConcurrencyAndPools", "CustomSQLiteBuilds", "Encryption", "BlobStreams", "SerializedDatabases",
        "LongQueries", "TableFunctions", "ReplicationAndBackups", "Safety", "DifferencesFromGRDB",
    ]

    static let articleFolder = "Sources/Cairn/Documentation.docc"

    /// The Swift blocks of an article, in order.
    static func blocks(of article: String) throws -> [String] {
        let text = try DocumentationBlocks.contents(of: "\(articleFolder)/\(article).md")
        let blocks = DocumentationBlocks.swiftBlocks(in: text)
        // A fence that is not at the start of its line would escape the
        // check: there is none.
        #expect(blocks.count == text.components(separatedBy: "```swift").count - 1,
                "\(article).md has a ```swift fence that is not alone at the start of its line")
        return blocks
    }

    @Test func everyArticleIsChecked() throws {
        let files = try FileManager.default.contentsOfDirectory(
            atPath: DocumentationBlocks.root.appendingPathComponent(ArticleTests.articleFolder).path)
        let articles = files.filter { $0.hasSuffix(".md") }.map { String($0.dropLast(3)) }
        #expect(Set(articles) == Set(ArticleTests.articles))
    }

    @Test(arguments: ArticleTests.articles)
    func everyArticleBlockIsCompiledByTheTests(article: String) throws {
        let blocks = try ArticleTests.blocks(of: article)
        #expect(!blocks.isEmpty)
        let copyFileName = "ArticleSnippets+\(article).swift"
        let copies = try DocumentationBlocks.contents(of: "Tests/CairnTests/Documentation/\(copyFileName)")
        try DocumentationBlocks.checkCopies(of: blocks, label: "\(article).md", in: copies, copyFileName: copyFileName)
    }

    @Test func articleBlockCount() throws {
        var copied = 0
        for article in ArticleTests.articles {
            copied += try ArticleTests.blocks(of: article).filter(DocumentationBlocks.isCopied).count
        }
        print("Article blocks copied and compiled by the tests: \(copied)")
        #expect(copied >= 50)
    }

    /// The check fails when a copy lacks a line, has it out of order, or
    /// copies a block that the document does not have.
    @Test func theCopyCheckFindsMistakes() throws {
        let blocks = ["let a = 1\nlet b = 2", ".package(path: \"x\")", "extension Player {\n}"]
        let good = """
            // Doc.md block 0
            func f() {
                let a = 1
                _ = a
                let b = 2
            }
            // end of Doc.md block 0
            // Doc.md block 2
            extension DocArticle.Player {
            }
            // end of Doc.md block 2

            """
        try DocumentationBlocks.checkCopies(of: blocks, label: "Doc.md", in: good, copyFileName: "Copy.swift")

        let outOfOrder = good.replacingOccurrences(of: "let a = 1\n    _ = a\n    let b = 2", with: "let b = 2\n    let a = 1")
        #expect(outOfOrder != good)
        withKnownIssue {
            try DocumentationBlocks.checkCopies(of: blocks, label: "Doc.md", in: outOfOrder, copyFileName: "Copy.swift")
        }
        let extra = good + "// Doc.md block 3\n// end of Doc.md block 3\n"
        withKnownIssue {
            try DocumentationBlocks.checkCopies(of: blocks, label: "Doc.md", in: extra, copyFileName: "Copy.swift")
        }
        let missing = good.replacingOccurrences(of: "// Doc.md block 2\n", with: "")
        withKnownIssue {
            try DocumentationBlocks.checkCopies(of: blocks, label: "Doc.md", in: missing, copyFileName: "Copy.swift")
        }
        // Only a namespace that ends in "Article" may qualify the type.
        let otherNamespace = good.replacingOccurrences(of: "DocArticle.Player", with: "Doc.Player")
        withKnownIssue {
            try DocumentationBlocks.checkCopies(of: blocks, label: "Doc.md", in: otherNamespace, copyFileName: "Copy.swift")
        }
    }

    // MARK: - Cairn.md

    @Test func cairnBlocksRun() throws {
        let directory = try TemporaryDirectory()
        #expect(try CairnArticle.block0(databasePath: directory.filePath()) == ["Arthur"])
    }

    // MARK: - GettingStarted.md

    @Test func gettingStartedBlocksRun() async throws {
        typealias Article = GettingStartedArticle
        let directory = try TemporaryDirectory()
        let path = directory.filePath("getting-started.sqlite")

        // Block 1: a file database and an in-memory one.
        let (dbQueue, memoryQueue) = try Article.block1(databasePath: path)
        #expect(dbQueue.path == path)
        #expect(FileManager.default.fileExists(atPath: path))
        try await memoryQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        #expect(FileManager.default.fileExists(atPath: memoryQueue.path) == false)
        // Foreign keys are enforced by default.
        #expect(Configuration().foreignKeysEnabled)
        #expect(try await dbQueue.read { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") } == true)

        // Block 2: the migration, applied once.
        try Article.block2(dbQueue)
        try Article.block2(dbQueue)
        let columns = try await dbQueue.read { db in try db.columns(in: "player").map(\.name) }
        #expect(columns == ["id", "name", "score"])

        // Block 3: SQL.
        let (names, rows) = try Article.block3(dbQueue)
        #expect(names == ["Barbara", "Arthur"])
        #expect(rows.map { $0["name"] as String } == ["Arthur", "Barbara"])
        #expect(rows.map { $0["score"] as Int } == [100, 250])

        // Reads are read-only.
        #expect(throws: DatabaseError.self) {
            try dbQueue.read { db in try db.execute(sql: "DELETE FROM player") }
        }

        // Block 4: async.
        #expect(try await Article.block4(dbQueue) == 2)

        // Block 5: records.
        #expect(Article.Player.databaseTableName == "player")
        let bestPlayers = try Article.block5(dbQueue)
        #expect(bestPlayers.map(\.name) == ["Cécile", "Barbara", "Arthur"])
        #expect(bestPlayers.map(\.score) == [350, 250, 100])
        #expect(bestPlayers.allSatisfy { $0.id != nil })
    }

    // MARK: - RecordsAndQueryInterface.md

    @Test func recordsAndQueryInterfaceBlocksRun() throws {
        typealias Article = RecordsAndQueryInterfaceArticle
        typealias Player = Article.Player
        let recorder = DocumentationSQLRecorder()
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: recorder.configuration())
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE player (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    score INTEGER NOT NULL,
                    teamId INTEGER REFERENCES team(id));
                CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                """)
        }

        // Table names.
        struct HTTPRequest: TableRecord { }
        #expect(Player.databaseTableName == "player")
        #expect(HTTPRequest.databaseTableName == "httpRequest")
        // Block 1.
        #expect(Article.OtherTableName.Player.databaseTableName == "players")

        // Block 2: hand-written conversions.
        try dbQueue.write { db in
            try Article.Team(id: 1, name: "Reds").insert(db)
            let team = try Article.Team.fetchOne(db, key: 1)
            #expect(team?.name == "Reds")
        }

        // Block 3: persistence.
        let (player, persistenceSQL) = try recorder.sql { try Article.block3(dbQueue) }
        #expect(player.id == 1)
        #expect(player.score == 160)
        #expect(try dbQueue.read { db in try player.exists(db) } == false)
        // Without the transaction, the schema introspection, and `exists`.
        let writes = persistenceSQL.filter { sql in
            ["INSERT", "UPDATE", "DELETE"].contains { sql.hasPrefix($0) }
        }
        #expect(writes == [
            #"INSERT INTO "player" ("id", "name", "score", "teamId") VALUES (?,?,?,?)"#,
            #"UPDATE "player" SET "name"=?, "score"=?, "teamId"=? WHERE "id"=?"#,
            #"UPDATE "player" SET "score"=? WHERE "id"=?"#,
            #"UPDATE "player" SET "name"=?, "score"=?, "teamId"=? WHERE "id"=?"#,
            #"DELETE FROM "player" WHERE "id"=?"#,
        ])
        // Updating a record without a row throws; an error rolls back the
        // whole transaction.
        #expect {
            try dbQueue.write { db in
                try Player(id: 42, name: "Nobody", score: 0, teamId: nil).update(db)
            }
        } throws: { error in
            guard case RecordError.recordNotFound(databaseTableName: "player", key: _) = error else { return false }
            return true
        }
        struct Failure: Error { }
        #expect(throws: Failure.self) {
            try dbQueue.write { db in
                var player = Player(id: nil, name: "Temporary", score: 0, teamId: nil)
                try player.insert(db)
                throw Failure()
            }
        }
        #expect(try dbQueue.read { db in try Player.fetchCount(db) } == 0)

        try dbQueue.write { db in
            try db.execute(sql: """
                INSERT INTO player VALUES (1, 'Arthur', 1500, 1), (2, 'Barbara', 800, NULL), (3, 'Craig', 2000, NULL)
                """)
        }

        // Block 4: fetch by key.
        let fetched = try Article.block4(dbQueue)
        #expect(fetched.player?.name == "Arthur")
        #expect(fetched.players.map(\.id).sorted { $0! < $1! } == [1, 2, 3])
        #expect(fetched.sure.name == "Arthur")
        #expect(throws: RecordError.self) {
            try dbQueue.read { db in try Player.find(db, key: 42) }
        }

        // Block 5: requests.
        let (requests, requestSQL) = try recorder.sql { try Article.block5(dbQueue) }
        #expect(requests.best.map(\.name) == ["Craig", "Arthur"])
        #expect(requests.arthurs.map(\.id) == [1])
        #expect(requests.freeAgents == 2)
        #expect(Set(requests.names) == ["Arthur", "Barbara", "Craig"])
        #expect(requests.maxScore == 2000)
        #expect(requestSQL.contains(#"SELECT * FROM "player" WHERE "score" > ? ORDER BY "score" DESC LIMIT 10"#))
        #expect(requestSQL.contains(#"SELECT COUNT(*) FROM "player" WHERE "teamId" IS NULL"#))

        // Block 7: SQL.
        let (likeA, sorted) = try Article.block7(dbQueue)
        #expect(likeA.map(\.name) == ["Arthur"])
        #expect(sorted.map(\.name) == ["Barbara", "Arthur", "Craig"])

        // Block 8: Table.
        let rows = try Article.block8(dbQueue)
        #expect(Set(rows.map { $0["name"] as String }) == ["Arthur", "Barbara", "Craig"])

        // Block 9: a cursor.
        try Article.block9(dbQueue)

        // Block 6: bulk updates and deletions.
        let (_, bulkSQL) = try recorder.sql { try Article.block6(dbQueue) }
        #expect(bulkSQL.contains(#"UPDATE "player" SET "score" = ?"#))
        #expect(bulkSQL.contains(#"DELETE FROM "player" WHERE "score" < ?"#))
        #expect(try dbQueue.read { db in try Player.fetchCount(db) } == 0)
    }

    // MARK: - Associations.md

    @Test func associationsBlocksRun() throws {
        typealias Article = AssociationsArticle
        typealias Author = Article.Author
        typealias Book = Article.Book
        let recorder = DocumentationSQLRecorder()
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: recorder.configuration())

        // Block 0: the schema.
        try dbQueue.write { db in
            try Article.createTables(db)
            try db.execute(sql: """
                INSERT INTO author VALUES (1, 'Victor Hugo', 'FR'), (2, 'Herman Melville', 'US'),
                    (3, 'Jules Verne', 'FR'), (4, 'Nobody Yet', NULL);
                INSERT INTO book VALUES (1, 1, 'Les Misérables', 1862), (2, 1, 'Notre-Dame de Paris', 1831),
                    (3, 2, 'Moby-Dick', 1851), (4, 3, 'Vingt mille lieues sous les mers', 1870);
                """)
        }
        #expect(try dbQueue.read { db in try db.columns(in: "book").map(\.name) } == ["id", "authorId", "title", "year"])
        #expect(try dbQueue.read { db in try db.indexes(on: "book").map(\.columns) }.contains(["authorId"]))
        #expect(try dbQueue.read { db in try db.foreignKeys(on: "book").map(\.destinationTable) } == ["author"])

        // Block 2: including.
        let ((bookInfos, authorInfos), includingSQL) = try recorder.sql { try Article.block2(dbQueue) }
        #expect(bookInfos.map(\.book.id) == [1, 2, 3, 4])
        #expect(bookInfos.map(\.author.name) == ["Victor Hugo", "Victor Hugo", "Herman Melville", "Jules Verne"])
        #expect(authorInfos.map(\.author.id) == [1, 2, 3, 4])
        #expect(authorInfos.map { $0.books.map(\.id) } == [[1, 2], [3], [4], []])
        #expect(includingSQL.contains(#"SELECT "book".*, "author".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId""#))
        #expect(includingSQL.contains(#"SELECT * FROM "author""#))
        #expect(includingSQL.contains { $0.hasPrefix("SELECT ") && $0.contains(#" FROM "book" WHERE "authorId" IN ("#) })

        // Block 3: another key.
        let writers = try dbQueue.read { db in try Article.block3().fetchAll(db) }
        #expect(writers.map(\.writer.name) == ["Victor Hugo", "Victor Hugo", "Herman Melville", "Jules Verne"])
        // A request that prefetches cannot be iterated with a cursor.
        #expect(throws: (any Error).self) {
            try dbQueue.read { db in
                _ = try Author.including(all: Author.books).asRequest(of: Article.AuthorInfo.self).fetchCursor(db)
            }
        }

        // Block 4: refined associations.
        let ((frenchBooks, newestFirst), refinedSQL) = try recorder.sql { try Article.block4(dbQueue) }
        #expect(frenchBooks.map(\.id).sorted() == [1, 2, 4])
        #expect(newestFirst.map { $0.books.map(\.id) } == [[1, 2], [3], [4], []])
        #expect(refinedSQL.contains(
            #"SELECT "book".* FROM "book" JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."country" = ?)"#))

        // Block 5: the books of one author.
        let (books, booksSQL) = try recorder.sql { try Article.block5(dbQueue) }
        #expect(books?.map(\.id) == [2, 1])
        #expect(booksSQL.contains(#"SELECT * FROM "book" WHERE "authorId" = ? ORDER BY "year""#))

        // Block 6: aggregates.
        let ((stats, prolific), statsSQL) = try recorder.sql { try Article.block6(dbQueue) }
        #expect(stats.map(\.author.id) == [1, 2, 3, 4])
        #expect(stats.map(\.bookCount) == [2, 1, 1, 0])
        #expect(stats.map(\.maxBookYear) == [1862, 1851, 1870, nil])
        #expect(prolific.map(\.name) == ["Victor Hugo"])
        #expect(statsSQL.contains(
            #"SELECT "author".*, COUNT(DISTINCT "book"."id") AS "bookCount", MAX("book"."year") AS "maxBookYear" "#
            + #"FROM "author" LEFT JOIN "book" ON "book"."authorId" = "author"."id" GROUP BY "author"."id""#))

        // Block 1: a foreign key that the schema does not declare.
        try dbQueue.write { db in
            try db.execute(sql: """
                ALTER TABLE book ADD COLUMN translatorId INTEGER;
                UPDATE book SET translatorId = 2 WHERE id = 4;
                """)
        }
        let (translated, translatorSQL) = try recorder.sql { () throws -> [Book] in
            try dbQueue.read { db in try Book.joining(required: Book.translator).fetchAll(db) }
        }
        #expect(translated.map(\.id) == [4])
        #expect(translatorSQL.contains(#"SELECT "book".* FROM "book" JOIN "author" ON "author"."id" = "book"."translatorId""#))
    }

    // MARK: - FullTextSearch.md

    @Test func fullTextSearchBlocksRun() throws {
        typealias Article = FullTextSearchArticle
        typealias Document = Article.Document
        let recorder = DocumentationSQLRecorder()
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: recorder.configuration())

        // Blocks 0, 1 and 2: tables and rows.
        try dbQueue.write { db in
            try Article.block0(db)
            try Article.block1(db)
            try Document(title: "Database design", body: "Tables and indexes", uuid: "B2").insert(db)
            try Document(title: "Notes", body: "SQLite database files", uuid: "C3").insert(db)

            try db.execute(sql: "CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT, summary TEXT)")
            try Article.block2(db)
            try db.execute(sql: "INSERT INTO book (title, summary) VALUES ('Moby-Dick', 'A whale')")
        }
        func strings(_ sql: String) throws -> [String] {
            try dbQueue.read { db in try String.fetchAll(db, sql: sql) }
        }
        // The uuid is stored, not searched.
        #expect(try strings("SELECT uuid FROM document WHERE document MATCH 'A1'").isEmpty)
        #expect(try strings("SELECT uuid FROM document WHERE document MATCH 'engine'") == ["A1"])
        // Porter stemming.
        #expect(try strings("SELECT uuid FROM document WHERE document MATCH 'engines'") == ["A1"])
        // The external content table follows its table.
        #expect(try strings("SELECT title FROM book_ft WHERE book_ft MATCH 'whale'") == ["Moby-Dick"])

        // Block 3: patterns.
        let patterns = Article.block3()
        #expect(patterns.allSatisfy { $0 != nil })
        func uuids(_ pattern: FTS5Pattern?) throws -> [String] {
            try dbQueue.read { db in
                try Document.matching(pattern).fetchAll(db).map(\.uuid).sorted()
            }
        }
        #expect(try uuids(patterns[0]) == ["A1", "C3"])        // both words, anywhere
        #expect(try uuids(patterns[1]) == ["A1", "B2", "C3"])  // one of the words
        #expect(try uuids(patterns[2]) == ["C3"])              // the words, in this order
        #expect(try uuids(patterns[3]) == ["A1", "C3"])        // prefixes
        #expect(try uuids(patterns[4]) == ["C3"])              // a column that starts with the phrase
        #expect(try uuids(FTS5Pattern(matchingAllPrefixesIn: "SQL datab")) == ["A1", "C3"])
        // Nil when there is no word; the query syntax loses its meaning.
        #expect(FTS5Pattern(matchingAllTokensIn: " !? ") == nil)
        #expect(try uuids(FTS5Pattern(matchingAnyTokenIn: #"NEAR "AND* -x database"#)) == ["A1", "B2", "C3"])

        // Block 4: matching.
        let (documents, matchingSQL) = try recorder.sql {
            try dbQueue.read { db in try Article.block4(db, userInput: "database sqlite") }
        }
        #expect(documents.map(\.uuid).sorted() == ["A1", "C3"])
        #expect(matchingSQL.contains { $0.contains(#"WHERE "document" MATCH ?"#) })
        #expect(try dbQueue.read { db in try Article.block4(db, userInput: "!!") }.isEmpty)

        // Block 5: raw SQL.
        #expect(try dbQueue.read { db in try Article.block5(db, userInput: "design engine") }.map(Set.init) == ["SQLite", "Database design"])
        #expect(try dbQueue.read { db in try Article.block5(db, userInput: "--") } == nil)

        // Block 6: raw patterns.
        let (pattern, titled) = try dbQueue.read { db in try Article.block6(db) }
        #expect(pattern.rawPattern == "sqlite NOT mysql")
        #expect(try uuids(titled) == ["A1"])
        #expect(throws: DatabaseError.self) { try FTS5Pattern(rawPattern: "AND") }
        #expect(throws: DatabaseError.self) {
            try dbQueue.read { db in try db.makeFTS5Pattern(rawPattern: "missing: sqlite", forTable: "document") }
        }

        // Block 7: a built-in tokenizer.
        let tokens = try dbQueue.read { db in try Article.block7(db) }
        #expect(tokens.map(\.token) == ["run", "databas"])
        #expect(tokens.allSatisfy { $0.flags == [] })

        // Block 8: Swift tokenizers in every connection of a pool.
        let dbPool = try Article.block8(databasePath: directory.filePath("pool.sqlite"))
        try dbPool.write { db in
            try db.execute(sql: "INSERT INTO article (content) VALUES (?)", arguments: ["L'été est là"])
        }
        let articleTokens = try dbPool.read { db in
            try db.makeTokenizer(FTS5StopWordTokenizer.tokenizerDescriptor(
                stopWords: ["l", "le", "la", "les"],
                wrapping: FTS5LatinASCIITokenizer.tokenizerDescriptor()))
            .tokenize(document: "L'été").map(\.token)
        }
        #expect(articleTokens == ["ete"])
        let folded = try dbPool.read { db in
            try db.makeTokenizer(FTS5LatinASCIITokenizer.tokenizerDescriptor())
                .tokenize(document: "Großmann Encyclopædia").map(\.token)
        }
        #expect(folded == ["grossmann", "encyclopaedia"])
        for query in ["ete", "été", "ÉTÉ", "est"] {
            let count = try dbPool.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM article WHERE article MATCH ?", arguments: [query])
            }
            #expect(count == 1, "\(query)")
        }

        // Block 12: a wrapper tokenizer.
        try dbQueue.write { db in
            try Article.block12(db)
            try db.execute(sql: "INSERT INTO note (text) VALUES ('Meet 2024 friends, 42 of them')")
        }
        let noteTokens = try dbQueue.read { db in
            try db.makeTokenizer(Article.NoNumberTokenizer.tokenizerDescriptor())
                .tokenize(document: "Meet 2024 friends, 42 of them").map(\.token)
        }
        #expect(noteTokens == ["meet", "friends", "of", "them"])
        #expect(try strings("SELECT text FROM note WHERE note MATCH 'friends'").count == 1)
        #expect(try strings("SELECT text FROM note WHERE note MATCH '2024 friends'").count == 1)

        // Blocks 9, 10 and 11: words of every language, highlight, locale.
        let (postQueue, posts) = try Article.block9(databasePath: directory.filePath("posts.sqlite"))
        #expect(posts == ["研究生命科学很有意思"])
        #expect(try Article.block10(postQueue) == "[東京]都に住んでいます")
        try Article.block11(postQueue)
        try postQueue.read { db throws in
            #expect(try String.fetchAll(db, sql: "SELECT fts5_get_locale(message, 0) FROM message") == ["th"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message WHERE message MATCH 'ไทย'") == 1)
            for query in ["生命科学", "ERP审批", "ERP", "审批", "東京", "ます"] {
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM post WHERE post MATCH ?", arguments: [query]) == 1, "\(query)")
            }
            let pattern = FTS5Pattern(matchingAllTokensIn: "有意思 研究")
            #expect(try String.fetchAll(db, sql: "SELECT body FROM post WHERE post MATCH ?", arguments: [pattern]) == ["研究生命科学很有意思"])
        }
        // The stop-word example of the text.
        try postQueue.read { db throws in
            let stopWords = FTS5StopWordTokenizer.tokenizerDescriptor(stopWords: ["的", "了"], wrapping: FTS5WordTokenizer.tokenizerDescriptor())
            db.add(tokenizer: FTS5StopWordTokenizer.self)
            #expect(try db.makeTokenizer(stopWords).tokens(in: "我们的数据库坏了").map(\.token) == ["我们", "数据", "库", "坏"])
        }

        // Block 13: the byte-level path.
        try dbQueue.write { db in
            db.add(tokenizer: Article.ShortTokenTokenizer.self)
            let tokenizer = try db.makeTokenizer(Article.ShortTokenTokenizer.tokenizerDescriptor())
            let long = String(repeating: "x", count: 21)
            #expect(try tokenizer.tokens(in: "keep \(long) this").map(\.token) == ["keep", "this"])
            try db.create(virtualTable: "short", using: FTS5()) { t in
                t.tokenizer = Article.ShortTokenTokenizer.tokenizerDescriptor()
                t.column("text")
            }
            try db.execute(sql: "INSERT INTO short VALUES (?)", arguments: ["keep \(long) this"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM short WHERE short MATCH ?", arguments: [long]) == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM short WHERE short MATCH 'keep'") == 1)
        }

        // Block 14: tokens with their offsets.
        let (japaneseTokens, queryTokens) = try postQueue.read { db in try Article.block14(db) }
        #expect(japaneseTokens.map(\.token) == ["東京", "都", "に", "住", "んで", "い", "ます"])
        #expect(japaneseTokens.prefix(3).map(\.utf8Range) == [0..<6, 6..<9, 9..<12])
        #expect(queryTokens.map(\.token) == ["生命", "科学"])

        // Block 15: an auxiliary function.
        let densities = try Article.block15(databasePath: directory.filePath())
        // Four tokens each, one of which matches.
        #expect(Set(densities.map { $0["title"] as String }) == ["SQLite", "Notes"])
        #expect(densities.map { $0["density"] as Double } == [0.25, 0.25])

        // Block 16: suggestions, key tokens, similar rows (porter stems).
        let (corrections, keyTokens, similar) = try Article.block16(dbQueue)
        #expect(corrections.first?.token == "databas")
        // "a" and "engin" are in row 1 only; "sqlite" and "databas" in two rows.
        #expect(Set(keyTokens.prefix(2).map(\.token)) == ["a", "engin"])
        #expect(Set(keyTokens.suffix(2).map(\.token)) == ["sqlite", "databas"])
        #expect(similar == [3, 2])
        #expect(try dbQueue.read { db in try FTS5Table("document").suggestedQuery(db, for: "sqllite databse") } == "sqlite databas")
    }

    // MARK: - DifferencesFromGRDB.md

    @Test func differencesBlocksRun() throws {
        let dbQueue = try DatabaseQueue()
        let (count, word) = try dbQueue.read { db in try DifferencesArticle.block0(db) }
        #expect(count == 42)
        #expect(word == nil)
        // Copied rows and DatabaseValue stay strict, as the article says.
        try dbQueue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT '42' AS n"))
            #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "n") }
            #expect(Int.fromDatabaseValue("42".databaseValue) == nil)
        }
        // The strict conversion that the article describes.
        #expect(throws: (any Error).self) {
            try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT 'foo'") }
        }
    }

    // MARK: - Observation.md

    @Test func observationBlocksRun() async throws {
        typealias Article = ObservationArticle
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        try await dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT NOT NULL)")
        }
        struct Failure: Error { }

        // Blocks 0 to 3: transaction observers, run synchronously.
        try ArticleTests.runObservers(dbQueue)

        // Block 4: a region observation.
        let regionCancellable = Article.block4(dbQueue)
        try await dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = score + 1") }
        regionCancellable.cancel()

        // Block 5: a value observation, with callbacks and in async code.
        let cancellable = Article.block5(dbQueue)
        cancellable.cancel()
        let observing = Task { try await Article.block5Async(dbQueue) }
        try await Task.sleep(nanoseconds: 50_000_000)
        observing.cancel()
        _ = await observing.result

        // Block 6: a main-actor model, set before start returns.
        let playerList = await Article.PlayerList()
        await playerList.observe(dbQueue)
        let playerCount = try await dbQueue.read { db in try Article.Player.fetchCount(db) }
        #expect(await playerList.players.count == playerCount)
    }

    /// Observation.md blocks 0 to 3.
    static func runObservers(_ dbQueue: DatabaseQueue) throws {
        typealias Article = ObservationArticle
        struct Failure: Error { }

        // Block 0: the changed players of each transaction, when the
        // score changes.
        let scoreObserver = Article.block0(dbQueue)
        // Block 1: copied events.
        let eventKeeper = Article.EventKeeper()
        dbQueue.add(transactionObserver: eventKeeper)
        // Block 2: pre-update events.
        let scoreChangeObserver = Article.ScoreChangeObserver()
        dbQueue.add(transactionObserver: scoreChangeObserver)

        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur', 100), (2, 'Barbara', 200)")
        }
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET name = 'Arthur II' WHERE id = 1") }
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 150 WHERE id = 1") }
        #expect(throws: Failure.self) {
            try dbQueue.write { db in
                try db.execute(sql: "UPDATE player SET score = 0 WHERE id = 2")
                throw Failure()
            }
        }
        try dbQueue.write { db in try db.execute(sql: "DELETE FROM player WHERE id = 2") }
        #expect(scoreObserver.committedIDs.filter { !$0.isEmpty } == [[1, 2], [1], [2]])

        let events = eventKeeper.events
        #expect(events.map(\.kind) == [.insert, .insert, .update, .update, .update, .delete])
        #expect(events.map(\.rowID) == [1, 2, 1, 1, 2, 2])
        #expect(events.allSatisfy { $0.tableName == "player" })

        let changes = scoreChangeObserver.scoreChanges
        // The update of the name, then of the score, then the update that
        // was rolled back.
        #expect(changes.map(\.old) == [100.databaseValue, 100.databaseValue, 200.databaseValue])
        #expect(changes.map(\.new) == [100.databaseValue, 150.databaseValue, 0.databaseValue])

        // Block 3: a commit that the observer prevents.
        let validator = Article.ScoreValidator()
        dbQueue.add(transactionObserver: validator)
        #expect(throws: Article.NegativeScoreError.self) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO player VALUES (3, 'Craig', 10)")
                try db.execute(sql: "UPDATE player SET score = -1 WHERE id = 3")
            }
        }
        #expect(try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT id FROM player") } == [1])
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player VALUES (3, 'Craig', 10)") }
        #expect(try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT id FROM player") } == [1, 3])
        // The connection does not retain its observers by default.
        weak var weakObserver: Article.ScoreObserver?
        do {
            let observer = Article.ScoreObserver()
            dbQueue.add(transactionObserver: observer)
            weakObserver = observer
        }
        #expect(weakObserver == nil)

        dbQueue.remove(transactionObserver: validator)
        dbQueue.remove(transactionObserver: scoreObserver)
        dbQueue.remove(transactionObserver: eventKeeper)
        dbQueue.remove(transactionObserver: scoreChangeObserver)
    }

    // MARK: - ConcurrencyAndPools.md

    @Test func concurrencyAndPoolsBlocksRun() async throws {
        typealias Article = ConcurrencyAndPoolsArticle
        typealias Player = Article.Player
        let directory = try TemporaryDirectory()
        let createPlayers = """
            CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT NOT NULL);
            INSERT INTO player VALUES (1, 'Arthur', 10), (2, 'Barbara', 30), (3, 'Craig', 20);
            """

        // Block 0: a queue.
        let queuePath = directory.filePath("queue.sqlite")
        try await DatabaseQueue(path: queuePath).write { db in try db.execute(sql: createPlayers) }
        let (dbQueue, count) = try Article.block0(databasePath: queuePath)
        #expect(count == 3)
        #expect(try await dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") } == [11, 31, 21])

        // Block 1: a pool.
        #expect(Configuration().maximumReaderCount == 5)
        let dbPool = try Article.block1(databasePath: directory.filePath("pool.sqlite"))
        #expect(dbPool.configuration.maximumReaderCount == 8)
        #expect(try await dbPool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        try await dbPool.write { db in try db.execute(sql: createPlayers) }

        // Block 2: any reader.
        #expect(try Article.block2(dbQueue) == 3)
        #expect(try Article.block2(dbPool) == 3)
        #expect(try Article.block2(dbPool.makeSnapshot()) == 3)
        #expect(try Article.block2(dbPool.makeSnapshotPool()) == 3)

        // Block 3: the db of the current access.
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE log (id INTEGER PRIMARY KEY, message TEXT NOT NULL)") }
        try Article.block3(dbQueue)
        #expect(try await dbQueue.read { db in try String.fetchAll(db, sql: "SELECT message FROM log") } == ["3 players"])

        // A closure must not leave a transaction open.
        #expect(throws: DatabaseError.self) {
            try dbQueue.writeWithoutTransaction { db in try db.execute(sql: "BEGIN") }
        }
        #expect(try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM log") } == 1)

        // Block 4: a snapshot.
        #expect(try Article.block4(dbPool) == 3)
        #expect(try await dbPool.read { db in try Player.fetchCount(db) } == 0)
        try await dbPool.write { db in
            try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur', 10), (2, 'Barbara', 30), (3, 'Craig', 20)")
        }

        // Block 5: a snapshot pool.
        let (snapshotPool, players) = try Article.block5(dbPool)
        #expect(players.map(\.name) == ["Arthur", "Barbara", "Craig"])
        try await dbPool.write { db in try db.execute(sql: "DELETE FROM player WHERE id = 1") }
        #expect(try await snapshotPool.read { db in try Player.fetchCount(db) } == 3)

        // Block 6: a snapshot pool on the state that a write committed.
        let updatedPool = try Article.block6(dbPool)
        try await dbPool.write { db in try db.execute(sql: "UPDATE player SET score = 5") }
        #expect(try await updatedPool.read { db in try Int.fetchAll(db, sql: "SELECT score FROM player") } == [0, 0])
        #expect(try await dbPool.read { db in try Int.fetchAll(db, sql: "SELECT score FROM player") } == [5, 5])

        // Block 7: async accesses.
        try await dbPool.write { db in try db.execute(sql: "INSERT INTO player VALUES (4, 'Dan', -1), (5, 'Eve', 40)") }
        #expect(try await Article.block7(dbPool).map(\.name) == ["Eve", "Barbara", "Craig"])
        try await dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = -1 WHERE id = 1") }
        #expect(try await Article.block7(dbQueue).map(\.name) == ["Barbara", "Craig"])

        // Block 8: a function in every connection.
        let functionPool = try Article.block8(databasePath: directory.filePath("functions.sqlite"))
        #expect(try await functionPool.write { db in try Int.fetchOne(db, sql: "SELECT double(21)") } == 42)
        #expect(try await functionPool.read { db in try Int.fetchOne(db, sql: "SELECT double(21)") } == 42)
    }

    // MARK: - Encryption.md

    #if SQLITE_HAS_CODEC
    @Test func encryptionBlocksRun() async throws {
        typealias Article = EncryptionArticle
        let directory = try TemporaryDirectory()
        let path = directory.filePath("encrypted.sqlite")

        // Block 1: a pool of an encrypted database; its readers use the
        // passphrase too.
        let dbPool = try Article.block1(path: path, passphrase: "secret")
        try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        #expect(try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
        try dbPool.close()
        #expect { try DatabaseQueue(path: path) } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_NOTADB
        }

        // Block 2: another cipher; the file opens with it only.
        let sqlcipher3Path = directory.filePath("sqlcipher3.sqlite")
        let sqlcipher3 = try DatabaseQueue(path: sqlcipher3Path, configuration: Article.block2(passphrase: "secret"))
        #expect(try await sqlcipher3.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == 1024)

        // Block 3: a new passphrase, outside WAL mode.
        var config = Configuration()
        config.prepareDatabase { db in try db.usePassphrase("secret") }
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        try await dbQueue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
        try Article.block3(dbQueue, newPassphrase: "new secret")
        try dbQueue.close()
        var newConfig = Configuration()
        newConfig.prepareDatabase { db in try db.usePassphrase("new secret") }
        let reopened = try DatabaseQueue(path: path, configuration: newConfig)
        #expect(try await reopened.read { db in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
        try reopened.close()

        // Block 4: a new passphrase for a pool, in WAL mode.
        let pool = try DatabasePool(path: path, configuration: newConfig)
        try Article.block4(pool, newPassphrase: "third secret")
        #expect(try await pool.write { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        try pool.close()
        var thirdConfig = Configuration()
        thirdConfig.prepareDatabase { db in try db.usePassphrase("third secret") }
        #expect(try await DatabaseQueue(path: path, configuration: thirdConfig).read { db in
            try Int.fetchOne(db, sql: "SELECT a FROM t")
        } == 1)
    }
    #endif

    // MARK: - CustomSQLiteBuilds.md

    @Test func customSQLiteBuildsBlocksRun() async throws {
        typealias Article = CustomSQLiteBuildsArticle
        let directory = try TemporaryDirectory()

        // Block 0: the version and the options.
        let (version, hasFTS5) = Article.block0()
        #expect(version == "3.50.4")
        #expect(hasFTS5)

        let dbQueue = try DatabaseQueue(path: directory.filePath())
        try await dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT);
                CREATE INDEX player_score ON player(score);
                INSERT INTO player VALUES (1, 'Arthur', 0), (2, 'Barbara', 100);
                """)
        }

        #if SQLITE_ENABLE_SESSION
        // Block 1: changesets.
        let replicaQueue = try DatabaseQueue(path: directory.filePath("replica.sqlite"))
        try await replicaQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT)")
            try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur', 5)")
        }
        try Article.block1(dbQueue, replicaQueue: replicaQueue)
        // Player 1 conflicts (.data): replaced. Player 2 is missing
        // (.notFound): omitted.
        #expect(try await replicaQueue.read { db in
            try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id")
        } == [10])
        #endif

        // Block 3: the optional features, used from SQL.
        #if SQLITE_ENABLE_DBSTAT_VTAB
        let sizes = try Article.block3DBStat(dbQueue)
        #expect(Set(sizes.map { $0["name"] as String }).isSuperset(of: ["player", "player_score"]))
        #else
        #expect {
            try Article.block3DBStat(dbQueue)
        } throws: { error in
            (error as? DatabaseError)?.message == "no such table: dbstat"
        }
        #endif
        try Article.block3Analyze(dbQueue)
        let stat4 = try await dbQueue.read { db in try db.tableExists("sqlite_stat4") }
        #if SQLITE_ENABLE_STAT4
        #expect(stat4)
        #else
        #expect(!stat4)
        #endif

        // Block 4: the option at run time.
        #if SQLITE_ENABLE_DBSTAT_VTAB
        #expect(Article.block4())
        #else
        #expect(!Article.block4())
        #endif
    }

    // MARK: - Safety.md

    @Test func safetyBlocksRun() async throws {
        typealias Article = SafetyArticle
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        try await dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT);
                INSERT INTO player VALUES (1, 'Arthur', 100), (2, 'Barbara', 200);
                """)
        }

        // Block 0: copies of cursor rows, read after the access.
        let kept = try Article.block0(dbQueue)
        #expect(kept.map { $0["name"] as String } == ["Arthur", "Barbara"])

        // Block 1: copied rows, sent across tasks.
        let rows = try await Article.block1(dbQueue)
        #expect(rows.map { $0["id"] as Int64 } == [1, 2])

        // Block 2: arguments that do not fit.
        #expect(try Article.block2(dbQueue) == "misuse")
        #expect(try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 2)

        // Block 3: throwing decoding.
        var decodedName: String?? = "not decoded"
        #expect(throws: RowDecodingError.self) {
            try Article.block3(dbQueue, decodedName: &decodedName)
        }
        #expect(decodedName == .some(nil))

        // Block 4: an error thrown by an SQL function.
        let error = try #require(try Article.block4(dbQueue))
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.message == "\(Article.MissingName())")
    }

    // MARK: - BlobStreams.md

    @Test func blobStreamsBlocksRun() throws {
        typealias Article = BlobStreamsArticle
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE document (id INTEGER PRIMARY KEY, name TEXT NOT NULL, content BLOB NOT NULL)
                """)
        }
        func content(_ documentID: Int64) throws -> Data? {
            try dbQueue.read { db in
                try Data.fetchOne(db, sql: "SELECT content FROM document WHERE id = ?", arguments: [documentID])
            }
        }

        // A file of 2.5 MB, in pieces of 1 MB.
        let fileSize = 5 << 19
        let file = Data((0..<fileSize).map { index in UInt8(truncatingIfNeeded: index &* 31 &+ index >> 10) })
        let pieces = stride(from: 0, to: fileSize, by: 1 << 20).map { offset in
            Data(file[offset..<min(offset + (1 << 20), fileSize)])
        }
        #expect(pieces.map(\.count) == [1 << 20, 1 << 20, 1 << 19])

        // Block 0: a zeroblob, then the pieces.
        let documentID = try Article.block0(dbQueue, name: "manual.pdf", fileSize: fileSize, pieces: pieces)
        #expect(try content(documentID) == file)

        // A piece past the end throws SQLITE_ERROR and writes nothing: the
        // blob cannot grow.
        let pastTheEnd = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                let blob = try db.openBlob(table: "document", column: "content", rowID: documentID, readOnly: false)
                try blob.write(Data(repeating: 1, count: 10), at: fileSize - 5)
            }
        }
        #expect(pastTheEnd?.resultCode == .SQLITE_ERROR)
        #expect(try content(documentID) == file)

        // Block 1: chunks of 1 MB at most.
        let output = Article.Output()
        try Article.block1(dbQueue, documentID: documentID, output: output)
        #expect(output.chunks.map(\.count) == [1 << 20, 1 << 20, 1 << 19])
        #expect(Data(output.chunks.joined()) == file)

        // Block 2: one buffer, reused.
        #expect(try Article.block2(dbQueue, documentID: documentID) == Article.checksum(of: file))

        // Block 3: the row changes, the blob is reopened.
        try Article.block3(dbQueue, documentID: documentID)
        let stored = try #require(try content(documentID))
        #expect(stored.prefix(8) == Data("%PDF-1.7".utf8))
        #expect(stored.dropFirst(8) == file.dropFirst(8))
        #expect(try dbQueue.read { db in
            try String.fetchOne(db, sql: "SELECT name FROM document WHERE id = ?", arguments: [documentID])
        } == "report.pdf")
        // Without reopen(rowID:), the blob throws SQLITE_ABORT.
        let expired = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                let blob = try db.openBlob(table: "document", column: "content", rowID: documentID, readOnly: false)
                try db.execute(sql: "UPDATE document SET name = 'renamed.pdf' WHERE id = ?", arguments: [documentID])
                try blob.write(Data("x".utf8), at: 0)
            }
        }
        #expect(expired?.resultCode == .SQLITE_ABORT)

        // Errors: a missing row, read-only blobs and accesses, a blob kept
        // after its access.
        let missing = #expect(throws: DatabaseError.self) {
            try dbQueue.read { db in
                _ = try db.openBlob(table: "document", column: "content", rowID: 42)
            }
        }
        #expect(missing?.resultCode == .SQLITE_ERROR)
        let readOnlyBlob = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                let blob = try db.openBlob(table: "document", column: "content", rowID: documentID)
                try blob.write(Data([0]), at: 0)
            }
        }
        #expect(readOnlyBlob?.resultCode == .SQLITE_READONLY)
        let readAccess = #expect(throws: DatabaseError.self) {
            try dbQueue.read { db in
                _ = try db.openBlob(table: "document", column: "content", rowID: documentID, readOnly: false)
            }
        }
        #expect(readAccess?.resultCode == .SQLITE_READONLY)
        let kept = try dbQueue.read { db in
            try db.openBlob(table: "document", column: "content", rowID: documentID)
        }
        let misuse = #expect(throws: DatabaseError.self) { try kept.read(count: 4, at: 0) }
        #expect(misuse?.resultCode == .SQLITE_MISUSE)
        #expect(try content(documentID)?.prefix(8) == Data("%PDF-1.7".utf8))

        // Observers of the row hear of blob writes.
        let changes = Locked(0)
        let cancellable = DatabaseRegionObservation(tracking: Table("document"))
            .start(in: dbQueue, onError: { _ in }, onChange: { _ in changes.withLock { $0 += 1 } })
        try dbQueue.write { db in
            let blob = try db.openBlob(table: "document", column: "content", rowID: documentID, readOnly: false)
            try blob.write(Data("%PDF-2.0".utf8), at: 0)
        }
        #expect(changes.withLock { $0 } == 1)
        cancellable.cancel()

        #if SQLITE_ENABLE_SESSION
        // The session extension records blob writes: SQLite calls its
        // pre-update hook for them.
        let changeset = try dbQueue.write { db in
            let session = try DatabaseSession(db)
            try session.attach("document")
            let blob = try db.openBlob(table: "document", column: "content", rowID: documentID, readOnly: false)
            try blob.write(Data("%PDF-1.4".utf8), at: 0)
            return try session.changeset()
        }
        let operations = try changeset.operations()
        #expect(operations.map(\.kind) == [.update])
        #expect(operations.map(\.tableName) == ["document"])
        #endif
    }

    // MARK: - SerializedDatabases.md

    @Test func serializedDatabasesBlocksRun() throws {
        typealias Article = SerializedDatabasesArticle
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.filePath("pool.sqlite"))
        try dbPool.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT);
                INSERT INTO player (name, score) VALUES ('Arthur', 100), ('Barbara', 200), ('Craig', 150);
                """)
        }
        func playerCount(_ reader: some DatabaseReader) throws -> Int? {
            try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
        }

        // Block 0: the bytes of a pool, in WAL mode, opened in a queue.
        let (bytes, dbQueue, count) = try Article.block0(dbPool)
        #expect(count == 3)
        #expect(bytes[18] == 2 && bytes[19] == 2) // WAL mode, as the header says
        #expect(try dbQueue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "memory")
        // The queue changes its copy only.
        try dbQueue.write { db in try db.execute(sql: "DELETE FROM player WHERE name = 'Barbara'") }
        #expect(try playerCount(dbQueue) == 2)
        #expect(try playerCount(dbPool) == 3)
        // No page, no bytes; no bytes, an empty database.
        #expect(try DatabaseQueue().read { db in try db.serialize() }.isEmpty)
        #expect(try DatabaseQueue(deserializing: Data()).read { db in try db.tableExists("player") } == false)

        // Block 1: an attached archive, read-only.
        #expect(try Article.block1(dbQueue, archiveBytes: bytes) == ["Barbara"])
        let readOnly = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in try db.execute(sql: "DELETE FROM archive.player") }
        }
        #expect(readOnly?.resultCode == .SQLITE_READONLY)
        // The read-only schema takes the write lock of `write` too, until it
        // is detached.
        #expect(throws: DatabaseError.self) { try dbQueue.write { _ in } }
        try dbQueue.writeWithoutTransaction { db in try db.execute(sql: "DETACH DATABASE archive") }
        try dbQueue.write { _ in }

        // Misuses: inside a transaction, in a read access, into temp.
        let insideTransaction = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in try db.deserialize(bytes) }
        }
        #expect(insideTransaction?.resultCode == .SQLITE_MISUSE)
        let inRead = #expect(throws: DatabaseError.self) {
            try dbQueue.read { db in try db.deserialize(bytes) }
        }
        #expect(inRead?.resultCode == .SQLITE_READONLY)
        let temp = #expect(throws: DatabaseError.self) {
            try dbQueue.writeWithoutTransaction { db in try db.deserialize(bytes, schema: "temp") }
        }
        #expect(temp?.resultCode == .SQLITE_ERROR)
        #expect(try playerCount(dbQueue) == 2)

        // Block 2: bytes that are not a database leave the queue as it was;
        // a database replaces its content.
        #expect(try Article.block2(dbQueue, receivedBytes: Data("hello, world".utf8)))
        #expect(try playerCount(dbQueue) == 2)
        #expect(try Article.block2(dbQueue, receivedBytes: bytes) == false)
        #expect(try playerCount(dbQueue) == 3)

        // Block 3: bytes written into a file.
        let path = directory.filePath("restored.sqlite")
        let fileQueue = try Article.block3(bytes: bytes, databasePath: path)
        #expect(try playerCount(fileQueue) == 3)
        try fileQueue.close()
        let reopened = try DatabaseQueue(path: path)
        #expect(try reopened.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id")
        } == ["Arthur", "Barbara", "Craig"])

        // Deserialized into the main schema of a file queue: changes stay in
        // memory, and never reach the file.
        let fileBytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try reopened.writeWithoutTransaction { db in
            try db.deserialize(bytes)
            try db.execute(sql: "DELETE FROM player")
        }
        #expect(try playerCount(reopened) == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == fileBytes)
        #expect(try playerCount(DatabaseQueue(path: path)) == 3)
    }

    // MARK: - LongQueries.md

    @Test func longQueriesBlocksRun() throws {
        typealias Article = LongQueriesArticle
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        let messageCount = 20_000
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE message (id INTEGER PRIMARY KEY, body TEXT NOT NULL, exported BOOLEAN NOT NULL DEFAULT 0);
                CREATE TABLE exportLog (date TEXT NOT NULL);
                """)
            try db.execute(sql: """
                INSERT INTO message (body)
                SELECT 'message ' || x FROM (
                    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) SELECT x FROM c)
                """, arguments: [messageCount])
        }
        let matchCount = (1...messageCount).filter { String($0).contains("99") }.count
        // Queries that would run for hours: they count to ten billion.
        let endlessRows = """
            WITH RECURSIVE counter(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM counter WHERE x < 10000000000)
            SELECT x FROM counter
            """
        let endlessSQL = "SELECT COUNT(*) FROM (\(endlessRows))"

        // Block 0: a quick query runs; an endless one stops after a second.
        #expect(try Article.block0(dbQueue, userSQL: "SELECT * FROM message WHERE body LIKE '%99%'") == matchCount)
        let start = Date()
        #expect(try Article.block0(dbQueue, userSQL: endlessSQL) == nil)
        let elapsed = Date().timeIntervalSince(start)
        #expect(elapsed >= 1)
        #expect(elapsed < 20, "stopped after \(elapsed) s")

        try dbQueue.inDatabase { (db: Database) throws in
            // The message names the limit.
            let error = #expect(throws: DatabaseError.self) {
                try db.withTimeLimit(0.1) { try Int.fetchOne(db, sql: endlessSQL) }
            }
            #expect(error?.resultCode == .SQLITE_INTERRUPT)
            #expect(error?.message?.contains("time limit of 0.1 seconds") == true)
            // Swift code is not stopped; the next statement throws before it
            // runs. Afterwards, no limit.
            let late = #expect(throws: DatabaseError.self) {
                try db.withTimeLimit(0.01) {
                    Thread.sleep(forTimeInterval: 0.05)
                    try db.execute(sql: "SELECT 1")
                }
            }
            #expect(late?.resultCode == .SQLITE_INTERRUPT)
            #expect(try Int.fetchOne(db, sql: "SELECT 1") == 1)
            // Limits nest: the earliest one applies.
            let nested = #expect(throws: DatabaseError.self) {
                try db.withTimeLimit(0.1) {
                    try db.withTimeLimit(600) { try Int.fetchOne(db, sql: endlessSQL) }
                }
            }
            #expect(nested?.message?.contains("0.1 seconds") == true)
            // Not a finite number of seconds, zero or more: misuse.
            let invalid = #expect(throws: DatabaseError.self) { try db.withTimeLimit(-1) { } }
            #expect(invalid?.resultCode == .SQLITE_MISUSE)
        }

        // Block 1: a stopped SELECT leaves the transaction usable: both
        // writes commit.
        #expect(try Article.block1(dbQueue, statisticsSQL: endlessSQL).isEmpty)
        #expect(try dbQueue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message WHERE exported = 0")
        } == 0)
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM exportLog") } == 1)
        let statistics = try Article.block1(dbQueue, statisticsSQL: "SELECT COUNT(*) AS count FROM message")
        #expect(statistics.map { $0["count"] as Int } == [messageCount])
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM exportLog") } == 2)

        // A write stopped inside a transaction: the error ends the block,
        // whose transaction rolls back.
        let stoppedWrite = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try db.execute(sql: "DELETE FROM exportLog")
                try db.withTimeLimit(0.1) {
                    try db.execute(sql: "INSERT INTO exportLog (date) SELECT x FROM (\(endlessRows))")
                }
            }
        }
        #expect(stoppedWrite?.isInterruptionError == true)
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM exportLog") } == 2)

        // Block 2: the handler stops the search with its own error.
        let found = try Article.block2(dbQueue, pattern: "%99%", searchIsCancelled: { false })
        #expect(found.count == matchCount)
        let calls = Locked(0)
        #expect(throws: Article.SearchCancelled.self) {
            try Article.block2(dbQueue, pattern: "%99%", searchIsCancelled: {
                calls.withLock { $0 += 1 }
                return true
            })
        }
        #expect(calls.withLock { $0 } == 1)
        // The `defer` removed the handler: it is not called any longer.
        #expect(try dbQueue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM message WHERE body LIKE ?", arguments: ["%99%"])
        }.count == matchCount)
        #expect(calls.withLock { $0 } == 1)
    }

    // MARK: - TableFunctions.md

    @Test func tableFunctionsBlocksRun() throws {
        typealias Article = TableFunctionsArticle
        typealias Player = Article.Player
        let recorder = DocumentationSQLRecorder()
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: recorder.configuration())

        // Block 0: split_words, registered on the queue.
        let (splitWords, words) = try Article.block0(dbQueue)
        #expect(words == ["quick", "brown", "fox"])
        #expect(splitWords.name == "split_words")
        #expect(splitWords.columns == ["word", "position"])
        #expect(splitWords.parameters == ["text"])

        // The SQL of "Arguments are hidden columns".
        try dbQueue.read { (db: Database) throws in
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM split_words('a b')")
            #expect(rows == [["word": "a", "position": 1], ["word": "b", "position": 2]])
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM split_words WHERE text = 'a b'") == rows)
            #expect(try Row.fetchAll(db, sql: "SELECT word, text FROM split_words('a b')")
                == [["word": "a", "text": "a b"], ["word": "b", "text": "a b"]])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM split_words") == 0)
        }

        // Invalid functions throw SQLITE_MISUSE: no column, 32 parameters,
        // two names that differ by their case only.
        try dbQueue.inDatabase { (db: Database) throws in
            let noColumn = DatabaseTableFunction("nothing", columns: []) { _ in AnyCursor([]) }
            let parameters = (0..<32).map { "p\($0)" }
            let tooMany = DatabaseTableFunction("many", columns: ["value"], parameters: parameters) { _ in AnyCursor([]) }
            let twice = DatabaseTableFunction("twice", columns: ["a"], parameters: ["A"]) { _ in AnyCursor([]) }
            for function in [noColumn, tooMany, twice] {
                let error = #expect(throws: DatabaseError.self) { try db.add(tableFunction: function) }
                #expect(error?.resultCode == .SQLITE_MISUSE)
            }
            // Removed: statements prepared afterwards cannot use it.
            let removable = DatabaseTableFunction("removable", columns: ["value"]) { _ in AnyCursor([[1]]) }
            try db.add(tableFunction: removable)
            db.remove(tableFunction: removable)
            #expect(throws: DatabaseError.self) { try Row.fetchAll(db, sql: "SELECT * FROM removable") }
        }

        // Block 1: a million rows, and LIMIT 3.
        let (numbers, sum, firstValues) = try Article.block1(dbQueue)
        #expect(numbers.name == "numbers")
        #expect(sum == 499_999_500_000)
        #expect(firstValues == [0, 1, 2])
        // LIMIT stops the function after three rows; a cursor makes it
        // produce each row when it reaches it.
        let produced = Locked(0)
        let counting = DatabaseTableFunction("counting", columns: ["value"]) { _ in
            return AnyCursor((0..<1_000_000).lazy.map { value in
                produced.withLock { $0 += 1 }
                return [value]
            })
        }
        try dbQueue.inDatabase { (db: Database) throws in
            try db.add(tableFunction: counting)
            #expect(try Int.fetchAll(db, sql: "SELECT value FROM counting LIMIT 3") == [0, 1, 2])
            #expect(produced.withLock { $0 } == 3)
            produced.withLock { $0 = 0 }
            let cursor = try Int.fetchCursor(db, sql: "SELECT value FROM counting")
            #expect(try cursor.next() == 0)
            #expect(try cursor.next() == 1)
            #expect(produced.withLock { $0 } == 2)
        }

        // Block 2: an endless function, that LIMIT ends.
        #expect(try Article.block2(dbQueue) == [0, 1, 1, 2, 3, 5, 8, 13, 21, 34])
        #expect(try dbQueue.read { db in
            try Int.fetchOne(db, sql: "SELECT value FROM fibonacci WHERE value > 100 LIMIT 1")
        } == 144)

        // Block 3: the error of the closure fails a query; the transaction
        // goes on, and both rows commit. A statement that writes rolls its
        // transaction back: 'copy started' is gone.
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE log (message TEXT NOT NULL)") }
        #expect(try Article.block3(dbQueue)
            == ["numbers() needs a count of zero or more", "numbers() needs a count of zero or more"])
        #expect(try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT message FROM log ORDER BY rowid") }
            == ["import started", "import done"])
        // Another error becomes SQLITE_ERROR, with its description and the
        // SQL; the rows read before it stay read; a row of the wrong width
        // fails the statement.
        let failing = DatabaseTableFunction("failing", columns: ["value"]) { _ in
            var count = 0
            return AnyCursor {
                count += 1
                if count > 2 { throw DocumentedFailure() }
                return [count]
            }
        }
        let wide = DatabaseTableFunction("wide", columns: ["value"]) { _ in AnyCursor([[1, 2]]) }
        try dbQueue.write { db in
            try db.add(tableFunction: failing)
            try db.add(tableFunction: wide)
            let cursor = try Int.fetchCursor(db, sql: "SELECT value FROM failing")
            var read: [Int] = []
            let error = #expect(throws: DatabaseError.self) {
                while let value = try cursor.next() { read.append(value) }
            }
            #expect(read == [1, 2])
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "the source cannot be read")
            #expect(error?.sql == "SELECT value FROM failing")
            let wideError = #expect(throws: DatabaseError.self) { try Row.fetchAll(db, sql: "SELECT * FROM wide") }
            #expect(wideError?.message?.contains("a row of 2 values for 1 columns") == true)
            #expect(db.isInsideTransaction)
        }

        // Block 4: a pool whose connections all have split_words.
        let dbPool = try Article.block4(databasePath: directory.filePath("pool.sqlite"), splitWords: splitWords)
        try dbPool.write { db in
            try db.execute(sql: """
                CREATE TABLE document (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
                INSERT INTO document VALUES (1, 'hello world'), (2, 'goodbye'), (3, '');
                """)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM split_words('a b c')") == 3)
        }

        // Block 5: one call per document; a document without words has no
        // row.
        let wordCounts = try Article.block5(dbPool)
        #expect(wordCounts == [["id": 1, "wordCount": 2], ["id": 2, "wordCount": 1]])

        // Block 6: the query interface and an SQL literal.
        let (interfaceWords, count) = try Article.block6(dbQueue)
        #expect(interfaceWords == ["not", "to", "be"])
        #expect(count == 3)

        // Limits: read-only; refused in the views and triggers of the
        // database, accepted in temporary ones.
        try dbQueue.write { (db: Database) throws in
            let write = #expect(throws: DatabaseError.self) { try db.execute(sql: "DELETE FROM split_words") }
            #expect(write?.message?.contains("may not be modified") == true)
        }
        let unsafeView = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try db.execute(sql: "CREATE VIEW wordView AS SELECT word FROM split_words('a b')")
                _ = try String.fetchAll(db, sql: "SELECT word FROM wordView")
            }
        }
        #expect(unsafeView?.message?.contains("unsafe use of virtual table") == true)
        let unsafeTrigger = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try db.execute(sql: """
                    CREATE TABLE note (body TEXT NOT NULL);
                    CREATE TRIGGER noteWords AFTER INSERT ON note BEGIN
                        INSERT INTO log (message) SELECT word FROM split_words('a b');
                    END;
                    """)
                try db.execute(sql: "INSERT INTO note (body) VALUES ('a b')")
            }
        }
        #expect(unsafeTrigger?.message?.contains("unsafe use of virtual table") == true)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TEMP VIEW tempWords AS SELECT word FROM split_words('a b')")
            #expect(try String.fetchAll(db, sql: "SELECT word FROM tempWords") == ["a", "b"])
        }

        // The players of blocks 7 and 8.
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL)")
            try db.execute(sql: """
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 60000)
                INSERT INTO player (id, name, score) SELECT x, 'player ' || x, x % 2000 FROM n
                """)
        }

        // Block 7: 20,000 ids, one argument.
        let ids = Array(Int64(1)...40_000).filter { $0 % 2 == 0 }
        let players = try Article.block7(dbQueue, ids: ids)
        #expect(players.count == 20_000)
        #expect(Set(players.map(\.id)) == Set(ids))
        // The rows of cairn_values: in order, duplicates and NULLs
        // included; none without an argument; another argument fails.
        try dbQueue.read { (db: Database) throws in
            let optionals: [(any DatabaseValueConvertible)?] = [3, nil, "a", 3]
            let values = try Row.fetchAll(
                db, sql: "SELECT value FROM cairn_values(?)",
                arguments: [DatabaseValueArray(optionals)]).map { $0[0] as DatabaseValue }
            #expect(values == [3.databaseValue, .null, "a".databaseValue, 3.databaseValue])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM cairn_values") == 0)
            let notAnArray = #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, sql: "SELECT value FROM cairn_values(?)", arguments: ["text"])
            }
            #expect(notAnArray?.resultCode == .SQLITE_MISMATCH)
            #expect(DatabaseTableFunction.values.name == "cairn_values")
            #expect(DatabaseTableFunction.values.columns == ["value"])
        }

        // 1,000 values or fewer: one parameter per value.
        #expect(DatabaseValueArray.inlineLimit == 1000)
        let shortSQL = try dbQueue.read { db in
            try Player.filter(ids: Array(Int64(1)...1000)).makePreparedRequest(db).statement.sql
        }
        #expect(!shortSQL.contains("cairn_values"))
        #expect(shortSQL.contains("IN (?, ?"))

        // An observation of a long list of keys tracks their rows only.
        let longIDs = Array(Int64(1)...50_000)
        let changes = Locked(0)
        let cancellable = DatabaseRegionObservation(tracking: Player.filter(ids: longIDs))
            .start(in: dbQueue, onError: { _ in }, onChange: { _ in changes.withLock { $0 += 1 } })
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 0 WHERE id = 55000") }
        #expect(changes.withLock { $0 } == 0)
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 0 WHERE id = 42") }
        #expect(changes.withLock { $0 } == 1)
        cancellable.cancel()

        // A view of a long list holds its values in its SQL.
        try dbQueue.write { db in
            try db.create(view: "somePlayers", as: Player.filter(ids: Array(Int64(1)...2000)))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM somePlayers") == 2000)
            let viewSQL = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'somePlayers'")
            #expect(viewSQL?.contains("cairn_values") == false)
            try db.execute(sql: "DROP VIEW somePlayers")
        }

        // Block 8: 50,000 ids in one statement each.
        let (result, sql) = try recorder.sql { try Article.block8(dbQueue) }
        #expect(result.players.count == 50_000)
        #expect(result.others == 10_000)
        #expect(result.remaining == 10_000)
        #expect(sql.contains(#"SELECT * FROM "player" WHERE "id" IN (SELECT +value FROM cairn_values(?))"#))
        #expect(sql.contains { $0.hasPrefix("SELECT COUNT(*)") && $0.contains("NOT IN (SELECT +value FROM cairn_values(?))") })
        #expect(sql.contains { $0.hasPrefix("DELETE") && $0.contains("IN (SELECT +value FROM cairn_values(?))") })

        // Keys given as dictionaries: one condition per key for short
        // lists, the rows of one array for long ones.
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE membership (
                    playerId INTEGER NOT NULL, teamId INTEGER NOT NULL, PRIMARY KEY (playerId, teamId));
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 2000)
                INSERT INTO membership SELECT x, x FROM n;
                """)
        }
        try dbQueue.read { (db: Database) throws in
            let keys = (1...2000).map { id -> [String: (any DatabaseValueConvertible)?] in
                ["playerId": id, "teamId": id]
            }
            #expect(try Table("membership").filter(keys: Array(keys.prefix(500))).fetchCount(db) == 500)
            // Past the inline limit: one array, read by cairn_rows.
            let request = Table("membership").filter(keys: keys)
            #expect(try request.fetchCount(db) == 2000)
            #expect(try request.makePreparedRequest(db).statement.sql.contains(
                #"("playerId", "teamId") IN (SELECT +c1, +c2 FROM cairn_rows(?, ?))"#))
        }
    }
}

/// The error of a table function of `tableFunctionsBlocksRun`.
private struct DocumentedFailure: Error, CustomStringConvertible {
    var description: String { "the source cannot be read" }
}
