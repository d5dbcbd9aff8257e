import Foundation
import Testing
import Cairn

/// Statements as GRDB 7 makes them: their SQL, their columns, and the
/// errors of SQL that holds several statements or none.
@Suite struct GRDBRequestStatementTests {
    func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE pet (id INTEGER PRIMARY KEY, name TEXT NOT NULL, legs INT)")
        }
        return dbQueue
    }

    func databaseError(_ body: () throws -> Void) -> DatabaseError? {
        do {
            try body()
            return nil
        } catch let error as DatabaseError {
            return error
        } catch {
            Issue.record("unexpected error: \(error)")
            return nil
        }
    }

    @Test func sqlOfAStatementIsTrimmed() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            let expected = "INSERT INTO pet (name, legs) VALUES ('Rex', ?)"
            for sql in [
                expected,
                "  \(expected) ; ",
                "\(expected)\r\n",
                "\t\(expected)\t",
                "\n\(expected)\n",
                "\(expected)\u{000C}",
                "\(expected); ; ;",
            ] {
                #expect(try db.makeStatement(sql: sql).sql == expected)
            }
        }
    }

    @Test func statementsWithTrailingSemicolonsRun() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            try db.makeStatement(sql: "INSERT INTO pet (name) VALUES ('a');").execute()
            try db.makeStatement(sql: "INSERT INTO pet (name) VALUES ('b'); ; ;").execute()
            try db.makeStatement(sql: "INSERT INTO pet (name) VALUES ('c');\n \t").execute()
            #expect(try String.fetchAll(db, sql: "SELECT name FROM pet ORDER BY name") == ["a", "b", "c"])
        }
    }

    @Test func sqlWithoutStatements() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            for sql in ["", " ", ";", ";;", " \n;\t; ", "\r\n", "\u{000C}", "-- note", "-- note\n; -- more"] {
                try db.execute(sql: sql)
            }
            let error = try #require(databaseError { try db.execute(sql: "", arguments: [1]) })
            #expect(error.resultCode == .SQLITE_MISUSE)
            #expect(error.message == "wrong number of statement arguments: 1")
            #expect(error.sql == nil)
            #expect(error.description == "SQLite error 21: wrong number of statement arguments: 1")
        }
    }

    @Test func makeStatementRefusesSeveralStatements() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            let message = "Multiple statements found. To execute multiple statements, "
                + "use Database.execute(sql:) or Database.allStatements(sql:) instead."
            let two = "UPDATE pet SET legs = 4; UPDATE pet SET legs = 3;"
            let error = try #require(databaseError { _ = try db.makeStatement(sql: two) })
            #expect(error.resultCode == .SQLITE_MISUSE)
            #expect(error.message == message)
            #expect(error.sql == two)
            #expect(error.description
                == "SQLite error 21: \(message) - while executing `UPDATE pet SET legs = 4; UPDATE pet SET legs = 3`")

            // The second statement is not even compiled.
            let invalid = "UPDATE pet SET legs = 4;z"
            let error2 = try #require(databaseError { _ = try db.makeStatement(sql: invalid) })
            #expect(error2.resultCode == .SQLITE_MISUSE)
            #expect(error2.message == message)
            #expect(error2.sql == invalid)
            #expect(error2.description == "SQLite error 21: \(message) - while executing `\(invalid)`")

            // Cached statements too.
            let error3 = try #require(databaseError { _ = try db.cachedStatement(sql: two) })
            #expect(error3.resultCode == .SQLITE_MISUSE)
            #expect(error3.message == message)
        }
    }

    @Test func compilationErrorsOfStatements() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            let error = try #require(databaseError { _ = try db.makeStatement(sql: "UPDATE nowhere SET id = 12") })
            #expect(error.resultCode == .SQLITE_ERROR)
            #expect(error.message == "no such table: nowhere")
            #expect(error.sql == "UPDATE nowhere SET id = 12")
            #expect(error.description == "SQLite error 1: no such table: nowhere - while executing `UPDATE nowhere SET id = 12`")
        }
    }

    @Test func columnsOfStatements() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            let select = try db.makeStatement(sql: "SELECT id, name AS title, legs + 1 FROM pet")
            #expect(select.columnCount == 3)
            #expect(select.columnNames == ["id", "title", "legs + 1"])
            #expect(select.isReadonly)
            #expect(select.index(ofColumn: "TITLE") == 1)
            #expect(select.index(ofColumn: "missing") == nil)

            let insert = try db.makeStatement(sql: "INSERT INTO pet (name) VALUES (?)")
            #expect(insert.columnCount == 0)
            #expect(insert.columnNames == [])
            #expect(!insert.isReadonly)

            let returning = try db.makeStatement(sql: "DELETE FROM pet RETURNING *")
            #expect(returning.columnNames == ["id", "name", "legs"])
            #expect(!returning.isReadonly)

            let star = try db.makeStatement(sql: "SELECT * FROM pet")
            #expect(star.columnNames == ["id", "name", "legs"])
        }
    }

    @Test func executingASelectStatementStepsAllItsRows() throws {
        let dbQueue = try makeQueue()
        let calls = Locked(0)
        try dbQueue.inDatabase { db throws in
            db.add(function: DatabaseFunction("tick", argumentCount: 0, pure: false) { _ in
                calls.withLock { $0 += 1 }
                return nil
            })
            try db.execute(sql: "SELECT tick() UNION ALL SELECT tick() UNION ALL SELECT tick()")
            try db.makeStatement(sql: "SELECT tick() UNION ALL SELECT tick()").execute()
        }
        #expect(calls.withLock { $0 } == 5)
    }

    @Test func statementArgumentsReplaceEachOther() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "INSERT INTO pet (name, legs) VALUES ('a', 2), ('b', 4), ('c', 8)")
            let positional = try db.makeStatement(sql: "SELECT COUNT(*) FROM pet WHERE legs < ?")
            #expect(try [3, 5, 9].map { try Int.fetchOne(positional, arguments: [$0]) } == [1, 2, 3])
            positional.arguments = [5]
            #expect(try Int.fetchOne(positional) == 2)
            #expect(positional.arguments == [5])

            let named = try db.makeStatement(sql: "SELECT COUNT(*) FROM pet WHERE legs < :max")
            named.arguments = ["max": 3]
            #expect(try Int.fetchOne(named) == 1)
            #expect(try Int.fetchOne(named, arguments: ["max": 100]) == 3)
        }
    }

    @Test func cursorsOfStatements() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            let sql = "INSERT INTO pet (name) VALUES (?); INSERT INTO pet (name) VALUES (?)"
            let statements = try db.allStatements(sql: sql, arguments: ["a", "b"])
            var sqls: [String] = []
            while let statement = try statements.next() {
                sqls.append(statement.sql)
                try statement.execute()
            }
            #expect(sqls == ["INSERT INTO pet (name) VALUES (?)", "INSERT INTO pet (name) VALUES (?)"])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM pet ORDER BY id") == ["a", "b"])

            // Arguments left over once all statements are given.
            let extra = try db.allStatements(sql: sql, arguments: ["c", "d", "e"])
            var error: DatabaseError?
            do {
                while let statement = try extra.next() { try statement.execute() }
            } catch let caught as DatabaseError {
                error = caught
            }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message == "wrong number of statement arguments: 3")
        }
    }
}
