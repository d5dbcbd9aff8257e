import Foundation
internal import CairnSQLiteShims

/// A table-valued function written in Swift: a function that SQL queries
/// read as a table, whose rows Swift produces from the function's
/// arguments.
///
/// ```swift
/// let splitWords = DatabaseTableFunction(
///     "split_words",
///     columns: ["word", "position"],
///     parameters: ["text"])
/// { arguments in
///     let text = String.fromDatabaseValue(arguments[0]) ?? ""
///     return AnyCursor(text.split(separator: " ").enumerated().lazy.map { index, word in
///         [String(word), index + 1]
///     })
/// }
///
/// try dbQueue.write { db in
///     try db.add(tableFunction: splitWords)
///     let words = try String.fetchAll(db, sql: """
///         SELECT word FROM split_words(?) WHERE position > 1
///         """, arguments: ["The quick brown fox"]) // ["quick", "brown", "fox"]
/// }
/// ```
///
/// The function is an eponymous, read-only virtual table of SQLite: its
/// name is the name of a table that needs no `CREATE VIRTUAL TABLE`. Its
/// ``columns`` are the columns of the rows; its ``parameters`` are hidden
/// columns, which receive the arguments of `split_words(?)`, or the values of
/// `WHERE text = ?` constraints: `SELECT * FROM split_words WHERE text = ?`
/// is the same query. A parameter without an argument is NULL.
///
/// Rows are produced on demand, one at a time, as SQLite reads them: a
/// function that produces a million rows uses constant memory, and a query
/// with `LIMIT 3` stops after three. SQLite filters the rows with the other
/// constraints of the query (`position > 1` above).
///
/// An error thrown by the closure, or by the cursor it returns, makes the
/// statement fail with the error (a ``DatabaseError`` as it is, another
/// error as an SQLite error whose message describes it). A query leaves the
/// transaction open and usable; a statement that writes
/// (`INSERT INTO … SELECT … FROM function()`) rolls it back, since SQLite
/// would keep the rows written before the failure.
///
/// Register the function on each connection that uses it, with
/// ``Database/add(tableFunction:)``; on every connection of a pool, register
/// it in ``Configuration/prepareDatabase(_:)``. The closure may run on any
/// of them, hence `@Sendable`; it must not use the connection.
///
/// Related SQLite documentation: <https://www.sqlite.org/vtab.html#tabfunc2>
public final class DatabaseTableFunction: Sendable {
    /// The name of the function, which SQL uses as a table name.
    public let name: String

    /// The names of the columns of the rows.
    public let columns: [String]

    /// The names of the parameters: hidden columns, which receive the
    /// arguments of the function in this order.
    public let parameters: [String]

    /// Makes the rows of one call from the values of the parameters.
    let makeRows: @Sendable ([DatabaseValue]) throws -> any TableFunctionRows

    /// Creates a table-valued function.
    ///
    /// The closure returns a cursor on the rows of one call: `AnyCursor`
    /// wraps a sequence (read lazily, as SQLite asks for rows), or a
    /// closure that returns the next row, or nil after the last one, and
    /// may throw:
    ///
    /// ```swift
    /// let numbers = DatabaseTableFunction("numbers", columns: ["value"], parameters: ["count"]) { arguments in
    ///     let count = Int.fromDatabaseValue(arguments[0]) ?? 0
    ///     return AnyCursor((0..<max(count, 0)).lazy.map { [$0] })
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name of the function.
    ///   - columns: The names of the columns of the rows (at least one).
    ///   - parameters: The names of the parameters (at most 31).
    ///   - rows: Returns the rows of a call, from the values of the
    ///     parameters (one per parameter, NULL when the query gives none).
    ///     Each row holds one value per column. An error thrown here, or by
    ///     the cursor, makes the statement fail with that error.
    public init(
        _ name: String,
        columns: [String],
        parameters: [String] = [],
        rows: @escaping @Sendable (_ arguments: [DatabaseValue]) throws -> AnyCursor<[(any DatabaseValueConvertible)?]>)
    {
        self.name = name
        self.columns = columns
        self.parameters = parameters
        let columnCount = columns.count
        makeRows = { arguments in
            CursorRows(cursor: try rows(arguments), functionName: name, columnCount: columnCount)
        }
    }

