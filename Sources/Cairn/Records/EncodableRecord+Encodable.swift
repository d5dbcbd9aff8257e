import Foundation

// Encodable records: the encoder that stores the properties of an
// `Encodable` record in the columns named after their coding keys.

extension EncodableRecord where Self: Encodable {
    /// Encodes the record's properties into the columns named after their
    /// coding keys.
    ///
    /// Values already in the container stay, unless a property sets the
    /// same column.
    ///
    /// - Throws: An error when a property cannot be encoded.
    @inlinable
    public func encode(to container: inout PersistenceContainer) throws {
        try encodeRecord(Self.self, into: &container) { encoder in
            try encode(to: encoder)
        }
    }
}

/// Encodes a record into a container, with `encode`, which receives the
/// encoder: the `Encodable` implementation of `encode(to:)` of a record.
///
/// The function is not generic: the record type's own `encode(to:)` calls
/// it, and the record's `encode(to: Encoder)` is called directly from
/// there.
@usableFromInline
func encodeRecord(
    _ recordType: any EncodableRecord.Type,
    into container: inout PersistenceContainer,
    _ encode: (any Encoder) throws -> Void) throws
{
    // The encoder of the previous insert of the record type, when it
    // serves no other encoding.
    let encoder: RecordEncoder
    if let reusable = RecordEncoder.reusable, !reusable.isInUse, reusable.recordType == recordType {
        encoder = reusable
    } else {
        encoder = RecordEncoder(recordType: recordType)
    }
    encoder.isInUse = true
    // The encoder fills the container in place (no copy of its storage).
    swap(&container, &encoder.container)
    defer {
        swap(&container, &encoder.container)
        encoder.error = nil
        if !encoder.pendingJSONColumns.isEmpty { encoder.pendingJSONColumns = [] }
        encoder.isInUse = false
    }
    // The containers find the encoder in the encoding slot of the thread.
    try RecordEncoder.slot.with(encoder) {
        try encode(encoder)
    }
    if let error = encoder.error {
        throw error
    }
    if !encoder.pendingJSONColumns.isEmpty {
        try encoder.storePendingJSONColumns()
    }
}

/// Encodes an `Encodable` record into a persistence container.
///
/// The encoder is not generic over the record type: a generic type would
/// cost lookups of runtime metadata for each encoded record.
///
/// A record may keep the encoder, or a container, after its `encode(to:)`
/// returned (Swift allows it): they then throw an `EncodingError`, and never
/// write into memory that was freed.
final class RecordEncoder: Encoder {
    /// The type of the encoded record, which gives the strategies.
    let recordType: any EncodableRecord.Type

    /// Whether column names are the coding keys (the default strategy).
    let usesDefaultKeys: Bool

    // The encoder is used by one encoding, on one thread: dynamic
    // exclusivity checks are not needed. Checked, the container costs 1342
    // instructions per row of InsertBenchmark "9" (8829 -> 10171).
    @exclusivity(unchecked) var container = PersistenceContainer(reservingCapacity: 0)
    var error: (any Error)?

    /// The values encoded by the encoders of `superEncoder(forKey:)`, which
    /// are stored as JSON in the column of their key once the record is
    /// encoded, as GRDB stores them.
    ///
    /// Unchecked exclusivity, as `container`: each encoding reads it twice,
    /// and the checked reads cost 188 instructions per row of InsertBenchmark
    /// "9" (8632 -> 8820 under callgrind).
    @exclusivity(unchecked) var pendingJSONColumns: [(column: String, key: String, node: JSONTreeNode)] = []

    /// Stores the values of ``pendingJSONColumns`` as JSON text, encoded by
    /// the record's JSON encoder of each key.
    func storePendingJSONColumns() throws {
        let pending = pendingJSONColumns
        pendingJSONColumns = []
        for (column, key, node) in pending {
            let data = try recordType.databaseJSONEncoder(for: key).encode(node)
            container.setValueMatchingExactly(String(decoding: data, as: UTF8.self).databaseValue, forColumn: column)
        }
    }

