internal import CairnSQLiteShims

/// A thread-local slot of the coders, kept in C (`CairnShims.h`): it names
/// the object of a record's coding (the row being decoded, the encoder that
/// encodes) for the time of the call that codes the record.
///
/// The keyed containers of the coders hold no reference: the standard
/// library copies a container through its value witnesses at each decoded
/// or encoded property, and a reference would cost two atomic operations per
/// copy (1,160 instructions per row of FetchBenchmark "4 Decodable
/// fetchCursor"). A container holds the serial number of its row or
/// encoder instead, and finds the object here, while its coding runs. Used
/// after its coding, a container finds another object or none, and throws.
///
/// The slot names an object while ``with(_:_:)`` runs (or between
/// ``enter(_:)`` and ``leave(_:restoring:)``), and puts the previous object
/// back before it returns. The caller's reference keeps the object alive
/// meanwhile: an object read from the slot is alive, and a slot never names
/// an object of another thread. Like
/// `ThreadSlot`, this is one of the places where an object becomes a
/// pointer (a C thread-local variable holds a raw pointer).
struct CodingSlot<Object: AnyObject> {
    /// The address of the C variable, on the current thread.
    private let address: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    /// Creates the slot of a C variable (see `CairnShims.h`); each variable
    /// has one object type.
    init(address: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        self.address = address
    }

    /// Calls `body` with the object of the innermost ``with(_:_:)`` running
    /// on the current thread, without retaining it (the caller of
    /// ``with(_:_:)`` keeps it alive for as long as `body` runs), or `none`
    /// when there is no such call.
    ///
    /// Two closures rather than an optional object: unwrapping an optional
    /// reference costs a retain and a release.
    @inline(__always)
    func withCurrent<R>(none: () throws -> R, _ body: (Object) throws -> R) rethrows -> R {
        guard let pointer = address.pointee else { return try none() }
        return try Unmanaged<Object>.fromOpaque(pointer)._withUnsafeGuaranteedRef { try body($0) }
    }

    /// The object of the innermost ``with(_:_:)`` running on the current
    /// thread, retained, if any.
    var current: Object? {
        withCurrent(none: { nil }, { $0 })
    }

    /// Whether `object` is the object of the innermost ``with(_:_:)``
    /// running on the current thread.
    @inline(__always)
    func holds(_ object: Object) -> Bool {
        address.pointee == UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque())
    }

    /// Runs `body` with `object` in the slot.
    @inline(__always)
    func with<T>(_ object: Object, _ body: () throws -> T) rethrows -> T {
        let previous = enter(object)
        defer { leave(object, restoring: previous) }
        return try body()
    }

    /// Puts `object` in the slot, and returns what the slot held, for
    /// ``leave(_:restoring:)``, which the caller calls with `defer`, on the
    /// same object.
    ///
    /// The slot does not retain the object: the caller's reference keeps it
    /// alive until the `defer` that takes it out of the slot, which uses it.
    /// (A retain and a release cost 40 instructions per record of
    /// FetchBenchmark "4 Decodable fetchAll".)
    @inline(__always)
    func enter(_ object: Object) -> UnsafeMutableRawPointer? {
        let previous = address.pointee
        address.pointee = Unmanaged.passUnretained(object).toOpaque()
        return previous
    }

    /// Takes `object` out of the slot, which it must hold (see
    /// ``enter(_:)``), and puts `previous` back.
    @inline(__always)
    func leave(_ object: Object, restoring previous: UnsafeMutableRawPointer?) {
        stopUnless(address.pointee == Unmanaged.passUnretained(object).toOpaque(), "a coding slot is left out of order")
        address.pointee = previous
        withExtendedLifetime(object) { }
    }
}

/// The type of the objects of the encoding slot: the record encoder of the
/// Records layer, which Core does not name. One type only adopts it: the
/// slot holds objects of one type.
protocol EncodingSlotObject: AnyObject { }

extension CodingSlot where Object: EncodingSlotObject {
    /// The slot of the record encoder that encodes on the current thread.
    @inline(__always)
    static var encodingEncoder: CodingSlot<Object> {
        CodingSlot(address: _cairn_encoding_encoder_slot())
    }
}

/// A source of serial numbers for the objects of ``CodingSlot``: a container
/// compares the serial number of the object in the slot with its own, so
/// that an object made at the address of a freed one is not mistaken for it.
enum CodingSerial {
    private static let last = Locked<UInt64>(0)

    /// A new serial number, never zero, never given before (2^64 of them do
    /// not wrap around).
    static func next() -> UInt64 {
        last.withLock { value in
            value &+= 1
            return value
        }
    }
}
