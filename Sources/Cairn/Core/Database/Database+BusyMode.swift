import Foundation

// What a connection does when another connection locks the database: the
// type of Configuration.busyMode.

extension Database {
    /// A function called when the database is locked by another connection
    /// (see ``BusyMode/callback(_:)``): it receives the number of times it was
    /// called for the same lock, and returns true to try again, false to fail
    /// with `SQLITE_BUSY`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/busy_handler.html>
    public typealias BusyCallback = @Sendable (_ numberOfTries: Int) -> Bool

    /// What a connection does when the database is locked by another
    /// connection (another process, or a connection that writes while a
    /// database queue opens a transaction).
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.busyMode = .timeout(5)   // retry for up to 5 seconds
    /// let dbQueue = try DatabaseQueue(path: "/path/to/database.sqlite", configuration: config)
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/busy_timeout.html>
    public enum BusyMode: Sendable {
        /// The statement fails at once with `SQLITE_BUSY`.
        case immediateError
        /// The statement retries for up to the given number of seconds, then
        /// fails with `SQLITE_BUSY`.
        ///
        /// The corresponding C function is `sqlite3_busy_timeout`.
        case timeout(TimeInterval)
        /// A function decides whether to retry.
        ///
        /// The corresponding C function is `sqlite3_busy_handler`.
        case callback(BusyCallback)
    }
}
