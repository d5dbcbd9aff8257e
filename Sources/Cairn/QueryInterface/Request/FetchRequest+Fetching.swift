// Fetching rows and values from requests.

extension FetchRequest where RowDecoder == Row {
    /// Returns a cursor over the rows of the request.
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchCursor(_ db: Database) throws -> RowCursor {
        try Row.fetchCursor(makePreparedRequest(db, forSingleResult: false).statement)
    }

    /// Returns an array of the rows of the request.
    ///
    /// ```swift
    /// let rows = try Table("player").fetchAll(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchAll(_ db: Database) throws -> [Row] {
        try Row.fetchAll(makePreparedRequest(db, forSingleResult: false).statement)
    }

    /// Returns a set of the rows of the request.
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchSet(_ db: Database) throws -> Set<Row> {
        try Row.fetchSet(makePreparedRequest(db, forSingleResult: false).statement)
    }

    /// Returns the first row of the request, or nil.
    ///
    /// - Throws: A ``DatabaseError``.
    public func fetchOne(_ db: Database) throws -> Row? {
        try Row.fetchOne(makePreparedRequest(db, forSingleResult: true).statement)
    }
}

extension Row {
    /// Returns a cursor over the rows of a request.
    ///
    /// - Throws: A ``DatabaseError``.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RowCursor {
        try fetchCursor(request.makePreparedRequest(db, forSingleResult: false).statement)
    }

    /// Returns an array of the rows of a request.
    ///
    /// - Throws: A ``DatabaseError``.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Row] {
        try fetchAll(request.makePreparedRequest(db, forSingleResult: false).statement)
    }

    /// Returns a set of the rows of a request.
    ///
    /// - Throws: A ``DatabaseError``.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Row> {
        try fetchSet(request.makePreparedRequest(db, forSingleResult: false).statement)
    }

    /// Returns the first row of a request, or nil.
    ///
    /// - Throws: A ``DatabaseError``.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Row? {
        try fetchOne(request.makePreparedRequest(db, forSingleResult: true).statement)
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible {
    /// Returns a cursor over the values of the first column of the request.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> {
        try RowDecoder.fetchCursor(makePreparedRequest(db, forSingleResult: false).statement)
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
        try RowDecoder.fetchAll(makePreparedRequest(db, forSingleResult: false).statement)
    }

    /// Returns the value of the first column of the first row of the
    /// request, or nil when there is no row or the value is NULL.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        try RowDecoder.fetchOne(makePreparedRequest(db, forSingleResult: true).statement)
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & Hashable {
    /// Returns a set of the values of the first column of the request.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try RowDecoder.fetchSet(makePreparedRequest(db, forSingleResult: false).statement)
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible {
    /// Returns a cursor over the values of the first column of the request,
    /// read directly from the statement.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> {
        try RowDecoder.fetchCursor(makePreparedRequest(db, forSingleResult: false).statement)
    }

    /// Returns an array of the values of the first column of the request,
    /// read directly from the statement.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        try RowDecoder.fetchAll(makePreparedRequest(db, forSingleResult: false).statement)
    }

    /// Returns the value of the first column of the first row of the
    /// request, or nil when there is no row or the value is NULL.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        try RowDecoder.fetchOne(makePreparedRequest(db, forSingleResult: true).statement)
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible & Hashable {
    /// Returns a set of the values of the first column of the request.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try RowDecoder.fetchSet(makePreparedRequest(db, forSingleResult: false).statement)
    }
}

extension DatabaseValueConvertible {
    /// Returns an array of the values of the first column of a request.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        try fetchAll(request.makePreparedRequest(db, forSingleResult: false).statement)
    }

    /// Returns the value of the first column of the first row of a request,
    /// or nil.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        try fetchOne(request.makePreparedRequest(db, forSingleResult: true).statement)
    }

    /// Returns a cursor over the values of the first column of a request.
    ///
    /// - Throws: A ``DatabaseError``.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> DatabaseValueCursor<Self> {
        try fetchCursor(request.makePreparedRequest(db, forSingleResult: false).statement)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// Returns an array of the values of the first column of a request,
    /// read directly from the statement.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        try fetchAll(request.makePreparedRequest(db, forSingleResult: false).statement)
    }

    /// Returns the value of the first column of the first row of a request,
    /// or nil.
    ///
    /// - Throws: A ``DatabaseError``, and a ``RowDecodingError`` for a value
    ///   that does not convert.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        try fetchOne(request.makePreparedRequest(db, forSingleResult: true).statement)
    }

    /// Returns a cursor over the values of the first column of a request.
    ///
    /// - Throws: A ``DatabaseError``.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> FastDatabaseValueCursor<Self> {
        try fetchCursor(request.makePreparedRequest(db, forSingleResult: false).statement)
    }
}
