import Foundation
import Testing
import Cairn

@Suite struct DatabaseErrorTests {
    func makeDatabase(_ configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
                CREATE TABLE pet (masterId INTEGER NOT NULL REFERENCES player(id), name TEXT);
                """)
        }
        return dbQueue
    }

    @Test func foreignKeyViolation() throws {
        let dbQueue = try makeDatabase()
        do {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO pet (masterId, name) VALUES (?, ?)", arguments: [1, "Bobby"])
            }
            Issue.record("Expected an error")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_CONSTRAINT)
            #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            #expect(error.message == "FOREIGN KEY constraint failed")
            #expect(error.sql == "INSERT INTO pet (masterId, name) VALUES (?, ?)")
            #expect(error.arguments == [1, "Bobby"])
            // Arguments are hidden from the description by default.
            #expect(error.description == "SQLite error 19: FOREIGN KEY constraint failed - while executing `INSERT INTO pet (masterId, name) VALUES (?, ?)`")
            #expect(error.expandedDescription.hasSuffix("with arguments [1, \"Bobby\"]"))
        }
    }

    @Test func publicStatementArgumentsShowInDescription() throws {
        var config = Configuration()
        config.publicStatementArguments = true
        let dbQueue = try makeDatabase(config)
        #expect {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO pet (masterId, name) VALUES (?, ?)", arguments: [1, "Bobby"])
            }
        } throws: { error in
            String(describing: error).hasSuffix("with arguments [1, \"Bobby\"]")
        }
    }

    @Test func matchingResultCodes() throws {
        let dbQueue = try makeDatabase()
        func insertDuplicate() throws {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur'), ('Arthur')")
            }
        }
        do {
            try insertDuplicate()
        } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
            Issue.record("Wrong extended code")
        } catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE {
            // expected
        } catch {
            Issue.record("Unexpected \(error)")
        }
        do {
            try insertDuplicate()
        } catch DatabaseError.SQLITE_CONSTRAINT {
            // A primary code matches its extended codes.
        } catch {
            Issue.record("Unexpected \(error)")
        }
        do {
            try insertDuplicate()
        } catch let error as DatabaseError {
            switch error.extendedResultCode {
            case .SQLITE_CONSTRAINT_FOREIGNKEY: Issue.record("Wrong extended code")
            case .SQLITE_CONSTRAINT: break // matches SQLITE_CONSTRAINT_UNIQUE
            default: Issue.record("Unexpected \(error)")
            }
        }
        #expect(ResultCode.SQLITE_CONSTRAINT ~= ResultCode.SQLITE_CONSTRAINT_UNIQUE)
        #expect(!(ResultCode.SQLITE_CONSTRAINT_UNIQUE ~= ResultCode.SQLITE_CONSTRAINT))
        #expect(ResultCode.SQLITE_CONSTRAINT_UNIQUE.primaryResultCode == .SQLITE_CONSTRAINT)
        #expect(ResultCode.SQLITE_BUSY.description == "5 (database is locked)")
    }

    @Test func customErrors() {
        let error = DatabaseError(resultCode: .SQLITE_CONSTRAINT_CHECK, message: "too large")
        #expect(error.resultCode == .SQLITE_CONSTRAINT)
        // The description shows the primary result code.
        #expect(error.description == "SQLite error 19: too large")
        #expect(error.extendedResultCode.rawValue == 275)
        #expect(DatabaseError().message == "SQL logic error")
        let nsError = error as NSError
        #expect(nsError.domain == "Cairn.DatabaseError")
        #expect(nsError.code == 275)
    }
}
