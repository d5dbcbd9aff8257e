/// A keyed coding container kept from one record to the next by the
/// decoder of a cursor row or by the reusable encoder of a record type.
///
/// Building a `KeyedDecodingContainer<Key>` or `KeyedEncodingContainer<Key>`
/// for each record costs the runtime lookups of generic metadata and an
/// allocation. The class is not generic, so that finding the cache costs no
/// metadata lookup either: the container is kept in raw memory, and read
/// back after its key type was checked.
final class CachedKeyedContainer: RowDecodingCache {
    /// The container, of type `Container`.
    private let storage: UnsafeMutableRawPointer
    /// Deinitializes and frees `storage`.
    private let release: (UnsafeMutableRawPointer) -> Void
    /// The column plan that the container refers to without retaining it,
    /// if any: the cache keeps it alive.
    let plan: DecodingPlan?

    /// Keeps a container whose coding keys are `Key`.
    ///
    /// - Parameter plan: The plan that the container refers to, if any.
    init<Key: CodingKey, Container>(
        _ container: Container,
        keyType: Key.Type,
        recordType: ObjectIdentifier,
        plan: DecodingPlan? = nil)
    {
        self.plan = plan
        let storage = UnsafeMutableRawPointer.allocate(
            byteCount: MemoryLayout<Container>.size,
            alignment: MemoryLayout<Container>.alignment)
        storage.initializeMemory(as: Container.self, to: container)
        self.storage = storage
        self.release = { storage in
            storage.assumingMemoryBound(to: Container.self).deinitialize(count: 1)
            storage.deallocate()
        }
        super.init(keyType: ObjectIdentifier(Key.self), recordType: recordType)
    }

    deinit {
        release(storage)
    }

    /// Whether the container has the given key type and record type.
    @inline(__always)
    func matches<Key: CodingKey>(keyType: Key.Type, recordType: ObjectIdentifier) -> Bool {
        self.keyType == ObjectIdentifier(Key.self) && self.recordType == recordType
    }

    /// The container. It must be of type `Container`, and the caller must
    /// have checked ``matches(keyType:recordType:)``: the type is not
    /// checked again (which would cost a metadata lookup).
    @inline(__always)
    func container<Container>(as type: Container.Type) -> Container {
        storage.assumingMemoryBound(to: Container.self).pointee
    }
}

/// The columns that a `Decodable` record type reads from the rows of a
/// statement, in the order in which its `init(from:)` reads them.
///
/// A record type decodes the same keys in the same order at each row: the
/// plan remembers, for each read, the coding key and the index of its
/// column. The next row compares the key with the one of the plan, and
/// reads the column at once: no column name is built, compared, or looked
/// up. A key that does not match (a record that reads other keys for some
/// rows) is looked up by name, and replaces the entry of the plan.
///
/// Keys are compared by their bits, so the plan only serves coding key
/// types that are plain values of at most 8 bytes (such as the synthesized
/// `CodingKeys` enums): equal bits then mean equal keys (see `CodingKeyBits`
/// in `LayoutAssumptions.swift`).
final class DecodingPlan {
    /// A key, by its bits, and the index of its column.
    struct Entry {
        var keyBits: UInt64
        var columnIndex: Int
    }

    /// The reads of a record, in order, and the position of the next read
    /// of the current record.
    ///
    /// Unchecked exclusivity: a plan is used by the decoding of one record
    /// at a time, on the thread of its row, and its methods call nothing
    /// that could reach the plan again. Checked accesses cost 900
    /// instructions per row of FetchBenchmark "4 Decodable fetchCursor"
    /// (5039 -> 5941).
    @exclusivity(unchecked) private var reads = Reads()

    private struct Reads {
        var entries: [Entry] = []
        var position = 0
    }

    /// Starts the reads of a new record.
    @inline(__always)
    func rewind() {
        reads.position = 0
    }

    /// The column index of the next read, if the plan has this key at the
    /// current position; the position then moves to the next read.
    @inline(__always)
    func columnIndex(forKeyBits keyBits: UInt64) -> Int? {
        let position = reads.position
        // The position moves after the read of the entries ends: the two
        // accesses to `reads` do not overlap.
        let index = reads.entries.withUnsafeBufferPointer { entries -> Int? in
            guard position < entries.count, entries[position].keyBits == keyBits else { return nil }
            return entries[position].columnIndex
        }
        if index != nil { reads.position = position &+ 1 }
        return index
    }

    /// Records the column index of a key at the current position, and
    /// moves to the next read.
    func record(keyBits: UInt64, columnIndex: Int) {
        let entry = Entry(keyBits: keyBits, columnIndex: columnIndex)
        if reads.position < reads.entries.count {
            reads.entries[reads.position] = entry
        } else {
            reads.entries.append(entry)
        }
        reads.position += 1
    }
}
