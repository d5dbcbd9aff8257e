/// A cursor that iterates the rows of a prepared statement.
///
/// Database cursors step the statement lazily, and must be consumed inside
/// the database access that created them.
public protocol DatabaseCursor<Element>: Cursor {
    /// The statement that the cursor iterates.
    var statement: Statement { get }

    /// Advances to the next row of the statement, and returns its element,
    /// or nil when there is no more row.
    ///
    /// - Throws: The error of the statement, such as a ``DatabaseError``,
    ///   or a ``RowDecodingError`` when a row cannot be converted.
    func next() throws -> Element?

    /// Whether the iteration is over. Setting it to true ends the
    /// iteration (see `DatabaseCursor+Underscored.swift`).
    ///
    /// - Note: This requirement exists for the companion libraries of
    ///   GRDB, which read it from generic code over database cursors.
    var _isDone: Bool { get set }

    /// The statement that the cursor iterates (``statement``).
    ///
    /// - Note: This requirement exists for the companion libraries of
    ///   GRDB.
    var _statement: Statement { get }

    /// The element of the current row, as the last successful ``next()``
    /// returned it.
    ///
    /// - Throws: A ``DatabaseError`` (`SQLITE_MISUSE`) when the cursor has
    ///   no current row or `sqliteStatement` is not its statement, and the
    ///   errors of decoding.
    /// - Note: This requirement exists for the companion libraries of
    ///   GRDB.
    func _element(sqliteStatement: SQLiteStatement) throws -> Element
}

extension DatabaseCursor {
    /// Calls `body` for each remaining element of the cursor, in order.
    ///
    /// ```swift
    /// try Player.fetchCursor(db).forEach { player in
    ///     print(player.name)
    /// }
    /// ```
    ///
    /// - Parameter body: A function of an element; its error stops the
    ///   iteration, and is rethrown.
    /// - Throws: The error of the statement, or of `body`.
    @inlinable
    public func forEach(_ body: (Element) throws -> Void) throws {
        while let element = try next() {
            try body(element)
        }
    }
}

extension DatabaseCursor {
    /// The SQL of the statement that the cursor iterates.
    ///
    /// ```swift
    /// let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM player")
    /// cursor.sql // "SELECT * FROM player"
    /// ```
    public var sql: String { statement.sql }

    /// The arguments of the statement that the cursor iterates.
    public var arguments: StatementArguments { statement.arguments }

    /// The names of the columns of the statement that the cursor iterates.
    public var columnNames: [String] { statement.columnNames }

    /// The number of columns of the statement that the cursor iterates.
    public var columnCount: Int { statement.columnCount }
}

/// Where a cursor is in its iteration.
@usableFromInline
enum DatabaseCursorPhase: UInt8 {
    case notStarted, running, done
    /// The statement failed: later steps throw its error again, so that a
    /// caller that goes on never takes the failure for the end of the rows.
    case failed
}

/// The state that all database cursors share: the statement, whether it is
/// done, and the access it belongs to.
///
/// Cursor objects keep it in a ``DatabaseCursorStorage``; the one-shot
/// fetches (`fetchOne`, `fetchAll` of records) in a local variable.
@usableFromInline
struct DatabaseCursorState {
    @usableFromInline let statement: Statement
    @usableFromInline let sqliteStatement: SQLiteStatement
    @usableFromInline let database: Database
    /// The access that created the cursor; nil for a one-shot fetch.
    ///
    /// A one-shot fetch (`fetchOne`, `fetchAll`, `fetchSet`) steps the
    /// statement inside one call of Cairn, which its access outlives, and
    /// the rows it decodes check their own access before each read: it
    /// does not hold the access (one retain and release less per fetch;
    /// FetchBenchmark "12 Record.fetchOne(key:)").
    @usableFromInline let access: DatabaseAccess?
    /// Where the iteration is: the first step and the end take the slow
    /// path of ``step()``, the other rows one comparison.
    @usableFromInline var phase = DatabaseCursorPhase.notStarted
    /// The error of a failed statement (phase `.failed`).
    @usableFromInline var failure: (any Error)?

    /// Whether the statement is done (or failed).
    @usableFromInline var isDone: Bool { phase == .done || phase == .failed }

