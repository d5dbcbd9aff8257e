import Dispatch
import Foundation
import XCTest
import Cairn

/// XCTest-style starts: the test method runs on the main thread, outside
/// of the main queue, and waits with expectations while background
/// threads start `.immediate` observations with `DispatchQueue.main.sync`.
final class GRDBImmediateStartXCTests: XCTestCase {
    func startImmediateObservations(_ writer: any DatabaseWriter) throws {
        try writer.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        let recorder = Recorder<Int>()
        let cancellables = Locked<[AnyDatabaseCancellable]>([])
        let started = (0..<8).map { expectation(description: "start \($0)") }
        for index in 0..<8 {
            Thread.detachNewThread {
                DispatchQueue.main.sync {
                    let c = GRDBObservationSchedulingTests.count()
                        .start(in: writer, scheduling: .immediate, onError: recorder.receive(error:), onChange: recorder.receive)
                    cancellables.withLock { $0.append(c) }
                }
                started[index].fulfill()
            }
        }
        wait(for: started, timeout: 20)
        XCTAssertEqual(recorder.values, Array(repeating: 0, count: 8))
        XCTAssertTrue(recorder.errors.isEmpty)
    }

    func testImmediateStartsFromThreadsOnADatabaseQueue() throws {
        let directory = try TemporaryDirectory()
        try startImmediateObservations(DatabaseQueue(path: directory.filePath()))
    }

    func testImmediateStartsFromThreadsOnADatabasePool() throws {
        let directory = try TemporaryDirectory()
        try startImmediateObservations(DatabasePool(path: directory.filePath()))
    }
}
