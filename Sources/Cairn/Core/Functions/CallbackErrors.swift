import Foundation

// The errors of Swift callbacks that SQLite calls. Swift errors never cross
// the C boundary: a callback keeps its error and returns an error code to
// SQLite, and the statement that called it (or the Swift method that ran the
// C call) throws the error.
//
// Two stores, one channel: the callbacks that know their connection (SQL
// functions, collations, the commit hook of transaction observers) keep
// their error in the connection's `CallbackErrorStash`; the callbacks that SQLite calls without a context
// leading to their connection (Swift FTS5 tokenizers, which FTS5 wrapper
// tokenizers call through C token callbacks) keep it for the current thread
// in `ThreadCallbackErrors`, which the connection reads when the statement
// fails. The thread is the thread of the statement: SQLite calls back on
// the thread that steps the statement.

/// Holds the error thrown by a Swift callback during a statement, until the
/// statement fails and rethrows it.
final class CallbackErrorStash {
    /// Unchecked exclusivity: callbacks run on the thread of the statement
    /// that calls them.
    @exclusivity(unchecked) var error: (any Error)?

    /// Whether the statement throws ``error`` as it is. Otherwise, an error
    /// that is not a ``DatabaseError`` becomes an SQLite error whose message
    /// describes it (the errors of SQL functions, as GRDB reports them).
    @exclusivity(unchecked) var throwsErrorAsIs = false

    /// Keeps an error for the statement to throw.
    ///
    /// - Parameter asIs: Whether the statement throws the error as it is
    ///   (the error of an observer that prevented a commit).
    func record(_ error: any Error, asIs: Bool) {
        self.error = error
        throwsErrorAsIs = asIs
    }

    /// Returns and forgets the error, with how to throw it.
    func take() -> (error: any Error, asIs: Bool)? {
        guard let error else { return nil }
        self.error = nil
        return (error, throwsErrorAsIs)
    }
}

/// The first error of a Swift callback that has no context leading to its
/// connection, kept for the current thread.
///
/// Statements forget a stale error before they are prepared and before they
/// run; the statement that failed throws the error (see
/// `Database.statementDidFail(_:withResultCode:)`).
enum ThreadCallbackErrors {
    /// An error, and whether the statement's transaction must be rolled
    /// back (see ``record(_:rollsBackTransaction:)``).
    private final class Entry {
        let error: any Error
        let rollsBackTransaction: Bool

        init(error: any Error, rollsBackTransaction: Bool) {
            self.error = error
            self.rollsBackTransaction = rollsBackTransaction
        }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let code = pthread_key_create(&key, { pointer in
            // A thread that ends with an error still recorded.
            guard let pointer else { return }
            Unmanaged<Entry>.fromOpaque(pointer).release()
        })
        stopUnless(code == 0, "pthread_key_create failed")
        return key
    }()

    /// Keeps the first error of the current callback family call.
    ///
    /// - Parameters:
    ///   - error: The error.
    ///   - rollsBackTransaction: Whether the failed callback may have left
    ///     the statement's changes half done, so that the statement's
    ///     transaction must be rolled back. A failed FTS5 tokenizer leaves
    ///     a document half-indexed, and a statement that writes one row has
    ///     no statement journal to undo it.
    static func record(_ error: any Error, rollsBackTransaction: Bool) {
        guard pthread_getspecific(key) == nil else { return }
        let entry = Entry(error: error, rollsBackTransaction: rollsBackTransaction)
        pthread_setspecific(key, Unmanaged.passRetained(entry).toOpaque())
    }

    /// Whether an error waits on the current thread.
    static var hasError: Bool {
        pthread_getspecific(key) != nil
    }

    /// Returns and forgets the error of the current thread.
    static func take() -> (error: any Error, rollsBackTransaction: Bool)? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        pthread_setspecific(key, nil)
        let entry = Unmanaged<Entry>.fromOpaque(pointer).takeRetainedValue()
        return (entry.error, entry.rollsBackTransaction)
    }
}
