import Foundation
import Testing
import Cairn

@Suite struct TraceTests {
    @Test func statementTraceHidesArgumentsByDefault() throws {
        let events = Locked<[String]>([])
        var config = Configuration()
        config.prepareDatabase { db in
            db.trace { event in events.withLock { $0.append(event.description) } }
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t(a)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["secret"])
        }
        let traced = events.withLock { $0 }
        #expect(traced.contains("INSERT INTO t VALUES (?)"))
        #expect(!traced.contains { $0.contains("secret") })
    }

    @Test func expandedSQLAndDescriptionWhenArgumentsArePublic() throws {
        let events = Locked<[Database.TraceEvent]>([])
        var config = Configuration()
        config.publicStatementArguments = true
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.inDatabase { db throws in
            db.trace { event in events.withLock { $0.append(event) } }
            try db.execute(sql: "SELECT ?", arguments: ["O'Brien"])
            db.trace(nil)
            try db.execute(sql: "SELECT 2")
        }
        let traced = events.withLock { $0 }
        #expect(traced.map(\.description) == ["SELECT 'O''Brien'"])
        #expect(traced.map(\.expandedDescription) == ["SELECT 'O''Brien'"])
        guard case .statement(let statement) = traced.first else {
            Issue.record("expected a statement event")
            return
        }
        #expect(statement.sql == "SELECT ?")
        #expect(statement.expandedSQL == "SELECT 'O''Brien'")
    }

    /// Without public arguments, descriptions hide the values, and the
    /// explicitly expanded forms show them.
    @Test func expandedFormsShowArgumentsWhateverTheConfiguration() throws {
        let events = Locked<[Database.TraceEvent]>([])
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t(a)")
            db.trace(options: [.statement, .profile]) { event in events.withLock { $0.append(event) } }
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [1])
            try db.execute(sql: "SELECT a FROM t")
        }
        let traced = events.withLock { $0 }
        #expect(traced.count == 4)
        #expect(traced[0].description == "INSERT INTO t VALUES (?)")
        #expect(traced[0].expandedDescription == "INSERT INTO t VALUES (1)")
        #expect(traced[1].description.hasSuffix("s INSERT INTO t VALUES (?)"))
        #expect(traced[1].expandedDescription.hasSuffix("s INSERT INTO t VALUES (1)"))
        #expect(traced[2].expandedDescription == "SELECT a FROM t")
        guard case .profile(let statement, _) = traced[1] else {
            Issue.record("expected a profile event")
            return
        }
        #expect(statement.expandedSQL == "INSERT INTO t VALUES (1)")
        #expect(statement.description == "INSERT INTO t VALUES (?)")
    }

    @Test func triggersAreTracedAsComments() throws {
        let events = Locked<[String]>([])
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE t(a); CREATE TABLE log(a);
                CREATE TRIGGER logger AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.a); END
                """)
            db.trace { event in events.withLock { $0.append(event.description) } }
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        #expect(events.withLock { $0 } == ["INSERT INTO t VALUES (1)", "-- TRIGGER logger", "-- INSERT INTO log VALUES (new.a)"])
    }

    @Test func profileReportsDurations() throws {
        let durations = Locked<[(String, TimeInterval)]>([])
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            db.trace(options: .profile) { event in
                if case let .profile(statement, duration) = event {
                    durations.withLock { $0.append((statement.sql, duration)) }
                }
            }
            try db.execute(sql: "SELECT 1")
        }
        let profiled = durations.withLock { $0 }
        #expect(profiled.count == 1)
        #expect(profiled.first?.0 == "SELECT 1")
        #expect((profiled.first?.1 ?? -1) >= 0)
    }

    @Test func errorLogReceivesSQLiteMessages() throws {
        ErrorLogRecorder.install()
        let dbQueue = try DatabaseQueue()
        try? dbQueue.inDatabase { db throws in
            try db.execute(sql: "SELECT * FROM tableThatDoesNotExistForTheLog")
        }
        let logged = ErrorLogRecorder.messages(containing: "tableThatDoesNotExistForTheLog")
        #expect(logged.contains { $0.code == .SQLITE_ERROR })
    }
}

/// The statements of a string of several statements are traced without the
/// whitespace and the semicolons that separate them.
@Suite struct TraceOfSeveralStatementsTests {
    @Test func tracedSQLIsTrimmed() throws {
        let events = Locked<[(sql: String, expanded: String)]>([])
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            db.trace(options: [.statement, .profile]) { event in
                if case .statement(let statement) = event {
                    events.withLock { $0.append((statement.sql, statement.expandedSQL)) }
                }
            }
            try db.execute(sql: "CREATE TABLE t(a);\n  INSERT INTO t (a) VALUES (?) ;\n", arguments: [1])
        }
        // The INSERT needs the table of the CREATE: the statements run one
        // after the other, inside a savepoint (see `Database.execute(sql:)`)
        // that the trace does not show.
        let traced = events.withLock { $0 }
        #expect(traced.map(\.sql) == ["CREATE TABLE t(a)", "INSERT INTO t (a) VALUES (?)"])
        #expect(traced.map(\.expanded) == ["CREATE TABLE t(a)", "INSERT INTO t (a) VALUES (1)"])
    }
}
