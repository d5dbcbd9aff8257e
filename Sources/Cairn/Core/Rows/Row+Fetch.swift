// Fetching rows from SQL.

extension Row {
    // MARK: From a prepared statement

    /// Returns a cursor over the rows of a prepared statement.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "SELECT * FROM player WHERE score > ?")
    /// let rows = try Row.fetchCursor(statement, arguments: [1000])
    /// while let row = try rows.next() { ... }
    /// ```
    ///
    /// The cursor reuses one row for all steps: copy the rows you keep.
    ///
    /// - Parameters:
    ///   - statement: A prepared statement.
    ///   - arguments: When not nil, the new statement arguments.
    ///   - adapter: When not nil, a row adapter applied to each fetched
    ///     row (see ``RowAdapter``).
    /// - Throws: A ``DatabaseError`` when the arguments do not fit; the
    ///   cursor throws the errors of the statement.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> RowCursor {
        try RowCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// Returns an array of the rows of a prepared statement.
    ///
    /// - Throws: A ``DatabaseError`` when the arguments do not fit or the
    ///   statement fails.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> [Row] {
        let cursor = try RowCursor(statement: statement, arguments: arguments, adapter: adapter)
        var rows: [Row] = []
        while let row = try cursor.next() {
            rows.append(row.copy())
        }
        return rows
    }

    /// Returns a set of the rows of a prepared statement.
    ///
    /// - Throws: A ``DatabaseError`` when the arguments do not fit or the
    ///   statement fails.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Set<Row> {
        let cursor = try RowCursor(statement: statement, arguments: arguments, adapter: adapter)
        var rows: Set<Row> = []
        while let row = try cursor.next() {
            rows.insert(row.copy())
        }
        return rows
    }

    /// Returns the first row of a prepared statement, or nil if there is
    /// none.
    ///
    /// - Throws: A ``DatabaseError`` when the arguments do not fit or the
    ///   statement fails.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Row? {
        guard adapter == nil else {
            let cursor = try RowCursor(statement: statement, arguments: arguments, adapter: adapter)
            return try cursor.next()?.copy()
        }
        // Without an adapter, the values of the first row are copied from
        // the statement: no cursor and no row view are built.
        var state = try DatabaseCursorState(statement: statement, arguments: arguments, oneShot: true)
        defer { state.finish() }
        guard try state.step() else { return nil }
        return Row(fetchedValuesOf: statement, sqliteStatement: state.sqliteStatement)
    }

    // MARK: From SQL

    /// Returns a cursor over the rows of an SQL query.
    ///
    /// ```swift
    /// let rows = try Row.fetchCursor(db, sql: "SELECT * FROM player WHERE score > ?", arguments: [1000])
    /// while let row = try rows.next() {
    ///     let name: String = row["name"]
    /// }
    /// ```
    ///
    /// The cursor reuses one row for all steps: copy the rows you keep.
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - sql: One SQL query.
    ///   - arguments: The statement arguments.
    ///   - adapter: When not nil, a row adapter applied to each fetched
    ///     row (see ``RowAdapter``).
    /// - Throws: A ``DatabaseError`` when the SQL is invalid or the
    ///   arguments do not fit; the cursor throws the errors of the statement.
    public static func fetchCursor(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> RowCursor
    {
        try fetchCursor(db.implicitStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns an array of the rows of an SQL query.
    ///
    /// ```swift
    /// let rows = try Row.fetchAll(db, sql: "SELECT * FROM player")
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` when the SQL is invalid, the arguments
    ///   do not fit, or the statement fails.
    public static func fetchAll(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> [Row]
    {
        try fetchAll(db.implicitStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns a set of the rows of an SQL query.
    ///
    /// - Throws: A ``DatabaseError`` when the SQL is invalid, the arguments
    ///   do not fit, or the statement fails.
    public static func fetchSet(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Set<Row>
    {
        try fetchSet(db.implicitStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns the first row of an SQL query, or nil if there is none.
    ///
    /// ```swift
    /// let row = try Row.fetchOne(db, sql: "SELECT * FROM player WHERE id = ?", arguments: [1])
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` when the SQL is invalid, the arguments
    ///   do not fit, or the statement fails.
    public static func fetchOne(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Row?
    {
        try fetchOne(db.implicitStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}
