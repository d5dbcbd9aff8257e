import Foundation
import Testing
import Cairn

/// Transaction events read SQLite's memory during the observer call: kept
/// without a copy, they stop the program instead of reading memory that
/// SQLite may have freed; their copies can be kept, and sent to other tasks.
@Suite struct EventLifetimeTests {
    /// Keeps the events it receives, copied or not.
    final class KeepingObserver: TransactionObserver, @unchecked Sendable {
        var events: [DatabaseEvent] = []
        var preUpdateEvents: [DatabasePreUpdateEvent] = []
        let copies: Bool

        init(copies: Bool) {
            self.copies = copies
        }

        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }

        func databaseDidChange(with event: DatabaseEvent) {
            events.append(copies ? event.copy() : event)
        }

        func databaseWillChange(with event: DatabasePreUpdateEvent) {
            preUpdateEvents.append(copies ? event.copy() : event)
        }

        func databaseDidCommit(_ db: Database) { }
        func databaseDidRollback(_ db: Database) { }
    }

    @Test func copiesOutliveTheCallAndCanBeSent() async throws {
        let dbQueue = try DatabaseQueue()
        let observer = KeepingObserver(copies: true)
        try await dbQueue.write { db throws in
            db.add(transactionObserver: observer)
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur')")
            try db.execute(sql: "UPDATE player SET name = 'Barbara'")
        }
        #expect(observer.events.map(\.description) == ["insert main.player(1)", "update main.player(1)"])
        #expect(observer.preUpdateEvents.last?.initialDatabaseValues == [1.databaseValue, "Arthur".databaseValue])
        #expect(observer.preUpdateEvents.last?.finalDatabaseValues == [1.databaseValue, "Barbara".databaseValue])

        // A copy made during the call is sent to another task.
        final class Sender: TransactionObserver, @unchecked Sendable {
            var tasks: [Task<String, Never>] = []
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
            func databaseDidChange(with event: DatabaseEvent) {
                let copy = event.copy()
                tasks.append(Task.detached { "\(copy.tableName) \(copy.rowID)" })
            }
            func databaseWillChange(with event: DatabasePreUpdateEvent) {
                let copy = event.copy()
                tasks.append(Task.detached { "\(copy.finalDatabaseValues ?? [])" })
            }
            func databaseDidCommit(_ db: Database) { }
            func databaseDidRollback(_ db: Database) { }
        }
        let sender = Sender()
        try await dbQueue.write { db throws in
            db.add(transactionObserver: sender)
            try db.execute(sql: "INSERT INTO player VALUES (2, 'Craig')")
        }
        var received: [String] = []
        for task in sender.tasks {
            received.append(await task.value)
        }
        #expect(received == [#"[2, "Craig"]"#, "player 2"])
    }

    @Test func eventKeptAfterTheCallStopsTheProgram() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            let observer = KeepingObserver(copies: false)
            try dbQueue.write { db throws in
                db.add(transactionObserver: observer)
                try db.execute(sql: "CREATE TABLE t (a)")
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                // The table is dropped: SQLite frees its name.
                try db.execute(sql: "DROP TABLE t")
            }
            _ = observer.events.first?.tableName
        }.map { result in
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("A transaction event was used after the observer method that received it returned"))
        }
    }

    @Test func preUpdateEventKeptAfterTheCallStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            let observer = KeepingObserver(copies: false)
            try dbQueue.write { db throws in
                db.add(transactionObserver: observer)
                try db.execute(sql: "CREATE TABLE t (a)")
                try db.execute(sql: "INSERT INTO t VALUES (1)")
            }
            _ = observer.preUpdateEvents.first?.finalDatabaseValues
        }
    }

    @Test func keptEventRowIDAndKindStayReadable() throws {
        // The kind and rowid are plain values: reading them is safe.
        let dbQueue = try DatabaseQueue()
        let observer = KeepingObserver(copies: false)
        try dbQueue.write { db throws in
            db.add(transactionObserver: observer)
            try db.execute(sql: "CREATE TABLE t (a)")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        #expect(observer.events.map(\.rowID) == [1])
        #expect(observer.events.map(\.kind) == [.insert])
    }
}
