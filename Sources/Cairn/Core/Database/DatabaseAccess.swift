import Foundation
// Public, not `internal`: @inlinable code of this file reads the atomic word.
// A public import is not re-exported to users (see CONTRIBUTING.md).
public import CairnSQLiteShims

// One value knows which access is running: `DatabaseAccess`.
//
// Each access to a connection (a closure of `read`, `write` or `inDatabase`,
// an async access, the read of a pool's reader or of a snapshot, the setup of
// a new connection) makes one `DatabaseAccess` object when it begins, and
// finishes it when it ends. The object knows its connection, its group of
// connections, its thread, the access it runs in (`enclosing`) and whether it
// is open. While the access runs, a thread-local slot names it (see
// `DatabaseAccess.slot`): the one pointer to the current access. The
// connection keeps none (`Database.currentAccess` is computed from the
// slot).
//
// What the object answers:
//
// - "May this thread use the connection now?" (statements, the methods of
//   `Database`, the finalization of statements released on any thread): the
//   current thread's chain of accesses, from the slot through `enclosing`,
//   holds an access to the connection made on this thread. Only
//   thread-local state is read, so the question is safe on any thread.
// - "Would this access wait for itself?" (the reentrancy checks of queues and
//   pools): the chain holds an access to the connection, or to its group, on
//   any thread (an enclosing access on another thread waits for this one).
// - "Is the access that made this cursor or row still running, on this
//   thread?" (`isCurrent`): cursors and cursor rows hold a strong reference
//   to the access that made them, taken once when they are made. A cursor or
//   a row kept after its access, or sent to another thread, finds its access
//   finished, or on another thread, and stops the program with a clear
//   message: it never reads a statement that another access runs, or that was
//   finalized.
//
// An access object is never reused: a new access is a new object, so a value
// that holds a finished access can never take it for the current one.

/// One database access (see the comment at the top of this file).
///
/// Unchecked Sendable: rows, which are `Sendable`, hold their access. The
/// open state (``openThread``) is read and written with atomic operations;
/// ``enclosing`` is written by the thread of the access when it ends, and
/// read by the threads of the chain, which the access runs in or which wait
/// for it.
@usableFromInline
final class DatabaseAccess: @unchecked Sendable {
    /// The connection, identified by its statement handles, which live as
    /// long as the connection and its statements (the connection object
    /// itself is not retained: values that outlive their access must not
    /// keep the connection open).
    let connection: StatementHandles

    /// The group of connections of the access (an `AccessGroup` of the
    /// access layer), compared by identity; nil for the setup of a
    /// connection.
    let group: AnyObject?

    /// The thread that runs the access (see ``ThreadIdentity/current()``).
    @usableFromInline let thread: UInt

    /// The access that runs this one: an access to another connection, on
    /// this thread or on a thread that waits for this access. Cleared when
    /// the access finishes, so that values that outlive it do not keep the
    /// chain alive.
    private(set) var enclosing: DatabaseAccess?

    /// One word, read and written with relaxed atomic operations (plain
    /// loads and stores on x86-64 and arm64): ``thread`` while the access
    /// is open, zero once it ended. Checking that an access is open and on
    /// the current thread is then one comparison, and a thread that reads
    /// it for a row it should not have makes no data race. Owned by the
    /// access, freed with it.
    @usableFromInline let openThread: UnsafeMutablePointer<UInt64>

    /// Whether the access still runs.
    var isOpen: Bool { _cairn_atomic_load_u64(openThread) != 0 }

    /// For an async access: whether its task was cancelled. Once it returns
    /// true, the statements that start throw `SQLITE_INTERRUPT` (see
    /// `Database.checkValidAccess(for:)`), so that the access ends with a
    /// `CancellationError`. Nil for the other accesses.
    let cancellation: (@Sendable () -> Bool)?

