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

    @Test func extendedResultCodesOfBusyLockedAndConstraint() {
        // The values of sqlite3.h (its macros of extended codes are not
        // imported in Swift).
        let codes: [(ResultCode, CInt, ResultCode)] = [
            (.SQLITE_BUSY_RECOVERY, 261, .SQLITE_BUSY),
            (.SQLITE_BUSY_SNAPSHOT, 517, .SQLITE_BUSY),
            (.SQLITE_BUSY_TIMEOUT, 773, .SQLITE_BUSY),
            (.SQLITE_LOCKED_SHAREDCACHE, 262, .SQLITE_LOCKED),
            (.SQLITE_LOCKED_VTAB, 518, .SQLITE_LOCKED),
            (.SQLITE_CONSTRAINT_ROWID, 2579, .SQLITE_CONSTRAINT),
            (.SQLITE_CONSTRAINT_PINNED, 2835, .SQLITE_CONSTRAINT),
            (.SQLITE_CONSTRAINT_DATATYPE, 3091, .SQLITE_CONSTRAINT),
        ]
        for (code, raw, primary) in codes {
            #expect(code.rawValue == raw)
            #expect(code.primaryResultCode == primary)
        }
        #expect(DatabaseError.SQLITE_BUSY_TIMEOUT == .SQLITE_BUSY_TIMEOUT)
        #expect(DatabaseError.SQLITE_CONSTRAINT_DATATYPE == .SQLITE_CONSTRAINT_DATATYPE)
        #expect(DatabaseError.SQLITE_LOCKED_VTAB == .SQLITE_LOCKED_VTAB)
    }

    @Test func strictTablesFailWithConstraintDatatype() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a INTEGER) STRICT")
            #expect {
                try db.execute(sql: "INSERT INTO t VALUES ('x')")
            } throws: { error in
                switch error {
                case DatabaseError.SQLITE_CONSTRAINT_DATATYPE: return true
                default: return false
                }
            }
        }
    }

    @Test func publicInitializerWithPublicStatementArguments() {
        let hidden = DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: "failed", sql: "INSERT", arguments: [1])
        #expect(hidden.description == "SQLite error 19: failed - while executing `INSERT`")
        let shown = DatabaseError(
            resultCode: .SQLITE_CONSTRAINT, message: "failed", sql: "INSERT", arguments: [1],
            publicStatementArguments: true)
        #expect(shown.description == "SQLite error 19: failed - while executing `INSERT` with arguments [1]")
        #expect(hidden.expandedDescription == shown.description)
    }

    @Test func descriptionsShowSQLWithoutTrailingSemicolons() {
        let error = DatabaseError(message: "oops", sql: "UPDATE t SET a = 1;  ")
        #expect(error.sql == "UPDATE t SET a = 1;  ")
        #expect(error.description == "SQLite error 1: oops - while executing `UPDATE t SET a = 1`")
    }

    @Test func interruptionErrors() throws {
        #expect(DatabaseError(resultCode: .SQLITE_INTERRUPT).isInterruptionError)
        #expect(DatabaseError(resultCode: .SQLITE_ABORT).isInterruptionError)
        #expect(DatabaseError(resultCode: .SQLITE_ABORT_ROLLBACK).isInterruptionError)
        #expect(!DatabaseError(resultCode: .SQLITE_BUSY).isInterruptionError)
        #expect(!DatabaseError().isInterruptionError)

        // A statement interrupted by the connection.
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            db.add(function: DatabaseFunction("interruptNow", argumentCount: 0) { [dbQueue] _ in
                dbQueue.interrupt()
                return nil
            })
            #expect {
                try db.execute(sql: "SELECT interruptNow() FROM (SELECT 1 UNION ALL SELECT 2)")
            } throws: { error in
                (error as? DatabaseError)?.isInterruptionError == true
            }
        }
    }
}
