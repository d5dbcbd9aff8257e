/// An error thrown when a value cannot be decoded from a row: the column is
/// missing, or its value does not convert to the requested type (a NULL for a
/// non-optional, 256 for a `UInt8`, text that is not valid UTF-8…).
///
/// ```swift
/// do {
///     let score = try row.decode(UInt8.self, forColumn: "score")
/// } catch let error as RowDecodingError {
///     print(error)
///     // could not decode UInt8 from database value 256 - column: "score",
///     // column index: 1, row: [name:"Arthur" score:256]
/// }
/// ```
public enum RowDecodingError: Error, Sendable, CustomStringConvertible {
    /// The row has no such column.
    case keyNotFound(Key, Context)

    /// The value of the column cannot be converted to the requested type,
    /// whose name is given.
    case valueMismatch(String, Context)

    /// The column a decoding error is about.
    public enum Key: Sendable, Hashable, CustomStringConvertible {
        /// A column name.
        case columnName(String)
        /// A column index.
        case columnIndex(Int)

        /// The column name, quoted, or the column index.
        public var description: String {
            switch self {
            case .columnName(let name): return String(reflecting: name)
            case .columnIndex(let index): return String(index)
            }
        }
    }

    /// Where a decoding error happened.
    public struct Context: Sendable, CustomStringConvertible {
        /// A description of what went wrong.
        public let debugDescription: String

        /// The name of the column, when known.
        public let columnName: String?

        /// The index of the column, when known.
        public let columnIndex: Int?

        /// A copy of the decoded row.
        public let row: Row

        /// The SQL of the statement that produced the row, if any.
        public let sql: String?

        /// The arguments of the statement that produced the row, if any.
        public let statementArguments: StatementArguments?

        /// Whether ``description`` may show the statement arguments.
        let publicStatementArguments: Bool

        /// A description of the context, as GRDB writes it: the column (when
        /// the row has it), the row, the SQL and the arguments of the
        /// statement.
        ///
        /// Statement arguments may hold private data: they are shown only
        /// when ``Configuration/publicStatementArguments`` is set, or when
        /// the statement has none (`arguments: []`).
        public var description: String {
            var parts: [String] = []
            if let columnIndex {
                if let columnName { parts.append("column: \(String(reflecting: columnName))") }
                parts.append("column index: \(columnIndex)")
            }
            parts.append("row: \(row)")
            if let sql {
                parts.append("sql: `\(sql)`")
                if let statementArguments, publicStatementArguments || statementArguments.isEmpty {
                    parts.append("arguments: \(statementArguments)")
                }
            }
            return parts.joined(separator: ", ")
        }
    }

    /// The context of the error.
    public var context: Context {
        switch self {
        case .keyNotFound(_, let context), .valueMismatch(_, let context):
            return context
        }
    }

    /// A description of the error that names the column and the value.
    public var description: String {
        "\(context.debugDescription) - \(context)"
    }
}

extension RowDecodingError {
    /// The context of an error about a row.
    private static func context(
        _ description: String,
        row: Row,
        columnName: String?,
        columnIndex: Int?) -> Context
    {
        Context(
            debugDescription: description,
            columnName: columnName,
            columnIndex: columnIndex,
            row: row.copy(),
            sql: row.statement?.sql,
            statementArguments: row.statement?.arguments,
            publicStatementArguments: row.statement?.database.configuration.publicStatementArguments ?? false)
    }

    /// The error for a column that the row does not have: `column not
    /// found: "name"`, as in GRDB.
    @usableFromInline
    static func columnNotFound(_ columnName: String, row: Row) -> RowDecodingError {
        .keyNotFound(.columnName(columnName), context(
            "column not found: \(String(reflecting: columnName))", row: row, columnName: columnName, columnIndex: nil))
    }

    /// The error for a record that a joined request does not provide: the
    /// key matches no column, scope or prefetched rows.
    static func missingScope(
        _ key: String,
        columnName: String,
        row: Row,
        scopes: Set<String>,
        prefetchedKeys: Set<String>) -> RowDecodingError
    {
        var description = "no such column, scope or prefetched rows: \(key)"
        description += " - the row has the scopes [\(scopes.sorted().joined(separator: ", "))]"
        if !prefetchedKeys.isEmpty {
            description += " and the prefetched rows [\(prefetchedKeys.sorted().joined(separator: ", "))]"
        }
        description += ": make the key of the association match the coding key, with forKey(_:)"
        return .keyNotFound(.columnName(columnName), context(
            description, row: row, columnName: columnName, columnIndex: nil))
    }

    /// The error for a column index out of the row's bounds.
    @usableFromInline
    static func indexOutOfRange(_ index: Int, row: Row) -> RowDecodingError {
        .keyNotFound(.columnIndex(index), context(
            "column index \(index) out of range (the row has \(row.count) column(s))",
            row: row, columnName: nil, columnIndex: index))
    }

    /// The error for a value that does not convert to `type`.
    @usableFromInline
    static func conversionFailure<T>(_ type: T.Type, row: Row, columnIndex: Int) -> RowDecodingError {
        let dbValue = row.databaseValue(atUncheckedIndex: columnIndex)
        var description = "could not decode \(T.self) from database value \(dbValue)"
        // GRDB's message, unless the text is not UTF-8, which GRDB decodes
        // with replacement characters, where Cairn throws.
        if let sqliteStatement = row.sqliteStatement,
           sqlite3_column_type(sqliteStatement, CInt(columnIndex)) == SQLITE_TEXT,
           case .blob = dbValue.storage
        {
            description += " (the column holds text that is not valid UTF-8)"
        }
        return .valueMismatch(String(describing: T.self), context(
            description, row: row,
            columnName: row.columnName(atUncheckedIndex: columnIndex), columnIndex: columnIndex))
    }
}
