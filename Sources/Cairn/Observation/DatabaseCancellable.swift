import Foundation

/// A running observation, which stops when cancelled.
public protocol DatabaseCancellable: Sendable {
    /// Stops the observation: no value or error is delivered after the
    /// cancellation, when it is called from the queue that receives them.
    func cancel()
}

/// A type-erased cancellable that cancels itself when it is deallocated:
/// keep it for as long as the observation must run.
///
/// ```swift
/// let cancellable = observation.start(in: dbQueue, onError: { _ in }, onChange: { print($0) })
/// // Later:
/// cancellable.cancel()
/// ```
public final class AnyDatabaseCancellable: DatabaseCancellable {
    private let onCancel: Locked<(@Sendable () -> Void)?>

    /// Wraps a function that cancels.
    public init(cancel: @escaping @Sendable () -> Void) {
        onCancel = Locked(cancel)
    }

    /// Wraps another cancellable.
    public convenience init(_ cancellable: some DatabaseCancellable) {
        self.init(cancel: cancellable.cancel)
    }

    deinit {
        cancel()
    }

    /// Cancels; later calls do nothing.
    public func cancel() {
        let onCancel = self.onCancel.withLock { onCancel in
            defer { onCancel = nil }
            return onCancel
        }
        onCancel?()
    }
}
