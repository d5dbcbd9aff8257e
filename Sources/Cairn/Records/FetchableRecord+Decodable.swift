import Foundation

extension FetchableRecord where Self: Decodable {
    /// Decodes the record from the row: each property reads the column named
    /// after its coding key.
    ///
    /// - Values of ``DatabaseValueConvertible`` types (String, Int, Date,
    ///   UUID, enums…) are read from their column.
    /// - Other `Decodable` values (nested structs, arrays, dictionaries) are
    ///   decoded from the JSON text of their column.
    /// - Optional properties are nil for NULL or a missing column.
    ///
    /// - Throws: A ``RowDecodingError`` that names the column that cannot be
    ///   decoded.
    @inlinable
    public init(row: Row) throws {
        try self.init(from: RecordDecoder(unmanagedRow: Unmanaged.passUnretained(row), recordType: Self.self))
    }
}

/// Decodes a `Decodable` record from a row.
///
/// The decoder is not generic over the record type: a generic type would
/// cost a lookup of its runtime metadata for each decoded row, and another
/// for its keyed container.
@usableFromInline
struct RecordDecoder: Decoder {
    /// The row, not retained (two atomic operations less per record): the
    /// decoder is used inside `init(from:)`, while `init(row:)` holds the
    /// row. A record that kept the decoder after its initializer would
    /// break this.
    let unmanagedRow: Unmanaged<Row>

    /// Creates the decoder of a record, from a row that outlives it.
    @usableFromInline
    init(unmanagedRow: Unmanaged<Row>, recordType: any FetchableRecord.Type) {
        self.unmanagedRow = unmanagedRow
        self.recordType = recordType
    }

    /// The row (see ``unmanagedRow``).
    var row: Row { unmanagedRow.takeUnretainedValue() }

    /// The type of the decoded record, which gives the strategies.
    let recordType: any FetchableRecord.Type

    /// Records are decoded from the top level of a row.
    @usableFromInline var codingPath: [any CodingKey] { [] }

    @usableFromInline var userInfo: [CodingUserInfoKey: Any] { recordType.databaseDecodingUserInfo }

