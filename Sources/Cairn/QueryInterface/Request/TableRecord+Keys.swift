import Foundation

// Finding records by primary key or unique key.

/// Builds the conditions of key lookups.
enum KeyCondition {
    /// The condition that selects the rows with the given primary keys.
    ///
    /// - Throws: ``RecordError/invalidKey(databaseTableName:message:)`` when
    ///   the primary key of the table has several columns.
    static func primaryKey(_ db: Database, table databaseTableName: String, keys: [DatabaseValue]) throws -> SQLExpression {
        let primaryKey = try db.primaryKey(databaseTableName)
        guard primaryKey.columns.count == 1, let column = primaryKey.columns.first else {
            throw RecordError.invalidKey(
                databaseTableName: databaseTableName,
                message: "the primary key has several columns (\(primaryKey.columns.joined(separator: ", "))): "
                    + "use a dictionary key, such as [\"\(primaryKey.columns[0])\": ...]")
        }
        // The hidden rowid, or the column (an INTEGER PRIMARY KEY too).
        let expression = SQLRelation.column(column, qualifier: nil)
        let values = keys.filter { !$0.isNull }
        switch values.count {
        case 0: return .false
        case 1: return SQLExpression(impl: .binary("=", expression, .value(values[0])))
        default: return SQLExpression(impl: .isIn(expression, values.map { .value($0) }, negated: false))
        }
    }

    /// The number of keys of several columns above which they are not
    /// written one condition after the other.
    static let compositeInlineLimit = 100

    /// The condition that selects the rows with the given unique keys.
    ///
    /// - Throws: ``RecordError/invalidKey(databaseTableName:message:)`` when
    ///   the columns of a key are not a unique key of the table.
    static func uniqueKey(_ db: Database, table databaseTableName: String, keys: [[String: DatabaseValue]]) throws -> SQLExpression {
        var conditions: [SQLExpression] = []
        // The keys whose columns are all those of the first key, in the
        // order of the unique key: the rows of a long list.
        var commonColumns: [String]?
        var rowValues: [DatabaseValue] = []
        var allKeysHaveCommonColumns = true
        for key in keys {
            guard !key.isEmpty else {
                throw RecordError.invalidKey(databaseTableName: databaseTableName, message: "empty key")
            }
            guard let keyColumns = try db.uniqueKeyColumns(databaseTableName, matching: key.keys) else {
                throw RecordError.invalidKey(
                    databaseTableName: databaseTableName,
                    message: "the columns \(key.keys.sorted()) are not a primary key or unique key of the table")
            }
            // A key with a NULL value matches nothing.
            if key.values.contains(where: \.isNull) { continue }
            // The conditions follow the order of the columns of the key.
            let entries = key.sorted { lhs, rhs in
                let lhsIndex = keyColumns.firstIndex { $0.lowercased() == lhs.key.lowercased() } ?? 0
                let rhsIndex = keyColumns.firstIndex { $0.lowercased() == rhs.key.lowercased() } ?? 0
                return lhsIndex < rhsIndex
            }
            conditions.append(.associative(.and, entries.map { column, value in
                SQLExpression(impl: .binary("=", .column(column), .value(value)))
            }))
            let columns = entries.map(\.key)
            if allKeysHaveCommonColumns {
                if commonColumns == nil { commonColumns = columns }
                if let commonColumns, commonColumns.count == columns.count,
                   zip(commonColumns, columns).allSatisfy({ $0.equalsIgnoringASCIICase($1) })
                {
                    rowValues.append(contentsOf: entries.map(\.value))
                } else {
                    allKeysHaveCommonColumns = false
                }
            }
        }
        // SQLite parses `k1 OR k2 OR …` as a tree as deep as the list, and
        // refuses trees deeper than 1,000: long lists go another way.
        if conditions.count > compositeInlineLimit {
            if allKeysHaveCommonColumns, let commonColumns, commonColumns.count <= DatabaseValueArray.maximumRowWidth {
                // Any number of keys, in one argument: `(a, b) IN (SELECT
                // +c1, +c2 FROM cairn_rows(?, 2))`.
                return rowValuesCondition(columns: commonColumns, values: rowValues)
            }
            // Groups keep the tree shallow.
            return balancedDisjunction(conditions)
        }
        return .associative(.or, conditions)
    }

