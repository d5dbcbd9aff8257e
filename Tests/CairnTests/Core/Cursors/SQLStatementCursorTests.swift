import Foundation
import Testing
import Cairn

@Suite struct SQLStatementCursorTests {
    @Test func statementsArePreparedOneAfterTheOther() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            // The INSERT cannot be prepared before the table exists.
            let statements = try db.allStatements(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
                -- a comment
                INSERT INTO player (name) VALUES ('Arthur');;
                SELECT name FROM player;
                """)
            var sqls: [String] = []
            var names: [String] = []
            while let statement = try statements.next() {
                sqls.append(statement.sql)
                if statement.columnCount > 0 {
                    names += try String.fetchAll(statement)
                } else {
                    try statement.execute()
                }
            }
            #expect(sqls == [
                "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)",
                "-- a comment\nINSERT INTO player (name) VALUES ('Arthur')",
                "SELECT name FROM player",
            ])
            #expect(names == ["Arthur"])
            // Exhausted: nil again.
            #expect(try statements.next() == nil)
        }
    }

    @Test func argumentsAreConsumedStatementAfterStatement() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE player (name TEXT, score INT)")
            let statements = try db.allStatements(sql: """
                INSERT INTO player (name, score) VALUES (?, :score);
                INSERT INTO player (name, score) VALUES (?, :score)
                """, arguments: ["Arthur", "Barbara"] + ["score": 10])
            var arguments: [StatementArguments] = []
            while let statement = try statements.next() {
                arguments.append(statement.arguments)
                try statement.execute()
            }
            #expect(arguments == [["Arthur", 10], ["Barbara", 10]])
            let rows = try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY name")
            #expect(rows == [["name": "Arthur", "score": 10], ["name": "Barbara", "score": 10]])
        }
    }

    @Test func unusedArgumentsThrowAtTheEnd() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            let statements = try db.allStatements(sql: "INSERT INTO t VALUES (?)", arguments: [1, 2])
            let statement = try #require(try statements.next())
            try statement.execute()
            #expect {
                try statements.next()
            } throws: { error in
                guard let error = error as? DatabaseError else { return false }
                return error.resultCode == .SQLITE_MISUSE
                    && error.message == "wrong number of statement arguments: 2"
            }
            // The cursor is done after it threw.
            #expect(try statements.next() == nil)
        }
    }

    @Test func missingArgumentsThrow() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            let statements = try db.allStatements(sql: """
                INSERT INTO t VALUES (?);
                INSERT INTO t VALUES (?)
                """, arguments: [1])
            try #require(try statements.next()).execute()
            #expect(throws: DatabaseError.self) { try statements.next() }
            #expect(try statements.next() == nil)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 1)
        }
    }

    @Test func withoutArgumentsStatementsGetTheirsWhenTheyRun() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            let statements = try db.allStatements(sql: "INSERT INTO t VALUES (?); INSERT INTO t VALUES (?)")
            var value = 1
            while let statement = try statements.next() {
                try statement.execute(arguments: [value])
                value += 1
            }
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") == [1, 2])
        }
    }

    @Test func literals() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE player (name TEXT)")
            let statements = try db.allStatements(literal: """
                INSERT INTO player (name) VALUES (\("Arthur"));
                INSERT INTO player (name) VALUES (\("O'Brien"));
                """)
            var sqls: [String] = []
            while let statement = try statements.next() {
                sqls.append(statement.sql)
                try statement.execute()
            }
            #expect(sqls == ["INSERT INTO player (name) VALUES (?)", "INSERT INTO player (name) VALUES (?)"])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY name") == ["Arthur", "O'Brien"])

            // A literal without values: the statements get their arguments
            // when they run.
            let counts = try db.allStatements(literal: """
                SELECT COUNT(*) FROM player WHERE name < ?;
                SELECT COUNT(*) FROM player WHERE name > ?;
                """)
            var results: [Int?] = []
            while let statement = try counts.next() {
                results.append(try Int.fetchOne(statement, arguments: ["B"]))
            }
            #expect(results == [1, 1])
        }
    }

    @Test func invalidStatementsThrowWhenTheCursorReachesThem() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            let statements = try db.allStatements(sql: "SELECT 1; SELECT * FROM missing; SELECT 2")
            #expect(try statements.next()?.sql == "SELECT 1")
            #expect {
                try statements.next()
            } throws: { error in
                (error as? DatabaseError)?.message == "no such table: missing"
            }
            #expect(try statements.next() == nil)
        }
    }

    @Test func makeStatementTellsToUseAllStatements() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            for sql in ["UPDATE t SET a = 1; UPDATE t SET a = 2;", "UPDATE t SET a = 1;x"] {
                #expect {
                    try db.makeStatement(sql: sql)
                } throws: { error in
                    guard let error = error as? DatabaseError else { return false }
                    return error.resultCode == .SQLITE_MISUSE
                        && error.message == "Multiple statements found. To execute multiple statements, "
                            + "use Database.execute(sql:) or Database.allStatements(sql:) instead."
                        && error.sql == sql
                }
            }
        }
    }
}