    /// The depth of the calls that run statements of Cairn that restore the
    /// state of the connection (see `Database.ignoringAccessCancellation(_:)`):
    /// while positive, nothing interrupts the statements of the access,
    /// neither ``cancellation`` nor the progress handler and time limits of
    /// the connection. The one counter of such pauses. Only the thread of
    /// the access reads and writes it.
    private var interruptionPauseDepth = 0

    /// Whether interruptions are paused (see ``interruptionPauseDepth``).
    var areInterruptionsPaused: Bool { interruptionPauseDepth > 0 }

    /// Whether the task of the access was cancelled, and the statements
    /// that start now should throw.
    var isCancelled: Bool {
        guard let cancellation, interruptionPauseDepth == 0 else { return false }
        return cancellation()
    }

    /// Runs `body` with interruptions paused; `isOutermost` tells whether
    /// this call began the pause.
    func pausingInterruptions<T>(_ body: (_ isOutermost: Bool) throws -> T) rethrows -> T {
        interruptionPauseDepth += 1
        defer { interruptionPauseDepth -= 1 }
        return try body(interruptionPauseDepth == 1)
    }

    /// Creates an open access on the current thread.
    init(
        connection: StatementHandles,
        group: AnyObject?,
        enclosing: DatabaseAccess?,
        cancellation: (@Sendable () -> Bool)? = nil)
    {
        self.connection = connection
        self.group = group
        self.enclosing = enclosing
        self.cancellation = cancellation
        let thread = ThreadIdentity.current()
        self.thread = thread
        openThread = Self.makeOpenThread(thread)
    }

    /// Creates the access that goes on after a nested access on another
    /// thread used the connection of `access` (see
    /// ``suspendForNestedAccess()``): same connection, thread and chain.
    private init(resuming access: DatabaseAccess) {
        connection = access.connection
        group = access.group
        enclosing = access.enclosing
        cancellation = access.cancellation
        thread = access.thread
        openThread = Self.makeOpenThread(access.thread)
    }

    private static func makeOpenThread(_ thread: UInt) -> UnsafeMutablePointer<UInt64> {
        let word = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        word.initialize(to: UInt64(thread))
        return word
    }

    deinit {
        openThread.deallocate()
    }

    /// Whether the access is open and the current thread runs it.
    @inlinable @inline(__always)
    var isCurrent: Bool {
        _cairn_atomic_load_u64(openThread) == UInt64(ThreadIdentity.current())
    }

    /// The access that goes on after a nested access on another thread
    /// suspended this one (see ``suspendForNestedAccess()``), nil
    /// otherwise. Written by the nested access while the thread of this
    /// access waits for it; read by the thread of this access.
    private var resumption: DatabaseAccess?

    /// This access, or the access that goes on after it when nested
    /// accesses on other threads suspended it: the last of its
    /// resumptions.
    var latest: DatabaseAccess {
        var access = self
        while let next = access.resumption { access = next }
        return access
    }

    /// Ends the access, and the accesses that resumed it. Called by the
    /// thread of the access, when it ends.
    func finish() {
        var access: DatabaseAccess? = self
        while let current = access {
            _cairn_atomic_store_u64(current.openThread, 0)
            current.enclosing = nil
            access = current.resumption
            current.resumption = nil
        }
    }

    /// Ends the part of the access that ran before a nested access, on
    /// another thread, began to use the same connection (an
    /// `unsafeReentrantRead` from an access to another connection whose
    /// queue runs on another thread). That nested access resets the
    /// statements of the connection when it ends, so the cursors and rows
    /// made so far end with it. The access that goes on afterwards, for
    /// the cursors and rows made after the nested access, is its
    /// ``resumption``.
    ///
    /// Called by the nested access, on the ``latest`` access, while the
    /// thread of this access waits.
    private func suspendForNestedAccess() {
        _cairn_atomic_store_u64(openThread, 0)
        resumption = DatabaseAccess(resuming: self)
    }

