import Dispatch
import Foundation
import Testing
import Cairn

/// Pool observations whose region changes with the fetched values
/// (`ValueObservation.tracking`), as in GRDB 7.8: no change of the new
/// region is missed.
@Suite struct GRDBValueObservationVaryingRegionTests {
    let directory: TemporaryDirectory
    let queue = DispatchQueue(label: "GRDBValueObservationVaryingRegionTests")

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// A pool observation whose region changes does not miss a change of
    /// its new region committed while the fetch that found the new region
    /// runs: the last value is the last state (GRDB fetches such
    /// observations with the writer, after each commit that changed their
    /// region).
    @Test func varyingRegionOfAPoolMissesNoChange() async throws {
        try await TestThreads.start { [self] in try self.varyingRegionOfAPoolMissesNoChangeOnThread() }()
    }

    func varyingRegionOfAPoolMissesNoChangeOnThread() throws {
        let dbPool = try DatabasePool(path: directory.filePath("varying.sqlite"))
        try dbPool.write { db in
            try db.execute(sql: """
                CREATE TABLE source(name TEXT);
                INSERT INTO source VALUES ('red');
                CREATE TABLE red(value INTEGER);
                CREATE TABLE blue(value INTEGER);
                """)
        }
        let reachedBlue = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let blocksOnBlue = Locked(true)
        let recorder = Recorder<Int>()
        let cancellable = ValueObservation
            .tracking { db -> Int in
                let table = try String.fetchOne(db, sql: "SELECT name FROM source")!
                if table == "blue", blocksOnBlue.withLock({ blocks in defer { blocks = false }; return blocks }) {
                    reachedBlue.signal()
                    gate.wait()
                }
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)")!
            }
            .start(in: dbPool, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0 == [0] })
        // Wait until the observer is added.
        Thread.sleep(forTimeInterval: 0.2)
        // Asynchronous: the fetch that follows the commit may run in the
        // access that commits, and waits for the gate.
        dbPool.asyncWriteWithoutTransaction { db in
            try? db.execute(sql: "UPDATE source SET name = 'blue'")
        }
        #expect(reachedBlue.wait(timeout: .now() + 10) == .success)
        // The fetch read the source, and waits: this change of the new
        // region commits meanwhile, unless the fetch holds the writer.
        let inserted = DispatchSemaphore(value: 0)
        dbPool.asyncWriteWithoutTransaction { db in
            try? db.execute(sql: "INSERT INTO blue VALUES (1)")
            inserted.signal()
        }
        _ = inserted.wait(timeout: .now() + 0.5)
        gate.signal()
        _ = inserted.wait(timeout: .now() + 10)
        var last: Int?
        for _ in 0..<300 where last != 1 {
            Thread.sleep(forTimeInterval: 0.01)
            last = recorder.values.last
        }
        #expect(last == 1, "\(recorder.values)")
        #expect(recorder.errors.isEmpty)
        cancellable.cancel()
    }
}
