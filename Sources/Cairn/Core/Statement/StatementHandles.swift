import Foundation
internal import CairnSQLiteShims

// The statements of a connection, and where they are finalized.
//
// SQLite is built in multi-thread mode (`SQLITE_THREADSAFE=2`): a connection
// has no mutex, and must be used by one thread at a time, including by
// `sqlite3_finalize`, which unlinks the statement from the connection and
// frees memory of the connection's allocator. A `Statement` may be
// deinitialized on any thread: user code may keep one after its access, or
// a cursor row (which is `Sendable`) may hold the last reference on another
// thread. Finalizing there, while another thread runs an access to the
// connection, would corrupt the connection's memory.
//
// So a statement is finalized at once only when its deinitializer runs on
// the thread of an access to its connection (or after the connection
// closed, under a lock). Otherwise its handle waits in a list, and the
// connection finalizes it at the beginning of its next access, before it
// checks whether it can close, or when it is deinitialized.

/// The SQLite handles of the live statements of a connection, and those that
/// wait to be finalized.
///
/// Shared by the connection and its statements, which may outlive it.
final class StatementHandles: @unchecked Sendable {
    private struct State {
        /// The handles of the live ``Statement`` objects.
        var live: Set<SQLiteStatement> = []
        /// The handles of the statements deinitialized outside of an access.
        var pending: [SQLiteStatement] = []
        /// Whether the connection closed (with `sqlite3_close_v2`, whose
        /// connection lives on until its last statement is finalized).
        var isClosed = false
    }

    /// Unchecked Sendable: the state is only touched under its lock, and
    /// ``pendingHint`` with atomic operations.
    private let state = Locked(State())

    /// Whether ``State/pending`` may hold handles, read and written with
    /// relaxed atomic operations: a hint that spares the lock to accesses
    /// when nothing waits (a handle appended just after an access read the
    /// hint waits for the next access).
    private let pendingHint: UnsafeMutablePointer<UInt64>

    init() {
        pendingHint = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        pendingHint.initialize(to: 0)
    }

    deinit {
        pendingHint.deallocate()
    }

    /// Registers the handle of a new statement. Called inside an access.
    func insert(_ handle: SQLiteStatement) {
        state.withLock { _ = $0.live.insert(handle) }
    }

    /// The handles of the live statements.
    var liveHandles: Set<SQLiteStatement> {
        state.withLock { $0.live }
    }

    /// Finalizes the handle of a deinitialized statement, now if the
    /// current thread may use the connection, and at the next access
    /// otherwise.
    ///
    /// The corresponding C function is `sqlite3_finalize`.
    func finalize(_ handle: SQLiteStatement) {
        if DatabaseAccess.currentThreadRuns(self) {
            // This thread runs an access to the connection.
            state.withLock { _ = $0.live.remove(handle) }
            sqlite3_finalize(handle)
            return
        }
        state.withLock { state in
            state.live.remove(handle)
            if state.isClosed {
                // Nobody uses a closed connection: the lock serializes the
                // finalizations of the statements that outlive it.
                sqlite3_finalize(handle)
            } else {
                state.pending.append(handle)
                _cairn_atomic_store_u64(pendingHint, 1)
            }
        }
    }

    /// Finalizes the statements released outside of an access, if the hint
    /// says there may be some. Called when an access begins.
    @inline(__always)
    func finalizePendingIfNeeded() {
        if _cairn_atomic_load_u64(pendingHint) != 0 {
            finalizePending()
        }
    }

    /// Finalizes the statements that were deinitialized outside of an
    /// access. Called inside an access.
    func finalizePending() {
        let pending = state.withLock { state in
            _cairn_atomic_store_u64(pendingHint, 0)
            defer { state.pending.removeAll() }
            return state.pending
        }
        for handle in pending {
            sqlite3_finalize(handle)
        }
    }

    /// Records that the connection closed with `sqlite3_close`: no
    /// statement was left.
    func connectionDidClose() {
        state.withLock { $0.isClosed = true }
    }

    /// Finalizes the pending statements and runs `close` (which calls
    /// `sqlite3_close_v2`), under the lock: the statements that outlive the
    /// connection are finalized after it, one at a time.
    func closeConnection(_ close: () -> Void) {
        state.withLock { state in
            for handle in state.pending {
                sqlite3_finalize(handle)
            }
            state.pending.removeAll()
            _cairn_atomic_store_u64(pendingHint, 0)
            state.isClosed = true
            close()
        }
    }

}
