/// A prepared SQL statement.
///
/// Prepare a statement once and run it many times with different arguments:
///
/// ```swift
/// let statement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
/// try statement.execute(arguments: ["Arthur", 1000])
/// try statement.execute(arguments: ["Barbara", 750])
///
/// let select = try db.makeStatement(sql: "SELECT * FROM player WHERE score > ?")
/// let rows = try Row.fetchAll(select, arguments: [500])
/// ```
///
/// A statement belongs to the connection that prepared it: use it only
/// inside an access to that connection. A statement that failed may be
/// reused: it is reset before each execution.
///
/// A statement may be released anywhere, even on another thread after its
/// access (by the last cursor row that holds it, for example): it is
/// finalized at once inside an access to its connection, and otherwise by
/// the next access, the closing of the connection, or its deinitialization.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/stmt.html>
public final class Statement {
    /// The raw SQLite statement handle, for calling the SQLite C interface.
    ///
    /// The handle belongs to the statement: do not finalize it.
    public let sqliteStatement: SQLiteStatement

    /// The SQL of the statement, without surrounding whitespace.
    public let sql: String

    /// The connection that prepared the statement.
    unowned let database: Database

    /// The names of the parameters, without prefix; nil for `?` and `?NNN`.
    let parameterNames: [String?]

    /// Whether a parameter is positional (`?` or `?NNN`).
    private let hasPositionalParameters: Bool

    /// The names of the parameters when they are all named (empty
    /// otherwise), for binding named arguments without unwrapping names.
    private let namedParameterNames: [String]

    /// Whether executing the statement changes the schema, or rolls back a
    /// transaction: the schema cache is then cleared.
    let invalidatesSchemaCache: Bool

    /// The current arguments, validated.
    private var _arguments = StatementArguments()

    /// Whether the arguments must be validated before execution (a new
    /// statement has no arguments yet).
    private var argumentsNeedValidation = true

    /// What each execution of the statement reads and changes: whether a
    /// cursor iterates it, whether it releases its arguments after each
    /// use, and the cache of its column lookups (see ``StatementState``).
    ///
    /// Unchecked exclusivity, for the state that each execution and each
    /// column lookup by name reads: a statement is used by the thread of
    /// its connection's access only, and no access to it stays open while
    /// SQLite or code of the user runs. Checked, it costs 830 instructions
    /// per row of FetchBenchmark "2 named" (2563 -> 3392) and 83 per row of
    /// InsertBenchmark "6" (5816 -> 5899).
    @usableFromInline @exclusivity(unchecked) var state = StatementState()

    /// Whether a cursor iterates the statement (see
    /// ``StatementState/isIteratedByCursor``).
    @inlinable
    var isIteratedByCursor: Bool {
        get { state.isIteratedByCursor }
        set { state.isIteratedByCursor = newValue }
    }

    /// Whether the statement releases its arguments after each use (see
    /// ``StatementState/releasesArgumentsAfterUse``).
    @inlinable
    var releasesArgumentsAfterUse: Bool {
        get { state.releasesArgumentsAfterUse }
        set { state.releasesArgumentsAfterUse = newValue }
    }

    /// The entry of the statement in its connection's cache (which may keep
    /// a row of the statement, see ``StatementCache/Entry/reusableRow``);
    /// nil when the statement is not cached.
    ///
    /// Set and cleared by ``StatementCache``, and read by the fetches of
    /// records, during an access of the connection, on its thread, or when
    /// the connection is closed or deinitialized, when no access runs.
    var cacheEntry: StatementCache.Entry?

    /// The region that the statement reads: the tables and columns that
    /// SQLite's authorizer reported when the statement was prepared.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "SELECT name FROM player")
    /// print(statement.databaseRegion) // player(name)
    /// ```
    public internal(set) var databaseRegion: DatabaseRegion

    /// Whether the statement runs one SELECT, without subquery, compound
    /// member, common table expression or view: then a table read in its
    /// FROM clause is read there only, unless it is joined to itself. The
    /// query interface restricts the region of such a request to the rows
    /// its filter identifies.
    var isSingleSelect: Bool { selectCount == 1 }

    /// The number of SELECTs that the statement runs, subqueries included
    /// (see ``isSingleSelect``).
    let selectCount: Int

    /// The kinds of changes the statement may perform, triggers and foreign
    /// key actions included.
    let databaseEventKinds: [DatabaseEventKind]

