import Foundation
import Testing
import Cairn

/// The SQL that Cairn writes for requests and records is cached apart from
/// the user's statements, and bounded: a long-lived connection that
/// prefetches for many different numbers of parents keeps a bounded number
/// of prepared statements.
@Suite struct GeneratedStatementCacheTests {
    struct Team: TableRecord, FetchableRecord, Decodable {
        static let players = hasMany(Player.self)
        var id: Int64
    }

    struct Player: TableRecord, FetchableRecord, PersistableRecord, Codable {
        var id: Int64
        var teamId: Int64
    }

    struct TeamInfo: FetchableRecord, Decodable {
        var team: Team
        var players: [Player]
    }

    func makeQueue(implicitCapacity: Int = 64) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.implicitStatementCacheCapacity = implicitCapacity
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY);
                CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id));
                """)
        }
        return dbQueue
    }

    @Test func prefetchesOfManyKeyCountsKeepABoundedNumberOfStatements() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            for count in 1...200 {
                try db.execute(sql: "INSERT INTO team (id) VALUES (?)", arguments: [count])
                try Player(id: Int64(count), teamId: Int64(count)).insert(db)
                // One prefetch query of `count` keys.
                let infos = try Team.including(all: Team.players).asRequest(of: TeamInfo.self).fetchAll(db)
                #expect(infos.count == count)
                #expect(infos.allSatisfy { $0.players.map(\.teamId) == [$0.team.id] })
            }
            let prefetches = preparedSQL(db).filter { $0.contains("grdb_teamId") }
            #expect(prefetches.count > 64)
            #expect(prefetches.count <= 128)
            // The most recent one is still cached: the next prefetch of
            // 200 parents reuses it.
            #expect(prefetches.contains { $0.components(separatedBy: "?").count == 201 })
        }
    }

    @Test func userStatementsDoNotEvictGeneratedOnes() throws {
        // A small capacity for the user's SQL strings.
        let dbQueue = try makeQueue(implicitCapacity: 2)
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "INSERT INTO team (id) VALUES (1)")
            try Player(id: 1, teamId: 1).insert(db)
            try Player(id: 1, teamId: 1).update(db)
            #expect(try Player.exists(db, key: 1))
            // The INSERT and UPDATE of the record.
            let generatedBefore = preparedSQL(db).filter {
                $0.hasPrefix(#"INSERT INTO "player""#) || $0.hasPrefix(#"UPDATE "player""#)
            }
            #expect(generatedBefore.count == 2)
            for value in 0..<20 {
                _ = try Int.fetchOne(db, sql: "SELECT \(value)")
            }
            let prepared = preparedSQL(db)
            // The generated statements stay; the user's strings are bounded
            // by their own capacity.
            #expect(generatedBefore.allSatisfy { prepared.contains($0) })
            #expect(prepared.filter { $0.hasPrefix("SELECT ") && !$0.contains("player") }.count <= 2)
        }
    }

    @Test func clearStatementCacheFinalizesGeneratedStatements() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "INSERT INTO team (id) VALUES (1)")
            try Player(id: 1, teamId: 1).insert(db)
            #expect(try Player.exists(db, key: 1))
            #expect(preparedSQL(db).contains { $0.contains(#""player""#) })
            db.clearStatementCache()
            #expect(!preparedSQL(db).contains { $0.contains(#""player""#) })
            // And they are prepared again when needed.
            try Player(id: 2, teamId: 1).insert(db)
            #expect(try Player.exists(db, key: 2))
        }
    }
}
