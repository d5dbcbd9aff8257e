// Values that encode one single value (a wrapper of a String, a Double…)
// are stored as that value, by records and by Codable
// DatabaseValueConvertible types alike; values that encode keyed or
// unkeyed containers are stored as JSON.

/// Finds out whether a value encodes a single value, and which.
enum SingleValueProbe {
    /// The database value of a value that encodes a single value, or nil for
    /// values that encode keyed or unkeyed containers.
    ///
    /// - Parameters:
    ///   - codingPath: The coding path that the value's encoder reports:
    ///     the key of the property, for a property of a record.
    ///   - userInfo: The `userInfo` that the value's encoder reports: the
    ///     record type's, for a property of a record.
    static func databaseValue(
        of value: some Encodable,
        codingPath: [any CodingKey] = [],
        userInfo: [CodingUserInfoKey: Any] = [:]) throws -> DatabaseValue?
    {
        let encoder = ProbeEncoder(codingPath: codingPath, userInfo: userInfo)
        try value.encode(to: encoder)
        return encoder.state.usesContainers ? nil : encoder.state.value
    }

    final class State {
        var value: DatabaseValue?
        var usesContainers = false
    }

    struct ProbeEncoder: Encoder {
        let state = State()
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] = [:]

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            state.usesContainers = true
            return KeyedEncodingContainer(DiscardingKeyedContainer<Key>())
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            state.usesContainers = true
            return DiscardingUnkeyedContainer()
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleValueContainer(state: state, codingPath: codingPath, userInfo: userInfo)
        }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let state: State
        let codingPath: [any CodingKey]
        /// The `userInfo` of the encoder, given to the encoder of a nested
        /// value.
        let userInfo: [CodingUserInfoKey: Any]

        mutating func encodeNil() { state.value = .null }

        mutating func encode<T: Encodable>(_ value: T) throws {
            if let convertible = value as? any DatabaseValueConvertible {
                state.value = convertible.databaseValue
            } else if let nested = try SingleValueProbe.databaseValue(of: value, codingPath: codingPath, userInfo: userInfo) {
                state.value = nested
            } else {
                state.usesContainers = true
            }
        }
    }

    struct DiscardingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) { }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) { }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>())
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { DiscardingUnkeyedContainer() }
        mutating func superEncoder() -> any Encoder { ProbeEncoder() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { ProbeEncoder() }
    }

    struct DiscardingUnkeyedContainer: UnkeyedEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count: Int { 0 }
        mutating func encodeNil() { }
        mutating func encode<T: Encodable>(_ value: T) { }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>())
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
        mutating func superEncoder() -> any Encoder { ProbeEncoder() }
    }
}
