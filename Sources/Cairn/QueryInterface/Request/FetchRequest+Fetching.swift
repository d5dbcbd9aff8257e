// Fetching rows and values from requests.

extension FetchRequest where RowDecoder == Row {
    /// Returns a cursor over the rows of the request.
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchCursor(_ db: Database) throws -> RowCursor {
        let prepared = try makePreparedRequest(db, forSingleResult: false)
        try prepared.checkCursorAllowed()
        return try Row.fetchCursor(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns an array of the rows of the request.
    ///
    /// ```swift
    /// let rows = try Table("player").fetchAll(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchAll(_ db: Database) throws -> [Row] {
        try makePreparedRequest(db, forSingleResult: false).fetchAllRows(db)
    }

    /// Returns a set of the rows of the request.
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchSet(_ db: Database) throws -> Set<Row> {
        Set(try makePreparedRequest(db, forSingleResult: false).fetchAllRows(db))
    }

    /// Returns the first row of the request, or nil.
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchOne(_ db: Database) throws -> Row? {
        try makePreparedRequest(db, forSingleResult: true).fetchOneRow(db)
    }
}

extension Row {
    /// Returns a cursor over the rows of a request.
    ///
    /// - Throws: A ``DatabaseError``.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RowCursor {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        try prepared.checkCursorAllowed()
        return try fetchCursor(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns an array of the rows of a request.
    ///
    /// - Throws: A ``DatabaseError``.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Row] {
        try request.makePreparedRequest(db, forSingleResult: false).fetchAllRows(db)
    }

    /// Returns a set of the rows of a request.
    ///
    /// - Throws: A ``DatabaseError``.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Row> {
        Set(try request.makePreparedRequest(db, forSingleResult: false).fetchAllRows(db))
    }

