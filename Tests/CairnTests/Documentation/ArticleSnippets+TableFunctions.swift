import Foundation
import Cairn

// The Swift code of Sources/Cairn/Documentation.docc/TableFunctions.md,
// block by block, so that it compiles and runs in the tests (ArticleTests
// checks that each block of the article is here, line after line, between
// its markers). Lines that are not in the article only wrap the blocks: a
// namespace, the `Player` record that the article assumes (on a table
// `player (id, name, score)`), functions for their statements (with the
// `dbQueue` and `dbPool` that the article uses, on tables `log (message)`
// and `document (id, body)`, and the values that it names: `splitWords`,
// `ids`), and what the tests read.
enum TableFunctionsArticle {
    /// The `Player` record of blocks 7 and 8.
    struct Player: Codable, Identifiable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
        var score: Int
    }
}

// TableFunctions.md block 0
extension TableFunctionsArticle {
    static func block0(_ dbQueue: DatabaseQueue) throws -> (splitWords: DatabaseTableFunction, words: [String]) {
        var result: [String] = []
        let splitWords = DatabaseTableFunction(
            "split_words",
            columns: ["word", "position"],
            parameters: ["text"])
        { arguments in
            let text = String.fromDatabaseValue(arguments[0]) ?? ""
            return AnyCursor(text.split(separator: " ").enumerated().lazy.map { index, word in
                [String(word), index + 1]
            })
        }

        try dbQueue.write { db in
            try db.add(tableFunction: splitWords)
            let words = try String.fetchAll(db, sql: """
                SELECT word FROM split_words(?) WHERE position > 1
                """, arguments: ["The quick brown fox"])
            // ["quick", "brown", "fox"]
            result = words
        }
        return (splitWords, result)
    }
}
// end of TableFunctions.md block 0

// TableFunctions.md block 1
extension TableFunctionsArticle {
    static func block1(_ dbQueue: DatabaseQueue) throws -> (numbers: DatabaseTableFunction, sum: Int?, firstValues: [Int]) {
        var result: (sum: Int?, firstValues: [Int]) = (nil, [])
        let numbers = DatabaseTableFunction("numbers", columns: ["value"], parameters: ["count"]) { arguments in
            guard let count = Int.fromDatabaseValue(arguments[0]), count >= 0 else {
                throw DatabaseError(message: "numbers() needs a count of zero or more")
            }
            return AnyCursor((0..<count).lazy.map { [$0] })
        }

        try dbQueue.write { db in
            try db.add(tableFunction: numbers)
            // A million rows, one at a time: 499999500000
            let sum = try Int.fetchOne(db, sql: "SELECT SUM(value) FROM numbers(1000000)")
            // SQLite stops asking after the third row: [0, 1, 2]
            let firstValues = try Int.fetchAll(db, sql: "SELECT value FROM numbers(1000000) LIMIT 3")
            result = (sum, firstValues)
        }
        return (numbers, result.sum, result.firstValues)
    }
}
// end of TableFunctions.md block 1

// TableFunctions.md block 2
extension TableFunctionsArticle {
    /// The values of the query of the comment, with the function
    /// registered on `dbQueue`.
    static func block2(_ dbQueue: DatabaseQueue) throws -> [Int] {
        let fibonacci = DatabaseTableFunction("fibonacci", columns: ["value"]) { _ in
            var (current, next) = (0, 1)
            return AnyCursor {
                let value = current
                (current, next) = (next, current &+ next)
                return [value]
            }
        }
        // SELECT value FROM fibonacci LIMIT 10   -- 0, 1, 1, 2, 3, 5, 8, 13, 21, 34
        return try dbQueue.write { db in
            try db.add(tableFunction: fibonacci)
            return try Int.fetchAll(db, sql: "SELECT value FROM fibonacci LIMIT 10")
        }
    }
}
// end of TableFunctions.md block 2

