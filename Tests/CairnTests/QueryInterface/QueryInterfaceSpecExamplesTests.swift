import Foundation
import Testing
import Cairn

/// The record and query interface examples of the guides (migration notes,
/// records chapters) that need neither associations nor CTEs.
@Suite struct QueryInterfaceSpecExamplesTests {
    struct Player: Codable, Identifiable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
        var score: Int
        var isActive: Bool

        enum Columns {
            static let id = Column(CodingKeys.id)
            static let name = Column(CodingKeys.name)
            static let score = Column(CodingKeys.score)
            static let isActive = Column(CodingKeys.isActive)
        }
    }

    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
                t.column("isActive", .boolean).notNull()
            }
            try Player(id: 1, name: "Arthur", score: 1000, isActive: true).insert(db)
            try Player(id: 2, name: "O'Brien", score: 500, isActive: false).insert(db)
        }
    }

    func sql(_ request: some FetchRequest) throws -> String {
        try dbQueue.read { db in try request.makePreparedRequest(db, forSingleResult: false).statement.sql }
    }

    @Test func batchUpdatesWithSetTo() throws {
        // try Player.updateAll(db, Column("score").set(to: 0))
        try dbQueue.write { db throws in
            try Player.updateAll(db, Column("score").set(to: 0))
            #expect(try Int.fetchOne(db, sql: "SELECT SUM(score) FROM player") == 0)
        }
    }

    @Test func subqueriesAreNotWrappedInParentheses() throws {
        let maximumScore: SQLRequest<Int> = "SELECT MAX(score) FROM player"
        let bestPlayers: SQLRequest<Player> = "SELECT * FROM player WHERE score = (\(maximumScore))"
        #expect(try sql(bestPlayers) == "SELECT * FROM player WHERE score = (SELECT MAX(score) FROM player)")
        try dbQueue.read { db throws in
            #expect(try bestPlayers.fetchAll(db).map(\.name) == ["Arthur"])
        }
    }

    @Test func buildingSQLLiterals() throws {
        let name = "O'Brien"
        let id = 42
        let query: SQL = "UPDATE player SET name = \(name) WHERE id = \(id)"
        let (sql, arguments) = try dbQueue.read { db throws in
            try query.build(db)
        }
        #expect(sql == "UPDATE player SET name = ? WHERE id = ?")
        #expect(arguments == ["O'Brien", 42])
    }

    @Test func preparedRequests() throws {
        try dbQueue.read { db throws in
            let request = Player.filter(Column("name") == "O'Brien")
            let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
            #expect(statement.sql == #"SELECT * FROM "player" WHERE "name" = ?"#)
            #expect(statement.arguments == ["O'Brien"])
        }
    }

    @Test func columnsOfRecords() throws {
        let request: SQLRequest<Player> = "SELECT \(columnsOf: Player.self) FROM player"
        try dbQueue.read { db throws in
            let players = try request.fetchAll(db)
            #expect(players.count == 2)
        }
        // Qualified by a table alias.
        struct PartialPlayer: TableRecord, FetchableRecord, Decodable {
            static let databaseTableName = "player"
            static var databaseSelection: [any SQLSelectable] { [Column("id"), AllColumns()] }
            var id: Int64
        }
        let qualified: SQLRequest<PartialPlayer> = "SELECT \(columnsOf: PartialPlayer.self, tableAlias: "p") FROM player p"
        try dbQueue.read { db throws -> Void in
            #expect(try qualified.makePreparedRequest(db, forSingleResult: false).statement.sql
                == #"SELECT "p"."id", "p".* FROM player p"#)
            #expect(try qualified.fetchAll(db).count == 2)
        }
    }

    @Test func customFunctionsAreCallable() throws {
        let myFunction = DatabaseFunction("myFunction", argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0])?.uppercased()
        }
        try dbQueue.inDatabase { db throws in
            db.add(function: myFunction)
            let request = Player.select(myFunction(Column("name")), as: String.self).order(Column("id"))
            #expect(try request.fetchAll(db) == ["ARTHUR", "O'BRIEN"])
        }
        #expect(try sql(Player.select(myFunction(Column("name")))) == #"SELECT myFunction("name") FROM "player""#)
    }

    @Test func booleanTests() throws {
        #expect(try sql(Player.filter(Column("isActive") == true)) == #"SELECT * FROM "player" WHERE "isActive" = ?"#)
        #expect(try sql(Player.filter(Column("isActive") == false)) == #"SELECT * FROM "player" WHERE "isActive" = ?"#)
        #expect(try sql(Player.filter(Column("isActive"))) == #"SELECT * FROM "player" WHERE "isActive""#)
        #expect(try sql(Player.filter(!Column("isActive"))) == #"SELECT * FROM "player" WHERE NOT "isActive""#)
        try dbQueue.read { db throws in
            #expect(try Player.filter(Column("isActive") == true).fetchAll(db).map(\.id) == [1])
            #expect(try Player.filter(Column("isActive") == false).fetchAll(db).map(\.id) == [2])
            #expect(try Player.filter(!Column("isActive")).fetchAll(db).map(\.id) == [2])
        }
    }

    @Test func joinedOperatorOnEmptySequences() throws {
        // When the sequence is empty, joined(operator: .and) returns true,
        // and joined(operator: .or) returns false.
        let none: [SQLExpression] = []
        try dbQueue.read { db throws in
            #expect(try Player.filter(none.joined(operator: .and)).fetchCount(db) == 2)
            #expect(try Player.filter(none.joined(operator: .or)).fetchCount(db) == 0)
            // joined(operator: .add) returns 0, and joined(operator: .multiply) returns 1.
            #expect(try Player.select(none.joined(operator: .add), as: Int.self).fetchOne(db) == 0)
            #expect(try Player.select(none.joined(operator: .multiply), as: Int.self).fetchOne(db) == 1)
            // To check inclusion in a Swift sequence, call the contains method:
            #expect(try Player.filter([1, 2, 3].contains(Column("id"))).fetchCount(db) == 2)
            // The SQLite LIKE operator is available as the like method:
            #expect(try Player.filter(Column("name").like("%brien")).fetchCount(db) == 1)
        }
    }

    @Test func recordsByPrimaryKey() throws {
        try dbQueue.read { db throws in
            #expect(try Player.fetchOne(db, id: 1)?.name == "Arthur")
            #expect(try Player.fetchAll(db, ids: [1, 2]).count == 2)
            #expect(try Player.filter { $0.score > 600 }.fetchAll(db).map(\.name) == ["Arthur"])
            #expect(try Player.order { $0.score }.fetchAll(db).map(\.name) == ["O'Brien", "Arthur"])
        }
    }
}
