/// A format of database dumps that prints one line per row, values
/// separated by `|`, like the `list` mode of the `sqlite3` command-line
/// tool.
///
/// ```swift
/// // 1|Arthur|500
/// // 2|Barbara|1000
/// try db.dumpSQL("SELECT * FROM player ORDER BY id", format: .list())
/// ```
///
/// Integers and doubles are printed as Swift prints them (`1`, `-1.0`,
/// `1e+20`), and NULL as ``nullValue``. Texts are printed as they are. Blobs
/// are printed as the text SQLite makes of them, as in GRDB: their bytes up
/// to the first NUL byte, read as UTF-8 (invalid bytes become `�`, U+FFFD).
/// Columns whose name starts with `grdb_` are not printed.
///
/// Related SQLite documentation: <https://www.sqlite.org/cli.html#changing_output_formats>
public struct ListDumpFormat: Sendable {
    /// Whether the first row of each statement is preceded by a line of
    /// column names.
    public var header: Bool

    /// The text between two values of a row.
    public var separator: String

    /// The text of NULL.
    public var nullValue: String

    /// Whether the next row is the first one of its statement.
    private var isFirstRow = true

    /// Creates a list format.
    ///
    /// ```swift
    /// let format = ListDumpFormat(header: true, separator: ";")
    /// ```
    ///
    /// - Parameters:
    ///   - header: Whether column names are printed before the first row of
    ///     each statement (default false).
    ///   - separator: The text between two values (default `"|"`).
    ///   - nullValue: The text of NULL (default empty).
    public init(header: Bool = false, separator: String = "|", nullValue: String = "") {
        self.header = header
        self.separator = separator
        self.nullValue = nullValue
    }
}

extension ListDumpFormat: DumpFormat {
    /// Writes the current row of the statement, preceded by the column
    /// names when ``header`` is true and the row is the first one.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        if isFirstRow {
            isFirstRow = false
            if header {
                stream.write(DumpRendering.headerLine(statement, separator: separator))
            }
        }
        let nullValue = nullValue
        DumpRendering.writeSeparatedRow(statement, separator: separator, to: &stream) { value in
            switch value.storage {
            case .null: return nullValue
            case .int64, .double: return DumpRendering.number(value.storage) ?? ""
            case .string(let string): return string
            case .blob(let data): return DumpRendering.cStringText(data)
            }
        }
    }

    /// Prepares the format for the next statement: writes nothing.
    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        isFirstRow = true
    }
}

extension DumpFormat where Self == ListDumpFormat {
    /// A format that prints values separated by `|`, like the `list` mode
    /// of the `sqlite3` command-line tool. See ``ListDumpFormat``.
    ///
    /// ```swift
    /// // id|name|score
    /// // 1|Arthur|500
    /// try db.dumpSQL("SELECT * FROM player", format: .list(header: true))
    /// ```
    ///
    /// - Parameters:
    ///   - header: Whether column names are printed before the first row of
    ///     each statement (default false).
    ///   - separator: The text between two values (default `"|"`).
    ///   - nullValue: The text of NULL (default empty).
    public static func list(header: Bool = false, separator: String = "|", nullValue: String = "") -> Self {
        ListDumpFormat(header: header, separator: separator, nullValue: nullValue)
    }
}
