import Foundation
import Testing
import Cairn

/// Transaction observers, database regions and transaction callbacks
/// behave as in GRDB 7.8: which callbacks run, in which order, what
/// commits and rollbacks notify, and how regions describe themselves.
@Suite struct GRDBTransactionObserverTests {
    /// An observer that logs its callbacks, as one string each.
    final class Journal: TransactionObserver, @unchecked Sendable {
        var log: [String] = []
        var events: [DatabaseEvent] = []
        var preUpdateEvents: [DatabasePreUpdateEvent] = []
        var filter: (DatabaseEventKind) -> Bool
        var commitError: (any Error)?
        var onDidCommit: ((Database) -> Void)?
        var onDeinit: (() -> Void)?
        var stopsAtFirstEvent = false

        init(observing filter: @escaping (DatabaseEventKind) -> Bool = { _ in true }) {
            self.filter = filter
        }

        deinit { onDeinit?() }

        var willCommitCount: Int { log.filter { $0 == "willCommit" }.count }
        var didCommitCount: Int { log.filter { $0 == "didCommit" }.count }
        var didRollbackCount: Int { log.filter { $0 == "didRollback" }.count }
        var changeCount: Int { log.filter { $0.hasPrefix("change ") }.count }

        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { filter(eventKind) }

        func databaseWillChange(with event: DatabasePreUpdateEvent) {
            preUpdateEvents.append(event.copy())
            log.append("willChange \(event.tableName)")
        }

        func databaseDidChange(with event: DatabaseEvent) {
            events.append(event.copy())
            log.append("change \(event.kind) \(event.tableName) \(event.rowID)")
            if stopsAtFirstEvent { stopObservingDatabaseChangesUntilNextTransaction() }
        }

        func databaseDidChange() {
            log.append("unspecified change")
        }

        func databaseWillCommit() throws {
            log.append("willCommit")
            if let commitError { throw commitError }
        }

        func databaseDidCommit(_ db: Database) {
            log.append("didCommit")
            onDidCommit?(db)
        }

        func databaseDidRollback(_ db: Database) {
            log.append("didRollback")
        }
    }

    struct Refusal: Error, Equatable {
        var code: Int
    }

    /// Transactions, as two pieces of SQL, and how observers hear of their
    /// end: `commits` is true for a commit. Transactions that never took
    /// the write lock (`BEGIN DEFERRED; COMMIT`, `SAVEPOINT s; RELEASE s`)
    /// get no commit hook from SQLite: as GRDB does, Cairn still calls
    /// `databaseWillCommit`, which may refuse the commit.
    static let transactions: [(start: String, end: String, commits: Bool)] = [
        ("", "CREATE TABLE scratch(x)", true),
        ("BEGIN DEFERRED TRANSACTION", "COMMIT", true),
        ("BEGIN DEFERRED TRANSACTION; CREATE TABLE scratch(x)", "COMMIT", true),
        ("BEGIN IMMEDIATE TRANSACTION", "COMMIT", true),
        ("BEGIN IMMEDIATE TRANSACTION; CREATE TABLE scratch(x)", "COMMIT", true),
        ("BEGIN EXCLUSIVE TRANSACTION", "COMMIT", true),
        ("BEGIN EXCLUSIVE TRANSACTION; CREATE TABLE scratch(x)", "COMMIT", true),
        ("SAVEPOINT outer", "COMMIT", true),
        ("SAVEPOINT outer; CREATE TABLE scratch(x)", "COMMIT", true),
        ("SAVEPOINT outer; ROLLBACK TRANSACTION TO SAVEPOINT outer", "RELEASE SAVEPOINT outer", true),
        ("SAVEPOINT outer; CREATE TABLE scratch(x); ROLLBACK TRANSACTION TO SAVEPOINT outer", "RELEASE SAVEPOINT outer", true),
        ("SAVEPOINT outer", "RELEASE SAVEPOINT outer", true),
        ("SAVEPOINT outer; CREATE TABLE scratch(x)", "RELEASE SAVEPOINT outer", true),
        ("BEGIN DEFERRED TRANSACTION", "ROLLBACK", false),
        ("BEGIN DEFERRED TRANSACTION; CREATE TABLE scratch(x)", "ROLLBACK", false),
        ("BEGIN IMMEDIATE TRANSACTION", "ROLLBACK", false),
        ("BEGIN IMMEDIATE TRANSACTION; CREATE TABLE scratch(x)", "ROLLBACK", false),
        ("BEGIN EXCLUSIVE TRANSACTION", "ROLLBACK", false),
        ("BEGIN EXCLUSIVE TRANSACTION; CREATE TABLE scratch(x)", "ROLLBACK", false),
        ("SAVEPOINT outer", "ROLLBACK", false),
        ("SAVEPOINT outer; CREATE TABLE scratch(x)", "ROLLBACK", false),
    ]

    static let extents: [Database.TransactionObservationExtent] = [.observerLifetime, .databaseLifetime, .nextTransaction]

    func expectedLog(commits: Bool) -> [String] {
        commits ? ["willCommit", "didCommit"] : ["didRollback"]
    }

    // MARK: - Transaction completion

    /// Every transaction, even one that wrote nothing, calls
    /// `databaseWillCommit` before `databaseDidCommit`; a rollback calls
    /// `databaseDidRollback` only. An observer added inside the
    /// transaction hears of its end.
    @Test func transactionEndsAreNotified() throws {
        for (start, end, commits) in Self.transactions {
            for extent in Self.extents {
                for addsBetween in [false, true] {
                    let dbQueue = try DatabaseQueue()
                    let journal = Journal()
                    if !addsBetween { dbQueue.add(transactionObserver: journal, extent: extent) }
                    try dbQueue.inDatabase { db in
                        if !start.isEmpty { try db.execute(sql: start) }
                        if addsBetween { db.add(transactionObserver: journal, extent: extent) }
                        try db.execute(sql: end)
                    }
                    #expect(journal.log == expectedLog(commits: commits), "\(start); \(end) \(extent) \(addsBetween)")
                }
            }
        }
    }

