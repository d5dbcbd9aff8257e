#if SQLITE_ENABLE_SESSION
import Foundation
import Testing
import Cairn

/// The session extension (trait SQLITE_ENABLE_SESSION): recording changes,
/// reading, inverting and concatenating changesets, applying them with
/// conflict handlers, and the session's life on its connection.
@Suite struct DatabaseSessionTests {
    static let schema = """
        CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE player (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            score INTEGER CHECK (score >= 0),
            teamId INTEGER REFERENCES team(id));
        CREATE TABLE note (text TEXT);
        """

    /// A writer on a new file with the schema.
    func makeWriter(_ kind: WriterKind, _ directory: TemporaryDirectory, name: String) throws -> any DatabaseWriter {
        let writer = try kind.make(path: directory.filePath(name))
        try writer.write { db in try db.execute(sql: DatabaseSessionTests.schema) }
        return writer
    }

    func players(_ reader: some DatabaseReader) throws -> [Row] {
        try reader.read { db in try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY id") }
    }

    @Test(arguments: WriterKind.allCases)
    func twoDatabasesKeptInSyncThroughChangesets(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let source = try makeWriter(kind, directory, name: "source.sqlite")
        let replica = try makeWriter(kind, directory, name: "replica.sqlite")

        // A session kept between accesses records all of them.
        let session = try source.write { db in
            let session = try DatabaseSession(db)
            try session.attachAllTables()
            #expect(try session.isEmpty)
            return session
        }
        try source.write { db in
            try db.execute(sql: """
                INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 100), (2, 'Barbara', 200);
                INSERT INTO note (text) VALUES ('no primary key: not recorded');
                """)
        }
        let first = try source.write { db in try session.changeset() }
        try replica.write { db in try db.apply(first) { _ in .abort } }
        #expect(try players(replica) == players(source))

        // Later changes: a new session, so that the changeset holds them only.
        let second = try source.write { db in
            let session = try DatabaseSession(db)
            try session.attach("player")
            try db.execute(sql: "UPDATE player SET score = 150 WHERE id = 1; DELETE FROM player WHERE id = 2")
            return try session.changeset()
        }
        try replica.write { db in try db.apply(second) { _ in .abort } }
        #expect(try players(replica) == players(source))
        #expect(try replica.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note") } == 0)

        // Inverting the second changeset brings the first state back.
        try replica.write { db in try db.apply(second.inverted()) { _ in .abort } }
        #expect(try players(replica).map { $0["score"] as Int } == [100, 200])
        try source.write { db in _ = try session.isEmpty }
    }

    @Test func operationsDescribeTheChanges() throws {
        let dbQueue = try DatabaseQueue()
        let changeset = try dbQueue.write { db in
            try db.execute(sql: DatabaseSessionTests.schema)
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 100), (2, 'Barbara', 200)")
            let session = try DatabaseSession(db)
            try session.attach("player")
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (3, 'Craig', NULL)")
            try db.execute(sql: "UPDATE player SET score = 150 WHERE id = 1")
            try session.setIndirect(true)
            try db.execute(sql: "DELETE FROM player WHERE id = 2")
            return try session.changeset()
        }
        #expect(!changeset.isPatchset)
        // Ordered by the primary key of the row.
        let operations = try changeset.operations().sorted { lhs, rhs in
            let lhsID = Int64.fromDatabaseValue((lhs.oldValues[0] ?? lhs.newValues[0])!)!
            let rhsID = Int64.fromDatabaseValue((rhs.oldValues[0] ?? rhs.newValues[0])!)!
            return lhsID < rhsID
        }
        #expect(operations.map(\.kind) == [.update, .delete, .insert])
        #expect(operations.allSatisfy { $0.tableName == "player" })
        #expect(operations.allSatisfy { $0.primaryKeyColumns == [true, false, false, false] })
        #expect(operations.map(\.isIndirect) == [false, true, false])

        let update = operations[0]
        #expect(update.oldValues == [1.databaseValue, nil, 100.databaseValue, nil])
        #expect(update.newValues == [nil, nil, 150.databaseValue, nil])
        let delete = operations[1]
        #expect(delete.oldValues == [2.databaseValue, "Barbara".databaseValue, 200.databaseValue, .null])
        #expect(delete.newValues == [nil, nil, nil, nil])
        let insert = operations[2]
        #expect(insert.oldValues == [nil, nil, nil, nil])
        #expect(insert.newValues == [3.databaseValue, "Craig".databaseValue, .null, .null])
    }

