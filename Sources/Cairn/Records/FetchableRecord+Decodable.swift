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
        let scope = row._beginDecoding()
        defer { row._endDecoding(scope) }
        try self.init(from: RecordDecoder(row: row, recordType: Self.self))
    }
}

/// Decodes a `Decodable` record from a row.
///
/// The decoder is not generic over the record type: a generic type would
/// cost a lookup of its runtime metadata for each decoded row, and another
/// for its keyed container.
///
/// A record may keep its decoder, or a container, after its `init(from:)`
/// returned (Swift allows it): they keep working on a copied row, and throw
/// a `DecodingError` on a cursor row, whose statement has moved on. They
/// never read a row that was deinitialized.
@usableFromInline
struct RecordDecoder: Decoder {
    /// The row, retained (once per record): a record may keep its decoder.
    let row: Row

    /// The type of the decoded record, which gives the strategies.
    let recordType: any FetchableRecord.Type

    /// Creates the decoder of a record.
    @usableFromInline
    init(row: Row, recordType: any FetchableRecord.Type) {
        self.row = row
        self.recordType = recordType
    }

    /// Records are decoded from the top level of a row.
    @usableFromInline var codingPath: [any CodingKey] { [] }

    @usableFromInline var userInfo: [CodingUserInfoKey: Any] { recordType.databaseDecodingUserInfo }

    @usableFromInline
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        // A decoder kept after init(from:) keeps working on a copied row.
        if row.readsStatement && !row.isBeingDecoded {
            throw RecordDecoder.usedAfterDecoding(codingPath: [])
        }
        // A cursor row decodes the same record type at each step: the
        // container of the previous step serves again. Building one costs
        // the runtime metadata lookups, and an allocation.
        let recordTypeID = ObjectIdentifier(recordType)
        let keyTypeID = ObjectIdentifier(Key.self)
        // Containers that hold no reference find their row in the decoding
        // slot of the thread: only while the row is there.
        let cachesDecoding = row.cachesDecoding && Row.decodingSlot.holds(row)
        if cachesDecoding {
            let cached = row.state.decodingCaches.withUnsafeBufferPointer { caches -> CachedKeyedContainer? in
                for cache in caches where cache.keyType == keyTypeID && cache.recordType == recordTypeID {
                    // Only the record decoder adds caches (see
                    // `Row.decodingCaches`).
                    return cache as? CachedKeyedContainer
                }
                return nil
            }
            if let cached {
                // A new record: its reads start at the beginning of the plan.
                if cached.planIndex != nil {
                    row.rewindDecodingPlan()
                }
                return cached.container(as: KeyedDecodingContainer<Key>.self)
            }
        }
        let usesDefaultKeys: Bool
        if case .useDefaultKeys = recordType.databaseColumnDecodingStrategy {
            usesDefaultKeys = true
        } else {
            usesDefaultKeys = false
        }
        guard cachesDecoding && row.state.decodingCaches.count < Row.maximumDecodingCacheCount else {
            return KeyedDecodingContainer(RetainingKeyedContainer<Key>(
                row: row, recordType: recordType, usesDefaultKeys: usesDefaultKeys))
        }
        // The rows of a cursor read columns of the statement by index: a
        // plan remembers the index of each key.
        let planIndex = row.sqliteStatement != nil && CodingKeyBits.accepts(Key.self) ? row.addDecodingPlan() : nil
        row.rewindDecodingPlan()
        let container = KeyedDecodingContainer(KeyedContainer<Key>(
            rowSerial: row.decodingSerial, recordType: recordType, usesDefaultKeys: usesDefaultKeys,
            planIndex: planIndex ?? -1))
        row.state.decodingCaches.append(CachedKeyedContainer(
            container, keyType: Key.self, recordType: recordTypeID, planIndex: planIndex))
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

