/// A format of database dumps that prints one line per column,
/// `column = value`, and an empty line between rows, like the `line` mode
/// of the `sqlite3` command-line tool.
///
/// ```swift
/// //    id = 1
/// //  name = Arthur
/// // score = 500
/// //
/// //    id = 2
/// //  name = Barbara
/// // score = 1000
/// try db.dumpSQL("SELECT * FROM player ORDER BY id", format: .line())
/// ```
///
/// Column names are aligned on the right. Integers and doubles are printed
/// as Swift prints them (`1`, `-1.0`, `1e+20`), and NULL as ``nullValue``.
/// Texts are printed as they are. Blobs are printed as the text SQLite
/// makes of them, as in GRDB: their bytes up to the first NUL byte, read as
/// UTF-8 (invalid bytes become `�`, U+FFFD). Columns whose name starts with
/// `grdb_` are not printed. The rows of the next statement, or the next
/// table of a dump, come after an empty line.
///
/// Related SQLite documentation: <https://www.sqlite.org/cli.html#changing_output_formats>
public struct LineDumpFormat: Sendable {
    /// The text of NULL.
    public var nullValue: String

    /// The column names of the current statement, padded on the left to
    /// the same width, with the indexes of their columns; nil before its
    /// first row.
    private var paddedColumns: [(index: Int, name: String)]?

    /// Whether a row of the current statement was written.
    private var hasWrittenRow = false

    /// Creates a line format.
    ///
    /// ```swift
    /// let format = LineDumpFormat(nullValue: "NULL")
    /// ```
    ///
    /// - Parameter nullValue: The text of NULL (default empty).
    public init(nullValue: String = "") {
        self.nullValue = nullValue
    }
}

extension LineDumpFormat: DumpFormat {
    /// Writes the current row of the statement: one `column = value` line
    /// per column, after an empty line if the statement wrote a row before.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        let columns: [(index: Int, name: String)]
        if let paddedColumns {
            columns = paddedColumns
        } else {
            let names = statement.columnNames
            let indexes = DumpRendering.visibleColumnIndexes(statement)
            let width = indexes.map { names[$0].count }.max() ?? 0
            columns = indexes.map { index in
                (index, String(repeating: " ", count: width - names[index].count) + names[index])
            }
            paddedColumns = columns
        }
        // A row without printed column prints nothing.
        guard !columns.isEmpty else { return }
        var text = hasWrittenRow ? "\n" : ""
        hasWrittenRow = true
        for (index, name) in columns {
            text += name
            text += " = "
            let value = statement.dumpValue(at: index)
            switch value.storage {
            case .null: text += nullValue
            case .int64, .double: text += DumpRendering.number(value.storage) ?? ""
            case .string(let string): text += string
            case .blob(let data): text += DumpRendering.cStringText(data)
            }
            text += "\n"
        }
        stream.write(text)
    }

    /// Asks the stream for a margin when the statement wrote a row, so that
    /// the rows of the next statement come after an empty line, and
    /// prepares the format for the next statement.
    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        if hasWrittenRow {
            stream.margin()
        }
        hasWrittenRow = false
        paddedColumns = nil
    }
}

extension DumpFormat where Self == LineDumpFormat {
    /// A format that prints one `column = value` line per column, like the
    /// `line` mode of the `sqlite3` command-line tool. See
    /// ``LineDumpFormat``.
    ///
    /// ```swift
    /// //    id = 1
    /// //  name = Arthur
    /// // score = 500
    /// try db.dumpSQL("SELECT * FROM player", format: .line())
    /// ```
    ///
    /// - Parameter nullValue: The text of NULL (default empty).
    public static func line(nullValue: String = "") -> Self {
        LineDumpFormat(nullValue: nullValue)
    }
}
