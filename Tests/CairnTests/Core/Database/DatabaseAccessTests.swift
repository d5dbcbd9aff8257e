import Foundation
import Testing
@testable import Cairn

/// The one value that tells which access runs (`DatabaseAccess`): what the
/// chain of accesses of a thread allows, and what a nested access on
/// another thread does to the cursors of the access it runs in.
@Suite struct DatabaseAccessTests {
    /// Runs `body` on a new thread and waits for it: the access of the
    /// calling thread stays open and waits, as it does when a nested access
    /// runs on another connection's queue.
    private func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        done.wait()
    }

    @Test func eachAccessIsANewObjectThatEndsWithTheAccess() throws {
        let dbQueue = try DatabaseQueue()
        let first = try dbQueue.read { db in
            let access = try #require(db.currentAccess)
            #expect(access.isCurrent)
            #expect(DatabaseAccess.current === access)
            // A reentrant access goes on in the same access.
            try dbQueue.unsafeReentrantRead { db in
                #expect(db.currentAccess === access)
            }
            return access
        }
        #expect(!first.isOpen)
        #expect(DatabaseAccess.current == nil)
        let second = try dbQueue.read { db in try #require(db.currentAccess) }
        #expect(second !== first)
    }

    @Test func otherThreadsOutsideTheChainDoNotRunTheAccess() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            #expect(db.isInsideAccess)
            let access = try #require(db.currentAccess)
            let seenFromOtherThread = Locked<(inside: Bool, current: Bool)?>(nil)
            // Unchecked: this access waits for the other thread.
            nonisolated(unsafe) let db = db
            onAnotherThread {
                seenFromOtherThread.withLock { $0 = (db.isInsideAccess, access.isCurrent) }
            }
            let seen = try #require(seenFromOtherThread.withLock { $0 })
            #expect(!seen.inside)
            #expect(!seen.current)
            #expect(access.isCurrent)
        }
    }

    @Test func accessesToOtherConnectionsKeepTheOuterOneUsable() throws {
        let outerQueue = try DatabaseQueue()
        let innerQueue = try DatabaseQueue()
        try outerQueue.inDatabase { outer in
            try outer.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1), (2)")
            let rows = try Row.fetchCursor(outer, sql: "SELECT a FROM t ORDER BY a")
            #expect(try rows.next()?["a"] == 1)
            try innerQueue.inDatabase { inner in
                // Both connections may be used here, on this thread.
                #expect(outer.isInsideAccess)
                #expect(inner.isInsideAccess)
                #expect(inner.currentAccess?.isCurrent == true)
                let count = try Int.fetchOne(outer, sql: "SELECT COUNT(*) FROM t")
                #expect(count == 2)
            }
            // The outer cursor goes on.
            #expect(try rows.next()?["a"] == 2)
            #expect(try rows.next() == nil)
        }
    }

    @Test func aNestedAccessOnAnotherThreadUsesTheWaitingConnection() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1), (2)")
            let outerAccess = try #require(db.currentAccess)
            let outerChain = DatabaseAccess.current
            let nested = Locked<Int?>(nil)
            // Unchecked: this access waits for the other thread.
            nonisolated(unsafe) let db = db
            onAnotherThread {
                // What the access layer does for a reentrant access whose
                // queue runs on another thread: a new access on this thread,
                // inside the waiting one.
                #expect(!db.isInsideAccess)
                #expect(db.isInCurrentAccessChain == false)
                db.withAccess(enclosing: outerChain) {
                    #expect(db.isInsideAccess)
                    #expect(db.isInCurrentAccessChain)
                    nested.withLock { $0 = try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
                }
            }
            #expect(nested.withLock { $0 } == 2)
            // The waiting access goes on with a new access object; the
            // first part of it ended with the nested access.
            #expect(!outerAccess.isOpen)
            let resumed = try #require(db.currentAccess)
            #expect(resumed !== outerAccess)
            #expect(resumed.isCurrent)
            #expect(try Int.fetchOne(db, sql: "SELECT MAX(a) FROM t") == 2)
        }
    }

    @Test func aCursorOfTheWaitingAccessStopsAfterANestedAccessOnAnotherThread() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.inDatabase { db in
                try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1), (2)")
                let rows = try Row.fetchCursor(db, sql: "SELECT a FROM t")
                _ = try rows.next()
                let outerChain = DatabaseAccess.current
                let done = DispatchSemaphore(value: 0)
                // Unchecked: this access waits for the other thread.
                nonisolated(unsafe) let db = db
                Thread {
                    // The nested access resets the statements of the
                    // connection when it ends: the outer cursor would
                    // start again from its first row.
                    db.withAccess(enclosing: outerChain) {
                        _ = try? Int.fetchOne(db, sql: "SELECT 1")
                    }
                    done.signal()
                }.start()
                done.wait()
                _ = try rows.next()
            }
        }.map { result in
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("used outside of the database access that created it"))
        }
    }

    /// The handles of the statements that SQLite has not finalized.
    private func preparedHandles(_ db: Database) -> [SQLiteStatement] {
        var handles: [SQLiteStatement] = []
        var handle = sqlite3_next_stmt(db.sqliteConnection, nil)
        while let current = handle {
            handles.append(current)
            handle = sqlite3_next_stmt(db.sqliteConnection, current)
        }
        return handles
    }

    @Test func statementsReleasedByAThreadOutsideTheChainWaitForTheNextAccess() throws {
        let dbQueue = try DatabaseQueue()
        let handleBox = Locked<SQLiteStatement?>(nil)
        try dbQueue.inDatabase { db in
            let box = Locked<Statement?>(try db.makeStatement(sql: "SELECT 1"))
            let handle = try #require(box.withLock { $0?.sqliteStatement })
            handleBox.withLock { $0 = handle }
            // The last reference goes on a thread that runs no access to the
            // connection, while this access waits: that thread must not
            // finalize the handle.
            onAnotherThread { box.withLock { $0 = nil } }
            #expect(preparedHandles(db).contains(handle))
        }
        try dbQueue.inDatabase { db in
            // Finalized when the access began.
            let handle = try #require(handleBox.withLock { $0 })
            #expect(!preparedHandles(db).contains(handle))
        }
    }

    @Test func statementsReleasedInsideTheAccessAreFinalizedAtOnce() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            var statement: Statement? = try db.makeStatement(sql: "SELECT 1")
            let handle = try #require(statement?.sqliteStatement)
            #expect(preparedHandles(db).contains(handle))
            statement = nil
            #expect(!preparedHandles(db).contains(handle))
        }
    }
}
