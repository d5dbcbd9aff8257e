import Foundation
import Testing
import Cairn

/// A full-text record.
struct Book: Codable, FetchableRecord, PersistableRecord, Equatable {
    var author: String
    var title: String
    var body: String

    enum Columns {
        static let author = Column(CodingKeys.author)
        static let title = Column(CodingKeys.title)
        static let body = Column(CodingKeys.body)
    }
}

@Suite struct FTSTableTests {
    /// The SQL of a table, as stored in sqlite_master.
    func sql(_ db: Database, _ table: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [table])
    }

    @Test func fts3AndFTS4Tables() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(virtualTable: "document", using: FTS3()) { t in
                t.column("content")
            }
            #expect(try sql(db, "document") == #"CREATE VIRTUAL TABLE "document" USING fts3(content)"#)

            try db.create(virtualTable: "book", using: FTS4()) { t in
                t.tokenizer = .porter
                t.column("author")
                t.column("title")
                t.column("body")
            }
            #expect(try sql(db, "book") == #"CREATE VIRTUAL TABLE "book" USING fts4(author, title, body, tokenize=porter)"#)

            try db.create(virtualTable: "options", using: FTS4()) { t in
                t.content = ""
                t.compress = "zip"
                t.uncompress = "unzip"
                t.prefixes = [2, 4]
                t.column("content")
                t.column("uuid").notIndexed()
                t.column("lid").asLanguageId()
            }
            #expect(try sql(db, "options") == """
                CREATE VIRTUAL TABLE "options" USING fts4(content, uuid, notindexed=uuid, languageid="lid", \
                content="", compress="zip", uncompress="unzip", prefix="2,4")
                """)

            try db.create(virtualTable: "unicode", using: FTS4()) { t in
                t.tokenizer = .unicode61(diacritics: .keep, separators: ["X"], tokenCharacters: ["."])
                t.column("content")
            }
            #expect(try sql(db, "unicode") == #"CREATE VIRTUAL TABLE "unicode" USING fts4(content, tokenize=unicode61 "remove_diacritics=0" "separators=X" "tokenchars=.")"#)
            try db.execute(sql: "INSERT INTO unicode VALUES ('fooXbar Jérôme a.b')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM unicode WHERE unicode MATCH 'bar'") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM unicode WHERE unicode MATCH '\"a.b\"'") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM unicode WHERE unicode MATCH 'jerome'") == 0)

            // IF NOT EXISTS
            try db.create(virtualTable: "document", options: .ifNotExists, using: FTS3()) { t in
                t.column("content")
            }
        }
    }

    @Test func fts5Tables() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(virtualTable: "document", using: FTS5()) { t in
                t.column("content")
            }
            #expect(try sql(db, "document") == #"CREATE VIRTUAL TABLE "document" USING fts5(content)"#)

            // Names that are not plain identifiers stay quoted.
            try db.create(virtualTable: "quoted", using: FTS5()) { t in
                t.column("first name")
                t.column("2nd")
            }
            #expect(try sql(db, "quoted") == #"CREATE VIRTUAL TABLE "quoted" USING fts5("first name", "2nd")"#)
            try db.execute(sql: #"INSERT INTO quoted ("first name", "2nd") VALUES ('a', 'b')"#)
            #expect(try Int.fetchOne(db, sql: #"SELECT COUNT(*) FROM quoted WHERE quoted MATCH '"first name": a'"#) == 1)

            try db.create(virtualTable: "book", using: FTS5()) { t in
                t.tokenizer = .porter()
                t.column("author")
                t.column("title")
                t.column("body")
            }
            #expect(try sql(db, "book") == #"CREATE VIRTUAL TABLE "book" USING fts5(author, title, body, tokenize='''porter''')"#)

            try db.execute(sql: "CREATE TABLE source (id INTEGER PRIMARY KEY, content TEXT, uuid TEXT)")
            try db.create(virtualTable: "options", using: FTS5()) { t in
                t.column("content")
                t.column("uuid").notIndexed()
                t.content = "source"
                t.contentRowID = "id"
                t.prefixes = [2, 4]
                t.columnSize = 0
                t.detail = "column"
            }
            #expect(try sql(db, "options") == """
                CREATE VIRTUAL TABLE "options" USING fts5(content, uuid UNINDEXED, \
                content='source', content_rowid='id', prefix='2 4', columnSize=0, detail=column)
                """)

            // An FTS5 table needs a column.
            #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "empty", using: FTS5())
            }
        }
    }

    @Test func fts5TokenizerDescriptors() throws {
        #expect(FTS5TokenizerDescriptor.ascii.components == ["ascii"])
        #expect(FTS5TokenizerDescriptor.ascii().components == ["ascii"])
        #expect(FTS5TokenizerDescriptor.ascii(separators: ["X"], tokenCharacters: ["-"]).components
            == ["ascii", "separators", "X", "tokenchars", "-"])
        #expect(FTS5TokenizerDescriptor.porter().components == ["porter"])
        #expect(FTS5TokenizerDescriptor.porter(.ascii()).components == ["porter", "ascii"])
        #expect(FTS5TokenizerDescriptor.porter(wrapping: .unicode61(diacritics: .keep)).components
            == ["porter", "unicode61", "remove_diacritics", "0"])
        #expect(FTS5TokenizerDescriptor.unicode61(diacritics: .remove, categories: "L* N*").components
            == ["unicode61", "remove_diacritics", "2", "categories", "L* N*"])
        #expect(FTS5TokenizerDescriptor.trigram(caseSensitive: true).components == ["trigram", "case_sensitive", "1"])
        #expect(FTS5TokenizerDescriptor.trigram(removeDiacritics: true).components == ["trigram", "remove_diacritics", "1"])
        #expect(FTS5TokenizerDescriptor(components: ["porter", "ascii"]).arguments == ["ascii"])

        // Each descriptor makes a table that works.
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            let descriptors: [FTS5TokenizerDescriptor] = [
                .ascii, .ascii(separators: ["X"]), .porter(), .porter(.ascii()),
                .unicode61(), .unicode61(diacritics: .keep, separators: ["X"], tokenCharacters: ["-"]),
                .unicode61(categories: "L* N* Co"), .trigram(), .trigram(caseSensitive: true),
            ]
            for (index, descriptor) in descriptors.enumerated() {
                try db.create(virtualTable: "t\(index)", using: FTS5()) { t in
                    t.tokenizer = descriptor
                    t.column("content")
                }
                try db.execute(sql: "INSERT INTO t\(index) VALUES ('Hello world')")
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t\(index) WHERE t\(index) MATCH 'world'") == 1,
                    "\(descriptor.components)")
            }
        }
    }

    /// The table of matches of the spec, for FTS3/4 tokenizers.
    @Test(arguments: [
        ("Foo", "Foo", [true, true, true]),
        ("Foo", "FOO", [true, true, true]),
        ("Jérôme", "Jérôme", [true, true, true]),
        ("Jérôme", "JÉRÔME", [false, false, true]),
        ("Jérôme", "Jerome", [false, false, true]),
        ("Database", "Databases", [false, true, false]),
        ("Frustration", "Frustrated", [false, true, false]),
    ])
    func fts4TokenizerMatches(content: String, query: String, matches: [Bool]) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            let tokenizers: [FTS3TokenizerDescriptor] = [.simple, .porter, .unicode61()]
            for (tokenizer, expected) in zip(tokenizers, matches) {
                try db.create(virtualTable: "book", using: FTS4()) { t in
                    t.tokenizer = tokenizer
                    t.column("content")
                }
                try db.execute(sql: "INSERT INTO book VALUES (?)", arguments: [content])
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book WHERE book MATCH ?", arguments: [query])
                #expect((count == 1) == expected, "\(tokenizer.name): \(content) / \(query)")
                try db.execute(sql: "DROP TABLE book")
            }
        }
    }

    /// The table of matches of the spec, for FTS5 tokenizers.
    @Test(arguments: [
        ("Foo", "Foo", [true, true, true, true]),
        ("Foo", "FOO", [true, true, true, true]),
        ("Jérôme", "Jérôme", [true, true, true, true]),
        ("Jérôme", "JÉRÔME", [false, true, false, true]),
        ("Jérôme", "Jerome", [false, true, false, true]),
        ("Database", "Databases", [false, false, true, true]),
        ("Frustration", "Frustrated", [false, false, true, true]),
    ])
    func fts5TokenizerMatches(content: String, query: String, matches: [Bool]) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            let tokenizers: [FTS5TokenizerDescriptor] = [.ascii(), .unicode61(), .porter(.ascii()), .porter()]
            for (tokenizer, expected) in zip(tokenizers, matches) {
                try db.create(virtualTable: "book", using: FTS5()) { t in
                    t.tokenizer = tokenizer
                    t.column("content")
                }
                try db.execute(sql: "INSERT INTO book VALUES (?)", arguments: [content])
                let pattern = try #require(FTS5Pattern(matchingAnyTokenIn: query))
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book WHERE book MATCH ?", arguments: [pattern])
                #expect((count == 1) == expected, "\(tokenizer.components): \(content) / \(query)")
                try db.execute(sql: "DROP TABLE book")
            }
        }
    }

    @Test func fts3Tokenization() throws {
        #expect(try FTS3.tokenize("SQLite database") == ["sqlite", "database"])
        #expect(try FTS3.tokenize("Gustave Doré") == ["gustave", "doré"])
        #expect(try FTS3.tokenize("SQLite database", withTokenizer: .porter) == ["sqlite", "databas"])
        #expect(try FTS3.tokenize("Gustave Doré", withTokenizer: .unicode61()) == ["gustave", "dore"])
        #expect(try FTS3.tokenize("", withTokenizer: .unicode61()) == [])
    }

    @Test func fts5Tokenization() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let ascii = try db.makeTokenizer(.ascii())
            #expect(try ascii.tokenize(query: "SQLite database").map(\.token) == ["sqlite", "database"])
            #expect(try ascii.tokenize(document: "SQLite database").map(\.token) == ["sqlite", "database"])
            let unicode61 = try db.makeTokenizer(.unicode61())
            #expect(try unicode61.tokenize(query: "Jérôme ÉLODIE").map(\.token) == ["jerome", "elodie"])
            let porter = try db.makeTokenizer(.porter())
            #expect(try porter.tokenize(document: "frustrated databases").map(\.token) == ["frustrat", "databas"])
            #expect(try porter.tokenize(document: "").isEmpty)
            // Unknown tokenizers and arguments.
            #expect(throws: DatabaseError.self) { try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["missing"])) }
            #expect(throws: DatabaseError.self) { try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["unicode61", "bogus", "1"])) }
        }
    }

    /// The tokenizers made by `makeTokenizer` can outlive their connection.
    @Test func tokenizersOutliveTheirConnection() throws {
        var tokenizer: (any FTS5Tokenizer)?
        do {
            let dbQueue = try DatabaseQueue()
            tokenizer = try dbQueue.read { db in try db.makeTokenizer(.porter()) }
            try dbQueue.close()
        }
        #expect(tokenizer != nil)
        tokenizer = nil
    }

    @Test func rankingAndQueryInterface() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(virtualTable: "book", using: FTS5()) { t in
                t.column("author")
                t.column("title")
                t.column("body")
            }
            try Book(author: "Herman Melville", title: "Moby-Dick", body: "Call me Ishmael. Whale whale whale.").insert(db)
            try Book(author: "Jules Verne", title: "Twenty Thousand Leagues", body: "A whale, or a submarine?").insert(db)
            try Book(author: "Jane Austen", title: "Emma", body: "Emma Woodhouse, handsome, clever.").insert(db)

            let pattern = try #require(FTS5Pattern(matchingAnyTokenIn: "whale"))
            // SQL, ranked
            let books = try Book.fetchAll(db, sql: "SELECT * FROM book WHERE book MATCH ? ORDER BY rank", arguments: [pattern])
            #expect(books.map(\.title) == ["Moby-Dick", "Twenty Thousand Leagues"])
            // Query interface, ranked
            #expect(try Book.matching(pattern).order(Column.rank).fetchAll(db).map(\.title) == ["Moby-Dick", "Twenty Thousand Leagues"])
            #expect(try Book.matching(pattern).fetchCount(db) == 2)
            // bm25()
            let scores = try Double.fetchAll(db, sql: "SELECT bm25(book) FROM book WHERE book MATCH ? ORDER BY bm25(book)", arguments: [pattern])
            #expect(scores.count == 2 && scores[0] <= scores[1])
            // One column
            let moby = try #require(FTS5Pattern(matchingPhrase: "Moby Dick"))
            #expect(try Book.filter(Column("title").match(moby)).fetchAll(db).map(\.author) == ["Herman Melville"])
            #expect(try Book.filter { $0.title.match(moby) }.fetchAll(db).map(\.author) == ["Herman Melville"])
            #expect(try Book.filter(Column("body").match(moby)).fetchCount(db) == 0)
            // A nil pattern matches nothing.
            #expect(try Book.matching(FTS5Pattern(matchingAnyTokenIn: "*")).fetchCount(db) == 0)
        }
    }

    @Test func fts4Records() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(virtualTable: "book", using: FTS4()) { t in
                t.column("author")
                t.column("title")
                t.column("body")
            }
            try Book(author: "Herman Melville", title: "Moby-Dick", body: "Call me Ishmael.").insert(db)
            let pattern = try #require(FTS3Pattern(matchingPhrase: "Moby-Dick"))
            #expect(try Book.matching(pattern).fetchAll(db).map(\.author) == ["Herman Melville"])
            #expect(try Book.fetchAll(db, sql: "SELECT * FROM book WHERE book MATCH ?", arguments: [pattern]).count == 1)
            #expect(try Book.filter(Column("body").match(FTS3Pattern(matchingAllPrefixesIn: "ishm"))).fetchCount(db) == 1)
        }
    }

    @Test(arguments: ["fts4", "fts5"])
    func externalContentSynchronization(engine: String) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("author", .text)
                t.column("title", .text)
                t.column("content", .text)
                t.column("price", .double)
            }
            try db.execute(sql: "INSERT INTO book (author, title, content, price) VALUES ('Melville', 'Moby-Dick', 'whale', 10)")
            if engine == "fts4" {
                try db.create(virtualTable: "book_ft", using: FTS4()) { t in
                    t.synchronize(withTable: "book")
                    t.column("author")
                    t.column("title")
                    t.column("content")
                }
            } else {
                try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                    t.synchronize(withTable: "book")
                    t.column("author")
                    t.column("title")
                    t.column("content")
                }
            }
            func titles(_ query: String) throws -> [String] {
                try String.fetchAll(db, sql: """
                    SELECT book.title
                    FROM book
                    JOIN book_ft
                        ON book_ft.rowid = book.rowid
                        AND book_ft MATCH ?
                    ORDER BY book.id
                    """, arguments: [query])
            }
            // Existing content is indexed.
            #expect(try titles("whale") == ["Moby-Dick"])
            // Inserts, updates and deletes are followed.
            try db.execute(sql: "INSERT INTO book (author, title, content, price) VALUES ('Verne', 'Nautilus', 'submarine whale', 12)")
            #expect(try titles("whale") == ["Moby-Dick", "Nautilus"])
            try db.execute(sql: "UPDATE book SET content = 'captain' WHERE title = 'Moby-Dick'")
            #expect(try titles("whale") == ["Nautilus"])
            #expect(try titles("captain") == ["Moby-Dick"])
            try db.execute(sql: "DELETE FROM book WHERE title = 'Nautilus'")
            #expect(try titles("whale") == [])
            #expect(try titles("submarine") == [])

            // Matching the content table itself is an error.
            #expect(throws: DatabaseError.self) {
                _ = try Row.fetchAll(db, sql: "SELECT * FROM book WHERE book MATCH 'whale'")
            }

            // Dropping the full-text table: the triggers must go too.
            try db.drop(table: "book_ft")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO book (title) VALUES ('x')")
            }
            if engine == "fts4" {
                try db.dropFTS4SynchronizationTriggers(forTable: "book_ft")
            } else {
                try db.dropFTS5SynchronizationTriggers(forTable: "book_ft")
            }
            try db.execute(sql: "INSERT INTO book (title) VALUES ('x')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger'") == 0)
        }
    }

    /// FTS5 prepares statements of its own on the connection, which SQLite
    /// finalizes when it closes: they do not prevent the close, as the
    /// statements of the user do.
    @Test func connectionsThatUsedFTS5TablesClose() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath("queue.sqlite"))
        let dbPool = try DatabasePool(path: directory.filePath("pool.sqlite"))
        for writer in [dbQueue as any DatabaseWriter, dbPool] {
            try writer.write { db in
                try db.create(virtualTable: "doc", using: FTS5()) { t in t.column("body") }
                try db.execute(sql: "INSERT INTO doc (body) VALUES ('hello world')")
            }
            #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH 'hello'") } == 1)
        }
        try dbQueue.close()
        try dbPool.close()
        #expect(throws: DatabaseError.self) { try dbQueue.read { _ in } }
        #expect(throws: DatabaseError.self) { try dbPool.read { _ in } }
    }

    /// With `IF NOT EXISTS`, the synchronization triggers are created the
    /// same way: creating the table twice, or after its triggers survived a
    /// drop of the full-text table, is not an error.
    @Test(arguments: ["fts4", "fts5"])
    func synchronizationWithIfNotExists(engine: String) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "note") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("body", .text)
            }
            func create() throws {
                if engine == "fts4" {
                    try db.create(virtualTable: "note_ft", options: .ifNotExists, using: FTS4()) { t in
                        t.synchronize(withTable: "note")
                        t.column("body")
                    }
                } else {
                    try db.create(virtualTable: "note_ft", options: .ifNotExists, using: FTS5()) { t in
                        t.synchronize(withTable: "note")
                        t.column("body")
                    }
                }
            }
            try create()
            // Without IF NOT EXISTS, the triggers would already exist.
            try create()
            let triggers = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger'")
            #expect(triggers == (engine == "fts4" ? 4 : 3))
            try db.execute(sql: "INSERT INTO note (body) VALUES ('hello')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note_ft WHERE note_ft MATCH 'hello'") == 1)
        }
    }
}