    @usableFromInline
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        // A cursor row decodes the same record type at each step: the
        // container of the previous step serves again. Building one costs
        // the runtime metadata lookups, and an allocation.
        let recordTypeID = ObjectIdentifier(recordType)
        let keyTypeID = ObjectIdentifier(Key.self)
        let cached = unmanagedRow._withUnsafeGuaranteedRef { row -> CachedKeyedContainer? in
            guard row.cachesDecoding else { return nil }
            return row.decodingCaches.withUnsafeBufferPointer { caches in
                for cache in caches where cache.keyType == keyTypeID && cache.recordType == recordTypeID {
                    return cache
                }
                return nil
            }
        }
        if let cached {
            // A new record: its reads start at the beginning of the plan.
            cached.plan?.position = 0
            return cached.container(as: KeyedDecodingContainer<Key>.self)
        }
        let row = self.row
        let usesDefaultKeys: Bool
        if case .useDefaultKeys = recordType.databaseColumnDecodingStrategy {
            usesDefaultKeys = true
        } else {
            usesDefaultKeys = false
        }
        guard row.cachesDecoding && row.decodingCaches.count < Row.maximumDecodingCacheCount else {
            return KeyedDecodingContainer(KeyedContainer<Key>(
                unmanagedRow: unmanagedRow, recordType: recordType, usesDefaultKeys: usesDefaultKeys, plan: nil))
        }
        // The rows of a cursor read columns of the statement by index: a
        // plan remembers the index of each key.
        let plan = row.sqliteStatement != nil && DecodingPlan.accepts(Key.self) ? DecodingPlan() : nil
        let container = KeyedDecodingContainer(KeyedContainer<Key>(
            unmanagedRow: unmanagedRow, recordType: recordType, usesDefaultKeys: usesDefaultKeys,
            plan: plan.map(Unmanaged.passUnretained)))
        row.decodingCaches.append(CachedKeyedContainer(container, keyType: Key.self, recordType: recordTypeID, plan: plan))
        return container
    }

    @usableFromInline
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "a database row cannot be decoded as an unkeyed container: decode properties by key"))
    }

    @usableFromInline
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(decoder: self)
    }

    // MARK: Keyed container

    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        /// The row, not retained.
        ///
        /// The standard library copies the container for each decoded
        /// property, and a reference would cost two atomic operations per
        /// copy: the container holds no reference at all. The row outlives
        /// the container: the container is used inside `init(from:)`,
        /// which runs while `init(row:)` holds the row, or is cached by the
        /// row itself (see ``CachedKeyedContainer``). A
        /// record that kept the container after its initializer would
        /// break this.
        let unmanagedRow: Unmanaged<Row>
        let recordType: any FetchableRecord.Type
        /// Whether column names are the coding keys (the default strategy).
        let usesDefaultKeys: Bool
        /// The column plan of the cursor, not retained: the decoding cache
        /// of the row, which holds this container, holds the plan. Nil when
        /// the row is not a cursor row, or when the plan does not accept
        /// the coding keys (see ``DecodingPlan``).
        let plan: Unmanaged<DecodingPlan>?
        var codingPath: [any CodingKey] { [] }
        var decoder: RecordDecoder { RecordDecoder(unmanagedRow: unmanagedRow, recordType: recordType) }

        /// The row (see ``unmanagedRow``).
        var row: Row { unmanagedRow.takeUnretainedValue() }

        /// Reads a column of a statement row directly, without retaining
        /// the row.
        @inline(__always)
        func decodeColumn<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ key: Key) throws -> Value {
            if let plan {
                let keyBits = DecodingPlan.bits(of: key)
                let index = try plan._withUnsafeGuaranteedRef { plan in
                    if let index = plan.columnIndex(forKeyBits: keyBits) { return index }
                    let index = try columnIndex(key)
                    plan.record(keyBits: keyBits, columnIndex: index)
                    return index
                }
                return try unmanagedRow._withUnsafeGuaranteedRef { try $0.decodeColumn(atIndex: index) }
            }
            let column = column(key)
            return try unmanagedRow._withUnsafeGuaranteedRef { try $0.decodeColumn(column) }
        }

        /// Reads a column for an optional property: nil when the column is
        /// missing or NULL.
        ///
        /// The standard library's default `decodeIfPresent` would look the
        /// column up three times (`contains`, `decodeNil`, `decode`).
        @inline(__always)
        func decodeColumnIfPresent<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ key: Key) throws -> Value? {
            if let plan {
                let keyBits = DecodingPlan.bits(of: key)
                let index = plan._withUnsafeGuaranteedRef { plan -> Int? in
                    if let index = plan.columnIndex(forKeyBits: keyBits) { return index }
                    // A missing column is looked up again at each row.
                    guard let index = row.index(forColumn: column(key)) else { return nil }
                    plan.record(keyBits: keyBits, columnIndex: index)
                    return index
                }
                guard let index else { return nil }
                return try unmanagedRow._withUnsafeGuaranteedRef { row in
                    // Cursor rows of a column plan have a raw statement.
                    if sqlite3_column_type(row.sqliteStatement.unsafelyUnwrapped, CInt(index)) == SQLITE_NULL {
                        return nil
                    }
                    return try row.decodeColumn(atIndex: index) as Value
                }
            }
            return try unmanagedRow._withUnsafeGuaranteedRef { row in
                guard let index = row.index(forColumn: column(key)), !row.hasNull(atIndex: index) else {
                    return nil
                }
                return try row.decode(Value.self, atIndex: index)
            }
        }

        /// The index of the column of a key, in a cursor row.
        ///
        /// - Throws: ``RowDecodingError/columnNotFound(_:row:)``.
        func columnIndex(_ key: Key) throws -> Int {
            let column = column(key)
            return try unmanagedRow._withUnsafeGuaranteedRef { row in
                guard let index = row.index(forColumn: column) else {
                    throw RowDecodingError.columnNotFound(column, row: row)
                }
                return index
            }
        }

        var allKeys: [Key] {
            row.columnNames.compactMap { Key(stringValue: $0) }
        }

        @inline(__always)
        func column(_ key: Key) -> String {
            usesDefaultKeys ? key.stringValue : recordType.databaseColumnDecodingStrategy.column(for: key)
        }

        func contains(_ key: Key) -> Bool {
            row.hasColumn(column(key))
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            guard let index = row.index(forColumn: column(key)) else { return true }
            return row.hasNull(atIndex: index)
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeColumn(key) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodeColumn(key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeColumn(key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeColumn(key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeColumn(key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeColumn(key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeColumn(key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeColumn(key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeColumn(key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeColumn(key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeColumn(key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeColumn(key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeColumn(key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeColumn(key) }

        // nil for a missing column or NULL, in one lookup.
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeColumnIfPresent(key) }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodeColumnIfPresent(key) }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodeColumnIfPresent(key) }
        func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try decodeColumnIfPresent(key) }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeColumnIfPresent(key) }
        func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeColumnIfPresent(key) }
        func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeColumnIfPresent(key) }
        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeColumnIfPresent(key) }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeColumnIfPresent(key) }
        func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeColumnIfPresent(key) }
        func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeColumnIfPresent(key) }
        func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodeColumnIfPresent(key) }
        func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodeColumnIfPresent(key) }
        func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try decodeColumnIfPresent(key) }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let index = row.index(forColumn: column(key)), !row.hasNull(atIndex: index) else {
                return nil
            }
            return try decode(type, atIndex: index, key: key)
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let columnName = column(key)
            guard let index = row.index(forColumn: columnName) else {
                // A missing column decodes as nil when T is optional.
                if let optional = T.self as? any _OptionalDecodable.Type, let value = optional.nilValue as? T {
                    return value
                }
                throw RowDecodingError.columnNotFound(columnName, row: row)
            }
            return try decode(type, atIndex: index, key: key)
        }

        private func decode<T: Decodable>(_ type: T.Type, atIndex index: Int, key: Key) throws -> T {
            // Dates, data and UUIDs follow the strategies of the record.
            if T.self == Date.self {
                let dbValue: DatabaseValue = row[index]
                guard let date = recordType.databaseDateDecodingStrategy.decode(dbValue) else {
                    throw RowDecodingError.conversionFailure(Date.self, row: row, columnIndex: index)
                }
                // The cast succeeds: T is Date.
                if let date = date as? T { return date }
            }
            if let convertible = T.self as? any DatabaseValueConvertible.Type {
                // Values stored in a column.
                if let value = convertible.fromDatabaseValue(row[index] as DatabaseValue) as? T {
                    return value
                }
                throw RowDecodingError.conversionFailure(T.self, row: row, columnIndex: index)
            }
            if row.hasNull(atIndex: index) {
                if let optional = T.self as? any _OptionalDecodable.Type, let value = optional.nilValue as? T {
                    return value
                }
                throw RowDecodingError.conversionFailure(T.self, row: row, columnIndex: index)
            }
            // Values that decode from a single value (enums with a raw value,
            // wrappers…) read the column value.
            let dbValue: DatabaseValue = row[index]
            do {
                return try T(from: ColumnDecoder(dbValue: dbValue, codingPath: [key]))
            } catch is ColumnDecoder.ContainerRequired {
                // Keyed or unkeyed values are stored as JSON: see below.
            } catch {
                throw RowDecodingError.conversionFailure(T.self, row: row, columnIndex: index)
            }
            // Other values are stored as JSON.
            guard let data = row.dataNoCopy(atIndex: index) else {
                throw RowDecodingError.conversionFailure(T.self, row: row, columnIndex: index)
            }
            do {
                return try recordType.databaseJSONDecoder(for: column(key)).decode(T.self, from: data)
            } catch {
                throw RowDecodingError.jsonDecodingFailure(T.self, row: row, columnIndex: index, error: error)
            }
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type,
            forKey key: Key) throws -> KeyedDecodingContainer<NestedKey>
        {
            throw DecodingError.typeMismatch([String: Any].self, DecodingError.Context(
                codingPath: codingPath + [key],
                debugDescription: "nested containers are not supported in database rows: "
                    + "decode a Decodable value, which is stored as JSON"))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch([Any].self, DecodingError.Context(
                codingPath: codingPath + [key],
                debugDescription: "nested containers are not supported in database rows: "
                    + "decode a Decodable value, which is stored as JSON"))
        }

        func superDecoder() throws -> any Decoder {
            decoder
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            decoder
        }
    }

    // MARK: Single value container

    /// Decodes a record whose `init(from:)` reads a single value, from the
    /// first column of the row.
    struct SingleValueContainer: SingleValueDecodingContainer {
        let decoder: RecordDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }

        func decodeNil() -> Bool {
            decoder.row.isEmpty || decoder.row.hasNull(atIndex: 0)
        }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            if let convertible = T.self as? any DatabaseValueConvertible.Type {
                if let value = try convertible.decodeValue(from: decoder.row, atIndex: 0) as? T {
                    return value
                }
                throw RowDecodingError.conversionFailure(T.self, row: decoder.row, columnIndex: 0)
            }
            return try T(from: decoder)
        }
    }
}

