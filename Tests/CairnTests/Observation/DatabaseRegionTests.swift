import Foundation
import Testing
import Cairn

@Suite struct DatabaseRegionTests {
    func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INT, teamId INT);
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
                CREATE VIEW named AS SELECT name FROM player;
                """)
        }
        return dbQueue
    }

    @Test func regionsOfStatements() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            func region(_ sql: String) throws -> String {
                try db.makeStatement(sql: sql).databaseRegion.description
            }
            #expect(try region("SELECT name FROM player") == "player(name)")
            #expect(try region("SELECT * FROM player") == "player(id,name,score,teamId)")
            #expect(try region("SELECT COUNT(*) FROM player") == "player(*)")
            #expect(try region("SELECT player.name, team.name FROM player JOIN team ON team.id = player.teamId")
                == "player(name,teamId),team(id,name)")
            let viewRegion = try region("SELECT * FROM named")
            #expect(viewRegion.contains("player(name)"), "\(viewRegion)")
            #expect(try region("SELECT 1") == "empty")
        }
    }

    @Test func regionsOfRequests() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let request = Table("player").select(Column("name")).filter(Column("score") > 10)
            #expect(try request.databaseRegion(db).description == "player(name,score)")
            let sqlRequest = SQLRequest<Row>(sql: "SELECT MAX(score) FROM player")
            #expect(try sqlRequest.databaseRegion(db).description == "player(score)")
            #expect(try Table("team").databaseRegion(db).description == "team(*)")
        }
    }

    @Test func unionAndIntersection() {
        let player = DatabaseRegion(table: "player", columns: ["name"])
        let playerScore = DatabaseRegion(table: "Player", columns: ["score"])
        let team = DatabaseRegion(table: "team")
        #expect(DatabaseRegion().isEmpty)
        #expect(DatabaseRegion.fullDatabase.isFullDatabase)
        #expect(player.union(playerScore).description == "player(name,score)")
        // Column names keep the case they were first given, and compare
        // without regard to it.
        let mixed = DatabaseRegion(table: "player", columns: ["firstName", "FIRSTNAME", "lastName"])
        #expect(mixed.description == "player(firstName,lastName)")
        #expect(mixed == DatabaseRegion(table: "player", columns: ["firstname", "lastname"]))
        #expect(mixed.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["FirstName"])))
        #expect(player.union(team).description == "player(name),team(*)")
        #expect(player.intersection(playerScore).isEmpty)
        #expect(player.union(team).intersection(team).description == "team(*)")
        #expect(player.union(.fullDatabase).isFullDatabase)
        #expect(player.intersection(.fullDatabase) == player)
        let rows = DatabaseRegion(table: "player", rowIDs: [1, 2])
        #expect(rows.intersection(DatabaseRegion(table: "player", rowIDs: [2, 3])).description == "player(*)[2]")
        #expect(rows.union(DatabaseRegion(table: "player")).description == "player(*)")
    }

    @Test func modificationByEvents() {
        let region = DatabaseRegion(table: "player", columns: ["name"])
            .union(DatabaseRegion(table: "team", rowIDs: [1]))
        #expect(region.isModified(byEventsOfKind: .insert(tableName: "player")))
        #expect(region.isModified(byEventsOfKind: .delete(tableName: "PLAYER")))
        #expect(region.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["name", "score"])))
        #expect(!region.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["score"])))
        #expect(!region.isModified(byEventsOfKind: .insert(tableName: "other")))
        #expect(region.isModified(by: DatabaseEvent(kind: .update, rowID: 1, tableName: "team")))
        #expect(!region.isModified(by: DatabaseEvent(kind: .update, rowID: 2, tableName: "team")))
        #expect(region.isModified(by: DatabaseEvent(kind: .insert, rowID: 42, tableName: "player")))
        #expect(DatabaseRegion.fullDatabase.isModified(byEventsOfKind: .insert(tableName: "anything")))
        #expect(!DatabaseRegion().isModified(byEventsOfKind: .insert(tableName: "anything")))
    }

    @Test func equalityIgnoresTheCaseOfNames() {
        #expect(DatabaseRegion(table: "Player") == DatabaseRegion(table: "player"))
        #expect(DatabaseRegion(table: "player", columns: ["Name"]) == DatabaseRegion(table: "PLAYER", columns: ["name"]))
        #expect(Set([DatabaseRegion(table: "Player"), DatabaseRegion(table: "player")]).count == 1)
        #expect(DatabaseRegion(table: "player") != DatabaseRegion(table: "player", columns: ["name"]))
        #expect(DatabaseRegion(table: "player") != DatabaseRegion(table: "team"))
        #expect(DatabaseRegion.fullDatabase == DatabaseRegion.fullDatabase)
        #expect(DatabaseRegion.fullDatabase != DatabaseRegion())
    }

    /// A region tells whether a row change touched it, whatever the ASCII
    /// case of the names of its tables and of the changed table: for whole
    /// tables, and for rows of a table.
    @Test func modificationByRowEventsIgnoresTheCaseOfTableNames() throws {
        let dbQueue = try makeDatabase()
        final class Recorder: TransactionObserver, @unchecked Sendable {
            let region: DatabaseRegion
            var changes: [Bool] = []
            init(region: DatabaseRegion) { self.region = region }
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
            func databaseDidChange(with event: DatabaseEvent) { changes.append(region.isModified(by: event)) }
            func databaseDidCommit(_ db: Database) { }
            func databaseDidRollback(_ db: Database) { }
        }
        let firstPlayer = try dbQueue.read { db in try Table("PLAYER").filter(key: 1).databaseRegion(db) }
        let tables = Recorder(region: DatabaseRegion(table: "PLAYER").union(DatabaseRegion(table: "Team")))
        let row = Recorder(region: firstPlayer)
        dbQueue.add(transactionObserver: tables)
        dbQueue.add(transactionObserver: row)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE other (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            try db.execute(sql: "INSERT INTO Player (id, name) VALUES (2, 'Barbara')")
            try db.execute(sql: "INSERT INTO team (id, name) VALUES (1, 'Red')")
            try db.execute(sql: "INSERT INTO other (id) VALUES (1)")
        }
        #expect(tables.changes == [true, true, true, false])
        #expect(row.changes == [true, false, false, false])
    }
}
