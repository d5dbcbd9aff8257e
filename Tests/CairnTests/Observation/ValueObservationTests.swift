import Dispatch
import Foundation
import Testing
import Cairn

/// Collects the values and errors that an observation delivers.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSCondition()
    private var _values: [Value] = []
    private var _errors: [any Error] = []

    var values: [Value] { lock.withLock { _values } }
    var errors: [any Error] { lock.withLock { _errors } }

    func receive(_ value: Value) {
        lock.withLock {
            _values.append(value)
            lock.broadcast()
        }
    }

    func receive(error: any Error) {
        lock.withLock {
            _errors.append(error)
            lock.broadcast()
        }
    }

    /// Waits until `predicate` holds for the values, for at most 10 seconds.
    @discardableResult
    func wait(until predicate: ([Value]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(60)
        return lock.withLock {
            while !predicate(_values) {
                if !lock.wait(until: deadline) { return predicate(_values) }
            }
            return true
        }
    }

    /// Waits until an error arrives, for at most 10 seconds.
    func waitForError() -> (any Error)? {
        let deadline = Date().addingTimeInterval(60)
        return lock.withLock {
            while _errors.isEmpty {
                if !lock.wait(until: deadline) { break }
            }
            return _errors.first
        }
    }
}

struct ObservationTestError: Error { }

/// Marks the main queue, which Linux drains from another thread than the
/// main thread in async programs.
let mainQueueKey = DispatchSpecificKey<Bool>()

@Suite struct ValueObservationTests {
    let directory: TemporaryDirectory
    /// Values are delivered on this queue, not on the main queue.
    let queue = DispatchQueue(label: "test.observation")

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

    func insertPlayer(_ writer: any DatabaseWriter, score: Int = 0) throws {
        try writer.write { db in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('p', ?)", arguments: [score])
        }
    }

    /// A synchronized full-text table changes through the triggers of its
    /// content table: observations of the full-text table see each change,
    /// whatever the moment of the write after the start.
    @Test(arguments: WriterKind.allCases)
    func synchronizedFullTextTablesNotifyChanges(kind: WriterKind) throws {
        for attempt in 0..<20 {
            let directory = try TemporaryDirectory()
            let writer = try kind.make(path: directory.filePath())
            try writer.write { db in
                try db.create(table: "documents") { t in
                    t.primaryKey("id", .integer)
                    t.column("content", .text)
                }
                try db.create(virtualTable: "ft_documents", using: FTS4()) { t in
                    t.synchronize(withTable: "documents")
                    t.column("content")
                }
            }
            let recorder = Recorder<Int>()
            let observation = ValueObservation.trackingConstantRegion { db in
                try Row.fetchAll(db, sql: "SELECT * FROM ft_documents").count
            }
            let cancellable = observation.start(
                in: writer, scheduling: .async(onQueue: queue),
                onError: recorder.receive(error:), onChange: recorder.receive)
            if attempt % 2 == 0 {
                #expect(recorder.wait { $0 == [0] })
            }
            try writer.write { db in
                try db.execute(sql: "INSERT INTO documents (content) VALUES (?)", arguments: ["foo"])
            }
            #expect(recorder.wait { $0.last == 1 }, "attempt \(attempt): \(recorder.values)")
            cancellable.cancel()
        }
    }