    /// Whether an encoding uses the encoder: a reusable encoder serves one
    /// encoding at a time, and containers kept after their encoding throw.
    var isInUse = false

    /// The serial number of the encoder: keyed containers hold it, and find
    /// the encoder in the encoding slot of the thread while it encodes (see
    /// ``ThreadSlot``), rather than retaining it (the container that a
    /// reusable encoder keeps would be a retain cycle, and a reference would
    /// cost two atomic operations each time the standard library copies the
    /// container).
    let serial = CodingSerial.next()

    /// Whether the encoder serves several encodings, one after the other,
    /// and keeps its keyed container for the next.
    private let isReusable: Bool

    /// The keyed container of the previous encoding, for a reusable
    /// encoder.
    private var cachedContainer: CachedKeyedContainer?

    /// The encoder that `Encodable` records may reuse on this thread, if
    /// any: see ``withReusable(_:_:)``.
    static var reusable: RecordEncoder? { reusableSlot.current }

    /// The slot of the reusable encoder of the current thread.
    @inline(__always)
    private static var reusableSlot: ThreadSlot<RecordEncoder> { ThreadSlot(.reusableEncoder) }

    /// Runs `body` with an encoder that the `Encodable` implementation of
    /// ``EncodableRecord/encode(to:)`` may reuse on this thread. Inserts
    /// offer the encoder of their record type this way: the public
    /// `encode(to:)` has no other way to receive it.
    static func withReusable<T>(_ encoder: RecordEncoder, _ body: () throws -> T) rethrows -> T {
        stopUnless(encoder.isReusable, "only reusable encoders are offered for reuse")
        return try reusableSlot.with(encoder, body)
    }

    /// Creates an encoder.
    ///
    /// - Parameters:
    ///   - recordType: The type of the encoded records.
    ///   - reusable: Whether the encoder serves several encodings, one
    ///     after the other, and keeps its keyed container for the next.
    init(recordType: any EncodableRecord.Type, reusable: Bool = false) {
        self.recordType = recordType
        if case .useDefaultKeys = recordType.databaseColumnEncodingStrategy {
            usesDefaultKeys = true
        } else {
            usesDefaultKeys = false
        }
        isReusable = reusable
    }

    /// The slot of the encoder that encodes on the current thread.
    @inline(__always)
    static var slot: ThreadSlot<RecordEncoder> { ThreadSlot(.encodingEncoder) }

    /// Runs `body` with the encoder of `serial`, when it encodes on the
    /// current thread; runs `none` otherwise (a container kept after its
    /// encoding).
    @inline(__always)
    static func withEncoder<T>(
        serial: UInt64,
        none: () throws -> T,
        _ body: (RecordEncoder) throws -> T) rethrows -> T
    {
        try slot.withCurrent(none: none) { encoder in
            guard encoder.serial == serial, encoder.isInUse else { return try none() }
            return try body(encoder)
        }
    }