    /// The default extent and `.observerLifetime` keep observing later
    /// transactions, and do not retain the observer.
    @Test func observerLifetimeObservesEveryTransactionWeakly() throws {
        for (start, end, commits) in Self.transactions {
            for useDefault in [true, false] {
                let dbQueue = try DatabaseQueue()
                weak var weakJournal: Journal?
                do {
                    let journal = Journal()
                    weakJournal = journal
                    if useDefault {
                        dbQueue.add(transactionObserver: journal)
                    } else {
                        dbQueue.add(transactionObserver: journal, extent: .observerLifetime)
                    }
                    try dbQueue.inDatabase { db in
                        if !start.isEmpty { try db.execute(sql: start) }
                        try db.execute(sql: end)
                    }
                    try dbQueue.inTransaction { db in
                        try db.execute(sql: "DROP TABLE IF EXISTS scratch; CREATE TABLE scratch(y)")
                        return .commit
                    }
                    #expect(journal.log == expectedLog(commits: commits) + ["willCommit", "didCommit"], "\(start); \(end)")
                }
                #expect(weakJournal == nil)
            }
        }
    }

    /// `.nextTransaction` retains the observer until the end of the next
    /// transaction, and then forgets it.
    @Test func nextTransactionExtentObservesOneTransaction() throws {
        for (start, end, commits) in Self.transactions {
            let dbQueue = try DatabaseQueue()
            weak var weakJournal: Journal?
            do {
                let journal = Journal()
                weakJournal = journal
                dbQueue.add(transactionObserver: journal, extent: .nextTransaction)
            }
            let journal = try #require(weakJournal, "retained until the next transaction")
            try dbQueue.inDatabase { db in
                if !start.isEmpty { try db.execute(sql: start) }
                try db.execute(sql: end)
            }
            try dbQueue.inTransaction { db in
                try db.execute(sql: "DROP TABLE IF EXISTS scratch; CREATE TABLE scratch(y)")
                return .commit
            }
            #expect(journal.log == expectedLog(commits: commits), "\(start); \(end)")
            _ = consume journal
            #expect(weakJournal == nil, "\(start); \(end)")
        }
    }

    /// A `.nextTransaction` observer whose `databaseDidCommit` runs a new
    /// transaction is not told about it; other observers are.
    @Test func nextTransactionObserverIgnoresTheTransactionItsCommitRuns() throws {
        for (start, end, commits) in Self.transactions {
            let dbQueue = try DatabaseQueue()
            let witness = Journal()
            let journal = Journal()
            journal.onDidCommit = { db in
                try! db.inTransaction {
                    try db.execute(sql: "DROP TABLE IF EXISTS scratch; CREATE TABLE scratch(z)")
                    return .commit
                }
            }
            dbQueue.add(transactionObserver: witness)
            dbQueue.add(transactionObserver: journal, extent: .nextTransaction)
            try dbQueue.inDatabase { db in
                if !start.isEmpty { try db.execute(sql: start) }
                try db.execute(sql: end)
            }
            #expect(journal.log == expectedLog(commits: commits), "\(start); \(end)")
            let witnessLog = expectedLog(commits: commits)
                + (commits ? ["willCommit", "didCommit"] : [])
            #expect(witness.log == witnessLog, "\(start); \(end)")
        }
    }

    /// `.databaseLifetime` retains the observer until the connection closes.
    @Test func databaseLifetimeRetainsTheObserver() throws {
        weak var weakJournal: Journal?
        let dbQueue = try DatabaseQueue()
        do {
            let journal = Journal()
            weakJournal = journal
            dbQueue.add(transactionObserver: journal, extent: .databaseLifetime)
        }
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(weakJournal?.didCommitCount == 2)
        #expect(weakJournal?.events.map(\.rowID) == [1])
        try dbQueue.close()
        #expect(weakJournal == nil)
    }

    /// When an observer throws from `databaseWillCommit`, the observers after
    /// it are not asked, all observers hear of a rollback, and the statement
    /// throws the observer's error, unchanged.
    @Test func throwingWillCommitRollsBack() throws {
        for (start, end, commits) in Self.transactions {
            for extent in Self.extents {
                let dbQueue = try DatabaseQueue()
                let first = Journal(), second = Journal(), third = Journal()
                second.commitError = Refusal(code: 7)
                for journal in [first, second, third] {
                    dbQueue.add(transactionObserver: journal, extent: extent)
                }
                do {
                    try dbQueue.inDatabase { db in
                        if !start.isEmpty { try db.execute(sql: start) }
                        try db.execute(sql: end)
                    }
                    #expect(!commits, "\(start); \(end) \(extent): expected an error")
                    let log = expectedLog(commits: commits)
                    #expect(first.log == log)
                    #expect(second.log == log)
                    #expect(third.log == log)
                } catch let error as Refusal {
                    #expect(commits, "\(start); \(end) \(extent)")
                    #expect(error == Refusal(code: 7))
                    #expect(first.log == ["willCommit", "didRollback"], "\(start); \(end) \(extent)")
                    #expect(second.log == ["willCommit", "didRollback"], "\(start); \(end) \(extent)")
                    #expect(third.log == ["didRollback"], "\(start); \(end) \(extent)")
                    try dbQueue.inDatabase { db throws -> Void in
                        #expect(!db.isInsideTransaction)
                        #expect(try !db.tableExists("scratch"), "\(start); \(end)")
                    }
                }
            }
        }
    }

