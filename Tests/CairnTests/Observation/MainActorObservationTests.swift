import Dispatch
import Foundation
import Observation
import Testing
import Cairn

/// A model of an app: a main-actor `@Observable` class that observes the
/// database with main-actor closures, as SwiftUI apps write it.
@MainActor @Observable
final class ObservedPlayerList {
    var names: [String] = []
    var error: (any Error)?
    /// Whether each delivery ran on the main queue.
    var deliveriesOnMainQueue: [Bool] = []
    @ObservationIgnored private var cancellable: AnyDatabaseCancellable?

    func observe(_ reader: some DatabaseReader, scheduling scheduler: some ValueObservationMainActorScheduler) {
        cancellable = ValueObservation
            .tracking { db in try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id") }
            .start(in: reader, scheduling: scheduler) { [unowned self] error in
                self.error = error
            } onChange: { [unowned self] names in
                self.deliveriesOnMainQueue.append(MainQueueMarker.isOnMainQueue)
                self.names = names
            }
    }

    /// The same, with the default scheduler (`.mainActor`).
    func observeWithDefaultScheduler(_ reader: some DatabaseReader) {
        cancellable = ValueObservation
            .tracking { db in try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id") }
            .start(in: reader) { [unowned self] error in
                self.error = error
            } onChange: { [unowned self] names in
                self.deliveriesOnMainQueue.append(MainQueueMarker.isOnMainQueue)
                self.names = names
            }
    }

    func stopObserving() {
        cancellable?.cancel()
    }
}

/// Tells whether code runs on the main dispatch queue (the main actor's
/// executor), whatever the thread that drains it.
enum MainQueueMarker {
    private static let key = DispatchSpecificKey<Bool>()
    private static let marked: Void = DispatchQueue.main.setSpecific(key: key, value: true)

    static var isOnMainQueue: Bool {
        _ = marked
        return DispatchQueue.getSpecific(key: key) == true
    }
}

@Suite(.serialized) @MainActor
struct MainActorObservationTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        _ = MainQueueMarker.isOnMainQueue
    }

    func makeWriter(_ kind: WriterKind) throws -> any DatabaseWriter {
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                INSERT INTO player (name) VALUES ('Arthur');
                """)
        }
        return writer
    }

    /// Lets the main actor run what was scheduled on it, until `condition`
    /// holds or 10 seconds have passed.
    func waitUntil(_ condition: () -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while !condition() {
            if Date() > deadline { return false }
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        return true
    }

    @Test(arguments: WriterKind.allCases)
    func immediateDeliversTheInitialValueBeforeStartReturns(kind: WriterKind) async throws {
        let writer = try makeWriter(kind)
        let model = ObservedPlayerList()
        model.observe(writer, scheduling: .immediate)
        #expect(model.names == ["Arthur"])

        try await writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
        #expect(try await waitUntil { model.names == ["Arthur", "Barbara"] })
        #expect(model.deliveriesOnMainQueue.allSatisfy { $0 })
        #expect(model.error == nil)
        model.stopObserving()
    }

    @Test(arguments: WriterKind.allCases)
    func theDefaultSchedulerDeliversEveryValueLaterOnTheMainActor(kind: WriterKind) async throws {
        let writer = try makeWriter(kind)
        let model = ObservedPlayerList()
        model.observeWithDefaultScheduler(writer)
        // `.mainActor` is asynchronous, even for the initial value.
        #expect(model.names.isEmpty)
        #expect(try await waitUntil { model.names == ["Arthur"] })

        try await writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
        #expect(try await waitUntil { model.names == ["Arthur", "Barbara"] })
        #expect(!model.deliveriesOnMainQueue.isEmpty)
        #expect(model.deliveriesOnMainQueue.allSatisfy { $0 })
        model.stopObserving()
    }

    @Test func anExplicitMainActorSchedulerIsTheDefaultOne() async throws {
        let writer = try makeWriter(.queue)
        let model = ObservedPlayerList()
        model.observe(writer, scheduling: .mainActor)
        #expect(model.names.isEmpty)
        #expect(try await waitUntil { model.names == ["Arthur"] })
        model.stopObserving()
    }

    @Test(arguments: WriterKind.allCases)
    func immediateDeliversTheInitialErrorBeforeStartReturns(kind: WriterKind) throws {
        let writer = try kind.make(path: directory.filePath())
        let model = ObservedPlayerList()
        // No player table: the first fetch fails.
        model.observe(writer, scheduling: .immediate)
        let error = try #require(model.error as? DatabaseError)
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.message == "no such table: player")
        #expect(model.names.isEmpty)
    }

    @Test func noValueIsDeliveredAfterCancellation() async throws {
        let writer = try makeWriter(.pool)
        let model = ObservedPlayerList()
        model.observe(writer, scheduling: .immediate)
        #expect(model.names == ["Arthur"])
        model.stopObserving()
        try await writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
        // Give a pending delivery every chance to run.
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(model.names == ["Arthur"])
    }

    @Test func valuesComeInTheOrderOfTheCommits() async throws {
        let writer = try makeWriter(.queue)
        var counts: [Int] = []
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
            .start(in: writer, scheduling: .immediate) { error in
                Issue.record(error)
            } onChange: { count in
                counts.append(count)
            }
        for _ in 0..<20 {
            try await writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('x')") }
        }
        #expect(try await waitUntil { counts.last == 21 })
        #expect(counts == Array(1...21))
        cancellable.cancel()
    }

    @Test func sendableClosuresStillRunWithOtherSchedulers() async throws {
        let writer = try makeWriter(.queue)
        let queue = DispatchQueue(label: "observation")
        let received = Locked<[Int]>([])
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
            .start(in: writer, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { count in
                dispatchPrecondition(condition: .onQueue(queue))
                received.withLock { $0.append(count) }
            })
        #expect(try await waitUntil { received.withLock { $0 } == [1] })
        cancellable.cancel()
    }

    @Test func taskSchedulersDeliverTheValuesOfAnAsyncSequence() async throws {
        let writer = try makeWriter(.pool)
        let observation = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
        }
        for scheduler in [TaskValueObservationScheduler.task, .task(priority: .high)] {
            var iterator = observation.values(in: writer, scheduling: scheduler).makeAsyncIterator()
            let first = try await iterator.next()
            try await writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('x')") }
            let second = try await iterator.next()
            #expect(second == (first ?? 0) + 1)
        }
    }
}
