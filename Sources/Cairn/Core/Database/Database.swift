import Foundation
internal import CairnSQLiteShims

/// A connection to an SQLite database.
///
/// You do not create `Database` yourself: a ``DatabaseQueue`` (or a pool)
/// owns its connections and hands one to the closures of its access methods:
///
/// ```swift
/// let dbQueue = try DatabaseQueue(path: "/path/to/database.sqlite")
/// try dbQueue.write { db in
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
///     print(db.lastInsertedRowID)
/// }
/// ```
///
/// A connection is used by one thread at a time, and only inside the access
/// that provides it: do not let it, nor its statements and cursors, escape
/// the closure.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/sqlite3.html>
public final class Database {
    /// The raw SQLite connection handle, for calling the SQLite C interface;
    /// nil once the connection is closed.
    ///
    /// The handle belongs to Cairn: do not close it, and use it only inside
    /// a database access.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     let changes = sqlite3_total_changes(db.sqliteConnection)
    /// }
    /// ```
    public var sqliteConnection: SQLiteConnection? { state.sqliteConnection }

    /// The state that the statements of the connection read and change as
    /// they are prepared and run: the SQLite handle, the statement cache,
    /// the transaction, the schema cache, the hooks of the layers above
    /// Core, and the region that an observation records (see ``ConnectionState``).
    ///
    /// Unchecked exclusivity, for the one value that every statement reads:
    /// checked accesses cost 250 instructions per statement of
    /// InsertBenchmark "6" (the handle and the transaction alone) and 820
    /// per lookup of FetchBenchmark "11". Only the thread of the current
    /// access touches it, and no access to it stays open while SQLite or
    /// code of the user runs: statements are prepared between a lookup in
    /// the cache and an insertion, and hooks are called after their
    /// reference was read.
    @usableFromInline @exclusivity(unchecked) var state: ConnectionState

    /// The configuration of the connection.
    public let configuration: Configuration

    /// The path of the database file (`":memory:"` for an unnamed in-memory
    /// database).
    public let path: String

    /// A description of the connection, from ``Configuration/label``.
    public let description: String

    /// The SQLite handles of the live ``Statement`` objects of the
    /// connection, so that ``checkClosable()`` tells the statements of the
    /// user from those that SQLite and its virtual tables (FTS5) prepare
    /// for themselves, which `sqlite3_close` finalizes; and those of the
    /// statements released on a thread that could not finalize them (see
    /// `StatementHandles.swift`).
    let statementHandles = StatementHandles()

    /// The error thrown by a Swift callback (an SQL function, for instance)
    /// during the current statement, rethrown when the statement fails.
    let callbackErrors = CallbackErrorStash()

    /// The trace function and its options, owned by the connection and given
    /// unretained to SQLite.
    var traceBox: TraceBox?

    /// The busy callback, owned by the connection and given unretained to
    /// SQLite.
    var busyBox: BusyBox?

    /// The progress handler and the time limits, owned by the connection
    /// and given unretained to SQLite (see `Database+Progress.swift`).
    var progressBox: ProgressBox?

    /// The connection handle for `sqlite3_interrupt`, which other threads
    /// call: the lock guarantees that the connection is not closed during
    /// the call.
    let interruptHandle = Locked<SQLiteConnection?>(nil)

    /// Whether the connection is suspended (see `Database+Suspension.swift`):
    /// set by the observers of the suspension notifications, on the thread
    /// that posts them.
    let suspensionState = Locked(false)

    /// The depth of nested read-only accesses.
    var readOnlyDepth = 0

    /// Whether the setups of a new connection run (see `runSetups()`), and
    /// the first error that a registration that cannot throw recorded
    /// meanwhile. Only the thread that opens the connection touches them.
    var isRunningSetups = false
    var deferredSetupError: (any Error)?

    /// For the writer of a ``DatabasePool``: closes the idle reader
    /// connections of the pool (see `changePassphrase`, which must leave
    /// WAL mode). Set once, by the pool, before anyone uses the writer.
    var closeIdleReaders: (@Sendable () -> Void)?

