/// Holds a value for a hop to another thread, and forgets it as soon as it
/// is taken.
///
/// Async accesses hop closures that only live for the duration of the call
/// (see `withoutActuallyEscaping`): the receiving thread takes the closure,
/// so that the box no longer retains it when the call returns.
final class UncheckedSendableBox<Value>: @unchecked Sendable {
    private var value: Value?

    init(_ value: Value) {
        self.value = value
    }

    /// Returns the value and forgets it; nil if it was already taken.
    func take() -> Value? {
        defer { value = nil }
        return value
    }
}
