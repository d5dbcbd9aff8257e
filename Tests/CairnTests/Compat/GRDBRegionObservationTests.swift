import Dispatch
import Foundation
import Testing
import Cairn

/// `DatabaseRegionObservation`, and the regions that observations track,
/// as in GRDB 7.8.
@Suite struct GRDBRegionObservationTests {
    let directory: TemporaryDirectory
    let queue = DispatchQueue(label: "GRDBRegionObservationTests")

    init() throws {
        directory = try TemporaryDirectory()
    }

    func makeQueue(_ name: String = "db.sqlite") throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(path: directory.filePath(name))
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE ship (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);
                CREATE TABLE port (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);
                """)
        }
        return dbQueue
    }

    // MARK: DatabaseRegionObservation

    @Test func fullDatabaseIsToldOfEachTransaction() throws {
        let dbQueue = try makeQueue()
        let count = Locked(0)
        let cancellable = DatabaseRegionObservation(tracking: .fullDatabase)
            .start(in: dbQueue, onError: { _ in }, onChange: { _ in count.withLock { $0 += 1 } })
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO ship (name) VALUES ('a')") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO port (name) VALUES ('b')") }
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO ship (name) VALUES ('c')")
            try db.execute(sql: "INSERT INTO port (name) VALUES ('d')")
        }
        #expect(count.withLock { $0 } == 3)
        withExtendedLifetime(cancellable) { }
    }

    @Test func requestsTrackTheirTables() throws {
        let dbQueue = try makeQueue()
        let count = Locked(0)
        let cancellable = DatabaseRegionObservation(tracking: [
            SQLRequest<Row>(sql: "SELECT * FROM ship"),
            SQLRequest<Row>(sql: "SELECT * FROM port"),
        ]).start(in: dbQueue, onError: { _ in }, onChange: { _ in count.withLock { $0 += 1 } })
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO ship (name) VALUES ('a')") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO port (name) VALUES ('b')") }
        #expect(count.withLock { $0 } == 2)
        cancellable.cancel()
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO port (name) VALUES ('c')") }
        #expect(count.withLock { $0 } == 2)
    }

    @Test func cancellationInsideOnChangeStopsAtOnce() throws {
        let dbQueue = try makeQueue()
        let count = Locked(0)
        let holder = Locked<AnyDatabaseCancellable?>(nil)
        let cancellable = DatabaseRegionObservation(tracking: Table("ship"))
            .start(in: dbQueue, onError: { _ in }, onChange: { _ in
                count.withLock { $0 += 1 }
                holder.withLock { $0 }?.cancel()
            })
        holder.withLock { $0 = cancellable }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO ship (name) VALUES ('a')") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO ship (name) VALUES ('b')") }
        #expect(count.withLock { $0 } == 1)
    }

    /// A transaction that was waiting for the writer when the observation
    /// was cancelled is not told: GRDB stops calling `onChange` as soon as
    /// the cancellable is cancelled.
    @Test(arguments: WriterKind.allCases)
    func noChangeIsToldAfterCancellation(kind: WriterKind) async throws {
        let writer = try kind.make(path: directory.filePath())
        try await writer.write { db in try db.execute(sql: "CREATE TABLE ship (id INTEGER PRIMARY KEY)") }
        let count = Locked(0)
        let cancellable = DatabaseRegionObservation(tracking: Table("ship"))
            .start(in: writer, onError: { _ in }, onChange: { _ in count.withLock { $0 += 1 } })
        let gate = DispatchSemaphore(value: 0)
        let written = DispatchSemaphore(value: 0)
        writer.asyncWriteWithoutTransaction { db in
            gate.wait()
            try? db.execute(sql: "INSERT INTO ship DEFAULT VALUES")
            written.signal()
        }
        cancellable.cancel()
        gate.signal()
        await TestThreads.wait(written)
        try await writer.write { db in try db.execute(sql: "INSERT INTO ship DEFAULT VALUES") }
        #expect(count.withLock { $0 } == 0)
    }

    @Test func explicitNotificationIsToldOnly() throws {
        let path = directory.filePath()
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE ship (a)") }
        let count = Locked(0)
        let cancellable = DatabaseRegionObservation(tracking: Table("ship"))
            .start(in: dbQueue, onError: { _ in }, onChange: { _ in count.withLock { $0 += 1 } })
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "INSERT INTO ship (a) VALUES (1)") }
        #expect(count.withLock { $0 } == 0)
        try dbQueue.write { db in try db.notifyChanges(in: Table("ship")) }
        #expect(count.withLock { $0 } == 1)
        try dbQueue.write { db in try db.notifyChanges(in: Table("port")) }
        #expect(count.withLock { $0 } == 1)
        withExtendedLifetime(cancellable) { }
    }

    @Test func errorsOfTheRegionAreToldAtOnce() throws {
        let dbQueue = try makeQueue()
        let errors = Locked<[DatabaseError]>([])
        let cancellable = DatabaseRegionObservation(tracking: SQLRequest<Row>(sql: "SELECT * FROM nowhere"))
            .start(in: dbQueue, onError: { error in
                if let error = error as? DatabaseError { errors.withLock { $0.append(error) } }
            }, onChange: { _ in })
        #expect(errors.withLock { $0.map(\.resultCode) } == [.SQLITE_ERROR])
        #expect(errors.withLock { $0.first?.message } == "no such table: nowhere")
        withExtendedLifetime(cancellable) { }
    }

    // MARK: Regions tracked by ValueObservation

    final class Lines: TextOutputStream, @unchecked Sendable {
        private let lock = NSCondition()
        private var _lines: [String] = []
        func write(_ string: String) {
            lock.withLock { _lines.append(string); lock.broadcast() }
        }
        /// Waits until `count` lines are written (60 s at most), and a
        /// moment more, so that extra lines would show.
        func wait(for count: Int) -> [String] {
            let deadline = Date().addingTimeInterval(60)
            lock.withLock {
                while _lines.count < count, lock.wait(until: deadline) { }
            }
            Thread.sleep(forTimeInterval: 0.1)
            return lock.withLock { _lines }
        }
    }

    /// The region that an observation tracks, told by `willTrackRegion`.
    func trackedRegion<R>(_ observation: ValueObservation<R>, in writer: some DatabaseWriter) -> String?
    where R.Value: Sendable {
        let lines = Lines()
        let cancellable = observation
            .handleEvents(willTrackRegion: { lines.write($0.description) })
            .start(in: writer, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { _ in })
        defer { withExtendedLifetime(cancellable) { } }
        return lines.wait(for: 1).first
    }

    @Test func viewsAreNotTracked() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE VIEW fleet AS SELECT * FROM ship") }
        let request = SQLRequest<Row>(sql: "SELECT name FROM fleet ORDER BY id")
        #expect(try dbQueue.read { db in try request.databaseRegion(db).description } == "fleet(id,name),ship(id,name)")
        let observation = ValueObservation.trackingConstantRegion { db in _ = try request.fetchAll(db) }
        #expect(trackedRegion(observation, in: dbQueue) == "ship(id,name)")
    }

    @Test func pragmasAreNotTracked() throws {
        let dbQueue = try makeQueue()
        let observation = ValueObservation.trackingConstantRegion { db in
            _ = try Table("ship").filter(key: 1).fetchAll(db)
        }
        #expect(trackedRegion(observation, in: dbQueue) == "ship(id,name)[1]")
    }

    struct Deck: TableRecord, FetchableRecord, Decodable {
        static let databaseTableName = "deck"
        static let cards = hasMany(Card.self)
    }

    struct Card: TableRecord {
        static let databaseTableName = "card"
    }

    /// Requests that prefetch associated records track the tables of their
    /// prefetches, as their own region says.
    @Test func prefetchesAreTracked() throws {
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        try dbQueue.write { db in
            try db.create(table: "deck") { t in
                t.autoIncrementedPrimaryKey("deckId")
                t.column("title", .text)
            }
            try db.create(table: "card") { t in
                t.autoIncrementedPrimaryKey("cardId")
                t.column("deckId", .integer).references("deck")
                t.column("face", .text)
            }
        }
        func regions(_ request: QueryInterfaceRequest<Deck>) throws -> [String?] {
            let tracked = trackedRegion(
                ValueObservation.trackingConstantRegion { db in _ = try request.asRequest(of: Row.self).fetchAll(db) }, in: dbQueue)
            return [try dbQueue.read { db in try request.databaseRegion(db).description }, tracked]
        }
        #expect(try regions(Deck.including(all: Deck.cards))
            == Array(repeating: "card(cardId,deckId,face),deck(deckId,title)", count: 2))
        #expect(try regions(Deck.including(all: Deck.cards.select(Column("face"))))
            == Array(repeating: "card(deckId,face),deck(deckId,title)", count: 2))
        #expect(try regions(Deck.including(all: Deck.cards.none()))
            == Array(repeating: "deck(deckId,title)", count: 2))
        #expect(try regions(Deck.none().including(all: Deck.cards)) == ["empty", "empty"])
    }

    /// Explicit regions are tracked with the names of the schema: tables
    /// as they were created, without views or missing tables.
    @Test func explicitRegionsUseTheNamesOfTheSchema() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE VIEW fleet AS SELECT * FROM ship") }
        let count = { @Sendable (db: Database) in try Table("ship").fetchCount(db) }
        #expect(trackedRegion(ValueObservation.tracking(region: Table("SHIP"), fetch: count), in: dbQueue) == "ship(*)")
        #expect(trackedRegion(ValueObservation.tracking(region: Table("ship"), Table("Port"), fetch: count), in: dbQueue)
            == "port(*),ship(*)")
        #expect(trackedRegion(ValueObservation.tracking(region: Table("fleet"), Table("nowhere"), fetch: count), in: dbQueue)
            == "empty")
        #expect(trackedRegion(ValueObservation.tracking(region: .fullDatabase, fetch: count), in: dbQueue)
            == "full database")
    }

    /// Each transaction that changes an explicit region gives a value, even
    /// when the fetch reads another table.
    @Test func explicitRegionsTellEachTransaction() throws {
        func lines(tracking regions: [any DatabaseRegionConvertible]) throws -> [String] {
            let dbQueue = try makeQueue("\(UUID().uuidString).sqlite")
            let lines = Lines()
            let cancellable = ValueObservation
                .tracking(regions: regions, fetch: { db in try Table("ship").fetchCount(db) })
                .print(to: lines)
                .start(in: dbQueue, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { _ in })
            _ = lines.wait(for: 4)
            try dbQueue.writeWithoutTransaction { db in
                try db.execute(sql: "INSERT INTO port DEFAULT VALUES; INSERT INTO ship DEFAULT VALUES")
            }
            defer { withExtendedLifetime(cancellable) { } }
            return lines.wait(for: regions.count == 2 ? 10 : 7)
        }
        #expect(try lines(tracking: [Table("ship")]) == [
            "start", "fetch", "tracked region: ship(*)", "value: 0", "database did change", "fetch", "value: 1",
        ])
        #expect(try lines(tracking: [Table("port")]) == [
            "start", "fetch", "tracked region: port(*)", "value: 0", "database did change", "fetch", "value: 0",
        ])
        #expect(try lines(tracking: [Table("ship"), Table("port")]) == [
            "start", "fetch", "tracked region: port(*),ship(*)", "value: 0",
            "database did change", "fetch", "value: 0",
            "database did change", "fetch", "value: 1",
        ])
    }

    /// The full database region gives a value after each transaction,
    /// including an update that changes no value.
    @Test(arguments: WriterKind.allCases)
    func fullDatabaseRegionValues(kind: WriterKind) throws {
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in try db.execute(sql: "CREATE TABLE ship (id INTEGER PRIMARY KEY AUTOINCREMENT)") }
        let recorder = Recorder<Int>()
        let cancellable = ValueObservation
            .tracking(region: .fullDatabase, fetch: { db in try Table("ship").fetchCount(db) })
            .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0.count == 1 })
        for sql in [
            "INSERT INTO ship DEFAULT VALUES",
            "UPDATE ship SET id = id",
            "INSERT INTO ship DEFAULT VALUES",
        ] {
            let expected = recorder.values.count + 1
            try writer.writeWithoutTransaction { db in try db.execute(sql: sql) }
            #expect(recorder.wait { $0.count == expected })
        }
        try writer.write { db in
            try db.execute(sql: "INSERT INTO ship DEFAULT VALUES; INSERT INTO ship DEFAULT VALUES; DELETE FROM ship WHERE id = 1")
        }
        #expect(recorder.wait { $0.count == 5 })
        try writer.writeWithoutTransaction { db in try db.execute(sql: "INSERT INTO ship DEFAULT VALUES") }
        #expect(recorder.wait { $0.count == 6 })
        #expect(recorder.values == [0, 1, 1, 2, 3, 4])
        withExtendedLifetime(cancellable) { }
    }
}
