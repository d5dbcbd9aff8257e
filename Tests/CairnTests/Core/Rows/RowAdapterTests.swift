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

    /// A value that tells whether it was read from the statement in place
    /// (`StatementColumnConvertible`) or from a database value.
    struct ReadValue: DatabaseValueConvertible, StatementColumnConvertible {
        var int: Int
        var fromStatement: Bool

        init?(sqliteStatement: SQLiteStatement, index: CInt) {
            int = Int(sqlite3_column_int64(sqliteStatement, index))
            fromStatement = true
        }

        init(int: Int) {
            self.int = int
            fromStatement = false
        }

        var databaseValue: DatabaseValue { int.databaseValue }

        static func fromDatabaseValue(_ dbValue: DatabaseValue) -> ReadValue? {
            Int.fromDatabaseValue(dbValue).map(ReadValue.init(int:))
        }
    }

    /// A scope of a cursor row reads its base statement in place, by index
    /// and by column name, with subscripts and with `decode`.
    @Test func scopesOfCursorRowsReadTheStatementInPlace() throws {
        try dbQueue.read { db throws in
            let adapter = ScopeAdapter(["nested": SuffixRowAdapter(fromIndex: 1)])
            let rows = try Row.fetchCursor(db, sql: "SELECT 0 AS skipped, 1 AS int, NULL AS none", adapter: adapter)
            while let row = try rows.next() {
                let nested = try #require(row.scopes["nested"])
                let byIndex: ReadValue = nested[0]
                let byName: ReadValue = nested["int"]
                let optionalByName: ReadValue? = nested["int"]
                let null: ReadValue? = nested["none"]
                #expect(byIndex.int == 1 && byIndex.fromStatement)
                #expect(byName.int == 1 && byName.fromStatement)
                #expect(optionalByName?.int == 1 && optionalByName?.fromStatement == true)
                #expect(null == nil)
                let decodedByIndex = try nested.decode(ReadValue.self, atIndex: 0)
                let decodedByName = try nested.decode(ReadValue.self, forColumn: "int")
                #expect(decodedByIndex.int == 1 && decodedByIndex.fromStatement)
                #expect(decodedByName.int == 1 && decodedByName.fromStatement)
                #expect(throws: RowDecodingError.self) { try nested.decode(ReadValue.self, forColumn: "none") }
            }
            // A copied row converts database values.
            let copied = try #require(try Row.fetchOne(db, sql: "SELECT 0 AS skipped, 1 AS int", adapter: adapter))
            let nested = try #require(copied.scopes["nested"])
            let value: ReadValue = nested["int"]
            #expect(value.int == 1 && !value.fromStatement)
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
            #expect(row.unscoped == ["id": 1, "name": "Arthur"])
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

    struct Pair: Decodable {
        var left: Team?
        var right: Team?
    }

    struct PlayerWithPair: Decodable, FetchableRecord {
        var player: Player
        var pair: Pair?
    }

    @Test func scopesMadeOfScopesArePresentWhenOneOfThemIs() throws {
        // "pair" has no column of its own (EmptyRowAdapter): it decodes as
        // nil only when none of its scopes has a non-null value.
        let adapter = ScopeAdapter([
            "player": RangeRowAdapter(0..<2),
            "pair": ScopeAdapter(base: EmptyRowAdapter(), scopes: [
                "left": RangeRowAdapter(2..<4),
                "right": RangeRowAdapter(4..<6),
            ]),
        ])
        try dbQueue.read { db throws in
            let both = try #require(try PlayerWithPair.fetchOne(db, sql: "SELECT 1 AS id, 'A' AS name, 2 AS id, 'L' AS name, 3 AS id, 'R' AS name", adapter: adapter))
            #expect(both.pair?.left == Team(id: 2, name: "L"))
            #expect(both.pair?.right == Team(id: 3, name: "R"))
            let left = try #require(try PlayerWithPair.fetchOne(db, sql: "SELECT 1 AS id, 'A' AS name, 2 AS id, 'L' AS name, NULL AS id, NULL AS name", adapter: adapter))
            #expect(left.pair?.left == Team(id: 2, name: "L"))
            #expect(left.pair != nil && left.pair?.right == nil)
            let none = try #require(try PlayerWithPair.fetchOne(db, sql: "SELECT 1 AS id, 'A' AS name, NULL AS id, NULL AS name, NULL AS id, NULL AS name", adapter: adapter))
            #expect(none.pair == nil)

            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS id, 'A' AS name, NULL AS id, NULL AS name, 3 AS id, 'R' AS name", adapter: adapter))
            let pairRow = try #require(row.scopes["pair"])
            #expect(pairRow.isEmpty)
            #expect(pairRow.containsNonNullValue)
            let emptyPair = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS id, 'A' AS name, NULL AS id, NULL AS name, NULL AS id, NULL AS name", adapter: adapter)?.scopes["pair"])
            #expect(!emptyPair.containsNonNullValue)
        }
    }

    @Test func scopesTakePartInEquality() throws {
        try dbQueue.read { db throws in
            let sql = "SELECT 0 AS a, 1 AS b, 2 AS c"
            let plain = try #require(try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(0..<3)))
            let scoped = try #require(try Row.fetchOne(db, sql: sql, adapter: ScopeAdapter(base: RangeRowAdapter(0..<3), scopes: ["sub": RangeRowAdapter(1..<3)])))
            let sameScope = try #require(try Row.fetchOne(db, sql: sql, adapter: ScopeAdapter(base: RangeRowAdapter(0..<3), scopes: ["sub": ColumnMapping(["b": "b", "c": "c"])])))
            let otherScope = try #require(try Row.fetchOne(db, sql: sql, adapter: ScopeAdapter(base: RangeRowAdapter(0..<3), scopes: ["sub": RangeRowAdapter(0..<2)])))
            let otherName = try #require(try Row.fetchOne(db, sql: sql, adapter: ScopeAdapter(base: RangeRowAdapter(0..<3), scopes: ["other": RangeRowAdapter(1..<3)])))
            #expect(scoped != plain)
            #expect(scoped.unscoped == plain)
            #expect(scoped == sameScope)
            #expect(scoped != otherScope)
            #expect(scoped != otherName)
            #expect(scoped.hashValue == sameScope.hashValue)
        }
    }
}
