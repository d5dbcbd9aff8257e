/// A keyed coding container kept from one record to the next by the
/// decoder of a cursor row or by the reusable encoder of a record type.
///
/// Building a `KeyedDecodingContainer<Key>` or `KeyedEncodingContainer<Key>`
/// for each record costs the runtime lookups of generic metadata and an
/// allocation. The class is not generic, so that finding the cache costs no
/// metadata lookup either: the container is kept type-erased
/// (``ErasedValueStorage``), and read back after its key type was checked.
final class CachedKeyedContainer: RowDecodingCache {
    /// The container, of type `Container` (see `LayoutAssumptions.swift`,
    /// item 5).
    private let storage: ErasedValueStorage
    /// The index of the column plan of the container in its row's
    /// ``RowState/decodingPlans``, if it has one.
    let planIndex: Int?

    /// Keeps a container whose coding keys are `Key`.
    ///
    /// - Parameter planIndex: The index of the container's column plan in
    ///   its row, if any.
    init<Key: CodingKey, Container>(
        _ container: Container,
        keyType: Key.Type,
        recordType: ObjectIdentifier,
        planIndex: Int? = nil)
    {
        self.planIndex = planIndex
        storage = ErasedValueStorage(container)
        super.init(keyType: ObjectIdentifier(Key.self), recordType: recordType)
    }

    deinit {
        storage.release()
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
        storage.value(as: Container.self)
    }
}
