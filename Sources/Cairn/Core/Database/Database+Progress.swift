import Foundation
internal import CairnSQLiteShims

// Long queries: the progress handler and time limits.
//
// SQLite calls one progress handler per connection, every N virtual machine
// instructions of a running statement (`sqlite3_progress_handler`). Cairn
// owns it, and shares it between the handler of the user
// (`setProgressHandler`) and the time limits of `withTimeLimit`. A handler
// that throws, or a time limit that passes, stops the running statement:
// SQLite fails it with `SQLITE_INTERRUPT`, and the statement throws the
// error of the handler, or a `DatabaseError` that names the time limit,
// through the connection's callback-error channel.
//
// Unlike `sqlite3_interrupt`, which stops whatever runs on the connection at
// the moment another thread calls it, these stop the statements of the
// current thread only, between two of their instructions. The statements
// that Cairn runs to restore the state of the connection (the rollbacks of
// failed blocks, the end of a read-only access) are never stopped.

extension Database {
    /// Calls `handler` periodically while statements run, so that a long
    /// query can be stopped: when it throws, the running statement stops
    /// and throws its error.
    ///
    /// ```swift
    /// let stop = Locked(false) // set from another thread
    /// try dbQueue.read { db in
    ///     db.setProgressHandler(instructions: 10_000) {
    ///         if stop.value { throw CancellationError() }
    ///     }
    ///     defer { db.setProgressHandler(nil) }
    ///     return try Row.fetchAll(db, sql: "SELECT ...") // throws CancellationError
    /// }
    /// ```
    ///
    /// In an async access, the handler runs in the task of the access:
    /// `try Task.checkCancellation()` stops a statement when the task is
    /// cancelled.
    ///
    /// When a statement stops, SQLite rolls back the statement. As after an
    /// `sqlite3_interrupt`, an INSERT, UPDATE or DELETE stopped inside a
    /// transaction may roll back the whole transaction: Cairn's transaction
    /// blocks then throw `SQLITE_ABORT` for their next statements.
    ///
    /// The handler must not use the connection (SQLite forbids it), and
    /// should be fast: it runs often. It stays installed until it is
    /// replaced, removed with nil, or the access ends. It does not
    /// stop the statements that Cairn runs to restore the connection (the
    /// rollback of a failed block). See also ``withTimeLimit(_:_:)``, which
    /// shares SQLite's progress handler with this one.
    ///
    /// - Parameters:
    ///   - instructions: The number of virtual machine instructions between
    ///     two calls (at least 1; 1,000 by default, a few microseconds).
    ///   - handler: Throws to stop the running statement; nil removes the
    ///     handler.
    ///
    /// The corresponding C function is `sqlite3_progress_handler`
    /// (see <https://www.sqlite.org/c3ref/progress_handler.html>).
    public func setProgressHandler(instructions: Int = 1000, _ handler: (() throws -> Void)?) {
        preconditionInsideAccess()
        let box = progressBox ?? ProgressBox(errors: callbackErrors)
        box.handler = handler.map { (handler: $0, instructions: CInt(clamping: max(1, instructions))) }
        installProgressBox(box)
    }

    /// Runs `body`, and stops the statements that are still running when
    /// `seconds` have passed since the call: they throw a ``DatabaseError``
    /// with the `SQLITE_INTERRUPT` code, as do the statements that `body`
    /// starts afterwards.
    ///
    /// ```swift
    /// let rows = try dbQueue.read { db in
    ///     try db.withTimeLimit(2) {
    ///         try Row.fetchAll(db, sql: "SELECT ...") // at most about 2 seconds
    ///     }
    /// }
    /// ```
    ///
    /// Limits nest: the earliest one applies. The limit is checked every
    /// 1,000 virtual machine instructions (a few microseconds), and before
    /// each statement starts. It never stops the statements that Cairn runs
    /// to restore the connection (the rollback of a failed `write`).
    ///
    /// - Parameters:
    ///   - seconds: The time limit, in seconds.
    ///   - body: The work to limit.
    /// - Returns: The result of `body`.
    /// - Throws: The error of `body`; a stopped statement throws a
    ///   ``DatabaseError`` with the `SQLITE_INTERRUPT` code.
    ///
    /// The corresponding C function is `sqlite3_progress_handler`.
    public func withTimeLimit<T>(_ seconds: TimeInterval, _ body: () throws -> T) throws -> T {
        preconditionInsideAccess()
        guard seconds.isFinite, seconds >= 0 else {
            throw makeError(
                resultCode: .SQLITE_MISUSE,
                message: "the time limit must be a finite number of seconds, not \(seconds)",
                sql: nil, arguments: nil)
        }
        let box = progressBox ?? ProgressBox(errors: callbackErrors)
        let limit = ProgressBox.TimeLimit(
            deadline: ProgressBox.now() &+ UInt64(min(seconds, 1e9) * 1e9), seconds: seconds)
        box.timeLimits.append(limit)
        installProgressBox(box)
        defer {
            if let index = box.timeLimits.lastIndex(where: { $0 === limit }) {
                box.timeLimits.remove(at: index)
            }
            installProgressBox(box)
        }
        return try body()
    }