    /// What the statement does to transactions.
    let transactionEffect: TransactionEffect?

    /// Whether the statement may end a transaction, read after each
    /// execution: cheaper to test than ``transactionEffect``.
    let endsTransaction: Bool

    /// Whether the statement manages transactions (BEGIN, COMMIT, ROLLBACK,
    /// SAVEPOINT, RELEASE), or behaves otherwise inside a transaction than
    /// outside (ATTACH, DETACH, pragmas, VACUUM), as SQLite's authorizer
    /// reported it when the statement was prepared: the sequential run of
    /// ``Database/execute(sql:arguments:)`` does not wrap it in a
    /// savepoint.
    let dependsOnTransactionState: Bool

    /// The statement handles of the connection (see
    /// `Database.statementHandles`), kept alive by the statement, which may
    /// outlive its connection: it finalizes the statement on a thread that
    /// may use the connection.
    private let handles: StatementHandles

    init(database: Database, sqliteStatement: SQLiteStatement, sql: String, analysis: StatementAnalysis) {
        self.database = database
        self.handles = database.statementHandles
        handles.insert(sqliteStatement)
        self.schemaGeneration = database.state.schemaCache.generation
        self.invalidatesSchemaCache = analysis.changesSchema || analysis.isRollback
        self.databaseRegion = analysis.readRegion
        self.selectCount = analysis.selectCount
        self.databaseEventKinds = analysis.eventKinds
        self.transactionEffect = analysis.transactionEffect
        self.dependsOnTransactionState = analysis.dependsOnTransactionState
        switch analysis.transactionEffect {
        case .commitTransaction?, .rollbackTransaction?, .releaseSavepoint?:
            self.endsTransaction = true
        default:
            self.endsTransaction = false
        }
        self.sqliteStatement = sqliteStatement
        self.sql = sql
        self.knownColumnCount = Int(sqlite3_column_count(sqliteStatement))
        let count = sqlite3_bind_parameter_count(sqliteStatement)
        var names: [String?] = []
        names.reserveCapacity(Int(count))
        if count > 0 {
            for index in 1...count {
                guard let cName = sqlite3_bind_parameter_name(sqliteStatement, index) else {
                    names.append(nil)
                    continue
                }
                let name = String(cString: cName)
                if name.hasPrefix("?") {
                    names.append(nil)
                } else {
                    names.append(String(name.dropFirst()))
                }
            }
        }
        self.parameterNames = names
        self.hasPositionalParameters = names.contains { $0 == nil }
        self.namedParameterNames = hasPositionalParameters ? [] : names.compactMap { $0 }
    }

    deinit {
        // Now inside an access, later otherwise (see StatementHandles.swift).
        handles.finalize(sqliteStatement)
    }

    // MARK: Columns

    /// The number of columns in the rows of the statement.
    ///
    /// The corresponding C function is `sqlite3_column_count`.
    public var columnCount: Int {
        preconditionInsideAccess()
        return Int(sqlite3_column_count(sqliteStatement))
    }

    /// The number of columns, for Cairn's own code that runs inside an
    /// access already checked (rows and cursors of the statement).
    @inline(__always)
    var uncheckedColumnCount: Int {
        Int(sqlite3_column_count(sqliteStatement))
    }

    /// Stops the program when the current thread is not running an access
    /// to the statement's connection (see
    /// `Database.preconditionInsideAccess()`), before a method reaches
    /// SQLite.
    @inline(__always)
    func preconditionInsideAccess() {
        if _slowPath(!DatabaseAccess.currentThreadRuns(handles)) { stopUsedOutsideAccess(.statement) }
    }

    /// The names of the columns, in order.
    ///
    /// The corresponding C function is `sqlite3_column_name`.
    public var columnNames: [String] {
        if let names = cachedColumnNames { return names }
        let names = readColumnNames()
        cachedColumnNames = names
        return names
    }

    /// The column names, once read.
    private var cachedColumnNames: [String]?

    private func readColumnNames() -> [String] {
        preconditionInsideAccess()
        return (0..<CInt(uncheckedColumnCount)).map { index in
            sqlite3_column_name(sqliteStatement, index).map { String(cString: $0) } ?? ""
        }
    }

    /// The generation of the schema cache when the statement was prepared:
    /// a cached statement of an older generation is prepared again, so that
    /// its columns are those of the current schema.
    let schemaGeneration: UInt64