    /// Resets the statement and sets its arguments; nothing runs yet.
    ///
    /// - Parameters:
    ///   - statement: The statement.
    ///   - arguments: Its arguments, if any.
    ///   - oneShot: Whether the state serves a one-shot fetch, which the
    ///     caller runs to its end in the same call (see ``access``), rather
    ///     than a cursor that user code holds.
    /// - Throws: A ``DatabaseError`` when the arguments do not fit or the
    ///   connection is closed.
    @usableFromInline
    init(statement: Statement, arguments: StatementArguments?, oneShot: Bool = false) throws {
        // The connection that reset returns: each read of the statement's
        // unowned reference costs two atomic operations.
        let database = try statement.reset(withArguments: arguments)
        statement.isIteratedByCursor = true
        self.statement = statement
        self.sqliteStatement = statement.sqliteStatement
        self.database = database
        self.access = oneShot ? nil : database.accessForNewCursor
    }

    /// Whether the access that created the cursor is still current (always
    /// true for a one-shot fetch, see ``access``).
    @inlinable @inline(__always)
    var accessIsCurrent: Bool {
        guard let access else { return true }
        return access.isCurrent
    }

    /// Steps the statement: returns true for a row, false when done.
    ///
    /// - Throws: The error of the statement, or of a Swift callback it
    ///   called.
    @inlinable
    mutating func step() throws -> Bool {
        if _slowPath(phase != .running) { return try firstOrFinalStep() }
        if _slowPath(!accessIsCurrent) { stopUsedOutsideAccess(.cursor) }
        switch sqlite3_step(sqliteStatement) {
        case SQLITE_ROW:
            return true
        case let code:
            return try didFinish(code)
        }
    }

    /// The first step (which checks the columns, see ``checkColumns()``),
    /// and the steps after the end.
    @usableFromInline
    mutating func firstOrFinalStep() throws -> Bool {
        if phase == .done { return false }
        if phase == .failed, let failure { throw failure }
        if !accessIsCurrent { stopUsedOutsideAccess(.cursor) }
        switch sqlite3_step(sqliteStatement) {
        case SQLITE_ROW:
            phase = .running
            try checkColumns()
            return true
        case let code:
            return try didFinish(code)
        }
    }

    /// The statement is done (`SQLITE_DONE`), or failed.
    @usableFromInline
    mutating func didFinish(_ code: CInt) throws -> Bool {
        phase = .done
        statement.isIteratedByCursor = false
        defer { statement.releaseArgumentsAfterImplicitUse() }
        do {
            guard code == SQLITE_DONE else {
                try database.statementDidFail(statement, withResultCode: code)
            }
            try database.statementDidExecute(statement)
        } catch {
            phase = .failed
            failure = error
            throw error
        }
        return false
    }

    /// At the first row: SQLite may have prepared the statement again at
    /// the first step, after a schema change. When the columns changed, the
    /// cursor, built from the former columns (its row, adapters, decoders),
    /// cannot read the rows: it throws, and the statement knows its new
    /// columns for the next execution.
    ///
    /// - Throws: A ``DatabaseError`` with the `SQLITE_SCHEMA` code when the
    ///   columns of the statement changed.
    @usableFromInline
    mutating func checkColumns() throws {
        guard statement.columnsChangedByReprepare() else { return }
        phase = .failed
        statement.isIteratedByCursor = false
        sqlite3_reset(sqliteStatement)
        statement.releaseArgumentsAfterImplicitUse()
        let error = database.makeError(
            resultCode: .SQLITE_SCHEMA,
            message: "the columns of the statement changed with the database schema since the cursor was created: "
                + "run the statement again",
            sql: statement.sql, arguments: statement.arguments)
        failure = error
        throw error
    }

    /// Releases the statement when the cursor is dropped before its end.
    ///
    /// Mutating, though it changes nothing in the state: the `defer` of the
    /// one-shot fetches then uses the state in place, where a non-mutating
    /// call copied it, with four retains and releases (FetchBenchmark
    /// "12 Record.fetchOne(key:)").
    @inlinable
    mutating func finish() {
        if !isDone {
            statement.isIteratedByCursor = false
            if accessIsCurrent {
                sqlite3_reset(sqliteStatement)
                // Tested here, inlined: other statements make no call.
                if statement.releasesArgumentsAfterUse {
                    statement.releaseArgumentsAfterImplicitUse()
                }
            }
        }
    }
}