    /// An internal function, which produces its rows itself.
    init(
        name: String,
        columns: [String],
        parameters: [String],
        makeRows: @escaping @Sendable ([DatabaseValue]) throws -> any TableFunctionRows)
    {
        self.name = name
        self.columns = columns
        self.parameters = parameters
        self.makeRows = makeRows
    }

    /// The declaration of the virtual table, for `sqlite3_declare_vtab`.
    var tableDeclaration: String {
        let definitions = columns.map(\.quotedDatabaseIdentifier)
            + parameters.map { $0.quotedDatabaseIdentifier + " HIDDEN" }
        return "CREATE TABLE x(" + definitions.joined(separator: ", ") + ")"
    }

    /// The reason why SQLite cannot use the function, if any.
    var definitionError: String? {
        if name.isEmpty { return "a table function needs a name" }
        if columns.isEmpty { return "the table function \(name) needs at least one column" }
        if parameters.count > 31 { return "the table function \(name) has more than 31 parameters" }
        var seen = Set<String>()
        for column in columns + parameters {
            if column.isEmpty { return "the table function \(name) has a column without a name" }
            if !seen.insert(column.lowercased()).inserted {
                return "the table function \(name) has two columns or parameters named \(column)"
            }
        }
        return nil
    }
}

/// The rows of one call of a table function, produced on demand.
protocol TableFunctionRows: AnyObject {
    /// Moves to the next row; false after the last one.
    func advance() throws -> Bool

    /// The value of a column of the current row.
    func value(ofColumn index: Int) -> DatabaseValue
}

/// The rows of a cursor of arrays of values.
private final class CursorRows: TableFunctionRows {
    let cursor: AnyCursor<[(any DatabaseValueConvertible)?]>
    let functionName: String
    let columnCount: Int
    var current: [DatabaseValue] = []

    init(cursor: AnyCursor<[(any DatabaseValueConvertible)?]>, functionName: String, columnCount: Int) {
        self.cursor = cursor
        self.functionName = functionName
        self.columnCount = columnCount
    }

    func advance() throws -> Bool {
        guard let row = try cursor.next() else { return false }
        current = try tableFunctionRow(row, functionName: functionName, columnCount: columnCount)
        return true
    }

    func value(ofColumn index: Int) -> DatabaseValue { current[index] }
}

/// The values of a row that a table function produced, checked.
private func tableFunctionRow(
    _ row: [(any DatabaseValueConvertible)?],
    functionName: String,
    columnCount: Int) throws -> [DatabaseValue]
{
    guard row.count == columnCount else {
        throw DatabaseError(
            resultCode: .SQLITE_ERROR,
            message: "the table function \(functionName) produced a row of \(row.count) values "
                + "for \(columnCount) columns")
    }
    return row.map { $0?.databaseValue ?? .null }
}

extension Database {
    /// Registers a table-valued function on the connection, or replaces the
    /// function of the same name (see ``DatabaseTableFunction``).
    ///
    /// - Parameter tableFunction: The function.
    /// - Throws: A ``DatabaseError`` with the `SQLITE_MISUSE` code when the
    ///   function has no column, more than 31 parameters, or two columns of
    ///   the same name, or the error of SQLite.
    ///
    /// The corresponding C function is `sqlite3_create_module_v2`.
    public func add(tableFunction: DatabaseTableFunction) throws {
        preconditionInsideAccess()
        if let message = tableFunction.definitionError {
            throw makeError(resultCode: .SQLITE_MISUSE, message: message, sql: nil, arguments: nil)
        }
        guard let sqliteConnection else {
            throw DatabaseError.connectionIsClosed()
        }
        let code = registerTableFunction(
            TableFunctionRegistration(function: tableFunction, errors: callbackErrors),
            on: sqliteConnection)
        guard code == SQLITE_OK else {
            throw lastError(code: code)
        }
    }

    /// Unregisters a table-valued function. Statements prepared afterwards
    /// cannot use it; removing a function that is not registered does
    /// nothing.
    ///
    /// - Parameter tableFunction: The function.
    ///
    /// The corresponding C function is `sqlite3_create_module_v2`.
    public func remove(tableFunction: DatabaseTableFunction) {
        preconditionInsideAccess()
        guard let sqliteConnection else { return }
        sqlite3_create_module_v2(sqliteConnection, tableFunction.name, nil, nil, nil)
    }
}
