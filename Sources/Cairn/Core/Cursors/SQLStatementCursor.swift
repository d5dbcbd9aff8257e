/// A cursor over the statements of an SQL string, prepared one after the
/// other as the cursor advances: a statement can depend on the effects of
/// the statements before it (a table they create, for instance).
///
/// You get one from ``Database/allStatements(sql:arguments:)`` or
/// ``Database/allStatements(literal:)``:
///
/// ```swift
/// let statements = try db.allStatements(sql: """
///     CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
///     INSERT INTO player (name) VALUES (?);
///     INSERT INTO player (name) VALUES (?);
///     """, arguments: ["Arthur", "Barbara"])
/// while let statement = try statements.next() {
///     try statement.execute()
/// }
/// ```
///
/// When the cursor was given arguments, each statement takes the positional
/// arguments it needs, in order, and the named arguments it refers to; the
/// cursor throws when it reaches the end of the SQL and positional
/// arguments were left unused. Without arguments, the statements have none:
/// give them yours when you execute them.
///
/// Like the other database cursors, consume it inside the database access
/// that created it.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/prepare.html>
public final class SQLStatementCursor: Cursor {
    private let database: Database
    /// The SQL, in UTF-8.
    private let utf8: ContiguousArray<UInt8>
    private let prepareFlags: UInt32
    /// The access that created the cursor.
    private let access: DatabaseAccess
    /// Where the next statement starts in `utf8`.
    private var offset = 0
    /// The number of statements prepared so far.
    private var statementCount = 0
    /// The arguments that the next statements consume; nil when the
    /// statements get no arguments.
    private var arguments: StatementArguments?
    /// The number of positional arguments the cursor was given.
    private let initialArgumentCount: Int
    /// Whether the cursor is exhausted, or threw.
    private var isDone = false

    init(database: Database, sql: String, arguments: StatementArguments?, prepareFlags: UInt32 = 0) {
        self.database = database
        self.utf8 = ContiguousArray(sql.utf8)
        self.prepareFlags = prepareFlags
        self.arguments = arguments
        self.initialArgumentCount = arguments?.values.count ?? 0
        self.access = database.accessForNewCursor
    }

    /// Prepares and returns the next statement, with its arguments when the
    /// cursor was given arguments; nil at the end of the SQL.
    ///
    /// - Throws: A ``DatabaseError`` when a statement cannot be prepared,
    ///   when its arguments are missing, or, at the end of the SQL, when
    ///   positional arguments were left unused. The cursor returns nil after
    ///   it threw.
    public func next() throws -> Statement? {
        if isDone { return nil }
        if !access.isCurrent { stopUsedOutsideAccess(.cursor) }
        do {
            guard let statement = try prepareNextStatement() else {
                isDone = true
                try checkArgumentsAreConsumed()
                return nil
            }
            statementCount += 1
            if var remaining = arguments {
                let bindings = try remaining.extractBindings(forStatement: statement, allowingRemainingValues: true)
                try statement.setBindings(bindings, arguments: StatementArguments(bindings))
                arguments = remaining
            }
            return statement
        } catch {
            isDone = true
            throw error
        }
    }

    private func prepareNextStatement() throws -> Statement? {
        let database = self.database
        let prepareFlags = self.prepareFlags
        let statementIndex = statementCount
        var offset = self.offset
        defer { self.offset = offset }
        do {
            return try utf8.withUnsafeBufferPointer { buffer in
                try database.prepareNextStatement(
                    utf8: buffer, offset: &offset, prepareFlags: prepareFlags, statementIndex: statementIndex)
            }
        } catch let error as Database.PreparationError {
            throw error.underlyingError
        }
    }

    private func checkArgumentsAreConsumed() throws {
        guard let arguments, !arguments.values.isEmpty else { return }
        throw database.makeError(
            resultCode: .SQLITE_MISUSE,
            message: "wrong number of statement arguments: \(initialArgumentCount)",
            sql: String(decoding: utf8, as: UTF8.self).trimmingSQLWhitespace(), arguments: nil)
    }
}
