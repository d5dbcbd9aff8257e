import Foundation

// The code of Cairn that relies on what the Swift language does not
// promise: the layout of some values. It all lives in this file. Each
// assumption is checked once per process, in release builds too, by a
// probe; when a probe fails, Cairn takes the safe path that the assumption
// speeds up.
//
// 1. Optional existentials (``LiteralValueLayout``). A value of type
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
// 2. String bits (``StringBits``). Two `String` values with the same bits
//    are equal: the bits of a string are its UTF-8 code units (small
//    strings) or a reference to immutable storage, with its count and
//    flags. Named arguments compare the bits of the names of a literal
//    with those of the parameters of a statement before they compare
//    strings. Equal strings may have other bits: the comparison then falls
//    back to `==`. Probe: a string and its copy have the same bits, two
//    different strings do not. Fallback: `==` only.
//
// 3. Coding key bits (``CodingKeyBits``). The bits of a value of a trivial
//    type (`_isPOD`) of at most 8 bytes identify the value: the synthesized
//    `CodingKeys` enums of records are compared by their bits in the column
//    plans of Decodable records. Equal keys may differ in padding bits: the
//    plan then looks the column up by name. Probe: the cases of a
//    synthesized key enum have distinct, stable bits. Fallback: no plan.
//
// 4. Marker existentials (``sendableUserInfo(_:)``). `any Sendable` and
//    `Any` are one type at run time: `Sendable` is a marker protocol, with
//    no witness table and no runtime representation (SE-0302), so a
//    dictionary of `Any` values is a dictionary of `any Sendable` values
//    bit for bit. Records give their coding `userInfo` as
//    `[CodingUserInfoKey: Any]` (the API of the guides), and Foundation's
//    JSON coders take `[CodingUserInfoKey: any Sendable]`. Probe: the
//    existentials have one size, and a dictionary read through the other
//    type gives back its values. Fallback: none is needed (the language
//    defines the representation, and `unsafeBitCast` stops the program if
//    the sizes ever differed); the probe is checked by Cairn's tests.
//
// 5. Type-erased storage (``ErasedValueStorage``). Not an assumption: a
//    value kept in raw memory allocated and initialized for its own type,
//    and read back as that type, which the caller checked beforehand. The
//    cached keyed containers of records keep their container this way, so
//    that finding them costs no generic metadata lookup. Here because it is
//    raw memory between Swift values, which lives in this file only.
//
// The other unsafe code of Cairn does not depend on layouts: it is listed,
// with its invariants, where it lives (`ScopeCell.swift` for events that may
// outlive their callback, the `*Bridge.swift` files for C callbacks and
// thread-local slots).

// MARK: - 1. Optional existentials

/// The probe of assumption 1. The functions below read the elements of
/// array and dictionary literals of statement arguments in place; they are
/// only called on the literals that `StatementArguments` kept unconverted,
/// which it only does when the probe succeeded.
@usableFromInline
enum LiteralValueLayout {
    /// Whether optional existentials have the expected layout.
    @usableFromInline
    static let holds: Bool = probe()

    private static func probe() -> Bool {
        typealias Element = (any DatabaseValueConvertible)?
        guard MemoryLayout<Element>.size == MemoryLayout<any DatabaseValueConvertible>.size,
              MemoryLayout<any DatabaseValueConvertible>.size == 5 * MemoryLayout<UnsafeRawPointer>.stride
        else { return false }
        let elements: [Element] = [nil, 42, "probe", 1.5, Int64(7)]
        return elements.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress,
                  literalTypeWord(at: base) == 0,
                  literalTypeWord(at: base + 1) == typeWord(Int.self),
                  literalTypeWord(at: base + 2) == typeWord(String.self),
                  literalTypeWord(at: base + 3) == typeWord(Double.self),
                  literalTypeWord(at: base + 4) == typeWord(Int64.self),
                  UnsafeRawPointer(base + 1).load(as: Int.self) == 42
            else { return false }
            let values = (0..<buffer.count).map { databaseValue(at: base + $0) }
            return values == [.null, 42.databaseValue, "probe".databaseValue, 1.5.databaseValue, 7.databaseValue]
        }
    }
}

