import Foundation

// The encoder that `superEncoder(forKey:)` gives to an `Encodable` record:
// what is encoded into it is stored as JSON in the column of the key, as
// GRDB stores it. The encoder builds a tree of the containers it is asked
// for, and keeps each encoded value whole; the tree is then encoded by the
// record's JSON encoder (`databaseJSONEncoder(for:)`), so that dates, data
// and key order follow its settings, as for any property stored as JSON.

/// A node of the tree that a ``JSONTreeEncoder`` builds.
final class JSONTreeNode: Encodable {
    enum Content {
        /// Nothing was encoded: an empty object, as `JSONEncoder` writes a
        /// value that encodes nothing.
        case empty
        case null
        /// A value encoded whole: the JSON encoder encodes it.
        case value(any Encodable)
        case keyed([(key: String, node: JSONTreeNode)])
        case unkeyed([JSONTreeNode])
    }

    var content = Content.empty

    /// The node of `key`, made when missing; the node becomes an object.
    func child(forKey key: String) -> JSONTreeNode {
        var entries: [(key: String, node: JSONTreeNode)] = []
        if case .keyed(let existing) = content { entries = existing }
        if let entry = entries.first(where: { $0.key == key }) { return entry.node }
        let node = JSONTreeNode()
        entries.append((key, node))
        content = .keyed(entries)
        return node
    }

    /// A new last element; the node becomes an array.
    func appendChild() -> JSONTreeNode {
        var nodes: [JSONTreeNode] = []
        if case .unkeyed(let existing) = content { nodes = existing }
        let node = JSONTreeNode()
        nodes.append(node)
        content = .unkeyed(nodes)
        return node
    }

    /// The number of elements of an array node.
    var count: Int {
        if case .unkeyed(let nodes) = content { return nodes.count }
        return 0
    }