    /// A pool fetches the first value on a reader, while the writer goes
    /// on: a write that starts before the first fetch ends, and whose
    /// events arrive after it ended, is a change all the same (the events
    /// name the content table, not the full-text table of the region).
    @Test func changesThatStartBeforeTheFirstFetchEndsAreNotMissed() throws {
        let writer = try DatabasePool(path: directory.filePath())
        try writer.write { db in
            try db.create(table: "documents") { t in
                t.primaryKey("id", .integer)
                t.column("content", .text)
            }
            try db.create(virtualTable: "ft_documents", using: FTS4()) { t in
                t.synchronize(withTable: "documents")
                t.column("content")
            }
        }
        let recorder = Recorder<Int>()
        let firstFetchMayEnd = DispatchSemaphore(value: 0)
        let observation = ValueObservation.trackingConstantRegion { db in
            let count = try Row.fetchAll(db, sql: "SELECT * FROM ft_documents").count
            if count == 0 { _ = firstFetchMayEnd.wait(timeout: .now() + 10) }
            return count
        }
        let cancellable = observation.start(
            in: writer, scheduling: .async(onQueue: queue),
            onError: recorder.receive(error:), onChange: recorder.receive)
        try writer.write { db in
            // Runs once the INSERT started: the first fetch ends now, before
            // the row is inserted and its events arrive.
            db.add(function: DatabaseFunction("endFirstFetch", argumentCount: 1) { arguments in
                firstFetchMayEnd.signal()
                _ = recorder.wait { $0 == [0] }
                return arguments[0]
            })
            try db.execute(sql: "INSERT INTO documents (content) VALUES (endFirstFetch(?))", arguments: ["foo"])
        }
        #expect(recorder.wait { $0.last == 1 }, "\(recorder.values)")
        cancellable.cancel()
    }

