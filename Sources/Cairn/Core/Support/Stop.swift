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
