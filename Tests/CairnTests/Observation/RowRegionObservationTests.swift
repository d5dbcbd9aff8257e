import Dispatch
import Foundation
import Testing
import Cairn

/// Observations of some rows see every change of these rows: updates that
/// move a row in or out of them (SQLite's update hook reports the new
/// rowid only), deletions, insertions, and the deletions of REPLACE; not
/// the changes of other rows. Tables whose rows cannot be tracked are
/// observed whole.
///
/// Region observations notify their commits on the writer's queue, before
/// the write returns, and value observations tell `databaseDidChange`
/// there too: the counts are exact after each write, on a queue and a pool.
@Suite struct RowRegionObservationTests {
    let directory: TemporaryDirectory
    let queue = DispatchQueue(label: "test.rowRegionObservation")

    init() throws {
        directory = try TemporaryDirectory()
    }

    func makeWriter(_ kind: WriterKind) throws -> any DatabaseWriter {
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT UNIQUE, score INT);
                CREATE TABLE tag (id INTEGER PRIMARY KEY, label TEXT) WITHOUT ROWID;
                CREATE VIEW playerView AS SELECT id, name FROM player;
                INSERT INTO player (id, name) VALUES (1, 'a'), (2, 'b'), (3, 'c');
                """)
        }
        return writer
    }

    /// Runs a statement in a write, and returns the count afterwards.
    func write(_ writer: any DatabaseWriter, _ sql: String, count: Locked<Int>) throws -> Int {
        try writer.write { db in try db.execute(sql: sql) }
        return count.withLock { $0 }
    }

    @Test(arguments: WriterKind.allCases)
    func regionObservationSeesTheChangesOfItsRows(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let count = Locked(0)
        let cancellable = DatabaseRegionObservation(tracking: Table("player").filter(key: 1))
            .start(in: writer, onError: { _ in }, onChange: { _ in count.withLock { $0 += 1 } })
        defer { cancellable.cancel() }

        // Other rows.
        #expect(try write(writer, "UPDATE player SET score = 1 WHERE id = 2", count: count) == 0)
        #expect(try write(writer, "INSERT INTO player (id, name) VALUES (4, 'd')", count: count) == 0)
        #expect(try write(writer, "DELETE FROM player WHERE id = 4", count: count) == 0)
        #expect(try write(writer, "UPDATE player SET id = 5 WHERE id = 3", count: count) == 0)
        // The row moves away: the update hook tells the rowid 10 only.
        #expect(try write(writer, "UPDATE player SET id = 10 WHERE id = 1", count: count) == 1)
        // Another row moves in.
        #expect(try write(writer, "UPDATE player SET id = 1 WHERE id = 2", count: count) == 2)
        #expect(try write(writer, "UPDATE player SET score = 2 WHERE id = 1", count: count) == 3)
        #expect(try write(writer, "DELETE FROM player WHERE id = 1", count: count) == 4)
        #expect(try write(writer, "INSERT INTO player (id, name) VALUES (1, 'e')", count: count) == 5)
        // REPLACE deletes the row 1, whose name conflicts: the update hook
        // does not tell.
        #expect(try write(writer, "INSERT OR REPLACE INTO player (id, name) VALUES (20, 'e')", count: count) == 6)
        #expect(try write(writer, "UPDATE player SET id = 30 WHERE id = 20", count: count) == 6)
        // Inside a savepoint, the events wait for its release.
        #expect(try write(writer, "INSERT INTO player (id, name) VALUES (1, 'f')", count: count) == 7)
        try writer.write { db in
            try db.inSavepoint {
                try db.execute(sql: "UPDATE player SET id = 40 WHERE id = 1")
                return .commit
            }
        }
        #expect(count.withLock { $0 } == 8)
        // A savepoint that rolls back changed nothing.
        #expect(try write(writer, "INSERT INTO player (id, name) VALUES (1, 'g')", count: count) == 9)
        try writer.write { db in
            try db.execute(sql: "UPDATE player SET score = 3 WHERE id = 5")
            try db.inSavepoint {
                try db.execute(sql: "UPDATE player SET id = 50 WHERE id = 1")
                return .rollback
            }
        }
        #expect(count.withLock { $0 } == 9)
    }

    @Test(arguments: WriterKind.allCases)
    func valueObservationSeesRowsMovedByUpdates(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let changes = Locked(0)
        let recorder = Recorder<String?>()
        let cancellable = ValueObservation
            .tracking { db in try String.fetchOne(db, Table("player").filter(key: 1).select(Column("name"))) }
            .handleEvents(databaseDidChange: { changes.withLock { $0 += 1 } })
            .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        defer { cancellable.cancel() }
        #expect(recorder.wait { $0 == ["a"] })

        #expect(try write(writer, "UPDATE player SET name = 'z' WHERE id = 2", count: changes) == 0)
        #expect(try write(writer, "UPDATE player SET id = 10 WHERE id = 1", count: changes) == 1)
        #expect(recorder.wait { $0.last == .some(nil) }, "\(recorder.values)")
        #expect(try write(writer, "UPDATE player SET id = 1 WHERE id = 2", count: changes) == 2)
        #expect(recorder.wait { $0.last == "z" }, "\(recorder.values)")
        #expect(try write(writer, "DELETE FROM player WHERE id = 1", count: changes) == 3)
        #expect(recorder.wait { $0.last == .some(nil) }, "\(recorder.values)")
        #expect(try write(writer, "INSERT INTO player (id, name) VALUES (2, 'y')", count: changes) == 3)
        #expect(try write(writer, "INSERT INTO player (id, name) VALUES (1, 'x')", count: changes) == 4)
        #expect(recorder.wait { $0.last == "x" }, "\(recorder.values)")
        #expect(recorder.errors.isEmpty)
    }

    @Test(arguments: WriterKind.allCases)
    func valueObservationOfAKeyLookup(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let changes = Locked(0)
        let recorder = Recorder<String?>()
        let cancellable = ValueObservation
            .tracking { db in try Player.fetchOne(db, id: 1)?.name }
            .handleEvents(databaseDidChange: { changes.withLock { $0 += 1 } })
            .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        defer { cancellable.cancel() }
        #expect(recorder.wait { $0 == ["a"] })
        #expect(try write(writer, "UPDATE player SET score = 3 WHERE id = 3", count: changes) == 0)
        #expect(try write(writer, "UPDATE player SET id = 7 WHERE id = 1", count: changes) == 1)
        #expect(recorder.wait { $0.last == .some(nil) }, "\(recorder.values)")
        #expect(recorder.errors.isEmpty)
    }

    /// A WITHOUT ROWID table is observed whole, even when a statement also
    /// changes rows that SQLite reports, outside of the observed ones.
    @Test(arguments: WriterKind.allCases)
    func withoutRowIDTablesAreObservedWhole(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        try writer.write { db in
            try db.execute(sql: """
                CREATE TRIGGER tagScore AFTER UPDATE OF score ON player BEGIN
                    INSERT OR REPLACE INTO tag (id, label) VALUES (NEW.id, 'scored');
                END
                """)
        }
        let count = Locked(0)
        let cancellable = DatabaseRegionObservation(tracking: Table("player").filter(key: 1), Table("tag"))
            .start(in: writer, onError: { _ in }, onChange: { _ in count.withLock { $0 += 1 } })
        defer { cancellable.cancel() }
        #expect(try write(writer, "UPDATE player SET name = 'z' WHERE id = 2", count: count) == 0)
        // The trigger changes the tag table: SQLite reports the change of
        // the player 2 only.
        #expect(try write(writer, "UPDATE player SET score = 1 WHERE id = 2", count: count) == 1)
        #expect(try write(writer, "INSERT INTO tag (id, label) VALUES (9, 'x')", count: count) == 2)

        let tagCount = Locked(0)
        let tagCancellable = DatabaseRegionObservation(tracking: Table("tag").filter(key: 1))
            .start(in: writer, onError: { _ in }, onChange: { _ in tagCount.withLock { $0 += 1 } })
        defer { tagCancellable.cancel() }
        #expect(try write(writer, "UPDATE tag SET label = 'y' WHERE id = 9", count: tagCount) == 1)
    }

    /// A view is observed through the whole tables it reads.
    @Test(arguments: WriterKind.allCases)
    func viewsAreObservedWhole(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let count = Locked(0)
        let cancellable = DatabaseRegionObservation(tracking: Table("playerView").filter(Column("id") == 1))
            .start(in: writer, onError: { _ in }, onChange: { _ in count.withLock { $0 += 1 } })
        defer { cancellable.cancel() }
        #expect(try write(writer, "UPDATE player SET name = 'z' WHERE id = 2", count: count) == 1)
        #expect(try write(writer, "UPDATE player SET score = 1 WHERE id = 2", count: count) == 1)
    }
}