extension DatabaseValueConvertible {
    /// Decodes a value, with a thrown error for a missing column.
    static func decodeValue(from row: Row, atIndex index: Int) throws -> Self {
        try row.decode(Self.self, atIndex: index)
    }
}

/// Optional types, so that a missing column or NULL decodes as nil.
protocol _OptionalDecodable {
    static var nilValue: Self { get }
}

extension Optional: _OptionalDecodable {
    static var nilValue: Optional<Wrapped> { .none }
}

extension RowDecodingError {
    /// The error for a JSON column that does not decode.
    static func jsonDecodingFailure<T>(_ type: T.Type, row: Row, columnIndex: Int, error: any Error) -> RowDecodingError {
        guard case .valueMismatch(let typeName, let context) = conversionFailure(type, row: row, columnIndex: columnIndex) else {
            return conversionFailure(type, row: row, columnIndex: columnIndex)
        }
        return .valueMismatch(typeName, RowDecodingError.Context(
            debugDescription: context.debugDescription + " (JSON decoding failed: \(error))",
            columnName: context.columnName,
            columnIndex: context.columnIndex,
            row: context.row,
            sql: context.sql,
            statementArguments: context.statementArguments,
            publicStatementArguments: context.publicStatementArguments))
    }
}

/// Decodes a value that reads a single value from a database value; values
/// that ask for a keyed or unkeyed container are decoded from JSON instead.
struct ColumnDecoder: Decoder {
    /// Thrown when the value needs a container: it is stored as JSON.
    struct ContainerRequired: Error { }

