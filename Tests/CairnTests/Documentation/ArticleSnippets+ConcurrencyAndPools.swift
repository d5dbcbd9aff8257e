import Foundation
import Cairn

// The Swift code of Sources/Cairn/Documentation.docc/ConcurrencyAndPools.md,
// block by block, so that it compiles and runs in the tests (ArticleTests
// checks that each block of the article is here, line after line, between
// its markers). Lines that are not in the article only wrap the blocks: a
// namespace for its types, functions for its statements (with the
// `dbQueue` and `dbPool` that the article assumes), and the use of values
// the article leaves unused. The article's "/path/to/database.sqlite" is
// `databasePath` here.
enum ConcurrencyAndPoolsArticle {
    /// The player of the article (a table `player (id, name, score)`).
    struct Player: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
        var score: Int
    }
}

// ConcurrencyAndPools.md block 0
extension ConcurrencyAndPoolsArticle {
    static func block0(databasePath: String) throws -> (dbQueue: DatabaseQueue, count: Int) {
        let dbQueue = try DatabaseQueue(path: databasePath)

        try dbQueue.write { db in
            try db.execute(sql: "UPDATE player SET score = score + 1")
        }
        let count = try dbQueue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0
        }
        return (dbQueue, count)
    }
}
// end of ConcurrencyAndPools.md block 0

// ConcurrencyAndPools.md block 1
extension ConcurrencyAndPoolsArticle {
    static func block1(databasePath: String) throws -> DatabasePool {
        var config = Configuration()
        config.maximumReaderCount = 8
        let dbPool = try DatabasePool(path: databasePath, configuration: config)
        return dbPool
    }
}
// end of ConcurrencyAndPools.md block 1

// ConcurrencyAndPools.md block 2
extension ConcurrencyAndPoolsArticle {
    static func block2(_ reader: some DatabaseReader) throws -> Int {
        func playerCount(_ reader: some DatabaseReader) throws -> Int {
            try reader.read { db in try Player.fetchCount(db) }
        }
        return try playerCount(reader)
    }
}
// end of ConcurrencyAndPools.md block 2

// ConcurrencyAndPools.md block 3
extension ConcurrencyAndPoolsArticle {
    static func block3(_ dbQueue: DatabaseQueue) throws {
        try dbQueue.write { db in
            // Not dbQueue.read { ... } here: use db.
            let count = try Player.fetchCount(db)
            try db.execute(sql: "INSERT INTO log (message) VALUES (?)", arguments: ["\(count) players"])
        }
    }
}
// end of ConcurrencyAndPools.md block 3

// ConcurrencyAndPools.md block 4
extension ConcurrencyAndPoolsArticle {
    static func block4(_ dbPool: DatabasePool) throws -> Int {
        let snapshot = try dbPool.makeSnapshot()
        try dbPool.write { db in
            try db.execute(sql: "DELETE FROM player")
        }
        // The snapshot still sees the players:
        let count = try snapshot.read { db in try Player.fetchCount(db) }
        return count
    }
}
// end of ConcurrencyAndPools.md block 4

// ConcurrencyAndPools.md block 5
extension ConcurrencyAndPoolsArticle {
    static func block5(_ dbPool: DatabasePool) throws -> (snapshotPool: DatabaseSnapshotPool, players: [Player]) {
        let snapshotPool = try dbPool.makeSnapshotPool()

        // From any number of threads or tasks, the same state:
        let players = try snapshotPool.read { db in try Player.fetchAll(db) }
        return (snapshotPool, players)
    }
}
// end of ConcurrencyAndPools.md block 5

// ConcurrencyAndPools.md block 6
extension ConcurrencyAndPoolsArticle {
    static func block6(_ dbPool: DatabasePool) throws -> DatabaseSnapshotPool {
        let snapshotPool = try dbPool.writeWithoutTransaction { db in
            try db.inTransaction {
                try db.execute(sql: "UPDATE player SET score = 0")
                return .commit
            }
            return try DatabaseSnapshotPool(db)   // sees the update
        }
        return snapshotPool
    }
}
// end of ConcurrencyAndPools.md block 6

// ConcurrencyAndPools.md block 7
extension ConcurrencyAndPoolsArticle {
    static func block7(_ writer: some DatabaseWriter) async throws -> [Player] {
        func bestPlayers(_ writer: some DatabaseWriter) async throws -> [Player] {
            try await writer.write { db in
                try db.execute(sql: "DELETE FROM player WHERE score < 0")
            }
            return try await writer.read { db in
                try Player.order(Column("score").desc).limit(10).fetchAll(db)
            }
        }
        return try await bestPlayers(writer)
    }
}
// end of ConcurrencyAndPools.md block 7

// ConcurrencyAndPools.md block 8
extension ConcurrencyAndPoolsArticle {
    static func block8(databasePath: String) throws -> DatabasePool {
        var config = Configuration()
        config.prepareDatabase { db in
            db.add(function: DatabaseFunction("double", argumentCount: 1, pure: true) { values in
                Int.fromDatabaseValue(values[0]).map { $0 * 2 }
            })
        }
        let dbPool = try DatabasePool(path: databasePath, configuration: config)
        return dbPool
    }
}
// end of ConcurrencyAndPools.md block 8
