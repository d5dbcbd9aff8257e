// Fetching rows and values from requests.

extension FetchRequest where RowDecoder == Row {
    /// Returns a cursor over the rows of the request.
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchCursor(_ db: Database) throws -> RowCursor {
        let prepared = try makePreparedRequest(db, forSingleResult: false)
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
        let prepared = try makePreparedRequest(db, forSingleResult: false)
        return try Row.fetchAll(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns a set of the rows of the request.
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchSet(_ db: Database) throws -> Set<Row> {
        let prepared = try makePreparedRequest(db, forSingleResult: false)
        return try Row.fetchSet(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns the first row of the request, or nil.
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchOne(_ db: Database) throws -> Row? {
        let prepared = try makePreparedRequest(db, forSingleResult: true)
        return try Row.fetchOne(prepared.statement, adapter: prepared.adapter)
    }
}

extension Row {
    /// Returns a cursor over the rows of a request.
    ///
    /// - Throws: A ``DatabaseError``.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RowCursor {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchCursor(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns an array of the rows of a request.
    ///
    /// - Throws: A ``DatabaseError``.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Row] {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchAll(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns a set of the rows of a request.
    ///
    /// - Throws: A ``DatabaseError``.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Row> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchSet(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns the first row of a request, or nil.
    ///
    /// - Throws: A ``DatabaseError``.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Row? {
        let prepared = try request.makePreparedRequest(db, forSingleResult: true)
        return try fetchOne(prepared.statement, adapter: prepared.adapter)
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