// TableFunctions.md block 3
extension TableFunctionsArticle {
    /// What the block prints, with `numbers` of block 1 registered on
    /// `dbQueue`.
    static func block3(_ dbQueue: DatabaseQueue) throws -> [String] {
        var printed: [String] = []
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO log (message) VALUES ('import started')")
            do {
                let values = try Int.fetchAll(db, sql: "SELECT value FROM numbers(?)", arguments: [-1])
                print(values)
                printed.append("\(values)")
            } catch let error as DatabaseError {
                print(error.message ?? "")   // numbers() needs a count of zero or more
                printed.append(error.message ?? "")
            }
            // The transaction goes on: both rows commit.
            try db.execute(sql: "INSERT INTO log (message) VALUES ('import done')")
        }

        do {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO log (message) VALUES ('copy started')")
                // The statement writes and fails: the transaction is rolled back.
                try db.execute(sql: "INSERT INTO log (message) SELECT 'value ' || value FROM numbers(?)", arguments: [-1])
            }
        } catch let error as DatabaseError {
            print(error.message ?? "")   // numbers() needs a count of zero or more
            printed.append(error.message ?? "")
            // No row of the block remains, 'copy started' included.
        }
        return printed
    }
}
// end of TableFunctions.md block 3

// TableFunctions.md block 4
extension TableFunctionsArticle {
    static func block4(databasePath: String, splitWords: DatabaseTableFunction) throws -> DatabasePool {
        var config = Configuration()
        config.prepareDatabase { db in
            try db.add(tableFunction: splitWords)
        }
        let dbPool = try DatabasePool(path: databasePath, configuration: config)
        return dbPool
    }
}
// end of TableFunctions.md block 4

// TableFunctions.md block 5
extension TableFunctionsArticle {
    static func block5(_ dbPool: DatabasePool) throws -> [Row] {
        let wordCounts = try dbPool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT document.id, COUNT(*) AS wordCount
                FROM document, split_words(document.body)
                GROUP BY document.id
                ORDER BY document.id
                """)
        }
        return wordCounts
    }
}
// end of TableFunctions.md block 5

// TableFunctions.md block 6
extension TableFunctionsArticle {
    static func block6(_ dbQueue: DatabaseQueue) throws -> (words: [String], count: Int?) {
        var result: (words: [String], count: Int?) = ([], nil)
        try dbQueue.read { db in
            let words = try Table("split_words")
                .filter(Column("text") == "to be or not to be")
                .filter(Column("position") > 3)
                .select(Column("word"), as: String.self)
                .fetchAll(db)   // ["not", "to", "be"]

            let text = "one two three"
            let count = try SQLRequest<Int>(literal: "SELECT COUNT(*) FROM split_words(\(text))").fetchOne(db)   // 3
            result = (words, count)
        }
        return result
    }
}
// end of TableFunctions.md block 6

// TableFunctions.md block 7
extension TableFunctionsArticle {
    static func block7(_ dbQueue: DatabaseQueue, ids: [Int64]) throws -> [Player] {
        let players = try dbQueue.read { db in
            try Player.fetchAll(db, sql: """
                SELECT * FROM player WHERE id IN (SELECT value FROM cairn_values(?))
                """, arguments: [DatabaseValueArray(ids)])
        }
        return players
    }
}
// end of TableFunctions.md block 7

// TableFunctions.md block 8
extension TableFunctionsArticle {
    /// The players and the count of the others, fetched before the
    /// deletion, and the number of players that remain after it.
    static func block8(_ dbQueue: DatabaseQueue) throws -> (players: [Player], others: Int, remaining: Int) {
        var result: (players: [Player], others: Int, remaining: Int) = ([], 0, 0)
        // 50,000 ids: more than the 32,766 parameters of a statement.
        let ids = Array(Int64(1)...50_000)
        try dbQueue.write { db in
            // SELECT * FROM "player" WHERE "id" IN (SELECT +value FROM cairn_values(?))
            let players = try Player.filter(ids: ids).fetchAll(db)
            let others = try Player.filter(!ids.contains(Column("id"))).fetchCount(db)
            try Player.deleteAll(db, keys: ids)
            let remaining = try Player.fetchCount(db)
            result = (players, others, remaining)
        }
        return result
    }
}
// end of TableFunctions.md block 8
