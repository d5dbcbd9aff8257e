internal import CairnSQLiteShims

/// The slots of Cairn's thread-local storage, and what each one names.
///
/// This is the one list of Cairn's thread-local state. All slots live in one
/// C thread-local variable (`_cairn_thread_storage` in `CairnShims.h`), read
/// and written through ``ThreadSlot`` only. A slot names an object for the
/// time of a call, for code deeper in the same call that receives no
/// argument leading to it. Each index is used with one object type, by the
/// one declaration named below.
///
/// The other per-context state of Cairn is the main queue's dispatch
/// specific value (`isOnMainQueue()`), which tells the main queue when a
/// thread other than the main thread drains it.
enum ThreadSlotIndex: UInt32, CaseIterable {
    /// The innermost database access of the thread (`DatabaseAccess.slot`),
    /// which statements, cursors and rows check before they touch their
    /// connection.
    case access
    /// The row whose record is being decoded (`Row.decodingSlot`): the keyed
    /// containers of the record decoder find it here.
    case decodingRow
    /// The record encoder that encodes (`RecordEncoder.slot`): the keyed
    /// containers of the record encoder find it here.
    case encodingEncoder
    /// The encoder that an insert offers to the `Encodable` implementation
    /// of `encode(to:)` for reuse (`RecordEncoder.reusableSlot`).
    case reusableEncoder
    /// The transaction-observation broker that notifies an observer
    /// (`DatabaseObservationBroker.currentSlot`), for
    /// `stopObservingDatabaseChangesUntilNextTransaction()`.
    case notifyingBroker
    /// Where the errors of the running FTS5 tokenization go
    /// (`TokenizerErrorRoute.slot`).
    case tokenizerErrors
    /// The innermost default `tokenize` forwarding of an FTS5 tokenizer
    /// (`FTS5TokenizerForwarding.slot`), which detects a tokenizer that
    /// implements neither variant.
    case tokenizerForwarding
}

/// A slot of Cairn's thread-local storage (see ``ThreadSlotIndex``): it
/// names an object for the time of a call.
///
/// The slot does not retain the object. The caller of ``with(_:_:)`` (or of
/// ``enter(_:)``, which pairs with ``leave(_:restoring:)``) keeps it alive
/// until it takes it out of the slot, and puts the previous object back
/// before it returns: an object read from the slot is alive, and a slot
/// never names an object of another thread. A retain and a release per use
/// would cost two atomic operations: 40 instructions per record of
/// FetchBenchmark "4 Decodable fetchAll", for instance.
///
/// This is one of the places where an object becomes a pointer (the C
/// variable holds raw pointers); ``Unmanaged`` is used here and in the C
/// bridges only.
struct ThreadSlot<Object: AnyObject>: Sendable {
    let index: ThreadSlotIndex

    /// The slot of `index`. Each index is used with one object type.
    @inline(__always)
    init(_ index: ThreadSlotIndex) {
        self.index = index
    }

    /// The address of the slot on the current thread: a constant offset
    /// from the thread pointer on Linux, computed at each use since each
    /// thread has its own.
    @inline(__always)
    private var address: UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        // Debug builds check the bound of the C array (the tests use every
        // slot); release builds read a constant offset.
        assert(ThreadSlotIndex.allCases.count <= Int(CAIRN_THREAD_SLOT_COUNT), "CAIRN_THREAD_SLOT_COUNT is too small")
        return _cairn_thread_slot(index.rawValue)
    }

    /// Calls `body` with the object of the innermost ``with(_:_:)`` running
    /// on the current thread, without retaining it (its caller keeps it
    /// alive for as long as `body` runs), or `none` when there is no such
    /// call.
    ///
    /// Two closures rather than an optional object: unwrapping an optional
    /// reference costs a retain and a release.
    @inline(__always)
    func withCurrent<R>(none: () throws -> R, _ body: (Object) throws -> R) rethrows -> R {
        guard let pointer = address.pointee else { return try none() }
        return try Unmanaged<Object>.fromOpaque(pointer)._withUnsafeGuaranteedRef { try body($0) }
    }

    /// Calls `body` with the object of the innermost ``with(_:_:)`` running
    /// on the current thread, if any, without retaining it.
    @inline(__always)
    func withCurrent<R>(_ body: (Object?) throws -> R) rethrows -> R {
        try withCurrent(none: { try body(nil) }, { try body($0) })
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
    /// same object: the caller's reference keeps the object alive until
    /// then.
    @inline(__always)
    func enter(_ object: Object) -> UnsafeMutableRawPointer? {
        let address = self.address
        let previous = address.pointee
        address.pointee = Unmanaged.passUnretained(object).toOpaque()
        return previous
    }

    /// Takes `object` out of the slot, which it must hold (see
    /// ``enter(_:)``), and puts `previous` back.
    @inline(__always)
    func leave(_ object: Object, restoring previous: UnsafeMutableRawPointer?) {
        let address = self.address
        stopUnless(address.pointee == Unmanaged.passUnretained(object).toOpaque(), "a thread slot is left out of order")
        address.pointee = previous
        withExtendedLifetime(object) { }
    }
}

/// A source of serial numbers for the objects that coders find in a
/// ``ThreadSlot``: a keyed container compares the serial number of the object
/// in the slot with its own, so that an object made at the address of a
/// freed one is not mistaken for it.
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
