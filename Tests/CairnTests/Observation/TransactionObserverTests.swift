import Foundation
import Testing
import Cairn

struct VetoError: Error, Equatable { }

@Suite struct TransactionObserverTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func makeWriter(_ kind: WriterKind) throws -> any DatabaseWriter {
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INT);
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
                """)
        }
        return writer
    }

    @Test(arguments: WriterKind.allCases)
    func insertUpdateDeleteAndCommit(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let observer = RecordingObserver()
        writer.add(transactionObserver: observer)
        try writer.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            try db.execute(sql: "UPDATE player SET score = 10 WHERE id = 1")
            try db.execute(sql: "DELETE FROM player WHERE id = 1")
        }
        #expect(observer.log == [
            "insert player 1", "update player 1", "delete player 1", "willCommit", "didCommit"])
        #expect(observer.events.allSatisfy { $0.databaseName == "main" })

        // An autocommit statement is a transaction.
        observer.log = []
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO team (id, name) VALUES (7, 'Red')")
        }
        #expect(observer.log == ["insert team 7", "willCommit", "didCommit"])

        // Rollbacks are notified, after the changes.
        observer.log = []
        try writer.writeWithoutTransaction { db in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO team (id, name) VALUES (8, 'Blue')")
                return .rollback
            }
        }
        #expect(observer.log == ["insert team 8", "didRollback"])

        // An empty transaction commits too. It is IMMEDIATE (the default),
        // so it holds the write lock, and SQLite runs the commit hook.
        observer.log = []
        try writer.writeWithoutTransaction { db in
            try db.inTransaction { .commit }
        }
        #expect(observer.log == ["willCommit", "didCommit"])

        // An empty deferred transaction never took the write lock, and
        // SQLite runs no commit hook. The observer hears of it as of any
        // commit, as in GRDB.
        observer.log = []
        try writer.writeWithoutTransaction { db in
            try db.inTransaction(.deferred) { .commit }
        }
        #expect(observer.log == ["willCommit", "didCommit"])
    }

    @Test(arguments: WriterKind.allCases)
    func eventFiltering(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let playerObserver = RecordingObserver(observing: ["player"])
        writer.add(transactionObserver: playerObserver)
        try writer.write { db in
            try db.execute(sql: "INSERT INTO team (id, name) VALUES (1, 'Red')")
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Arthur')")
        }
        // Events of other tables are filtered out; commits are notified.
        #expect(playerObserver.log == ["insert player 2", "willCommit", "didCommit"])
    }

    /// An observer that only wants updates of one column.
    final class ScoreObserver: TransactionObserver {
        var rowIDs: [Int64] = []
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
            if case .update("player", let columns) = eventKind { return columns.contains("score") }
            return false
        }
        func databaseDidChange(with event: DatabaseEvent) { rowIDs.append(event.rowID) }
        func databaseDidCommit(_ db: Database) { }
        func databaseDidRollback(_ db: Database) { }
    }

    @Test func updatedColumnsFilterEvents() throws {
        let writer = try makeWriter(.queue)
        let observer = ScoreObserver()
        writer.add(transactionObserver: observer)
        try writer.write { db in
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 0), (2, 'Barbara', 0)")
            try db.execute(sql: "UPDATE player SET name = 'Art' WHERE id = 1")
            try db.execute(sql: "UPDATE player SET score = 1 WHERE id = 2")
        }
        #expect(observer.rowIDs == [2])
    }

    @Test(arguments: WriterKind.allCases)
    func preUpdateValues(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let observer = RecordingObserver(observing: ["player"])
        writer.add(transactionObserver: observer)
        try writer.write { db in
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 10)")
            try db.execute(sql: "UPDATE player SET score = 20, id = 2 WHERE id = 1")
            try db.execute(sql: "DELETE FROM player")
        }
        let events = observer.preUpdateEvents
        try #require(events.count == 3)

        #expect(events[0].kind == .insert)
        #expect(events[0].tableName == "player")
        #expect(events[0].databaseName == "main")
        #expect(events[0].count == 3)
        #expect(events[0].depth == 0)
        #expect(events[0].initialRowID == nil)
        #expect(events[0].finalRowID == 1)
        #expect(events[0].initialDatabaseValues == nil)
        #expect(events[0].finalDatabaseValues == [1.databaseValue, "Arthur".databaseValue, 10.databaseValue])

        #expect(events[1].kind == .update)
        #expect(events[1].initialRowID == 1)
        #expect(events[1].finalRowID == 2)
        #expect(events[1].initialDatabaseValues == [1.databaseValue, "Arthur".databaseValue, 10.databaseValue])
        #expect(events[1].finalDatabaseValues == [2.databaseValue, "Arthur".databaseValue, 20.databaseValue])
        #expect(events[1].initialDatabaseValue(atIndex: 2) == 10.databaseValue)
        #expect(events[1].finalDatabaseValue(atIndex: 2) == 20.databaseValue)
        #expect(events[1].finalDatabaseValue(atIndex: 3) == nil)

        #expect(events[2].kind == .delete)
        #expect(events[2].initialRowID == 2)
        #expect(events[2].finalRowID == nil)
        #expect(events[2].initialDatabaseValues == [2.databaseValue, "Arthur".databaseValue, 20.databaseValue])
        #expect(events[2].finalDatabaseValues == nil)
    }

    @Test func triggersAndForeignKeyActionsAreNotified() throws {
        let writer = try makeWriter(.queue)
        try writer.write { db in
            try db.execute(sql: """
                CREATE TABLE log (id INTEGER PRIMARY KEY, message TEXT);
                CREATE TRIGGER player_insert AFTER INSERT ON player BEGIN
                    INSERT INTO log (message) VALUES ('new player ' || NEW.name);
                END;
                CREATE TABLE membership (
                    id INTEGER PRIMARY KEY,
                    teamId INTEGER REFERENCES team(id) ON DELETE CASCADE);
                INSERT INTO team (id, name) VALUES (1, 'Red');
                INSERT INTO membership (id, teamId) VALUES (10, 1), (11, 1);
                """)
        }
        let observer = RecordingObserver(observing: ["log", "membership"])
        writer.add(transactionObserver: observer)
        try writer.write { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
        }
        let trigger = try #require(observer.preUpdateEvents.first)
        #expect(trigger.tableName == "log")
        #expect(trigger.depth == 1)
        #expect(trigger.finalDatabaseValue(atIndex: 1) == "new player Arthur".databaseValue)
        #expect(observer.log == ["insert log 1", "willCommit", "didCommit"])

        observer.log = []
        observer.preUpdateEvents = []
        try writer.write { db in
            try db.execute(sql: "DELETE FROM team WHERE id = 1")
        }
        #expect(observer.log == ["delete membership 10", "delete membership 11", "willCommit", "didCommit"])
        #expect(observer.preUpdateEvents.map(\.depth) == [1, 1])
    }

    @Test(arguments: WriterKind.allCases)
    func vetoingObserverRollsBackTheTransaction(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let observer = RecordingObserver()
        observer.commitError = VetoError()
        writer.add(transactionObserver: observer)
        #expect(throws: VetoError.self) {
            try writer.write { db in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            }
        }
        #expect(observer.log == ["insert player 1", "willCommit", "didRollback"])
        #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)

        // An autocommit statement is vetoed too, and the connection stays
        // usable.
        #expect(throws: VetoError.self) {
            try writer.writeWithoutTransaction { db in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
            }
        }
        observer.commitError = nil
        try writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')") }
        #expect(try writer.read { db in try String.fetchAll(db, sql: "SELECT name FROM player") } == ["Craig"])
    }

    @Test func readOnlyAccessesAreNotNotified() throws {
        // A read is a transaction that writes nothing: observers hear
        // nothing of it, not even of changes notified from there.
        let writer = try makeWriter(.queue)
        let observer = RecordingObserver()
        writer.add(transactionObserver: observer, extent: .databaseLifetime)
        try writer.read { db in
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
            try db.notifyChanges(in: .fullDatabase)
        }
        #expect(observer.log.isEmpty)
        #expect(observer.undescribedChangeCount == 0)
        // A read that fails rolls back its transaction: not notified either.
        struct ReadFailure: Error { }
        #expect(throws: ReadFailure.self) {
            try writer.read { db in
                _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
                throw ReadFailure()
            }
        }
        #expect(observer.log.isEmpty)
        // An empty write transaction is a commit.
        try writer.write { _ in }
        #expect(observer.log.last == "didCommit")
        try writer.write { db in try db.notifyChanges(in: .fullDatabase) }
        #expect(observer.undescribedChangeCount == 1)
    }

    @Test func aVetoOfACommitThatNoStatementOfCairnRanIsNotThrownLater() throws {
        // The veto of a commit run through the C interface stays with that
        // commit: a later statement that fails throws its own error.
        let writer = try makeWriter(.queue)
        let observer = RecordingObserver()
        observer.commitError = VetoError()
        writer.add(transactionObserver: observer)
        writer.writeWithoutTransaction { db in
            let code = sqlite3_exec(db.sqliteConnection, "INSERT INTO player (name) VALUES ('Arthur')", nil, nil, nil)
            #expect(code & 0xff == SQLITE_CONSTRAINT)  // SQLITE_CONSTRAINT_COMMITHOOK
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO missing (name) VALUES ('Barbara')")
            }
        }
        #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
    }

    @Test func observerLifetimeExtentDoesNotRetainTheObserver() throws {
        let writer = try makeWriter(.queue)
        weak var weakObserver: RecordingObserver?
        do {
            let observer = RecordingObserver()
            weakObserver = observer
            writer.add(transactionObserver: observer)
            try writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
            #expect(observer.log.count == 3)
        }
        #expect(weakObserver == nil)
        // The writer goes on without it.
        try writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
    }

    @Test func nextTransactionAndDatabaseLifetimeExtents() throws {
        let writer = try makeWriter(.queue)
        weak var weakNext: RecordingObserver?
        weak var weakLifetime: RecordingObserver?
        do {
            let next = RecordingObserver()
            let lifetime = RecordingObserver()
            weakNext = next
            weakLifetime = lifetime
            writer.add(transactionObserver: next, extent: .nextTransaction)
            writer.add(transactionObserver: lifetime, extent: .databaseLifetime)
        }
        // Retained by the connection.
        #expect(weakNext != nil)
        #expect(weakLifetime != nil)
        try writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
        #expect(weakNext == nil)
        #expect(weakLifetime?.log == ["insert player 1", "willCommit", "didCommit"])
        try writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
        #expect(weakLifetime?.log.count == 6)

        // Removal releases the observer.
        if let lifetime = weakLifetime {
            writer.remove(transactionObserver: lifetime)
        }
        #expect(weakLifetime == nil)
    }

    @Test func databaseLifetimeObserverIsReleasedWhenTheDatabaseCloses() throws {
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        weak var weakObserver: RecordingObserver?
        do {
            let observer = RecordingObserver()
            weakObserver = observer
            dbQueue.add(transactionObserver: observer, extent: .databaseLifetime)
        }
        #expect(weakObserver != nil)
        try dbQueue.close()
        #expect(weakObserver == nil)
    }

    @Test(arguments: WriterKind.allCases)
    func savepointRollbacksAreNotNotified(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let observer = RecordingObserver()
        writer.add(transactionObserver: observer)
        try writer.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO player (id, name) VALUES (3, 'Craig')")
                    return .rollback
                }
                try db.execute(sql: "INSERT INTO player (id, name) VALUES (4, 'David')")
                return .commit
            }
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (id, name) VALUES (5, 'Eve')")
                return .rollback
            }
        }
        #expect(observer.log == ["insert player 1", "insert player 2", "insert player 4", "willCommit", "didCommit"])
        // Pre-update events follow the same rule.
        #expect(observer.preUpdateEvents.compactMap(\.finalRowID) == [1, 2, 4])

        // A savepoint that is a transaction delivers its events before the
        // commit.
        observer.log = []
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "SAVEPOINT outer")
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (6, 'Frank')")
            try db.execute(sql: "RELEASE SAVEPOINT outer")
        }
        #expect(observer.log == ["insert player 6", "willCommit", "didCommit"])
    }

    @Test func stopObservingUntilNextTransaction() throws {
        let writer = try makeWriter(.queue)
        let observer = RecordingObserver()
        observer.stopsAfterFirstEvent = true
        writer.add(transactionObserver: observer)
        try writer.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur'), (2, 'Barbara')")
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (3, 'Craig')")
        }
        #expect(observer.log == ["insert player 1", "willCommit", "didCommit"])
        // Events come back with the next transaction.
        observer.log = []
        try writer.write { db in try db.execute(sql: "DELETE FROM player WHERE id = 3") }
        #expect(observer.log == ["delete player 3", "willCommit", "didCommit"])
    }

    @Test func deleteWithoutWhereClauseNotifiesEachRow() throws {
        let writer = try makeWriter(.queue)
        try writer.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur'), (2, 'Barbara')")
        }
        let observer = RecordingObserver()
        writer.add(transactionObserver: observer)
        try writer.write { db in try db.execute(sql: "DELETE FROM player") }
        #expect(observer.log == ["delete player 1", "delete player 2", "willCommit", "didCommit"])
    }

    /// The limits that SQLite imposes, as documented.
    @Test func changesThatSQLiteDoesNotReport() throws {
        let writer = try makeWriter(.queue)
        try writer.write { db in
            try db.execute(sql: """
                CREATE TABLE keyed (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
                CREATE TABLE unique_email (id INTEGER PRIMARY KEY, email TEXT UNIQUE ON CONFLICT REPLACE);
                INSERT INTO unique_email (id, email) VALUES (1, 'a@example.com');
                """)
        }
        let observer = RecordingObserver()
        writer.add(transactionObserver: observer)
        try writer.write { db in
            // WITHOUT ROWID table: no event.
            try db.execute(sql: "INSERT INTO keyed (key, value) VALUES ('a', 'b')")
            // The replaced row (id 1) is deleted without event; the
            // insertion is notified.
            try db.execute(sql: "INSERT INTO unique_email (id, email) VALUES (2, 'a@example.com')")
            // Internal tables: no event.
            try db.execute(sql: "CREATE TABLE other (a)")
        }
        #expect(observer.log == ["insert unique_email 2", "willCommit", "didCommit"])
        #expect(try writer.read { db in try Int.fetchAll(db, sql: "SELECT id FROM unique_email") } == [2])
    }

    @Test func afterNextTransaction() throws {
        let writer = try makeWriter(.queue)
        let log = Locked<[String]>([])
        try writer.writeWithoutTransaction { db in
            db.afterNextTransaction(
                onCommit: { db in
                    let count = try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
                    log.withLock { $0.append("commit \(count ?? -1)") }
                },
                onRollback: { _ in log.withLock { $0.append("rollback") } })
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            // Only the next transaction.
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
            db.afterNextTransaction(onCommit: { _ in log.withLock { $0.append("commit") } }, onRollback: { _ in log.withLock { $0.append("rollback") } })
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')")
                return .rollback
            }
        }
        #expect(log.withLock { $0 } == ["commit 1", "rollback"])
    }

    /// A transaction begun by a savepoint ends with the release of the
    /// savepoint: a commit, even when nothing is left to write.
    @Test func transactionsOfSavepointsEndWithTheirRelease() throws {
        let writer = try makeWriter(.queue)
        let cases: [(sql: String, completion: String)] = [
            ("SAVEPOINT s; RELEASE SAVEPOINT s", "commit"),
            ("SAVEPOINT s; ROLLBACK TRANSACTION TO SAVEPOINT s; RELEASE SAVEPOINT s", "commit"),
            ("SAVEPOINT s; INSERT INTO player (name) VALUES ('a'); ROLLBACK TO s; RELEASE s", "commit"),
            ("SAVEPOINT s; INSERT INTO player (name) VALUES ('b'); RELEASE s", "commit"),
            ("SAVEPOINT s; ROLLBACK", "rollback"),
        ]
        for (sql, completion) in cases {
            let log = Locked<[String]>([])
            try writer.writeWithoutTransaction { db in
                db.afterNextTransaction(
                    onCommit: { _ in log.withLock { $0.append("commit") } },
                    onRollback: { _ in log.withLock { $0.append("rollback") } })
                try db.execute(sql: sql)
                #expect(!db.isInsideTransaction)
            }
            #expect(log.withLock { $0 } == [completion], "\(sql)")
        }
    }

    @Test func notifyChanges() throws {
        let writer = try makeWriter(.queue)
        let playerObserver = RecordingObserver(observing: ["player"])
        let teamObserver = RecordingObserver(observing: ["team"])
        writer.add(transactionObserver: playerObserver)
        writer.add(transactionObserver: teamObserver)
        try writer.writeWithoutTransaction { db in
            try db.notifyChanges(in: Table("player"))
        }
        #expect(playerObserver.undescribedChangeCount == 1)
        // The notifying transaction is IMMEDIATE, and runs the commit hook.
        #expect(playerObserver.log == ["willCommit", "didCommit"])
        #expect(teamObserver.undescribedChangeCount == 0)
    }

    /// Events that escape their callback must be copied: the copy keeps its
    /// values after the statement.
    @Test func copiedEventsRemainValid() throws {
        let writer = try makeWriter(.queue)
        let observer = RecordingObserver()
        writer.add(transactionObserver: observer)
        try writer.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
        }
        let event = try #require(observer.events.first)
        #expect(event.tableName == "player")
        #expect(event.description == "insert main.player(1)")
        #expect(observer.preUpdateEvents.first?.finalDatabaseValue(atIndex: 1) == "Arthur".databaseValue)
    }

    /// The hooks of changed rows stay installed after a statement whose
    /// events an observer wanted (for speed), but they report only the
    /// changes of statements whose events an observer wants: neither those
    /// of a later statement that no observer wants, nor those of C code
    /// that runs between statements, nor any after the last observer left.
    @Test(arguments: WriterKind.allCases)
    func onlyWantedStatementsReportChanges(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let observer = RecordingObserver(observing: ["player"])
        writer.add(transactionObserver: observer)
        try writer.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            // Not observed.
            try db.execute(sql: "INSERT INTO team (id, name) VALUES (1, 'Red')")
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')")
            // C code between statements.
            let code = sqlite3_exec(db.sqliteConnection, "INSERT INTO player (id, name) VALUES (3, 'Craig')", nil, nil, nil)
            #expect(code == SQLITE_OK)
        }
        #expect(observer.log == ["insert player 1", "insert player 2", "willCommit", "didCommit"])
        #expect(observer.preUpdateEvents.map(\.finalRowID) == [1, 2])

        writer.remove(transactionObserver: observer)
        observer.log = []
        try writer.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (4, 'David')")
        }
        #expect(observer.log.isEmpty)
        #expect(observer.preUpdateEvents.count == 2)
    }
}