/// The state of a cursor object, shared by the cursor classes: they hold
/// it in a class of their own, so that one unchecked property serves them
/// all, and its deinitializer releases the statement of a cursor dropped
/// before its end.
@usableFromInline
final class DatabaseCursorStorage {
    /// Unchecked exclusivity: a cursor is used by one thread, and nothing
    /// can access its state while it steps (SQLite calls back into Swift
    /// only for functions and hooks, which do not see the cursor). Checked,
    /// it costs 127 instructions per row of FetchBenchmark "1 positional"
    /// (2268 -> 2395) and 129 of "4 Decodable fetchCursor".
    @usableFromInline @exclusivity(unchecked) var state: DatabaseCursorState

    @usableFromInline
    init(_ state: DatabaseCursorState) {
        self.state = state
    }

    deinit {
        state.finish()
    }
}

// MARK: - RowCursor

/// A cursor of database rows.
///
/// The cursor reuses one ``Row`` for all steps: the row is a view on the
/// statement's current row, and changes when the cursor steps. Copy the rows
/// you keep with ``Row/copy()``.
///
/// ```swift
/// let rows = try Row.fetchCursor(db, sql: "SELECT * FROM player")
/// while let row = try rows.next() {
///     let name: String = row["name"]
/// }
/// ```
public final class RowCursor: DatabaseCursor {
    /// The elements of the cursor: rows (one row, reused at each step).
    public typealias Element = Row

    @usableFromInline let storage: DatabaseCursorStorage

    /// The row that each step returns.
    @usableFromInline let row: Row

    /// The statement that the cursor iterates.
    public var statement: Statement { storage.state.statement }

    /// Creates a cursor on a statement.
    ///
    /// - Throws: A ``DatabaseError`` when the arguments do not fit.
    @usableFromInline
    init(statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws {
        storage = DatabaseCursorStorage(try DatabaseCursorState(statement: statement, arguments: arguments))
        row = try Row.cursorRow(statement: statement, adapter: adapter)
    }

    /// Returns the next row, or nil when there is no more row.
    ///
    /// - Throws: A ``DatabaseError`` when the statement fails.
    @inlinable
    public func next() throws -> Row? {
        try storage.state.step() ? row : nil
    }
}

// MARK: - Value cursors

/// A cursor of values read from the first column of each row, through
/// ``DatabaseValue``.
public final class DatabaseValueCursor<Value: DatabaseValueConvertible>: DatabaseCursor {
    /// The elements of the cursor: values.
    public typealias Element = Value

    @usableFromInline let storage: DatabaseCursorStorage

    /// The statement that the cursor iterates.
    public var statement: Statement { storage.state.statement }

    /// The column that holds the values (the first column of the adapted
    /// row, when there is an adapter).
    @usableFromInline let column: CInt

    @usableFromInline
    init(statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws {
        storage = DatabaseCursorStorage(try DatabaseCursorState(statement: statement, arguments: arguments))
        column = try RowLayout.firstBaseColumn(statement, adapter)
    }

    /// Returns the next value, or nil when there is no more row.
    ///
    /// - Throws: A ``DatabaseError`` when the statement fails, and a
    ///   ``RowDecodingError`` when a value does not convert to `Value`.
    @inlinable
    public func next() throws -> Value? {
        guard try storage.state.step() else { return nil }
        let dbValue = DatabaseValue(sqliteStatement: storage.state.sqliteStatement, index: column)
        if let value = Value.fromDatabaseValue(dbValue) {
            return value
        }
        throw conversionError()
    }

    @usableFromInline
    func conversionError() -> RowDecodingError {
        RowDecodingError.conversionFailure(Value.self, row: Row(statement: statement), columnIndex: Int(column))
    }
}

/// A cursor of values read directly from the first column of each row, with
/// the `sqlite3_column_*` functions.
public final class FastDatabaseValueCursor<Value: DatabaseValueConvertible & StatementColumnConvertible>: DatabaseCursor {
    /// The elements of the cursor: values.
    public typealias Element = Value

