import Foundation

/// A slot of the current thread that names an object for the time of a
/// call: code deeper in the same call, which receives no argument that
/// leads to the object, finds it there (the encoder that an insert offers
/// to `encode(to:)`, the broker that notifies an observer, where the
/// errors of a tokenization go).
///
/// The slot holds a strong reference while ``with(_:_:)`` runs, and puts
/// the previous object back before it returns: an object read from the
/// slot is alive, and a slot never names an object of another thread.
/// This is the one place where such a slot converts an object to a
/// pointer (`pthread_setspecific` takes a raw pointer).
struct ThreadSlot<Object: AnyObject>: Sendable {
    private let key: pthread_key_t

    /// Creates a slot. Slots are created once, as static constants.
    init() {
        var key = pthread_key_t()
        // No destructor: `with(_:_:)` empties the slot before it returns.
        let code = pthread_key_create(&key, nil)
        stopUnless(code == 0, "pthread_key_create failed")
        self.key = key
    }

    /// The object of the innermost ``with(_:_:)`` running on the current
    /// thread, if any.
    var current: Object? {
        pthread_getspecific(key).map { Unmanaged<Object>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Calls `body` with the object of the innermost ``with(_:_:)`` running
    /// on the current thread, if any, without retaining it: the slot holds
    /// a strong reference for as long as `body` runs (the slot only changes
    /// in `with(_:_:)`, on this thread).
    @inline(__always)
    func withCurrent<R>(_ body: (Object?) throws -> R) rethrows -> R {
        guard let pointer = pthread_getspecific(key) else { return try body(nil) }
        return try Unmanaged<Object>.fromOpaque(pointer)._withUnsafeGuaranteedRef { try body($0) }
    }

    /// Runs `body` with `object` in the slot.
    func with<T>(_ object: Object, _ body: () throws -> T) rethrows -> T {
        let previous = pthread_getspecific(key)
        let retained = Unmanaged.passRetained(object)
        pthread_setspecific(key, retained.toOpaque())
        defer {
            pthread_setspecific(key, previous)
            retained.release()
        }
        return try body()
    }
}
