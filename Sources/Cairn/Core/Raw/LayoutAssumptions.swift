import Foundation

// The code of Cairn that relies on what the Swift language does not
// promise: the layout of some values, and the thread pointer of the
// platform. It all lives in this file. Each assumption is checked once per
// process, in release builds too, by a probe; when a probe fails, Cairn
// takes the safe path that the assumption speeds up.
//
// 1. Thread pointer (``ThreadIdentity``). On x86-64 and arm64 Linux, the
//    thread pointer register tells the current thread from every other
//    running thread: one instruction instead of a call to `pthread_self()`.
//    Probe: two reads on one thread agree, another thread reads another
//    value. Fallback: `pthread_self()`.
//
// 2. Optional existentials (``LiteralValueLayout``). A value of type
//    `(any DatabaseValueConvertible)?` is the existential container of
//    `any DatabaseValueConvertible` (a three-word inline buffer, the type
//    metadata pointer, the witness table pointer), and `nil` is a null
//    metadata pointer (the optional uses the extra inhabitants of that
//    pointer, and has no tag byte); an `Int` value sits at the start of the
//    inline buffer. Reading the metadata word and the `Int` in place spares
//    the runtime's generic copies of the optional for each argument of a
//    statement. Probe: nil, an `Int`, a `String` and a `Double` in an
//    array of optional existentials read as expected. Fallback: the
//    arguments of array and dictionary literals are converted when the
//    literal is created, with ordinary Swift.
//
// 3. String bits (``StringBits``). Two `String` values with the same bits
//    are equal: the bits of a string are its UTF-8 code units (small
//    strings) or a reference to immutable storage, with its count and
//    flags. Named arguments compare the bits of the names of a literal
//    with those of the parameters of a statement before they compare
//    strings. Equal strings may have other bits: the comparison then falls
//    back to `==`. Probe: a string and its copy have the same bits, two
//    different strings do not. Fallback: `==` only.
//
// 4. Coding key bits (``CodingKeyBits``). The bits of a value of a trivial
//    type (`_isPOD`) of at most 8 bytes identify the value: the synthesized
//    `CodingKeys` enums of records are compared by their bits in the column
//    plans of Decodable records. Equal keys may differ in padding bits: the
//    plan then looks the column up by name. Probe: the cases of a
//    synthesized key enum have distinct, stable bits. Fallback: no plan.
//
// The other unsafe code of Cairn does not depend on layouts: it is listed,
// with its invariants, where it lives (`ScopeCell.swift` for values that may
// outlive their scope, the `*Bridge.swift` files for C callbacks).

// MARK: - 1. Thread pointer

/// Identifiers of the current thread: the thread pointer where the probe
/// accepts it, and `pthread_self()` (see ``Row/StatementAccess``).
@usableFromInline
enum ThreadIdentity {
    /// Whether ``_cairn_thread_pointer()`` tells threads apart on this
    /// platform (probe 1).
    @usableFromInline
    static let usesThreadPointer: Bool = probeThreadPointer()

    /// The identifier of the current thread, from `pthread_self()`.
    @usableFromInline
    static func pthreadID() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    /// Probe 1: the thread pointer is stable on a thread, and differs on
    /// another thread.
    private static func probeThreadPointer() -> Bool {
        let first = UInt(_cairn_thread_pointer())
        guard first != 0, first == UInt(_cairn_thread_pointer()) else { return false }
        final class Result: @unchecked Sendable {
            var pointers: (UInt, UInt) = (0, 0)
        }
        let result = Result()
        let done = DispatchSemaphore(value: 0)
        let probe = Thread {
            result.pointers = (UInt(_cairn_thread_pointer()), UInt(_cairn_thread_pointer()))
            done.signal()
        }
        probe.start()
        done.wait()
        let (other, otherAgain) = result.pointers
        return other != 0 && other == otherAgain && other != first
    }
}