/// The type metadata word of an optional existential: zero for nil, and
/// the type of the value otherwise (assumption 1).
///
/// - Precondition: ``LiteralValueLayout/holds``. Reading the word spares
///   the runtime's generic copies of the optional (about a hundred
///   instructions per value).
@inlinable @inline(__always)
func literalTypeWord(at pointer: UnsafePointer<(any DatabaseValueConvertible)?>) -> UInt {
    UnsafeRawPointer(pointer).load(fromByteOffset: 3 * MemoryLayout<UnsafeRawPointer>.stride, as: UInt.self)
}

/// The type word of `type` (see ``literalTypeWord(at:)``).
@inlinable @inline(__always)
func typeWord(_ type: Any.Type) -> UInt {
    // A metatype of a concrete type is its metadata pointer (checked by the
    // probe of assumption 1, LayoutProbeTests).
    UInt(bitPattern: unsafeBitCast(type, to: UnsafeRawPointer.self))
}

/// Whether the value of a literal element may be converted later, on
/// another thread: nil, and values of immutable standard types whose
/// conversion reads nothing but the value.
@inlinable @inline(__always)
func isDeferrableLiteralValue(at pointer: UnsafePointer<(any DatabaseValueConvertible)?>) -> Bool {
    let word = literalTypeWord(at: pointer)
    // Int first: the most frequent.
    if _fastPath(word == typeWord(Int.self)) { return true }
    return word == 0
        || word == typeWord(String.self)
        || word == typeWord(Double.self)
        || word == typeWord(Int64.self)
        || word == typeWord(Bool.self)
        || word == typeWord(DatabaseValue.self)
}

/// Returns the database value of an optional value, read in place.
///
/// `pointer.pointee?.databaseValue` would copy the optional, then the
/// existential, through the runtime's generic value witnesses. Instead, the
/// nil test reads the type word (see ``literalTypeWord(at:)``), an `Int`
/// is read directly, and the payload of other values is read at the address
/// of the optional, with the layout of the existential.
@inlinable @inline(__always)
func databaseValue(at pointer: UnsafePointer<(any DatabaseValueConvertible)?>) -> DatabaseValue {
    let word = literalTypeWord(at: pointer)
    if word == 0 { return .null }
    if word == typeWord(Int.self) {
        // An Int sits at the start of the inline buffer of the existential.
        return DatabaseValue(storage: .int64(Int64(UnsafeRawPointer(pointer).load(as: Int.self))))
    }
    // A non-nil optional existential is the existential itself (no tag:
    // assumption 1). Only literals kept when the probe succeeded reach this
    // point; StatementArgumentsTests and LayoutProbeTests run it under
    // AddressSanitizer in CI.
    return pointer.withMemoryRebound(to: (any DatabaseValueConvertible).self, capacity: 1) {
        $0.pointee.databaseValue
    }
}

/// Binds the value of a literal element to a statement parameter.
///
/// - Returns: The result code of `sqlite3_bind_*`.
@inline(__always)
func bindLiteralValue(
    at pointer: UnsafePointer<(any DatabaseValueConvertible)?>,
    to sqliteStatement: SQLiteStatement,
    at index: CInt) -> CInt
{
    let word = literalTypeWord(at: pointer)
    if word == 0 {
        return sqlite3_bind_null(sqliteStatement, index)
    }
    if word == typeWord(Int.self) {
        return sqlite3_bind_int64(sqliteStatement, index, Int64(UnsafeRawPointer(pointer).load(as: Int.self)))
    }
    return databaseValue(at: pointer).bind(to: sqliteStatement, at: index)
}

/// Whether binding the value of a literal element may leave SQLite with a
/// copy of it: any value but NULL and `Int` (a text or a blob is copied).
@inline(__always)
func literalBindsCopiedValue(at pointer: UnsafePointer<(any DatabaseValueConvertible)?>) -> Bool {
    let word = literalTypeWord(at: pointer)
    return word != 0 && word != typeWord(Int.self)
}

/// The name of a dictionary literal element, read in place: the element
/// is a tuple, whose memory is bound to its element types at the offsets
/// that `MemoryLayout.offset(of:)` gives. That offset is nil only for a
/// key path through a computed property: a tuple element is stored, so the
/// three readers below unwrap it without a check. The literal, kept by the
/// `StatementArguments` that reads it, outlives the pointer.
@inlinable @inline(__always)
func literalName(at element: UnsafePointer<NamedValues.LiteralElement>) -> String {
    let offset = MemoryLayout<NamedValues.LiteralElement>.offset(of: \.0).unsafelyUnwrapped
    return UnsafeRawPointer(element).advanced(by: offset).assumingMemoryBound(to: String.self).pointee
}