    /// `(a, b) IN (SELECT +c1, +c2 FROM cairn_rows(?, 2))`, where the array
    /// holds the values of the keys, row after row.
    private static func rowValuesCondition(columns: [String], values: [DatabaseValue]) -> SQLExpression {
        let width = columns.count
        let columnList = columns.map { SQL("\(SQLExpression.column($0))") }.joined(separator: ", ")
        // `+c1` has no affinity: the affinity of the column applies to the
        // values, as in a list of values.
        let selection = (1...width).map { "+c\($0)" }.joined(separator: ", ")
        let array = DatabaseValueArray(values: values)
        let literal: SQL = "(\(columnList)) IN (SELECT \(sql: selection) FROM \(sql: DatabaseValueArray.rowsFunctionName)(\(array), \(width)))"
        return SQLExpression(impl: .literal(literal))
    }

    /// The OR of conditions, as nested groups of at most 100.
    private static func balancedDisjunction(_ conditions: [SQLExpression]) -> SQLExpression {
        let groupSize = 100
        if conditions.count <= groupSize { return .associative(.or, conditions) }
        let groups = stride(from: 0, to: conditions.count, by: groupSize).map { start in
            SQLExpression(impl: .parenthesized(.associative(
                .or, Array(conditions[start..<min(start + groupSize, conditions.count)]))))
        }
        return balancedDisjunction(groups)
    }
}

extension TableRecord {
    // MARK: Primary keys

    /// A request for the record with the given primary key.
    ///
    /// ```swift
    /// // SELECT * FROM "player" WHERE "id" = ?
    /// let request = Player.filter(key: 1)
    /// ```
    public static func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<Self> {
        all().filter(key: key)
    }

    /// A request for the records with the given primary keys.
    ///
    /// ```swift
    /// // SELECT * FROM "player" WHERE "id" IN (?, ?, ?)
    /// let request = Player.filter(keys: [1, 2, 3])
    /// ```
    public static func filter<Keys: Sequence>(keys: Keys) -> QueryInterfaceRequest<Self>
    where Keys.Element: DatabaseValueConvertible
    {
        all().filter(keys: keys)
    }

    /// A request for the record with the given unique key, such as a
    /// composite primary key, or the columns of a unique index.
    ///
    /// ```swift
    /// let request = Citizenship.filter(key: ["citizenId": 1, "countryCode": "FR"])
    /// ```
    ///
    /// A nil key gives a request that matches no row, as in GRDB.
    public static func filter(key: [String: (any DatabaseValueConvertible)?]?) -> QueryInterfaceRequest<Self> {
        all().filter(key: key)
    }

    /// A request for the records with the given unique keys.
    public static func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<Self> {
        all().filter(keys: keys)
    }