    /// The schema source of the running ``withSchemaSource(_:execute:)``,
    /// which replaces the one of the configuration (see
    /// `Database+SchemaSource.swift`); nil outside of it. Only the thread
    /// of the current access touches it.
    var schemaSourceOverride: SchemaSourceOverride?

    /// Notes which statements change the schema, while they are prepared.
    let statementAnalysis = StatementAnalysis()

    /// The statement hooks when they are active.
    @inline(__always)
    var activeStatementHooks: StatementHooks? {
        guard let statementHooks = state.statementHooks, statementHooks.isActive else { return nil }
        return statementHooks
    }

    /// The caches that the records layer keeps on the connection (the
    /// INSERT statements of record types), opaque to Core. Cleared with the
    /// statement cache.
    ///
    /// Only `Records/CachedInsertStatement.swift` stores a value in it, its
    /// `RecordInsertCache`, which it reads back with a checked cast;
    /// `removeCachedStatements()` sets it to nil.
    var recordCaches: ConnectionRecordCaches?

    /// The hub of the shared pre-update hook (see
    /// `ConnectionResources.swift`); nil until used, freed after the
    /// connection closes.
    var preUpdateHub: UnsafeMutablePointer<_cairn_preupdate_hub>?

    /// The resources that higher layers attach to the SQLite handle (see
    /// `ConnectionResources.swift`); nil until used. Set inside an access,
    /// once, and never replaced.
    var connectionResources: ConnectionResources?

