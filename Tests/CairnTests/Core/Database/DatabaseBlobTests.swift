import Foundation
import Testing
import Cairn

/// Incremental blob I/O: `Database.openBlob` and `DatabaseBlob`.
@Suite struct DatabaseBlobTests {
    /// A writer on a new file with a `document` table: row 1 holds a
    /// zeroblob of 100 bytes, row 2 the bytes 0...9, row 3 a NULL.
    func makeWriter(_ kind: WriterKind, _ directory: TemporaryDirectory) throws -> any DatabaseWriter {
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in
            try db.execute(sql: """
                CREATE TABLE document (id INTEGER PRIMARY KEY, content BLOB, name TEXT UNIQUE);
                INSERT INTO document (id, content, name) VALUES (1, zeroblob(100), 'a');
                INSERT INTO document (id, content, name) VALUES (3, NULL, 'c');
                """)
            try db.execute(
                sql: "INSERT INTO document (id, content, name) VALUES (2, ?, 'b')",
                arguments: [Data(0..<10)])
        }
        return writer
    }

    func content(_ reader: some DatabaseReader, id: Int64) throws -> Data? {
        try reader.read { db in
            try Data.fetchOne(db, sql: "SELECT content FROM document WHERE id = ?", arguments: [id])
        }
    }

    @Test(arguments: WriterKind.allCases)
    func writesInPlaceAndReadsBack(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        try writer.write { db in
            let blob = try db.openBlob(table: "document", column: "content", rowID: 1, readOnly: false)
            #expect(blob.count == 100)
            #expect(blob.rowID == 1)
            #expect(blob.table == "document" && blob.column == "content" && blob.schema == "main")
            try blob.write(Data([1, 2, 3]), at: 0)
            try blob.write([UInt8](repeating: 9, count: 4), at: 96)
            #expect(try blob.read(count: 4, at: 0) == Data([1, 2, 3, 0]))
            #expect(try blob.read(count: 4, at: 96) == Data([9, 9, 9, 9]))
            #expect(try blob.read(count: 0, at: 100) == Data())
        }
        // The write block committed: another access sees the bytes.
        var expected = Data(count: 100)
        expected.replaceSubrange(0..<3, with: [1, 2, 3])
        expected.replaceSubrange(96..<100, with: [9, 9, 9, 9])
        #expect(try content(writer, id: 1) == expected)
    }

    @Test(arguments: WriterKind.allCases)
    func readsIntoTheCallersBuffer(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        let bytes = try writer.read { db in
            let blob = try db.openBlob(table: "document", column: "content", rowID: 2)
            var buffer = [UInt8](repeating: 0xFF, count: 6)
            try buffer.withUnsafeMutableBytes { buffer in
                try blob.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[1..<5]), at: 3)
            }
            return buffer
        }
        #expect(bytes == [0xFF, 3, 4, 5, 6, 0xFF])
    }

    @Test func bytesOutsideTheValueThrowAndWriteNothing() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(.queue, directory)
        try writer.write { db in
            let blob = try db.openBlob(table: "document", column: "content", rowID: 2, readOnly: false)
            let error = #expect(throws: DatabaseError.self) { try blob.write(Data(repeating: 7, count: 4), at: 8) }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message?.contains("a blob cannot grow") == true)
            #expect(error?.message?.contains("holds 10 bytes") == true)
            #expect(throws: DatabaseError.self) { try blob.write(Data([1]), at: -1) }
            #expect(throws: DatabaseError.self) { try blob.read(count: 11, at: 0) }
            #expect(throws: DatabaseError.self) { try blob.read(count: 1, at: 10) }
            #expect(throws: DatabaseError.self) { try blob.read(count: -1, at: 0) }
            // The blob still works.
            #expect(try blob.read(count: 2, at: 8) == Data([8, 9]))
        }
        #expect(try content(writer, id: 2) == Data(0..<10))
    }

    @Test func openingErrors() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(.queue, directory)
        try writer.write { db in
            try db.execute(sql: "CREATE INDEX document_content ON document(content)")
            let cases: [(table: String, column: String, rowID: Int64, readOnly: Bool, message: String)] = [
                ("missing", "content", 1, true, "no such table"),
                ("document", "missing", 1, true, "no such column"),
                ("document", "content", 42, true, "no such rowid"),
                ("document", "content", 3, true, "cannot open value of type null"),
                ("document", "content", 1, false, "cannot open indexed column for writing"),
            ]
            for item in cases {
                let error = #expect(throws: DatabaseError.self) {
                    try db.openBlob(table: item.table, column: item.column, rowID: item.rowID, readOnly: item.readOnly)
                }
                #expect(error?.message?.contains(item.message) == true, "\(String(describing: error))")
            }
        }
    }

    @Test(arguments: WriterKind.allCases)
    func readOnlyBlobsAndReadAccessesDoNotWrite(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        try writer.write { db in
            let blob = try db.openBlob(table: "document", column: "content", rowID: 2)
            let error = #expect(throws: DatabaseError.self) { try blob.write(Data([1]), at: 0) }
            #expect(error?.resultCode == .SQLITE_READONLY)
        }
        try writer.read { db in
            let error = #expect(throws: DatabaseError.self) {
                try db.openBlob(table: "document", column: "content", rowID: 2, readOnly: false)
            }
            #expect(error?.resultCode == .SQLITE_READONLY)
        }
        #expect(try content(writer, id: 2) == Data(0..<10))
    }

    @Test func aChangedRowExpiresTheBlobUntilReopened() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(.queue, directory)
        try writer.write { db in
            let blob = try db.openBlob(table: "document", column: "content", rowID: 2)
            try db.execute(sql: "UPDATE document SET name = 'bb' WHERE id = 2")
            let error = #expect(throws: DatabaseError.self) { try blob.read(count: 1, at: 0) }
            #expect(error?.resultCode == .SQLITE_ABORT)
            #expect(error?.message?.contains("reopen") == true)
            try blob.reopen(rowID: 2)
            #expect(try blob.read(count: 2, at: 0) == Data([0, 1]))

            // Deleted row.
            try db.execute(sql: "DELETE FROM document WHERE id = 2")
            #expect(throws: DatabaseError.self) { try blob.read(count: 1, at: 0) }
            #expect(throws: DatabaseError.self) { try blob.reopen(rowID: 2) }
            try blob.reopen(rowID: 1)
            #expect(blob.rowID == 1)
            #expect(blob.count == 100)
            #expect(try blob.read(count: 1, at: 99) == Data([0]))
        }
    }

    @Test func blobsCloseWithTheirAccessAndThrowAfterwards() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(.queue, directory)
        let kept = try writer.read { db in try db.openBlob(table: "document", column: "content", rowID: 2) }
        let error = #expect(throws: DatabaseError.self) { try kept.read(count: 1, at: 0) }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        #expect(error?.message?.contains("outside of the database access that opened it") == true)
        // In a later access too: it is not the access of the blob.
        try writer.read { _ in
            #expect(throws: DatabaseError.self) { try kept.read(count: 1, at: 0) }
            #expect(throws: DatabaseError.self) { try kept.close() }
        }
    }

    @Test func aBlobUsedOnAnotherThreadThrows() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(.queue, directory)
        try writer.read { db in
            let blob = UncheckedBox(try db.openBlob(table: "document", column: "content", rowID: 2))
            let result = Locked<Result<Data, any Error>?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread {
                result.withLock { $0 = Result { try blob.value.read(count: 1, at: 0) } }
                done.signal()
            }.start()
            done.wait()
            let outcome = try #require(result.withLock { $0 })
            #expect(throws: DatabaseError.self) { try outcome.get() }
            // Its own thread still reads it.
            #expect(try blob.value.read(count: 1, at: 1) == Data([1]))
        }
    }

    @Test func blobsCloseBeforeCairnEndsTransactionsAndSavepoints() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(.queue, directory)
        try writer.writeWithoutTransaction { db in
            // A savepoint releases with a blob opened for writing inside.
            try db.inTransaction {
                let blob = try db.openBlob(table: "document", column: "content", rowID: 2, readOnly: false)
                try db.inSavepoint {
                    let inner = try db.openBlob(table: "document", column: "content", rowID: 1, readOnly: false)
                    try inner.write(Data([5]), at: 0)
                    return .commit
                }
                // The savepoint closed the outer blob too.
                let error = #expect(throws: DatabaseError.self) { try blob.write(Data([1]), at: 0) }
                #expect(error?.message?.contains("is closed") == true)
                let again = try db.openBlob(table: "document", column: "content", rowID: 2, readOnly: false)
                try again.write(Data([42]), at: 0)
                return .commit
            }
            #expect(try Data.fetchOne(db, sql: "SELECT content FROM document WHERE id = 1")?.first == 5)
            #expect(try Data.fetchOne(db, sql: "SELECT content FROM document WHERE id = 2")?.first == 42)

            // A rolled back transaction rolls back the writes of its blobs.
            try db.inTransaction {
                let blob = try db.openBlob(table: "document", column: "content", rowID: 2, readOnly: false)
                try blob.write(Data([43]), at: 0)
                return .rollback
            }
            #expect(try Data.fetchOne(db, sql: "SELECT content FROM document WHERE id = 2")?.first == 42)

            // Outside of a transaction, closing commits.
            let blob = try db.openBlob(table: "document", column: "content", rowID: 2, readOnly: false)
            try blob.write(Data([44]), at: 0)
            try blob.close()
            try blob.close() // nothing happens
            #expect(!db.isInsideTransaction)
        }
        #expect(try content(writer, id: 2)?.first == 44)
    }

    @Test func blobsThatCloseOnTheirOwnCommitAndTellObservers() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(.queue, directory)
        let commits = Locked(0)
        let cancellable = DatabaseRegionObservation(tracking: Table("document"))
            .start(in: writer, onError: { _ in }, onChange: { _ in commits.withLock { $0 += 1 } })
        defer { cancellable.cancel() }
        // Outside of a transaction, without close(): closed at the end of
        // the access, which commits and tells observers.
        var kept: DatabaseBlob?
        try writer.writeWithoutTransaction { db in
            let blob = try db.openBlob(table: "document", column: "content", rowID: 2, readOnly: false)
            try blob.write(Data([50]), at: 0)
            kept = blob   // not released before the end of the access
        }
        _ = kept
        #expect(commits.withLock { $0 } == 1)
        #expect(try content(writer, id: 2)?.first == 50)
        // Closed by beginTransaction: its commit comes first.
        try writer.writeWithoutTransaction { db in
            let blob = try db.openBlob(table: "document", column: "content", rowID: 2, readOnly: false)
            try blob.write(Data([51]), at: 0)
            try db.inTransaction {
                let first = try Data.fetchOne(db, sql: "SELECT content FROM document WHERE id = 2")?.first
                #expect(first == 51)
                return .commit
            }
            _ = blob
        }
        #expect(commits.withLock { $0 } == 2)
        // A read-only access refuses writes through a blob opened before.
        try writer.writeWithoutTransaction { db in
            try db.inTransaction { () throws -> Database.TransactionCompletion in
                let blob = try db.openBlob(table: "document", column: "content", rowID: 2, readOnly: false)
                try db.readOnly { () throws in
                    let error = #expect(throws: DatabaseError.self) { try blob.write(Data([52]), at: 0) }
                    #expect(error?.resultCode == .SQLITE_READONLY)
                }
                return .commit
            }
        }
        #expect(try content(writer, id: 2)?.first == 51)
    }

    @Test(arguments: WriterKind.allCases)
    func observersHearOfBlobWrites(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        let changes = Locked(0)
        let cancellable = DatabaseRegionObservation(tracking: Table("document").filter(key: 1))
            .start(in: writer, onError: { _ in }, onChange: { _ in changes.withLock { $0 += 1 } })
        defer { cancellable.cancel() }
        // Another column: never told.
        let nameChanges = Locked(0)
        let nameCancellable = DatabaseRegionObservation(
            tracking: SQLRequest<Row>(sql: "SELECT name FROM document WHERE id = 1"))
            .start(in: writer, onError: { _ in }, onChange: { _ in nameChanges.withLock { $0 += 1 } })
        defer { nameCancellable.cancel() }
        // Another row: not told.
        try writer.write { db in
            let blob = try db.openBlob(table: "document", column: "content", rowID: 2, readOnly: false)
            try blob.write(Data([1]), at: 0)
        }
        #expect(changes.withLock { $0 } == 0)
        try writer.write { db in
            let blob = try db.openBlob(table: "document", column: "content", rowID: 1, readOnly: false)
            try blob.write(Data([1]), at: 0)
        }
        #expect(changes.withLock { $0 } == 1)
        // Outside of a transaction: told when the blob closes and commits.
        try writer.writeWithoutTransaction { db in
            let blob = try db.openBlob(table: "document", column: "content", rowID: 1, readOnly: false)
            try blob.write(Data([2]), at: 0)
            try blob.close()
        }
        #expect(changes.withLock { $0 } == 2)
        // Inside a savepoint: told once it is released.
        try writer.write { db in
            try db.inSavepoint {
                let blob = try db.openBlob(table: "document", column: "content", rowID: 1, readOnly: false)
                try blob.write(Data([3]), at: 0)
                return .commit
            }
        }
        #expect(changes.withLock { $0 } == 3)
        #expect(nameChanges.withLock { $0 } == 0)
        try writer.write { db in try db.execute(sql: "UPDATE document SET name = 'z' WHERE id = 1") }
        #expect(nameChanges.withLock { $0 } == 1)
    }

    /// 64 MB stored piece by piece into a zeroblob, then read back piece by
    /// piece into one reused buffer: the value is never in memory as a
    /// whole. Peak memory: the connection's page cache, measured with
    /// `SQLITE_DBSTATUS_CACHE_USED` after each piece, stays under 4 MB
    /// (2.1 MB here: the default cache size), beside the test's one 1 MB
    /// buffer.
    @Test func sixtyFourMegabytesStoredAndReadWithConstantMemory() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        let pieceSize = 1 << 20
        let pieceCount = 64
        var piece = [UInt8](repeating: 0, count: pieceSize)
        func fill(_ piece: inout [UInt8], index: Int) {
            for offset in stride(from: 0, to: pieceSize, by: 4096) {
                piece[offset] = UInt8(truncatingIfNeeded: index &* 31 &+ offset >> 12)
            }
        }
        func cacheUsed(_ db: Database) -> Int32 {
            var current: Int32 = 0
            var highwater: Int32 = 0
            sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_CACHE_USED, &current, &highwater, 0)
            return current
        }
        var peakCache: Int32 = 0
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE file (id INTEGER PRIMARY KEY, content BLOB NOT NULL)")
            try db.execute(sql: "INSERT INTO file (id, content) VALUES (1, zeroblob(?))", arguments: [pieceSize * pieceCount])
            peakCache = max(peakCache, cacheUsed(db))
            let blob = try db.openBlob(table: "file", column: "content", rowID: 1, readOnly: false)
            #expect(blob.count == pieceSize * pieceCount)
            for index in 0..<pieceCount {
                piece.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
                fill(&piece, index: index)
                try piece.withUnsafeBytes { try blob.write($0, at: index * pieceSize) }
                peakCache = max(peakCache, cacheUsed(db))
            }
        }
        try dbQueue.read { db in
            let blob = try db.openBlob(table: "file", column: "content", rowID: 1)
            var expected = [UInt8](repeating: 0, count: pieceSize)
            for index in 0..<pieceCount {
                try piece.withUnsafeMutableBytes { try blob.read(into: $0, at: index * pieceSize) }
                peakCache = max(peakCache, cacheUsed(db))
                expected.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
                fill(&expected, index: index)
                #expect(piece == expected, "piece \(index)")
                if piece != expected { break }
            }
        }
        #expect(peakCache < 4 << 20, "page cache peak: \(peakCache) bytes")
    }
}

/// Sends a value that is not `Sendable` to another thread, for the tests
/// of misuse.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