    let dbValue: DatabaseValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw ContainerRequired()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw ContainerRequired()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(decoder: self)
    }

    struct SingleValueContainer: SingleValueDecodingContainer {
        let decoder: ColumnDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }

        func decodeNil() -> Bool { decoder.dbValue.isNull }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            if let convertible = T.self as? any DatabaseValueConvertible.Type {
                guard let value = convertible.fromDatabaseValue(decoder.dbValue) as? T else {
                    throw DecodingError.typeMismatch(T.self, DecodingError.Context(
                        codingPath: codingPath,
                        debugDescription: "could not decode \(T.self) from \(decoder.dbValue)"))
                }
                return value
            }
            return try T(from: decoder)
        }
    }
}

extension Row {
    /// Decodes a column of a cursor row, whose index is known.
    @inline(__always)
    func decodeColumn<Value: DatabaseValueConvertible & StatementColumnConvertible>(atIndex index: Int) throws -> Value {
        // Cursor rows of a column plan have a raw statement.
        if let value = Value.fromStatement(sqliteStatement.unsafelyUnwrapped, atUncheckedIndex: CInt(index)) {
            return value
        }
        throw RowDecodingError.conversionFailure(Value.self, row: self, columnIndex: index)
    }

    /// Decodes a column for a Decodable record: the fast path of statement
    /// rows reads the column directly, after one lookup of its index.
    @inline(__always)
    func decodeColumn<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ column: String) throws -> Value {
        if let sqliteStatement {
            // A row of a raw statement has a statement, which it keeps
            // alive: no need to retain it (two atomic operations).
            let index = Unmanaged.passUnretained(statement.unsafelyUnwrapped)._withUnsafeGuaranteedRef {
                $0._index(ofColumn: column)
            }
            guard let index else {
                throw RowDecodingError.columnNotFound(column, row: self)
            }
            if let value = Value.fromStatement(sqliteStatement, atUncheckedIndex: CInt(index)) {
                return value
            }
            throw RowDecodingError.conversionFailure(Value.self, row: self, columnIndex: index)
        }
        return try decode(Value.self, forColumn: column)
    }
}
