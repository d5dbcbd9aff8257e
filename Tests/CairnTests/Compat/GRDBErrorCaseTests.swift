import Foundation
import Testing
import Cairn

/// An in-memory queue made with `schema`, whose error descriptions show
/// statement arguments when `publicArguments` is true.
func makeErrorCaseQueue(publicArguments: Bool, schema: String) throws -> DatabaseQueue {
    var config = Configuration()
    config.publicStatementArguments = publicArguments
    let dbQueue = try DatabaseQueue(configuration: config)
    try dbQueue.write { db in try db.execute(sql: schema) }
    return dbQueue
}

/// The errors of SQL statements and of their arguments, as GRDB 7.8 throws
/// them: the type, the result codes, the message, the SQL, the arguments
/// and the descriptions that apps log.
@Suite struct GRDBErrorCaseTests {
    /// A queue with an owner table and a table whose rows need an owner.
    func makeQueue(publicArguments: Bool = false) throws -> DatabaseQueue {
        try makeErrorCaseQueue(publicArguments: publicArguments, schema: """
            CREATE TABLE owner (id INTEGER PRIMARY KEY);
            CREATE TABLE dog (ownerId INTEGER NOT NULL REFERENCES owner(id), name TEXT);
            CREATE TABLE strict (a NOT NULL);
            """)
    }

    /// Runs `body` and returns the DatabaseError it throws.
    func databaseError(_ body: () throws -> Void) -> DatabaseError? {
        do {
            try body()
        } catch let error as DatabaseError {
            return error
        } catch {
            Issue.record("not a DatabaseError: \(error)")
        }
        return nil
    }

    let insertDog = "INSERT INTO dog (ownerId, name) VALUES (?, ?)"