    /// How many times SQLite prepared the statement again (after a schema
    /// change), as the column names and lookups know it.
    private var knownReprepareCount: CInt = 0

    /// After the first step of an execution: when SQLite prepared the
    /// statement again and its columns changed (a table altered under a
    /// `SELECT *`), forgets the column names and lookups, and returns
    /// true.
    @usableFromInline
    func columnsChangedByReprepare() -> Bool {
        let count = sqlite3_stmt_status(sqliteStatement, SQLITE_STMTSTATUS_REPREPARE, 0)
        guard count != knownReprepareCount else { return false }
        knownReprepareCount = count
        let names = readColumnNames()
        // Rows of cursors hold the column count of the statement, and
        // lookups its column names.
        let changed = names.count != knownColumnCount || (cachedColumnNames.map { $0 != names } ?? false)
        guard changed else { return false }
        cacheEntry?.reusableRow = nil
        knownColumnCount = names.count
        cachedColumnNames = names
        state.columnIndexCache.removeAll()
        state.nextCachePosition = 0
        return true
    }

    /// The column count that rows of the statement are built with.
    private var knownColumnCount: Int

    /// The index of the leftmost column named `name`, compared
    /// case-insensitively as SQLite compares identifiers, or nil.
    ///
    /// Lookups are cached: a loop that reads the same names row after row
    /// compares strings, it does not search again.
    @inlinable
    public func index(ofColumn name: String) -> Int? {
        _index(ofColumn: name)
    }

    /// The index of a column, from the cache of lookups.
    ///
    /// Rows are usually read in the same order at each step: the lookup
    /// first tries the entry after the previous hit, inline, and a name
    /// given by the same string literal compares in a few instructions.
    @inlinable @inline(__always)
    func _index(ofColumn name: String) -> Int? {
        // After the last entry comes the first one, for the next row.
        let position = state.nextCachePosition
        let hit = state.columnIndexCache.withUnsafeBufferPointer { cache -> (index: Int?, next: Int)? in
            let position = position < cache.count ? position : 0
            guard position < cache.count, cache[position].name == name else { return nil }
            return (cache[position].index, position + 1)
        }
        // The position moves after the read of the cache ended.
        if let hit {
            state.nextCachePosition = hit.next
            return hit.index
        }
        return _searchIndex(ofColumn: name)
    }

    /// The index of a column: searches the cache of lookups from the
    /// expected position, then the column names.
    @usableFromInline
    func _searchIndex(ofColumn name: String) -> Int? {
        let start = state.nextCachePosition
        let hit = state.columnIndexCache.withUnsafeBufferPointer { cache -> (index: Int?, next: Int)? in
            let count = cache.count
            guard count > 0 else { return nil }
            var position = start < count ? start : 0
            for _ in 0..<count {
                let found = cache[position].name == name
                let index = cache[position].index
                position += 1
                if found { return (index, position) }
                if position == count { position = 0 }
            }
            return nil
        }
        if let hit {
            state.nextCachePosition = hit.next
            return hit.index
        }
        // Not under an access to `state`: reading the column names may
        // call SQLite.
        let index = columnNames.firstIndex { $0.equalsIgnoringASCIICase(name) }
        state.columnIndexCache.append(ColumnIndexCacheEntry(name: name, index: index))
        state.nextCachePosition = state.columnIndexCache.count
        return index
    }

    /// Whether the statement does not write to the database.
    ///
    /// The corresponding C function is `sqlite3_stmt_readonly`.
    public var isReadonly: Bool {
        preconditionInsideAccess()
        return sqlite3_stmt_readonly(sqliteStatement) != 0
    }

    // MARK: Arguments

    /// The arguments of the statement.
    ///
    /// Setting arguments that do not fit the statement is a programmer error
    /// that stops the program: use ``setArguments(_:)`` to get a thrown error
    /// instead.
    public var arguments: StatementArguments {
        get { _arguments }
        set {
            do {
                try setArguments(newValue)
            } catch {
                stopProgram("Invalid statement arguments (use setArguments(_:) to catch the error): \(error)")
            }
        }
    }

    /// Checks that arguments fit the statement, without setting them.
    ///
    /// - Throws: A ``DatabaseError`` with code `SQLITE_MISUSE` that names the
    ///   missing argument, or gives the expected count.
    public func validateArguments(_ arguments: StatementArguments) throws {
        var arguments = arguments
        _ = try arguments.extractBindings(forStatement: self, allowingRemainingValues: false)
    }

