import Foundation
import Testing
import Cairn

/// FTS3 and FTS5 patterns, and the requests that match them, as in GRDB
/// 7.8 (issue 51): the raw patterns built from user input, the patterns
/// that are refused and their errors, and the SQL of `matching(_:)`.
@Suite struct GRDBFTSPatternTests {
    /// Inputs that hold no token.
    let inputsWithoutTokens = ["", " \t\n", "*", "^", "(", "()", "\"", "?!", "-", "+:"]

    // MARK: - FTS3

    @Test func fts3PatternsFromUserInput() throws {
        for input in inputsWithoutTokens {
            #expect(FTS3Pattern(matchingAnyTokenIn: input) == nil, "\(input.debugDescription)")
            #expect(FTS3Pattern(matchingAllTokensIn: input) == nil, "\(input.debugDescription)")
            #expect(FTS3Pattern(matchingAllPrefixesIn: input) == nil, "\(input.debugDescription)")
            #expect(FTS3Pattern(matchingPhrase: input) == nil, "\(input.debugDescription)")
        }
        // Tokens of the simple tokenizer: lowercased ASCII, other
        // characters kept as they are.
        #expect(FTS3Pattern(matchingAnyTokenIn: "^Turnip* \t Pie")?.rawPattern == "turnip OR pie")
        #expect(FTS3Pattern(matchingAllTokensIn: "\"Turnip pie NEAR crust\"")?.rawPattern == "turnip pie near crust")
        #expect(FTS3Pattern(matchingAllPrefixesIn: "Turn Pi")?.rawPattern == "turn* pi*")
        #expect(FTS3Pattern(matchingPhrase: " TURNIP (pie) ")?.rawPattern == #""turnip pie""#)
        #expect(FTS3Pattern(matchingAllTokensIn: "CRÈME Brûlée")?.rawPattern == "crÈme brûlée")
    }