    /// Whether a row has the given primary key.
    ///
    /// - Throws: A ``DatabaseError``, or a ``RecordError`` for a composite
    ///   primary key.
    public static func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        try !filter(key: key).isEmpty(db)
    }

    /// Whether a row has the given unique key.
    ///
    /// - Throws: A ``DatabaseError``, or a ``RecordError`` when the columns
    ///   are not a unique key.
    public static func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try !filter(key: key).isEmpty(db)
    }

    /// Deletes the row with the given primary key.
    ///
    /// - Returns: Whether a row was deleted.
    /// - Throws: A ``DatabaseError``, or a ``RecordError`` for a composite
    ///   primary key.
    @discardableResult
    public static func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        // No row has a NULL primary key: nothing to delete, no statement.
        if key.databaseValue.isNull { return false }
        return try filter(key: key).deleteAll(db) > 0
    }

    /// Deletes the row with the given unique key.
    ///
    /// - Returns: Whether a row was deleted.
    /// - Throws: A ``DatabaseError``, or a ``RecordError`` when the columns
    ///   are not a unique key.
    @discardableResult
    public static func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try filter(key: key).deleteAll(db) > 0
    }

    /// Deletes the rows with the given primary keys.
    ///
    /// - Returns: The number of deleted rows.
    /// - Throws: A ``DatabaseError``, or a ``RecordError`` for a composite
    ///   primary key.
    @discardableResult
    public static func deleteAll<Keys: Sequence>(_ db: Database, keys: Keys) throws -> Int
    where Keys.Element: DatabaseValueConvertible
    {
        // No key, no statement, as in GRDB.
        if isEmptyKeyList(keys) { return 0 }
        return try filter(keys: keys).deleteAll(db)
    }

    /// Deletes the rows with the given unique keys.
    ///
    /// - Returns: The number of deleted rows.
    /// - Throws: A ``DatabaseError``, or a ``RecordError``.
    @discardableResult
    public static func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Int {
        // No key, no statement, as in GRDB.
        if keys.isEmpty { return 0 }
        return try filter(keys: keys).deleteAll(db)
    }
}

extension TableRequest where Self: FilteredRequest {
    /// Filters the request by primary key. On an association, the
    /// condition applies to the associated records.
    public func filter(key: some DatabaseValueConvertible) -> Self {
        filter(keys: [key])
    }

    /// Filters the request by primary keys.
    public func filter<Keys: Sequence>(keys: Keys) -> Self where Keys.Element: DatabaseValueConvertible {
        let keys = keys.map { RecordKeyValue($0) }
        // An Encodable record encodes its UUID, Data and Date keys as it
        // encodes the values of its primary key column.
        let recordType = (RowDecoder.self as? any EncodableRecord.Type).map(EncodableRecordType.init)
        return _mapRelation { box in
            let tableName = box.relation.tableName
            box.relation.filters.append { db in
                var values = keys.map(\.databaseValue)
                if let recordType, keys.contains(where: { $0.strategyValue != nil }),
                   let column = try? db.primaryKey(tableName).columns.first
                {
                    values = keys.map { key in
                        switch key.strategyValue {
                        case .date(let date): recordType.type.databaseValue(ofKey: date, forColumn: column)
                        case .uuid(let uuid): recordType.type.databaseValue(ofKey: uuid, forColumn: column)
                        case .data(let data): recordType.type.databaseValue(ofKey: data, forColumn: column)
                        case nil: key.databaseValue
                        }
                    }
                }
                return try KeyCondition.primaryKey(db, table: tableName, keys: values)
            }
            if keys.count == 1 { box.relation.isFilteredByUniqueKey = true }
        }
    }

    /// Filters the request by unique key.
    ///
    /// A nil key gives a request that matches no row, as in GRDB.
    public func filter(key: [String: (any DatabaseValueConvertible)?]?) -> Self {
        guard let key else { return none() }
        return filter(keys: [key])
    }

    /// Filters the request by unique keys.
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> Self {
        let keys = keys.map { $0.mapValues { $0?.databaseValue ?? .null } }
        return _mapRelation { box in
            let tableName = box.relation.tableName
            box.relation.filters.append { db in try KeyCondition.uniqueKey(db, table: tableName, keys: keys) }
            if keys.count == 1 { box.relation.isFilteredByUniqueKey = true }
        }
    }
}

extension FetchableRecord where Self: TableRecord {
    /// Returns the record with the given primary key, or nil.
    ///
    /// ```swift
    /// let player = try Player.fetchOne(db, key: 1)
    /// ```
    ///
    /// - Throws: A ``DatabaseError``, a ``RecordError`` for a composite
    ///   primary key, and the errors of decoding.
    public static func fetchOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Self? {
        // No row has a NULL primary key: no statement, as in GRDB.
        if key.databaseValue.isNull { return nil }
        if let (statement, value) = try primaryKeyLookup(db, key: key) {
            return try fetchOne(statement, arguments: StatementArguments(singleValue: value))
        }
        return try filter(key: key).fetchOne(db)
    }

