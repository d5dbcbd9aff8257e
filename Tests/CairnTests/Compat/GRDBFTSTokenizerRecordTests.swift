import Foundation
import Testing
import Cairn

/// A record of a full-text table, whose id is the rowid, selected
/// explicitly as GRDB's guides do.
private struct Poem: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "poem"
    static var databaseSelection: [any SQLSelectable] { [AllColumns(), Column.rowID] }
    var id: Int64?
    var title: String
    var poet: String
    var verse: String

    init(id: Int64? = nil, title: String, poet: String, verse: String) {
        self.id = id
        self.title = title
        self.poet = poet
        self.verse = verse
    }

    init(row: Row) throws {
        id = row[.rowID]
        title = row["title"]
        poet = row["poet"]
        verse = row["verse"]
    }

    func encode(to container: inout PersistenceContainer) throws {
        container[.rowID] = id
        container["title"] = title
        container["poet"] = poet
        container["verse"] = verse
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// A module of virtual tables of the user's: `fts3tokenize` tables.
private struct TokenizeTableModule: VirtualTableModule {
    final class Definition {
        var tokenizer: String?
    }

    let failsAfterCreation: Bool
    var moduleName: String { "fts3tokenize" }

    func makeTableDefinition(configuration: VirtualTableConfiguration) -> Definition {
        Definition()
    }

    func moduleArguments(for definition: Definition, in db: Database) throws -> [String] {
        definition.tokenizer.map { [$0] } ?? []
    }

    func database(_ db: Database, didCreate tableName: String, using definition: Definition) throws {
        if failsAfterCreation {
            throw DatabaseError(resultCode: ResultCode(rawValue: 123))
        }
    }
}

/// Records of FTS3, FTS4 and FTS5 tables, and virtual table modules of
/// the user's, as in GRDB 7.8 (issue 51).
@Suite struct GRDBFTSTokenizerRecordTests {
    enum Module: CaseIterable {
        case fts3, fts4, fts5
    }

    /// A queue with a `poem` table of the module, and the recorder of its
    /// statements, without FTS's own (`-- …`).
    func makeQueue(_ module: Module) throws -> (DatabaseQueue, Locked<[String]>) {
        let statements = Locked<[String]>([])
        var config = Configuration()
        config.prepareDatabase { db throws in
            db.trace { event in
                let sql = event.expandedDescription
                if !sql.hasPrefix("--") { statements.withLock { $0.append(sql) } }
            }
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db throws in
            switch module {
            case .fts3:
                try db.create(virtualTable: "poem", using: FTS3()) { t in
                    t.column("title")
                    t.column("poet")
                    t.column("verse")
                }
            case .fts4:
                try db.create(virtualTable: "poem", using: FTS4()) { t in
                    t.column("title")
                    t.column("poet")
                    t.column("verse")
                }
            case .fts5:
                try db.create(virtualTable: "poem", using: FTS5()) { t in
                    t.column("title")
                    t.column("poet")
                    t.column("verse")
                }
            }
        }
        statements.withLock { $0.removeAll() }
        return (dbQueue, statements)
    }

    @Test(arguments: Module.allCases)
    func insertedRecordsHaveTheirRowID(module: Module) throws {
        let (dbQueue, _) = try makeQueue(module)
        try dbQueue.inDatabase { db throws in
            var poem = Poem(title: "The Raven", poet: "Edgar Allan Poe", verse: "Once upon a midnight dreary")
            try poem.insert(db)
            let id = try #require(poem.id)
            let fetched: Poem?
            switch module {
            case .fts3, .fts4:
                fetched = try Poem.matching(FTS3Pattern(rawPattern: "Allan Poe")).fetchOne(db)
            case .fts5:
                fetched = try Poem.matching(FTS5Pattern(matchingAllTokensIn: "Allan Poe")).fetchOne(db)
            }
            #expect(fetched?.id == id)
            #expect(fetched?.title == "The Raven")
            #expect(fetched?.poet == "Edgar Allan Poe")
            #expect(fetched?.verse == "Once upon a midnight dreary")
        }
    }

    @Test(arguments: Module.allCases)
    func insertSQL(module: Module) throws {
        let (dbQueue, statements) = try makeQueue(module)
        try dbQueue.inDatabase { db throws in
            var poem = Poem(title: "T", poet: "P", verse: "V")
            try poem.insert(db)
            #expect(statements.withLock { $0 }.last == #"INSERT INTO "poem" ("rowid", "title", "poet", "verse") VALUES (NULL,'T','P','V')"#)
            try poem.update(db)
            #expect(statements.withLock { $0 }.last == #"UPDATE "poem" SET "title"='T', "poet"='P', "verse"='V' WHERE "rowid"=1"#)
            _ = try poem.delete(db)
            #expect(statements.withLock { $0 }.last == #"DELETE FROM "poem" WHERE "rowid"=1"#)
        }
    }

    @Test func fts3PatternsOfColumns() throws {
        for module in [Module.fts3, .fts4] {
            let (dbQueue, statements) = try makeQueue(module)
            try dbQueue.inDatabase { db throws in
                var poem = Poem(title: "The Raven", poet: "Edgar Allan Poe", verse: "Once upon a midnight dreary")
                try poem.insert(db)
                let pattern = try FTS3Pattern(rawPattern: "Allan Poe")
                #expect(try Poem.matching(pattern).fetchCount(db) == 1)
                #expect(statements.withLock { $0 }.last == #"SELECT COUNT(*) FROM "poem" WHERE "poem" MATCH 'Allan Poe'"#)
                #expect(try Poem.filter(Column("poem").match(pattern)).fetchCount(db) == 1)
                #expect(try Poem.filter(Column("poet").match(pattern)).fetchCount(db) == 1)
                #expect(statements.withLock { $0 }.last == #"SELECT COUNT(*) FROM "poem" WHERE "poet" MATCH 'Allan Poe'"#)
                #expect(try Poem.filter(Column("title").match(pattern)).fetchCount(db) == 0)
                #expect(try Poem.fetchCount(db) == 1)
                #expect(statements.withLock { $0 }.last == #"SELECT COUNT(*) FROM "poem""#)
            }
        }
    }

    @Test(arguments: Module.allCases)
    func nilPatternsMatchNothing(module: Module) throws {
        let (dbQueue, statements) = try makeQueue(module)
        try dbQueue.inDatabase { db throws in
            var poem = Poem(title: "The Raven", poet: "Edgar Allan Poe", verse: "Once upon a midnight dreary")
            try poem.insert(db)
            switch module {
            case .fts3, .fts4:
                let pattern: FTS3Pattern? = nil
                #expect(try Poem.matching(pattern).fetchCount(db) == 0)
                #expect(statements.withLock { $0 }.last == #"SELECT COUNT(*) FROM "poem" WHERE 0"#)
                #expect(try Poem.filter(Column("poem").match(pattern)).fetchCount(db) == 0)
                #expect(statements.withLock { $0 }.last == #"SELECT COUNT(*) FROM "poem" WHERE "poem" MATCH NULL"#)
                #expect(try Poem.filter(Column("poet").match(pattern)).fetchCount(db) == 0)
            case .fts5:
                let pattern = FTS5Pattern(matchingAllTokensIn: "")
                #expect(pattern == nil)
                #expect(try Poem.matching(pattern).fetchCount(db) == 0)
                #expect(statements.withLock { $0 }.last == #"SELECT COUNT(*) FROM "poem" WHERE 0"#)
                #expect(try Poem.all().matching(pattern).fetchAll(db).isEmpty)
                #expect(statements.withLock { $0 }.last == #"SELECT *, "rowid" FROM "poem" WHERE 0"#)
            }
        }
    }

    @Test func fts5CountSQL() throws {
        let (dbQueue, statements) = try makeQueue(.fts5)
        try dbQueue.inDatabase { db throws in
            var poem = Poem(title: "The Raven", poet: "Edgar Allan Poe", verse: "Once upon a midnight dreary")
            try poem.insert(db)
            let pattern = try #require(FTS5Pattern(matchingAllTokensIn: "Allan Poe"))
            #expect(try Poem.matching(pattern).fetchCount(db) == 1)
            #expect(statements.withLock { $0 }.last == #"SELECT COUNT(*) FROM "poem" WHERE "poem" MATCH 'allan poe'"#)
            #expect(try Poem.fetchCount(db) == 1)
            #expect(statements.withLock { $0 }.last == #"SELECT COUNT(*) FROM "poem""#)
            _ = try Poem.matching(pattern).fetchAll(db)
            #expect(statements.withLock { $0 }.last == #"SELECT *, "rowid" FROM "poem" WHERE "poem" MATCH 'allan poe'"#)
        }
    }

    // MARK: - Modules of the user's

    @Test func customVirtualTableModule() throws {
        let recorder = try GRDBSQLRecorder(schema: "CREATE TABLE other (id INTEGER PRIMARY KEY)")
        let statements = try recorder.sql { db throws in
            try db.create(virtualTable: "tokens", using: TokenizeTableModule(failsAfterCreation: false)) { t in
                t.tokenizer = "porter"
            }
            #expect(try db.tableExists("tokens"))
            let tokens = try String.fetchAll(db, sql: "SELECT token FROM tokens WHERE input = ?", arguments: ["running dogs"])
            #expect(tokens == ["run", "dog"])
        }
        #expect(statements.contains(#"CREATE VIRTUAL TABLE "tokens" USING fts3tokenize(porter)"#))
    }

    @Test func throwingVirtualTableModule() throws {
        let recorder = try GRDBSQLRecorder(schema: "CREATE TABLE other (id INTEGER PRIMARY KEY)")
        let statements = try recorder.sql { db throws in
            do {
                try db.create(virtualTable: "tokens", using: TokenizeTableModule(failsAfterCreation: true)) { t in
                    t.tokenizer = "simple"
                }
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode.rawValue == 123)
            }
            #expect(try !db.tableExists("tokens"))
        }
        #expect(statements.contains(#"CREATE VIRTUAL TABLE "tokens" USING fts3tokenize(simple)"#))
    }
}
