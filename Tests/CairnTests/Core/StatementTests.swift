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