    /// Opens a connection.
    ///
    /// - Parameters:
    ///   - path: The path of the database file, `":memory:"`, or an URI
    ///     filename when `openFlags` contains `SQLITE_OPEN_URI`.
    ///   - description: The description of the connection.
    ///   - configuration: The configuration.
    ///   - extraOpenFlags: Flags added to those that the configuration
    ///     implies.
    /// - Throws: A ``DatabaseError`` if the database cannot be opened, is not
    ///   a database, or if a setup of ``Configuration/prepareDatabase(_:)``
    ///   throws (the error of the setup is rethrown).
    init(path: String, description: String, configuration: Configuration, extraOpenFlags: CInt = 0) throws {
        Database.setUpSQLiteOnce()
        self.path = path
        self.description = description
        self.configuration = configuration
        self.state = ConnectionState(
            statementCache: StatementCache(implicitCapacity: configuration.implicitStatementCacheCapacity))

        var flags = configuration.readonly && !configuration.opensReadWrite
            ? SQLITE_OPEN_READONLY
            : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        flags |= SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE | extraOpenFlags
        if configuration.acceptsURIFilenames { flags |= SQLITE_OPEN_URI }
        var connection: SQLiteConnection?
        let code = Database.open(path, &connection, flags)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) }
            sqlite3_close(connection)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
        }
        state.sqliteConnection = connection
        interruptHandle.withLock { $0 = connection }

        do {
            try setUp()
        } catch {
            removeCachedStatements()
            interruptHandle.withLock { $0 = nil }
            // Sessions that a setup created go before the handle.
            connectionResources?.connectionWillClose(connection)
            statementHandles.closeConnection { sqlite3_close_v2(connection) }
            freePreUpdateHub()
            state.sqliteConnection = nil
            throw error
        }
    }

    deinit {
        removeCachedStatements()
        interruptHandle.withLock { $0 = nil }
        if let sqliteConnection {
            // Resources hold the connection object: none is alive, but
            // their cleanups may wait for an access. Nobody else can use
            // the connection now.
            connectionResources?.connectionWillClose(sqliteConnection)
            // The callbacks point, unretained, at objects that this
            // connection owns and that are being deinitialized: remove them,
            // so that no statement that users still hold can reach them
            // through the raw C interface.
            removeCallbacks(sqliteConnection)
            // The v2 variant defers the closing until statements that users
            // still hold are finalized.
            statementHandles.closeConnection { sqlite3_close_v2(sqliteConnection) }
        }
        freePreUpdateHub()
    }

    /// Removes the callbacks whose contexts are owned by the connection
    /// object: hooks, trace, busy handler and authorizer.
    private func removeCallbacks(_ connection: SQLiteConnection) {
        sqlite3_commit_hook(connection, nil, nil)
        sqlite3_rollback_hook(connection, nil, nil)
        sqlite3_update_hook(connection, nil, nil)
        sqlite3_preupdate_hook(connection, nil, nil)
        sqlite3_trace_v2(connection, 0, nil, nil)
        sqlite3_busy_handler(connection, nil, nil)
        sqlite3_progress_handler(connection, 0, nil, nil)
        sqlite3_set_authorizer(connection, nil, nil)
    }

    /// Applies the configuration to a new connection.
    private func setUp() throws {
        // The connection is not shared yet: the access only makes the
        // checks of the methods below pass.
        try withAccess { try setUpConnection() }
    }

    private func setUpConnection() throws {
        guard let connection = sqliteConnection else { return }
        sqlite3_extended_result_codes(connection, 1)

        // Secure defaults.
        try check(dbConfig: SQLITE_DBCONFIG_DEFENSIVE, 1)
        try check(dbConfig: SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0)
        try check(dbConfig: SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0)
        let dqs: CInt = configuration.acceptsDoubleQuotedStringLiterals ? 1 : 0
        try check(dbConfig: SQLITE_DBCONFIG_DQS_DML, dqs)
        try check(dbConfig: SQLITE_DBCONFIG_DQS_DDL, dqs)
        try check(dbConfig: SQLITE_DBCONFIG_ENABLE_FKEY, configuration.foreignKeysEnabled ? 1 : 0)

        setUpBusyMode()
        setUpAuthorizer()

        for collation in DatabaseCollation.builtIn {
            add(collation: collation)
        }
        for function in DatabaseFunction.builtIn {
            add(function: function)
        }
        // `cairn_values` and `cairn_rows`, for long IN lists.
        try add(tableFunction: .values)
        try add(tableFunction: .valueRows)

        try withAccess {
            // The setups of `Configuration.prepareDatabase` run first, as in
            // GRDB: before the first read (a passphrase must be given before
            // SQLite reads the file), and before the WAL journal mode, so
            // that they can still set the page size of a new database.
            try runSetups()
            // Fail early when the file is not a database (or is encrypted).
            try execute(sql: "SELECT * FROM sqlite_master LIMIT 1")
            // A read-only connection cannot change the journal mode: a
            // read-only pool reads a database that is not in WAL mode with
            // the shared locks of the rollback journal (its readers still
            // run in parallel; snapshot pools need WAL, and say so).
            if case .wal = configuration.journalMode, !configuration.readonly {
                try setJournalModeWAL()
            }
            if configuration.isQueryOnly {
                try execute(sql: "PRAGMA query_only = 1")
            }
        }
    }

    func check(dbConfig option: CInt, _ value: CInt) throws {
        var result: CInt = 0
        let code = _cairn_sqlite_db_config_int(sqliteConnection, option, value, &result)
        guard code == SQLITE_OK else {
            throw makeError(resultCode: ResultCode(rawValue: code), message: nil, sql: nil, arguments: nil)
        }
    }

    /// Sets the WAL journal mode, and throws if the database cannot use it.
    func setJournalModeWAL() throws {
        let mode = try String.fetchOne(self, sql: "PRAGMA journal_mode = WAL")
        guard mode?.lowercased() == "wal" else {
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "could not activate the WAL journal mode (the journal mode is \(mode ?? "unknown")): "
                    + "WAL needs a database file, not an in-memory database, on a file system that supports shared memory",
                sql: "PRAGMA journal_mode = WAL")
        }
    }

    /// Closes the connection.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite cannot close the connection
    ///   because statements prepared by your code are still alive.
    ///
    /// The corresponding C function is `sqlite3_close`.
    func close() throws {
        guard let connection = sqliteConnection else { return }
        try checkClosable()
        state.statementHooks?.databaseWillClose(self)
        // Sessions and other resources go before the handle.
        connectionResources?.connectionWillClose(connection)
        interruptHandle.withLock { $0 = nil }
        let code = sqlite3_close(connection)
        guard code == SQLITE_OK else {
            interruptHandle.withLock { $0 = connection }
            throw makeError(
                resultCode: ResultCode(rawValue: code),
                message: String(cString: sqlite3_errmsg(connection))
                    + " (release the statements and cursors you keep before closing)",
                sql: nil, arguments: nil)
        }
        statementHandles.connectionDidClose()
        state.sqliteConnection = nil
        freePreUpdateHub()
    }

    /// Releases the cached statements and throws `SQLITE_BUSY` if statements
    /// prepared by the user are still alive, so that ``close()`` would fail.
    /// Each of them is reported to ``logError`` ("unfinalized statement:
    /// SQL"). The connection stays open and usable.
    ///
    /// A pool checks all its connections before it closes any, so that a
    /// close that fails leaves the pool as it was.
    ///
    /// The corresponding C function is `sqlite3_next_stmt`.
    func checkClosable() throws {
        guard let connection = sqliteConnection else { return }
        removeCachedStatements()
        // Statements that no Statement object owns are SQLite's own (the
        // shadow-table statements of FTS5 tables): sqlite3_close finalizes
        // them.
        statementHandles.finalizePending()
        let live = statementHandles.liveHandles
        var unfinalized: [String] = []
        var statement = sqlite3_next_stmt(connection, nil)
        while let current = statement {
            if live.contains(current) {
                unfinalized.append(sqlite3_sql(current).map { String(cString: $0) } ?? "")
            }
            statement = sqlite3_next_stmt(connection, current)
        }
        guard !unfinalized.isEmpty else { return }
        if let log = Database.logError {
            for sql in unfinalized {
                log(.SQLITE_BUSY, "unfinalized statement: \(sql)")
            }
        }
        throw makeError(
            resultCode: .SQLITE_BUSY,
            message: "unable to close due to unfinalized statements: "
                + unfinalized.map { "`\($0)`" }.joined(separator: ", ")
                + " (release the statements and cursors you keep before closing)",
            sql: nil, arguments: nil)
    }

    /// Whether the connection is closed.
    var isClosed: Bool { sqliteConnection == nil }

    // MARK: Connection state

    /// The rowid of the last row inserted by this connection.
    ///
    /// The corresponding C function is `sqlite3_last_insert_rowid`.
    public var lastInsertedRowID: Int64 {
        preconditionInsideAccess()
        return sqlite3_last_insert_rowid(sqliteConnection)
    }

    /// The number of rows changed by the last INSERT, UPDATE or DELETE
    /// statement.
    ///
    /// The corresponding C function is `sqlite3_changes64`.
    public var changesCount: Int {
        preconditionInsideAccess()
        return Int(sqlite3_changes64(sqliteConnection))
    }

    /// The number of rows changed by INSERT, UPDATE or DELETE statements since
    /// the connection was opened.
    ///
    /// The corresponding C function is `sqlite3_total_changes64`.
    public var totalChangesCount: Int {
        preconditionInsideAccess()
        return Int(sqlite3_total_changes64(sqliteConnection))
    }

    /// Whether a transaction is open.
    ///
    /// The corresponding C function is `sqlite3_get_autocommit`.
    public var isInsideTransaction: Bool {
        preconditionInsideAccess()
        guard let sqliteConnection else { return false }
        return sqlite3_get_autocommit(sqliteConnection) == 0
    }

    /// The message of the last error of the connection.
    ///
    /// The corresponding C function is `sqlite3_errmsg`.
    public var lastErrorMessage: String? {
        preconditionInsideAccess()
        return sqliteConnection.map { String(cString: sqlite3_errmsg($0)) }
    }

    // MARK: Errors

    /// Creates an error, hiding the arguments from its description unless
    /// the configuration makes them public.
    func makeError(
        resultCode: ResultCode,
        message: String?,
        sql: String?,
        arguments: StatementArguments?) -> DatabaseError
    {
        DatabaseError(
            resultCode: resultCode, message: message, sql: sql, arguments: arguments,
            publicStatementArguments: configuration.publicStatementArguments)
    }

    /// The error of the last failed call on the connection.
    func lastError(code: CInt, sql: String? = nil, arguments: StatementArguments? = nil) -> DatabaseError {
        let message = sqliteConnection.map { String(cString: sqlite3_errmsg($0)) }
        return makeError(resultCode: ResultCode(rawValue: code), message: message, sql: sql, arguments: arguments)
    }

    /// Stops the program when the current thread is not running an access
    /// to this connection: SQLite's connections have no mutex (see
    /// `StatementHandles.swift`), and a connection used by two threads at
    /// once corrupts its memory. Called by the methods that reach SQLite
    /// directly; statements check their access when they run.
    @inline(__always)
    func preconditionInsideAccess() {
        if _slowPath(!isInsideAccess) { stopUsedOutsideAccess(.connection) }
    }

    /// Checks that a statement can run now.
    ///
    /// - Throws: A ``DatabaseError`` when the connection is closed.
    @usableFromInline
    func checkValidAccess(for statement: Statement) throws {
        // First: the state of the connection is only read by the thread of
        // its access.
        let isCancellable = DatabaseAccess.withCurrentThreadAccess(to: statementHandles) { access in
            guard let access else { stopUsedOutsideAccess(.statement) }
            return access.cancellation != nil
        }
        guard !isClosed else {
            throw DatabaseError.connectionIsClosed()
        }
        if _slowPath(state.transaction.wasAborted) {
            try checkAbortedTransaction(for: statement)
        }
        if _slowPath(isCancellable) {
            try checkCancellation(for: statement)
        }
        if _slowPath(configuration.observesSuspensionNotifications) {
            try checkSuspension(for: statement)
        }
        if _slowPath(progressBox != nil) {
            try checkTimeLimit(for: statement)
        }
    }

    /// Checks that work that SQLite runs by itself (statements prepared
    /// inside SQLite, such as those of the session extension's
    /// `sqlite3changeset_apply_v2`) may change the database now, as
    /// ``checkValidAccess(for:)`` checks a statement that writes.
    ///
    /// - Parameter description: What runs, for the messages of the errors.
    /// - Throws: A ``DatabaseError``: `SQLITE_MISUSE` when the connection is
    ///   closed, `SQLITE_ABORT` after the transaction of a block was
    ///   aborted, `SQLITE_INTERRUPT` after the task of an async access was
    ///   cancelled.
    func checkValidAccess(forWritesOf description: String) throws {
        guard !isClosed else {
            throw DatabaseError.connectionIsClosed()
        }
        if state.transaction.wasAborted {
            throw abortedTransactionError(sql: nil, arguments: nil)
        }
        if isAccessCancelled {
            throw makeError(
                resultCode: .SQLITE_INTERRUPT,
                message: "interrupted: the task of the access was cancelled before \(description)",
                sql: nil, arguments: nil)
        }
        if configuration.observesSuspensionNotifications {
            try checkSuspension(forWritesOf: description)
        }
    }

    /// Notes that SQLite ran statements of its own, which changed `region`
    /// (nil when nothing changed): they may have ended the transaction of a
    /// block (see ``statementDidFail(_:withResultCode:)``), and the
    /// statement hooks (transaction observers) hear of them: observers of
    /// the region hear of an unspecified change, and of the end of a
    /// transaction that those statements committed or rolled back.
    func externalStatementsDidRun(changing region: DatabaseRegion?) {
        noteTransactionEnd()
        forgetTransactionDateIfTransactionEnded()
        activeStatementHooks?.externalStatementsDidRun(changing: region, in: self)
    }

    /// Throws `SQLITE_ABORT` for a statement that would run after the
    /// transaction of a block was aborted. `BEGIN` starts a new transaction
    /// (the `ROLLBACK; BEGIN` idiom that renews a read transaction), and
    /// `ROLLBACK` is let through: it does nothing (see
    /// ``Statement/execute(arguments:)``).
    private func checkAbortedTransaction(for statement: Statement) throws {
        switch statement.transactionEffect {
        case .beginTransaction:
            state.transaction.wasAborted = false
            state.transaction.isOwnedByBlock = false
        case .rollbackTransaction:
            break
        default:
            throw abortedTransactionError(sql: statement.sql, arguments: statement.arguments)
        }
    }

    /// The error of a statement that runs after the transaction of a block
    /// was aborted.
    func abortedTransactionError(sql: String?, arguments: StatementArguments?) -> DatabaseError {
        makeError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted", sql: sql, arguments: arguments)
    }

    /// Notes that SQLite, or a statement of the user, ended the transaction
    /// that a block owns.
    @inline(__always)
    private func noteTransactionEnd() {
        if _slowPath(state.transaction.isOwnedByBlock) && !state.transaction.wasAborted,
           let sqliteConnection, sqlite3_get_autocommit(sqliteConnection) != 0
        {
            state.transaction.wasAborted = true
        }
    }

    /// Resets the statements that a cursor left running, so that they do not
    /// hold a read transaction open after the access.
    func resetBusyStatements() {
        guard let sqliteConnection else { return }
        var statement = sqlite3_next_stmt(sqliteConnection, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 {
                sqlite3_reset(current)
            }
            statement = sqlite3_next_stmt(sqliteConnection, current)
        }
    }

    // MARK: Statement events

    /// Called before a statement runs.
    @usableFromInline
    func statementWillExecute(_ statement: Statement) {
        callbackErrors.forget()
        if state.recordedRegion != nil {
            state.recordedRegion!.formUnion(statement.databaseRegion)
        }
        activeStatementHooks?.statementWillExecute(statement, in: self)
    }

    /// Called after a statement completed.
    @usableFromInline
    func statementDidExecute(_ statement: Statement) throws {
        if statement.invalidatesSchemaCache {
            let rollingBack = switch statement.transactionEffect {
            case .rollbackTransaction, .rollbackSavepoint: true
            default: false
            }
            state.schemaCache.statementDidInvalidate(rollingBack: rollingBack, isInsideTransaction: isInsideTransaction)
        }
        if _slowPath(statement.endsTransaction), let effect = statement.transactionEffect {
            forgetTransactionDateIfTransactionEnded()
            switch effect {
            case .rollbackTransaction:
                // A ROLLBACK of the user, inside a block: its later
                // statements would run outside of the transaction.
                noteTransactionEnd()
            case .commitTransaction, .releaseSavepoint:
                // A COMMIT of the user, inside a block: the changes are
                // kept, and, as in GRDB, the later statements of the block
                // and its end throw SQLITE_ABORT, since they would run
                // outside of the transaction.
                state.schemaCache.didCommit(isInsideTransaction: isInsideTransaction)
                noteTransactionEnd()
            default:
                break
            }
        }
        try activeStatementHooks?.statementDidExecute(statement, in: self)
    }

    /// Called after a statement failed: resets it, and throws the error of
    /// the Swift callback that made it fail, or a ``DatabaseError``.
    @usableFromInline
    func statementDidFail(_ statement: Statement, withResultCode code: CInt) throws -> Never {
        let error = lastError(code: code, sql: statement.sql, arguments: statement.arguments)
        sqlite3_reset(statement.sqliteStatement)
        // The failure may have rolled back the transaction of a block.
        noteTransactionEnd()
        forgetTransactionDateIfTransactionEnded()
        // The failure may have rolled back a transaction that changed the
        // schema.
        state.schemaCache.didRollBack(isInsideTransaction: isInsideTransaction)
        // Taken before the hooks run: observers told of the rollback may
        // run statements, which forget stale callback errors.
        let callbackFailure = callbackErrors.take()
        activeStatementHooks?.statementDidFail(statement, in: self)
        if let (callbackError, disposition) = callbackFailure {
            throw callbackFailureError(callbackError, disposition: disposition, statement: statement, sqliteError: error)
        }
        throw error
    }
}