    /// An observation that writes in its fetch, with statements that change
    /// nothing, is not notified of its own fetch (it would fetch again and
    /// again), and still sees the changes of others.
    @Test(arguments: WriterKind.allCases)
    func fetchesThatWriteNothingDoNotNotifyThemselves(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        try insertPlayer(writer)
        let fetchCount = Locked(0)
        let recorder = Recorder<Int>()
        var observation = ValueObservation.tracking { db -> Int in
            fetchCount.withLock { $0 += 1 }
            try db.execute(sql: "INSERT OR IGNORE INTO player (id, name, score) VALUES (1, 'p', 0)")
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
        }
        observation.requiresWriteAccess = true
        let cancellable = observation.start(
            in: writer, scheduling: .async(onQueue: queue),
            onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0 == [1] })
        try insertPlayer(writer)
        #expect(recorder.wait { $0.last == 2 })
        // One fetch at the start, one after the insert.
        #expect(fetchCount.withLock { $0 } == 2)
        #expect(recorder.errors.isEmpty)
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases)
    func initialValueThenChanges(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let recorder = Recorder<Int>()
        let observation = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
        }
        let cancellable = observation.start(
            in: writer, scheduling: .async(onQueue: queue),
            onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0 == [0] })
        try insertPlayer(writer)
        #expect(recorder.wait { $0.last == 1 })
        // Changes of other tables are not notified.
        try writer.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Red')") }
        try insertPlayer(writer)
        #expect(recorder.wait { $0.last == 2 })
        #expect(recorder.values == [0, 1, 2])
        #expect(recorder.errors.isEmpty)
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases)
    func asyncSequence(kind: WriterKind) async throws {
        let writer = try makeWriter(kind)
        let observation = ValueObservation.tracking { db in
            try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id")
        }
        var received: [[String]] = []
        for try await names in observation.values(in: writer) {
            received.append(names)
            if names.count == 2 { break }
            try await writer.write { db in
                try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: [names.isEmpty ? "Arthur" : "Barbara"])
            }
        }
        #expect(received == [[], ["Arthur"], ["Arthur", "Barbara"]])
    }

    /// After a burst of writes, the last value is the final state, and values
    /// never go backwards.
    @Test(arguments: WriterKind.allCases)
    func burstOfWrites(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let recorder = Recorder<Int>()
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
            .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        for _ in 0..<1000 {
            try insertPlayer(writer)
        }
        #expect(recorder.wait { $0.last == 1000 })
        let values = recorder.values
        #expect(values.first == 0 || values.first == nil || values.first! <= 1000)
        // Identical consecutive values are allowed; older values are not.
        let backwards = zip(values, values.dropFirst()).filter { $0 > $1 }
        #expect(backwards.isEmpty, "values went backwards: \(backwards)")
        // Coalescing may skip values, never invent them.
        #expect(values.allSatisfy { (0...1000).contains($0) })
        withExtendedLifetime(cancellable) { }
    }

    /// On a queue, every transaction that changes the region gives one
    /// value, delivered in order, even when the consumer is slow: values
    /// waiting for delivery are not replaced by newer ones.
    @Test func queueDeliversOneValuePerTransaction() throws {
        let writer = try makeWriter(.queue)
        let recorder = Recorder<Int>()
        let slowQueue = DispatchQueue(label: "test.slow")
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
            .start(in: writer, scheduling: .async(onQueue: slowQueue), onError: recorder.receive(error:)) { value in
                Thread.sleep(forTimeInterval: 0.01)
                recorder.receive(value)
            }
        #expect(recorder.wait { $0 == [0] })
        try writer.writeWithoutTransaction { db in
            // Two autocommit statements: two transactions.
            try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('b')")
            // A transaction that changes nothing observed: no value.
            try db.execute(sql: "CREATE TABLE other(a)")
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('c')")
                try db.execute(sql: "INSERT INTO player (name) VALUES ('d')")
                return .commit
            }
        }
        #expect(recorder.wait { $0.last == 4 })
        #expect(recorder.values == [0, 1, 2, 4])
        withExtendedLifetime(cancellable) { }
    }

    /// On a pool, the fetch of a fresh value of an observation of a constant
    /// region runs on a reader while the writer goes on. (An observation
    /// whose region may change fetches with the writer, as in GRDB: see
    /// GRDBValueObservationVaryingRegionTests.)
    @Test func poolFetchesConcurrentlyWithTheWriter() throws {
        let writer = try makeWriter(.pool)
        let fetchStarted = DispatchSemaphore(value: 0)
        let releaseFetch = DispatchSemaphore(value: 0)
        let blocksNextFetch = Locked(false)
        let blockedFetchCount = Locked<Int?>(nil)
        let recorder = Recorder<Int>()
        let cancellable = ValueObservation
            .trackingConstantRegion { db -> Int in
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
                if blocksNextFetch.withLock({ blocks in defer { blocks = false }; return blocks }) {
                    blockedFetchCount.withLock { $0 = count }
                    fetchStarted.signal()
                    releaseFetch.wait()
                }
                return count
            }
            .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0 == [0] })

        blocksNextFetch.withLock { $0 = true }
        try insertPlayer(writer)
        #expect(fetchStarted.wait(timeout: .now() + 10) == .success)
        // The fetch is blocked: the writer still writes.
        try insertPlayer(writer)
        try insertPlayer(writer)
        releaseFetch.signal()
        // The blocked fetch saw the state of its commit (1), and the later
        // commits are fetched again. (Its value may be coalesced with the
        // next one.)
        #expect(recorder.wait { $0.last == 3 })
        #expect(recorder.values.first == 0)
        #expect(blockedFetchCount.withLock { $0 } == 1)
        withExtendedLifetime(cancellable) { }
    }

    @Test(arguments: WriterKind.allCases)
    func cancellationStopsDelivery(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let recorder = Recorder<Int>()
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
            .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0 == [0] })
        queue.sync { cancellable.cancel() }
        try insertPlayer(writer)
        try writer.read { _ in }
        queue.sync { }
        #expect(recorder.values == [0])
    }

    @Test(arguments: WriterKind.allCases)
    func deinitStopsDelivery(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let recorder = Recorder<Int>()
        do {
            let cancellable = ValueObservation
                .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
                .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
            #expect(recorder.wait { $0 == [0] })
            withExtendedLifetime(cancellable) { }
        }
        try insertPlayer(writer)
        try writer.read { _ in }
        queue.sync { }
        #expect(recorder.values == [0])
    }

    @Test(arguments: WriterKind.allCases)
    func errorEndsTheObservation(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let recorder = Recorder<Int>()
        let cancellable = ValueObservation
            .tracking { db -> Int in
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
                if count == 1 { throw ObservationTestError() }
                return count
            }
            .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0 == [0] })
        try insertPlayer(writer)
        #expect(recorder.waitForError() is ObservationTestError)
        try insertPlayer(writer)
        try writer.read { _ in }
        queue.sync { }
        #expect(recorder.values == [0])
        #expect(recorder.errors.count == 1)
        withExtendedLifetime(cancellable) { }
    }

    @Test func fetchThatWritesFails() throws {
        let writer = try makeWriter(.queue)
        let recorder = Recorder<Int>()
        let cancellable = ValueObservation
            .tracking { db -> Int in
                try db.execute(sql: "INSERT INTO team (name) VALUES ('x')")
                return 0
            }
            .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        let error = recorder.waitForError() as? DatabaseError
        #expect(error?.resultCode == .SQLITE_READONLY)
        withExtendedLifetime(cancellable) { }
    }

    @Test @MainActor func immediateScheduling() throws {
        let writer = try makeWriter(.queue)
        let recorder = Recorder<Int>()
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
            .start(in: writer, scheduling: .immediate, onError: recorder.receive(error:), onChange: recorder.receive)
        // Delivered before start returned.
        #expect(recorder.values == [0])
        withExtendedLifetime(cancellable) { }
    }

    @Test @MainActor func defaultSchedulingIsTheMainQueue() async throws {
        DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
        let writer = try makeWriter(.queue)
        let values = Locked<[Bool]>([])
        let delivered = AsyncStream<Void>.makeStream()
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
            .start(in: writer, onError: { _ in }, onChange: { _ in
                values.withLock { $0.append(DispatchQueue.getSpecific(key: mainQueueKey) != nil) }
                delivered.continuation.yield()
            })
        // Not synchronous.
        #expect(values.withLock { $0 }.isEmpty)
        var iterator = delivered.stream.makeAsyncIterator()
        await iterator.next()
        #expect(values.withLock { $0 } == [true])
        withExtendedLifetime(cancellable) { }
    }

    @Test(arguments: WriterKind.allCases)
    func operators(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let recorder = Recorder<String>()
        let log = Locked<[String]>([])
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT MAX(score) FROM player") }
            .map { $0 ?? 0 }
            .removeDuplicates()
            .map { "max \($0)" }
            .handleEvents(
                willStart: { log.withLock { $0.append("start") } },
                willTrackRegion: { region in log.withLock { $0.append("region \(region)") } },
                didReceiveValue: { value in log.withLock { $0.append(value) } })
            .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0 == ["max 0"] })
        try insertPlayer(writer, score: 10)
        #expect(recorder.wait { $0.last == "max 10" })
        try insertPlayer(writer, score: 5)      // same maximum: removed
        try insertPlayer(writer, score: 20)
        #expect(recorder.wait { $0.last == "max 20" })
        #expect(recorder.values == ["max 0", "max 10", "max 20"])
        let events = log.withLock { $0 }
        #expect(events.first == "start")
        #expect(events.contains("region player(score)"))
        #expect(events.filter { $0.hasPrefix("max") } == ["max 0", "max 10", "max 20"])
        withExtendedLifetime(cancellable) { }
    }

    /// Event handlers may cancel their own observation.
    @Test(arguments: WriterKind.allCases)
    func eventHandlersCanCancel(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let holder = Locked<AnyDatabaseCancellable?>(nil)
        let recorder = Recorder<Int>()
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
            .handleEvents(didReceiveValue: { count in
                if count == 1 { holder.withLock { $0 }?.cancel() }
            })
            .map { $0 }
            .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        holder.withLock { $0 = cancellable }
        #expect(recorder.wait { $0 == [0] })
        try insertPlayer(writer)
        try insertPlayer(writer)
        try writer.read { _ in }
        queue.sync { }
        #expect(recorder.values.count <= 2)
        #expect(!recorder.values.contains(2))
    }

    final class StringStream: TextOutputStream, @unchecked Sendable {
        let lines = Locked<String>("")
        func write(_ string: String) { lines.withLock { $0 += string + "\n" } }
    }

    @Test func printOperator() throws {
        let writer = try makeWriter(.queue)
        let stream = StringStream()
        let recorder = Recorder<Int>()
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
            .print("count", to: stream)
            .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0 == [0] })
        try insertPlayer(writer)
        #expect(recorder.wait { $0.last == 1 })
        cancellable.cancel()
        let output = stream.lines.withLock { $0 }
        #expect(output.hasPrefix("count: start\ncount: fetch\ncount: tracked region: player(*)\ncount: value: 0\n"))
        #expect(output.contains("count: database did change\ncount: fetch\ncount: value: 1\n"))
        #expect(output.hasSuffix("count: cancel\n"))
    }

    @Test(arguments: WriterKind.allCases)
    func explicitAndConstantRegions(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        // The fetch reads player, but only team is tracked.
        let recorder = Recorder<Int>()
        let cancellable = ValueObservation
            .tracking(region: Table("team"), fetch: { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! })
            .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0 == [0] })
        try insertPlayer(writer)
        try writer.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Red')") }
        #expect(recorder.wait { $0 == [0, 1] })

        let constant = Recorder<Int>()
        let constantCancellable = ValueObservation
            .trackingConstantRegion { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team")! }
            .start(in: writer, scheduling: .async(onQueue: queue), onError: constant.receive(error:), onChange: constant.receive)
        #expect(constant.wait { $0 == [1] })
        try writer.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Blue')") }
        #expect(constant.wait { $0 == [1, 2] })
        withExtendedLifetime((cancellable, constantCancellable)) { }
    }

    /// A fetch whose region depends on the data tracks its new region.
    @Test func regionChangesWithTheFetch() throws {
        let writer = try makeWriter(.queue)
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE settings (useTeams BOOLEAN); INSERT INTO settings VALUES (0)")
        }
        let recorder = Recorder<Int>()
        let cancellable = ValueObservation
            .tracking { db -> Int in
                if try Bool.fetchOne(db, sql: "SELECT useTeams FROM settings")! {
                    return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team")!
                }
                return -1
            }
            .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0 == [-1] })
        try writer.write { db in try db.execute(sql: "UPDATE settings SET useTeams = 1") }
        #expect(recorder.wait { $0 == [-1, 0] })
        try writer.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Red')") }
        #expect(recorder.wait { $0 == [-1, 0, 1] })
        withExtendedLifetime(cancellable) { }
    }

    @Test func snapshotsDeliverOneValue() throws {
        let writer = try makeWriter(.pool)
        try insertPlayer(writer)
        let pool = try #require(writer as? DatabasePool)
        let snapshot = try pool.makeSnapshot()
        let recorder = Recorder<Int>()
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
            .start(in: snapshot, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0 == [1] })
        try insertPlayer(writer)
        try writer.read { _ in }
        queue.sync { }
        #expect(recorder.values == [1])
        withExtendedLifetime(cancellable) { }
    }

    @Test(arguments: WriterKind.allCases)
    func closingTheDatabaseStopsDelivery(kind: WriterKind) throws {
        let writer = try makeWriter(kind)
        let recorder = Recorder<Int>()
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
            .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0 == [0] })
        try writer.close()
        queue.sync { }
        #expect(recorder.values == [0])
        #expect(recorder.errors.isEmpty)
        withExtendedLifetime(cancellable) { }
    }

    /// The examples of the spec, with async sequences instead of Combine.
    @Test(arguments: WriterKind.allCases)
    func specExamples(kind: WriterKind) async throws {
        struct Player: Codable, FetchableRecord, PersistableRecord, Sendable {
            var id: Int64?
            var name: String
            var score: Int?
        }
        struct HallOfFame: Sendable {
            var totalPlayerCount: Int
            var bestPlayers: [Player]
        }
        let writer = try makeWriter(kind)
        let observation = ValueObservation.tracking { db -> HallOfFame in
            let totalPlayerCount = try Player.fetchCount(db)
            let bestPlayers = try Player
                .order(Column("score").desc)
                .limit(10)
                .fetchAll(db)
            return HallOfFame(totalPlayerCount: totalPlayerCount, bestPlayers: bestPlayers)
        }
        let players = ValueObservation.tracking(Player.fetchAll)
        let maxScore = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT MAX(score) FROM player") }

        var iterator = observation.values(in: writer).makeAsyncIterator()
        var playersIterator = players.values(in: writer).makeAsyncIterator()
        var maxIterator = maxScore.values(in: writer).makeAsyncIterator()
        #expect(try await iterator.next()?.totalPlayerCount == 0)
        #expect(try await playersIterator.next()?.isEmpty == true)
        #expect(try await maxIterator.next() == .some(nil))
        try await writer.write { db in
            try Player(id: nil, name: "Arthur", score: 100).insert(db)
            try Player(id: nil, name: "Barbara", score: 1000).insert(db)
        }
        let hallOfFame = try #require(try await iterator.next())
        #expect(hallOfFame.totalPlayerCount == 2)
        #expect(hallOfFame.bestPlayers.map(\.name) == ["Barbara", "Arthur"])
        #expect(try await playersIterator.next()?.count == 2)
        #expect(try await maxIterator.next() == .some(1000))
    }
}

