import Foundation

/// A value protected by a lock, for the few pieces of state that several
/// threads share (the error log callback, cancellation flags).
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// The current value.
    func load() -> Value {
        withLock { $0 }
    }
}