    /// The error of a decoder or container used after the `init(from:)` of
    /// its record returned, on a cursor row.
    static func usedAfterDecoding(codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "this decoder was used after init(from:) returned: the row of a cursor "
                + "changes at each step, and a record cannot keep its decoder or its containers"))
    }

    // MARK: Keyed containers

    /// The keyed container of a record decoded from a cursor row, which
    /// the row caches from one step to the next: plain bits, which the
    /// standard library copies for each decoded property at no cost (a
    /// reference would cost two atomic operations per copy, and the row,
    /// which holds the container, would be a retain cycle).
    ///
    /// It finds its row in the decoding slot of the thread (see
    /// ``ThreadSlot``), where `Row._beginDecoding()` puts the row for the time
    /// of a record's `init(from:)`: a container kept after its record was
    /// decoded finds another row or none, and throws.
    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        /// The serial number of the row (see `Row.decodingSerial`), or zero
        /// for the inner container of a ``RetainingKeyedContainer``, which
        /// reads the row of the slot, whatever it is (the retaining
        /// container has just put its row there).
        let rowSerial: UInt64
        /// The type of the decoded record, which gives the strategies.
        let recordType: any FetchableRecord.Type
        /// Whether column names are the coding keys (the default strategy).
        let usesDefaultKeys: Bool
        /// The index of the column plan in the row's `decodingPlans`, or -1
        /// when the row does not read a statement, or when the plan does
        /// not accept the coding keys (see ``DecodingPlan`` and
        /// `CodingKeyBits`).
        let planIndex: Int

        /// Runs `body` with the row, when the container may read it: the
        /// row of the decoding slot, when it is the container's.
        ///
        /// - Throws: A `DecodingError` when the container was kept after the
        ///   `init(from:)` of its record returned.
        @inline(__always)
        func withRow<T>(forKey key: Key, _ body: (Row) throws -> T) throws -> T {
            try Row.decodingSlot.withCurrent(none: { throw RecordDecoder.usedAfterDecoding(codingPath: [key]) }) { row in
                guard row.state.decodingSerial == rowSerial || rowSerial == 0 else {
                    throw RecordDecoder.usedAfterDecoding(codingPath: [key])
                }
                return try body(row)
            }
        }

        /// The row, retained, when the container may read it (see
        /// ``withRow(forKey:_:)``).
        func row(codingPath: [any CodingKey]) throws -> Row {
            guard let row = Row.decodingSlot.current,
                  row.state.decodingSerial == rowSerial || rowSerial == 0
            else {
                throw RecordDecoder.usedAfterDecoding(codingPath: codingPath)
            }
            return row
        }

        var codingPath: [any CodingKey] { [] }

        /// Reads a column of a statement row directly, without retaining
        /// the row.
        @inline(__always)
        func decodeColumn<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ key: Key) throws -> Value {
            try withRow(forKey: key) { row in
                let planIndex = self.planIndex
                if planIndex >= 0 {
                    let keyBits = CodingKeyBits.bits(of: key)
                    if let index = row.plannedColumnIndex(plan: planIndex, keyBits: keyBits) {
                        return try row.decodeColumn(atIndex: index)
                    }
                    let index = try columnIndex(key, in: row)
                    row.recordPlannedColumn(plan: planIndex, keyBits: keyBits, columnIndex: index)
                    return try row.decodeColumn(atIndex: index)
                }
                return try row.decodeColumn(column(key, in: row))
            }
        }

        /// Reads a column for an optional property: nil when the column is
        /// missing or NULL.
        ///
        /// The standard library's default `decodeIfPresent` would look the
        /// column up three times (`contains`, `decodeNil`, `decode`).
        @inline(__always)
        func decodeColumnIfPresent<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ key: Key) throws -> Value? {
            try withRow(forKey: key) { row in
                let planIndex = self.planIndex
                if planIndex >= 0 {
                    let keyBits = CodingKeyBits.bits(of: key)
                    let index: Int
                    if let planned = row.plannedColumnIndex(plan: planIndex, keyBits: keyBits) {
                        index = planned
                    } else {
                        // A missing column is looked up again at each row.
                        guard let found = row.index(forColumn: column(key, in: row)) else { return nil }
                        row.recordPlannedColumn(plan: planIndex, keyBits: keyBits, columnIndex: found)
                        index = found
                    }
                    // Cursor rows of a column plan have a raw statement.
                    if sqlite3_column_type(row.sqliteStatement.unsafelyUnwrapped, CInt(index)) == SQLITE_NULL {
                        return nil
                    }
                    return try row.decodeColumn(atIndex: index) as Value
                }
                guard let index = row.index(forColumn: column(key, in: row)), !row.hasNull(atIndex: index) else {
                    return nil
                }
                return try row.decode(Value.self, atIndex: index)
            }
        }

        /// The index of the column of a key, in a cursor row.
        ///
        /// - Throws: ``RowDecodingError/columnNotFound(_:row:)``.
        func columnIndex(_ key: Key, in row: Row) throws -> Int {
            let column = column(key, in: row)
            guard let index = row.index(forColumn: column) else {
                throw RowDecodingError.columnNotFound(column, row: row)
            }
            return index
        }

        var allKeys: [Key] {
            // Empty when the container may no longer read its row.
            ((try? row(codingPath: []))?.columnNames ?? []).compactMap { Key(stringValue: $0) }
        }

        @inline(__always)
        func column(_ key: Key, in row: Row) -> String {
            usesDefaultKeys ? key.stringValue : recordType.databaseColumnDecodingStrategy.column(for: key, in: row)
        }

        func contains(_ key: Key) -> Bool {
            // False when the container may no longer read its row: decoding
            // the key then throws.
            // The records of joined requests are keys too: scopes and
            // prefetched rows.
            (try? withRow(forKey: key) { row in
                row.hasColumn(column(key, in: row))
                    || row.scopesTree[key.stringValue] != nil
                    || row.prefetchedRows[key.stringValue] != nil
            }) ?? false
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            try withRow(forKey: key) { row in
                guard let index = row.index(forColumn: column(key, in: row)) else {
                    // A scope is nil when all its values are NULL (a missing
                    // optional record); prefetched rows are never nil.
                    if let scope = row.scopesTree[key.stringValue] { return !scope.containsNonNullValue }
                    if row.prefetchedRows[key.stringValue] != nil { return false }
                    return true
                }
                return row.hasNull(atIndex: index)
            }
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
            let row = try row(codingPath: [key])
            guard let index = row.index(forColumn: column(key, in: row)) else {
                // The records of joined requests: scopes and prefetched rows.
                if !(T.self is any DatabaseValueConvertible.Type) {
                    if let scope = row.scopesTree[key.stringValue] {
                        guard scope.containsNonNullValue else { return nil }
                        return try RecordDecoder.decodeRecord(T.self, from: scope, recordType: recordType)
                    }
                    if let rows = row.prefetchedRows[key.stringValue] {
                        return try RecordDecoder.decodeCollection(T.self, from: rows, recordType: recordType, key: key)
                    }
                }
                return nil
            }
            if row.hasNull(atIndex: index) {
                // A type may read NULL as a value of its own (DatabaseValue
                // reads `.null`): ask it before giving nil, as GRDB does.
                if let convertible = T.self as? any DatabaseValueConvertible.Type,
                   let value = convertible.fromDatabaseValue(.null) as? T
                {
                    return value
                }
                return nil
            }
            return try decode(type, atIndex: index, key: key, row: row)
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let row = try row(codingPath: [key])
            let columnName = column(key, in: row)
            guard let index = row.index(forColumn: columnName) else {
                // A missing column decodes as nil when T is optional.
                if let optional = T.self as? any _OptionalDecodable.Type, let value = optional.nilValue as? T {
                    return value
                }
                if !(T.self is any DatabaseValueConvertible.Type) {
                    return try decodeRecord(type, forKey: key, row: row, columnName: columnName)
                }
                throw RowDecodingError.columnNotFound(columnName, row: row)
            }
            return try decode(type, atIndex: index, key: key, row: row)
        }

        /// Decodes a record that is not stored in a column: from the scope
        /// of its key (an included association), from the prefetched rows
        /// of its key (`including(all:)`), or from the row itself (the
        /// base record of a joined request: `BookInfo.book`).
        private func decodeRecord<T: Decodable>(_ type: T.Type, forKey key: Key, row: Row, columnName: String) throws -> T {
            let name = key.stringValue
            if let scope = row.scopesTree[name] {
                return try RecordDecoder.decodeRecord(T.self, from: scope, recordType: recordType)
            }
            if let rows = row.prefetchedRows[name] {
                return try RecordDecoder.decodeCollection(T.self, from: rows, recordType: recordType, key: key)
            }
            do {
                if T.self is any FetchableRecord.Type {
                    return try RecordDecoder.decodeRecord(T.self, from: row, recordType: recordType)
                }
                // A value that reads a single value is not decoded from the
                // first column of the row: its column is missing.
                return try T(from: RecordDecoder.BaseRowDecoder(decoder: RecordDecoder(row: row, recordType: recordType), missingColumn: columnName))
            } catch let error as RowDecodingError {
                // The row has scopes: say which, when the key matches none.
                let scopes = row.scopesTree.names
                let prefetched = row.prefetchedRows.keys
                guard case .keyNotFound = error, !(scopes.isEmpty && prefetched.isEmpty) else { throw error }
                throw RowDecodingError.missingScope(name, columnName: columnName, row: row, scopes: scopes, prefetchedKeys: prefetched)
            }
        }

        private func decode<T: Decodable>(_ type: T.Type, atIndex index: Int, key: Key, row: Row) throws -> T {
            // Dates and data follow the strategies of the record, column
            // by column.
            if T.self == Date.self {
                let dbValue: DatabaseValue = row[index]
                let strategy = recordType.databaseDateDecodingStrategy(for: column(key, in: row))
                guard let date = strategy.decode(dbValue) else {
                    throw RowDecodingError.conversionFailure(Date.self, row: row, columnIndex: index)
                }
                // The cast succeeds: T is Date.
                if let date = date as? T { return date }
            }
            if T.self == Data.self {
                let dbValue: DatabaseValue = row[index]
                let strategy = recordType.databaseDataDecodingStrategy(for: column(key, in: row))
                guard let data = strategy.decode(dbValue) else {
                    throw RowDecodingError.conversionFailure(Data.self, row: row, columnIndex: index)
                }
                // The cast succeeds: T is Data.
                if let data = data as? T { return data }
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
            guard let data = row._borrowedData(atIndex: index) else {
                throw RowDecodingError.conversionFailure(T.self, row: row, columnIndex: index)
            }
            do {
                // Chosen by the coding key, as the JSON encoder.
                return try recordType.databaseJSONDecoder(for: key.stringValue).decode(T.self, from: data)
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
            RecordDecoder(row: try row(codingPath: []), recordType: recordType)
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            RecordDecoder(row: try row(codingPath: [key]), recordType: recordType)
        }
    }

    /// The keyed container of a record decoded from a row that does not
    /// cache its containers (a copied row, mostly): it retains the row, and
    /// keeps working after the record was decoded, unless the row reads a
    /// statement that has moved on. Each call puts the row in the decoding
    /// slot of the thread, for the inner container, which reads the row of
    /// the slot whatever its serial number (rows that do not cache
    /// containers are read by several threads at once, and have none).
    ///
    /// Each call costs two atomic operations (the retain and release of the
    /// slot), and each copy by the standard library two more: rows that are
    /// decoded many times cache their containers instead.
    struct RetainingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let row: Row
        /// A container that reads the row of the slot (serial number zero).
        private let inner: KeyedContainer<Key>

        init(row: Row, recordType: any FetchableRecord.Type, usesDefaultKeys: Bool) {
            self.row = row
            self.inner = KeyedContainer(rowSerial: 0, recordType: recordType, usesDefaultKeys: usesDefaultKeys, planIndex: -1)
        }

        var codingPath: [any CodingKey] { [] }

        /// Runs `body` with the inner container, with the row in the
        /// decoding slot.
        ///
        /// - Throws: A `DecodingError` when the row reads a statement and no
        ///   record is being decoded from it any longer.
        @inline(__always)
        private func run<T>(_ codingPath: @autoclosure () -> [any CodingKey], _ body: (KeyedContainer<Key>) throws -> T) throws -> T {
            // Only a statement row has a decoding depth; containers are not
            // Sendable: this runs on the thread that decodes the row.
            if _slowPath(row.readsStatement && row.decodingDepth == 0) {
                throw RecordDecoder.usedAfterDecoding(codingPath: codingPath())
            }
            return try Row.decodingSlot.with(row) { try body(inner) }
        }

        var allKeys: [Key] { (try? run([]) { $0.allKeys }) ?? [] }
        func contains(_ key: Key) -> Bool { (try? run([key]) { $0.contains(key) }) ?? false }
        func decodeNil(forKey key: Key) throws -> Bool { try run([key]) { try $0.decodeNil(forKey: key) } }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try run([key]) { try $0.decode(type, forKey: key) } }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try run([key]) { try $0.decode(type, forKey: key) } }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try run([key]) { try $0.decode(type, forKey: key) } }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try run([key]) { try $0.decode(type, forKey: key) } }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try run([key]) { try $0.decode(type, forKey: key) } }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try run([key]) { try $0.decode(type, forKey: key) } }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try run([key]) { try $0.decode(type, forKey: key) } }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try run([key]) { try $0.decode(type, forKey: key) } }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try run([key]) { try $0.decode(type, forKey: key) } }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try run([key]) { try $0.decode(type, forKey: key) } }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try run([key]) { try $0.decode(type, forKey: key) } }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try run([key]) { try $0.decode(type, forKey: key) } }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try run([key]) { try $0.decode(type, forKey: key) } }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try run([key]) { try $0.decode(type, forKey: key) } }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try run([key]) { try $0.decode(type, forKey: key) } }
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try run([key]) { try $0.decodeIfPresent(type, forKey: key) } }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try run([key]) { try $0.decodeIfPresent(type, forKey: key) } }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try run([key]) { try $0.decodeIfPresent(type, forKey: key) } }
        func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try run([key]) { try $0.decodeIfPresent(type, forKey: key) } }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try run([key]) { try $0.decodeIfPresent(type, forKey: key) } }
        func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try run([key]) { try $0.decodeIfPresent(type, forKey: key) } }
        func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try run([key]) { try $0.decodeIfPresent(type, forKey: key) } }
        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try run([key]) { try $0.decodeIfPresent(type, forKey: key) } }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try run([key]) { try $0.decodeIfPresent(type, forKey: key) } }
        func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try run([key]) { try $0.decodeIfPresent(type, forKey: key) } }
        func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try run([key]) { try $0.decodeIfPresent(type, forKey: key) } }
        func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try run([key]) { try $0.decodeIfPresent(type, forKey: key) } }
        func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try run([key]) { try $0.decodeIfPresent(type, forKey: key) } }
        func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try run([key]) { try $0.decodeIfPresent(type, forKey: key) } }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try run([key]) { try $0.decodeIfPresent(type, forKey: key) } }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try inner.nestedContainer(keyedBy: type, forKey: key)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try inner.nestedUnkeyedContainer(forKey: key)
        }
        func superDecoder() throws -> any Decoder { try run([]) { _ in RecordDecoder(row: row, recordType: inner.recordType) } }
        func superDecoder(forKey key: Key) throws -> any Decoder {
            try run([key]) { _ in RecordDecoder(row: row, recordType: inner.recordType) }
        }
    }
}

