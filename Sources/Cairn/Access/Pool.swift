import Dispatch
import Foundation

/// A pool of elements created on demand, up to a maximum count, and reused.
///
/// `get()` waits while all elements are in use. `barrier(_:)` waits until no
/// element is in use, and keeps new elements from being handed out while it
/// runs: database pools run their barrier writes this way.
final class Pool<T: AnyObject & Sendable>: @unchecked Sendable {
    private struct Item {
        let element: T
        var isAvailable: Bool
    }

    private let makeElement: @Sendable () throws -> T

    /// The items. Protected by `lock`.
    private var items: [Item] = []
    private let lock = NSLock()

    /// Counts free slots: an element must be acquired before use.
    private let slots: DispatchSemaphore

    /// Counts elements in use, so that a barrier can wait for them.
    private let inUse = DispatchGroup()

    /// Gets run concurrently on this queue; barriers run alone.
    private let barrierQueue: DispatchQueue

    /// Creates a pool.
    ///
    /// - Parameters:
    ///   - maximumCount: The maximum number of elements.
    ///   - qos: The quality of service of the pool's internal queue.
    ///   - makeElement: Creates an element when none is available.
    init(maximumCount: Int, qos: DispatchQoS = .default, makeElement: @escaping @Sendable () throws -> T) {
        precondition(maximumCount > 0, "Pool size must be at least 1")
        self.makeElement = makeElement
        self.slots = DispatchSemaphore(value: maximumCount)
        self.barrierQueue = DispatchQueue(label: "Cairn.Pool.barrier", qos: qos, attributes: [.concurrent])
    }

    /// Returns an available element, creating one if needed, and the function
    /// that gives it back to the pool. Waits while all elements are in use.
    ///
    /// - Throws: The error of `makeElement`.
    func get() throws -> (element: T, release: @Sendable () -> Void) {
        try barrierQueue.sync {
            slots.wait()
            inUse.enter()
            do {
                let element = try lock.withLock { () throws -> T in
                    if let index = items.firstIndex(where: \.isAvailable) {
                        items[index].isAvailable = false
                        return items[index].element
                    }
                    let element = try makeElement()
                    items.append(Item(element: element, isAvailable: false))
                    return element
                }
                return (element, { [self] in release(element) })
            } catch {
                inUse.leave()
                slots.signal()
                throw error
            }
        }
    }

    /// Like ``get()``, without blocking a thread of Swift concurrency while
    /// all elements are in use.
    func get() async throws -> (element: T, release: @Sendable () -> Void) {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result { try self.get() })
            }
        }
    }

    private func release(_ element: T) {
        lock.withLock {
            // The element may have been removed by removeAll().
            if let index = items.firstIndex(where: { isSame($0.element, element) }) {
                items[index].isAvailable = true
            }
        }
        inUse.leave()
        slots.signal()
    }

    private func isSame(_ lhs: T, _ rhs: T) -> Bool {
        lhs === rhs
    }

    /// Calls `body` with each element of the pool, in use or not.
    func forEach(_ body: (T) throws -> Void) rethrows {
        let elements = lock.withLock { items.map(\.element) }
        for element in elements {
            try body(element)
        }
    }

    /// Whether an element satisfies `predicate`.
    func contains(where predicate: (T) -> Bool) -> Bool {
        let elements = lock.withLock { items.map(\.element) }
        return elements.contains(where: predicate)
    }

    /// Forgets the available elements: they are released, and new ones are
    /// created when needed. Elements in use are forgotten when they return.
    func removeAvailable() {
        lock.withLock {
            items.removeAll(where: \.isAvailable)
        }
    }

    /// Forgets all elements.
    func removeAll() {
        lock.withLock {
            items.removeAll()
        }
    }

    /// Runs `body` once no element is in use; no element is handed out
    /// while it runs.
    func barrier<U>(_ body: () throws -> U) rethrows -> U {
        try barrierQueue.sync(flags: [.barrier]) {
            inUse.wait()
            return try body()
        }
    }
}
