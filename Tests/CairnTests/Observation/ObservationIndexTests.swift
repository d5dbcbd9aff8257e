import Dispatch
import Foundation
import Testing
import Cairn

/// Many value observations of one row each: every commit reaches exactly
/// the observations of the rows it changed (the broker indexes them by
/// table and rowid), on a queue and on a pool, and an observation whose
/// region changes is found under its new rows.
@Suite struct ObservationIndexTests {
    let directory: TemporaryDirectory
    let queue = DispatchQueue(label: "test.observationIndex")
    static let observerCount = 200

    init() throws {
        directory = try TemporaryDirectory()
    }

    func makeWriter(_ kind: WriterKind) throws -> any DatabaseWriter {
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in
            try db.execute(sql: """
                CREATE TABLE shelf (id INTEGER PRIMARY KEY, label TEXT UNIQUE, weight INT);
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < \(Self.observerCount - 10))
                INSERT INTO shelf (id, label, weight) SELECT x, 'shelf ' || x, 0 FROM n;
                """)
        }
        return writer
    }

    /// The observations of the rows 1...observerCount (the last ten do not
    /// exist yet), with the number of changes each heard of, told on the
    /// writer before each write returns.
    final class Observers: @unchecked Sendable {
        let changes = Locked([Int](repeating: 0, count: ObservationIndexTests.observerCount + 1))
        let recorders = (0...ObservationIndexTests.observerCount).map { _ in Recorder<String?>() }
        var cancellables: [AnyDatabaseCancellable] = []

        /// The rows whose observation heard of a change, each as many times
        /// as it heard.
        var changedRows: [Int] {
            changes.withLock { changes in changes.indices.flatMap { Array(repeating: $0, count: changes[$0]) } }
        }
    }

    func startObservers(_ writer: any DatabaseWriter) -> Observers {
        let observers = Observers()
        for id in 1...Self.observerCount {
            let recorder = observers.recorders[id]
            observers.cancellables.append(ValueObservation
                .tracking { db in try String.fetchOne(db, Table("shelf").filter(key: id).select(Column("label"))) }
                .handleEvents(databaseDidChange: { observers.changes.withLock { $0[id] += 1 } })
                .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive))
        }
        for id in 1...Self.observerCount {
            observers.recorders[id].wait { $0.count == 1 }
        }
        return observers
    }

    /// Runs a write, then returns the rows whose observation heard of a
    /// change since the last call, and forgets them.
    func changedRows(_ observers: Observers, after write: () throws -> Void) rethrows -> [Int] {
        try write()
        let rows = observers.changedRows
        observers.changes.withLock { changes in
            for index in changes.indices { changes[index] = 0 }
        }
        return rows
    }

    // The tests wait for values: they run on threads of their own, not on
    // those of Swift concurrency (see CONTRIBUTING, "Tests that block").

    @Test(arguments: WriterKind.allCases)
    func eachCommitReachesTheObservationsOfItsRows(kind: WriterKind) async throws {
        try await TestThreads.start { [self] in try self.eachCommitReachesTheObservationsOfItsRowsOnThread(kind: kind) }()
    }

    func eachCommitReachesTheObservationsOfItsRowsOnThread(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let observers = startObservers(writer)
        defer { observers.cancellables.forEach { $0.cancel() } }
        for id in 1...Self.observerCount {
            #expect(observers.recorders[id].values == [id <= Self.observerCount - 10 ? "shelf \(id)" : nil])
        }
        func run(_ sql: String) throws -> [Int] {
            try changedRows(observers) { try writer.write { db in try db.execute(sql: sql) } }
        }

        #expect(try run("UPDATE shelf SET label = label || '/1' WHERE id = 7") == [7])
        #expect(try run("UPDATE shelf SET label = label || '/2' WHERE id IN (3, 150)") == [3, 150])
        #expect(try run("UPDATE shelf SET label = label || '/3' WHERE id = 7") == [7])
        #expect(try run("DELETE FROM shelf WHERE id = 20") == [20])
        #expect(try run("INSERT INTO shelf (id, label) VALUES (\(Self.observerCount), 'new')") == [Self.observerCount])
        // A row with no observation.
        #expect(try run("INSERT INTO shelf (id, label) VALUES (5000, 'far')") == [])
        // The update hook tells the new rowid only: the pre-update hook
        // tells the old one.
        #expect(try run("UPDATE shelf SET id = 6000 WHERE id = 30") == [30])
        #expect(try run("UPDATE shelf SET id = 195 WHERE id = 5000") == [195])
        // REPLACE deletes the row whose label conflicts (row 40), which the
        // update hook does not tell.
        #expect(try run("INSERT OR REPLACE INTO shelf (id, label) VALUES (6001, 'shelf 40')") == [40])
        // Several changes of a row in a transaction are one change.
        try #expect(changedRows(observers) {
            try writer.write { db in
                try db.execute(sql: "UPDATE shelf SET label = label || '/4' WHERE id = 50")
                try db.execute(sql: "UPDATE shelf SET label = label || '/5' WHERE id = 50")
                try db.execute(sql: "UPDATE shelf SET label = label || '/5' WHERE id = 51")
            }
        } == [50, 51])
        // Savepoints: the released one counts, the rolled back one does not.
        try #expect(changedRows(observers) {
            try writer.write { db in
                try db.inSavepoint {
                    try db.execute(sql: "UPDATE shelf SET label = label || '/6' WHERE id = 60")
                    return .commit
                }
                try db.inSavepoint {
                    try db.execute(sql: "UPDATE shelf SET label = label || '/6' WHERE id = 61")
                    return .rollback
                }
            }
        } == [60])
        // A transaction that rolls back changed nothing.
        #expect(changedRows(observers) {
            _ = try? writer.write { db in
                try db.execute(sql: "UPDATE shelf SET label = label || '/7' WHERE id = 70")
                throw CancellationError()
            }
        } == [])
        #expect(try run("UPDATE shelf SET label = label || '/8' WHERE id = 70") == [70])

        // The values of the changed rows were fetched again.
        #expect(observers.recorders[7].wait { $0.count == 3 })
        #expect(observers.recorders[20].wait { $0.last == .some(nil) })
        #expect(observers.recorders[Self.observerCount].wait { $0.last == "new" })
        #expect(observers.recorders[40].wait { $0.last == .some(nil) })
        #expect(observers.recorders[8].values.count == 1)
        #expect(observers.recorders.allSatisfy { $0.errors.isEmpty })
    }

    /// An update of columns that no observation reads is no change.
    @Test(arguments: WriterKind.allCases)
    func updatesOfOtherColumnsAreNoChange(kind: WriterKind) async throws {
        try await TestThreads.start { [self] in try self.updatesOfOtherColumnsAreNoChangeOnThread(kind: kind) }()
    }

    func updatesOfOtherColumnsAreNoChangeOnThread(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let observers = startObservers(writer)
        defer { observers.cancellables.forEach { $0.cancel() } }
        let changed = try changedRows(observers) {
            try writer.write { db in try db.execute(sql: "UPDATE shelf SET weight = 9 WHERE id = 9") }
        }
        #expect(changed == [])
        let relabeled = try changedRows(observers) {
            try writer.write { db in try db.execute(sql: "UPDATE shelf SET label = 'nine' WHERE id = 9") }
        }
        #expect(relabeled == [9])
    }

    /// An observation whose rows depend on another table follows its rows.
    @Test(arguments: WriterKind.allCases)
    func observationsFollowTheirNewRows(kind: WriterKind) async throws {
        try await TestThreads.start { [self] in try self.observationsFollowTheirNewRowsOnThread(kind: kind) }()
    }

    func observationsFollowTheirNewRowsOnThread(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE pointer (target INT); INSERT INTO pointer VALUES (1)")
        }
        let observers = startObservers(writer)
        defer { observers.cancellables.forEach { $0.cancel() } }
        let changes = Locked(0)
        let recorder = Recorder<String?>()
        let cancellable = ValueObservation
            .tracking { db -> String? in
                let target = try Int.fetchOne(db, sql: "SELECT target FROM pointer") ?? 0
                return try String.fetchOne(db, Table("shelf").filter(key: target).select(Column("label")))
            }
            .handleEvents(databaseDidChange: { changes.withLock { $0 += 1 } })
            .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        defer { cancellable.cancel() }
        #expect(recorder.wait { $0 == ["shelf 1"] })

        try writer.write { db in try db.execute(sql: "UPDATE pointer SET target = 2") }
        #expect(changes.withLock { $0 } == 1)
        #expect(recorder.wait { $0 == ["shelf 1", "shelf 2"] })
        // The region of a pool's observation is set by a reader: the next
        // write sees it.
        try writer.write { db in try db.execute(sql: "UPDATE shelf SET label = 'one' WHERE id = 1") }
        try writer.write { db in try db.execute(sql: "UPDATE shelf SET label = 'two' WHERE id = 2") }
        #expect(changes.withLock { $0 } == 2)
        #expect(recorder.wait { $0 == ["shelf 1", "shelf 2", "two"] })
        #expect(recorder.errors.isEmpty)
    }
}
