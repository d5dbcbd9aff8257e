import Foundation

/// A set of tokens keyed by their UTF-8 bytes, for the byte-level path of
/// the ready-made wrapper tokenizers: a token is looked up without making
/// a `String` of it.
///
/// Most tokens of a text are not keys: a lookup first rejects the lengths
/// and first bytes that no key has (a few instructions), then probes an
/// open-addressing table whose keys of up to 16 bytes are compared as two
/// words. Each key has an index, in the order of insertion, and a value.
struct UTF8TokenTable<Value> {
    /// A key: up to 16 bytes inline (zero-padded), longer keys in
    /// `longKeys`.
    private struct Key {
        var low: UInt64
        var high: UInt64
        var count: Int
        /// The index in `longKeys` of a key longer than 16 bytes.
        var longKey: Int?
    }

    private var keys: [Key] = []
    private var longKeys: [[UInt8]] = []
    private(set) var values: [Value] = []
    /// Key index + 1 in each slot; 0 for an empty slot.
    private var slots: [Int32] = Array(repeating: 0, count: 8)
    /// Bit n is set when a key has n bytes (n < 64); bit 63 stands for all
    /// longer keys.
    private var lengths: UInt64 = 0
    /// Bit b is set when a key starts with byte b.
    private var firstBytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// The number of keys.
    var count: Int { values.count }

    /// Inserts a key, or replaces the value of a key already there.
    mutating func insert(_ key: some Collection<UInt8>, value: Value) {
        let bytes = Array(key)
        if let index = bytes.withUnsafeBytes({ self.index(of: $0) }) {
            values[index] = value
            return
        }
        if (values.count + 1) * 2 > slots.count {
            slots = Array(repeating: 0, count: slots.count * 2)
            for index in keys.indices {
                place(index)
            }
        }
        let (low, high) = bytes.withUnsafeBytes { Self.words(of: $0) }
        var key = Key(low: low, high: high, count: bytes.count, longKey: nil)
        if bytes.count > 16 {
            key.longKey = longKeys.count
            longKeys.append(bytes)
        }
        keys.append(key)
        values.append(value)
        place(keys.count - 1)
        lengths |= 1 << UInt64(min(bytes.count, 63))
        if let first = bytes.first {
            Self.setBit(Int(first), in: &firstBytes)
        }
    }

    /// The index of a key, or nil.
    @inline(__always)
    func index(of token: UnsafeRawBufferPointer) -> Int? {
        let count = token.count
        guard lengths & (1 << UInt64(min(count, 63))) != 0 else { return nil }
        if count > 0 {
            guard Self.hasBit(Int(token[0]), in: firstBytes) else { return nil }
        }
        let (low, high) = Self.words(of: token)
        let mask = slots.count - 1
        var slot = Self.hash(low, high, count) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return nil }
            let key = keys[entry - 1]
            if key.count == count && key.low == low && key.high == high {
                if let longKey = key.longKey {
                    if longKeys[longKey].withUnsafeBytes({ memcmp($0.baseAddress!, token.baseAddress!, count) == 0 }) {
                        return entry - 1
                    }
                } else {
                    return entry - 1
                }
            }
            slot = (slot + 1) & mask
        }
    }

    /// The value of a key, or nil.
    @inline(__always)
    func value(of token: UnsafeRawBufferPointer) -> Value? {
        index(of: token).map { values[$0] }
    }

    /// Calls `body` with the bytes of the key at `index`.
    func withKey<T>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let key = keys[index]
        if let longKey = key.longKey {
            return try longKeys[longKey].withUnsafeBytes(body)
        }
        // The words hold the bytes in little-endian order.
        return try withUnsafeBytes(of: (key.low.littleEndian, key.high.littleEndian)) { bytes in
            try body(UnsafeRawBufferPointer(rebasing: bytes[..<key.count]))
        }
    }

    private mutating func place(_ index: Int) {
        let key = keys[index]
        let mask = slots.count - 1
        var slot = Self.hash(key.low, key.high, key.count) & mask
        while slots[slot] != 0 {
            slot = (slot + 1) & mask
        }
        slots[slot] = Int32(index + 1)
    }

    /// The first 16 bytes, zero-padded, as two little-endian words.
    @inline(__always)
    private static func words(of bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        let count = min(bytes.count, 16)
        var index = 0
        while index < min(count, 8) {
            low |= UInt64(bytes[index]) << UInt64(index * 8)
            index += 1
        }
        while index < count {
            high |= UInt64(bytes[index]) << UInt64((index - 8) * 8)
            index += 1
        }
        return (low, high)
    }

    @inline(__always)
    private static func hash(_ low: UInt64, _ high: UInt64, _ count: Int) -> Int {
        var hash = (low ^ (high &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(truncatingIfNeeded: count)) &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 31
        return Int(truncatingIfNeeded: hash)
    }

    @inline(__always)
    private static func hasBit(_ bit: Int, in bits: (UInt64, UInt64, UInt64, UInt64)) -> Bool {
        let word: UInt64
        switch bit >> 6 {
        case 0: word = bits.0
        case 1: word = bits.1
        case 2: word = bits.2
        default: word = bits.3
        }
        return word & (1 << UInt64(bit & 63)) != 0
    }

    private static func setBit(_ bit: Int, in bits: inout (UInt64, UInt64, UInt64, UInt64)) {
        let mask: UInt64 = 1 << UInt64(bit & 63)
        switch bit >> 6 {
        case 0: bits.0 |= mask
        case 1: bits.1 |= mask
        case 2: bits.2 |= mask
        default: bits.3 |= mask
        }
    }
}

extension UTF8TokenTable: Sendable where Value: Sendable { }

/// Whether the bytes are all ASCII.
@inline(__always)
func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var bits: UInt8 = 0
    for byte in bytes { bits |= byte }
    return bits & 0x80 == 0
}
