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
/// as Swift prints them (`1`, `-1.0`), and NULL as ``nullValue``. Texts are
/// printed as they are, and so are the bytes of blobs, read as UTF-8
/// (invalid bytes become `�`, U+FFFD).
///
/// Related SQLite documentation: <https://www.sqlite.org/cli.html#changing_output_formats>
public struct LineDumpFormat: Sendable {
    /// The text of NULL.
    public var nullValue: String

    /// The column names of the current statement, padded on the left to
    /// the same width; nil before its first row.
    private var paddedColumnNames: [String]?

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
    /// per column, after an empty line if something was written before.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        let names: [String]
        if let paddedColumnNames {
            names = paddedColumnNames
        } else {
            let columnNames = statement.columnNames
            let width = columnNames.map(\.count).max() ?? 0
            names = columnNames.map { String(repeating: " ", count: width - $0.count) + $0 }
            paddedColumnNames = names
        }
        var text = ""
        for (index, name) in names.enumerated() {
            text += name
            text += " = "
            let value = statement.dumpValue(at: index)
            switch value.storage {
            case .null: text += nullValue
            case .int64, .double: text += DumpRendering.number(value.storage) ?? ""
            case .string(let string): text += string
            case .blob(let data): text += DumpRendering.lossyText(data)
            }
            text += "\n"
        }
        stream.margin()
        stream.write(text)
    }

    /// Prepares the format for the next statement: writes nothing.
    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        paddedColumnNames = nil
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
