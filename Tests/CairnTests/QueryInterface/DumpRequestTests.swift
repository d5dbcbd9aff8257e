import Foundation
import Testing
import Cairn

/// `Database.dumpRequest(_:format:to:)`: the rows of requests, with their
/// joined and prefetched rows.
@Suite struct DumpRequestTests {
    struct Team: Codable, FetchableRecord, PersistableRecord {
        static let players = hasMany(Player.self)
        var id: String
        var name: String
    }

    struct Player: Codable, FetchableRecord, PersistableRecord {
        static let team = belongsTo(Team.self)
        static let awards = hasMany(Award.self)
        var id: Int64
        var teamId: String?
        var name: String
    }

    struct Award: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var playerId: Int64
        var title: String
    }

    func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE team (id TEXT PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE player (id INTEGER PRIMARY KEY, teamId TEXT REFERENCES team(id), name TEXT NOT NULL);
                CREATE TABLE award (id INTEGER PRIMARY KEY, playerId INTEGER NOT NULL REFERENCES player(id), title TEXT NOT NULL);
                INSERT INTO team VALUES ('RED', 'Red'), ('BLUE', 'Blue'), ('GREEN', 'Green');
                INSERT INTO player VALUES (1, 'RED', 'Arthur'), (2, NULL, 'Barbara'), (3, 'BLUE', 'Craig'), (4, 'RED', 'David');
                INSERT INTO award VALUES (1, 3, 'MVP'), (2, 1, 'Rookie'), (3, 3, 'Top scorer');
                """)
        }
        return dbQueue
    }

    func dump(_ request: some FetchRequest, format: some DumpFormat = .debug()) throws -> String {
        let output = DumpOutput()
        try makeQueue().read { db in
            try db.dumpRequest(request, format: format, to: output)
        }
        return output.text
    }

    @Test func plainRequests() throws {
        #expect(try dump(Player.orderByPrimaryKey().filter(Column("teamId") == "RED")) == "1|RED|Arthur\n4|RED|David\n")
        #expect(try dump(Player.select(Column("name")).order(Column("name").desc), format: .json()) == """
            [{"name":"David"},
            {"name":"Craig"},
            {"name":"Barbara"},
            {"name":"Arthur"}]

            """)
        let sqlRequest: SQLRequest<Row> = "SELECT name FROM team WHERE id = \("BLUE")"
        #expect(try dump(sqlRequest) == "Blue\n")
        #expect(try dump(Player.none()) == "")
    }

    @Test func joinedRowsArePrintedWithTheirColumns() throws {
        let request = Player.orderByPrimaryKey().including(required: Player.team)
        #expect(try dump(request) == "1|RED|Arthur|RED|Red\n3|BLUE|Craig|BLUE|Blue\n4|RED|David|RED|Red\n")
        #expect(try dump(request.limit(1), format: .json()) == #"[{"id":1,"teamId":"RED","name":"Arthur","id":"RED","name":"Red"}]"# + "\n")
    }

    @Test func prefetchedRowsFollowTheirKey() throws {
        let request = Team.orderByPrimaryKey().including(all: Team.players.orderByPrimaryKey())
        // The columns that match prefetched rows with their parents are
        // not printed.
        #expect(try dump(request) == """
            BLUE|Blue
            GREEN|Green
            RED|Red

            players
            1|RED|Arthur
            3|BLUE|Craig
            4|RED|David

            """)
    }

    @Test func nestedPrefetchedRowsFollowTheirKeyPath() throws {
        let request = Team
            .filter(Column("id") != "GREEN")
            .orderByPrimaryKey()
            .including(all: Team.players.orderByPrimaryKey().including(all: Player.awards.orderByPrimaryKey()))
        #expect(try dump(request, format: .quote()) == """
            'BLUE','Blue'
            'RED','Red'

            players
            1,'RED','Arthur'
            3,'BLUE','Craig'
            4,'RED','David'

            players.awards
            1,3,'MVP'
            2,1,'Rookie'
            3,3,'Top scorer'

            """)
    }

    @Test func prefetchedRowsThroughAJoinedTable() throws {
        let request = Player
            .filter(Column("id") == 3)
            .including(required: Player.team.including(all: Team.players.orderByPrimaryKey()))
        #expect(try dump(request) == """
            3|BLUE|Craig|BLUE|Blue

            team.players
            3|BLUE|Craig

            """)
    }

    @Test func noParentNoPrefetchedRows() throws {
        let request = Team.filter(Column("id") == "NONE").including(all: Team.players)
        #expect(try dump(request) == "")
        #expect(try dump(request, format: .json()) == "[]\n")
    }

    @Test func adaptedRequestsPrintTheRawColumns() throws {
        let request = Player.orderByPrimaryKey().filter(Column("id") < 3).adapted { _ in SuffixRowAdapter(fromIndex: 2) }
        #expect(try dump(request) == "1|RED|Arthur\n2||Barbara\n")
    }
}