    func encode(to encoder: any Encoder) throws {
        switch content {
        case .empty:
            _ = encoder.container(keyedBy: JSONTreeKey.self)
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .value(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .keyed(let entries):
            var container = encoder.container(keyedBy: JSONTreeKey.self)
            for entry in entries {
                try container.encode(entry.node, forKey: JSONTreeKey(stringValue: entry.key))
            }
        case .unkeyed(let nodes):
            var container = encoder.unkeyedContainer()
            for node in nodes {
                try container.encode(node)
            }
        }
    }
}

/// A key of an object of the tree.
struct JSONTreeKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

/// An encoder that builds a ``JSONTreeNode``.
struct JSONTreeEncoder: Encoder {
    let node: JSONTreeNode
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .keyed = node.content { } else { node.content = .keyed([]) }
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath, userInfo: userInfo))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unkeyed = node.content { } else { node.content = .unkeyed([]) }
        return UnkeyedContainer(node: node, codingPath: codingPath, userInfo: userInfo)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(node: node, codingPath: codingPath)
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: JSONTreeNode
        let codingPath: [any CodingKey]
        let userInfo: [CodingUserInfoKey: Any]

        private func set(_ value: any Encodable, forKey key: Key) {
            node.child(forKey: key.stringValue).content = .value(value)
        }

        mutating func encodeNil(forKey key: Key) { node.child(forKey: key.stringValue).content = .null }
        mutating func encode(_ value: Bool, forKey key: Key) { set(value, forKey: key) }
        mutating func encode(_ value: String, forKey key: Key) { set(value, forKey: key) }
        mutating func encode(_ value: Double, forKey key: Key) { set(value, forKey: key) }
        mutating func encode(_ value: Float, forKey key: Key) { set(value, forKey: key) }
        mutating func encode(_ value: Int, forKey key: Key) { set(value, forKey: key) }
        mutating func encode(_ value: Int8, forKey key: Key) { set(value, forKey: key) }
        mutating func encode(_ value: Int16, forKey key: Key) { set(value, forKey: key) }
        mutating func encode(_ value: Int32, forKey key: Key) { set(value, forKey: key) }
        mutating func encode(_ value: Int64, forKey key: Key) { set(value, forKey: key) }
        mutating func encode(_ value: UInt, forKey key: Key) { set(value, forKey: key) }
        mutating func encode(_ value: UInt8, forKey key: Key) { set(value, forKey: key) }
        mutating func encode(_ value: UInt16, forKey key: Key) { set(value, forKey: key) }
        mutating func encode(_ value: UInt32, forKey key: Key) { set(value, forKey: key) }
        mutating func encode(_ value: UInt64, forKey key: Key) { set(value, forKey: key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) { set(value, forKey: key) }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type,
            forKey key: Key) -> KeyedEncodingContainer<NestedKey>
        {
            encoder(forKey: key.stringValue, key).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            encoder(forKey: key.stringValue, key).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            encoder(forKey: "super", JSONTreeKey(stringValue: "super"))
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            encoder(forKey: key.stringValue, key)
        }

        private func encoder(forKey name: String, _ key: any CodingKey) -> JSONTreeEncoder {
            JSONTreeEncoder(node: node.child(forKey: name), codingPath: codingPath + [key], userInfo: userInfo)
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: JSONTreeNode
        let codingPath: [any CodingKey]
        let userInfo: [CodingUserInfoKey: Any]
        var count: Int { node.count }

        private func append(_ value: any Encodable) {
            node.appendChild().content = .value(value)
        }

        mutating func encodeNil() { node.appendChild().content = .null }
        mutating func encode(_ value: Bool) { append(value) }
        mutating func encode(_ value: String) { append(value) }
        mutating func encode(_ value: Double) { append(value) }
        mutating func encode(_ value: Float) { append(value) }
        mutating func encode(_ value: Int) { append(value) }
        mutating func encode(_ value: Int8) { append(value) }
        mutating func encode(_ value: Int16) { append(value) }
        mutating func encode(_ value: Int32) { append(value) }
        mutating func encode(_ value: Int64) { append(value) }
        mutating func encode(_ value: UInt) { append(value) }
        mutating func encode(_ value: UInt8) { append(value) }
        mutating func encode(_ value: UInt16) { append(value) }
        mutating func encode(_ value: UInt32) { append(value) }
        mutating func encode(_ value: UInt64) { append(value) }
        mutating func encode<T: Encodable>(_ value: T) { append(value) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            nextEncoder().container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            nextEncoder().unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            nextEncoder()
        }

        private func nextEncoder() -> JSONTreeEncoder {
            let index = node.count
            return JSONTreeEncoder(
                node: node.appendChild(),
                codingPath: codingPath + [JSONTreeKey(stringValue: String(index))],
                userInfo: userInfo)
        }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let node: JSONTreeNode
        let codingPath: [any CodingKey]

        mutating func encodeNil() { node.content = .null }
        mutating func encode(_ value: Bool) { node.content = .value(value) }
        mutating func encode(_ value: String) { node.content = .value(value) }
        mutating func encode(_ value: Double) { node.content = .value(value) }
        mutating func encode(_ value: Float) { node.content = .value(value) }
        mutating func encode(_ value: Int) { node.content = .value(value) }
        mutating func encode(_ value: Int8) { node.content = .value(value) }
        mutating func encode(_ value: Int16) { node.content = .value(value) }
        mutating func encode(_ value: Int32) { node.content = .value(value) }
        mutating func encode(_ value: Int64) { node.content = .value(value) }
        mutating func encode(_ value: UInt) { node.content = .value(value) }
        mutating func encode(_ value: UInt8) { node.content = .value(value) }
        mutating func encode(_ value: UInt16) { node.content = .value(value) }
        mutating func encode(_ value: UInt32) { node.content = .value(value) }
        mutating func encode(_ value: UInt64) { node.content = .value(value) }
        mutating func encode<T: Encodable>(_ value: T) { node.content = .value(value) }
    }
}