/// Whether a dictionary literal element has a name, compared in place.
@inline(__always)
func literalElement(at element: UnsafePointer<NamedValues.LiteralElement>, hasName name: String) -> Bool {
    let offset = MemoryLayout<NamedValues.LiteralElement>.offset(of: \.0).unsafelyUnwrapped
    return UnsafeRawPointer(element).advanced(by: offset).assumingMemoryBound(to: String.self).pointee == name
}

/// The address of the value of a dictionary literal element, without
/// copying the element.
@inlinable @inline(__always)
func literalValue(at element: UnsafePointer<NamedValues.LiteralElement>) -> UnsafePointer<(any DatabaseValueConvertible)?> {
    let offset = MemoryLayout<NamedValues.LiteralElement>.offset(of: \.1).unsafelyUnwrapped
    return UnsafeRawPointer(element).advanced(by: offset).assumingMemoryBound(to: (any DatabaseValueConvertible)?.self)
}

// MARK: - 2. String bits

/// The probe of assumption 2.
enum StringBits {
    /// Whether equal bits identify equal strings, as far as a probe can
    /// tell: a copy has the bits of its original, and different strings
    /// have different bits.
    static let identifyStrings: Bool = probe()

    private static func probe() -> Bool {
        func bits(_ string: String) -> [UInt8] { withUnsafeBytes(of: string) { Array($0) } }
        let short = "name"
        let long = String(repeating: "long parameter name ", count: 4)
        let shortCopy = short, longCopy = long
        return bits(short) == bits(shortCopy) && bits(long) == bits(longCopy)
            && bits(short) != bits("other") && bits(long) != bits(long + "!")
    }
}

/// Whether the name of a dictionary literal element is a string with the
/// same bits as `name`: then the strings are equal, and nothing is compared
/// but two words. Equal strings may have other bits (when they are stored
/// apart): this returns false for them.
@inline(__always)
func literalElement(at element: UnsafePointer<NamedValues.LiteralElement>, hasBitsOf name: UnsafePointer<String>) -> Bool {
    // A stored tuple element always has an offset.
    let offset = MemoryLayout<NamedValues.LiteralElement>.offset(of: \.0).unsafelyUnwrapped
    let lhs = UnsafeRawPointer(element).advanced(by: offset)
    let rhs = UnsafeRawPointer(name)
    if MemoryLayout<String>.size == 16 {
        // 64-bit platforms: two words, compared inline.
        return lhs.load(as: UInt64.self) == rhs.load(as: UInt64.self)
            && lhs.load(fromByteOffset: 8, as: UInt64.self) == rhs.load(fromByteOffset: 8, as: UInt64.self)
    }
    let size = MemoryLayout<String>.size
    return UnsafeRawBufferPointer(start: lhs, count: size).elementsEqual(UnsafeRawBufferPointer(start: rhs, count: size))
}

// MARK: - 3. Coding key bits

/// The bits of coding keys, for the column plans of Decodable records
/// (assumption 3).
enum CodingKeyBits {
    /// Whether keys of type `Key` can be compared by their bits: a trivial
    /// type of at most 8 bytes, when the probe succeeded.
    static func accepts<Key: CodingKey>(_ keyType: Key.Type) -> Bool {
        probeSucceeded && _isPOD(Key.self) && MemoryLayout<Key>.size <= MemoryLayout<UInt64>.size
    }

    /// The bits of a key of a type that ``accepts(_:)``.
    @inline(__always)
    static func bits<Key: CodingKey>(of key: Key) -> UInt64 {
        // A bit cast of a value of the same size reads the key in place:
        // only trivial types of these sizes get here (accepts(_:)), whose
        // bits are their value. CodableRecordTests, LayoutProbeTests.
        switch MemoryLayout<Key>.size {
        case 0: return 0
        case 1: return UInt64(unsafeBitCast(key, to: UInt8.self))
        case 2: return UInt64(unsafeBitCast(key, to: UInt16.self))
        case 4: return UInt64(unsafeBitCast(key, to: UInt32.self))
        case 8: return unsafeBitCast(key, to: UInt64.self)
        default:
            return withUnsafeBytes(of: key) { bytes in
                var bits: UInt64 = 0
                withUnsafeMutableBytes(of: &bits) { $0.copyMemory(from: bytes) }
                return bits
            }
        }
    }

