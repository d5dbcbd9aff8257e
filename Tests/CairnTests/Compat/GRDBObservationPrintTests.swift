import Dispatch
import Foundation
import Testing
import Cairn

/// `ValueObservation.print()` prints the events GRDB prints, in its order:
/// a tracked region only when the observation tracks changes and its region
/// changed, one "database did change" per transaction.
@Suite struct GRDBObservationPrintTests {
    final class Lines: TextOutputStream, @unchecked Sendable {
        private let lock = NSCondition()
        private var _lines: [String] = []
        var lines: [String] { lock.withLock { _lines } }
        func write(_ string: String) {
            lock.withLock { _lines.append(string); lock.broadcast() }
        }
        /// Waits until `count` lines are written (10 s at most), and a
        /// moment more, so that extra lines would show.
        func wait(for count: Int) -> [String] {
            let deadline = Date().addingTimeInterval(10)
            lock.withLock {
                while _lines.count < count, lock.wait(until: deadline) { }
            }
            Thread.sleep(forTimeInterval: 0.1)
            return lines
        }
    }

    let directory: TemporaryDirectory
    let queue = DispatchQueue(label: "GRDBObservationPrintTests")

    init() throws {
        directory = try TemporaryDirectory()
    }

    func regionDescription(_ reader: some DatabaseReader) throws -> String {
        try reader.read { db in try db.makeStatement(sql: "SELECT MAX(id) FROM player").databaseRegion.description }
    }

    @Test func readOnlyDatabasesPrintNoRegion() throws {
        let path = directory.filePath("readonly.sqlite")
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY)") }
        var config = Configuration()
        config.readonly = true
        let readers: [any DatabaseReader] = [
            try DatabaseQueue(path: path, configuration: config),
            try DatabasePool(path: path, configuration: config),
            try DatabasePool(path: path, configuration: config).makeSnapshot(),
        ]
        for reader in readers {
            let lines = Lines()
            let cancellable = ValueObservation
                .trackingConstantRegion { try Int.fetchOne($0, sql: "SELECT MAX(id) FROM player") }
                .print(to: lines)
                .start(in: reader, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { _ in })
            #expect(lines.wait(for: 3) == ["start", "fetch", "value: nil"], "\(type(of: reader))")
            withExtendedLifetime(cancellable) { }
        }
    }

    @Test(arguments: WriterKind.allCases)
    func writeAccessPrintsRegionOnce(kind: WriterKind) throws {
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY)") }
        let region = try regionDescription(writer)
        let lines = Lines()
        var observation = ValueObservation
            .trackingConstantRegion { try Int.fetchOne($0, sql: "SELECT MAX(id) FROM player") }
            .print(to: lines)
        observation.requiresWriteAccess = true
        let inserted = Locked(false)
        let cancellable = observation.start(in: writer, scheduling: .async(onQueue: queue), onError: { _ in }) { _ in
            let first = inserted.withLock { done in
                defer { done = true }
                return !done
            }
            if first {
                try? writer.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
            }
        }
        #expect(lines.wait(for: 7) == [
            "start", "fetch", "tracked region: \(region)", "value: nil",
            "database did change", "fetch", "value: Optional(1)",
        ])
        withExtendedLifetime(cancellable) { }
    }

    @Test func varyingRegionIsPrintedWhenItChanges() throws {
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE a(id INTEGER PRIMARY KEY);
                CREATE TABLE b(id INTEGER PRIMARY KEY);
                CREATE TABLE choice(t TEXT);
                INSERT INTO choice (t) VALUES ('a');
                """)
        }
        let regionA = try dbQueue.read { db in try db.makeStatement(sql: "SELECT MAX(id) FROM a").databaseRegion.description }
        let regionB = try dbQueue.read { db in try db.makeStatement(sql: "SELECT MAX(id) FROM b").databaseRegion.description }
        let lines = Lines()
        let changes = Locked(0)
        let cancellable = ValueObservation
            .tracking { db -> Int? in
                let table = try String.fetchOne(db, sql: "SELECT t FROM choice")!
                return try Int.fetchOne(db, sql: "SELECT MAX(id) FROM \(table)")
            }
            .print(to: lines)
            .start(in: dbQueue, scheduling: .async(onQueue: queue), onError: { _ in }) { _ in
                let count = changes.withLock { $0 += 1; return $0 }
                guard count <= 2 else { return }
                try? dbQueue.write { db in
                    try db.execute(sql: """
                        UPDATE choice SET t = 'b';
                        INSERT INTO a DEFAULT VALUES;
                        INSERT INTO b DEFAULT VALUES;
                        """)
                }
            }
        #expect(lines.wait(for: 11).prefix(11) == [
            "start", "fetch", "tracked region: \(regionA),choice(t)", "value: nil",
            "database did change", "fetch", "tracked region: \(regionB),choice(t)", "value: Optional(1)",
            "database did change", "fetch", "value: Optional(2)",
        ])
        withExtendedLifetime(cancellable) { }
    }

    @Test func cancellationIsPrinted() throws {
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY)") }
        let lines = Lines()
        let cancellable = ValueObservation
            .trackingConstantRegion { try Int.fetchOne($0, sql: "SELECT MAX(id) FROM player") }
            .print("log", to: lines)
            .start(in: dbQueue, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { _ in })
        #expect(lines.wait(for: 4) == ["log: start", "log: fetch", "log: tracked region: player(*)", "log: value: nil"])
        cancellable.cancel()
        #expect(lines.wait(for: 5).last == "log: cancel")
    }
}