    @Test func constraintErrorOfEachWayToRunAStatement() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            let statement = try db.makeStatement(sql: insertDog)
            let errors = [
                databaseError { try db.execute(sql: insertDog, arguments: [7, "Rex"]) },
                databaseError { try statement.execute(arguments: [7, "Rex"]) },
                databaseError {
                    try statement.setArguments([7, "Rex"])
                    try statement.execute()
                },
            ]
            for error in errors {
                let error = try #require(error)
                #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
                #expect(error.extendedResultCode.rawValue == 787)
                #expect(error.resultCode == .SQLITE_CONSTRAINT)
                #expect(error.message == "FOREIGN KEY constraint failed")
                #expect(error.sql == insertDog)
                #expect(error.arguments == [7, "Rex"])
                // Arguments stay out of the description unless they are public.
                #expect(error.description
                    == "SQLite error 19: FOREIGN KEY constraint failed - while executing `\(insertDog)`")
                #expect(error.expandedDescription
                    == "SQLite error 19: FOREIGN KEY constraint failed - while executing `\(insertDog)` with arguments [7, \"Rex\"]")
            }
        }
    }

    @Test func publicArgumentsAreDescribed() throws {
        let dbQueue = try makeQueue(publicArguments: true)
        try dbQueue.write { db throws in
            let positional = try #require(databaseError { try db.execute(sql: insertDog, arguments: [7, "Rex"]) })
            #expect(positional.description
                == "SQLite error 19: FOREIGN KEY constraint failed - while executing `\(insertDog)` with arguments [7, \"Rex\"]")
            #expect(positional.expandedDescription == positional.description)

            let named = try #require(databaseError {
                try db.execute(
                    sql: "INSERT INTO dog (ownerId, name) VALUES (:owner, :name)",
                    arguments: ["owner": 7, "name": "Rex"])
            })
            #expect(named.description.hasSuffix(#"with arguments ["name": "Rex", "owner": 7]"#))

            // Without arguments, nothing follows the SQL.
            let plain = try #require(databaseError { try db.execute(sql: "INSERT INTO strict (a) VALUES (NULL)") })
            #expect(plain.description
                == "SQLite error 19: NOT NULL constraint failed: strict.a - while executing `INSERT INTO strict (a) VALUES (NULL)`")
            #expect(plain.extendedResultCode == .SQLITE_CONSTRAINT_NOTNULL)
        }
    }

    @Test func argumentsDescriptions() {
        let positional: StatementArguments = [1, "foo", nil, 2.5]
        #expect(positional.description == #"[1, "foo", NULL, 2.5]"#)
        let named: StatementArguments = ["score": 1, "name": "foo"]
        #expect(named.description == #"["name": "foo", "score": 1]"#)
        // Named values come first.
        let name: StatementArguments = ["name": "foo"]
        let mixed = name + [1]
        #expect(mixed.description == #"["name": "foo", 1]"#)
        #expect(StatementArguments().description == "[]")
    }

    @Test func resultCodePatterns() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            var caught = ""
            do {
                try db.execute(sql: insertDog, arguments: [7, "Rex"])
            } catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE {
                caught = "unique"
            } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
                caught = "foreign key"
            }
            #expect(caught == "foreign key")

            // A primary code matches its extended codes.
            do {
                try db.execute(sql: "INSERT INTO strict (a) VALUES (NULL)")
            } catch DatabaseError.SQLITE_CONSTRAINT {
                caught = "constraint"
            }
            #expect(caught == "constraint")
        }
        let error = DatabaseError(resultCode: .SQLITE_CONSTRAINT_CHECK)
        #expect(ResultCode.SQLITE_CONSTRAINT ~= error)
        #expect(ResultCode.SQLITE_CONSTRAINT_CHECK ~= error)
        #expect(!(ResultCode.SQLITE_CONSTRAINT_UNIQUE ~= error))
        #expect(!(ResultCode.SQLITE_CONSTRAINT ~= CocoaError(.fileNoSuchFile)))
        // An extended pattern does not match its primary code.
        #expect(!(ResultCode.SQLITE_CONSTRAINT_CHECK ~= DatabaseError(resultCode: .SQLITE_CONSTRAINT)))
    }

    @Test func errorsMadeByHand() {
        let error = DatabaseError()
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.message == "SQL logic error")
        #expect(error.sql == nil)
        #expect(error.arguments == nil)
        #expect(error.description == "SQLite error 1: SQL logic error")
        #expect(DatabaseError(resultCode: .SQLITE_BUSY).message == "database is locked")
        let custom = DatabaseError(resultCode: .SQLITE_CONSTRAINT_CHECK, message: "invalid score", sql: "UPDATE t SET a = ?", arguments: [1])
        #expect(custom.resultCode == .SQLITE_CONSTRAINT)
        #expect(custom.description == "SQLite error 19: invalid score - while executing `UPDATE t SET a = ?`")
        #expect(custom.expandedDescription == "SQLite error 19: invalid score - while executing `UPDATE t SET a = ?` with arguments [1]")
        let public_ = DatabaseError(resultCode: .SQLITE_ERROR, message: "m", sql: "S", arguments: [1], publicStatementArguments: true)
        #expect(public_.description == "SQLite error 1: m - while executing `S` with arguments [1]")

        #expect(DatabaseError(resultCode: .SQLITE_INTERRUPT).isInterruptionError)
        #expect(DatabaseError(resultCode: .SQLITE_ABORT).isInterruptionError)
        #expect(DatabaseError(resultCode: .SQLITE_ABORT_ROLLBACK).isInterruptionError)
        #expect(!DatabaseError(resultCode: .SQLITE_BUSY).isInterruptionError)
        #expect(!DatabaseError().isInterruptionError)
    }

    @Test func statementsThatFailToCompile() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            let missing = try #require(databaseError { _ = try Row.fetchAll(db, sql: "SELECT * FROM missing") })
            #expect(missing.extendedResultCode == .SQLITE_ERROR)
            #expect(missing.message == "no such table: missing")
            #expect(missing.sql == "SELECT * FROM missing")
            #expect(missing.arguments == nil)
            #expect(missing.description == "SQLite error 1: no such table: missing - while executing `SELECT * FROM missing`")

            let syntax = try #require(databaseError { try db.execute(sql: "SELEC 1") })
            #expect(syntax.message == #"near "SELEC": syntax error"#)
            #expect(syntax.sql == "SELEC 1")

            let later = try #require(databaseError { try db.execute(sql: "SELECT 1; SELECT * FROM missing; SELECT 2") })
            #expect(later.message == "no such table: missing")
            #expect(later.sql?.hasPrefix("SELECT * FROM missing") == true)
        }
    }

    @Test func scriptErrorsNameTheirStatement() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            let error = try #require(databaseError {
                try db.execute(sql: """
                    CREATE TABLE cat (name TEXT);
                    INSERT INTO dog (ownerId, name) VALUES (1, 'Rex');
                    SELECT 1
                    """)
            })
            #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            #expect(error.sql == "INSERT INTO dog (ownerId, name) VALUES (1, 'Rex')")
            #expect(error.description
                == "SQLite error 19: FOREIGN KEY constraint failed - while executing `INSERT INTO dog (ownerId, name) VALUES (1, 'Rex')`")
        }
    }

    @Test func argumentsThatDoNotFit() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            let cases: [(String, () throws -> Void, String)] = [
                ("SELECT ?", { try db.execute(sql: "SELECT ?", arguments: [1, 2]) },
                 "wrong number of statement arguments: 2"),
                ("SELECT ?, ?", { _ = try Row.fetchAll(db, sql: "SELECT ?, ?", arguments: [1]) },
                 "wrong number of statement arguments: 1"),
                ("SELECT ?, ?", { try db.makeStatement(sql: "SELECT ?, ?").validateArguments([1]) },
                 "wrong number of statement arguments: 1"),
                ("SELECT :name, :id", { try db.execute(sql: "SELECT :name, :id", arguments: ["id": 1]) },
                 "missing statement argument: name"),
                ("SELECT :a", { try db.makeStatement(sql: "SELECT :a").setArguments([:]) },
                 "wrong number of statement arguments: 0"),
                ("SELECT $a", { try db.makeStatement(sql: "SELECT $a").validateArguments(["b": 1]) },
                 "missing statement argument: a"),
            ]
            for (sql, body, message) in cases {
                let error = try #require(databaseError(body))
                #expect(error.extendedResultCode == .SQLITE_MISUSE)
                #expect(error.message == message)
                #expect(error.sql == sql)
                // GRDB does not attach the arguments that do not fit.
                #expect(error.arguments == nil)
                #expect(error.expandedDescription == "SQLite error 21: \(message) - while executing `\(sql)`")
            }
            // A valid set of arguments passes.
            try db.makeStatement(sql: "SELECT :a, ?").validateArguments(["a": 1] + [2])
        }
    }

    @Test func closedConnections() throws {
        let directory = try TemporaryDirectory()
        for dbReader in [try DatabaseQueue(), try DatabasePool(path: directory.filePath())] as [any DatabaseWriter] {
            try dbReader.close()
            for error in [
                databaseError { try dbReader.read { _ in } },
                databaseError { try dbReader.write { _ in } },
            ] {
                let error = try #require(error)
                #expect(error.extendedResultCode == .SQLITE_MISUSE)
                #expect(error.message == "Connection is closed")
                #expect(error.sql == nil)
                #expect(error.description == "SQLite error 21: Connection is closed")
            }
        }
    }
}