    private enum ProbeKeys: String, CodingKey, CaseIterable {
        case id, name, score
    }

    private static let probeSucceeded: Bool = {
        let keys = ProbeKeys.allCases
        let bits = keys.map { Self.bits(of: $0) }
        return _isPOD(ProbeKeys.self) && Set(bits).count == keys.count
            && keys.map { Self.bits(of: $0) } == bits
    }()
}

// MARK: - 4. Marker existentials

/// The `userInfo` of a record type, for Foundation's JSON coders, whose
/// `userInfo` values are `Sendable` (assumption 4). The coders that record
/// types make are used by one encoding or decoding, on its thread.
func sendableUserInfo(_ userInfo: [CodingUserInfoKey: Any]) -> [CodingUserInfoKey: any Sendable] {
    unsafeBitCast(userInfo, to: [CodingUserInfoKey: any Sendable].self)
}

/// The probe of assumption 4.
enum MarkerExistentials {
    /// Whether `Any` and `any Sendable` share their representation.
    static let shareRepresentation: Bool = {
        guard MemoryLayout<Any>.size == MemoryLayout<any Sendable>.size,
              MemoryLayout<[CodingUserInfoKey: Any]>.size == MemoryLayout<[CodingUserInfoKey: any Sendable]>.size,
              let key = CodingUserInfoKey(rawValue: "probe"),
              let other = CodingUserInfoKey(rawValue: "other")
        else { return false }
        let object = NSObject()
        let values = sendableUserInfo([key: 42, other: object])
        return values[key] as? Int == 42 && (values[other] as? NSObject) === object
    }()
}

// MARK: - Probe results

/// The results of the probes of this file, for Cairn's own tests: they
/// check that the platform of CI takes the fast paths, so that the tests
/// exercise them. Not a public API.
@_spi(Diagnostics)
public enum LayoutProbes {
    /// Probe 1: optional existentials have the expected layout.
    public static var literalValues: Bool { LiteralValueLayout.holds }
    /// Probe 2: equal string bits mean equal strings.
    public static var stringBits: Bool { StringBits.identifyStrings }
    /// Probe 3: the bits of coding keys identify them.
    public static var codingKeyBits: Bool { CodingKeyBits.accepts(LayoutProbeKey.self) }
    /// Probe 4: `Any` and `any Sendable` share their representation.
    public static var markerExistentials: Bool { MarkerExistentials.shareRepresentation }
}

/// A coding key for ``LayoutProbes/codingKeyBits``.
private enum LayoutProbeKey: String, CodingKey {
    case probe
}

// MARK: - 5. Type-erased storage

/// One value of a type that the storage does not name, in raw memory
/// allocated and initialized for that type (see item 5 at the top of this
/// file). The owner reads it back as its type, which it checked beforehand,
/// and calls ``release()`` once.
struct ErasedValueStorage {
    private let pointer: UnsafeMutableRawPointer
    /// Deinitializes the value and frees the memory.
    private let deinitializeAndFree: (UnsafeMutableRawPointer) -> Void

    /// Stores a copy of `value`.
    init<Value>(_ value: Value) {
        let pointer = UnsafeMutableRawPointer.allocate(
            byteCount: MemoryLayout<Value>.size,
            alignment: MemoryLayout<Value>.alignment)
        pointer.initializeMemory(as: Value.self, to: value)
        self.pointer = pointer
        deinitializeAndFree = { pointer in
            pointer.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
            pointer.deallocate()
        }
    }

    /// The value. `Value` must be the type the storage was made with: it is
    /// not checked (which would cost a metadata lookup).
    @inline(__always)
    func value<Value>(as type: Value.Type) -> Value {
        pointer.assumingMemoryBound(to: Value.self).pointee
    }

    /// Deinitializes the value and frees its memory. Called once, by the
    /// owner, when it is deinitialized.
    func release() {
        deinitializeAndFree(pointer)
    }
}
