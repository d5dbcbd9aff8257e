import Foundation

/// A set of tokens keyed by their UTF-8 bytes, for the byte-level path of
/// the ready-made wrapper tokenizers: a token is looked up without making
/// a `String` of it.
///
/// Open addressing over one array of key bytes; each key has an index, in
/// the order of insertion, and a value.
struct UTF8TokenTable<Value> {
    /// The bytes of all keys, one after the other.
    private var keyBytes: [UInt8] = []
    /// Where each key starts in `keyBytes`, and its length.
    private var keyRanges: [(start: Int, count: Int)] = []
    private(set) var values: [Value] = []
    /// Key index + 1 in each slot; 0 for an empty slot.
    private var slots: [Int32] = Array(repeating: 0, count: 8)

    /// The number of keys.
    var count: Int { values.count }

    /// Inserts a key, or replaces the value of a key already there.
    mutating func insert(_ key: some Collection<UInt8>, value: Value) {
        let key = Array(key)
        if let index = key.withUnsafeBytes({ self.index(of: $0) }) {
            values[index] = value
            return
        }
        if (values.count + 1) * 2 > slots.count {
            grow()
        }
        keyRanges.append((keyBytes.count, key.count))
        keyBytes.append(contentsOf: key)
        values.append(value)
        place(values.count - 1)
    }

    /// The index of a key, or nil.
    @inline(__always)
    func index(of key: UnsafeRawBufferPointer) -> Int? {
        let mask = slots.count - 1
        var slot = Self.hash(key) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return nil }
            let range = keyRanges[entry - 1]
            if range.count == key.count && keyBytes.withUnsafeBytes({ bytes in
                key.count == 0 || memcmp(bytes.baseAddress! + range.start, key.baseAddress!, key.count) == 0
            }) {
                return entry - 1
            }
            slot = (slot + 1) & mask
        }
    }

    /// The value of a key, or nil.
    @inline(__always)
    func value(of key: UnsafeRawBufferPointer) -> Value? {
        index(of: key).map { values[$0] }
    }

    /// Calls `body` with the bytes of the key at `index`.
    func withKey<T>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let range = keyRanges[index]
        return try keyBytes.withUnsafeBytes { bytes in
            try body(UnsafeRawBufferPointer(rebasing: bytes[range.start..<(range.start + range.count)]))
        }
    }

    private mutating func grow() {
        slots = Array(repeating: 0, count: slots.count * 2)
        for index in values.indices {
            place(index)
        }
    }

    private mutating func place(_ index: Int) {
        let range = keyRanges[index]
        let mask = slots.count - 1
        var slot = keyBytes.withUnsafeBytes { bytes in
            Self.hash(UnsafeRawBufferPointer(rebasing: bytes[range.start..<(range.start + range.count)]))
        } & mask
        while slots[slot] != 0 {
            slot = (slot + 1) & mask
        }
        slots[slot] = Int32(index + 1)
    }

    /// FNV-1a: a few instructions per byte, enough for words.
    @inline(__always)
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}

extension UTF8TokenTable: Sendable where Value: Sendable { }