extension Database {
    /// The error that a statement throws when a Swift callback made it
    /// fail (see ``CallbackErrorStash/Disposition``).
    ///
    /// - Parameter sqliteError: The error that SQLite reported for the
    ///   statement.
    func callbackFailureError(
        _ callbackError: any Error,
        disposition: CallbackErrorStash.Disposition,
        statement: Statement?,
        sqliteError: DatabaseError) -> any Error
    {
        switch disposition {
        case .asIs:
            // The error of an observer that prevented the commit.
            return callbackError
        case .described, .describedRollingBack:
            if disposition == .describedRollingBack {
                rollBackHalfDoneStatement(statement)
            }
            // A DatabaseError of an SQL function keeps its code and
            // message; another error becomes an SQLite error whose message
            // describes it, with the SQL of the statement.
            if let databaseError = callbackError as? DatabaseError {
                return databaseError
            }
            return makeError(
                resultCode: .SQLITE_ERROR, message: "\(callbackError)",
                sql: statement?.sql, arguments: statement?.arguments)
        case .sqliteErrorRollingBack:
            rollBackHalfDoneStatement(statement)
            return sqliteError
        case .asIsRollingBack:
            rollBackHalfDoneStatement(statement)
            return callbackError
        }
    }

    /// Rolls back the transaction of a statement that writes, after a Swift
    /// callback failed in the middle of its work (a document half indexed
    /// by a failed FTS5 tokenizer, rows inserted before a table function
    /// threw): nothing half done remains. Outside of a transaction, the
    /// failed statement was its own transaction, which SQLite rolled back.
    /// Rolled back as SQLite rolls back on its own: a block that owns the
    /// transaction sees it aborted. A statement that does not write leaves
    /// the transaction as it is.
    private func rollBackHalfDoneStatement(_ statement: Statement?) {
        if let statement, !statement.databaseEventKinds.isEmpty, isInsideTransaction {
            try? rollback()
            state.schemaCache.didRollBack(isInsideTransaction: isInsideTransaction)
        }
    }
}