extension RecordDecoder {
    // MARK: Records of joined requests

    /// Decodes a record from a row: with `init(row:)` for a
    /// ``FetchableRecord``, and with a decoder of the row otherwise.
    static func decodeRecord<T: Decodable>(_ type: T.Type, from row: Row, recordType: any FetchableRecord.Type) throws -> T {
        if let fetchable = T.self as? any FetchableRecord.Type {
            // The cast succeeds: the record is a T.
            return try fetchable.init(row: row) as! T
        }
        let scope = row._beginDecoding()
        defer { row._endDecoding(scope) }
        return try T(from: RecordDecoder(row: row, recordType: recordType))
    }

    /// Decodes a collection (an array, a set…) of records from prefetched
    /// rows.
    static func decodeCollection<T: Decodable>(_ type: T.Type, from rows: [Row], recordType: any FetchableRecord.Type, key: some CodingKey) throws -> T {
        try T(from: PrefetchedRowsDecoder(rows: rows, recordType: recordType, codingPath: [key]))
    }

    /// Decodes a collection from prefetched rows: an unkeyed container of
    /// records.
    struct PrefetchedRowsDecoder: Decoder {
        let rows: [Row]
        let recordType: any FetchableRecord.Type
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { recordType.databaseDecodingUserInfo }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            throw DecodingError.typeMismatch([String: Any].self, DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "prefetched rows decode as a collection (an array or a set), not as a keyed value"))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            RowsContainer(rows: rows, recordType: recordType, codingPath: codingPath)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            throw DecodingError.typeMismatch([Any].self, DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "prefetched rows decode as a collection (an array or a set), not as a single value"))
        }
    }

    /// The rows of a prefetched association, one record each.
    struct RowsContainer: UnkeyedDecodingContainer {
        let rows: [Row]
        let recordType: any FetchableRecord.Type
        let codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { rows.count }
        var isAtEnd: Bool { currentIndex >= rows.count }

        init(rows: [Row], recordType: any FetchableRecord.Type, codingPath: [any CodingKey]) {
            self.rows = rows
            self.recordType = recordType
            self.codingPath = codingPath
        }

        private mutating func nextRow() throws -> Row {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(Row.self, DecodingError.Context(
                    codingPath: codingPath, debugDescription: "no more prefetched rows"))
            }
            defer { currentIndex += 1 }
            return rows[currentIndex]
        }

        mutating func decodeNil() throws -> Bool { false }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let row = try nextRow()
            if let convertible = T.self as? any DatabaseValueConvertible.Type {
                // A collection of values: the first column of each row.
                guard !row.isEmpty, let value = try convertible.decodeValue(from: row, atIndex: 0) as? T else {
                    throw RowDecodingError.conversionFailure(T.self, row: row, columnIndex: 0)
                }
                return value
            }
            return try RecordDecoder.decodeRecord(T.self, from: row, recordType: recordType)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            let row = try nextRow()
            return try RecordDecoder(row: row, recordType: recordType).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch([Any].self, DecodingError.Context(
                codingPath: codingPath, debugDescription: "a prefetched row cannot be decoded as a collection"))
        }

        mutating func superDecoder() throws -> any Decoder {
            RecordDecoder(row: try nextRow(), recordType: recordType)
        }
    }

    /// Decodes the base record of a joined request from the whole row, as
    /// a keyed value only.
    struct BaseRowDecoder: Decoder {
        let decoder: RecordDecoder
        /// The column of the key that the row does not have.
        let missingColumn: String
        var codingPath: [any CodingKey] { decoder.codingPath }
        var userInfo: [CodingUserInfoKey: Any] { decoder.userInfo }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            // The record that decodes this one is being decoded from the
            // same row: the container may read it.
            try decoder.container(keyedBy: type)
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw RowDecodingError.columnNotFound(missingColumn, row: decoder.row)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            throw RowDecodingError.columnNotFound(missingColumn, row: decoder.row)
        }
    }

    // MARK: Single value container

    /// Decodes a record whose `init(from:)` reads a single value, from the
    /// first column of the row.
    struct SingleValueContainer: SingleValueDecodingContainer {
        let decoder: RecordDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }

        /// Whether the container may still read its row (see
        /// ``RecordDecoder``).
        var canReadRow: Bool {
            !decoder.row.readsStatement || decoder.row.isBeingDecoded
        }

        func decodeNil() -> Bool {
            // False when the row can no longer be read: decoding then throws.
            guard canReadRow else { return false }
            return decoder.row.isEmpty || decoder.row.hasNull(atIndex: 0)
        }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            guard canReadRow else { throw RecordDecoder.usedAfterDecoding(codingPath: codingPath) }
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
