// One way to stop the program on a programmer error, with its advice kept
// in release builds.

/// Stops the program with `message` when `condition` is false, in every
/// build.
///
/// The standard library's `precondition(_:_:)` keeps its check in optimized
/// builds but drops its message, so that a user of a release build would
/// see a bare "illegal instruction" without the advice that says what went
/// wrong. `fatalError(_:file:line:)` prints its message in every build:
/// Cairn's checks of programmer errors go through this function.
///
/// The message is only built when the check fails.
@inlinable @inline(__always)
func stopUnless(
    _ condition: Bool,
    _ message: @autoclosure () -> String,
    file: StaticString = #fileID,
    line: UInt = #line
) {
    if _slowPath(!condition) {
        stopProgram(message(), file: file, line: line)
    }
}

/// Stops the program with `message`, in every build.
///
/// Kept out of line, so that the checks that call it stay small.
@usableFromInline @inline(never)
func stopProgram(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError(message, file: file, line: line)
}

// MARK: Misuses of accesses

/// What a program used outside of the database access it belongs to: the
/// subject of ``stopUsedOutsideAccess(_:)``.
@usableFromInline
enum AccessBoundValue {
    /// A `Database`, outside of any access to it.
    case connection
    /// A statement, outside of an access to its connection.
    case statement
    /// A cursor, after the access that created it, or on another thread.
    case cursor
    /// A row of a cursor, after the access that fetched it, or on another
    /// thread.
    case cursorRow
}

/// Stops the program: a value was used outside of its database access. The
/// one stop of such misuses; the message says what to do instead.
@usableFromInline @inline(never)
func stopUsedOutsideAccess(_ value: AccessBoundValue, file: StaticString = #fileID, line: UInt = #line) -> Never {
    let message: String
    switch value {
    case .connection:
        message = "A database connection was used outside of its database access. Use the Database, its "
            + "statements and cursors inside the closure of read, write or inDatabase only, and do not let them escape."
    case .statement:
        message = "A statement or cursor was used outside of the database access that created it. "
            + "Run it inside the closure of read, write or inDatabase, and do not let it escape."
    case .cursor:
        message = "A cursor was used outside of the database access that created it. "
            + "Consume cursors inside the closure of read, write or inDatabase, "
            + "or fetch an array with fetchAll instead."
    case .cursorRow:
        message = "A row of a cursor was used outside of the database access that fetched it, or on another thread. "
            + "Cursor rows are views on a running statement: copy the rows you keep with row.copy() "
            + "inside the access, or fetch them with fetchAll."
    }
    stopProgram(message, file: file, line: line)
}

/// Stops the program: a synchronous access was asked from an access that
/// it would wait for (a `read` inside a `write` of the same queue, for
/// instance). The one stop of reentrant accesses.
///
/// - Parameters:
///   - method: The method that was called, when the reader names it.
///   - reader: What the reader is ("database pool").
///   - reentrantMethods: The reentrant methods the reader offers.
@inline(never)
func stopReentrantAccess(
    _ method: String?,
    of reader: String,
    reentrantMethods: String = "unsafeReentrantRead / unsafeReentrantWrite") -> Never
{
    let what = method.map { "\($0) was called from an access to the same \(reader)" }
        ?? "this access would wait for the access that calls it"
    stopProgram("Database methods are not reentrant: \(what). "
        + "Use the `db` argument of the current access instead, or \(reentrantMethods).")
}
