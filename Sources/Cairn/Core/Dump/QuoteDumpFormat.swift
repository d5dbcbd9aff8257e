/// A format of database dumps that prints values as SQL literals, like the
/// `quote` mode of the `sqlite3` command-line tool.
///
/// ```swift
/// // 1,'Arthur',500
/// // 2,'O''Brien',NULL
/// try db.dumpSQL("SELECT * FROM player ORDER BY id", format: .quote())
/// ```
///
/// Values are printed as SQLite's `quote()` function prints them, as in
/// GRDB: NULL as `NULL`, texts between single quotes (doubled inside),
/// blobs in hexadecimal (`X'0A1B'`), integers in decimal, and doubles with
/// fifteen significant digits, or more when fifteen do not read back as
/// the same double (`-1.0`, `1.0e+20`, `1.0e-07`, `9.0e+999` for infinity).
/// Each printed value reads back as the same value in SQL. Columns whose
/// name starts with `grdb_` are not printed.
///
/// Related SQLite documentation: <https://www.sqlite.org/cli.html#changing_output_formats>
public struct QuoteDumpFormat: Sendable {
    /// Whether the first row of each statement is preceded by a line of
    /// column names (quoted as SQL strings).
    public var header: Bool

    /// The text between two values of a row.
    public var separator: String

    /// Whether the next row is the first one of its statement.
    private var isFirstRow = true

    /// Creates a quote format.
    ///
    /// ```swift
    /// let format = QuoteDumpFormat(header: true, separator: ", ")
    /// ```
    ///
    /// - Parameters:
    ///   - header: Whether column names are printed before the first row of
    ///     each statement (default false).
    ///   - separator: The text between two values (default `","`).
    public init(header: Bool = false, separator: String = ",") {
        self.header = header
        self.separator = separator
    }
}

extension QuoteDumpFormat: DumpFormat {
    /// Writes the current row of the statement, preceded by the quoted
    /// column names when ``header`` is true and the row is the first one.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        if isFirstRow {
            isFirstRow = false
            if header {
                stream.write(DumpRendering.headerLine(statement, separator: separator, render: \.sqlStringLiteral))
            }
        }
        DumpRendering.writeSeparatedRow(statement, separator: separator, to: &stream) { value in
            DumpRendering.sqlLiteral(value, db)
        }
    }

    /// Prepares the format for the next statement: writes nothing.
    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        isFirstRow = true
    }
}

extension DumpFormat where Self == QuoteDumpFormat {
    /// A format that prints values as SQL literals, like the `quote` mode
    /// of the `sqlite3` command-line tool. See ``QuoteDumpFormat``.
    ///
    /// ```swift
    /// // 'id','name','score'
    /// // 1,'Arthur',500
    /// try db.dumpSQL("SELECT * FROM player", format: .quote(header: true))
    /// ```
    ///
    /// - Parameters:
    ///   - header: Whether column names are printed before the first row of
    ///     each statement (default false).
    ///   - separator: The text between two values (default `","`).
    public static func quote(header: Bool = false, separator: String = ",") -> Self {
        QuoteDumpFormat(header: header, separator: separator)
    }
}
