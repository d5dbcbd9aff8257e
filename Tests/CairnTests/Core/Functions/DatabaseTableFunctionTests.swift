import Foundation
import Testing
import Cairn

/// Table-valued functions written in Swift: `DatabaseTableFunction`,
/// `Database.add(tableFunction:)` and `remove(tableFunction:)`.
@Suite struct DatabaseTableFunctionTests {
    /// The words of a text, with their positions from 1.
    static let splitWords = DatabaseTableFunction(
        "split_words",
        columns: ["word", "position"],
        parameters: ["text"])
    { arguments in
        let text = String.fromDatabaseValue(arguments[0]) ?? ""
        return AnyCursor(text.split(separator: " ").enumerated().lazy.map { index, word in
            [String(word), index + 1]
        })
    }

    /// The integers from 1 to `count`, counting those produced.
    static func numbers(produced: Locked<Int>) -> DatabaseTableFunction {
        DatabaseTableFunction("numbers", columns: ["value"], parameters: ["count"]) { arguments in
            let count = Int.fromDatabaseValue(arguments[0]) ?? 0
            return AnyCursor((1...max(count, 1)).lazy.prefix(count).map { value in
                produced.withLock { $0 += 1 }
                return [value]
            })
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "the words could not be read" }
    }

    @Test func rowsAreReadWithArgumentsAndConstraints() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.add(tableFunction: DatabaseTableFunctionTests.splitWords)
            let rows = try Row.fetchAll(
                db, sql: "SELECT word, position FROM split_words(?) WHERE position > 1",
                arguments: ["The quick brown fox"])
            #expect(rows == [
                ["word": "quick", "position": 2],
                ["word": "brown", "position": 3],
                ["word": "fox", "position": 4],
            ])
            // The parameter is a hidden column: SELECT * leaves it out, a
            // constraint on it is the argument.
            let all = try Row.fetchAll(db, sql: "SELECT * FROM split_words WHERE text = 'a b'")
            #expect(all == [["word": "a", "position": 1], ["word": "b", "position": 2]])
            #expect(try String.fetchOne(db, sql: "SELECT text FROM split_words('a b') LIMIT 1") == "a b")
            // No argument: NULL, no row.
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM split_words") == 0)
        }
    }

    @Test func theQueryInterfaceAndSQLLiteralsSelectFromIt() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.add(tableFunction: DatabaseTableFunctionTests.splitWords)
            let words = try Table("split_words")
                .filter(Column("text") == "to be or not to be")
                .filter(Column("position") > 3)
                .select(Column("word"), as: String.self)
                .fetchAll(db)
            #expect(words == ["not", "to", "be"])
            let text = "one two"
            let count = try SQLRequest<Int>(literal: "SELECT COUNT(*) FROM split_words(\(text))").fetchOne(db)
            #expect(count == 2)
        }
    }

    @Test func argumentsCanComeFromAnotherTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.add(tableFunction: DatabaseTableFunctionTests.splitWords)
            try db.execute(sql: """
                CREATE TABLE document (id INTEGER PRIMARY KEY, body TEXT);
                INSERT INTO document VALUES (1, 'hello world'), (2, 'goodbye');
                """)
            let rows = try Row.fetchAll(db, sql: """
                SELECT document.id, words.word FROM document, split_words(document.body) AS words
                ORDER BY document.id, words.position
                """)
            #expect(rows == [["id": 1, "word": "hello"], ["id": 1, "word": "world"], ["id": 2, "word": "goodbye"]])
        }
    }

    @Test func rowsAreProducedOnDemand() throws {
        let produced = Locked(0)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            try db.add(tableFunction: DatabaseTableFunctionTests.numbers(produced: produced))
            // A million rows, summed, one at a time.
            let row = try #require(try Row.fetchOne(db, sql: "SELECT COUNT(*), SUM(value) FROM numbers(1000000)"))
            #expect(row[0] as Int == 1_000_000)
            #expect(row[1] as Int == 500_000_500_000)
            #expect(produced.withLock { $0 } == 1_000_000)

            // LIMIT 3 stops the function after three rows.
            produced.withLock { $0 = 0 }
            #expect(try Int.fetchAll(db, sql: "SELECT value FROM numbers(1000000) LIMIT 3") == [1, 2, 3])
            #expect(produced.withLock { $0 } == 3)

            // A cursor: each row is produced when it is read.
            produced.withLock { $0 = 0 }
            let cursor = try Int.fetchCursor(db, sql: "SELECT value FROM numbers(1000000)")
            for expected in 1...10 {
                #expect(try cursor.next() == expected)
                #expect(produced.withLock { $0 } == expected)
            }
        }
    }

    @Test func errorsBecomeErrorsOfTheStatementAndTheTransactionGoesOn() throws {
        let failing = DatabaseTableFunction("failing", columns: ["value"], parameters: ["mode"]) { arguments in
            switch String.fromDatabaseValue(arguments[0]) {
            case "now":
                throw Failure()
            case "database error":
                throw DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: "custom constraint")
            default:
                return AnyCursor([[1], [2, 3]])  // the second row has too many values
            }
        }
        let midway = DatabaseTableFunction("midway", columns: ["value"]) { _ in
            var count = 0
            return AnyCursor {
                count += 1
                if count > 5 { throw Failure() }
                return [count]
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.add(tableFunction: failing)
            try db.add(tableFunction: midway)
            try db.execute(sql: "CREATE TABLE t (a)")
            try db.execute(sql: "INSERT INTO t VALUES (1)")

            let now = #expect(throws: DatabaseError.self) { try Row.fetchAll(db, sql: "SELECT * FROM failing('now')") }
            #expect(now?.message == "the words could not be read")
            #expect(now?.sql == "SELECT * FROM failing('now')")

            let custom = #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, sql: "SELECT * FROM failing('database error')")
            }
            #expect(custom?.resultCode == .SQLITE_CONSTRAINT)
            #expect(custom?.message == "custom constraint")

            let wide = #expect(throws: DatabaseError.self) { try Row.fetchAll(db, sql: "SELECT * FROM failing('x')") }
            #expect(wide?.message?.contains("a row of 2 values for 1 columns") == true)

            let cursor = try Int.fetchCursor(db, sql: "SELECT value FROM midway")
            var read: [Int] = []
            let late = #expect(throws: DatabaseError.self) {
                while let value = try cursor.next() { read.append(value) }
            }
            #expect(read == [1, 2, 3, 4, 5])
            #expect(late?.message == "the words could not be read")

            // The transaction is still open and usable.
            #expect(db.isInsideTransaction)
            try db.execute(sql: "INSERT INTO t VALUES (2)")
        }
        #expect(try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t") } == [1, 2])
    }

    @Test func invalidFunctionsAreRefusedAndTablesAreReadOnly() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let noColumn = DatabaseTableFunction("nothing", columns: []) { _ in AnyCursor([]) }
            let twice = DatabaseTableFunction("twice", columns: ["a"], parameters: ["A"]) { _ in AnyCursor([[1]]) }
            for function in [noColumn, twice] {
                let error = #expect(throws: DatabaseError.self) { try db.add(tableFunction: function) }
                #expect(error?.resultCode == .SQLITE_MISUSE)
            }
            try db.add(tableFunction: DatabaseTableFunctionTests.splitWords)
            let write = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "DELETE FROM split_words")
            }
            #expect(write?.message?.contains("may not be modified") == true)

            // Removed: the table is gone for the statements prepared afterwards.
            db.remove(tableFunction: DatabaseTableFunctionTests.splitWords)
            let removed = #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, sql: "SELECT * FROM split_words('a')")
            }
            #expect(removed?.message?.contains("no such table") == true)
        }
    }

    @Test func everyConnectionOfAPoolCanUseIt() async throws {
        let directory = try TemporaryDirectory()
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.add(tableFunction: DatabaseTableFunctionTests.splitWords) }
        let dbPool = try DatabasePool(path: directory.filePath(), configuration: configuration)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<8 {
                group.addTask {
                    try await dbPool.read { db in
                        let text = Array(repeating: "w", count: index + 1).joined(separator: " ")
                        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM split_words(?)", arguments: [text]) ?? -1
                    }
                }
            }
            var counts: [Int] = []
            for try await count in group { counts.append(count) }
            #expect(counts.sorted() == Array(1...8))
        }
    }
}
