// Fetching values from the first column of SQL queries. Types that also
// adopt StatementColumnConvertible take the fast path, which reads columns
// with the sqlite3_column_* functions directly.

extension DatabaseValueConvertible {
    // MARK: From a prepared statement

    /// Returns a cursor over the values of the first column of a prepared
    /// statement.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "SELECT name FROM player")
    /// let names = try String.fetchCursor(statement)
    /// while let name = try names.next() { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - statement: A prepared statement.
    ///   - arguments: When not nil, the new statement arguments.
    ///   - adapter: When not nil, a row adapter: each value is read from
    ///     the first column of the adapted row (see ``RowAdapter``).
    /// - Throws: A ``DatabaseError`` when the arguments do not fit; the
    ///   cursor throws the errors of the statement, and a
    ///   ``RowDecodingError`` for a value that does not convert (such as
    ///   NULL, when `Self` is not optional).
    @inlinable
    public static func fetchCursor(
        _ statement: Statement,
        arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> DatabaseValueCursor<Self>
    {
        try DatabaseValueCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// Returns an array of the values of the first column of a prepared
    /// statement.
    ///
    /// - Throws: A ``DatabaseError`` when the arguments do not fit or the
    ///   statement fails, and a ``RowDecodingError`` for a value that does
    ///   not convert (such as NULL, when `Self` is not optional).
    @inlinable
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> [Self] {
        var state = try DatabaseCursorState(statement: statement, arguments: arguments, oneShot: true)
        defer { state.finish() }
        let column = try RowLayout.firstBaseColumn(statement, adapter)
        var values: [Self] = []
        while try state.step() {
            guard let value = Self.fromDatabaseValue(DatabaseValue(sqliteStatement: state.sqliteStatement, index: column)) else {
                throw RowDecodingError.conversionFailure(Self.self, row: Row(statement: statement), columnIndex: Int(column))
            }
            values.append(value)
        }
        return values
    }

    /// Returns the value of the first column of the first row of a prepared
    /// statement, or nil when there is no row or the value is NULL (a
    /// ``DatabaseValue`` is ``DatabaseValue/null``, an optional type
    /// `.some(nil)`, and a type whose ``fromDatabaseValue(_:)`` reads NULL
    /// gives that value: nil only when there is no row).
    ///
    /// - Throws: A ``DatabaseError`` when the arguments do not fit or the
    ///   statement fails, and a ``RowDecodingError`` for a value that does
    ///   not convert.
    @inlinable
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Self? {
        var state = try DatabaseCursorState(statement: statement, arguments: arguments, oneShot: true)
        defer { state.finish() }
        let column = try RowLayout.firstBaseColumn(statement, adapter)
        guard try state.step() else { return nil }
        let dbValue = DatabaseValue(sqliteStatement: state.sqliteStatement, index: column)
        if dbValue.isNull {
            // As in GRDB, the type has the first word on NULL: a type that
            // represents NULL itself (`DatabaseValue.null`, `.some(nil)`
            // for an optional, a type of yours that reads NULL as one of
            // its values) gives that value, and the others nil.
            return Self.fromDatabaseValue(dbValue)
        }
        guard let value = Self.fromDatabaseValue(dbValue) else {
            throw RowDecodingError.conversionFailure(Self.self, row: Row(statement: statement), columnIndex: Int(column))
        }
        return value
    }

    // MARK: From SQL

    /// Returns a cursor over the values of the first column of an SQL query.
    ///
    /// ```swift
    /// let names = try String.fetchCursor(db, sql: "SELECT name FROM player")
    /// while let name = try names.next() { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - sql: One SQL query.
    ///   - arguments: The statement arguments.
    ///   - adapter: When not nil, a row adapter: each value is read from
    ///     the first column of the adapted row (see ``RowAdapter``).
    /// - Throws: A ``DatabaseError`` when the SQL is invalid or the
    ///   arguments do not fit; the cursor throws the errors of the statement,
    ///   and a ``RowDecodingError`` for a value that does not convert.
    @inlinable
    public static func fetchCursor(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> DatabaseValueCursor<Self>
    {
        try fetchCursor(db.implicitStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns an array of the values of the first column of an SQL query.
    ///
    /// ```swift
    /// let names = try String.fetchAll(db, sql: "SELECT name FROM player")
    /// let scores = try Int?.fetchAll(db, sql: "SELECT score FROM player") // NULL is nil
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` when the SQL is invalid, the arguments
    ///   do not fit, or the statement fails, and a ``RowDecodingError`` for a
    ///   value that does not convert (such as NULL, when `Self` is not
    ///   optional).
    @inlinable
    public static func fetchAll(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> [Self]
    {
        try fetchAll(db.implicitStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns the value of the first column of the first row of an SQL
    /// query, or nil when there is no row or the value is NULL.
    ///
    /// ```swift
    /// let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! // Int
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` when the SQL is invalid, the arguments
    ///   do not fit, or the statement fails, and a ``RowDecodingError`` for a
    ///   value that does not convert.
    @inlinable
    public static func fetchOne(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Self?
    {
        try fetchOne(db.implicitStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    /// Returns a set of the values of the first column of a prepared
    /// statement.
    ///
    /// - Throws: A ``DatabaseError`` when the arguments do not fit or the
    ///   statement fails, and a ``RowDecodingError`` for a value that does
    ///   not convert.
    @inlinable
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Set<Self> {
        try Set(DatabaseValueCursor(statement: statement, arguments: arguments, adapter: adapter))
    }

    /// Returns a set of the values of the first column of an SQL query.
    ///
    /// - Throws: A ``DatabaseError`` when the SQL is invalid, the arguments
    ///   do not fit, or the statement fails, and a ``RowDecodingError`` for a
    ///   value that does not convert.
    @inlinable
    public static func fetchSet(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Set<Self>
    {
        try fetchSet(db.implicitStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    // MARK: From a prepared statement (fast path)

    /// Returns a cursor over the values of the first column of a prepared
    /// statement.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "SELECT name FROM player")
    /// let names = try String.fetchCursor(statement)
    /// while let name = try names.next() { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - statement: A prepared statement.
    ///   - arguments: When not nil, the new statement arguments.
    ///   - adapter: When not nil, a row adapter: each value is read from
    ///     the first column of the adapted row (see ``RowAdapter``).
    /// - Throws: A ``DatabaseError`` when the arguments do not fit; the
    ///   cursor throws the errors of the statement, and a
    ///   ``RowDecodingError`` for a value that does not convert (such as
    ///   NULL, when `Self` is not optional).
    @inlinable
    public static func fetchCursor(
        _ statement: Statement,
        arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> FastDatabaseValueCursor<Self>
    {
        try FastDatabaseValueCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// Returns an array of the values of the first column of a prepared
    /// statement.
    ///
    /// - Throws: A ``DatabaseError`` when the arguments do not fit or the
    ///   statement fails, and a ``RowDecodingError`` for a value that does
    ///   not convert (such as NULL, when `Self` is not optional).
    @inlinable
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> [Self] {
        var state = try DatabaseCursorState(statement: statement, arguments: arguments, oneShot: true)
        defer { state.finish() }
        let column = try RowLayout.firstBaseColumn(statement, adapter)
        var values: [Self] = []
        while try state.step() {
            guard let value = Self.fromStatement(state.sqliteStatement, atUncheckedIndex: column) else {
                throw RowDecodingError.conversionFailure(Self.self, row: Row(statement: statement), columnIndex: Int(column))
            }
            values.append(value)
        }
        return values
    }

    /// Returns the value of the first column of the first row of a prepared
    /// statement, or nil when there is no row or the value is NULL (an
    /// optional type returns `.some(nil)` for NULL: nil only when there is
    /// no row).
    ///
    /// - Throws: A ``DatabaseError`` when the arguments do not fit or the
    ///   statement fails, and a ``RowDecodingError`` for a value that does
    ///   not convert.
    @inlinable
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Self? {
        var state = try DatabaseCursorState(statement: statement, arguments: arguments, oneShot: true)
        defer { state.finish() }
        let column = try RowLayout.firstBaseColumn(statement, adapter)
        guard try state.step() else { return nil }
        if sqlite3_column_type(state.sqliteStatement, column) == SQLITE_NULL {
            // `.some(nil)` for an optional: nil means "no row".
            if Self.self is any NullRepresentable.Type, let value = Self.fromDatabaseValue(.null) { return value }
            return nil
        }
        guard let value = Self.fromStatement(state.sqliteStatement, atUncheckedIndex: column) else {
            throw RowDecodingError.conversionFailure(Self.self, row: Row(statement: statement), columnIndex: Int(column))
        }
        return value
    }

    // MARK: From SQL (fast path)

    /// Returns a cursor over the values of the first column of an SQL query.
    ///
    /// ```swift
    /// let names = try String.fetchCursor(db, sql: "SELECT name FROM player")
    /// while let name = try names.next() { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - sql: One SQL query.
    ///   - arguments: The statement arguments.
    ///   - adapter: When not nil, a row adapter: each value is read from
    ///     the first column of the adapted row (see ``RowAdapter``).
    /// - Throws: A ``DatabaseError`` when the SQL is invalid or the
    ///   arguments do not fit; the cursor throws the errors of the statement,
    ///   and a ``RowDecodingError`` for a value that does not convert.
    @inlinable
    public static func fetchCursor(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> FastDatabaseValueCursor<Self>
    {
        try fetchCursor(db.implicitStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns an array of the values of the first column of an SQL query.
    ///
    /// ```swift
    /// let names = try String.fetchAll(db, sql: "SELECT name FROM player")
    /// let scores = try Int?.fetchAll(db, sql: "SELECT score FROM player") // NULL is nil
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` when the SQL is invalid, the arguments
    ///   do not fit, or the statement fails, and a ``RowDecodingError`` for a
    ///   value that does not convert (such as NULL, when `Self` is not
    ///   optional).
    @inlinable
    public static func fetchAll(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> [Self]
    {
        try fetchAll(db.implicitStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns the value of the first column of the first row of an SQL
    /// query, or nil when there is no row or the value is NULL.
    ///
    /// ```swift
    /// let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! // Int
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` when the SQL is invalid, the arguments
    ///   do not fit, or the statement fails, and a ``RowDecodingError`` for a
    ///   value that does not convert.
    @inlinable
    public static func fetchOne(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Self?
    {
        try fetchOne(db.implicitStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}

extension DatabaseValueConvertible where Self: Hashable & StatementColumnConvertible {
    /// Returns a set of the values of the first column of a prepared
    /// statement.
    ///
    /// - Throws: A ``DatabaseError`` when the arguments do not fit or the
    ///   statement fails, and a ``RowDecodingError`` for a value that does
    ///   not convert.
    @inlinable
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Set<Self> {
        try Set(FastDatabaseValueCursor(statement: statement, arguments: arguments, adapter: adapter))
    }

    /// Returns a set of the values of the first column of an SQL query.
    ///
    /// - Throws: A ``DatabaseError`` when the SQL is invalid, the arguments
    ///   do not fit, or the statement fails, and a ``RowDecodingError`` for a
    ///   value that does not convert.
    @inlinable
    public static func fetchSet(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Set<Self>
    {
        try fetchSet(db.implicitStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}