    /// Returns the record with the given unique key, or nil.
    ///
    /// ```swift
    /// let player = try Player.fetchOne(db, key: ["email": "arthur@example.com"])
    /// ```
    ///
    /// A nil key returns nil without running any statement, as in GRDB.
    ///
    /// - Throws: A ``DatabaseError``, a ``RecordError`` when the columns are
    ///   not a unique key, and the errors of decoding.
    public static func fetchOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]?) throws -> Self? {
        guard let key else { return nil }
        return try filter(key: key).fetchOne(db)
    }

    /// Returns the records with the given primary keys.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    public static func fetchAll<Keys: Sequence>(_ db: Database, keys: Keys) throws -> [Self]
    where Keys.Element: DatabaseValueConvertible
    {
        // No key, no statement, as in GRDB.
        if isEmptyKeyList(keys) { return [] }
        return try filter(keys: keys).fetchAll(db)
    }

    /// Returns the records with the given unique keys.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    public static func fetchAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> [Self] {
        // No key, no statement, as in GRDB.
        if keys.isEmpty { return [] }
        return try filter(keys: keys).fetchAll(db)
    }

    /// Returns a cursor over the records with the given primary keys.
    ///
    /// ```swift
    /// let players = try Player.fetchCursor(db, keys: [1, 2, 3])
    /// while let player = try players.next() { ... }
    /// ```
    ///
    /// - Throws: A ``DatabaseError``, or a ``RecordError`` for a composite
    ///   primary key; the cursor throws the errors of decoding.
    public static func fetchCursor<Keys: Sequence>(_ db: Database, keys: Keys) throws -> RecordCursor<Self>
    where Keys.Element: DatabaseValueConvertible
    {
        try filter(keys: keys).fetchCursor(db)
    }

    /// Returns a cursor over the records with the given unique keys.
    ///
    /// ```swift
    /// let citizenships = try Citizenship.fetchCursor(db, keys: [
    ///     ["citizenId": 1, "countryCode": "FR"],
    ///     ["citizenId": 2, "countryCode": "US"],
    /// ])
    /// ```
    ///
    /// - Throws: A ``DatabaseError``, or a ``RecordError`` when the columns
    ///   are not a unique key; the cursor throws the errors of decoding.
    public static func fetchCursor(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> RecordCursor<Self> {
        try filter(keys: keys).fetchCursor(db)
    }

    /// Returns the record with the given primary key, or throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)``.
    ///
    /// ```swift
    /// let player = try Player.find(db, key: 1)
    /// ```
    ///
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)``, a
    ///   ``DatabaseError``, and the errors of decoding.
    public static func find(_ db: Database, key: some DatabaseValueConvertible) throws -> Self {
        guard let record = try fetchOne(db, key: key) else {
            let column = try db.primaryKey(databaseTableName).columns.first ?? "rowid"
            throw RecordError.recordNotFound(databaseTableName: databaseTableName, key: [column: key.databaseValue])
        }
        return record
    }

    /// Returns the record with the given unique key, or throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)``.
    ///
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)``, a
    ///   ``DatabaseError``, and the errors of decoding.
    public static func find(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Self {
        guard let record = try fetchOne(db, key: key) else {
            throw RecordError.recordNotFound(
                databaseTableName: databaseTableName,
                key: key.mapValues { $0?.databaseValue ?? .null })
        }
        return record
    }
}

extension FetchableRecord where Self: TableRecord & Hashable {
    /// Returns a set of the records with the given primary keys.
    ///
    /// - Throws: A ``DatabaseError``, a ``RecordError`` for a composite
    ///   primary key, and the errors of decoding.
    public static func fetchSet<Keys: Sequence>(_ db: Database, keys: Keys) throws -> Set<Self>
    where Keys.Element: DatabaseValueConvertible
    {
        // No key, no statement, as in GRDB.
        if isEmptyKeyList(keys) { return [] }
        return try filter(keys: keys).fetchSet(db)
    }

