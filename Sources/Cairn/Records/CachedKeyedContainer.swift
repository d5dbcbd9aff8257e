/// A keyed coding container kept from one record to the next by the
/// decoder of a cursor row or by the reusable encoder of a record type.
///
/// Building a `KeyedDecodingContainer<Key>` or `KeyedEncodingContainer<Key>`
/// for each record costs the runtime lookups of generic metadata and an
/// allocation. The class is not generic, so that finding the cache costs no
/// metadata lookup either: the container is kept in raw memory, and read
/// back after its key type was checked.
final class CachedKeyedContainer {
    /// The type of the coding keys of the container.
    let keyType: ObjectIdentifier
    /// The record type whose strategies the container follows.
    let recordType: ObjectIdentifier
    /// The container, of type `Container`.
    private let storage: UnsafeMutableRawPointer
    /// Deinitializes and frees `storage`.
    private let release: (UnsafeMutableRawPointer) -> Void

    /// Keeps a container whose coding keys are `Key`.
    init<Key: CodingKey, Container>(_ container: Container, keyType: Key.Type, recordType: ObjectIdentifier) {
        self.keyType = ObjectIdentifier(Key.self)
        self.recordType = recordType
        let storage = UnsafeMutableRawPointer.allocate(
            byteCount: MemoryLayout<Container>.size,
            alignment: MemoryLayout<Container>.alignment)
        storage.initializeMemory(as: Container.self, to: container)
        self.storage = storage
        self.release = { storage in
            storage.assumingMemoryBound(to: Container.self).deinitialize(count: 1)
            storage.deallocate()
        }
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
