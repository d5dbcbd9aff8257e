import Foundation
import Cairn

// The Swift code of Sources/Cairn/Documentation.docc/GettingStarted.md,
// block by block, so that it compiles and runs in the tests (ArticleTests
// checks that each block of the article is here, line after line, between
// its markers). Lines that are not in the article only wrap the blocks: a
// namespace for its types, functions for its statements, and the use of
// values the article leaves unused. The article's
// "/path/to/database.sqlite" is `databasePath` here. Block 0 is a
// `Package.swift`.
enum GettingStartedArticle { }

// GettingStarted.md block 1
extension GettingStartedArticle {
    static func block1(databasePath: String) throws -> (dbQueue: DatabaseQueue, memoryQueue: DatabaseQueue) {
        let dbQueue = try DatabaseQueue(path: databasePath)

        // A private in-memory database, handy in tests:
        let memoryQueue = try DatabaseQueue()
        return (dbQueue, memoryQueue)
    }
}
// end of GettingStarted.md block 1

// GettingStarted.md block 2
extension GettingStartedArticle {
    static func block2(_ dbQueue: DatabaseQueue) throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createPlayer") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull().defaults(to: 0)
            }
        }
        try migrator.migrate(dbQueue)
    }
}
// end of GettingStarted.md block 2

// GettingStarted.md block 3
extension GettingStartedArticle {
    static func block3(_ dbQueue: DatabaseQueue) throws -> (names: [String], rows: [Row]) {
        try dbQueue.write { db in
            try db.execute(
                sql: "INSERT INTO player (name, score) VALUES (?, ?)",
                arguments: ["Arthur", 100])

            // Values interpolated in an SQL literal are bound as arguments too:
            let name = "Barbara"
            try db.execute(literal: "INSERT INTO player (name, score) VALUES (\(name), \(250))")
        }

        let names: [String] = try dbQueue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY score DESC")
        }

        let rows = try dbQueue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM player")
        }
        for row in rows {
            let name: String = row["name"]
            let score: Int = row["score"]
            print(name, score)
        }
        return (names, rows)
    }
}
// end of GettingStarted.md block 3

// GettingStarted.md block 4
extension GettingStartedArticle {
    static func block4(_ dbQueue: DatabaseQueue) async throws -> Int {
        func playerCount(in dbQueue: DatabaseQueue) async throws -> Int {
            try await dbQueue.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0
            }
        }
        return try await playerCount(in: dbQueue)
    }
}
// end of GettingStarted.md block 4

// GettingStarted.md block 5
extension GettingStartedArticle {
    struct Player: Codable, FetchableRecord, MutablePersistableRecord {
        var id: Int64?
        var name: String
        var score: Int

        // Store the id that SQLite gives to the inserted row.
        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }

    static func block5(_ dbQueue: DatabaseQueue) throws -> [Player] {
        try dbQueue.write { db in
            var player = Player(id: nil, name: "Cécile", score: 300)
            try player.insert(db)
            player.score += 50
            try player.update(db)
        }

        let bestPlayers = try dbQueue.read { db in
            try Player.order(Column("score").desc).limit(3).fetchAll(db)
        }
        return bestPlayers
    }
}
// end of GettingStarted.md block 5