    /// Suspends the open access to `connection` of the chain that starts
    /// at `access` (an access of another thread, which waits for the
    /// access that begins now on the current thread), if any (see
    /// ``suspendForNestedAccess()``).
    static func suspendOpenAccess(to connection: StatementHandles, inChainOf access: DatabaseAccess?) {
        var access = access
        while let current = access {
            if current.connection === connection {
                let latest = current.latest
                if latest.isOpen { latest.suspendForNestedAccess() }
                return
            }
            access = current.enclosing
        }
    }

    // MARK: The chain of the current thread

    /// The slot of the innermost access of the current thread, which
    /// ``run(_:)`` fills while the access runs, and keeps alive.
    @inline(__always)
    static var slot: ThreadSlot<DatabaseAccess> { ThreadSlot(.access) }

    /// The innermost access that runs on the current thread, if any.
    static var current: DatabaseAccess? { slot.current }

    /// Runs `body` with this access as the innermost access of the current
    /// thread.
    func run<T>(_ body: () throws -> T) rethrows -> T {
        try Self.slot.with(self, body)
    }

    /// Whether the current thread may use `connection` now: its chain of
    /// accesses holds an access to the connection made on this thread.
    /// Safe to call from any thread.
    @inline(__always)
    static func currentThreadRuns(_ connection: StatementHandles) -> Bool {
        withCurrentThreadAccess(to: connection) { $0 != nil }
    }

    /// Calls `body` with the access to `connection` that the current
    /// thread runs (the innermost one of its chain made on this thread), or
    /// nil. Safe to call from any thread.
    @inline(__always)
    static func withCurrentThreadAccess<R>(
        to connection: StatementHandles,
        _ body: (DatabaseAccess?) throws -> R) rethrows -> R
    {
        try slot.withCurrent { innermost in
            guard let innermost else { return try body(nil) }
            // The innermost access is always one of this thread.
            if innermost.connection === connection { return try body(innermost) }
            return try body(innermost.enclosingAccess(to: connection))
        }
    }

    /// The innermost access of the current thread when it is an open access
    /// to `connection` (the common case for a cursor made now), nil
    /// otherwise.
    @inline(__always)
    static func innermostOpenAccess(to connection: StatementHandles) -> DatabaseAccess? {
        slot.withCurrent { innermost in
            guard let innermost, innermost.connection === connection, innermost.isOpen else { return nil }
            return innermost
        }
    }

    /// The slow path of ``withCurrentThreadAccess(to:_:)``: the enclosing
    /// accesses.
    private func enclosingAccess(to connection: StatementHandles) -> DatabaseAccess? {
        let thread = self.thread
        var access = enclosing
        while let current = access {
            if current.connection === connection && current.thread == thread { return current }
            access = current.enclosing
        }
        return nil
    }

    /// Whether an access of the current thread's chain, on any thread,
    /// satisfies `predicate`.
    static func chainContains(where predicate: (DatabaseAccess) -> Bool) -> Bool {
        var access = current
        while let current = access {
            if predicate(current) { return true }
            access = current.enclosing
        }
        return false
    }

    /// Whether the current thread's chain holds an access to `connection`,
    /// on any thread: a new access to the connection from here would wait
    /// for itself.
    static func chainContains(_ connection: StatementHandles) -> Bool {
        chainContains { $0.connection === connection }
    }

    /// Whether the current thread's chain holds an access of `group`, on
    /// any thread.
    static func chainContains(group: AnyObject) -> Bool {
        chainContains { $0.group === group }
    }
}

/// The identifier of the current thread.
@usableFromInline
enum ThreadIdentity {
    /// The identifier of the current thread: never zero, and distinct from
    /// those of the other running threads (the address of a thread-local C
    /// variable, see `_cairn_thread_identity` in `CairnShims.h`).
    @inlinable @inline(__always)
    static func current() -> UInt {
        UInt(_cairn_thread_identity())
    }
}
