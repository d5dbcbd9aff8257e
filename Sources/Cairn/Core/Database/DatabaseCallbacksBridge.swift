// The C callbacks of a connection: trace, busy handler, progress handler,
// and the global error log. They capture nothing, guard every pointer, and never let a
// Swift error cross into C.

/// `sqlite3_trace_v2` callback. The context is the connection's TraceBox.
let traceCallback: @convention(c) (UInt32, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> CInt = { mask, context, p, x in
    guard let context, let p else { return 0 }
    let box = Unmanaged<TraceBox>.fromOpaque(context).takeUnretainedValue()
    if box.isPaused { return 0 }
    let sqliteStatement = OpaquePointer(p)

    func makeStatement(sql rawSQL: String) -> Database.TraceEvent.Statement {
        // The text of one statement of a longer SQL string keeps the
        // whitespace before it and the semicolon after it: trimmed, as the
        // SQL of Statement is.
        let sql = rawSQL.trimmingSQLWhitespace()
        // Statements without parameters expand to their SQL.
        var expandedSQL = sql
        if sqlite3_bind_parameter_count(sqliteStatement) > 0, let expanded = sqlite3_expanded_sql(sqliteStatement) {
            expandedSQL = String(cString: expanded).trimmingSQLWhitespace()
            sqlite3_free(expanded)
        }
        return Database.TraceEvent.Statement(
            sql: sql, expandedSQL: expandedSQL, publicStatementArguments: box.publicStatementArguments)
    }

    switch Int32(mask) {
    case SQLITE_TRACE_STMT:
        // X is the text of the statement, or a comment for trigger statements.
        let text = x.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
        if let text, text.hasPrefix("--") {
            box.trace(.statement(Database.TraceEvent.Statement(
                sql: text, expandedSQL: text, publicStatementArguments: box.publicStatementArguments)))
        } else {
            let sql = sqlite3_sql(sqliteStatement).map { String(cString: $0) } ?? text ?? ""
            box.trace(.statement(makeStatement(sql: sql)))
        }
    case SQLITE_TRACE_PROFILE:
        guard let x else { return 0 }
        let nanoseconds = x.assumingMemoryBound(to: Int64.self).pointee
        let sql = sqlite3_sql(sqliteStatement).map { String(cString: $0) } ?? ""
        box.trace(.profile(statement: makeStatement(sql: sql), duration: Double(nanoseconds) / 1_000_000_000))
    default:
        break
    }
    return 0
}

/// `sqlite3_busy_handler` callback. The context is the connection's BusyBox.
let busyCallback: @convention(c) (UnsafeMutableRawPointer?, CInt) -> CInt = { context, numberOfTries in
    guard let context else { return 0 }
    let box = Unmanaged<BusyBox>.fromOpaque(context).takeUnretainedValue()
    return box.callback(Int(numberOfTries)) ? 1 : 0
}

/// `sqlite3_progress_handler` callback. The context is the connection's
/// ProgressBox. Non-zero stops the running statement with
/// `SQLITE_INTERRUPT`.
let progressCallback: @convention(c) (UnsafeMutableRawPointer?) -> CInt = { context in
    guard let context else { return 0 }
    let box = Unmanaged<ProgressBox>.fromOpaque(context).takeUnretainedValue()
    return box.shouldInterrupt() ? 1 : 0
}

/// `SQLITE_CONFIG_LOG` callback, installed once for the process.
let errorLogCallback: @convention(c) (UnsafeMutableRawPointer?, CInt, UnsafePointer<CChar>?) -> Void = { _, code, message in
    guard let log = Database.errorLogFunction.load() else { return }
    log(ResultCode(rawValue: code), message.map { String(cString: $0) } ?? "")
}