@Suite struct SharedValueObservationTests {
    let directory: TemporaryDirectory
    let queue = DispatchQueue(label: "test.shared")

    init() throws {
        directory = try TemporaryDirectory()
    }

    @Test(arguments: WriterKind.allCases)
    func subscribersShareOneObservation(kind: WriterKind) throws {
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)") }
        let fetchCount = Locked(0)
        let shared = ValueObservation
            .tracking { db -> Int in
                fetchCount.withLock { $0 += 1 }
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
            }
            .shared(in: writer, scheduling: .async(onQueue: queue))
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        let cancellable1 = shared.start(onError: first.receive(error:), onChange: first.receive)
        #expect(first.wait { $0 == [0] })
        // The new subscriber gets the last value at once.
        let cancellable2 = shared.start(onError: second.receive(error:), onChange: second.receive)
        #expect(second.wait { $0 == [0] })
        try writer.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        #expect(first.wait { $0.last == 1 })
        #expect(second.wait { $0.last == 1 })
        // One fetch per change, not one per subscriber.
        #expect(fetchCount.withLock { $0 } <= 3)

        // While observed: the observation stops with its last subscriber,
        // and starts again with the next one.
        cancellable1.cancel()
        cancellable2.cancel()
        try writer.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        let third = Recorder<Int>()
        let cancellable3 = shared.start(onError: third.receive(error:), onChange: third.receive)
        #expect(third.wait { $0 == [2] })
        withExtendedLifetime(cancellable3) { }
    }

    /// A subscription keeps the database observation running after the
    /// shared observation is released, whatever the extent; the
    /// observation stops with the last subscription.
    @Test(arguments: [SharedValueObservationExtent.observationLifetime, .whileObserved])
    func subscriptionsOutliveTheSharedObservation(extent: SharedValueObservationExtent) throws {
        let writer = try DatabaseQueue(path: directory.filePath())
        try writer.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)") }
        let fetchCount = Locked(0)
        var shared: SharedValueObservation<Int>? = ValueObservation
            .tracking { db -> Int in
                fetchCount.withLock { $0 += 1 }
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
            }
            .shared(in: writer, scheduling: .async(onQueue: queue), extent: extent)
        let recorder = Recorder<Int>()
        let cancellable = shared!.start(onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0 == [0] })
        shared = nil
        try writer.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        #expect(recorder.wait { $0 == [0, 1] })
        // Once the last subscription is cancelled, nothing is fetched.
        cancellable.cancel()
        let fetches = fetchCount.withLock { $0 }
        try writer.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        queue.sync { }
        #expect(fetchCount.withLock { $0 } == fetches)
        #expect(recorder.values == [0, 1])
    }

    @Test func asyncValuesOfASharedObservation() async throws {
        let writer = try DatabaseQueue(path: directory.filePath())
        try await writer.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)") }
        let shared = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
            .shared(in: writer, scheduling: .async(onQueue: queue), extent: .observationLifetime)
        var iterator1 = shared.values().makeAsyncIterator()
        var iterator2 = shared.values().makeAsyncIterator()
        #expect(try await iterator1.next() == 0)
        #expect(try await iterator2.next() == 0)
        try await writer.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        #expect(try await iterator1.next() == 1)
        #expect(try await iterator2.next() == 1)
    }

    @Test func errorsEndAllSubscriptions() throws {
        let writer = try DatabaseQueue(path: directory.filePath())
        let shared = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM missing")! }
            .shared(in: writer, scheduling: .async(onQueue: queue))
        let first = Recorder<Int>()
        let cancellable1 = shared.start(onError: first.receive(error:), onChange: first.receive)
        #expect(first.waitForError() is DatabaseError)
        let second = Recorder<Int>()
        let cancellable2 = shared.start(onError: second.receive(error:), onChange: second.receive)
        #expect(second.waitForError() is DatabaseError)
        withExtendedLifetime((cancellable1, cancellable2)) { }
    }
}

