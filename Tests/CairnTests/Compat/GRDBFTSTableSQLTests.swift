import Foundation
import Testing
import Cairn

/// The statements that `create(virtualTable:using:)` runs for FTS3, FTS4
/// and FTS5 tables, as GRDB 7.8 writes them (issue 51).
@Suite struct GRDBFTSTableSQLTests {
    /// The statements of `body`, on a database with a `note` table,
    /// without transactions, nor the statements of the full-text modules
    /// (`-- CREATE TABLE 'main'.'memo_data'…`), as GRDB's tests record them.
    func statements(_ body: (Database) throws -> Void) throws -> [String] {
        let recorder = try GRDBSQLRecorder(schema: "CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT, topic TEXT)")
        return try recorder.sql(body).filter { sql in
            !sql.hasPrefix("--") && !sql.hasPrefix("BEGIN") && !sql.hasPrefix("COMMIT")
                && !sql.hasPrefix("SAVEPOINT") && !sql.hasPrefix("RELEASE")
        }
    }

    /// The first statement of `body`.
    func createSQL(_ body: (Database) throws -> Void) throws -> String? {
        try statements(body).first
    }

    // MARK: - FTS3

    @Test func fts3Tables() throws {
        #expect(try createSQL { db in try db.create(virtualTable: "memo", using: FTS3()) }
            == #"CREATE VIRTUAL TABLE "memo" USING fts3"#)
        #expect(try createSQL { db in try db.create(virtualTable: "memo", ifNotExists: true, using: FTS3()) }
            == #"CREATE VIRTUAL TABLE IF NOT EXISTS "memo" USING fts3"#)
        #expect(try createSQL { db in try db.create(virtualTable: "memo", options: .temporary, using: FTS3()) { t in t.column("line") } }
            == #"CREATE VIRTUAL TABLE temp."memo" USING fts3(line)"#)
        #expect(try createSQL { db throws in
            try db.create(virtualTable: "memo", using: FTS3()) { t in
                t.column("heading")
                t.column("line")
                t.tokenizer = .porter
            }
        } == #"CREATE VIRTUAL TABLE "memo" USING fts3(heading, line, tokenize=porter)"#)
    }

    @Test func fts3Tokenizers() throws {
        func sql(_ tokenizer: FTS3TokenizerDescriptor) throws -> String? {
            try createSQL { db in try db.create(virtualTable: "memo", using: FTS3()) { t in t.tokenizer = tokenizer } }
        }
        #expect(try sql(.simple) == #"CREATE VIRTUAL TABLE "memo" USING fts3(tokenize=simple)"#)
        #expect(try sql(.porter) == #"CREATE VIRTUAL TABLE "memo" USING fts3(tokenize=porter)"#)
        #expect(try sql(.unicode61()) == #"CREATE VIRTUAL TABLE "memo" USING fts3(tokenize=unicode61)"#)
        #expect(try sql(.unicode61(diacritics: .keep)) == #"CREATE VIRTUAL TABLE "memo" USING fts3(tokenize=unicode61 "remove_diacritics=0")"#)
        #expect(try sql(.unicode61(diacritics: .remove)) == #"CREATE VIRTUAL TABLE "memo" USING fts3(tokenize=unicode61 "remove_diacritics=2")"#)
        #expect(try sql(.unicode61(separators: ["Z"])) == #"CREATE VIRTUAL TABLE "memo" USING fts3(tokenize=unicode61 "separators=Z")"#)
        #expect(try sql(.unicode61(tokenCharacters: Set("_#"))) == #"CREATE VIRTUAL TABLE "memo" USING fts3(tokenize=unicode61 "tokenchars=#_")"#)
        #expect(try sql(.unicode61(diacritics: .keep, separators: ["Z"], tokenCharacters: ["#"]))
            == #"CREATE VIRTUAL TABLE "memo" USING fts3(tokenize=unicode61 "remove_diacritics=0" "separators=Z" "tokenchars=#")"#)
    }

    // MARK: - FTS4

    @Test func fts4Columns() throws {
        #expect(try createSQL { db in try db.create(virtualTable: "memo", using: FTS4()) }
            == #"CREATE VIRTUAL TABLE "memo" USING fts4"#)
        #expect(try createSQL { db throws in
            try db.create(virtualTable: "memo", using: FTS4()) { t in
                t.column("heading").notIndexed()
                t.column("line")
                t.column("footer").notIndexed()
            }
        } == #"CREATE VIRTUAL TABLE "memo" USING fts4(heading, notindexed=heading, line, footer, notindexed=footer)"#)
        #expect(try createSQL { db throws in
            try db.create(virtualTable: "memo", using: FTS4()) { t in
                t.tokenizer = .unicode61(tokenCharacters: ["-"])
                t.column("line")
            }
        } == #"CREATE VIRTUAL TABLE "memo" USING fts4(line, tokenize=unicode61 "tokenchars=-")"#)
    }

    @Test func fts4Options() throws {
        #expect(try createSQL { db throws in
            try db.create(virtualTable: "memo", using: FTS4()) { t in
                t.prefixes = [3, 1]
                t.matchinfo = "fts3"
                t.uncompress = "inflate"
                t.compress = "deflate"
                t.content = ""
                t.column("code").asLanguageId()
                t.column("line")
            }
        } == #"CREATE VIRTUAL TABLE "memo" USING fts4(languageid="code", line, content="", compress="deflate", uncompress="inflate", matchinfo="fts3", prefix="1,3")"#)
    }

    @Test func fts4ContentAndSynchronization() throws {
        // Reading the content option of a synchronized table gives the
        // content table; setting it ends the synchronization.
        var readContent: String?? = .none
        let unsynchronized = try statements { db throws in
            try db.create(virtualTable: "memo", using: FTS4()) { t in
                t.synchronize(withTable: "note")
                readContent = t.content
                t.content = ""
                t.column("body")
            }
        }
        #expect(readContent == .some("note"))
        #expect(unsynchronized == [#"CREATE VIRTUAL TABLE "memo" USING fts4(body, content="")"#])

        let synchronized = try statements { db throws in
            try db.create(virtualTable: "memo", using: FTS4()) { t in
                t.content = "other"
                t.synchronize(withTable: "note")
                t.column("body")
            }
        }
        #expect(synchronized.first == #"CREATE VIRTUAL TABLE "memo" USING fts4(body, content="note")"#)
        #expect(synchronized.last == #"INSERT INTO "memo"("memo") VALUES('rebuild')"#)
        #expect(synchronized.contains("""
            CREATE TRIGGER "__memo_ai" AFTER INSERT ON "note" BEGIN
                INSERT INTO "memo"("docid", "body") VALUES(new."id", new."body");
            END
            """))
    }

    // MARK: - FTS5

    @Test func fts5Tables() throws {
        #expect(try createSQL { db in try db.create(virtualTable: "memo", using: FTS5()) { t in t.column("line") } }
            == #"CREATE VIRTUAL TABLE "memo" USING fts5(line)"#)
        #expect(try createSQL { db in try db.create(virtualTable: "memo", options: .ifNotExists, using: FTS5()) { t in t.column("line") } }
            == #"CREATE VIRTUAL TABLE IF NOT EXISTS "memo" USING fts5(line)"#)
        #expect(try createSQL { db in try db.create(virtualTable: "memo", options: .temporary, using: FTS5()) { t in t.column("line") } }
            == #"CREATE VIRTUAL TABLE temp."memo" USING fts5(line)"#)
        #expect(try createSQL { db throws in
            try db.create(virtualTable: "memo", using: FTS5()) { t in
                t.column("heading").notIndexed()
                t.column("line")
                t.column("footer").notIndexed()
            }
        } == #"CREATE VIRTUAL TABLE "memo" USING fts5(heading UNINDEXED, line, footer UNINDEXED)"#)
    }

    @Test func fts5Tokenizers() throws {
        func sql(_ tokenizer: FTS5TokenizerDescriptor) throws -> String? {
            try createSQL { db throws in
                try db.create(virtualTable: "memo", using: FTS5()) { t in
                    t.tokenizer = tokenizer
                    t.column("line")
                }
            }
        }
        #expect(try sql(.ascii()) == #"CREATE VIRTUAL TABLE "memo" USING fts5(line, tokenize='''ascii''')"#)
        #expect(try sql(.ascii(separators: ["Z"])) == #"CREATE VIRTUAL TABLE "memo" USING fts5(line, tokenize='''ascii'' ''separators'' ''Z''')"#)
        #expect(try sql(.ascii(tokenCharacters: Set("_#"))) == #"CREATE VIRTUAL TABLE "memo" USING fts5(line, tokenize='''ascii'' ''tokenchars'' ''#_''')"#)
        #expect(try sql(.porter()) == #"CREATE VIRTUAL TABLE "memo" USING fts5(line, tokenize='''porter''')"#)
        #expect(try sql(.porter(wrapping: .ascii())) == #"CREATE VIRTUAL TABLE "memo" USING fts5(line, tokenize='''porter'' ''ascii''')"#)
        #expect(try sql(.unicode61()) == #"CREATE VIRTUAL TABLE "memo" USING fts5(line, tokenize='''unicode61''')"#)
        #expect(try sql(.unicode61(diacritics: .keep)) == #"CREATE VIRTUAL TABLE "memo" USING fts5(line, tokenize='''unicode61'' ''remove_diacritics'' ''0''')"#)
        #expect(try sql(.unicode61(diacritics: .remove)) == #"CREATE VIRTUAL TABLE "memo" USING fts5(line, tokenize='''unicode61'' ''remove_diacritics'' ''2''')"#)
        #expect(try sql(.unicode61(categories: "L* N*")) == #"CREATE VIRTUAL TABLE "memo" USING fts5(line, tokenize='''unicode61'' ''categories'' ''L* N*''')"#)
        // An empty list of categories is no option at all.
        #expect(try sql(.unicode61(categories: "")) == #"CREATE VIRTUAL TABLE "memo" USING fts5(line, tokenize='''unicode61''')"#)
        #expect(try sql(.trigram()) == #"CREATE VIRTUAL TABLE "memo" USING fts5(line, tokenize='''trigram''')"#)
        #expect(try sql(FTS5TokenizerDescriptor(components: ["porter", "unicode61", "remove_diacritics", "0"]))
            == #"CREATE VIRTUAL TABLE "memo" USING fts5(line, tokenize='''porter'' ''unicode61'' ''remove_diacritics'' ''0''')"#)
    }

    @Test func fts5TokenizerDescriptorComponents() {
        #expect(FTS5TokenizerDescriptor.unicode61().components == ["unicode61"])
        #expect(FTS5TokenizerDescriptor.unicode61(categories: "").components == ["unicode61"])
        #expect(FTS5TokenizerDescriptor.unicode61(diacritics: .keep, categories: "Ll", separators: ["Z"], tokenCharacters: ["#"]).components
            == ["unicode61", "remove_diacritics", "0", "categories", "Ll", "separators", "Z", "tokenchars", "#"])
        #expect(FTS5TokenizerDescriptor.porter(wrapping: .unicode61(diacritics: .keep)).components
            == ["porter", "unicode61", "remove_diacritics", "0"])
        #expect(FTS5TokenizerDescriptor.ascii(separators: ["b", "a"]).components == ["ascii", "separators", "ab"])
    }

    @Test func fts5Options() throws {
        #expect(try createSQL { db throws in
            try db.create(virtualTable: "memo", using: FTS5()) { t in
                t.detail = "none"
                t.columnSize = 0
                t.prefixes = [4, 2]
                t.content = ""
                t.column("line")
            }
        } == #"CREATE VIRTUAL TABLE "memo" USING fts5(line, content='', prefix='2 4', columnSize=0, detail=none)"#)
        #expect(try createSQL { db throws in
            try db.create(virtualTable: "memo", using: FTS5()) { t in
                t.contentRowID = "id"
                t.content = "note"
                t.column("body")
            }
        } == #"CREATE VIRTUAL TABLE "memo" USING fts5(body, content='note', content_rowid='id')"#)
    }

    @Test func fts5ContentAndSynchronization() throws {
        // Reading the content option of a synchronized table gives the
        // content table, and no content_rowid; setting either ends the
        // synchronization.
        var readContent: String?? = .none
        var readRowID: String?? = .none
        let byContent = try statements { db throws in
            try db.create(virtualTable: "memo", using: FTS5()) { t in
                t.synchronize(withTable: "note")
                readContent = t.content
                readRowID = t.contentRowID
                t.content = ""
                t.column("body")
            }
        }
        #expect(readContent == .some("note"))
        #expect(readRowID == .some(nil))
        #expect(byContent == [#"CREATE VIRTUAL TABLE "memo" USING fts5(body, content='')"#])

        let byRowID = try statements { db throws in
            try db.create(virtualTable: "memo", using: FTS5()) { t in
                t.synchronize(withTable: "note")
                t.contentRowID = "id"
                t.column("body")
            }
        }
        #expect(byRowID == [#"CREATE VIRTUAL TABLE "memo" USING fts5(body, content_rowid='id')"#])

        let synchronized = try statements { db throws in
            try db.create(virtualTable: "memo", options: .ifNotExists, using: FTS5()) { t in
                t.content = "other"
                t.contentRowID = "other_id"
                t.synchronize(withTable: "note")
                t.column("body")
            }
        }
        #expect(synchronized.first == #"CREATE VIRTUAL TABLE IF NOT EXISTS "memo" USING fts5(body, content='note', content_rowid='id')"#)
        #expect(synchronized.contains("""
            CREATE TRIGGER IF NOT EXISTS "__memo_ai" AFTER INSERT ON "note" BEGIN
                INSERT INTO "memo"("rowid", "body") VALUES (new."id", new."body");
            END
            """))
        #expect(synchronized.last == #"INSERT INTO "memo"("memo") VALUES('rebuild')"#)
    }
}
