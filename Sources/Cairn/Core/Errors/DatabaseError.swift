import Foundation

/// An error reported by SQLite, or by Cairn for a misuse of the database
/// (wrong statement arguments, closed connection…).
///
/// Each error has an extended result code and its primary result code, a
/// message, and the SQL of the failing statement when there is one:
///
/// ```swift
/// do {
///     try db.execute(sql: "INSERT INTO pet (masterId, name) VALUES (?, ?)",
///                    arguments: [1, "Bobby"])
/// } catch let error as DatabaseError {
///     error.resultCode          // ResultCode.SQLITE_CONSTRAINT
///     error.extendedResultCode  // ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY
///     error.message             // "FOREIGN KEY constraint failed"
///     error.sql                 // "INSERT INTO pet (masterId, name) VALUES (?, ?)"
///     error.description         // "SQLite error 19: FOREIGN KEY constraint failed - while executing `INSERT INTO pet ...`"
/// }
///
/// // Or match result codes directly:
/// do {
///     try ...
/// } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
///     // foreign key violation
/// } catch DatabaseError.SQLITE_CONSTRAINT {
///     // any other constraint violation
/// }
/// ```
///
/// Statement arguments may hold private data: the ``description`` shows them
/// only when ``Configuration/publicStatementArguments`` is set. They remain
/// available in ``arguments`` and ``expandedDescription``.
///
/// Related SQLite documentation: <https://www.sqlite.org/rescode.html>
public struct DatabaseError: Error, Sendable, CustomStringConvertible, CustomNSError {
    /// The extended result code, such as `SQLITE_CONSTRAINT_FOREIGNKEY`.
    public let extendedResultCode: ResultCode

    /// The primary result code, such as `SQLITE_CONSTRAINT`.
    public var resultCode: ResultCode { extendedResultCode.primaryResultCode }

    /// The error message.
    public let message: String?

    /// The SQL of the statement that failed, if any.
    public let sql: String?

    /// The arguments of the statement that failed, if any.
    public let arguments: StatementArguments?

    /// Whether ``description`` may show the arguments.
    let publicStatementArguments: Bool

    /// Creates a database error.
    ///
    /// ```swift
    /// throw DatabaseError(resultCode: .SQLITE_CONSTRAINT_CHECK, message: "invalid score")
    /// ```
    ///
    /// - Parameters:
    ///   - resultCode: A primary or extended result code (default
    ///     `SQLITE_ERROR`).
    ///   - message: The error message; when nil, SQLite's English explanation
    ///     of the result code.
    ///   - sql: The SQL of the failing statement.
    ///   - arguments: The arguments of the failing statement.
    ///   - publicStatementArguments: Whether ``description`` shows the
    ///     arguments (default false: arguments may hold private data; they
    ///     remain in ``arguments`` and ``expandedDescription``).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/rescode.html>
    public init(
        resultCode: ResultCode = .SQLITE_ERROR,
        message: String? = nil,
        sql: String? = nil,
        arguments: StatementArguments? = nil,
        publicStatementArguments: Bool = false)
    {
        self.extendedResultCode = resultCode
        self.message = message ?? String(cString: sqlite3_errstr(resultCode.rawValue))
        self.sql = sql
        self.arguments = arguments
        self.publicStatementArguments = publicStatementArguments
    }

    /// Whether the error comes from an interruption: its primary code is
    /// `SQLITE_INTERRUPT` or `SQLITE_ABORT`.
    ///
    /// Such errors are thrown by the statements that
    /// ``DatabaseReader/interrupt()`` stops, by the statements of a
    /// transaction that SQLite aborted, by the statements of a cancelled
    /// async access, and by the statements that a suspended database
    /// refuses (see ``Configuration/observesSuspensionNotifications``).
    ///
    /// ```swift
    /// do {
    ///     try dbQueue.write { db in ... }
    /// } catch let error as DatabaseError where error.isInterruptionError {
    ///     // The database was interrupted or suspended: try again later.
    /// }
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/rescode.html#interrupt>
    public var isInterruptionError: Bool {
        switch resultCode {
        case .SQLITE_INTERRUPT, .SQLITE_ABORT:
            return true
        default:
            return false
        }
    }

    /// A description of the error, without the statement arguments unless
    /// ``Configuration/publicStatementArguments`` is set:
    /// `SQLite error 1: no such table: foo - while executing `SELECT * FROM foo``
    public var description: String {
        makeDescription(showingArguments: publicStatementArguments)
    }

    /// A description of the error that includes the statement arguments.
    ///
    /// Arguments may hold private data: do not log this description where
    /// that would be a problem.
    public var expandedDescription: String {
        makeDescription(showingArguments: true)
    }

    private func makeDescription(showingArguments: Bool) -> String {
        // The primary result code, as SQLite documents errors.
        var description = "SQLite error \(resultCode.rawValue)"
        if let message {
            description += ": \(message)"
        }
        if let sql {
            description += " - while executing `\(sql.trimmingSQLWhitespace())`"
        }
        if showingArguments, let arguments, !arguments.isEmpty {
            description += " with arguments \(arguments)"
        }
        return description
    }

    // MARK: CustomNSError

    /// `"Cairn.DatabaseError"`.
    public static var errorDomain: String { "Cairn.DatabaseError" }

    /// The extended result code.
    public var errorCode: Int { Int(extendedResultCode.rawValue) }

    /// The ``description`` under `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}

extension ResultCode {
    /// Returns whether `error` is a ``DatabaseError`` whose code matches
    /// `pattern`: this makes `catch DatabaseError.SQLITE_CONSTRAINT` work.
    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return pattern ~= error.extendedResultCode
    }
}

// MARK: - Internal factories

extension DatabaseError {
    /// The error of a statement or function call on a closed connection:
    /// `SQLITE_MISUSE`, "Connection is closed", without SQL, as in GRDB
    /// (the statement that could not run may be one of Cairn's own).
    static func connectionIsClosed() -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_MISUSE, message: "Connection is closed")
    }
}