@Suite struct DatabaseRegionObservationTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    @Test(arguments: WriterKind.allCases)
    func eachTransactionIsNotified(kind: WriterKind) throws {
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE team (id INTEGER PRIMARY KEY)")
        }
        let log = Locked<[Int]>([])
        let observation = DatabaseRegionObservation(tracking: Table("player"))
        let cancellable = observation.start(in: writer, onError: { _ in }, onChange: { db in
            let count = try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
            log.withLock { $0.append(count ?? -1) }
        })
        try writer.write { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
        }
        try writer.write { db in try db.execute(sql: "INSERT INTO team DEFAULT VALUES") }
        try writer.write { db in try db.execute(sql: "DELETE FROM player") }
        // Synchronous, on the writer's queue: one call per transaction.
        #expect(log.withLock { $0 } == [2, 0])
        cancellable.cancel()
        try writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')") }
        #expect(log.withLock { $0 } == [2, 0])
    }

    /// SQLite reports the changes of virtual tables on their shadow tables:
    /// observers of a full-text table still hear of its changes, direct or
    /// made by the triggers of a synchronized table, and of nothing else.
    @Test func changesOfVirtualTablesAreNotified() throws {
        let writer = try DatabaseQueue(path: directory.filePath())
        try writer.write { db in
            try db.create(virtualTable: "note", using: FTS5()) { t in t.column("body") }
            try db.create(table: "document") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("content", .text)
            }
            try db.create(virtualTable: "document_ft", using: FTS4()) { t in
                t.synchronize(withTable: "document")
                t.column("content")
            }
            try db.execute(sql: "CREATE TABLE other (a)")
        }
        let log = Locked<[String]>([])
        func observe(_ table: String) -> AnyDatabaseCancellable {
            DatabaseRegionObservation(tracking: Table(table)).start(in: writer, onError: { _ in }, onChange: { db in
                let count = (try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)")) ?? -1
                log.withLock { $0.append("\(table) \(count)") }
            })
        }
        let cancellables = [observe("note"), observe("document_ft")]
        try writer.write { db in try db.execute(sql: "INSERT INTO note (body) VALUES ('hello')") }
        try writer.write { db in try db.execute(sql: "INSERT INTO document (content) VALUES ('world')") }
        try writer.write { db in try db.execute(sql: "INSERT INTO other VALUES (1)") }
        try writer.write { db in try db.execute(sql: "DELETE FROM note WHERE note MATCH 'nothing'") }
        try writer.write { db in try db.execute(sql: "DELETE FROM note") }
        try writer.write { db in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO note (body) VALUES ('rolled back')")
                return .rollback
            }
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO note (body) VALUES ('kept')")
                return .commit
            }
        }
        #expect(log.withLock { $0 } == ["note 1", "document_ft 1", "note 0", "note 1"])
        withExtendedLifetime(cancellables) {}
    }

    @Test func requestRegionsAndAsyncSequence() async throws {
        let writer = try DatabaseQueue(path: directory.filePath())
        try await writer.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INT)")
        }
        let observation = DatabaseRegionObservation
            .tracking(SQLRequest<Int>(sql: "SELECT MAX(score) FROM player"))
        var changes = observation.changes(in: writer).makeAsyncIterator()
        // The name column is not observed.
        try await writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
        try await writer.write { db in try db.execute(sql: "UPDATE player SET name = 'Art'") }
        try await writer.write { db in try db.execute(sql: "UPDATE player SET score = 1") }
        let change: Void? = try await changes.next()
        #expect(change != nil)
    }
}
