import Dispatch
import Foundation

/// The bounded pool of the reader connections of a database pool or a
/// snapshot pool: elements created on demand, up to a maximum count, and
/// reused.
///
/// `get()` waits while all elements are in use. A barrier waits until no
/// element is in use, and keeps new elements from being handed out while it
/// runs: database pools run their barrier writes this way.
///
/// Requests are served in order: a `get()` that comes after a barrier
/// request waits for the barrier, as with a dispatch barrier. The async
/// variants suspend their task instead of blocking a thread, so that many
/// concurrent async reads do not exhaust the threads that run the accesses.
final class ReaderPool<T: AnyObject & Sendable>: @unchecked Sendable {
    private struct Item {
        let element: T
        var isAvailable: Bool
        /// The thread that gave the element back last (``ThreadIdentity``),
        /// or zero.
        var lastThread: UInt = 0
    }

    /// How a waiting request is resumed once it is granted.
    private enum Wake {
        case semaphore(DispatchSemaphore)
        case continuation(CheckedContinuation<Void, Error>)

        func resume() {
            switch self {
            case .semaphore(let semaphore): semaphore.signal()
            case .continuation(let continuation): continuation.resume()
            }
        }
    }

    private struct Waiter {
        let id: Int
        let isBarrier: Bool
        let wake: Wake
    }

    /// The state of the pool. Protected by `lock`.
    private struct State {
        var items: [Item] = []
        /// Granted `get()` requests whose element was not given back yet.
        var inUseCount = 0
        /// Whether a barrier is granted and not released yet.
        var isBarrierActive = false
        /// Waiting requests, oldest first.
        var waiters: [Waiter] = []
        var nextWaiterID = 0
    }

    private let makeElement: @Sendable () throws -> T
    private let maximumCount: Int
    private var state = State()
    private let lock = NSLock()

    /// Creates a pool.
    ///
    /// - Parameters:
    ///   - maximumCount: The maximum number of elements.
    ///   - makeElement: Creates an element when none is available.
    init(maximumCount: Int, makeElement: @escaping @Sendable () throws -> T) {
        stopUnless(maximumCount > 0, "the maximum reader count must be at least 1")
        self.makeElement = makeElement
        self.maximumCount = maximumCount
    }

    // MARK: Getting elements

    /// Returns an available element, creating one if needed. Waits while
    /// all elements are in use. Give the element back with
    /// ``release(_:)``.
    ///
    /// - Throws: The error of `makeElement`.
    func get() throws -> T {
        // The usual case takes the lock once: the request is granted at
        // once, and an element is available.
        lock.lock()
        if grantImmediately(isBarrier: false) {
            let element = takeAvailable()
            lock.unlock()
            if let element { return element }
            return try makeGrantedElement()
        }
        let semaphore = DispatchSemaphore(value: 0)
        enqueue(isBarrier: false, wake: .semaphore(semaphore))
        lock.unlock()
        semaphore.wait()
        if let element = lock.withLock({ takeAvailable() }) { return element }
        return try makeGrantedElement()
    }

    /// Like ``get()``, without blocking a thread while all elements are in
    /// use: the task suspends until one is available.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while it
    ///   waits, or the error of `makeElement`.
    func get() async throws -> T {
        try await acquire(isBarrier: false)
        if let element = lock.withLock({ takeAvailable() }) { return element }
        return try makeGrantedElement()
    }

    /// Marks an available element as used and returns it, or returns nil.
    /// Call with the lock held, once the request is granted.
    ///
    /// The element that the current thread gave back last is preferred:
    /// threads that read one after the other keep their own connection,
    /// whose pages and statements stay in the caches of their core. Without
    /// it, two threads that read in a loop swap their two readers often, and
    /// the reads of PoolBenchmark "13 pool reads, 2 threads" took up to 1.6
    /// times the time of raw C, whose threads each keep their connection.
    private func takeAvailable() -> T? {
        let thread = ThreadIdentity.current()
        var firstAvailable: Int?
        for index in state.items.indices where state.items[index].isAvailable {
            if state.items[index].lastThread == thread {
                firstAvailable = index
                break
            }
            if firstAvailable == nil { firstAvailable = index }
        }
        guard let index = firstAvailable else { return nil }
        state.items[index].isAvailable = false
        return state.items[index].element
    }

    /// Creates an element for a granted request that found none available.
    private func makeGrantedElement() throws -> T {
        let element: T
        do {
            element = try makeElement()
        } catch {
            let woken = lock.withLock { () -> [Wake] in
                state.inUseCount -= 1
                return grantWaiters()
            }
            for wake in woken { wake.resume() }
            throw error
        }
        lock.withLock { state.items.append(Item(element: element, isAvailable: false)) }
        return element
    }

    /// Gives back an element returned by ``get()``.
    func release(_ element: T) {
        lock.lock()
        // The element may have been removed by removeAll().
        let thread = ThreadIdentity.current()
        for index in state.items.indices where state.items[index].element === element {
            state.items[index].isAvailable = true
            state.items[index].lastThread = thread
            break
        }
        state.inUseCount -= 1
        if state.waiters.isEmpty {
            lock.unlock()
            return
        }
        let woken = grantWaiters()
        lock.unlock()
        for wake in woken { wake.resume() }
    }