    /// Sets the arguments, after checking that they fit the statement.
    ///
    /// - Throws: A ``DatabaseError`` with code `SQLITE_MISUSE` when the
    ///   arguments do not fit; the statement keeps its previous arguments.
    ///
    /// The corresponding C functions are `sqlite3_bind_*`.
    public func setArguments(_ arguments: StatementArguments) throws {
        preconditionInsideAccess()
        try bindArguments(arguments)
    }

    /// Sets the arguments, after checking that they fit the statement (see
    /// ``setArguments(_:)``), inside an access that was checked already.
    private func bindArguments(_ arguments: StatementArguments) throws {
        if arguments.namedValues.isEmpty {
            // Positional values only: each parameter takes the next one.
            guard arguments.positional.count == parameterNames.count else {
                throw database.makeError(
                    resultCode: .SQLITE_MISUSE,
                    message: argumentCountMessage(arguments.positional.count),
                    sql: sql, arguments: nil)
            }
            switch arguments.positional {
            case .converted(let values):
                try bind(values, arguments: arguments)
            case .single(let value):
                try withUnsafePointer(to: value) { pointer in
                    try bind(UnsafeBufferPointer(start: pointer, count: 1), arguments: arguments)
                }
            case .literal(let elements):
                // The values of an array literal are bound without being
                // converted into an array of database values.
                sqlite3_reset(sqliteStatement)
                let code = elements.withUnsafeBufferPointer { buffer in
                    for index in 0..<buffer.count {
                        let code = bindLiteralValue(
                            at: buffer.baseAddress.unsafelyUnwrapped + index,
                            to: sqliteStatement, at: CInt(truncatingIfNeeded: index + 1))
                        if code != SQLITE_OK { return code }
                    }
                    return SQLITE_OK
                }
                // Only the statements of the implicit cache need to know
                // whether SQLite holds copies of the values: a second pass
                // for them, outside the binding loop.
                if releasesArgumentsAfterUse && !state.mayHoldCopiedValues {
                    // As in the loop above, the base address is only read
                    // for a non-empty buffer, which always has one.
                    state.mayHoldCopiedValues = elements.withUnsafeBufferPointer { buffer in
                        (0..<buffer.count).contains { literalBindsCopiedValue(at: buffer.baseAddress.unsafelyUnwrapped + $0) }
                    }
                }
                if code != SQLITE_OK {
                    argumentsNeedValidation = true
                    throw bindError(code: code, arguments: arguments)
                }
            }
        } else if arguments.positional.count == 0 && !hasPositionalParameters {
            // Named values only, and named parameters only: each parameter
            // takes its value, bound without an intermediate array. Without
            // positional parameters, every parameter name is non-nil.
            sqlite3_reset(sqliteStatement)
            state.mayHoldCopiedValues = true
            // The names are read in place, without copies of the strings.
            let failure = namedParameterNames.withUnsafeBufferPointer { names in
                arguments.namedValues.bind(parameters: names, to: sqliteStatement)
            }
            if let failure {
                guard let code = failure.code else {
                    // Bind the current arguments again before the next
                    // execution if some parameters hold new values.
                    if failure.index > 0 { argumentsNeedValidation = true }
                    throw database.makeError(
                        resultCode: .SQLITE_MISUSE,
                        message: "missing statement argument: \(namedParameterNames[failure.index])",
                        sql: sql, arguments: nil)
                }
                argumentsNeedValidation = true
                throw bindError(code: code, arguments: arguments)
            }
        } else {
            var consumed = arguments
            let bindings = try consumed.extractBindings(forStatement: self, allowingRemainingValues: false)
            try bind(bindings, arguments: arguments)
        }
        _arguments = arguments
        argumentsNeedValidation = false
    }

    /// Sets arguments that are checked and bound when the statement runs
    /// without arguments of its own: a statement made from an SQL literal
    /// without values may get its arguments when it is executed.
    func setArgumentsOnNextExecution(_ arguments: StatementArguments) {
        _arguments = arguments
        argumentsNeedValidation = true
    }