    /// When a statement fails and SQLite rolls back its implicit
    /// transaction, the observers of the application are not told, as in
    /// GRDB: no callback, and an observer for the next transaction waits
    /// for the next one. Cairn's own observers still forget the changes of
    /// the failed statement: a region observation does not take them for
    /// changes of the next, unrelated, transaction.
    @Test func failedImplicitTransactionsAreNotNotified() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE other (id INTEGER PRIMARY KEY)
                """)
        }
        let journal = Journal()
        let nextOnly = Journal()
        dbQueue.add(transactionObserver: journal)
        dbQueue.add(transactionObserver: nextOnly, extent: .nextTransaction)
        let regionChanges = Locked(0)
        let cancellable = DatabaseRegionObservation(tracking: Table("item"))
            .start(in: dbQueue, onError: { _ in }, onChange: { _ in regionChanges.withLock { $0 += 1 } })

        try dbQueue.writeWithoutTransaction { db throws -> Void in
            // The first row is inserted, then the second fails: SQLite
            // undoes the statement, outside of any explicit transaction.
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO item (id, name) VALUES (1, 'a'), (2, NULL)")
            }
            #expect(!db.isInsideTransaction)
        }
        #expect(journal.log.filter { !$0.hasPrefix("willChange") && !$0.hasPrefix("change") } == [])
        #expect(nextOnly.log.filter { !$0.hasPrefix("willChange") && !$0.hasPrefix("change") } == [])

        try dbQueue.write { db in try db.execute(sql: "INSERT INTO other DEFAULT VALUES") }
        #expect(regionChanges.withLock { $0 } == 0)
        #expect(nextOnly.log.suffix(2) == ["willCommit", "didCommit"])
        #expect(journal.log.suffix(2) == ["willCommit", "didCommit"])

        // A rollback that an observer caused is told.
        journal.log = []
        journal.commitError = Refusal(code: 5)
        try dbQueue.writeWithoutTransaction { db throws -> Void in
            #expect(throws: Refusal(code: 5)) {
                try db.execute(sql: "INSERT INTO other DEFAULT VALUES")
            }
        }
        #expect(journal.log.suffix(2) == ["willCommit", "didRollback"])
        withExtendedLifetime(cancellable) { }
    }

    // MARK: - Events

    func makeGallery() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE painter (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE canvas (
                    id INTEGER PRIMARY KEY,
                    painterId INTEGER NOT NULL REFERENCES painter(id) ON DELETE CASCADE,
                    title TEXT);
                """)
        }
        return dbQueue
    }

    /// An insert, an update and a delete are told before and after they
    /// happen, then the commit of their implicit transaction.
    @Test func rowEventsThenCommit() throws {
        let dbQueue = try makeGallery()
        let journal = Journal()
        dbQueue.add(transactionObserver: journal)
        try dbQueue.inDatabase { db in
            try db.execute(sql: "INSERT INTO painter (id, name) VALUES (5, 'Hilma')")
            #expect(journal.log == ["willChange painter", "change insert painter 5", "willCommit", "didCommit"])
            #expect(journal.preUpdateEvents.map(\.finalDatabaseValues) == [[5.databaseValue, "Hilma".databaseValue]])
            #expect(journal.preUpdateEvents.map(\.initialDatabaseValues) == [nil])
            journal.log = []
            journal.preUpdateEvents = []

            try db.execute(sql: "UPDATE painter SET name = 'Agnes' WHERE id = 5")
            #expect(journal.log == ["willChange painter", "change update painter 5", "willCommit", "didCommit"])
            #expect(journal.preUpdateEvents.map(\.initialDatabaseValues) == [[5.databaseValue, "Hilma".databaseValue]])
            #expect(journal.preUpdateEvents.map(\.finalDatabaseValues) == [[5.databaseValue, "Agnes".databaseValue]])
            #expect(journal.preUpdateEvents.map(\.initialRowID) == [5])
            #expect(journal.preUpdateEvents.map(\.finalRowID) == [5])
            journal.log = []
            journal.preUpdateEvents = []

            try db.execute(sql: "DELETE FROM painter WHERE id = 5")
            #expect(journal.log == ["willChange painter", "change delete painter 5", "willCommit", "didCommit"])
            #expect(journal.preUpdateEvents.map(\.finalRowID) == [nil])
            #expect(journal.preUpdateEvents.map(\.finalDatabaseValues) == [nil])
        }
    }

    /// A delete cascades: the cascaded deletes are told too, with a depth
    /// of 1 before they happen.
    @Test func cascadedDeletesAreEvents() throws {
        let dbQueue = try makeGallery()
        let journal = Journal()
        try dbQueue.write { db in
            try db.execute(sql: """
                INSERT INTO painter VALUES (1, 'Hilma');
                INSERT INTO canvas VALUES (10, 1, 'Svanen'), (11, 1, 'Altarpiece');
                """)
        }
        dbQueue.add(transactionObserver: journal)
        try dbQueue.write { db in
            try db.execute(sql: "DELETE FROM painter WHERE id = 1")
        }
        #expect(journal.events.count == 3)
        #expect(Set(journal.events.map { "\($0.kind) \($0.tableName) \($0.rowID)" })
                == ["delete painter 1", "delete canvas 10", "delete canvas 11"])
        #expect(journal.preUpdateEvents.count == 3)
        let depths = Dictionary(journal.preUpdateEvents.map { ("\($0.tableName)\($0.initialRowID!)", $0.depth) }) { a, _ in a }
        #expect(depths == ["painter1": 0, "canvas10": 1, "canvas11": 1])
        #expect(journal.willCommitCount == 1 && journal.didCommitCount == 1)
    }

    /// Inside an explicit transaction, events come as statements run, and
    /// the commit comes at the end only.
    @Test func explicitTransactionEventsBeforeCommit() throws {
        let dbQueue = try makeGallery()
        let journal = Journal(observing: { _ in true })
        dbQueue.add(transactionObserver: journal)
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO painter VALUES (1, 'Hilma')")
            #expect(journal.changeCount == 1)
            try db.execute(sql: "INSERT INTO canvas VALUES (10, 1, 'Svanen')")
            #expect(journal.changeCount == 2)
            #expect(journal.willCommitCount == 0 && journal.didCommitCount == 0)
            return .commit
        }
        #expect(journal.log.filter { !$0.hasPrefix("willChange") }
                == ["change insert painter 1", "change insert canvas 10", "willCommit", "didCommit"])
    }

    /// A statement that fails in an explicit transaction leaves it open: the
    /// rollback that follows is notified.
    @Test func failedStatementInExplicitTransaction() throws {
        let dbQueue = try makeGallery()
        let journal = Journal()
        dbQueue.add(transactionObserver: journal)
        #expect(throws: DatabaseError.self) {
            try dbQueue.inTransaction { db in
                try db.execute(sql: "INSERT INTO canvas (painterId, title) VALUES (99, 'Orphan')")
                return .commit
            }
        }
        #expect(journal.log.filter { !$0.hasPrefix("willChange") && !$0.hasPrefix("change") } == ["didRollback"])
    }

    /// An observer that throws from `databaseWillCommit` rolls back an
    /// implicit transaction, and an explicit one; the error is the
    /// observer's.
    @Test func observerRefusesCommits() throws {
        let dbQueue = try makeGallery()
        let journal = Journal()
        journal.commitError = Refusal(code: 3)
        dbQueue.add(transactionObserver: journal)
        try dbQueue.inDatabase { db throws -> Void in
            #expect(throws: Refusal(code: 3)) {
                try db.execute(sql: "INSERT INTO painter VALUES (1, 'Hilma')")
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM painter") == 0)
        }
        #expect(journal.log == ["willChange painter", "change insert painter 1", "willCommit", "didRollback"])
        journal.log = []
        #expect(throws: Refusal(code: 3)) {
            try dbQueue.inTransaction { db in
                try db.execute(sql: "INSERT INTO painter VALUES (2, 'Agnes')")
                return .commit
            }
        }
        #expect(journal.log == ["willChange painter", "change insert painter 2", "willCommit", "didRollback"])
        try dbQueue.read { db throws -> Void in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM painter") == 0)
        }
    }

    /// `observes(eventsOfKind:)` filters the events, not the commits.
    @Test func eventKindsFilterEvents() throws {
        let dbQueue = try makeGallery()
        let cases: [(String, (DatabaseEventKind) -> Bool, Int)] = [
            ("none", { _ in false }, 0),
            ("all", { _ in true }, 3),
            ("inserts", { if case .insert = $0 { true } else { false } }, 1),
            ("inserts and updates", { if case .delete = $0 { false } else { true } }, 2),
            ("updates of name", { if case .update(_, let columns) = $0 { columns.contains("name") } else { false } }, 1),
            ("updates of id", { if case .update(_, let columns) = $0 { columns.contains("id") } else { false } }, 0),
        ]
        for (label, filter, count) in cases {
            let journal = Journal(observing: filter)
            dbQueue.add(transactionObserver: journal)
            try dbQueue.inTransaction { db in
                try db.execute(sql: "INSERT INTO painter VALUES (1, 'Hilma')")
                try db.execute(sql: "UPDATE painter SET name = 'Agnes'")
                try db.execute(sql: "DELETE FROM painter")
                return .commit
            }
            #expect(journal.changeCount == count, "\(label)")
            #expect(journal.willCommitCount == 1 && journal.didCommitCount == 1, "\(label)")
            dbQueue.remove(transactionObserver: journal)
        }
    }

    /// A removed observer hears nothing more.
    @Test func removedObserverHearsNothing() throws {
        let dbQueue = try makeGallery()
        let journal = Journal()
        dbQueue.add(transactionObserver: journal)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO painter VALUES (1, 'Hilma')") }
        #expect(journal.didCommitCount == 1)
        dbQueue.remove(transactionObserver: journal)
        journal.log = []
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO painter VALUES (2, 'Agnes')") }
        #expect(journal.log == [])
    }

    /// A DELETE without WHERE tells each deleted row to the observers of
    /// deletions (SQLite's truncate optimization does not hide them).
    @Test func deleteWithoutWhereTellsEachRow() throws {
        let dbQueue = try makeGallery()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO painter VALUES (1, 'a'), (2, 'b'), (3, 'c')")
        }
        let deletions = Journal(observing: { if case .delete = $0 { true } else { false } })
        let inserts = Journal(observing: { if case .insert = $0 { true } else { false } })
        dbQueue.add(transactionObserver: deletions)
        dbQueue.add(transactionObserver: inserts)
        let changes = try dbQueue.write { db in
            try db.execute(sql: "DELETE FROM painter")
            return db.changesCount
        }
        #expect(changes == 3)
        #expect(deletions.events.map(\.rowID).sorted() == [1, 2, 3])
        #expect(deletions.events.allSatisfy { $0.kind == .delete && $0.tableName == "painter" && $0.databaseName == "main" })
        #expect(inserts.events.isEmpty)
        #expect(inserts.didCommitCount == 1)
    }

    /// `stopObservingDatabaseChangesUntilNextTransaction()` silences the
    /// events until the end of the transaction, not the commit.
    @Test func stopObservingUntilNextTransaction() throws {
        let dbQueue = try makeGallery()
        let journal = Journal()
        journal.stopsAtFirstEvent = true
        dbQueue.add(transactionObserver: journal)
        for _ in 0..<2 {
            journal.log = []
            try dbQueue.inTransaction { db in
                try db.execute(sql: "INSERT INTO painter (name) VALUES ('a'), ('b')")
                try db.execute(sql: "INSERT INTO painter (name) VALUES ('c')")
                return .commit
            }
            #expect(journal.log == ["willChange painter", "change insert painter \(journal.events.last!.rowID)", "willCommit", "didCommit"])
        }
        #expect(journal.events.map(\.rowID) == [1, 4])
    }

    /// The events of a statement in a savepoint wait for the release of the
    /// outermost savepoint; those of a savepoint rolled back are dropped.
    @Test func savepointsHoldEvents() throws {
        let dbQueue = try DatabaseQueue()
        let journal = Journal()
        dbQueue.add(transactionObserver: journal)
        try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE a(id INTEGER PRIMARY KEY); CREATE TABLE b(id INTEGER PRIMARY KEY); CREATE TABLE c(id INTEGER PRIMARY KEY); CREATE TABLE d(id INTEGER PRIMARY KEY)")
            journal.log = []
            journal.events = []

            try db.execute(sql: "SAVEPOINT one")
            try db.execute(sql: "INSERT INTO a DEFAULT VALUES")
            try db.execute(sql: "INSERT INTO b DEFAULT VALUES")
            #expect(journal.events.isEmpty)
            try db.execute(sql: "RELEASE SAVEPOINT one")
            #expect(journal.events.map(\.tableName) == ["a", "b"])
            #expect(journal.log == ["willChange a", "change insert a 1", "willChange b", "change insert b 1", "willCommit", "didCommit"])
            journal.log = []
            journal.events = []

            try db.execute(sql: "BEGIN")
            try db.execute(sql: "INSERT INTO a DEFAULT VALUES")
            #expect(journal.events.count == 1)
            try db.execute(sql: "SAVEPOINT twin")
            try db.execute(sql: "INSERT INTO b DEFAULT VALUES")
            try db.execute(sql: "SAVEPOINT twin")
            try db.execute(sql: "INSERT INTO c DEFAULT VALUES")
            try db.execute(sql: "RELEASE SAVEPOINT twin")
            #expect(journal.events.count == 1)
            try db.execute(sql: "ROLLBACK TO SAVEPOINT twin")
            #expect(journal.events.count == 1)
            try db.execute(sql: "INSERT INTO d DEFAULT VALUES")
            try db.execute(sql: "ROLLBACK TO SAVEPOINT twin")
            try db.execute(sql: "INSERT INTO d DEFAULT VALUES")
            #expect(journal.events.count == 1)
            try db.execute(sql: "RELEASE SAVEPOINT twin")
            #expect(journal.events.map(\.tableName) == ["a", "d"])
            try db.execute(sql: "INSERT INTO c DEFAULT VALUES")
            #expect(journal.events.map(\.tableName) == ["a", "d", "c"])
            try db.execute(sql: "COMMIT")
            #expect(journal.log.suffix(2) == ["willCommit", "didCommit"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM b") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM d") == 1)
        }
    }

    /// Events buffered in a savepoint come before the commit that ends it.
    @Test func savepointEventsBeforeCommit() throws {
        let dbQueue = try DatabaseQueue()
        let journal = Journal()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE a(id INTEGER PRIMARY KEY)") }
        dbQueue.add(transactionObserver: journal)
        try dbQueue.inDatabase { db in
            try db.execute(sql: "BEGIN; SAVEPOINT s; INSERT INTO a DEFAULT VALUES")
            #expect(journal.log == [])
            try db.execute(sql: "COMMIT")
        }
        #expect(journal.log == ["willChange a", "change insert a 1", "willCommit", "didCommit"])
    }

    /// A COMMIT or ROLLBACK ends the savepoints that began an empty
    /// transaction: the events of the next transaction come at once, not
    /// at its commit.
    @Test func emptySavepointTransactionEndsItsSavepoints() throws {
        for end in ["COMMIT", "ROLLBACK", "RELEASE SAVEPOINT s"] {
            let dbQueue = try DatabaseQueue()
            try dbQueue.write { db in try db.execute(sql: "CREATE TABLE a(id INTEGER PRIMARY KEY)") }
            let journal = Journal()
            dbQueue.add(transactionObserver: journal)
            try dbQueue.inDatabase { db in
                try db.execute(sql: "SAVEPOINT s")
                try db.execute(sql: end)
                journal.log = []
                try db.execute(sql: "BEGIN")
                try db.execute(sql: "INSERT INTO a DEFAULT VALUES")
                #expect(journal.log == ["willChange a", "change insert a 1"], "\(end)")
                try db.execute(sql: "COMMIT")
                #expect(journal.log == ["willChange a", "change insert a 1", "willCommit", "didCommit"], "\(end)")
            }
        }
    }

    /// A savepoint block rolled back drops its events.
    @Test func rolledBackSavepointBlockDropsEvents() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE a(id INTEGER PRIMARY KEY)") }
        let journal = Journal()
        dbQueue.add(transactionObserver: journal)
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO a VALUES (1)")
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO a VALUES (2)")
                return .rollback
            }
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO a VALUES (3)")
                return .commit
            }
            return .commit
        }
        #expect(journal.events.map(\.rowID) == [1, 3])
        #expect(journal.willCommitCount == 1 && journal.didCommitCount == 1 && journal.didRollbackCount == 0)
    }

    /// Copies of events keep their values after the callback.
    @Test func copiedEvents() throws {
        let dbQueue = try makeGallery()
        let journal = Journal()
        dbQueue.add(transactionObserver: journal)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO painter VALUES (8, 'Hilma')") }
        let event = try #require(journal.events.first)
        #expect(event.kind == .insert)
        #expect(event.rowID == 8)
        #expect(event.tableName == "painter")
        #expect(event.databaseName == "main")
        let copy = event.copy()
        #expect(copy.kind == .insert && copy.rowID == 8 && copy.tableName == "painter" && copy.databaseName == "main")
        let preUpdate = try #require(journal.preUpdateEvents.first)
        #expect(preUpdate.kind == .insert)
        #expect(preUpdate.count == 2)
        #expect(preUpdate.depth == 0)
        #expect(preUpdate.initialRowID == nil && preUpdate.finalRowID == 8)
        #expect(preUpdate.finalDatabaseValue(atIndex: 1) == "Hilma".databaseValue)
        #expect(preUpdate.initialDatabaseValue(atIndex: 1) == nil)
    }

    // MARK: - DatabaseRegionObservation

    final class Counter: @unchecked Sendable {
        let lock = NSLock()
        var value = 0
        func increment() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }
    }

    /// A region observation is told once per committed transaction that
    /// changed its region, until it is cancelled.
    @Test func regionObservationOncePerTransaction() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE lhs(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);
                CREATE TABLE rhs(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);
                CREATE TABLE other(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);
                """)
        }
        let counter = Counter()
        let observation = DatabaseRegionObservation(
            tracking: SQLRequest<Row>(sql: "SELECT * FROM lhs"), SQLRequest<Row>(sql: "SELECT * FROM rhs"))
        let cancellable = observation.start(in: dbQueue, onError: { _ in }, onChange: { _ in counter.increment() })
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO lhs (name) VALUES ('a')") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO rhs (name) VALUES ('b')") }
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO lhs (name) VALUES ('c')")
            try db.execute(sql: "INSERT INTO rhs (name) VALUES ('d')")
        }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO other (name) VALUES ('e')") }
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO lhs (name) VALUES ('f')")
            return .rollback
        }
        #expect(counter.count == 3)
        cancellable.cancel()
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO lhs (name) VALUES ('g')") }
        #expect(counter.count == 3)
    }

    // MARK: - afterNextTransaction

    /// `afterNextTransaction` runs its closure after the next transaction
    /// only: `onCommit` for a commit, `onRollback` for a rollback, and
    /// releases them afterwards.
    @Test func afterNextTransaction() throws {
        final class Witness { }
        for (start, end, commits) in Self.transactions {
            for registersBetween in [false, true] {
                let dbQueue = try DatabaseQueue()
                try dbQueue.writeWithoutTransaction { db in
                    var outcomes: [String] = []
                    weak var weakWitness: Witness?
                    func register() {
                        let witness = Witness()
                        weakWitness = witness
                        db.afterNextTransaction(
                            onCommit: { _ in withExtendedLifetime(witness) { outcomes.append("commit") } },
                            onRollback: { _ in withExtendedLifetime(witness) { outcomes.append("rollback") } })
                    }
                    if !registersBetween { register() }
                    if !start.isEmpty { try db.execute(sql: start) }
                    if registersBetween { register() }
                    #expect(weakWitness != nil)
                    try db.execute(sql: end)
                    #expect(outcomes == [commits ? "commit" : "rollback"], "\(start); \(end)")
                    #expect(weakWitness == nil, "\(start); \(end)")
                    try db.inTransaction {
                        try db.execute(sql: "DROP TABLE IF EXISTS scratch; CREATE TABLE scratch(q)")
                        return .commit
                    }
                    #expect(outcomes == [commits ? "commit" : "rollback"], "\(start); \(end)")
                }
            }
        }
    }

    // MARK: - Transaction date

    final class Dates: @unchecked Sendable {
        let lock = NSLock()
        var next = 0
        func date() -> Date {
            lock.withLock {
                next += 1
                return Date(timeIntervalSince1970: Double(next * 1000))
            }
        }
    }

    func datedQueue() throws -> DatabaseQueue {
        let dates = Dates()
        var config = Configuration()
        config.transactionClock = .custom { _ in dates.date() }
        return try DatabaseQueue(configuration: config)
    }

    func seconds(_ date: Date) -> Int { Int(date.timeIntervalSince1970) }

    /// Outside of a transaction, each call reads the clock; inside, the
    /// first call does, and the date lasts until the transaction ends, by a
    /// commit, a rollback, or a failure that rolled it back.
    @Test func transactionDate() throws {
        try datedQueue().inDatabase { db in
            let dates = try [db.transactionDate, db.transactionDate, db.transactionDate]
            #expect(dates.map(seconds) == [1000, 2000, 3000])
        }
        for end in ["COMMIT", "ROLLBACK"] {
            try datedQueue().inDatabase { db in
                var dates = [try db.transactionDate]
                try db.execute(sql: "BEGIN")
                dates.append(try db.transactionDate)
                dates.append(try db.transactionDate)
                try db.execute(sql: end)
                dates.append(try db.transactionDate)
                #expect(dates.map(seconds) == [1000, 2000, 2000, 3000], "\(end)")
            }
        }
        try datedQueue().inDatabase { db in
            var dates = [try db.transactionDate]
            try db.execute(sql: "BEGIN")
            dates.append(try db.transactionDate)
            dates.append(try db.transactionDate)
            try? db.execute(sql: """
                CREATE TABLE t(id INTEGER PRIMARY KEY ON CONFLICT ROLLBACK);
                INSERT INTO t VALUES (1);
                INSERT INTO t VALUES (1);
                """)
            #expect(!db.isInsideTransaction)
            dates.append(try db.transactionDate)
            #expect(dates.map(seconds) == [1000, 2000, 2000, 3000])
        }
    }

    // MARK: - Regions

    static let sampleRegions: [DatabaseRegion] = [
        .fullDatabase,
        DatabaseRegion(),
        DatabaseRegion(table: "foo"),
        DatabaseRegion(table: "foo", columns: ["a", "b"]),
        DatabaseRegion(table: "foo", columns: ["b", "c"]),
        DatabaseRegion(table: "foo", rowIDs: [1, 2]),
        DatabaseRegion(table: "foo", rowIDs: [2, 3]),
        DatabaseRegion(table: "bar"),
    ]

    @Test func regionsAreDistinct() {
        for (i, lhs) in Self.sampleRegions.enumerated() {
            for (j, rhs) in Self.sampleRegions.enumerated() {
                #expect((lhs == rhs) == (i == j), "\(lhs) \(rhs)")
            }
        }
    }

    @Test func regionUnionDescriptions() {
        let table = Self.sampleRegions.map { lhs in Self.sampleRegions.map { lhs.union($0).description } }
        #expect(table[0] == Array(repeating: "full database", count: 8))
        #expect(table.map { $0[0] } == Array(repeating: "full database", count: 8))
        #expect(table[1] == ["full database", "empty", "foo(*)", "foo(a,b)", "foo(b,c)", "foo(*)[1,2]", "foo(*)[2,3]", "bar(*)"])
        #expect(table[2] == ["full database", "foo(*)", "foo(*)", "foo(*)", "foo(*)", "foo(*)", "foo(*)", "bar(*),foo(*)"])
        #expect(table[3] == ["full database", "foo(a,b)", "foo(*)", "foo(a,b)", "foo(a,b,c)", "foo(*)", "foo(*)", "bar(*),foo(a,b)"])
        #expect(table[5] == ["full database", "foo(*)[1,2]", "foo(*)", "foo(*)", "foo(*)", "foo(*)[1,2]", "foo(*)[1,2,3]", "bar(*),foo(*)[1,2]"])
        #expect(table[7] == ["full database", "bar(*)", "bar(*),foo(*)", "bar(*),foo(a,b)", "bar(*),foo(b,c)", "bar(*),foo(*)[1,2]", "bar(*),foo(*)[2,3]", "bar(*)"])
        let mixed = [
            DatabaseRegion(table: "foo", columns: ["x"]).intersection(DatabaseRegion(table: "foo", rowIDs: [4])),
            DatabaseRegion(table: "foo", columns: ["y"]).intersection(DatabaseRegion(table: "foo", rowIDs: [5])),
        ]
        #expect(mixed.flatMap { lhs in mixed.map { lhs.union($0).description } }
                == ["foo(x)[4]", "foo(x,y)[4,5]", "foo(x,y)[4,5]", "foo(y)[5]"])
    }

    @Test func regionIntersectionDescriptions() {
        let table = Self.sampleRegions.map { lhs in Self.sampleRegions.map { lhs.intersection($0).description } }
        #expect(table[0] == ["full database", "empty", "foo(*)", "foo(a,b)", "foo(b,c)", "foo(*)[1,2]", "foo(*)[2,3]", "bar(*)"])
        #expect(table[1] == Array(repeating: "empty", count: 8))
        #expect(table[2] == ["foo(*)", "empty", "foo(*)", "foo(a,b)", "foo(b,c)", "foo(*)[1,2]", "foo(*)[2,3]", "empty"])
        #expect(table[3] == ["foo(a,b)", "empty", "foo(a,b)", "foo(a,b)", "foo(b)", "foo(a,b)[1,2]", "foo(a,b)[2,3]", "empty"])
        #expect(table[5] == ["foo(*)[1,2]", "empty", "foo(*)[1,2]", "foo(a,b)[1,2]", "foo(b,c)[1,2]", "foo(*)[1,2]", "foo(*)[2]", "empty"])
        #expect(table[7] == ["bar(*)", "empty", "empty", "empty", "empty", "empty", "empty", "bar(*)"])
        let mixed = [
            DatabaseRegion(table: "foo", columns: ["x"]).intersection(DatabaseRegion(table: "foo", rowIDs: [4])),
            DatabaseRegion(table: "foo", columns: ["y"]).intersection(DatabaseRegion(table: "foo", rowIDs: [5])),
        ]
        #expect(mixed.flatMap { lhs in mixed.map { lhs.intersection($0).description } }
                == ["foo(x)[4]", "empty", "empty", "foo(y)[5]"])
    }

    @Test func regionIsModifiedByEventKinds() {
        let empty = DatabaseRegion()
        for kind in [DatabaseEventKind.insert(tableName: "t"), .delete(tableName: "t"), .update(tableName: "t", columnNames: ["a"])] {
            #expect(!empty.isModified(byEventsOfKind: kind))
            #expect(DatabaseRegion.fullDatabase.isModified(byEventsOfKind: kind))
        }
        #expect(DatabaseRegion.fullDatabase.isModified(by: DatabaseEvent(kind: .update, rowID: 3, tableName: "t")))

        let region = DatabaseRegion(table: "t")
            .union(DatabaseRegion(table: "u", columns: ["a"]).intersection(DatabaseRegion(table: "u", rowIDs: [1])))
        #expect(region.description == "t(*),u(a)[1]")
        for kind in [DatabaseEvent.Kind.insert, .delete, .update] {
            #expect(region.isModified(by: DatabaseEvent(kind: kind, rowID: 1, tableName: "t")))
            #expect(region.isModified(by: DatabaseEvent(kind: kind, rowID: 2, tableName: "t")))
            #expect(region.isModified(by: DatabaseEvent(kind: kind, rowID: 1, tableName: "u")))
            #expect(!region.isModified(by: DatabaseEvent(kind: kind, rowID: 2, tableName: "u")))
        }
        #expect(region.isModified(byEventsOfKind: .insert(tableName: "u")))
        #expect(region.isModified(byEventsOfKind: .delete(tableName: "u")))
        #expect(region.isModified(byEventsOfKind: .update(tableName: "u", columnNames: ["a", "b"])))
        #expect(!region.isModified(byEventsOfKind: .update(tableName: "u", columnNames: ["b", "c"])))
        #expect(region.isModified(byEventsOfKind: .update(tableName: "t", columnNames: ["z"])))
        #expect(!region.isModified(byEventsOfKind: .insert(tableName: "v")))
        #expect(!region.isModified(byEventsOfKind: .delete(tableName: "v")))
        #expect(!region.isModified(byEventsOfKind: .update(tableName: "v", columnNames: ["a"])))
    }

    @Test func statementRegions() throws {
        try DatabaseQueue().inDatabase { db in
            try db.execute(sql: "CREATE TABLE foo (id INTEGER, name TEXT); CREATE TABLE bar (id INTEGER, fooId INTEGER)")
            let join = try db.makeStatement(sql: "SELECT foo.name FROM FOO JOIN BAR ON fooId = foo.id")
            #expect(join.databaseRegion.description == "bar(fooId),foo(id,name)")
            #expect(join.databaseRegion == DatabaseRegion(table: "foo", columns: ["name", "id"]).union(DatabaseRegion(table: "bar", columns: ["fooId"])))
            #expect(try db.makeStatement(sql: "SELECT COUNT(*) FROM foo").databaseRegion.description == "foo(*)")

            try db.execute(sql: "CREATE TABLE pk (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE textpk (id TEXT, name TEXT)")
            // A selection of the INTEGER PRIMARY KEY alone is left out: SQLite
            // 3.50 reports it as a read of no column, which Cairn takes as a
            // read of the whole table (`pk(*)`).
            let cases = [("pk", ["name"]), ("pk", ["id", "name"]), ("textpk", ["id"]), ("textpk", ["name"]), ("textpk", ["id", "name"])]
            for (table, columns) in cases {
                do {
                    let region = try db.makeStatement(sql: "SELECT \(columns.joined(separator: ", ")) FROM \(table)").databaseRegion
                    #expect(region.description == DatabaseRegion(table: table, columns: columns).description)
                    #expect(region == DatabaseRegion(table: table, columns: columns))
                }
            }
        }
    }

    struct Item: TableRecord {
        static let databaseTableName = "item"
    }

    @Test func requestRegionsWithRowIDs() throws {
        try DatabaseQueue().inDatabase { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, label TEXT)")
            let id = Column("id")
            let label = Column("label")
            let cases: [(QueryInterfaceRequest<Item>, String)] = [
                (Item.all(), "item(id,label)"),
                (Item.filter(label == 1), "item(id,label)"),
                (Item.filter(id >= 1), "item(id,label)"),
                (Item.filter(id == 1 || label == "x"), "item(id,label)"),
                (Item.filter(id == nil), "empty"),
                (Item.filter(id === nil), "empty"),
                (Item.filter(nil == id), "empty"),
                (Item.filter(id == 1 && id == 2), "empty"),
                (Item.filter(key: 1).filter(key: 2), "empty"),
                (Item.filter(id == 1), "item(id,label)[1]"),
                (Item.filter(id === 1), "item(id,label)[1]"),
                (Item.filter(id == 1 && label == "x"), "item(id,label)[1]"),
                (Item.filter(Column.rowID == 1), "item(id,label)[1]"),
                (Item.filter(1 == id), "item(id,label)[1]"),
                (Item.filter(1 === Column.rowID), "item(id,label)[1]"),
                (Item.filter(key: 1), "item(id,label)[1]"),
                (Item.filter(key: 1).filter(key: 1), "item(id,label)[1]"),
                (Item.filter(key: 1).filter(label == "x"), "item(id,label)[1]"),
                (Item.filter(id == 1 || Column.rowID == 2), "item(id,label)[1,2]"),
                (Item.filter((id == 1 && label == "x") || Column.rowID == 2), "item(id,label)[1,2]"),
                (Item.filter([1, 2, 3].contains(id)), "item(id,label)[1,2,3]"),
                (Item.filter([1, 2, 3].contains(Column.rowID)), "item(id,label)[1,2,3]"),
                (Item.filter(keys: [1, 2, 3]), "item(id,label)[1,2,3]"),
            ]
            for (request, expected) in cases {
                #expect(try request.databaseRegion(db).description == expected, "\(expected)")
            }
            let request = Item.filter(keys: [1, 2, 3])
            #expect(try AnyFetchRequest(request.asRequest(of: Row.self)).databaseRegion(db).description == "item(id,label)[1,2,3]")
            #expect(try request.adapted { _ in SuffixRowAdapter(fromIndex: 1) }.databaseRegion(db).description == "item(id,label)[1,2,3]")
        }
    }

    struct Owner: TableRecord {
        static let databaseTableName = "owner"
        static let pet = hasOne(Pet.self)
        static let toys = hasMany(Toy.self)
    }
    struct Pet: TableRecord {
        static let databaseTableName = "pet"
        static let owner = belongsTo(Owner.self)
    }
    struct Toy: TableRecord {
        static let databaseTableName = "toy"
    }

    /// The rowids of joined tables are not tracked: only those of the
    /// main table.
    @Test func joinedRequestRegions() throws {
        try DatabaseQueue().inDatabase { db in
            try db.execute(sql: """
                CREATE TABLE owner (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE pet (id INTEGER PRIMARY KEY, name TEXT, ownerId INTEGER REFERENCES owner(id));
                CREATE TABLE toy (id INTEGER PRIMARY KEY, name TEXT, ownerId INTEGER REFERENCES owner(id));
                """)
            let first = Owner.filter(key: 1)
                .including(optional: Owner.pet.filter(key: 2))
                .including(optional: Owner.toys.filter(keys: [1, 2, 3]))
            #expect(try first.databaseRegion(db).description == "owner(id,name)[1],pet(id,name,ownerId),toy(id,name,ownerId)")
            let second = Pet.filter(key: 1)
                .including(optional: Pet.owner.filter(key: 2).including(optional: Owner.toys.filter(keys: [1, 2, 3])))
            #expect(try second.databaseRegion(db).description == "owner(id,name),pet(id,name,ownerId)[1],toy(id,name,ownerId)")
        }
    }
}