    // MARK: Barriers

    /// Runs `body` once no element is in use; no element is handed out
    /// while it runs.
    func barrier<U>(_ body: () throws -> U) rethrows -> U {
        acquireBlocking(isBarrier: true)
        defer { releaseBarrier() }
        return try body()
    }

    /// Waits, suspending the task, until no element is in use, and returns
    /// the function that ends the barrier. No element is handed out until
    /// it is called.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while it
    ///   waits.
    func acquireBarrier() async throws -> @Sendable () -> Void {
        try await acquire(isBarrier: true)
        return { [self] in releaseBarrier() }
    }

    private func releaseBarrier() {
        let woken = lock.withLock { () -> [Wake] in
            state.isBarrierActive = false
            return grantWaiters()
        }
        for wake in woken { wake.resume() }
    }

    // MARK: Granting requests

    /// Blocks the current thread until a request is granted.
    private func acquireBlocking(isBarrier: Bool) {
        let semaphore: DispatchSemaphore? = lock.withLock {
            if grantImmediately(isBarrier: isBarrier) { return nil }
            let semaphore = DispatchSemaphore(value: 0)
            enqueue(isBarrier: isBarrier, wake: .semaphore(semaphore))
            return semaphore
        }
        semaphore?.wait()
    }

    /// Suspends the task until a request is granted.
    private func acquire(isBarrier: Bool) async throws {
        try Task.checkCancellation()
        let id = Locked<Int?>(nil)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                let granted = lock.withLock { () -> Bool in
                    if grantImmediately(isBarrier: isBarrier) { return true }
                    id.withLock { $0 = enqueue(isBarrier: isBarrier, wake: .continuation(continuation)) }
                    return false
                }
                if granted { continuation.resume() }
            }
        } onCancel: {
            // A waiter that is still waiting leaves the line; a granted one
            // keeps its grant (its caller releases it).
            let removed = lock.withLock { () -> (Waiter, [Wake])? in
                guard let waiterID = id.withLock({ $0 }),
                      let index = state.waiters.firstIndex(where: { $0.id == waiterID }) else { return nil }
                let waiter = state.waiters.remove(at: index)
                // Requests behind a removed barrier may go now.
                return (waiter, grantWaiters())
            }
            if let (waiter, woken) = removed {
                if case .continuation(let continuation) = waiter.wake {
                    continuation.resume(throwing: CancellationError())
                }
                for wake in woken { wake.resume() }
            }
        }
    }

    /// Grants a new request at once when nobody waits before it and it can
    /// run. Call with the lock held.
    private func grantImmediately(isBarrier: Bool) -> Bool {
        guard state.waiters.isEmpty, canGrant(isBarrier: isBarrier) else { return false }
        grant(isBarrier: isBarrier)
        return true
    }

    /// Adds a waiting request, and returns its id. Call with the lock held.
    @discardableResult
    private func enqueue(isBarrier: Bool, wake: Wake) -> Int {
        let id = state.nextWaiterID
        state.nextWaiterID += 1
        state.waiters.append(Waiter(id: id, isBarrier: isBarrier, wake: wake))
        return id
    }

    private func canGrant(isBarrier: Bool) -> Bool {
        if state.isBarrierActive { return false }
        return isBarrier ? state.inUseCount == 0 : state.inUseCount < maximumCount
    }

    private func grant(isBarrier: Bool) {
        if isBarrier {
            state.isBarrierActive = true
        } else {
            state.inUseCount += 1
        }
    }

    /// Grants the waiting requests that can run, in order, and returns how
    /// to wake them (outside of the lock). Call with the lock held.
    private func grantWaiters() -> [Wake] {
        var woken: [Wake] = []
        while let first = state.waiters.first, canGrant(isBarrier: first.isBarrier) {
            grant(isBarrier: first.isBarrier)
            state.waiters.removeFirst()
            woken.append(first.wake)
        }
        return woken
    }

    // MARK: Elements

    /// Calls `body` with each element of the pool, in use or not.
    func forEach(_ body: (T) throws -> Void) rethrows {
        let elements = lock.withLock { state.items.map(\.element) }
        for element in elements {
            try body(element)
        }
    }

    /// Whether an element satisfies `predicate`.
    func contains(where predicate: (T) -> Bool) -> Bool {
        let elements = lock.withLock { state.items.map(\.element) }
        return elements.contains(where: predicate)
    }

    /// Forgets the available elements: they are released, and new ones are
    /// created when needed. Elements in use are forgotten when they return.
    func removeAvailable() {
        lock.withLock {
            state.items.removeAll(where: \.isAvailable)
        }
    }

    /// Forgets all elements: the available ones now, the ones in use when
    /// they are given back (``release(_:)`` no longer finds them).
    func removeAll() {
        lock.withLock {
            state.items.removeAll()
        }
    }
}
