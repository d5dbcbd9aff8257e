import Foundation
import Testing
import Cairn

/// Rows fetched with associations have GRDB's scopes and prefetched rows:
/// scopes are found breadth-first by records that decode them, prefetched
/// rows of an included association are attached to its scope and to the
/// row itself, and `debugDescription` prints them as GRDB does.
@Suite struct GRDBAssociationScopeTests {
    struct Team: Codable, FetchableRecord, TableRecord, Equatable {
        static let coaches = hasMany(Coach.self)
        static let captain = hasOne(Player.self).forKey("captain")
        var id: Int64
        var name: String
    }
    struct Player: Codable, FetchableRecord, TableRecord, Equatable {
        static let team = belongsTo(Team.self)
        static let badge = hasOne(Badge.self)
        var id: Int64
        var teamId: Int64?
        var name: String
    }
    struct Coach: Codable, FetchableRecord, TableRecord, Equatable {
        var id: Int64
        var teamId: Int64
        var name: String
    }
    struct Badge: Codable, FetchableRecord, TableRecord, Equatable {
        var id: Int64
        var playerId: Int64
        var label: String
    }

    func makeLeague() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team, name TEXT NOT NULL);
                CREATE TABLE coach (id INTEGER PRIMARY KEY, teamId INTEGER NOT NULL REFERENCES team, name TEXT NOT NULL);
                CREATE TABLE badge (id INTEGER PRIMARY KEY, playerId INTEGER NOT NULL REFERENCES player, label TEXT NOT NULL);
                INSERT INTO team VALUES (1, 'Reds'), (2, 'Blues');
                INSERT INTO player VALUES (10, 1, 'Ana'), (11, 2, 'Ben'), (12, NULL, 'Cy');
                INSERT INTO coach VALUES (20, 1, 'Dee'), (21, 1, 'Eli'), (22, 2, 'Flo');
                INSERT INTO badge VALUES (30, 10, 'gold'), (31, 11, 'silver');
                """)
        }
        return dbQueue
    }

    // The rows of the row itself are those of its first scope that has
    // the key, here "red" both in the order of the joins and by name.
    @Test func prefetchedRowsOfScopesArePrintedInTheScopesAndOnTheRow() throws {
        let dbQueue = try makeLeague()
        func team(named name: String) -> BelongsToAssociation<Player, Team> {
            Player.team
                .filter(Column("name") == name)
                .including(all: Team.coaches.filter(Column("name") == "Eli").forKey("eli"))
                .including(all: Team.coaches.filter(Column("name") != "Eli").orderByPrimaryKey().forKey("others"))
        }
        let request = Player
            .including(optional: team(named: "Reds").forKey("red"))
            .including(optional: team(named: "Blues").forKey("sky"))
            .orderByPrimaryKey()
        let rows = try dbQueue.read { try Row.fetchAll($0, request) }
        #expect(rows[0].debugDescription == """
            ▿ [id:10 teamId:1 name:"Ana"]
              unadapted: [id:10 teamId:1 name:"Ana" id:1 name:"Reds" id:NULL name:NULL]
              - red: [id:1 name:"Reds"]
                + eli: 1 row
                + others: 1 row
              - sky: [id:NULL name:NULL]
                + eli: 0 row
                + others: 0 row
              + eli: 1 row
              + others: 1 row
            """)
        #expect(rows[0].prefetchedRows.keys == ["eli", "others"])
        #expect(rows[0].scopes.names == ["red", "sky"])
        #expect(rows[0].scopes["red"]!.prefetchedRows["others"]! == [["id": 20, "teamId": 1, "name": "Dee", "grdb_id": 1]])
        #expect(rows[2].scopes["red"]!.prefetchedRows["eli"]!.isEmpty)
    }

    @Test func nestedScopesAreFoundBreadthFirst() throws {
        let dbQueue = try makeLeague()
        // team -> captain -> badge, and team -> coaches (one of them).
        let request = Team
            .including(required: Team.captain.filter(Column("name") != "Zed").including(required: Player.badge))
            .filter(Column("id") == 1)
        try dbQueue.read { db in
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row.scopes.names == ["captain"])
            #expect(row.scopesTree["badge"] == ["id": 30, "playerId": 10, "label": "gold"])
            #expect(row.scopesTree.names == ["captain", "badge"])

            struct Flat: Decodable, FetchableRecord {
                var team: Team
                var captain: Player
                var badge: Badge
            }
            let flat = try #require(try request.asRequest(of: Flat.self).fetchOne(db))
            #expect(flat.badge.label == "gold")
            #expect(flat.captain.name == "Ana")

            struct Captain: Decodable {
                var captain: Player
                var badge: Badge
            }
            struct Nested: Decodable, FetchableRecord {
                var team: Team
                var captain: Captain
            }
            let nested = try #require(try request.asRequest(of: Nested.self).fetchOne(db))
            #expect(nested.captain.badge.label == "gold")

            struct ByRow: FetchableRecord {
                var badge: Badge
                init(row: Row) throws { badge = try row.decode(Badge.self, forKey: "badge") }
            }
            #expect(try request.asRequest(of: ByRow.self).fetchOne(db)?.badge.id == 30)
        }
    }

    @Test func optionalScopesDecodeAsNil() throws {
        let dbQueue = try makeLeague()
        struct PlayerInfo: Decodable, FetchableRecord {
            var player: Player
            var team: Team?
            var badge: Badge?
        }
        let infos = try dbQueue.read { db in
            try Player
                .including(optional: Player.team)
                .including(optional: Player.badge.filter(Column("label") == "gold"))
                .orderByPrimaryKey()
                .asRequest(of: PlayerInfo.self)
                .fetchAll(db)
        }
        #expect(infos.map(\.team?.name) == ["Reds", "Blues", nil])
        #expect(infos.map(\.badge?.label) == ["gold", nil, nil])
    }

    @Test func prefetchedRowsNestedInARequiredScopeDecode() throws {
        let dbQueue = try makeLeague()
        struct TeamInfo: Decodable {
            var team: Team
            var coaches: [Coach]
        }
        struct Nested: Decodable, FetchableRecord {
            var player: Player
            var team: TeamInfo
        }
        struct Flat: Decodable, FetchableRecord {
            var player: Player
            var team: Team
            var coaches: [Coach]
        }
        let request = Player
            .including(required: Player.team.including(all: Team.coaches.orderByPrimaryKey()))
            .orderByPrimaryKey()
        try dbQueue.read { db in
            let nested = try request.asRequest(of: Nested.self).fetchAll(db)
            #expect(nested.map(\.player.name) == ["Ana", "Ben"])
            #expect(nested.map { $0.team.coaches.map(\.name) } == [["Dee", "Eli"], ["Flo"]])
            let flat = try request.asRequest(of: Flat.self).fetchAll(db)
            #expect(flat.map { $0.coaches.map(\.name) } == [["Dee", "Eli"], ["Flo"]])
        }
    }
}
