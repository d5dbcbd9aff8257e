import Foundation

// The errors of Swift callbacks that SQLite calls. Swift errors never cross
// the C boundary: a callback keeps its error and returns an error code to
// SQLite, and the statement that called it (or the Swift method that ran the
// C call) throws the error.
//
// One channel, owned by the connection: every family of callbacks (SQL
// functions, the commit hook of transaction observers, the conflict
// handlers of changesets, Swift FTS5 tokenizers and their initializers)
// keeps its error in the connection's `CallbackErrorStash`, which the
// statement or method that failed reads. Tokenizers reach it through the
// registration that created them; the token callbacks of wrapper
// tokenizers, which the wrapped tokenizer's C code calls with a context of
// its own, reach it through `TokenizerErrorRoute`, which the outermost
// Swift entry of a tokenization sets for its duration.

/// Holds the error thrown by a Swift callback during a statement, until the
/// statement fails and rethrows it. Each connection has one
/// (`Database.callbackErrors`).
final class CallbackErrorStash {
    /// How the statement that failed throws the error of its callback.
    enum Disposition {
        /// A ``DatabaseError`` is thrown as it is; another error becomes
        /// an SQLite error whose message describes it, with the SQL of the
        /// statement (the errors of SQL functions, as GRDB reports them).
        case described
        /// The error is thrown as it is (the error of an observer that
        /// prevented a commit, or of a changeset's conflict handler).
        case asIs
        /// The error is thrown as it is, and the statement's transaction
        /// is rolled back: the callback may have left the statement's
        /// changes half done (a document half-indexed by a failed FTS5
        /// tokenizer), and a statement that writes one row has no
        /// statement journal to undo it.
        case asIsRollingBack
        /// As ``described``, and the statement's transaction is rolled back
        /// when the statement writes: an SQL function or a table function
        /// failed in the middle of the statement's work, and SQLite undoes
        /// the rows written before the failure only when the statement has
        /// a statement journal, which it opens for statements that may hit
        /// a constraint, not for those that call functions
        /// (`INSERT INTO log SELECT … FROM failingFunction()` keeps the rows
        /// inserted before the error).
        case describedRollingBack
        /// The statement throws SQLite's own error (the callback gave SQLite
        /// the code and message of its `DatabaseError`), and its
        /// transaction is rolled back as for ``describedRollingBack``.
        case sqliteErrorRollingBack
    }

    /// Callbacks run on the thread of the statement that calls them, and
    /// every statement forgets the error before it runs (checked
    /// exclusivity costs nothing measurable there: InsertBenchmark "6").
    private(set) var error: (any Error)?

    /// How to throw ``error``.
    private(set) var disposition = Disposition.described

    /// Whether an error waits.
    var hasError: Bool { error != nil }

    /// Keeps an error for the statement to throw. The first error of a
    /// statement wins: a later one is a consequence of the first (a
    /// tokenizer that fails while wrapped by another that fails too).
    func record(_ error: any Error, disposition: Disposition) {
        guard self.error == nil else { return }
        self.error = error
        self.disposition = disposition
    }

    /// Returns and forgets the error, with how to throw it.
    func take() -> (error: any Error, disposition: Disposition)? {
        guard let error else { return nil }
        self.error = nil
        return (error, disposition)
    }

    /// Forgets a stale error, before a statement or C call that may run
    /// callbacks.
    @inline(__always)
    func forget() {
        if error != nil {
            error = nil
        }
    }
}
