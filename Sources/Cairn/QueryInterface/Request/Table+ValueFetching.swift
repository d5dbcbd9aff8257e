// The requests of a `Table` whose rows decode as plain values
// (`Table<String>("name").fetchAll(db)`), and the array forms of its
// ordering and annotation methods, as GRDB's `Table<RowDecoder>` has them.

extension Table {
    /// A request of the rows of the table, sorted by the orderings.
    ///
    /// ```swift
    /// let request = Table<Player>("player").order([Column("score").desc, Column("name")])
    /// ```
    public func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<RowDecoder> {
        all().order(orderings)
    }

    /// A request of the rows of the table, with the selection appended
    /// to the columns of the table.
    ///
    /// ```swift
    /// let request = Table("player").annotated(with: [Column("score") * 2])
    /// ```
    public func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: selection)
    }
}

extension Table where RowDecoder: DatabaseValueConvertible {
    /// Returns a cursor over the values of the first column of the table's
    /// rows.
    ///
    /// ```swift
    /// let names = try Table<String>("name").fetchCursor(db)
    /// while let name = try names.next() { ... }
    /// ```
    ///
    /// - Throws: A ``DatabaseError``; the cursor throws a
    ///   ``RowDecodingError`` for a value that does not convert.
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> {
        try all().fetchCursor(db)
    }

    /// Returns the values of the first column of the table's rows.
    ///
    /// - Throws: A ``DatabaseError``, or a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        try all().fetchAll(db)
    }

    /// Returns the value of the first column of the table's first row, or
    /// nil when the table is empty.
    ///
    /// - Throws: A ``DatabaseError``, or a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        try all().fetchOne(db)
    }
}

extension Table where RowDecoder: DatabaseValueConvertible & Hashable {
    /// Returns the set of the values of the first column of the table's
    /// rows.
    ///
    /// - Throws: A ``DatabaseError``, or a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try all().fetchSet(db)
    }
}

extension Table where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible {
    /// Returns a cursor over the values of the first column of the table's
    /// rows, read directly from the statement.
    ///
    /// ```swift
    /// let scores = try Table<Int>("score").fetchCursor(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError``; the cursor throws a
    ///   ``RowDecodingError`` for a value that does not convert.
    public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> {
        try all().fetchCursor(db)
    }

    /// Returns the values of the first column of the table's rows, read
    /// directly from the statement.
    ///
    /// - Throws: A ``DatabaseError``, or a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        try all().fetchAll(db)
    }

    /// Returns the value of the first column of the table's first row, read
    /// directly from the statement, or nil when the table is empty.
    ///
    /// - Throws: A ``DatabaseError``, or a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        try all().fetchOne(db)
    }
}

extension Table where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible & Hashable {
    /// Returns the set of the values of the first column of the table's
    /// rows, read directly from the statement.
    ///
    /// - Throws: A ``DatabaseError``, or a ``RowDecodingError`` for a value
    ///   that does not convert.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try all().fetchSet(db)
    }
}