    /// Returns a set of the records with the given unique keys.
    ///
    /// - Throws: A ``DatabaseError``, a ``RecordError`` when the columns are
    ///   not a unique key, and the errors of decoding.
    public static func fetchSet(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Set<Self> {
        // No key, no statement, as in GRDB.
        if keys.isEmpty { return [] }
        return try filter(keys: keys).fetchSet(db)
    }
}

// MARK: - Identifiable records

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// A request for the record with the given id.
    ///
    /// ```swift
    /// let request = Player.filter(id: 1)
    /// ```
    public static func filter(id: ID) -> QueryInterfaceRequest<Self> {
        filter(key: id)
    }

    /// A request for the records with the given ids.
    public static func filter(ids: some Collection<ID>) -> QueryInterfaceRequest<Self> {
        filter(keys: ids)
    }

    /// Whether a row has the given id.
    ///
    /// - Throws: A ``DatabaseError``.
    public static func exists(_ db: Database, id: ID) throws -> Bool {
        try exists(db, key: id)
    }

    /// Deletes the row with the given id.
    ///
    /// - Returns: Whether a row was deleted.
    /// - Throws: A ``DatabaseError``.
    @discardableResult
    public static func deleteOne(_ db: Database, id: ID) throws -> Bool {
        try deleteOne(db, key: id)
    }

    /// Deletes the rows with the given ids.
    ///
    /// - Returns: The number of deleted rows.
    /// - Throws: A ``DatabaseError``.
    @discardableResult
    public static func deleteAll(_ db: Database, ids: some Collection<ID>) throws -> Int {
        try deleteAll(db, keys: ids)
    }
}

extension TableRequest where Self: FilteredRequest, RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// Filters the request by id.
    public func filter(id: RowDecoder.ID) -> Self {
        filter(key: id)
    }

    /// Filters the request by ids.
    public func filter(ids: some Collection<RowDecoder.ID>) -> Self {
        filter(keys: ids)
    }
}

extension FetchableRecord where Self: TableRecord & Identifiable, ID: DatabaseValueConvertible {
    /// Returns the record with the given id, or nil.
    ///
    /// ```swift
    /// let player = try Player.fetchOne(db, id: 1)
    /// ```
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    public static func fetchOne(_ db: Database, id: ID) throws -> Self? {
        try fetchOne(db, key: id)
    }

    /// Returns the records with the given ids.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    public static func fetchAll(_ db: Database, ids: some Collection<ID>) throws -> [Self] {
        try fetchAll(db, keys: ids)
    }

    /// Returns a cursor over the records with the given ids.
    ///
    /// - Throws: A ``DatabaseError``; the cursor throws the errors of
    ///   decoding.
    public static func fetchCursor(_ db: Database, ids: some Collection<ID>) throws -> RecordCursor<Self> {
        try fetchCursor(db, keys: ids)
    }

    /// Returns the record with the given id, or throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)``.
    ///
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)``, a
    ///   ``DatabaseError``, and the errors of decoding.
    public static func find(_ db: Database, id: ID) throws -> Self {
        try find(db, key: id)
    }
}

extension FetchableRecord where Self: TableRecord & Identifiable & Hashable, ID: DatabaseValueConvertible {
    /// Returns a set of the records with the given ids.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    public static func fetchSet(_ db: Database, ids: some Collection<ID>) throws -> Set<Self> {
        try fetchSet(db, keys: ids)
    }
}

