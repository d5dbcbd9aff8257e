import Dispatch
import Foundation

/// Threads of their own, for the parts of tests that block.
///
/// On Linux, `DispatchQueue.global()`, `DispatchQueue.concurrentPerform`
/// and the cooperative pool of Swift concurrency (where Swift Testing runs
/// every test) take their threads from one libdispatch root queue, with
/// one thread per core. libdispatch adds threads only slowly when they all
/// block, and not at all when the process may use a single core. A test
/// that blocks such a thread (a semaphore wait, an access that waits for
/// another one) therefore starves the tests that run beside it, and its own
/// tasks. On a loaded two-core machine, three watchdogs waiting on
/// `DispatchQueue.global()` stopped the whole suite for 60 seconds; with
/// one core, a `concurrentPerform` whose first iteration waits for the
/// second never ends.
///
/// So a test that blocks does it on a thread of its own, from here. The
/// cost, one thread per use, is nothing for tests.
enum TestThreads {
    /// Runs `body` on a new thread, and returns at once.
    static func detach(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread { body() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Runs `body` on a new thread, as a member of `group`: `group.wait()`
    /// returns once `body` has returned.
    static func detach(group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        detach {
            body()
            group.leave()
        }
    }

    /// Runs `body(0)`, ..., `body(count - 1)` at the same time, each on a
    /// new thread, and returns when they have all returned. Unlike
    /// `DispatchQueue.concurrentPerform`, every iteration runs at once, so
    /// iterations may wait for each other.
    static func concurrentPerform(iterations count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            detach {
                body(index)
                group.leave()
            }
        }
        group.wait()
    }

    /// Runs `body` on a new thread, and returns a function that waits for
    /// its end, without blocking a thread of Swift concurrency, and returns
    /// or throws what `body` did.
    static func start(
        _ body: @escaping @Sendable () throws -> Void) -> @Sendable () async throws -> Void
    {
        let result = Locked<Result<Void, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        detach {
            let outcome = Result { try body() }
            result.withLock { $0 = outcome }
            done.signal()
        }
        return {
            await wait(done)
            try result.withLock { $0 }!.get()
        }
    }

    /// Waits for `semaphore` on a thread of its own, without blocking a
    /// thread of Swift concurrency.
    static func wait(_ semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            detach {
                semaphore.wait()
                continuation.resume()
            }
        }
    }
}
