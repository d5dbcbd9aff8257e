import Dispatch
import Foundation
import Testing
import Cairn

/// The values that ValueObservation delivers, in order, for each kind of
/// fetch, as GRDB 7.8 delivers them: an initial value, then one value per
/// transaction that changed the observed region (duplicates included,
/// unless `removeDuplicates()` removes them). A database queue delivers
/// exactly these values; a pool may coalesce transactions into one fetch,
/// but never misses the last value nor changes the order.
@Suite struct GRDBValueObservationRecordsTests {
    let directory: TemporaryDirectory
    /// Values are delivered on this queue.
    let queue = DispatchQueue(label: "GRDBValueObservationRecordsTests")

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// When the recorded writes run: right after the start, or from the
    /// delivery of the initial value.
    enum WriteMoment: CaseIterable { case afterStart, fromInitialValue }

    /// An in-memory queue, a file queue, a file pool.
    func writers() throws -> [any DatabaseWriter] {
        [
            try DatabaseQueue(),
            try DatabaseQueue(path: directory.filePath("queue-\(UUID().uuidString).sqlite")),
            try DatabasePool(path: directory.filePath("pool-\(UUID().uuidString).sqlite")),
        ]
    }

    /// GRDB's rule for pools: the recorded values end with the last
    /// expected value, and the others appear in the expected order, some
    /// possibly missing or repeated.
    static func matches<V: Equatable>(_ recorded: ArraySlice<V>, _ expected: ArraySlice<V>, lastRequired: Bool) -> Bool {
        guard let last = expected.last else { return recorded.isEmpty }
        let recordedTail = recorded.reversed().prefix(while: { $0 == last }).count
        let expectedTail = expected.reversed().prefix(while: { $0 == last }).count
        if lastRequired && recordedTail == 0 { return false }
        return matches(recorded.dropLast(recordedTail), expected.dropLast(expectedTail), lastRequired: false)
    }