/// A key of a request: its database value, and, for the types that the
/// encoding strategies of records change (Date, UUID, Data), the value
/// itself, until the request knows the record type's strategies.
extension TableRecord {
    /// The statement of the lookup of one record by primary key, and its
    /// argument, for the common case: the default selection (`*`), a
    /// single-column primary key, and a key value that no encoding strategy
    /// of the record changes. The statement is the one the request
    /// `filter(key:)` would run (`SELECT * FROM "player" WHERE "id" = ?`),
    /// without building the request and its SQL; nil in other cases, which
    /// take the request.
    ///
    /// - Throws: A ``DatabaseError`` when the table does not exist.
    static func primaryKeyLookup(_ db: Database, key: some DatabaseValueConvertible) throws -> (Statement, DatabaseValue)? {
        // The fetches of observations go through `filter(key:)`, whose
        // region is the row of the key.
        guard db.state.recordedRegion == nil else { return nil }
        let keyValue = RecordKeyValue(key)
        guard keyValue.strategyValue == nil, !keyValue.databaseValue.isNull else { return nil }
        guard selectsAllColumns(databaseSelection) else { return nil }
        guard let sql = try db.primaryKeyLookupSQL(databaseTableName) else { return nil }
        return (try db.implicitStatement(sql: sql), keyValue.databaseValue)
    }
}

extension Database {
    /// `SELECT * FROM "table" WHERE "id" = ?`: the lookup of a row by its
    /// single-column primary key (the hidden `rowid` when there is no
    /// explicit one), kept in the schema cache; nil when the primary key has
    /// several columns.
    ///
    /// - Throws: A ``DatabaseError`` when the table does not exist.
    func primaryKeyLookupSQL(_ tableName: String) throws -> String? {
        try checkSchemaCacheVersion()
        if let last = state.schemaCache.lastPrimaryKeyLookup, last.tableName == tableName {
            return last.sql
        }
        if let sql = state.schemaCache.primaryKeyLookupSQL[tableName] {
            state.schemaCache.lastPrimaryKeyLookup = (tableName, sql)
            return sql
        }
        let primaryKey = try primaryKey(tableName)
        var sql: String?
        if primaryKey.columns.count == 1, let column = primaryKey.columns.first {
            sql = "SELECT * FROM " + tableName.quotedDatabaseIdentifier + " WHERE " + column.quotedDatabaseIdentifier + " = ?"
        }
        state.schemaCache.primaryKeyLookupSQL[tableName] = .some(sql)
        state.schemaCache.lastPrimaryKeyLookup = (tableName, sql)
        return sql
    }
}

private struct RecordKeyValue: Sendable {
    enum StrategyValue: Sendable {
        case date(Date), uuid(UUID), data(Data)
    }

    let databaseValue: DatabaseValue
    let strategyValue: StrategyValue?

    init<Value: DatabaseValueConvertible>(_ value: Value) {
        databaseValue = value.databaseValue
        // The common key types first: a comparison of metatypes, where the
        // casts below cost a dynamic cast each in generic code.
        if Value.self == Int.self || Value.self == Int64.self || Value.self == String.self {
            strategyValue = nil
        } else if let date = value as? Date {
            strategyValue = .date(date)
        } else if let uuid = value as? UUID {
            strategyValue = .uuid(uuid)
        } else if let data = value as? Data {
            strategyValue = .data(data)
        } else {
            strategyValue = nil
        }
    }
}

/// A metatype of an Encodable record, which requests keep.
private struct EncodableRecordType: @unchecked Sendable {
    // Unchecked: a metatype is an immutable reference to type metadata;
    // the filter only calls static functions of the type with Sendable
    // values (RecordKeyValue.StrategyValue).
    let type: any EncodableRecord.Type
}

/// Whether a list of keys is a collection without element: lookups by an
/// empty list run no statement, as in GRDB. The check copies nothing (a
/// copy of the keys into an array cost 430 instructions per key of
/// FetchBenchmark workload 18, in code that is generic over the sequence).
/// A sequence that is not a collection is not looked at, since reading it
/// may consume it: an empty one runs its statement, which finds no row.
func isEmptyKeyList(_ keys: some Sequence) -> Bool {
    (keys as? any Collection)?.isEmpty ?? false
}
