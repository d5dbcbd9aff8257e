import Foundation

extension Database {
    /// The events that ``Database/trace(options:_:)`` reports.
    public struct TracingOptions: OptionSet, Sendable {
        /// The raw `SQLITE_TRACE_*` mask.
        public let rawValue: CInt

        /// Creates options from a raw `SQLITE_TRACE_*` mask.
        public init(rawValue: CInt) {
            self.rawValue = rawValue
        }

        /// Each statement, when it starts (`SQLITE_TRACE_STMT`); statements of
        /// triggers are reported as comments such as `-- TRIGGER name`.
        public static let statement = TracingOptions(rawValue: CInt(SQLITE_TRACE_STMT))

        /// Each statement, when it ends, with its duration
        /// (`SQLITE_TRACE_PROFILE`).
        public static let profile = TracingOptions(rawValue: CInt(SQLITE_TRACE_PROFILE))
    }

    /// An event reported by ``Database/trace(options:_:)``.
    public enum TraceEvent: CustomStringConvertible {
        /// A statement starts.
        case statement(Statement)

        /// A statement ended, after the given number of seconds.
        case profile(statement: Statement, duration: TimeInterval)

        /// The statement of a trace event.
        public struct Statement: CustomStringConvertible {
            /// The SQL of the statement, with `?` and named parameters (no
            /// argument values).
            public let sql: String

            /// The SQL of the statement with the values of its arguments in
            /// place of its parameters (`sqlite3_expanded_sql`).
            ///
            /// - Warning: The expanded SQL contains the argument values, which
            ///   may be private data: do not write it to logs that others
            ///   read. ``description`` shows the values only when
            ///   ``Configuration/publicStatementArguments`` is set.
            public let expandedSQL: String

            /// Whether ``description`` shows the argument values.
            let publicStatementArguments: Bool

            /// The SQL, with argument values only when
            /// ``Configuration/publicStatementArguments`` is set.
            public var description: String {
                publicStatementArguments ? expandedSQL : sql
            }
        }

        /// The SQL of the statement, and the duration of profile events:
        /// `"0.001s SELECT * FROM player"`.
        ///
        /// Argument values appear only when
        /// ``Configuration/publicStatementArguments`` is set: see
        /// ``expandedDescription`` for a description that always shows them.
        public var description: String {
            describe(statement: \.description)
        }

        /// Same as ``description``, but with the values of the arguments
        /// in place of the parameters, whatever
        /// ``Configuration/publicStatementArguments`` says:
        /// `"INSERT INTO player (name) VALUES ('Arthur')"`.
        ///
        /// - Warning: It contains the argument values, which may be private
        ///   data: keep it out of logs that others read.
        public var expandedDescription: String {
            describe(statement: \.expandedSQL)
        }

        private func describe(statement text: KeyPath<Statement, String>) -> String {
            switch self {
            case .statement(let statement):
                return statement[keyPath: text]
            case let .profile(statement, duration):
                return String(format: "%.3fs ", duration) + statement[keyPath: text]
            }
        }
    }

    /// Starts or stops tracing the statements that the connection runs.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.prepareDatabase { db in
    ///     db.trace { print($0) }
    ///     // Statements with their duration:
    ///     // db.trace(options: .profile) { print($0) }
    /// }
    /// ```
    ///
    /// The ``TraceEvent/description`` of events shows argument values only
    /// when ``Configuration/publicStatementArguments`` is set;
    /// ``TraceEvent/expandedDescription`` always shows them.
    ///
    /// - Parameters:
    ///   - options: The events to report (default ``TracingOptions/statement``).
    ///   - trace: The function that receives the events; nil stops tracing.
    ///
    /// The corresponding C function is `sqlite3_trace_v2`.
    public func trace(options: TracingOptions = .statement, _ trace: ((TraceEvent) -> Void)? = nil) {
        preconditionInsideAccess()
        guard let sqliteConnection else { return }
        guard let trace, !options.isEmpty else {
            sqlite3_trace_v2(sqliteConnection, 0, nil, nil)
            traceBox = nil
            return
        }
        let box = TraceBox(trace: trace, publicStatementArguments: configuration.publicStatementArguments)
        // The connection owns the box, and unregisters it before releasing it.
        sqlite3_trace_v2(sqliteConnection, UInt32(options.rawValue), traceCallback, box.unretainedCContext())
        traceBox = box
    }

    /// Runs `body` without reporting its statements to the trace function:
    /// for the statements that Cairn runs on its own inside a method of
    /// the user, such as the savepoint of a script in
    /// ``execute(sql:arguments:)``, whose trace shows only the statements
    /// of the script.
    func untraced<T>(_ body: () throws -> T) rethrows -> T {
        guard let traceBox else { return try body() }
        let wasPaused = traceBox.isPaused
        traceBox.isPaused = true
        defer { traceBox.isPaused = wasPaused }
        return try body()
    }

    // MARK: Error log

    /// A function that receives the messages of SQLite's error log.
    public typealias LogErrorFunction = @Sendable (_ resultCode: ResultCode, _ message: String) -> Void

    /// The function that receives the messages of SQLite's error log, for
    /// all connections; nil (the default) ignores them.
    ///
    /// ```swift
    /// Database.logError = { resultCode, message in
    ///     NSLog("%@", "SQLite error \(resultCode): \(message)")
    /// }
    /// ```
    ///
    /// SQLite logs errors, warnings (such as automatic indexes) and notices
    /// (such as the recovery of a WAL file).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/errlog.html>
    public static var logError: LogErrorFunction? {
        get { errorLogFunction.load() }
        set {
            setUpSQLiteOnce()
            errorLogFunction.withLock { $0 = newValue }
        }
    }

    /// The function of ``logError``, read by the C log callback.
    static let errorLogFunction = Locked<LogErrorFunction?>(nil)

    // MARK: Busy mode

    /// Applies the configured busy mode to the connection.
    func setUpBusyMode() {
        switch configuration.busyMode {
        case .immediateError:
            break
        case .timeout(let seconds):
            let milliseconds = (seconds * 1000).rounded()
            sqlite3_busy_timeout(sqliteConnection, CInt(clamping: Int64(exactly: milliseconds) ?? Int64.max))
        case .callback(let callback):
            let box = BusyBox(callback: callback)
            // The connection owns the box, for the lifetime of the connection.
            sqlite3_busy_handler(sqliteConnection, busyCallback, box.unretainedCContext())
            busyBox = box
        }
    }
}

/// The trace function of a connection, passed unretained to SQLite.
final class TraceBox: CCallbackContext {
    let trace: (Database.TraceEvent) -> Void
    let publicStatementArguments: Bool
    /// Whether the events are not reported now (see
    /// ``Database/untraced(_:)``). Only the thread of the current access
    /// reads and writes it.
    var isPaused = false

    init(trace: @escaping (Database.TraceEvent) -> Void, publicStatementArguments: Bool) {
        self.trace = trace
        self.publicStatementArguments = publicStatementArguments
    }
}

/// The busy callback of a connection, passed unretained to SQLite.
final class BusyBox: CCallbackContext {
    let callback: Database.BusyCallback

    init(callback: @escaping Database.BusyCallback) {
        self.callback = callback
    }
}
