// Fetching from a `Table` whose rows decode as records or values, and finding
// rows by key, as record types do (see `TableRecord+Keys.swift`).

extension Table {
    // MARK: Keys

    /// A request for the row with the given primary key.
    ///
    /// ```swift
    /// // SELECT * FROM "player" WHERE "id" = 1
    /// let request = Table("player").filter(key: 1)
    /// ```
    public func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(key: key)
    }

    /// A request for the rows with the given primary keys.
    public func filter<Keys: Sequence>(keys: Keys) -> QueryInterfaceRequest<RowDecoder>
    where Keys.Element: DatabaseValueConvertible
    {
        all().filter(keys: keys)
    }

    /// A request for the row with the given unique key, such as a composite
    /// primary key, or the columns of a unique index. A nil key gives a
    /// request that matches no row, as in GRDB.
    public func filter(key: [String: (any DatabaseValueConvertible)?]?) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(key: key)
    }

    /// A request for the rows with the given unique keys.
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(keys: keys)
    }

    /// Whether a row has the given primary key.
    ///
    /// - Throws: A ``DatabaseError``, or a ``RecordError`` for a composite
    ///   primary key.
    public func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        try !filter(key: key).isEmpty(db)
    }

    /// Whether a row has the given unique key.
    ///
    /// - Throws: A ``DatabaseError``, or a ``RecordError`` when the columns
    ///   are not a unique key.
    public func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try !filter(key: key).isEmpty(db)
    }

    /// Deletes the row with the given primary key.
    ///
    /// - Returns: Whether a row was deleted.
    /// - Throws: A ``DatabaseError``, or a ``RecordError`` for a composite
    ///   primary key.
    @discardableResult
    public func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
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
    public func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try filter(key: key).deleteAll(db) > 0
    }

    /// Deletes the rows with the given primary keys.
    ///
    /// - Returns: The number of deleted rows.
    /// - Throws: A ``DatabaseError``, or a ``RecordError`` for a composite
    ///   primary key.
    @discardableResult
    public func deleteAll<Keys: Sequence>(_ db: Database, keys: Keys) throws -> Int
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
    public func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Int {
        // No key, no statement, as in GRDB.
        if keys.isEmpty { return 0 }
        return try filter(keys: keys).deleteAll(db)
    }

    /// Whether the table has no row.
    ///
    /// - Throws: A ``DatabaseError``.
    public func isEmpty(_ db: Database) throws -> Bool {
        try all().isEmpty(db)
    }
}

extension Table where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// A request for the row with the given id.
    ///
    /// ```swift
    /// let request = Table<Player>("player").filter(id: 1)
    /// ```
    public func filter(id: RowDecoder.ID) -> QueryInterfaceRequest<RowDecoder> {
        filter(key: id)
    }

    /// A request for the rows with the given ids.
    public func filter(ids: some Collection<RowDecoder.ID>) -> QueryInterfaceRequest<RowDecoder> {
        filter(keys: ids)
    }

    /// Whether a row has the given id.
    ///
    /// - Throws: A ``DatabaseError``.
    public func exists(_ db: Database, id: RowDecoder.ID) throws -> Bool {
        try exists(db, key: id)
    }

    /// Deletes the row with the given id.
    ///
    /// - Returns: Whether a row was deleted.
    /// - Throws: A ``DatabaseError``.
    @discardableResult
    public func deleteOne(_ db: Database, id: RowDecoder.ID) throws -> Bool {
        try deleteOne(db, key: id)
    }

    /// Deletes the rows with the given ids.
    ///
    /// - Returns: The number of deleted rows.
    /// - Throws: A ``DatabaseError``.
    @discardableResult
    public func deleteAll(_ db: Database, ids: some Collection<RowDecoder.ID>) throws -> Int {
        try deleteAll(db, keys: ids)
    }
}

extension Table where RowDecoder == Row {
    /// Returns the row with the given primary key, or nil.
    ///
    /// - Throws: A ``DatabaseError``, or a ``RecordError`` for a composite
    ///   primary key.
    public func fetchOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Row? {
        // No row has a NULL primary key: no statement, as in GRDB.
        if key.databaseValue.isNull { return nil }
        return try filter(key: key).fetchOne(db)
    }

    /// Returns the row with the given unique key, or nil.
    ///
    /// - Throws: A ``DatabaseError``, or a ``RecordError`` when the columns
    ///   are not a unique key.
    public func fetchOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Row? {
        try filter(key: key).fetchOne(db)
    }
}

extension Table where RowDecoder: FetchableRecord {
    /// Returns a cursor over the records of the table.
    ///
    /// ```swift
    /// let players = try Table<Player>("player").fetchCursor(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError``; the cursor throws the errors of
    ///   decoding.
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> {
        try all().fetchCursor(db)
    }

    /// Returns the records of the table.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        try all().fetchAll(db)
    }

    /// Returns a record of the table, or nil if it is empty.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        try all().fetchOne(db)
    }

    /// Returns the record with the given primary key, or nil.
    ///
    /// ```swift
    /// let player = try Table<Player>("player").fetchOne(db, key: 1)
    /// ```
    ///
    /// - Throws: A ``DatabaseError``, a ``RecordError`` for a composite
    ///   primary key, and the errors of decoding.
    public func fetchOne(_ db: Database, key: some DatabaseValueConvertible) throws -> RowDecoder? {
        // No row has a NULL primary key: no statement, as in GRDB.
        if key.databaseValue.isNull { return nil }
        return try filter(key: key).fetchOne(db)
    }

    /// Returns the record with the given unique key, or nil.
    ///
    /// - Throws: A ``DatabaseError``, a ``RecordError`` when the columns are
    ///   not a unique key, and the errors of decoding.
    public func fetchOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> RowDecoder? {
        try filter(key: key).fetchOne(db)
    }

    /// Returns the records with the given primary keys.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    public func fetchAll<Keys: Sequence>(_ db: Database, keys: Keys) throws -> [RowDecoder]
    where Keys.Element: DatabaseValueConvertible
    {
        // No key, no statement, as in GRDB.
        if isEmptyKeyList(keys) { return [] }
        return try filter(keys: keys).fetchAll(db)
    }

    /// Returns the records with the given unique keys.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    public func fetchAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> [RowDecoder] {
        // No key, no statement, as in GRDB.
        if keys.isEmpty { return [] }
        return try filter(keys: keys).fetchAll(db)
    }
}

extension Table where RowDecoder: FetchableRecord & Hashable {
    /// Returns a set of the records of the table.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try all().fetchSet(db)
    }
}

extension Table where RowDecoder: FetchableRecord & Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// Returns the record with the given id, or nil.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    public func fetchOne(_ db: Database, id: RowDecoder.ID) throws -> RowDecoder? {
        try fetchOne(db, key: id)
    }

    /// Returns the records with the given ids.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    public func fetchAll(_ db: Database, ids: some Collection<RowDecoder.ID>) throws -> [RowDecoder] {
        try fetchAll(db, keys: ids)
    }
}