    @usableFromInline let storage: DatabaseCursorStorage

    /// The statement that the cursor iterates.
    public var statement: Statement { storage.state.statement }

    /// The column that holds the values (the first column of the adapted
    /// row, when there is an adapter).
    @usableFromInline let column: CInt

    @usableFromInline
    init(statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws {
        storage = DatabaseCursorStorage(try DatabaseCursorState(statement: statement, arguments: arguments))
        column = try RowLayout.firstBaseColumn(statement, adapter)
    }

    /// Returns the next value, or nil when there is no more row.
    ///
    /// - Throws: A ``DatabaseError`` when the statement fails, and a
    ///   ``RowDecodingError`` when a value does not convert to `Value`.
    @inlinable
    public func next() throws -> Value? {
        guard try storage.state.step() else { return nil }
        if let value = Value.fromStatement(storage.state.sqliteStatement, atUncheckedIndex: column) {
            return value
        }
        throw conversionError()
    }

    @usableFromInline
    func conversionError() -> RowDecodingError {
        RowDecodingError.conversionFailure(Value.self, row: Row(statement: statement), columnIndex: Int(column))
    }
}

extension Row {
    /// The row that a cursor reuses: a view on the statement, adapted when
    /// there is an adapter.
    @usableFromInline
    static func cursorRow(statement: Statement, adapter: (any RowAdapter)?) throws -> Row {
        let base = Row(statement: statement)
        let row = try adapter.map { Row(base: base, layout: try $0._layout(columnNames: statement.columnNames)) } ?? base
        // Records decoded from the row at each step share what their
        // decoder builds.
        row.cachesDecoding = true
        return row
    }

    /// A row of a statement without adapter, for one fetch of one record:
    /// the row of the previous such fetch when nothing else holds it and it
    /// belongs to the current access, on its thread; a new row otherwise.
    ///
    /// A lookup by primary key in a loop (`Player.fetchOne(db, key: id)`)
    /// then allocates no row. Reusing the row within one access is what a
    /// cursor does at each step: the row is a view on the statement, with
    /// the same columns (see ``StatementCache/Entry/reusableRow``), and the thread
    /// and access it checks before each read do not change.
    ///
    /// With an adapter, a new adapted row (see
    /// ``cursorRow(statement:adapter:)``).
    ///
    /// For callers that use the row during their call only (`fetchOne`,
    /// `fetchAll` and `fetchSet` of records, not cursors): a caller that
    /// keeps it makes the next one build a new row.
    @usableFromInline
    static func reusableRow(of statement: Statement, adapter: (any RowAdapter)?) throws -> Row {
        if let adapter {
            return try cursorRow(statement: statement, adapter: adapter)
        }
        return reusableRow(of: statement)
    }

    /// See ``reusableRow(of:adapter:)``.
    @usableFromInline
    static func reusableRow(of statement: Statement) -> Row {
        guard let entry = statement.cacheEntry else {
            let row = Row(statement: statement)
            row.cachesDecoding = true
            return row
        }
        // Nothing else holds the kept row (`isKnownUniquelyReferenced` is
        // false for nil), and it was made by this access, on this thread.
        if isKnownUniquelyReferenced(&entry.reusableRow), let row = entry.reusableRow,
           row.statementAccess?.isCurrent == true, row.count == statement.uncheckedColumnCount
        {
            return row
        }
        let row = Row(statement: statement)
        row.cachesDecoding = true
        entry.reusableRow = row
        return row
    }
}

extension RowLayout {
    /// The column of the statement that is the first column of the adapted
    /// row.
    ///
    /// - Throws: A ``DatabaseError`` when the adapter does not fit the
    ///   statement, or leaves no column.
    @usableFromInline
    static func firstBaseColumn(_ statement: Statement, _ adapter: (any RowAdapter)?) throws -> CInt {
        guard let adapter else { return 0 }
        let layout = try adapter._layout(columnNames: statement.columnNames)
        guard let first = layout.baseIndexes.first else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the row adapter leaves no column to read a value from")
        }
        return CInt(first)
    }
}