    /// Sets arguments without checking that they fit: missing values are
    /// NULL, and extra values are ignored.
    public func setUncheckedArguments(_ arguments: StatementArguments) {
        preconditionInsideAccess()
        var consumed = arguments
        var bindings: [DatabaseValue] = []
        for name in parameterNames {
            if let name, let value = consumed.namedValues[name] {
                bindings.append(value)
            } else if !consumed.values.isEmpty {
                bindings.append(consumed.values.removeFirst())
            } else {
                bindings.append(.null)
            }
        }
        try? bind(bindings, arguments: arguments)
        _arguments = arguments
        argumentsNeedValidation = false
    }

    /// Sets arguments already matched with the parameters (used by the
    /// multi-statement execution, which consumes arguments across statements).
    func setBindings(_ bindings: [DatabaseValue], arguments: StatementArguments) throws {
        try bind(bindings, arguments: arguments)
        _arguments = arguments
        argumentsNeedValidation = false
    }

    private func bind(_ bindings: [DatabaseValue], arguments: @autoclosure () -> StatementArguments) throws {
        try bindings.withUnsafeBufferPointer { buffer in
            try bind(buffer, arguments: arguments())
        }
    }

    /// Binds one value per parameter, in order.
    @inline(__always)
    private func bind(_ buffer: UnsafeBufferPointer<DatabaseValue>, arguments: @autoclosure () -> StatementArguments) throws {
        // A statement cannot be rebound while it is running. Every parameter
        // is bound below: there is no need to clear the previous bindings.
        sqlite3_reset(sqliteStatement)
        var bindsCopiedValues = false
        var code = SQLITE_OK
        for index in 0..<buffer.count {
            let parameter = CInt(truncatingIfNeeded: index + 1)
            // Integers first, without copying the value out of the buffer.
            if case .int64(let int64) = buffer[index].storage {
                code = sqlite3_bind_int64(sqliteStatement, parameter, int64)
            } else {
                bindsCopiedValues = true
                code = buffer[index].bind(to: sqliteStatement, at: parameter)
            }
            if code != SQLITE_OK { break }
        }
        if bindsCopiedValues { state.mayHoldCopiedValues = true }
        if code != SQLITE_OK {
            // Some parameters hold the new values: bind the current
            // arguments again before the next execution.
            argumentsNeedValidation = true
            throw bindError(code: code, arguments: arguments())
        }
    }

    /// The error of a failed `sqlite3_bind_*` call.
    private func bindError(code: CInt, arguments: StatementArguments) -> DatabaseError {
        database.lastError(code: code, sql: sql, arguments: arguments)
    }

    // MARK: Execution

    /// Prepares the statement for a new execution: checks the access, resets
    /// the statement, and sets the arguments when given.
    ///
    /// - Throws: A ``DatabaseError`` when the connection is closed or the
    ///   arguments do not fit.
    /// - Returns: The connection of the statement.
    @usableFromInline @discardableResult
    func reset(withArguments arguments: StatementArguments?) throws -> Database {
        // Reading an unowned reference costs two atomic operations: once.
        let database = self.database
        try database.checkValidAccess(for: self)
        if let arguments {
            try bindArguments(arguments)  // resets
        } else if argumentsNeedValidation {
            try bindArguments(_arguments)  // resets
        } else {
            sqlite3_reset(sqliteStatement)
        }
        database.statementWillExecute(self)
        return database
    }

    /// Executes the statement until it completes; rows, if any, are skipped.
    ///
    /// - Parameter arguments: When not nil, the new arguments.
    /// - Throws: A ``DatabaseError`` if the arguments do not fit, or if the
    ///   execution fails (an error thrown by an SQL function called by the
    ///   statement becomes a ``DatabaseError``: see ``DatabaseFunction``).
    ///
    /// The corresponding C function is `sqlite3_step`.
    public func execute(arguments: StatementArguments? = nil) throws {
        let database = try reset(withArguments: arguments)
        if _slowPath(database.state.transaction.wasAborted) && transactionEffect == .rollbackTransaction {
            // The transaction is already rolled back: ROLLBACK does nothing
            // (SQLite would fail with "no transaction is active").
            return
        }
        try stepToCompletion(database, beforeFailure: { })
    }

    /// Steps the reset statement until it completes, skipping rows.
    ///
    /// - Parameter beforeFailure: Called when a step fails, before the
    ///   error is built.
    @inline(__always)
    private func stepToCompletion(_ database: Database, beforeFailure: () -> Void) throws {
        while true {
            switch sqlite3_step(sqliteStatement) {
            case SQLITE_DONE:
                try database.statementDidExecute(self)
                return
            case SQLITE_ROW:
                continue
            case let code:
                beforeFailure()
                try database.statementDidFail(self, withResultCode: code)
            }
        }
    }

