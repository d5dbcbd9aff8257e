import Foundation
import Testing
import Cairn

@Suite struct RowAdapterTests {
    let dbQueue: DatabaseQueue
    let sql = "SELECT 1 AS id, 'Arthur' AS name, 10 AS teamId, 'Red' AS name, 'x' AS extra"

    init() throws {
        dbQueue = try DatabaseQueue()
    }

    @Test func rangeSuffixMappingRename() throws {
        try dbQueue.read { db throws in
            let range = try #require(try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(2..<4)))
            #expect(range.columnNames == ["teamId", "name"])
            #expect(range["name"] as String == "Red")
            let closed = try #require(try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(0...1)))
            #expect(closed == ["id": 1, "name": "Arthur"])
            let suffix = try #require(try Row.fetchOne(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 3)))
            #expect(suffix == ["name": "Red", "extra": "x"])
            let mapping = try #require(try Row.fetchOne(db, sql: sql, adapter: ColumnMapping(["playerId": "id", "team": "teamId"])))
            #expect(mapping == ["playerId": 1, "team": 10])
            let renamed = try #require(try Row.fetchOne(db, sql: sql, adapter: RenameColumnAdapter { $0.uppercased() }))
            #expect(renamed.columnNames == ["ID", "NAME", "TEAMID", "NAME", "EXTRA"])
            let empty = try #require(try Row.fetchOne(db, sql: sql, adapter: EmptyRowAdapter()))
            #expect(empty.isEmpty)
            #expect(empty.unadapted.count == 5)
            // Values are read from the first column of the adapted row.
            #expect(try Int.fetchOne(db, sql: "SELECT NULL, 2", adapter: SuffixRowAdapter(fromIndex: 1)) == 2)
            #expect(try Int.fetchOne(db, sql: "SELECT 1, NULL", adapter: SuffixRowAdapter(fromIndex: 1)) == nil)
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT NULL, 2", adapter: SuffixRowAdapter(fromIndex: 1)) == 2.databaseValue)
            #expect(throws: DatabaseError.self) { try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(3..<10)) }
            #expect(throws: DatabaseError.self) { try Row.fetchOne(db, sql: sql, adapter: ColumnMapping(["a": "missing"])) }
        }
    }

    struct Player: Decodable, FetchableRecord, Equatable {
        var id: Int
        var name: String
    }

    struct Team: Decodable, FetchableRecord, Equatable {
        var id: Int
        var name: String
    }

    @Test func scopesSplitJoinedRows() throws {
        try dbQueue.read { db throws in
            let adapters = splittingRowAdapters(columnCounts: [2, 2])
            #expect(adapters.count == 3)
            let adapter = ScopeAdapter(base: adapters[0], scopes: [
                "team": ScopeAdapter(base: ColumnMapping(["id": "teamId", "name": "name"]), scopes: [:]),
                "rest": adapters[2],
            ])
            let rows = try Row.fetchCursor(db, sql: sql, adapter: ScopeAdapter(base: adapters[0], scopes: ["team": adapters[1], "rest": adapters[2]]))
            let row = try #require(try rows.next())
            #expect(row == ["id": 1, "name": "Arthur"])
            #expect(row.scopes.names == ["rest", "team"])
            let teamRow = try #require(row.scopes["team"])
            #expect(teamRow == ["teamId": 10, "name": "Red"])
            #expect(row.scopes["rest"] == ["extra": "x"])
            #expect(row.scopes["missing"] == nil)
            #expect(try Player(row: row) == Player(id: 1, name: "Arthur"))
            // A copy keeps the scopes.
            let copy = row.copy()
            #expect(copy.scopes["team"] == ["teamId": 10, "name": "Red"])
            _ = adapter

            let players = try Player.fetchAll(db, sql: sql, adapter: RangeRowAdapter(0..<2))
            #expect(players == [Player(id: 1, name: "Arthur")])
            let teamNames = try String.fetchAll(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 3))
            #expect(teamNames == ["Red"])
            let request = SQLRequest<Player>(sql: sql, adapter: RangeRowAdapter(0..<2))
            #expect(try request.fetchOne(db) == Player(id: 1, name: "Arthur"))
        }
    }
}