    @Test func patchsetsAndConcatenation() throws {
        let dbQueue = try DatabaseQueue()
        let (first, second, patchset) = try dbQueue.write { db in
            try db.execute(sql: DatabaseSessionTests.schema)
            let session1 = try DatabaseSession(db)
            try session1.attach("player")
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 100)")
            let first = try session1.changeset()
            let session2 = try DatabaseSession(db)
            try session2.attach("player")
            try db.execute(sql: "UPDATE player SET score = 300 WHERE id = 1")
            return (first, try session2.changeset(), try session2.patchset())
        }
        #expect(patchset.isPatchset)
        #expect(patchset.data.count < second.data.count)
        #expect { try patchset.inverted() } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_CORRUPT
        }

        // An insert followed by an update is one insert of the final row.
        let both = try first.concatenated(with: second)
        let operations = try both.operations()
        #expect(operations.count == 1)
        #expect(operations.first?.kind == .insert)
        #expect(operations.first?.newValues[2] == 300.databaseValue)
        #expect(try Changeset.concatenating([first, second]) == both)
        #expect(try Changeset.concatenating([]).isEmpty)

        // A changeset and a patchset do not mix.
        #expect(throws: DatabaseError.self) { try first.concatenated(with: patchset) }

        // The patchset applies.
        let replica = try DatabaseQueue()
        try replica.write { db in
            try db.execute(sql: DatabaseSessionTests.schema)
            try db.apply(first) { _ in .abort }
            try db.apply(patchset) { _ in .abort }
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player") == 300)
        }
    }

    /// A replica where player 1 differs from the source, player 2 is
    /// missing, and player 3 already exists.
    func conflictingReplica() throws -> (replica: DatabaseQueue, changeset: Changeset) {
        let source = try DatabaseQueue()
        let changeset = try source.write { db in
            try db.execute(sql: DatabaseSessionTests.schema)
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 100), (2, 'Barbara', 200)")
            let session = try DatabaseSession(db)
            try session.attach("player")
            try db.execute(sql: """
                UPDATE player SET score = 150 WHERE id = 1;
                DELETE FROM player WHERE id = 2;
                INSERT INTO player (id, name, score) VALUES (3, 'Craig', 300);
                """)
            return try session.changeset()
        }
        let replica = try DatabaseQueue()
        try replica.write { db in
            try db.execute(sql: DatabaseSessionTests.schema)
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 999), (3, 'Other', 0)")
        }
        return (replica, changeset)
    }

    @Test func conflictsAreReportedAndResolved() throws {
        let (replica, changeset) = try conflictingReplica()
        var conflicts: [ChangesetConflict] = []
        try replica.write { db in
            try db.apply(changeset) { conflict in
                conflicts.append(conflict)
                return conflict.kind == .notFound ? .omit : .replace
            }
        }
        let kinds = conflicts.map(\.kind)
        #expect(Set(kinds) == [.data, .notFound, .conflict])
        let data = try #require(conflicts.first { $0.kind == .data })
        #expect(data.operation?.kind == .update)
        #expect(data.conflictingValues?[2] == 999.databaseValue)
        let conflict = try #require(conflicts.first { $0.kind == .conflict })
        #expect(conflict.operation?.kind == .insert)
        #expect(conflict.conflictingValues?[1] == "Other".databaseValue)
        #expect(conflicts.first { $0.kind == .notFound }?.operation?.oldValues[0] == 2.databaseValue)
        // The changeset won where it replaced.
        let rows = try replica.read { db in try Row.fetchAll(db, sql: "SELECT id, name, score FROM player ORDER BY id") }
        #expect(rows == [["id": 1, "name": "Arthur", "score": 150], ["id": 3, "name": "Craig", "score": 300]])
    }

    @Test func omittedConflictsKeepTheDatabaseValues() throws {
        let (replica, changeset) = try conflictingReplica()
        try replica.write { db in try db.apply(changeset) { _ in .omit } }
        let scores = try replica.read { db in try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") }
        #expect(scores == [999, 0])
    }

    @Test func abortingOrThrowingAppliesNothing() throws {
        struct Refused: Error, Equatable { }
        for resolution in [ChangesetConflictResolution.abort, .replace] {
            let (replica, changeset) = try conflictingReplica()
            let before = try players(replica)
            try replica.write { db in
                do {
                    try db.apply(changeset) { conflict in
                        // .replace is not allowed for missing rows.
                        conflict.kind == .notFound ? resolution : .omit
                    }
                    Issue.record("expected an error")
                } catch let error as DatabaseError {
                    #expect(error.resultCode == (resolution == .abort ? .SQLITE_ABORT : .SQLITE_MISUSE))
                    if resolution == .replace {
                        #expect(error.message?.contains(".replace resolves .data and .conflict conflicts only") == true)
                    }
                }
            }
            #expect(try players(replica) == before)
        }
        let (replica, changeset) = try conflictingReplica()
        let before = try players(replica)
        try replica.write { db in
            #expect(throws: Refused()) {
                try db.apply(changeset) { _ in throw Refused() }
            }
            // The transaction of the block goes on.
            try db.execute(sql: "INSERT INTO note (text) VALUES ('after')")
        }
        #expect(try players(replica) == before)
        #expect(try replica.read { db in try String.fetchOne(db, sql: "SELECT text FROM note") } == "after")
    }

    @Test func constraintAndForeignKeyConflicts() throws {
        let source = try DatabaseQueue()
        let changeset = try source.write { db in
            try db.execute(sql: "CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id))")
            let session = try DatabaseSession(db)
            try session.attachAllTables()
            try db.execute(sql: "INSERT INTO team (id, name) VALUES (1, 'Red')")
            try db.execute(sql: "INSERT INTO player (id, teamId) VALUES (1, 1)")
            return try session.changeset()
        }
        // The replica already has a team named Red (UNIQUE), so team 1 is
        // not inserted, and player 1 refers to a missing team.
        let replica = try DatabaseQueue()
        try replica.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id))")
            try db.execute(sql: "INSERT INTO team (id, name) VALUES (2, 'Red')")
        }
        var kinds: [ChangesetConflict.Kind] = []
        var violations = 0
        try replica.writeWithoutTransaction { db throws -> Void in
            #expect(throws: DatabaseError.self) {
                try db.apply(changeset) { conflict in
                    kinds.append(conflict.kind)
                    if conflict.kind == .foreignKey {
                        violations = conflict.foreignKeyViolationCount
                        #expect(conflict.operation == nil)
                        return .abort
                    }
                    return .omit
                }
            }
        }
        #expect(kinds == [.constraint, .foreignKey])
        #expect(violations == 1)
        #expect(try replica.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)

        // Omitting the foreign key conflict commits anyway.
        try replica.writeWithoutTransaction { db in
            try db.apply(changeset) { _ in .omit }
        }
        #expect(try replica.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
    }

    @Test func corruptChangesetsThrowAndApplyNothing() throws {
        let dbQueue = try DatabaseQueue()
        var changeset = try dbQueue.write { db in
            try db.execute(sql: DatabaseSessionTests.schema)
            let session = try DatabaseSession(db)
            try session.attach("player")
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 100), (2, 'Barbara', 200)")
            return try session.changeset()
        }
        // Cut in the middle of the second row.
        changeset = Changeset(data: changeset.data.prefix(changeset.data.count - 5))
        let replica = try DatabaseQueue()
        try replica.write { db in try db.execute(sql: DatabaseSessionTests.schema) }
        try replica.write { db throws -> Void in
            #expect { try db.apply(changeset) { _ in .abort } } throws: { error in
                (error as? DatabaseError)?.resultCode.primaryResultCode == .SQLITE_CORRUPT
            }
        }
        #expect(try players(replica).isEmpty)
        #expect { try changeset.operations() } throws: { error in
            (error as? DatabaseError)?.resultCode.primaryResultCode == .SQLITE_CORRUPT
        }
        let garbage = Changeset(data: Data("not a changeset at all".utf8))
        #expect(throws: DatabaseError.self) { try garbage.operations() }
        #expect(throws: DatabaseError.self) { try garbage.inverted() }
        try replica.write { db throws -> Void in
            #expect(throws: DatabaseError.self) { try db.apply(garbage) { _ in .omit } }
        }
        #expect(try players(replica).isEmpty)
    }

    @Test func filtersChooseTables() throws {
        let source = try DatabaseQueue()
        let changeset = try source.write { db in
            try db.execute(sql: DatabaseSessionTests.schema)
            let session = try DatabaseSession(db)
            try session.attachAllTables()
            try db.execute(sql: "INSERT INTO team (id, name) VALUES (1, 'Red')")
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            return try session.changeset()
        }
        let replica = try DatabaseQueue()
        var filteredTables: [String] = []
        try replica.write { db in
            try db.execute(sql: DatabaseSessionTests.schema)
            try db.apply(changeset, filter: { table in
                filteredTables.append(table)
                return table == "team"
            }, onConflict: { _ in .abort })
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
        }
        #expect(Set(filteredTables) == ["team", "player"])
    }

    @Test func sessionsAndTransactionObserversShareThePreUpdateHook() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: DatabaseSessionTests.schema) }
        // An observer before the session, and one after.
        let before = RecordingObserver()
        let after = RecordingObserver()
        dbQueue.add(transactionObserver: before, extent: .databaseLifetime)
        let changeset = try dbQueue.write { db in
            let session = try DatabaseSession(db)
            try session.attach("player")
            db.add(transactionObserver: after, extent: .databaseLifetime)
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 100)")
            // A second session, deleted before the end of the access.
            do {
                let other = try DatabaseSession(db)
                try other.attach("player")
                try db.execute(sql: "UPDATE player SET score = 110 WHERE id = 1")
                #expect(try other.changeset().operations().count == 1)
            }
            try db.execute(sql: "UPDATE player SET score = 120 WHERE id = 1")
            return try session.changeset()
        }
        #expect(before.preUpdateEvents.count == 3)
        #expect(after.preUpdateEvents.count == 3)
        let operations = try changeset.operations()
        #expect(operations.count == 1)
        #expect(operations.first?.newValues[2] == 120.databaseValue)

        // Sessions gone, observers keep hearing of changes.
        try dbQueue.write { db in try db.execute(sql: "DELETE FROM player") }
        #expect(before.preUpdateEvents.count == 4)
        #expect(after.preUpdateEvents.count == 4)
    }

    /// A changeset that inserts player 1 and updates nothing else.
    func insertion() throws -> Changeset {
        let source = try DatabaseQueue()
        return try source.write { db in
            try db.execute(sql: DatabaseSessionTests.schema)
            let session = try DatabaseSession(db)
            try session.attach("player")
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 100)")
            return try session.changeset()
        }
    }

    @Test func transactionObserversHearOfAppliedChanges() throws {
        let changeset = try insertion()
        let replica = try DatabaseQueue()
        try replica.write { db in try db.execute(sql: DatabaseSessionTests.schema) }
        let playerObserver = RecordingObserver(observing: ["player"])
        let teamObserver = RecordingObserver(observing: ["team"])
        replica.add(transactionObserver: playerObserver, extent: .databaseLifetime)
        replica.add(transactionObserver: teamObserver, extent: .databaseLifetime)

        // Outside of a transaction: the application commits by itself.
        try replica.writeWithoutTransaction { db in
            try db.apply(changeset) { _ in .abort }
            #expect(playerObserver.undescribedChangeCount == 1)
            #expect(playerObserver.log == ["willCommit", "didCommit"])
        }
        #expect(teamObserver.undescribedChangeCount == 0)

        // Inside a transaction: observers hear of the commit of the block.
        let undo = try changeset.inverted()
        try replica.write { db in
            try db.apply(undo) { _ in .abort }
            #expect(playerObserver.undescribedChangeCount == 2)
            #expect(playerObserver.log.count == 2)
        }
        #expect(playerObserver.log == ["willCommit", "didCommit", "willCommit", "didCommit"])

        // A ValueObservation fetches again.
        let observation = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
        let values = Locked<[Int]>([])
        let received = DispatchSemaphore(value: 0)
        let cancellable = observation.start(
            in: replica, scheduling: .async(onQueue: DispatchQueue(label: "observation")),
            onError: { error in Issue.record(error) },
            onChange: { count in
                values.withLock { $0.append(count) }
                received.signal()
            })
        #expect(received.wait(timeout: .now() + 10) == .success)
        try replica.writeWithoutTransaction { db in try db.apply(changeset) { _ in .abort } }
        #expect(received.wait(timeout: .now() + 10) == .success)
        cancellable.cancel()
        #expect(values.withLock { $0 } == [0, 1])
    }

    @Test func aVetoOfTheCommitOfAnApplicationIsThrown() throws {
        let changeset = try insertion()
        let replica = try DatabaseQueue()
        try replica.write { db in try db.execute(sql: DatabaseSessionTests.schema) }
        let observer = RecordingObserver()
        observer.commitError = VetoError()
        replica.add(transactionObserver: observer, extent: .databaseLifetime)
        try replica.writeWithoutTransaction { db throws -> Void in
            #expect(throws: VetoError()) { try db.apply(changeset) { _ in .abort } }
        }
        #expect(try players(replica).isEmpty)
        #expect(observer.log.last == "didRollback")
    }

    @Test func applicationsAfterAnAbortedTransactionOrInsideThemselvesThrow() throws {
        let changeset = try insertion()
        let replica = try DatabaseQueue()
        try replica.write { db in
            try db.execute(sql: DatabaseSessionTests.schema)
            try db.execute(sql: "INSERT INTO team (id, name) VALUES (1, 'Red')")
        }
        // A failure that rolls back the transaction of the block: the
        // changeset must not be committed on its own afterwards.
        #expect(throws: DatabaseError.self) {
            try replica.write { db in
                _ = try? db.execute(sql: "INSERT OR ROLLBACK INTO team (id, name) VALUES (2, 'Red')")
                #expect {
                    try db.apply(changeset) { _ in .abort }
                } throws: { error in
                    (error as? DatabaseError)?.resultCode == .SQLITE_ABORT
                }
            }
        }
        #expect(try players(replica).isEmpty)

        // An application from the conflict handler of another.
        try replica.write { db in
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Other', 0)")
        }
        try replica.writeWithoutTransaction { db throws -> Void in
            #expect {
                try db.apply(changeset) { _ in
                    try db.apply(changeset) { _ in .omit }
                    return .omit
                }
            } throws: { error in
                (error as? DatabaseError)?.resultCode == .SQLITE_MISUSE
                    && "\(error)".contains("cannot run from inside itself")
            }
        }
        #expect(try players(replica).map { $0["name"] as String } == ["Other"])
    }

    @Test func sessionsLiveInsideAccessesToTheirConnection() throws {
        let dbQueue = try DatabaseQueue()
        let session = try dbQueue.write { db in
            try db.execute(sql: DatabaseSessionTests.schema)
            return try DatabaseSession(db)
        }
        // Outside of an access: a thrown error.
        #expect { try session.attach("player") } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_MISUSE
                && "\(error)".contains("outside of an access to its connection")
        }
        // Inside an access to another connection: the same.
        let other = try DatabaseQueue()
        other.inDatabase { _ -> Void in
            #expect(throws: DatabaseError.self) { try session.changeset() }
        }
        // Released outside of an access: deleted at the next access, and
        // the connection goes on.
        do {
            let released = try dbQueue.write { db in
                let session = try DatabaseSession(db)
                try session.attach("player")
                return session
            }
            _ = released
        }
        try dbQueue.write { db in
            try session.attach("player")
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            #expect(try !session.isEmpty)
        }
        // The queue closes with the session alive: the session is deleted
        // first, and says so afterwards.
        try dbQueue.close()
        #expect(throws: DatabaseError.self) { try session.isEmpty }
    }

    @Test func enablingAndDifferences() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: DatabaseSessionTests.schema)
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 100), (2, 'Barbara', 200)")
            try db.execute(sql: "ATTACH DATABASE ? AS old", arguments: [directory.filePath("old.sqlite")])
            try db.execute(sql: "CREATE TABLE old.player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER, teamId INTEGER)")
            try db.execute(sql: "INSERT INTO old.player (id, name, score) VALUES (1, 'Arthur', 50), (3, 'Craig', 300)")

            let session = try DatabaseSession(db)
            try session.attach("player")
            try session.setEnabled(false)
            #expect(try session.isEnabled == false)
            try db.execute(sql: "UPDATE player SET score = 0 WHERE id = 2")
            #expect(try session.isEmpty)
            try session.setEnabled(true)
            try db.execute(sql: "UPDATE player SET score = 200 WHERE id = 2")
            #expect(try !session.isEmpty)

            // What turns old.player into main.player.
            let diff = try DatabaseSession(db)
            try diff.attach("player")
            try diff.recordDifferences(from: "old", table: "player")
            let kinds = try diff.changeset().operations().map(\.kind).sorted { "\($0)" < "\($1)" }
            #expect(kinds == [.delete, .insert, .update])
            #expect(throws: DatabaseError.self) { try diff.recordDifferences(from: "missing", table: "player") }
        }
    }
}
#endif
