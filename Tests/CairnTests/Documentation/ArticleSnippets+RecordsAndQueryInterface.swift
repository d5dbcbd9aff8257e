import Foundation
import Cairn

// The Swift code of
// Sources/Cairn/Documentation.docc/RecordsAndQueryInterface.md, block by
// block, so that it compiles and runs in the tests (ArticleTests checks that
// each block of the article is here, line after line, between its markers).
// Lines that are not in the article only wrap the blocks: a namespace for
// its types, functions for its statements, and the use of values the
// article leaves unused.
enum RecordsAndQueryInterfaceArticle { }

// RecordsAndQueryInterface.md block 0
extension RecordsAndQueryInterfaceArticle {
    struct Player: Codable, FetchableRecord, MutablePersistableRecord {
        var id: Int64?
        var name: String
        var score: Int
        var teamId: Int64?

        // The columns, for the query interface.
        enum Columns {
            static let id = Column(CodingKeys.id)
            static let name = Column(CodingKeys.name)
            static let score = Column(CodingKeys.score)
        }

        // Store the auto-incremented id after an insertion.
        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }
}
// end of RecordsAndQueryInterface.md block 0

// RecordsAndQueryInterface.md block 1
extension RecordsAndQueryInterfaceArticle {
    /// Another player type, so that the table name of block 1 does not
    /// apply to the other blocks.
    enum OtherTableName {
        struct Player: Codable, FetchableRecord, MutablePersistableRecord {
            var id: Int64?
            var name: String
        }
    }
}

extension RecordsAndQueryInterfaceArticle.OtherTableName.Player {
    static let databaseTableName = "players"
}
// end of RecordsAndQueryInterface.md block 1

// RecordsAndQueryInterface.md block 2
extension RecordsAndQueryInterfaceArticle {
    struct Team: FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String

        init(id: Int64, name: String) {
            self.id = id
            self.name = name
        }

        init(row: Row) {
            id = row["id"]
            name = row["name"]
        }

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["name"] = name
        }
    }
}
// end of RecordsAndQueryInterface.md block 2

// RecordsAndQueryInterface.md block 3
extension RecordsAndQueryInterfaceArticle {
    static func block3(_ dbQueue: DatabaseQueue) throws -> Player {
        var result: Player?
        try dbQueue.write { db in
            var player = Player(id: nil, name: "Arthur", score: 100, teamId: nil)
            try player.insert(db)        // INSERT INTO "player" ...; player.id is set

            player.score = 150
            try player.update(db)        // UPDATE "player" SET ... WHERE "id"=?

            // Only the columns that changed:
            try player.updateChanges(db) { $0.score += 10 }

            try player.save(db)          // update when the row exists, insert otherwise
            if try player.exists(db) {
                try player.delete(db)    // DELETE FROM "player" WHERE "id"=?
            }
            result = player
        }
        return result!
    }
}
// end of RecordsAndQueryInterface.md block 3

// RecordsAndQueryInterface.md block 4
extension RecordsAndQueryInterfaceArticle {
    static func block4(_ dbQueue: DatabaseQueue) throws -> (player: Player?, players: [Player], sure: Player) {
        var result: (player: Player?, players: [Player], sure: Player)?
        try dbQueue.read { db in
            let player = try Player.fetchOne(db, key: 1)            // Player?
            let players = try Player.fetchAll(db, keys: [1, 2, 3])  // [Player]
            let sure = try Player.find(db, key: 1)                  // throws when missing
            result = (player, players, sure)
        }
        return result!
    }
}
// end of RecordsAndQueryInterface.md block 4

// RecordsAndQueryInterface.md block 5
extension RecordsAndQueryInterfaceArticle {
    struct Block5Result {
        var best: [Player]
        var arthurs: [Player]
        var freeAgents: Int
        var names: [String]
        var maxScore: Int?
    }

    static func block5(_ dbQueue: DatabaseQueue) throws -> Block5Result {
        var result: Block5Result?
        try dbQueue.read { db in
            // SELECT * FROM "player" WHERE "score" > ? ORDER BY "score" DESC LIMIT 10
            let best = try Player
                .filter { $0.score > 1000 }
                .order { $0.score.desc }
                .limit(10)
                .fetchAll(db)

            // Columns can also be named directly:
            let arthurs = try Player.filter(Column("name") == "Arthur").fetchAll(db)

            // SELECT COUNT(*) FROM "player" WHERE "teamId" IS NULL
            let freeAgents = try Player.filter(Column("teamId") == nil).fetchCount(db)

            // Other types than the record:
            let names = try Player.select(Column("name"), as: String.self).fetchAll(db)
            let maxScore = try Player.select(max(Column("score")), as: Int.self).fetchOne(db)
            result = Block5Result(best: best, arthurs: arthurs, freeAgents: freeAgents, names: names, maxScore: maxScore)
        }
        return result!
    }
}
// end of RecordsAndQueryInterface.md block 5

// RecordsAndQueryInterface.md block 6
extension RecordsAndQueryInterfaceArticle {
    static func block6(_ dbQueue: DatabaseQueue) throws {
        try dbQueue.write { db in
            // UPDATE "player" SET "score" = ?
            try Player.updateAll(db, Column("score").set(to: 0))

            // DELETE FROM "player" WHERE "score" < ?
            try Player.filter(Column("score") < 10).deleteAll(db)
        }
    }
}
// end of RecordsAndQueryInterface.md block 6

// RecordsAndQueryInterface.md block 7
extension RecordsAndQueryInterfaceArticle {
    static func block7(_ dbQueue: DatabaseQueue) throws -> (players: [Player], sorted: [Player]) {
        var result: (players: [Player], sorted: [Player])?
        try dbQueue.read { db in
            let players = try Player.fetchAll(
                db,
                sql: "SELECT * FROM player WHERE name LIKE ?",
                arguments: ["A%"])

            let request: SQLRequest<Player> = "SELECT * FROM player ORDER BY score"
            let sorted = try request.fetchAll(db)
            result = (players, sorted)
        }
        return result!
    }
}
// end of RecordsAndQueryInterface.md block 7

// RecordsAndQueryInterface.md block 8
extension RecordsAndQueryInterfaceArticle {
    static func block8(_ dbQueue: DatabaseQueue) throws -> [Row] {
        let rows = try dbQueue.read { db in
            try Table("player").filter(Column("score") > 100).fetchAll(db)
        }
        return rows
    }
}
// end of RecordsAndQueryInterface.md block 8

// RecordsAndQueryInterface.md block 9
extension RecordsAndQueryInterfaceArticle {
    static func block9(_ dbQueue: DatabaseQueue) throws {
        try dbQueue.read { db in
            let players = try Player.fetchCursor(db)
            while let player = try players.next() {
                print(player.name)
            }
        }
    }
}
// end of RecordsAndQueryInterface.md block 9
