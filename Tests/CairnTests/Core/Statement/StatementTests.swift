import Foundation
import Testing
import Cairn

@Suite struct StatementTests {
    @Test func preparedStatementRunsSeveralTimes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: createPlayerTableSQL)
            let insert = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
            #expect(!insert.isReadonly)
            #expect(insert.sql == "INSERT INTO player (name, score) VALUES (?, ?)")
            try insert.execute(arguments: ["Arthur", 1000])
            try insert.setArguments(["Barbara", 750])
            #expect(insert.arguments == ["Barbara", 750])
            try insert.execute()
            insert.arguments = ["Craig", 500]
            try insert.execute()

            let select = try db.makeStatement(sql: "SELECT id, name AS playerName, score FROM player WHERE score > ?")
            #expect(select.isReadonly)
            #expect(select.columnCount == 3)
            #expect(select.columnNames == ["id", "playerName", "score"])
            #expect(select.index(ofColumn: "PLAYERNAME") == 1)
            #expect(try Row.fetchAll(select, arguments: [600]).map { $0["playerName"] as String } == ["Arthur", "Barbara"])
            #expect(try Row.fetchAll(select, arguments: [900]).map { $0["playerName"] as String } == ["Arthur"])
        }
    }

    @Test func invalidArgumentsKeepPreviousArguments() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            let statement = try db.makeStatement(sql: "SELECT ? + ?")
            try statement.setArguments([1, 2])
            #expect(throws: DatabaseError.self) { try statement.setArguments([1]) }
            #expect(throws: DatabaseError.self) { try statement.validateArguments([1, 2, 3]) }
            try statement.validateArguments([3, 4])
            #expect(statement.arguments == [1, 2])
            #expect(try Int.fetchOne(statement) == 3)
            statement.setUncheckedArguments([5])
            #expect(try Int?.fetchAll(statement) == [nil])
        }
    }

    @Test func failedStatementCanBeReused() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a INT UNIQUE)")
            let insert = try db.makeStatement(sql: "INSERT INTO t (a) VALUES (?)")
            try insert.execute(arguments: [1])
            #expect(throws: DatabaseError.self) { try insert.execute(arguments: [1]) }
            try insert.execute(arguments: [2])
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") == [1, 2])
        }
    }

    @Test func executingASelectStatementSkipsItsRows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            try db.makeStatement(sql: "SELECT 1 UNION ALL SELECT 2").execute()
            try db.execute(sql: "SELECT 1")
        }
    }
}

/// Statements made from SQL literals whose parameters get their values at
/// execution.
@Suite struct LiteralStatementArgumentsTests {
    @Test func literalsWithParametersOfTheirOwn() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws -> Void in
            try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1), (2)")
            let statement = try db.makeStatement(literal: "SELECT a FROM t WHERE a = ?")
            #expect(try Int.fetchAll(statement, arguments: [2]) == [2])
            // Without values, the statement does not run.
            let unbound = try db.makeStatement(literal: "SELECT a FROM t WHERE a = ?")
            #expect(throws: DatabaseError.self) { try Int.fetchAll(unbound) }

            // A cached statement does not reuse the values of a previous
            // use when the literal has none.
            let cached = try db.cachedStatement(literal: "SELECT a FROM t WHERE a = \(1)")
            #expect(try Int.fetchAll(cached) == [1])
            let first = try db.cachedStatement(sql: "SELECT a FROM t WHERE a = ?")
            #expect(try Int.fetchAll(first, arguments: [1]) == [1])
            let again = try db.cachedStatement(literal: "SELECT a FROM t WHERE a = ?")
            #expect(throws: DatabaseError.self) { try Int.fetchAll(again) }
            #expect(try Int.fetchAll(again, arguments: [2]) == [2])

            let insert = try db.makeStatement(literal: "INSERT INTO t VALUES (:a)")
            try insert.execute(arguments: ["a": 3])
            #expect(try Int.fetchOne(db, sql: "SELECT MAX(a) FROM t") == 3)
        }
    }
}