    @Test func fts3RawPatterns() throws {
        for valid in ["", "?!", "*", "pie*", "\"turnip pie\"", "pie NEAR crust", "pie NOT crust", "pie AND crust", "pie OR crust", "body:pie", "and"] {
            #expect(throws: Never.self, "\(valid.debugDescription)") { try FTS3Pattern(rawPattern: valid) }
        }
        for invalid in ["NOT", "(", "AND", "OR", "\""] {
            #expect(throws: DatabaseError.self, "\(invalid.debugDescription)") { try FTS3Pattern(rawPattern: invalid) }
        }
        // The error tells the pattern, and not the statement that checked
        // it.
        let error = try #require(#expect(throws: DatabaseError.self) { try FTS3Pattern(rawPattern: "AND") })
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.message == "malformed MATCH expression: [AND]")
        #expect(error.sql == nil)
        #expect(error.description == "SQLite error 1: malformed MATCH expression: [AND]")
    }

    @Test func fts3PatternsFromDatabaseValuesAreChecked() {
        #expect(FTS3Pattern.fromDatabaseValue("turnip OR pie".databaseValue)?.rawPattern == "turnip OR pie")
        #expect(FTS3Pattern.fromDatabaseValue("AND".databaseValue) == nil)
        #expect(FTS3Pattern.fromDatabaseValue(DatabaseValue.null) == nil)
        #expect(FTS3Pattern.fromDatabaseValue(12.databaseValue) == nil)
    }

    // MARK: - FTS5

    @Test func fts5PatternsFromUserInput() throws {
        for input in inputsWithoutTokens {
            #expect(FTS5Pattern(matchingAnyTokenIn: input) == nil, "\(input.debugDescription)")
            #expect(FTS5Pattern(matchingAllTokensIn: input) == nil, "\(input.debugDescription)")
            #expect(FTS5Pattern(matchingAllPrefixesIn: input) == nil, "\(input.debugDescription)")
            #expect(FTS5Pattern(matchingPhrase: input) == nil, "\(input.debugDescription)")
            #expect(FTS5Pattern(matchingPrefixPhrase: input) == nil, "\(input.debugDescription)")
        }
        // Tokens of the ascii tokenizer.
        #expect(FTS5Pattern(matchingAnyTokenIn: "^Turnip* \t Pie")?.rawPattern == "turnip OR pie")
        #expect(FTS5Pattern(matchingAllTokensIn: "\"Turnip pie NOT crust\"")?.rawPattern == "turnip pie not crust")
        #expect(FTS5Pattern(matchingAllPrefixesIn: "Turn Pi")?.rawPattern == "turn* pi*")
        #expect(FTS5Pattern(matchingPhrase: " TURNIP (pie) ")?.rawPattern == #""turnip pie""#)
        #expect(FTS5Pattern(matchingPrefixPhrase: "Turnip-pie*")?.rawPattern == #"^"turnip pie""#)
        #expect(FTS5Pattern(matchingAllTokensIn: "CRÈME Brûlée")?.rawPattern == "crÈme brûlée")
    }

    @Test func fts5RawPatterns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(virtualTable: "recipe", using: FTS5()) { t in
                t.column("title")
                t.column("body")
            }
            for valid in ["pie", "pie*", "\"turnip pie\"", "NEAR(pie crust)", "pie NOT crust", "title: pie", "{title body}: pie"] {
                #expect(throws: Never.self, "\(valid.debugDescription)") { try db.makeFTS5Pattern(rawPattern: valid, forTable: "recipe") }
            }
            for invalid in ["", "?!", "^", "NOT", "(", "AND", "OR", "\"", "missing: pie"] {
                #expect(throws: DatabaseError.self, "\(invalid.debugDescription)") { try db.makeFTS5Pattern(rawPattern: invalid, forTable: "recipe") }
            }
            // Errors tell the pattern, not the statement that checked it.
            let syntaxError = try #require(#expect(throws: DatabaseError.self) {
                try db.makeFTS5Pattern(rawPattern: "AND", forTable: "recipe")
            })
            #expect(syntaxError.message == #"fts5: syntax error near "AND""#)
            #expect(syntaxError.sql == nil)
            let columnError = try #require(#expect(throws: DatabaseError.self) {
                try db.makeFTS5Pattern(rawPattern: "missing: pie", forTable: "recipe")
            })
            #expect(columnError.message == "no such column: missing")
            #expect(columnError.sql == nil)
            // The table must exist.
            let tableError = try #require(#expect(throws: DatabaseError.self) {
                try db.makeFTS5Pattern(rawPattern: "pie", forTable: "missing")
            })
            #expect(tableError.message == "no such table: missing")
        }
        let error = try #require(#expect(throws: DatabaseError.self) {
            try FTS5Pattern(rawPattern: "title: pie")
        })
        #expect(error.message == "no such column: title")
        #expect(error.sql == nil)
        #expect(error.description == "SQLite error 1: no such column: title")
        #expect(throws: Never.self) { try FTS5Pattern(rawPattern: "title: pie", allowedColumns: ["title"]) }
    }

    @Test func fts5PatternsFromDatabaseValuesAreChecked() {
        #expect(FTS5Pattern.fromDatabaseValue("turnip OR pie".databaseValue)?.rawPattern == "turnip OR pie")
        #expect(FTS5Pattern.fromDatabaseValue("AND".databaseValue) == nil)
        #expect(FTS5Pattern.fromDatabaseValue("".databaseValue) == nil)
        #expect(FTS5Pattern.fromDatabaseValue(DatabaseValue.null) == nil)
    }

    // MARK: - Requests

    struct Recipe: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "recipe"
        static var databaseSelection: [any SQLSelectable] { [AllColumns(), Column.rowID] }
        var id: Int64?
        var title: String
        var body: String

        enum CodingKeys: String, CodingKey {
            case id = "rowid", title, body
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }

    /// The statements of `body`, without the statements of the full-text
    /// modules (`-- SELECT … FROM 'main'.'recipe_segdir'…`), as GRDB's
    /// tests record them.
    func queries(_ recorder: GRDBSQLRecorder, _ body: (Database) throws -> Void) throws -> [String] {
        try recorder.sql(body).filter { !$0.hasPrefix("--") }
    }

    func recorder(module: String) throws -> GRDBSQLRecorder {
        let recorder = try GRDBSQLRecorder(schema: "CREATE VIRTUAL TABLE recipe USING \(module)(title, body)")
        try recorder.dbQueue.write { db throws in
            var recipe = Recipe(id: nil, title: "Turnip pie", body: "Bake the turnips.")
            try recipe.insert(db)
            #expect(recipe.id == 1)
        }
        return recorder
    }

    @Test func fts3RequestsMatching() throws {
        let recorder = try recorder(module: "fts4")
        let pattern = try #require(FTS3Pattern(matchingAllTokensIn: "Turnip Pie"))
        try recorder.dbQueue.read { db throws in
            let recipe = try #require(try Recipe.matching(pattern).fetchOne(db))
            #expect(recipe.id == 1)
            #expect(try Recipe.matching(pattern).fetchCount(db) == 1)
            #expect(try Recipe.filter(Column("recipe").match(pattern)).fetchCount(db) == 1)
            #expect(try Recipe.filter(Column("title").match(pattern)).fetchCount(db) == 1)
            #expect(try Recipe.filter(Column("body").match(pattern)).fetchCount(db) == 0)
        }
        let recorded1 = try queries(recorder) { db in _ = try Recipe.matching(pattern).fetchCount(db) }
        #expect(recorded1 == [#"SELECT COUNT(*) FROM "recipe" WHERE "recipe" MATCH 'turnip pie'"#])
        let recorded2 = try queries(recorder) { db in _ = try Recipe.matching(pattern).fetchAll(db) }
        #expect(recorded2 == [#"SELECT *, "rowid" FROM "recipe" WHERE "recipe" MATCH 'turnip pie'"#])
        let recorded3 = try queries(recorder) { db in _ = try Recipe.filter(Column("title").match(pattern)).fetchAll(db) }
        #expect(recorded3 == [#"SELECT *, "rowid" FROM "recipe" WHERE "title" MATCH 'turnip pie'"#])
    }

    @Test func fts3RequestsMatchingNil() throws {
        let recorder = try recorder(module: "fts4")
        let pattern: FTS3Pattern? = nil
        try recorder.dbQueue.read { db throws in
            #expect(try Recipe.matching(pattern).fetchCount(db) == 0)
            #expect(try Recipe.filter(Column("recipe").match(pattern)).fetchCount(db) == 0)
            #expect(try Recipe.filter(Column("title").match(pattern)).fetchCount(db) == 0)
        }
        // A nil pattern makes the request fetch nothing, as `none()` does;
        // a nil pattern of a column matches NULL.
        let noneSQL = try queries(recorder) { db in _ = try Recipe.none().fetchAll(db) }
        #expect(try queries(recorder) { db in _ = try Recipe.matching(pattern).fetchAll(db) } == noneSQL)
        let recorded4 = try queries(recorder) { db in _ = try Recipe.filter(Column("title").match(pattern)).fetchAll(db) }
        #expect(recorded4 == [#"SELECT *, "rowid" FROM "recipe" WHERE "title" MATCH NULL"#])
    }

    @Test func fts5RequestsMatching() throws {
        let recorder = try recorder(module: "fts5")
        let pattern = try #require(FTS5Pattern(matchingAllTokensIn: "Turnip Pie"))
        try recorder.dbQueue.read { db throws in
            let recipe = try #require(try Recipe.matching(pattern).fetchOne(db))
            #expect(recipe.id == 1)
            #expect(recipe.title == "Turnip pie")
            #expect(try Recipe.filter(Column("recipe").match(pattern)).fetchCount(db) == 1)
        }
        let recorded5 = try queries(recorder) { db in _ = try Recipe.matching(pattern).fetchCount(db) }
        #expect(recorded5 == [#"SELECT COUNT(*) FROM "recipe" WHERE "recipe" MATCH 'turnip pie'"#])
        let recorded6 = try queries(recorder) { db in _ = try Recipe.matching(pattern).order(Column.rank).fetchAll(db) }
        #expect(recorded6 == [#"SELECT *, "rowid" FROM "recipe" WHERE "recipe" MATCH 'turnip pie' ORDER BY "rank""#])
        let noneCountSQL = try queries(recorder) { db in _ = try Recipe.none().fetchCount(db) }
        #expect(try queries(recorder) { db in _ = try Recipe.all().matching(nil as FTS5Pattern?).fetchCount(db) } == noneCountSQL)
    }
}