/// The state that the statements of a connection read and change as they
/// are prepared and run (see ``Database/state``).
@usableFromInline
struct ConnectionState {
    /// The SQLite handle; nil once the connection is closed.
    var sqliteConnection: SQLiteConnection?

    /// The prepared statements that the connection keeps: those of
    /// ``Database/cachedStatement(sql:)``, those that Cairn prepares for
    /// SQL strings, and those of Cairn's own work (see ``StatementCache``).
    var statementCache: StatementCache

    /// The transaction, as Cairn's blocks know it (see
    /// ``TransactionState``).
    @usableFromInline var transaction = TransactionState()

    /// The statement hooks of the layer above Core that observes the
    /// connection (Observation's broker, which tells transaction observers
    /// about changes, commits and rollbacks), created when first needed.
    ///
    /// Invariant: set once, by Observation's broker accessor, and never
    /// replaced: the C hooks that the broker installs point to it, without
    /// retaining it, for as long as the connection lives.
    var statementHooks: StatementHooks?

    /// The region read by the statements of the current observation fetch;
    /// nil when no fetch records its region.
    var recordedRegion: DatabaseRegion?

    /// Primary keys and other schema information, until the schema changes.
    var schemaCache = SchemaCache()

    init(statementCache: StatementCache) {
        self.statementCache = statementCache
    }
}

/// The caches that the records layer keeps on a connection (see
/// ``Database/recordCaches``): the records layer subclasses it.
class ConnectionRecordCaches { }

extension Database: CustomStringConvertible { }

extension Database: CustomDebugStringConvertible {
    /// The description and path of the connection.
    public var debugDescription: String { "<Database: \(description) (\(path))>" }
}

// MARK: - Library setup

extension Database {
    /// Installs the error log callback before SQLite initializes (the
    /// callback must be installed before the first connection opens).
    static func setUpSQLiteOnce() {
        _ = sqliteSetup
    }

    private static let sqliteSetup: Void = {
        _cairn_sqlite_config_log(errorLogCallback, nil)
        sqlite3_initialize()
    }()
}
