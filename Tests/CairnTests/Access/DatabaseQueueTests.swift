import Foundation
import Testing
import Cairn

@Suite struct DatabaseQueueTests {
    func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in try db.execute(sql: createPlayerTableSQL) }
        return dbQueue
    }

    @Test func readCannotWrite() throws {
        let dbQueue = try makeQueue()
        #expect {
            try dbQueue.read { db throws in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_READONLY
        }
        // Writes are allowed again after the read.
        try dbQueue.write { db throws in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
        try dbQueue.unsafeRead { db throws in try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
        #expect(try dbQueue.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 2)
    }

    @Test func fileDatabase() throws {
        let database = try TemporaryDatabase()
        try database.dbQueue.write { db throws in
            try db.execute(sql: createPlayerTableSQL)
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
        }
        #expect(database.dbQueue.path == database.path)
        try database.dbQueue.close()
        let reopened = try DatabaseQueue(path: database.path)
        #expect(try reopened.read { db throws in try String.fetchAll(db, sql: "SELECT name FROM player") } == ["Arthur"])
    }

    @Test func namedInMemoryDatabasesAreShared() throws {
        let name = "shared-\(UUID().uuidString)"
        let queue1 = try DatabaseQueue(named: name)
        let queue2 = try DatabaseQueue(named: name)
        let other = try DatabaseQueue(named: "other-\(UUID().uuidString)")
        try queue1.write { db throws in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        #expect(try queue2.read { db throws in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
        #expect(try other.read { db throws in try db.tableExists("t") } == false)
        // Private in-memory databases are not shared.
        #expect(try DatabaseQueue().read { db throws in try db.tableExists("t") } == false)
    }

    @Test func useAfterCloseThrows() throws {
        let dbQueue = try makeQueue()
        try dbQueue.close()
        try dbQueue.close() // closing twice is harmless
        #expect {
            try dbQueue.read { db throws in try Int.fetchOne(db, sql: "SELECT 1") }
        } throws: { error in
            guard let error = error as? DatabaseError else { return false }
            return error.resultCode == .SQLITE_MISUSE && error.message == "Connection is closed"
        }
        #expect(throws: DatabaseError.self) {
            try dbQueue.inDatabase { db throws in try db.execute(sql: "SELECT 1") }
        }
        #expect(throws: DatabaseError.self) {
            try dbQueue.write { _ in }
        }
    }

    @Test func closeFailsWhileStatementsAreAlive() throws {
        let dbQueue = try makeQueue()
        ErrorLogRecorder.install()
        try {
            let statement = try dbQueue.inDatabase { db throws in try db.makeStatement(sql: "SELECT 'kept by the queue test'") }
            #expect {
                try dbQueue.close()
            } throws: { error in
                (error as? DatabaseError)?.resultCode == .SQLITE_BUSY
            }
            // The statement is named in the error log.
            #expect(!ErrorLogRecorder.messages(containing: "unfinalized statement: SELECT 'kept by the queue test'").isEmpty)
            // The queue is still open.
            try dbQueue.write { db throws in try db.execute(sql: "INSERT INTO player (name) VALUES ('after')") }
            #expect(try dbQueue.read { _ throws in try String.fetchOne(statement) } == "kept by the queue test")
        }()
        // Once the statement is gone, the queue closes.
        try dbQueue.close()
        #expect(throws: DatabaseError.self) { try dbQueue.write { _ in } }
    }

    @Test func asyncAccesses() async throws {
        let dbQueue = try makeQueue()
        let id = try await dbQueue.write { db throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
            return db.lastInsertedRowID
        }
        #expect(id == 1)
        let names = try await dbQueue.read { db throws in try String.fetchAll(db, sql: "SELECT name FROM player") }
        #expect(names == ["Arthur"])
        let count = try await dbQueue.unsafeRead { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
        #expect(count == 1)
        try await dbQueue.writeWithoutTransaction { db throws in
            try db.execute(sql: "DELETE FROM player")
        }
        try await dbQueue.barrierWriteWithoutTransaction { db throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
        }
        struct Failure: Error {}
        await #expect(throws: Failure.self) {
            try await dbQueue.write { db throws in
                try db.execute(sql: "DELETE FROM player")
                throw Failure()
            }
        }
        #expect(try await dbQueue.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
        await #expect(throws: DatabaseError.self) {
            try await dbQueue.read { db throws in try db.execute(sql: "DELETE FROM player") }
        }
    }

    @Test func concurrentAsyncWritesAreSerialized() async throws {
        let dbQueue = try makeQueue()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask {
                    try await dbQueue.write { db throws in
                        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
                        try db.execute(sql: "INSERT INTO player (id, name) VALUES (?, ?)", arguments: [count + 1, "p\(index)"])
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await dbQueue.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 50)
    }

    @Test func cancelledTaskDoesNotRun() async throws {
        let dbQueue = try makeQueue()
        let task = Task {
            try await Task.sleep(nanoseconds: 1_000_000_000)
            return try await dbQueue.write { db throws in try db.execute(sql: "INSERT INTO player (name) VALUES ('x')") }
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await dbQueue.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
    }

    @Test func cancellationInterruptsALongStatement() async throws {
        let dbQueue = try makeQueue()
        let started = Locked(false)
        let task = Task {
            try await dbQueue.read { db throws in
                started.withLock { $0 = true }
                // A statement that would run for a very long time.
                return try Int.fetchOne(db, sql: """
                    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT COUNT(*) FROM n
                    """)
            }
        }
        while !started.withLock({ $0 }) { try await Task.sleep(nanoseconds: 1_000_000) }
        try await Task.sleep(nanoseconds: 20_000_000)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        // The queue is usable afterwards.
        #expect(try await dbQueue.read { db throws in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }

    @Test func interruptFromAnotherThread() throws {
        let dbQueue = try makeQueue()
        let started = DispatchSemaphore(value: 0)
        TestThreads.detach {
            started.wait()
            Thread.sleep(forTimeInterval: 0.02)
            dbQueue.interrupt()
        }
        #expect {
            try dbQueue.read { db throws in
                started.signal()
                return try Int.fetchOne(db, sql: """
                    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT COUNT(*) FROM n
                    """)
            }
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_INTERRUPT
        }
    }

    @Test func completionBasedAccesses() async throws {
        let dbQueue = try makeQueue()
        let names: [String] = try await withCheckedThrowingContinuation { continuation in
            dbQueue.asyncWrite({ db throws in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            }, completion: { db, result in
                continuation.resume(with: result.flatMap {
                    Result { try String.fetchAll(db, sql: "SELECT name FROM player") }
                })
            })
        }
        #expect(names == ["Arthur"])
        let count: Int = try await withCheckedThrowingContinuation { continuation in
            dbQueue.asyncRead { result in
                continuation.resume(with: result.flatMap { db in
                    Result { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
                })
            }
        }
        #expect(count == 1)
        await withCheckedContinuation { continuation in
            dbQueue.asyncWriteWithoutTransaction { db in
                try? db.execute(sql: "DELETE FROM player")
                continuation.resume()
            }
        }
        let unsafeCount: Int = try await withCheckedThrowingContinuation { continuation in
            dbQueue.asyncUnsafeRead { result in
                continuation.resume(with: result.flatMap { db in
                    Result { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
                })
            }
        }
        #expect(unsafeCount == 0)
    }

    @Test func reentrantAccesses() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            // The reentrant read sees the uncommitted write.
            let count = try dbQueue.unsafeReentrantRead { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
            #expect(count == 1)
            try dbQueue.unsafeReentrantWrite { db throws in try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
        }
        // Outside of an access, reentrant methods work as plain ones.
        #expect(try dbQueue.unsafeReentrantRead { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 2)
        // An access to another queue from an access is fine.
        let other = try makeQueue()
        try dbQueue.read { _ in
            try other.write { db throws in try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')") }
        }
    }

    @Test func spawnConcurrentReadSeesTheCurrentState() throws {
        let dbQueue = try makeQueue()
        let seen = Locked<Int?>(nil)
        try dbQueue.writeWithoutTransaction { db throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            dbQueue.spawnConcurrentRead { result in
                seen.withLock { $0 = try? Int.fetchOne(result.get(), sql: "SELECT COUNT(*) FROM player") }
            }
        }
        #expect(seen.withLock { $0 } == 1)
    }

    @Test func readerAndWriterProtocols() throws {
        func playerCount(_ reader: some DatabaseReader) throws -> Int {
            try reader.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0 }
        }
        func addPlayer(_ writer: any DatabaseWriter) throws {
            try writer.write { db throws in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
        }
        let dbQueue = try makeQueue()
        try addPlayer(dbQueue)
        #expect(try playerCount(dbQueue) == 1)
    }

    @Test func releaseMemory() throws {
        let dbQueue = try makeQueue()
        dbQueue.releaseMemory()
        #expect(try dbQueue.read { db throws in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }

    // MARK: Programmer errors stop with a clear message

    @Test func reentrantReadStops() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.write { _ in
                _ = try dbQueue.read { _ in 1 }
            }
        }
    }

    @Test func cursorUsedAfterItsAccessStops() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            let cursor = try dbQueue.read { db throws in try Int.fetchCursor(db, sql: "SELECT 1") }
            _ = try cursor.next()
        }
    }

    @Test func statementUsedAfterItsAccessStops() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            let statement = try dbQueue.inDatabase { db throws in try db.makeStatement(sql: "SELECT 1") }
            try statement.execute()
        }
    }
}