    /// Throws when a time limit passed (see ``withTimeLimit(_:_:)``):
    /// called before each statement starts.
    func checkTimeLimit(for statement: Statement) throws {
        guard let progressBox, let limit = progressBox.passedTimeLimit(),
              !endsTransactionSafely(statement), mayInterruptStatements
        else { return }
        throw limit.error(sql: statement.sql, arguments: statement.arguments, in: self)
    }

    /// Removes the progress handler at the end of an access: it may capture
    /// state of the code that ran the access, which other accesses (other
    /// threads, for the readers of a pool) must not reach.
    func removeProgressHandler() {
        guard let progressBox else { return }
        progressBox.handler = nil
        installProgressBox(progressBox)
    }

    /// Removes SQLite's progress handler, and keeps the box, for the
    /// statements that restore the connection (see
    /// `ignoringAccessCancellation(_:)`).
    func pauseProgressHandler() {
        guard let sqliteConnection else { return }
        sqlite3_progress_handler(sqliteConnection, 0, nil, nil)
    }

    /// Installs SQLite's progress handler again after
    /// ``pauseProgressHandler()``, as the box says.
    func resumeProgressHandler() {
        if let progressBox { installProgressBox(progressBox) }
    }

    /// Installs or removes SQLite's progress handler after a change of
    /// `box`.
    private func installProgressBox(_ box: ProgressBox) {
        guard let sqliteConnection else { return }
        if let instructions = box.instructions {
            progressBox = box
            // The connection owns the box, and removes the handler before
            // releasing it.
            sqlite3_progress_handler(sqliteConnection, instructions, progressCallback, box.unretainedCContext())
        } else {
            sqlite3_progress_handler(sqliteConnection, 0, nil, nil)
            progressBox = nil
        }
    }
}

/// The progress handler of a connection and its time limits, passed
/// unretained to SQLite. Used on the thread of the current access only.
final class ProgressBox: CCallbackContext {
    /// One time limit of ``Database/withTimeLimit(_:_:)``.
    final class TimeLimit {
        /// The end of the limit, on the monotonic clock, in nanoseconds.
        let deadline: UInt64
        /// The limit, as given.
        let seconds: TimeInterval

        init(deadline: UInt64, seconds: TimeInterval) {
            self.deadline = deadline
            self.seconds = seconds
        }

        /// The error of a statement that the limit stopped, or kept from
        /// starting: the one place it is built. The statement, when it is
        /// known, and its arguments (public or not, as the configuration of
        /// `db` says) come with it.
        func error(sql: String? = nil, arguments: StatementArguments? = nil, in db: Database?) -> DatabaseError {
            let message = "interrupted: the time limit of \(seconds) seconds was reached"
            guard let db else { return DatabaseError(resultCode: .SQLITE_INTERRUPT, message: message) }
            return db.makeError(resultCode: .SQLITE_INTERRUPT, message: message, sql: sql, arguments: arguments)
        }
    }

    /// The number of instructions between two calls of a time limit's
    /// check.
    static let timeLimitInstructions: CInt = 1000

    /// The handler of the user, and its interval.
    var handler: (handler: () throws -> Void, instructions: CInt)?

    /// The open time limits, outermost first.
    var timeLimits: [TimeLimit] = []

    /// The channel of callback errors of the connection.
    let errors: CallbackErrorStash

    init(errors: CallbackErrorStash) {
        self.errors = errors
    }

    /// The interval of SQLite's progress handler; nil when nothing needs
    /// it.
    var instructions: CInt? {
        switch (handler?.instructions, timeLimits.isEmpty) {
        case (nil, true): nil
        case (nil, false): Self.timeLimitInstructions
        case (let instructions?, true): instructions
        case (let instructions?, false): min(instructions, Self.timeLimitInstructions)
        }
    }

    /// The monotonic clock, in nanoseconds.
    static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    /// The earliest time limit that passed, if any.
    func passedTimeLimit() -> TimeLimit? {
        guard !timeLimits.isEmpty else { return nil }
        let now = Self.now()
        return timeLimits.filter { $0.deadline <= now }.min { $0.deadline < $1.deadline }
    }

    /// Whether the running statement must stop; records the reason in the
    /// connection's callback errors.
    func shouldInterrupt() -> Bool {
        if let limit = passedTimeLimit() {
            // Inside SQLite's call: the statement is not known here.
            errors.record(limit.error(in: nil), disposition: .asIs)
            return true
        }
        if let handler = handler?.handler {
            do {
                try handler()
            } catch {
                errors.record(error, disposition: .asIs)
                return true
            }
        }
        return false
    }
}
