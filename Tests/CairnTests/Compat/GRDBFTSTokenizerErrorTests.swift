import Foundation
import Testing
import Cairn

/// Refuses the token "veto" with a check constraint error.
private final class VetoTokenizer: FTS5WrapperTokenizer {
    static let name = "grdb_compat_veto"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        if token == "veto" {
            throw DatabaseError(resultCode: .SQLITE_CONSTRAINT_CHECK, message: "vetoed")
        }
        try tokenCallback(token, flags)
    }
}

/// The errors of `makeTokenizer(_:)`, and of the statements that need a
/// tokenizer that does not exist, as GRDB 7.8 throws them (issue 51).
@Suite struct GRDBFTSTokenizerErrorTests {
    /// The error that `body` throws, as a ``DatabaseError``.
    func databaseError(_ body: () throws -> Void) -> DatabaseError? {
        do {
            try body()
            Issue.record("expected an error")
            return nil
        } catch let error as DatabaseError {
            return error
        } catch {
            Issue.record("unexpected error: \(error)")
            return nil
        }
    }

    /// GRDB throws `DatabaseError(resultCode:)` when FTS5 does not find the
    /// tokenizer: SQLite's message of the code.
    @Test func unknownTokenizer() throws {
        try DatabaseQueue().read { db throws in
            let error = databaseError { _ = try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["no_such_tokenizer"])) }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.extendedResultCode == .SQLITE_ERROR)
            #expect(error?.message == "SQL logic error")
            #expect(error?.sql == nil)
            #expect(error?.description == "SQLite error 1: SQL logic error")
        }
    }

    /// GRDB throws `DatabaseError(resultCode: code, message: "failed
    /// fts5_tokenizer.xCreate")` when the tokenizer refuses its arguments.
    @Test func invalidArguments() throws {
        try DatabaseQueue().read { db throws in
            for components in [
                ["unicode61", "remove_diacritics", "7"],
                ["unicode61", "no_such_option", "1"],
                ["ascii", "separators"],
                ["porter", "no_such_tokenizer"],
                ["trigram", "case_sensitive", "2"],
            ] {
                let error = databaseError { _ = try db.makeTokenizer(FTS5TokenizerDescriptor(components: components)) }
                #expect(error?.resultCode == .SQLITE_ERROR, "\(components)")
                #expect(error?.message == "failed fts5_tokenizer.xCreate", "\(components)")
                #expect(error?.description == "SQLite error 1: failed fts5_tokenizer.xCreate", "\(components)")
            }
        }
    }

    /// A table that names an unknown tokenizer: SQLite's own error.
    @Test func tableWithUnknownTokenizer() throws {
        try DatabaseQueue().write { db throws in
            let error = databaseError {
                try db.create(virtualTable: "memo", using: FTS5()) { t in
                    t.tokenizer = FTS5TokenizerDescriptor(components: ["no_such_tokenizer"])
                    t.column("line")
                }
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "no such tokenizer: no_such_tokenizer")
            #expect(error?.sql == #"CREATE VIRTUAL TABLE "memo" USING fts5(line, tokenize='''no_such_tokenizer''')"#)
            #expect(try !db.tableExists("memo"))

            let invalid = databaseError {
                try db.create(virtualTable: "memo", using: FTS5()) { t in
                    t.tokenizer = .unicode61(diacritics: .keep, categories: "Xx")
                    t.column("line")
                }
            }
            #expect(invalid?.resultCode == .SQLITE_ERROR)
            #expect(invalid?.message == "error in tokenizer constructor")
        }
    }

    /// A table whose tokenizer is registered in the connection that
    /// created it, and not in another one: SQLite's error, when the
    /// other connection uses the table.
    @Test func tokenizerMissingInAnotherConnection() throws {
        let directory = try TemporaryDirectory()
        let path = directory.filePath()
        var config = Configuration()
        config.prepareDatabase { db in db.add(tokenizer: FTS5LatinASCIITokenizer.self) }
        let writer = try DatabaseQueue(path: path, configuration: config)
        try writer.write { db throws in
            try db.create(virtualTable: "memo", using: FTS5()) { t in
                t.tokenizer = FTS5LatinASCIITokenizer.tokenizerDescriptor()
                t.column("line")
            }
            try db.execute(sql: "INSERT INTO memo VALUES ('Großmann')")
        }
        try writer.close()
        let other = try DatabaseQueue(path: path)
        try other.read { db throws in
            let error = databaseError { _ = try Row.fetchAll(db, sql: "SELECT * FROM memo WHERE memo MATCH 'grossmann'") }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "no such tokenizer: \(FTS5LatinASCIITokenizer.name)")
        }
    }

    /// A wrapper that throws a ``DatabaseError`` fails the tokenization and
    /// the statement with the extended code of the error, as in GRDB (which
    /// returns the code to FTS5).
    @Test func databaseErrorsOfWrappers() throws {
        var config = Configuration()
        config.prepareDatabase { db in db.add(tokenizer: VetoTokenizer.self) }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.inDatabase { db throws in
            let tokenizer = try db.makeTokenizer(VetoTokenizer.tokenizerDescriptor())
            #expect(try tokenizer.tokenize(document: "fine words").map(\.token) == ["fine", "words"])
            let error = databaseError { _ = try tokenizer.tokenize(document: "a veto here") }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_CHECK)

            try db.create(virtualTable: "memo", using: FTS5()) { t in
                t.tokenizer = VetoTokenizer.tokenizerDescriptor()
                t.column("line")
            }
            let insertError = databaseError { try db.execute(sql: "INSERT INTO memo VALUES ('a veto here')") }
            #expect(insertError?.extendedResultCode == .SQLITE_CONSTRAINT_CHECK)
            let queryError = databaseError { _ = try Row.fetchAll(db, sql: "SELECT * FROM memo WHERE memo MATCH 'veto'") }
            #expect(queryError?.extendedResultCode == .SQLITE_CONSTRAINT_CHECK)
            // The connection stays usable.
            try db.execute(sql: "INSERT INTO memo VALUES ('fine')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM memo WHERE memo MATCH 'fine'") == 1)
        }
    }
}
