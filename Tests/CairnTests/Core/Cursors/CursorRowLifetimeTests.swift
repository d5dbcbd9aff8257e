import Foundation
import Testing
import Cairn

/// A cursor row is a view on a running statement: used after its access,
/// or on another thread, it stops the program with a message that says
/// what to do instead. It never reads SQLite's memory from a thread that
/// does not own the connection (these tests also run under the address and
/// thread sanitizers in CI).
@Suite struct CursorRowLifetimeTests {
    @Test func copiedRowsOutliveTheirAccessAndThread() async throws {
        let dbQueue = try DatabaseQueue()
        let rows = try await dbQueue.read { db in
            var rows: [Row] = []
            let cursor = try Row.fetchCursor(db, sql: "SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, 'y'")
            while let row = try cursor.next() {
                rows.append(row.copy())
            }
            return rows
        }
        let fromAnotherTask = await Task.detached { rows.map { $0["b"] as String } }.value
        #expect(fromAnotherTask == ["x", "y"])
        #expect(rows.map { $0["a"] as Int } == [1, 2])
    }

    @Test func rowOfAFinishedCursorReadsNoValue() throws {
        // During the access, on its thread, a row kept after its cursor
        // ended reads a statement that has no current row: NULLs, never
        // freed memory.
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let cursor = try Row.fetchCursor(db, sql: "SELECT 1 AS a")
            let row = try #require(try cursor.next())
            #expect(row["a"] as Int == 1)
            #expect(try cursor.next() == nil)
            #expect(row["a"] as Int? == nil)
        }
    }

    @Test func blobOfACursorRowIsCopied() throws {
        // dataNoCopy hands out Data, which may be kept: a cursor row copies
        // the bytes that SQLite frees when the statement moves on.
        let dbQueue = try DatabaseQueue()
        let (data, hex) = try dbQueue.read { db in
            let cursor = try Row.fetchCursor(db, sql: "SELECT randomblob(4096) AS b")
            let row = try #require(try cursor.next())
            let data = try #require(row.dataNoCopy(atIndex: 0))
            return (data, data.map { String(format: "%02x", $0) }.joined())
        }
        // Read after the statement was reset (AddressSanitizer checks it).
        #expect(data.count == 4096)
        #expect(data.map { String(format: "%02x", $0) }.joined() == hex)
    }

    @Test func adaptedRowDecodedOnAnotherThreadStopsTheProgram() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            struct Probe: Decodable, FetchableRecord {
                var a: Int
            }
            let dbQueue = try DatabaseQueue()
            try dbQueue.read { db in
                let cursor = try Row.fetchCursor(db, sql: "SELECT 0, 1 AS a", adapter: SuffixRowAdapter(fromIndex: 1))
                let row = try #require(try cursor.next())
                let done = DispatchSemaphore(value: 0)
                Thread {
                    _ = try? Probe(row: row)
                    done.signal()
                }.start()
                done.wait()
            }
        }.map { result in
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("or on another thread"))
        }
    }

    @Test func rowUsedAfterItsAccessStopsTheProgram() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            let row = try dbQueue.read { db in
                try #require(try Row.fetchCursor(db, sql: "SELECT 1 AS a").next())
            }
            _ = row["a"] as Int
        }.map { result in
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("A row of a cursor was used outside of the database access that fetched it"))
        }
    }

    @Test func rowSentToAnotherThreadStopsTheProgram() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.read { db in
                let row = try #require(try Row.fetchCursor(db, sql: "SELECT 1 AS a").next())
                // The access waits for the other thread, which reads the row
                // while the access is still running.
                let done = DispatchSemaphore(value: 0)
                Thread {
                    _ = row["a"] as Int
                    done.signal()
                }.start()
                done.wait()
            }
        }.map { result in
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("or on another thread"))
        }
    }

    @Test func rowCopiedAfterItsAccessStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            let row = try dbQueue.read { db in
                try #require(try Row.fetchCursor(db, sql: "SELECT 1 AS a").next())
            }
            _ = row.copy()
        }
    }
}
