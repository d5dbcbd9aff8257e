import Dispatch
import Foundation
import Testing
import Cairn

/// An observation whose fetch writes into the region it tracks
/// (`requiresWriteAccess`) does not take its own writes for changes: it
/// delivers one value per change of others, and never recurses.
@Suite struct SelfWritingObservationTests {
    @Test(arguments: WriterKind.allCases)
    func fetchThatWritesItsOwnRegion(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY); CREATE TABLE log (id INTEGER PRIMARY KEY)")
        }
        var observation = ValueObservation.tracking { db -> Int in
            try db.execute(sql: "INSERT INTO log DEFAULT VALUES")
            return try Int.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM t) + 0 * (SELECT COUNT(*) FROM log)")!
        }
        observation.requiresWriteAccess = true
        let recorder = Recorder<Int>()
        let cancellable = observation.start(
            in: writer, scheduling: .async(onQueue: DispatchQueue(label: "test")),
            onError: recorder.receive(error:), onChange: recorder.receive)
        #expect(recorder.wait { $0 == [0] })
        try writer.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        #expect(recorder.wait { $0.last == 1 })
        try writer.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        #expect(recorder.wait { $0.last == 2 })
        #expect(recorder.errors.isEmpty)
        withExtendedLifetime(cancellable) { }
    }
}
