import Foundation
import Testing
import Cairn

@Suite struct ForeignKeyViolationTests {
    /// A database with a violation: player 1 refers to team 2, which does
    /// not exist.
    func makeDatabase(publicStatementArguments: Bool = false) throws -> DatabaseQueue {
        var config = Configuration()
        config.foreignKeysEnabled = false
        config.publicStatementArguments = publicStatementArguments
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY);
                CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), name TEXT);
                CREATE TABLE award (playerId INTEGER PRIMARY KEY REFERENCES player(id)) WITHOUT ROWID;
                INSERT INTO team VALUES (1);
                INSERT INTO player VALUES (1, 2, 'O''Brien'), (2, 1, 'Arthur');
                INSERT INTO award VALUES (3);
                """)
        }
        return dbQueue
    }

    @Test func violations() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let violations = try Array(db.foreignKeyViolations())
            #expect(violations.count == 2)
            let player = try #require(violations.first { $0.originTable == "player" })
            #expect(player.originRowID == 1)
            #expect(player.destinationTable == "team")
            #expect(try player.foreignKeyId == db.foreignKeys(on: "player")[0].id)
            #expect(player.description == "FOREIGN KEY constraint violation - from player to team, in rowid 1")
            #expect(try player.failureDescription(db) ==
                #"FOREIGN KEY constraint violation - from player(teamId) to team(id), in [id:1 teamId:2 name:"O\'Brien"]"#)

            let award = try #require(violations.first { $0.originTable == "award" })
            #expect(award.originRowID == nil)
            #expect(award.description == "FOREIGN KEY constraint violation - from award to player")
            #expect(try award.failureDescription(db) == "FOREIGN KEY constraint violation - from award(playerId) to player(id)")

            #expect(try Array(db.foreignKeyViolations(in: "team")).isEmpty)
            #expect(try db.foreignKeyViolations(in: "player", in: "main").next()?.originRowID == 1)
        }
    }

    @Test func checkForeignKeysThrowsTheFirstViolation() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect {
                try db.checkForeignKeys(in: "player")
            } throws: { error in
                guard let error = error as? DatabaseError else { return false }
                // Row values are private unless the configuration makes
                // them public.
                return error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY
                    && error.message == "FOREIGN KEY constraint violation - from player(teamId) to team(id), in rowid 1"
            }
            #expect(throws: DatabaseError.self) { try db.checkForeignKeys() }
            try db.checkForeignKeys(in: "team")
        }
        let publicQueue = try makeDatabase(publicStatementArguments: true)
        try publicQueue.read { db throws in
            #expect {
                try db.checkForeignKeys(in: "player")
            } throws: { error in
                (error as? DatabaseError)?.message
                    == #"FOREIGN KEY constraint violation - from player(teamId) to team(id), in [id:1 teamId:2 name:"O\'Brien"]"#
            }
            return
        }
        // A database without violations passes.
        let dbQueue2 = try DatabaseQueue()
        try dbQueue2.read { db throws in try db.checkForeignKeys() }
    }

    @Test func missingTablesAndSchemas() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect {
                try db.foreignKeyViolations(in: "missing")
            } throws: { error in
                (error as? DatabaseError)?.message == "no such table: missing"
            }
            #expect {
                try db.checkForeignKeys(in: "player", in: "nowhere")
            } throws: { error in
                (error as? DatabaseError)?.message == "no such schema: nowhere"
            }
            #expect(throws: DatabaseError.self) { try db.checkForeignKeys(in: "player", in: "temp") }
        }
    }

    @Test func violationsAreRecords() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let row: Row = ["table": "player", "rowid": 3, "parent": "team", "fkid": 0]
            let violation = ForeignKeyViolation(row: row)
            #expect(violation.originTable == "player")
            #expect(violation.originRowID == 3)
            #expect(violation.destinationTable == "team")
            #expect(violation.foreignKeyId == 0)
            // An unexpected row gives neutral values, not a crash.
            let empty = ForeignKeyViolation(row: [:])
            #expect(empty.originTable == "")
            #expect(empty.originRowID == nil)
            // Unknown tables: the plain description.
            #expect(violation.databaseError(db).message == "FOREIGN KEY constraint violation - from player to team, in rowid 3")
        }
    }
}