    /// Returns the first row of a request, or nil.
    ///
    /// - Throws: A ``DatabaseError``.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Row? {
        try request.makePreparedRequest(db, forSingleResult: true).fetchOneRow(db)
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible {
    /// Returns a cursor over the values of the first column of the request.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> {
        let prepared = try makePreparedRequest(db, forSingleResult: false)
        return try RowDecoder.fetchCursor(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns an array of the values of the first column of the request.
    ///
    /// ```swift
    /// let names = try Player.select(Column("name"), as: String.self).fetchAll(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        let prepared = try makePreparedRequest(db, forSingleResult: false)
        return try RowDecoder.fetchAll(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns the value of the first column of the first row of the
    /// request, or nil when there is no row or the value is NULL.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        let prepared = try makePreparedRequest(db, forSingleResult: true)
        return try RowDecoder.fetchOne(prepared.statement, adapter: prepared.adapter)
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & Hashable {
    /// Returns a set of the values of the first column of the request.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        let prepared = try makePreparedRequest(db, forSingleResult: false)
        return try RowDecoder.fetchSet(prepared.statement, adapter: prepared.adapter)
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible {
    /// Returns a cursor over the values of the first column of the request,
    /// read directly from the statement.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> {
        let prepared = try makePreparedRequest(db, forSingleResult: false)
        return try RowDecoder.fetchCursor(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns an array of the values of the first column of the request,
    /// read directly from the statement.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        let prepared = try makePreparedRequest(db, forSingleResult: false)
        return try RowDecoder.fetchAll(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns the value of the first column of the first row of the
    /// request, or nil when there is no row or the value is NULL.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        let prepared = try makePreparedRequest(db, forSingleResult: true)
        return try RowDecoder.fetchOne(prepared.statement, adapter: prepared.adapter)
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible & Hashable {
    /// Returns a set of the values of the first column of the request.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        let prepared = try makePreparedRequest(db, forSingleResult: false)
        return try RowDecoder.fetchSet(prepared.statement, adapter: prepared.adapter)
    }
}

extension DatabaseValueConvertible {
    /// Returns an array of the values of the first column of a request.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchAll(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns the value of the first column of the first row of a request,
    /// or nil.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        let prepared = try request.makePreparedRequest(db, forSingleResult: true)
        return try fetchOne(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns a cursor over the values of the first column of a request.
    ///
    /// - Throws: A ``DatabaseError``.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> DatabaseValueCursor<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchCursor(prepared.statement, adapter: prepared.adapter)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// Returns an array of the values of the first column of a request,
    /// read directly from the statement.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchAll(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns the value of the first column of the first row of a request,
    /// or nil.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        let prepared = try request.makePreparedRequest(db, forSingleResult: true)
        return try fetchOne(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns a cursor over the values of the first column of a request.
    ///
    /// - Throws: A ``DatabaseError``.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> FastDatabaseValueCursor<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchCursor(prepared.statement, adapter: prepared.adapter)
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    /// Returns a set of the values of the first column of a request,
    /// whatever its row decoder.
    ///
    /// ```swift
    /// let names = try String.fetchSet(db, Player.select(Column("name")))
    /// ```
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchSet(prepared.statement, adapter: prepared.adapter)
    }
}

extension DatabaseValueConvertible where Self: Hashable & StatementColumnConvertible {
    /// Returns a set of the values of the first column of a request, read
    /// directly from the statement.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchSet(prepared.statement, adapter: prepared.adapter)
    }
}

extension FetchableRecord where Self: Hashable {
    /// Returns a set of the records of a request, whatever its row decoder.
    ///
    /// ```swift
    /// let request: SQLRequest<Row> = "SELECT * FROM player"
    /// let players = try Player.fetchSet(db, request)
    /// ```
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    @inlinable
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        try request.makePreparedRequest(db, forSingleResult: false)._fetchSet(db, as: Self.self)
    }
}

extension PreparedRequest {
    /// Fetches all rows, with their prefetched rows.
    @usableFromInline
    func fetchAllRows(_ db: Database) throws -> [Row] {
        let rows = try Row.fetchAll(statement, adapter: adapter)
        if let supplementaryFetch, !rows.isEmpty {
            try supplementaryFetch(db, rows)
        }
        return rows
    }

    /// Fetches the first row, with its prefetched rows.
    @usableFromInline
    func fetchOneRow(_ db: Database) throws -> Row? {
        guard let row = try Row.fetchOne(statement, adapter: adapter) else { return nil }
        try supplementaryFetch?(db, [row])
        return row
    }

    /// Throws when the request prefetches rows, which a cursor cannot do:
    /// the prefetched rows are fetched once all rows are known.
    @usableFromInline
    func checkCursorAllowed() throws {
        guard supplementaryFetch != nil else { return }
        throw statement.database.makeError(
            resultCode: .SQLITE_MISUSE,
            message: "a cursor cannot fetch the rows of a request that prefetches associated records "
                + "with including(all:): use fetchAll, fetchSet or fetchOne",
            sql: statement.sql, arguments: nil)
    }
}

// The record fetches of requests are inlinable, and go through these
// inlinable helpers: specialized for the record type where they are called,
// the loops that build the arrays do not look the record's metadata up for
// each row, as a generic loop does.
extension PreparedRequest {
    /// Fetches all records, decoded from rows with their prefetched rows.
    @inlinable
    func _fetchAll<Record: FetchableRecord>(_ db: Database, as type: Record.Type) throws -> [Record] {
        guard supplementaryFetch != nil else {
            return try Record.fetchAll(statement, adapter: adapter)
        }
        let rows = try fetchAllRows(db)
        var records: [Record] = []
        records.reserveCapacity(rows.count)
        for row in rows {
            records.append(try Record(row: row))
        }
        return records
    }

    /// Fetches the first record, decoded from a row with its prefetched
    /// rows.
    @inlinable
    func _fetchOne<Record: FetchableRecord>(_ db: Database, as type: Record.Type) throws -> Record? {
        guard supplementaryFetch != nil else {
            return try Record.fetchOne(statement, adapter: adapter)
        }
        return try fetchOneRow(db).map { try Record(row: $0) }
    }

    /// Fetches a set of records, decoded from rows with their prefetched
    /// rows.
    @inlinable
    func _fetchSet<Record: FetchableRecord & Hashable>(_ db: Database, as type: Record.Type) throws -> Set<Record> {
        guard supplementaryFetch != nil else {
            return try Record.fetchSet(statement, adapter: adapter)
        }
        let rows = try fetchAllRows(db)
        var records = Set<Record>(minimumCapacity: rows.count)
        for row in rows {
            records.insert(try Record(row: row))
        }
        return records
    }
}
