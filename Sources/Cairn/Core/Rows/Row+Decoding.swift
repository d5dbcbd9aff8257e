// Reading values from rows: subscripts (which stop the program on a value
// that does not convert, as documented by the GRDB guides) and throwing
// `decode` methods.

import Foundation

extension Row {
    // MARK: Subscripts by index

    /// The value at `index`: nil for NULL, or an Int64, Double, String or
    /// Data.
    ///
    /// - Precondition: `index` is a valid column index.
    public subscript(_ index: Int) -> (any DatabaseValueConvertible)? {
        checkIndex(index)
        return databaseValue(atUncheckedIndex: index).storageValue
    }

    /// The value at `index`, converted to `Value`.
    ///
    /// ```swift
    /// let name: String = row[0]
    /// let score: Int? = row[1]   // nil for NULL
    /// ```
    ///
    /// - Precondition: `index` is a valid column index, and the value
    ///   converts to `Value` (use ``decode(_:atIndex:)-4ljdf`` to get a thrown
    ///   error instead).
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        checkIndex(index)
        if let copiedValues {
            if let value = Value.fromDatabaseValue(copiedValues[valuesOffset &+ index]) {
                return value
            }
        } else if let value = Value.fromDatabaseValue(databaseValue(atUncheckedIndex: index)) {
            return value
        }
        decodingFailure(Value.self, atIndex: index)
    }

    /// The value at `index`, read directly from the statement when the row
    /// comes from a cursor.
    ///
    /// - Precondition: `index` is a valid column index, and the value
    ///   converts to `Value` (use ``decode(_:atIndex:)-4ljdf`` to get a thrown
    ///   error instead).
    @inlinable @inline(__always)
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ index: Int) -> Value {
        checkIndex(index)
        if let sqliteStatement {
            _checkStatementAccess()
            if let value = Value.fromStatement(sqliteStatement, atUncheckedIndex: CInt(index)) {
                return value
            }
        } else if let adaptedSQLiteStatement, case .adapted(_, let layout) = storage {
            // A row adapted from a cursor row (the scope of a joined
            // request) reads its base statement directly too.
            _checkStatementAccess()
            if let value = Value.fromStatement(adaptedSQLiteStatement, atUncheckedIndex: CInt(layout.baseIndexes[index])) {
                return value
            }
        } else if let copiedValues {
            if let value = Value.fromDatabaseValue(copiedValues[valuesOffset &+ index]) {
                return value
            }
        } else if let value = Value.fromDatabaseValue(databaseValue(atUncheckedIndex: index)) {
            return value
        }
        decodingFailure(Value.self, atIndex: index)
    }

    // MARK: Subscripts by column name

    /// The value of the leftmost column named `columnName`: nil for NULL or
    /// a missing column, or an Int64, Double, String or Data.
    public subscript(_ columnName: String) -> (any DatabaseValueConvertible)? {
        guard let index = index(forColumn: columnName) else { return nil }
        return databaseValue(atUncheckedIndex: index).storageValue
    }

    /// The value of the leftmost column named `columnName`, converted to
    /// `Value`.
    ///
    /// ```swift
    /// let name: String = row["name"]
    /// let score: Int? = row["score"]   // nil for NULL or a missing column
    /// ```
    ///
    /// - Precondition: the column exists (unless `Value` is optional), and
    ///   its value converts to `Value` (use ``decode(_:forColumn:)-1qboz`` to get a
    ///   thrown error instead).
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ columnName: String) -> Value {
        guard let index = index(forColumn: columnName) else {
            if let value = Value.fromMissingColumn() { return value }
            missingColumnFailure(columnName)
        }
        if let value = Value.fromDatabaseValue(databaseValue(atUncheckedIndex: index)) {
            return value
        }
        decodingFailure(Value.self, atIndex: index)
    }

    /// The value of the leftmost column named `columnName`, read directly
    /// from the statement when the row comes from a cursor.
    ///
    /// - Precondition: the column exists (unless `Value` is optional), and
    ///   its value converts to `Value` (use ``decode(_:forColumn:)-1qboz`` to get a
    ///   thrown error instead).
    @inlinable @inline(__always)
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ columnName: String) -> Value {
        guard let index = index(forColumn: columnName) else {
            if let value = Value.fromMissingColumn() { return value }
            missingColumnFailure(columnName)
        }
        if let sqliteStatement {
            // index(forColumn:) checked the access of the statement row.
            if let value = Value.fromStatement(sqliteStatement, atUncheckedIndex: CInt(index)) {
                return value
            }
        } else if let adaptedSQLiteStatement, case .adapted(_, let layout) = storage {
            // A row adapted from a cursor row (the scope of a joined
            // request) reads its base statement directly too.
            _checkStatementAccess()
            if let value = Value.fromStatement(adaptedSQLiteStatement, atUncheckedIndex: CInt(layout.baseIndexes[index])) {
                return value
            }
        } else if let value = Value.fromDatabaseValue(databaseValue(atUncheckedIndex: index)) {
            return value
        }
        decodingFailure(Value.self, atIndex: index)
    }

    // MARK: Throwing decoding

    /// Returns the value at `index`, converted to `Value`.
    ///
    /// ```swift
    /// let score = try row.decode(Int.self, atIndex: 1)
    /// ```
    ///
    /// - Throws: A ``RowDecodingError`` when the index is out of range, or
    ///   when the value does not convert (NULL for a non-optional, a value
    ///   out of the type's range…).
    @inlinable
    public func decode<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self,
        atIndex index: Int) throws -> Value
    {
        guard index >= 0 && index < count else {
            throw RowDecodingError.indexOutOfRange(index, row: self)
        }
        if let value = Value.fromDatabaseValue(databaseValue(atUncheckedIndex: index)) {
            return value
        }
        throw RowDecodingError.conversionFailure(Value.self, row: self, columnIndex: index)
    }

    /// Returns the value at `index`, read directly from the statement when
    /// the row comes from a cursor.
    ///
    /// - Throws: A ``RowDecodingError`` when the index is out of range, or
    ///   when the value does not convert.
    @inlinable
    public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self,
        atIndex index: Int) throws -> Value
    {
        guard index >= 0 && index < count else {
            throw RowDecodingError.indexOutOfRange(index, row: self)
        }
        if let sqliteStatement {
            _checkStatementAccess()
            if let value = Value.fromStatement(sqliteStatement, atUncheckedIndex: CInt(index)) {
                return value
            }
        } else if let adaptedSQLiteStatement, case .adapted(_, let layout) = storage {
            // A row adapted from a cursor row reads its base statement
            // directly too.
            _checkStatementAccess()
            if let value = Value.fromStatement(adaptedSQLiteStatement, atUncheckedIndex: CInt(layout.baseIndexes[index])) {
                return value
            }
        } else if let value = Value.fromDatabaseValue(databaseValue(atUncheckedIndex: index)) {
            return value
        }
        throw RowDecodingError.conversionFailure(Value.self, row: self, columnIndex: index)
    }

    /// Returns the value of the leftmost column named `columnName`,
    /// converted to `Value`.
    ///
    /// ```swift
    /// let score = try row.decode(Int.self, forColumn: "score")
    /// let bonus = try row.decode(Int?.self, forColumn: "bonus") // nil for NULL or a missing column
    /// ```
    ///
    /// - Throws: A ``RowDecodingError`` when the column is missing (and
    ///   `Value` is not optional), or when the value does not convert.
    @inlinable
    public func decode<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self,
        forColumn columnName: String) throws -> Value
    {
        guard let index = index(forColumn: columnName) else {
            if let value = Value.fromMissingColumn() { return value }
            throw RowDecodingError.columnNotFound(columnName, row: self)
        }
        return try decode(Value.self, atIndex: index)
    }

    /// Returns the value of the leftmost column named `columnName`, read
    /// directly from the statement when the row comes from a cursor.
    ///
    /// - Throws: A ``RowDecodingError`` when the column is missing (and
    ///   `Value` is not optional), or when the value does not convert.
    @inlinable
    public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self,
        forColumn columnName: String) throws -> Value
    {
        guard let index = index(forColumn: columnName) else {
            if let value = Value.fromMissingColumn() { return value }
            throw RowDecodingError.columnNotFound(columnName, row: self)
        }
        return try decode(Value.self, atIndex: index)
    }

    /// Returns the value of the leftmost column named `columnName`, or nil
    /// when the column is missing or NULL.
    ///
    /// - Throws: A ``RowDecodingError`` when the value is not NULL and does
    ///   not convert.
    @inlinable
    public func decodeIfPresent<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self,
        forColumn columnName: String) throws -> Value?
    {
        try decode(Value?.self, forColumn: columnName)
    }

    // MARK: Coalescing

    /// The first value of the given columns that is not NULL, converted to
    /// `Value`; nil when all are NULL or missing.
    ///
    /// ```swift
    /// // The nickname, or the name when there is no nickname:
    /// let displayName: String? = row.coalesce(["nickname", "name"])
    /// ```
    ///
    /// - Precondition: the value converts to `Value` (as with the
    ///   subscripts; use ``decode(_:forColumn:)-1qboz`` to catch the error).
    public func coalesce<Value: DatabaseValueConvertible>(_ columns: some Collection<String>) -> Value? {
        for column in columns {
            guard let index = index(forColumn: column) else { continue }
            let dbValue = databaseValue(atUncheckedIndex: index)
            if dbValue.isNull { continue }
            guard let value = Value.fromDatabaseValue(dbValue) else {
                decodingFailure(Value.self, atIndex: index)
            }
            return value
        }
        return nil
    }

    /// The first value of the given columns that is not NULL, converted to
    /// `Value`; nil when all are NULL or missing (see ``coalesce(_:)-(Collection<String>)``).
    ///
    /// ```swift
    /// let displayName: String? = row.coalesce([Column("nickname"), Column("name")])
    /// ```
    public func coalesce<Value: DatabaseValueConvertible>(_ columns: some Collection<some ColumnExpression>) -> Value? {
        coalesce(columns.map(\.name))
    }

    // MARK: Data

    /// Calls `body` with the BLOB at `index` (nil for NULL), and returns its
    /// result. Text is given as its UTF-8 bytes.
    ///
    /// ```swift
    /// let count = try row.withUnsafeData(atIndex: 0) { data in data?.count ?? 0 }
    /// ```
    ///
    /// `Data` is a value that `body` may keep: for the row of a cursor, it
    /// is a copy of the bytes of the statement, which SQLite frees when the
    /// cursor steps (see ``dataNoCopy(atIndex:)``).
    ///
    /// - Throws: A ``RowDecodingError`` when the index is out of range, or
    ///   the error of `body`.
    public func withUnsafeData<T>(atIndex index: Int, _ body: (Data?) throws -> T) throws -> T {
        guard index >= 0 && index < count else {
            throw RowDecodingError.indexOutOfRange(index, row: self)
        }
        return try body(dataNoCopy(atIndex: index))
    }

    /// Calls `body` with the BLOB of the leftmost column of this name (nil
    /// for NULL or a missing column), and returns its result (see
    /// ``withUnsafeData(atIndex:_:)``).
    ///
    /// - Throws: The error of `body`.
    public func withUnsafeData<T>(named columnName: String, _ body: (Data?) throws -> T) throws -> T {
        try body(dataNoCopy(named: columnName))
    }

    /// Calls `body` with the BLOB of a column (nil for NULL or a missing
    /// column), and returns its result (see ``withUnsafeData(atIndex:_:)``).
    ///
    /// - Throws: The error of `body`.
    public func withUnsafeData<T>(at column: some ColumnExpression, _ body: (Data?) throws -> T) throws -> T {
        try body(dataNoCopy(named: column.name))
    }

    // MARK: Failures

    /// Stops the program for a value that does not convert, with the
    /// description of the ``RowDecodingError`` that `decode` would throw.
    @usableFromInline
    func decodingFailure<Value>(_ type: Value.Type, atIndex index: Int) -> Never {
        let error = RowDecodingError.conversionFailure(Value.self, row: self, columnIndex: index)
        stopProgram("\(error) (use Row.decode(_:forColumn:) to catch conversion errors)")
    }

    /// Stops the program for a missing column.
    @usableFromInline
    func missingColumnFailure(_ columnName: String) -> Never {
        let error = RowDecodingError.columnNotFound(columnName, row: self)
        stopProgram("\(error) (use an optional type, or Row.decode(_:forColumn:) to catch the error)")
    }
}

extension DatabaseValue {
    /// The wrapped value: nil for NULL, or an Int64, Double, String or Data.
    var storageValue: (any DatabaseValueConvertible)? {
        switch storage {
        case .null: return nil
        case .int64(let int64): return int64
        case .double(let double): return double
        case .string(let string): return string
        case .blob(let data): return data
        }
    }
}

// MARK: - Columns of records

// The column reads of record decoders (see
// `Records/FetchableRecord+Decodable.swift`): decoding a column of a row has
// one home, here.

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
            // A row of a raw statement has a statement. The constant
            // property of the row is borrowed for the call, with no retain.
            let index = statement.unsafelyUnwrapped._index(ofColumn: column)
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