    /// Releases the arguments of a statement of the implicit statement
    /// cache, once its execution or iteration is over, so that the cache
    /// keeps no value alive (a large blob, for instance): the Swift values,
    /// and SQLite's copies of them. The next user binds its own arguments.
    ///
    /// Call it during the access of the statement's connection only.
    ///
    /// The corresponding C function is `sqlite3_clear_bindings`.
    @usableFromInline
    func releaseArgumentsAfterImplicitUse() {
        guard releasesArgumentsAfterUse, !parameterNames.isEmpty else { return }
        if state.mayHoldCopiedValues {
            sqlite3_reset(sqliteStatement)
            sqlite3_clear_bindings(sqliteStatement)
            state.mayHoldCopiedValues = false
        }
        _arguments = StatementArguments()
        argumentsNeedValidation = true
    }

    /// The message of arguments whose count does not fit the parameters:
    /// GRDB's, which gives the number of values (the SQL of the error shows
    /// the parameters). As in GRDB, such errors carry no arguments.
    private func argumentCountMessage(_ count: Int) -> String {
        "wrong number of statement arguments: \(count)"
    }
}

extension Statement {
    /// Executes the statement with one value per parameter, in order, and
    /// does not keep the values.
    ///
    /// Record inserts use it with statements that only they reach (see
    /// ``Database/internalCachedStatement(sql:)``): the statement does not
    /// retain the array, so that the next insert can overwrite its storage
    /// in place. The ``arguments`` of the statement are left undefined; a
    /// failed execution sets them, so that the error shows the values.
    ///
    /// - Parameters:
    ///   - values: The values of the parameters.
    ///   - database: The connection of the statement, which the caller
    ///     holds: reading the statement's unowned reference would cost two
    ///     atomic operations.
    /// - Throws: A ``DatabaseError`` if the number of values is not the
    ///   number of parameters, or if the execution fails.
    func execute(values: [DatabaseValue], in database: Database) throws {
        assert(database === self.database)
        try database.checkValidAccess(for: self)
        guard values.count == parameterNames.count else {
            throw database.makeError(
                resultCode: .SQLITE_MISUSE,
                message: argumentCountMessage(values.count),
                sql: sql, arguments: nil)
        }
        do {
            try bind(values, arguments: StatementArguments(values: values))  // resets; the arguments are built on failure only
        } catch {
            _arguments = StatementArguments(values: values)
            throw error
        }
        // Whoever executes the statement without arguments next binds its
        // own arguments again.
        argumentsNeedValidation = true
        database.statementWillExecute(self)
        try stepToCompletion(database, beforeFailure: { _arguments = StatementArguments(values: values) })
    }
}

/// A column name that was looked up in a statement, and its index.
@usableFromInline
struct ColumnIndexCacheEntry {
    @usableFromInline var name: String
    @usableFromInline var index: Int?

    init(name: String, index: Int?) {
        self.name = name
        self.index = index
    }
}

extension Statement: CustomStringConvertible {
    /// The SQL of the statement.
    public var description: String { sql }
}

/// What each execution of a statement reads and changes (see
/// ``Statement/state``).
@usableFromInline
struct StatementState {
    /// Whether a cursor iterates the statement: ``Database/cachedStatement(sql:)``
    /// then prepares a new statement rather than disturb the cursor.
    @usableFromInline var isIteratedByCursor = false

    /// Whether the statement belongs to the implicit statement cache (see
    /// ``Database/implicitStatement(sql:)``): it releases its arguments
    /// after each use.
    @usableFromInline var releasesArgumentsAfterUse = false

    /// Whether SQLite may hold a copy of a text or blob argument (set by the
    /// bindings of anything but integers and NULL): then
    /// ``Statement/releaseArgumentsAfterImplicitUse()`` clears the bindings.
    var mayHoldCopiedValues = false

    /// The cache of column indexes, keyed by the names that were looked up.
    @usableFromInline var columnIndexCache: [ColumnIndexCacheEntry] = []

    /// Where the next lookup in `columnIndexCache` starts.
    @usableFromInline var nextCachePosition = 0

    @usableFromInline init() { }
}