    /// The encoder of `serial`, retained, when it encodes on the current
    /// thread.
    static func liveEncoder(serial: UInt64) -> RecordEncoder? {
        withEncoder(serial: serial, none: { nil }, { $0 })
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { recordType.databaseEncodingUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        guard isReusable else {
            return KeyedEncodingContainer(KeyedContainer<Key>(encoderSerial: serial))
        }
        // A reusable encoder gives the container of its previous encoding:
        // building one costs metadata lookups and an allocation.
        if let cachedContainer, cachedContainer.matches(keyType: Key.self, recordType: ObjectIdentifier(recordType)) {
            return cachedContainer.container(as: KeyedEncodingContainer<Key>.self)
        }
        let container = KeyedEncodingContainer(KeyedContainer<Key>(encoderSerial: serial))
        cachedContainer = CachedKeyedContainer(container, keyType: Key.self, recordType: ObjectIdentifier(recordType))
        return container
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        error = EncodingError.invalidValue(recordType, EncodingError.Context(
            codingPath: [],
            debugDescription: "a record cannot be encoded in an unkeyed container: encode properties by key"))
        return FailingUnkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        RecordSingleValueContainer(encoderSerial: serial)
    }

    /// Records the error of a record encoded as a single value that is not
    /// a record itself.
    func setSingleValueError() {
        error = EncodingError.invalidValue(recordType, EncodingError.Context(
            codingPath: [],
            debugDescription: "a record cannot be encoded as a single value: encode properties by key"))
    }

    /// The single value container of a record: a record that encodes
    /// another value as a single value (a generic wrapper of a record, for
    /// example) stores the columns of that value: those of its
    /// `encode(to: inout PersistenceContainer)` when it is a
    /// record, and its properties encoded by key otherwise. A database
    /// value, or nil, has no column and fails.
    struct RecordSingleValueContainer: SingleValueEncodingContainer {
        /// The serial number of the encoder (see ``RecordEncoder/serial``).
        let encoderSerial: UInt64
        var codingPath: [any CodingKey] { [] }

        /// The encoder, retained, when an encoding uses it.
        private func liveEncoder(_ value: Any) throws -> RecordEncoder {
            guard let encoder = RecordEncoder.liveEncoder(serial: encoderSerial) else {
                throw RecordEncoder.usedAfterEncoding(value, codingPath: [])
            }
            return encoder
        }

        mutating func encodeNil() throws {
            try liveEncoder(Optional<Any>.none as Any).setSingleValueError()
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            let encoder = try liveEncoder(value)
            if value is any DatabaseValueConvertible || value is Date || value is UUID || value is Data {
                encoder.setSingleValueError()
                return
            }
            if let record = value as? any EncodableRecord {
                // A record encodes itself, as when it is saved.
                try record.encode(to: &encoder.container)
            } else {
                // The value's keyed container writes into the same columns.
                try value.encode(to: encoder)
            }
        }
    }

    /// The error of an encoder or container used after the `encode(to:)` of
    /// its record returned.
    static func usedAfterEncoding(_ value: Any, codingPath: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(value, EncodingError.Context(
            codingPath: codingPath,
            debugDescription: "this encoder was used after encode(to:) returned: "
                + "a record cannot keep its encoder or its containers"))
    }

    /// A keyed container: plain bits, which the standard library copies
    /// for each encoded property at no cost.
    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        /// The serial number of the encoder (see ``RecordEncoder/serial``).
        let encoderSerial: UInt64
        var codingPath: [any CodingKey] { [] }

        /// Runs `body` with the encoder, when it encodes on the current
        /// thread (see ``RecordEncoder/withEncoder(serial:none:_:)``).
        ///
        /// - Throws: An `EncodingError` when the container was kept after
        ///   the `encode(to:)` of its record returned.
        @inline(__always)
        func withEncoder<T>(_ value: @autoclosure () -> Any, _ key: Key, _ body: (RecordEncoder) throws -> T) throws -> T {
            try RecordEncoder.withEncoder(
                serial: encoderSerial,
                none: { throw RecordEncoder.usedAfterEncoding(value(), codingPath: [key]) },
                body)
        }

        /// The encoder, retained, when an encoding uses it; nil otherwise.
        var liveEncoder: RecordEncoder? {
            RecordEncoder.liveEncoder(serial: encoderSerial)
        }

        @inline(__always)
        func column(_ key: Key, of encoder: RecordEncoder) -> String {
            encoder.usesDefaultKeys ? key.stringValue : encoder.recordType.databaseColumnEncodingStrategy.column(for: key)
        }

        @inline(__always)
        func set(_ value: DatabaseValue, forKey key: Key) throws {
            try withEncoder(value, key) { encoder in
                encoder.container.setValueMatchingExactly(value, forColumn: column(key, of: encoder))
            }
        }

        mutating func encodeNil(forKey key: Key) throws { try set(.null, forKey: key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encode(_ value: String, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }

        // nil is stored as NULL: the column is part of the row.
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }

        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            // A nil property is stored as NULL.
            if let value {
                try encode(value, forKey: key)
            } else {
                try set(.null, forKey: key)
            }
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            let encoder = try withEncoder(value, key) { $0 }
            let recordType = encoder.recordType
            if let date = value as? Date {
                try set(recordType.databaseDateEncodingStrategy(for: column(key, of: encoder)).encode(date), forKey: key)
            } else if let uuid = value as? UUID {
                try set(recordType.databaseUUIDEncodingStrategy(for: column(key, of: encoder)).encode(uuid), forKey: key)
            } else if let data = value as? Data {
                try set(recordType.databaseDataEncodingStrategy(for: column(key, of: encoder)).encode(data, codingPath: codingPath + [key]), forKey: key)
            } else if let convertible = value as? any DatabaseValueConvertible {
                try set(convertible.databaseValue, forKey: key)
            } else if let single = try SingleValueProbe.databaseValue(
                of: value, codingPath: [key], userInfo: encoder.userInfo)
            {
                // Values that encode a single value (enums with a raw value,
                // wrappers…) are stored as that value.
                try set(single, forKey: key)
            } else {
                // Other values are stored as JSON text.
                // The JSON encoder of the property is chosen by its coding key,
                // as in GRDB, not by the column name.
                let data = try recordType.databaseJSONEncoder(for: key.stringValue).encode(value)
                try set(String(decoding: data, as: UTF8.self).databaseValue, forKey: key)
            }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type,
            forKey key: Key) -> KeyedEncodingContainer<NestedKey>
        {
            if let encoder = liveEncoder {
                encoder.error = EncodingError.invalidValue(encoder.recordType, EncodingError.Context(
                    codingPath: [key],
                    debugDescription: "nested containers are not supported in database rows: "
                        + "encode an Encodable value, which is stored as JSON"))
            }
            return KeyedEncodingContainer(SingleValueProbe.DiscardingKeyedContainer<NestedKey>())
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            if let encoder = liveEncoder {
                encoder.error = EncodingError.invalidValue(encoder.recordType, EncodingError.Context(
                    codingPath: [key],
                    debugDescription: "nested containers are not supported in database rows: "
                        + "encode an Encodable value, which is stored as JSON"))
            }
            return FailingUnkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            liveEncoder.map { SuperEncoder(encoder: $0) } ?? SingleValueProbe.ProbeEncoder()
        }

        /// An encoder whose value is stored as JSON in the column of `key`,
        /// as GRDB stores it.
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            guard let encoder = liveEncoder else { return SingleValueProbe.ProbeEncoder() }
            let node = JSONTreeNode()
            encoder.pendingJSONColumns.append((column(key, of: encoder), key.stringValue, node))
            return JSONTreeEncoder(node: node, codingPath: [key], userInfo: encoder.userInfo)
        }
    }

    /// The encoder of a superclass: it shares the container.
    struct SuperEncoder: Encoder {
        let encoder: RecordEncoder
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { encoder.userInfo }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            encoder.container(keyedBy: type)
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer { FailingUnkeyedContainer() }
        func singleValueContainer() -> any SingleValueEncodingContainer { encoder.singleValueContainer() }
    }

    /// A container that ignores what it receives: its creation recorded an
    /// error, thrown once the record is encoded.
    struct FailingUnkeyedContainer: UnkeyedEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count: Int { 0 }
        mutating func encodeNil() { }
        mutating func encode<T: Encodable>(_ value: T) { }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(SingleValueProbe.DiscardingKeyedContainer<NestedKey>())
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
        mutating func superEncoder() -> any Encoder { SingleValueProbe.ProbeEncoder() }
    }

    /// See ``FailingUnkeyedContainer``.
    struct FailingSingleValueContainer: SingleValueEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil() { }
        mutating func encode<T: Encodable>(_ value: T) { }
    }
}