    /// Runs `observation` on each writer, with the writes of `updates`
    /// after the start and from the delivery of the initial value, and
    /// checks the delivered values.
    func expectRecords<Reducer: ValueReducer>(
        _ observation: ValueObservation<Reducer>,
        _ expected: [Reducer.Value],
        setup: @escaping @Sendable (Database) throws -> Void,
        updates: @escaping @Sendable (Database) throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation) async throws
    where Reducer.Value: Equatable & Sendable
    {
        let writers = try writers()
        let queue = self.queue
        try await TestThreads.start {
            for writer in writers {
                for moment in WriteMoment.allCases {
                    try writer.write(setup)
                    let recorder = Recorder<Reducer.Value>()
                    let delivered = Locked(0)
                    let cancellable = observation.start(
                        in: writer, scheduling: .async(onQueue: queue),
                        onError: recorder.receive(error:),
                        onChange: { value in
                            let count = delivered.withLock { $0 += 1; return $0 }
                            if count == 1 && moment == .fromInitialValue {
                                try! writer.writeWithoutTransaction(updates)
                            }
                            recorder.receive(value)
                        })
                    if moment == .afterStart {
                        try writer.writeWithoutTransaction(updates)
                    }
                    let label = "\(type(of: writer)) \(writer.path) \(moment)"
                    if writer is DatabasePool && !observation.requiresWriteAccess {
                        #expect(recorder.wait { $0.last == expected.last }, "\(label)", sourceLocation: sourceLocation)
                        // A moment more, so that extra values would show.
                        Thread.sleep(forTimeInterval: 0.05)
                        queue.sync { }
                        let values = recorder.values
                        if moment == .fromInitialValue {
                            // Otherwise, the initial read of the pool,
                            // which waits for no write, may see the writes.
                            #expect(values.first == expected.first, "\(label): \(values)", sourceLocation: sourceLocation)
                        }
                        #expect(
                            Self.matches(values[...], expected[...], lastRequired: true),
                            "\(label): \(values)", sourceLocation: sourceLocation)
                    } else {
                        recorder.wait { $0.count >= expected.count }
                        Thread.sleep(forTimeInterval: 0.05)
                        queue.sync { }
                        #expect(recorder.values == expected, "\(label)", sourceLocation: sourceLocation)
                    }
                    #expect(recorder.errors.isEmpty, "\(label): \(recorder.errors)", sourceLocation: sourceLocation)
                    cancellable.cancel()
                    try writer.write { db in
                        for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
                            try db.execute(sql: "DROP TABLE \(table.quotedDatabaseIdentifier)")
                        }
                    }
                }
            }
        }()
    }

    static let createCounter: @Sendable (Database) throws -> Void = { db in
        try db.execute(sql: "CREATE TABLE counter(id INTEGER PRIMARY KEY AUTOINCREMENT)")
    }

    /// Insert, a no-op update of the rowid, insert.
    static let insertTouchInsert: @Sendable (Database) throws -> Void = { db in
        try db.execute(sql: "INSERT INTO counter DEFAULT VALUES")
        try db.execute(sql: "UPDATE counter SET id = id")
        try db.execute(sql: "INSERT INTO counter DEFAULT VALUES")
    }

    @Test func countRepeatsTheValueOfAnUpdateThatChangesNothing() async throws {
        try await expectRecords(
            ValueObservation.trackingConstantRegion { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM counter")! },
            [0, 1, 1, 2], setup: Self.createCounter, updates: Self.insertTouchInsert)
    }

    @Test func rowidsRepeatTheValueOfAnUpdateOfTheRowid() async throws {
        try await expectRecords(
            ValueObservation.trackingConstantRegion { try Int.fetchAll($0, sql: "SELECT id FROM counter ORDER BY id") },
            [[], [1], [1], [1, 2]], setup: Self.createCounter, updates: Self.insertTouchInsert)
    }

    /// An update of a column that the fetch does not read is no change.
    @Test func updatesOfUnreadColumnsAreNoChange() async throws {
        try await expectRecords(
            ValueObservation.trackingConstantRegion { try String.fetchAll($0, sql: "SELECT label FROM tag ORDER BY label") },
            [[], ["blue"], ["blue", "green"]],
            setup: { db in try db.execute(sql: "CREATE TABLE tag(id INTEGER PRIMARY KEY, label TEXT)") },
            updates: { db in
                try db.execute(sql: "INSERT INTO tag (label) VALUES ('blue')")
                try db.execute(sql: "UPDATE tag SET id = id")
                try db.execute(sql: "INSERT INTO tag (label) VALUES ('green')")
            })
    }

    /// Table and column names match whatever their case in the schema, the
    /// fetch and the writes.
    @Test func namesMatchWhateverTheirCase() async throws {
        try await expectRecords(
            ValueObservation.trackingConstantRegion { try Int.fetchAll($0, sql: "SELECT ID FROM Counter ORDER BY ID") },
            [[], [1], [1], [1, 2]],
            setup: { db in try db.execute(sql: "CREATE TABLE COUNTER(id INTEGER PRIMARY KEY AUTOINCREMENT)") },
            updates: { db in
                try db.execute(sql: "INSERT INTO counter DEFAULT VALUES")
                try db.execute(sql: "UPDATE cOuNtEr SET Id = iD")
                try db.execute(sql: "INSERT INTO CoUnTeR DEFAULT VALUES")
            })
        try await expectRecords(
            ValueObservation.trackingConstantRegion { try String.fetchAll($0, sql: "SELECT LABEL FROM TAG ORDER BY LABEL") },
            [[], ["blue"], ["blue", "green"]],
            setup: { db in try db.execute(sql: "CREATE TABLE tag(id INTEGER PRIMARY KEY, label TEXT)") },
            updates: { db in
                try db.execute(sql: "INSERT INTO Tag (Label) VALUES ('blue')")
                try db.execute(sql: "UPDATE TAG SET ID = ID")
                try db.execute(sql: "INSERT INTO tAG (lABEL) VALUES ('green')")
            })
    }

    @Test func removeDuplicatesDropsRepeatedValues() async throws {
        try await expectRecords(
            ValueObservation.trackingConstantRegion(Table("counter").fetchCount).removeDuplicates(),
            [0, 1, 2], setup: Self.createCounter, updates: Self.insertTouchInsert)
        try await expectRecords(
            ValueObservation.trackingConstantRegion(Table("counter").fetchCount).removeDuplicates(by: ==),
            [0, 1, 2], setup: Self.createCounter, updates: Self.insertTouchInsert)
        // A comparison that never finds duplicates keeps every value.
        try await expectRecords(
            ValueObservation.trackingConstantRegion(Table("counter").fetchCount).removeDuplicates(by: { _, _ in false }),
            [0, 1, 1, 2], setup: Self.createCounter, updates: Self.insertTouchInsert)
    }

    /// An explicit region of the whole database: one value per
    /// transaction, a transaction of several statements gives one value.
    @Test func explicitFullDatabaseRegion() async throws {
        try await expectRecords(
            ValueObservation.tracking(region: DatabaseRegion.fullDatabase, fetch: Table("counter").fetchCount),
            [0, 1, 1, 2, 3, 4],
            setup: Self.createCounter,
            updates: { db in
                try db.execute(sql: "INSERT INTO counter DEFAULT VALUES")
                try db.execute(sql: "UPDATE counter SET id = id")
                try db.execute(sql: "INSERT INTO counter DEFAULT VALUES")
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO counter DEFAULT VALUES")
                    try db.execute(sql: "INSERT INTO counter DEFAULT VALUES")
                    try db.execute(sql: "DELETE FROM counter WHERE id = 1")
                    return .commit
                }
                try db.execute(sql: "INSERT INTO counter DEFAULT VALUES")
            })
    }

    @Test func mapTransformsEveryValue() async throws {
        try await expectRecords(
            ValueObservation
                .tracking(region: DatabaseRegion.fullDatabase) { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM counter")! }
                .map { "#\($0)" },
            ["#0", "#1", "#2"],
            setup: Self.createCounter,
            updates: { db in
                try db.execute(sql: "INSERT INTO counter DEFAULT VALUES")
                try db.execute(sql: "INSERT INTO counter DEFAULT VALUES")
            })
    }

    @Test func readOnlyFetch() async throws {
        try await expectRecords(
            ValueObservation.tracking { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM counter")! },
            [0, 1],
            setup: Self.createCounter,
            updates: { db in try db.execute(sql: "INSERT INTO counter DEFAULT VALUES") })
    }

    /// A fetch that requires write access runs inside a transaction, and
    /// may create and drop a temporary table.
    @Test func fetchWithWriteAccess() async throws {
        var observation = ValueObservation.tracking { db -> Int in
            guard db.isInsideTransaction else { throw ObservationTestError() }
            try db.execute(sql: "CREATE TEMPORARY TABLE scratch AS SELECT * FROM counter")
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM scratch")!
            try db.execute(sql: "DROP TABLE scratch")
            return count
        }
        observation.requiresWriteAccess = true
        try await expectRecords(
            observation, [0, 1],
            setup: Self.createCounter,
            updates: { db in try db.execute(sql: "INSERT INTO counter DEFAULT VALUES") })
    }

    /// Map preserves `requiresWriteAccess`.
    @Test func mapKeepsWriteAccess() {
        var observation = ValueObservation.tracking(region: DatabaseRegion(), fetch: { _ in 1 })
        observation.requiresWriteAccess = true
        #expect(observation.map { $0 + 1 }.requiresWriteAccess)
        #expect(observation.removeDuplicates().requiresWriteAccess)
        #expect(observation.handleEvents().requiresWriteAccess)
    }

    // MARK: - Errors

    /// Runs `observation` on each writer with each delivery, and returns
    /// its error, with the writer.
    func expectFailure<Reducer: ValueReducer>(
        _ observation: ValueObservation<Reducer>,
        setup: @escaping @Sendable (Database) throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation,
        check: @escaping @Sendable (any Error, any DatabaseWriter) throws -> Void) async throws
    where Reducer.Value: Sendable
    {
        let writers = try writers()
        let queue = self.queue
        try await TestThreads.start {
            for writer in writers {
                try writer.write(setup)
                let recorder = Recorder<Reducer.Value>()
                let cancellable = observation.start(
                    in: writer, scheduling: .async(onQueue: queue),
                    onError: recorder.receive(error:), onChange: recorder.receive)
                let error = recorder.waitForError()
                #expect(error != nil, sourceLocation: sourceLocation)
                if let error { try check(error, writer) }
                Thread.sleep(forTimeInterval: 0.05)
                queue.sync { }
                #expect(recorder.values.isEmpty, sourceLocation: sourceLocation)
                #expect(recorder.errors.count == 1, sourceLocation: sourceLocation)
                cancellable.cancel()
            }
        }()
    }

    /// Without write access, a fetch that writes fails with SQLite's
    /// read-only error.
    @Test func writeWithoutWriteAccessFails() async throws {
        try await expectFailure(
            ValueObservation.tracking { db -> Int in
                try db.execute(sql: "INSERT INTO counter DEFAULT VALUES")
                return 0
            },
            setup: Self.createCounter
        ) { error, _ in
            let error = try #require(error as? DatabaseError)
            #expect(error.resultCode == .SQLITE_READONLY)
            #expect(error.message == "attempt to write a readonly database")
            #expect(error.sql == "INSERT INTO counter DEFAULT VALUES")
            #expect(error.description
                == "SQLite error 8: attempt to write a readonly database - while executing `INSERT INTO counter DEFAULT VALUES`")
        }
    }

    /// With write access, the writes of a fetch that throws are rolled
    /// back.
    @Test func failedFetchWithWriteAccessIsRolledBack() async throws {
        var observation = ValueObservation.tracking { db -> Int in
            try db.execute(sql: "INSERT INTO counter DEFAULT VALUES")
            throw ObservationTestError()
        }
        observation.requiresWriteAccess = true
        try await expectFailure(observation, setup: Self.createCounter) { error, writer in
            #expect(error is ObservationTestError)
            let count = try writer.read { try Table("counter").fetchCount($0) }
            #expect(count == 0)
        }
    }

    /// Invalid SQL fails with a DatabaseError.
    @Test func invalidSQLFails() async throws {
        try await expectFailure(
            ValueObservation.tracking { try $0.execute(sql: "THIS IS NOT SQL") },
            setup: { _ in }
        ) { error, _ in
            #expect(error is DatabaseError)
        }
    }
}
