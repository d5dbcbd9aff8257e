import Foundation

/// The default format of database dumps: one line per row, values separated
/// by `|`, and blobs printed so that a developer can read them.
///
/// ```swift
/// // 1|Arthur|500
/// // 2|Barbara|1000
/// try db.dumpSQL("SELECT * FROM player ORDER BY id", format: .debug())
///
/// // id|name|score
/// // 1|Arthur|500
/// // 2|Barbara|1000
/// try db.dumpSQL("SELECT * FROM player ORDER BY id", format: .debug(header: true))
/// ```
///
/// Integers and doubles are printed as Swift prints them (`1`, `-1.0`,
/// `123.45`), texts as they are, and NULL as ``nullValue``. A blob is
/// printed as text when it holds valid UTF-8, as a UUID
/// (`69BF8A9C-D9F0-4777-BD11-93451D84CBCF`) when it holds 16 other bytes,
/// and in hexadecimal (`X'80'`) otherwise. Columns whose name starts with
/// `grdb_` are not printed.
///
/// Do not parse this output: its rendering of values may change. Use
/// ``JSONDumpFormat`` or ``QuoteDumpFormat`` to produce output for a
/// program.
public struct DebugDumpFormat: Sendable {
    /// Whether the first row of each statement is preceded by a line of
    /// column names.
    public var header: Bool

    /// The text between two values of a row.
    public var separator: String

    /// The text of NULL.
    public var nullValue: String

    /// Whether the next row is the first one of its statement.
    private var isFirstRow = true

    /// Creates a debug format.
    ///
    /// ```swift
    /// let format = DebugDumpFormat(header: true, separator: ", ", nullValue: "NULL")
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

extension DebugDumpFormat: DumpFormat {
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
            case .blob(let data): return DumpRendering.debugText(data)
            }
        }
    }

    /// Prepares the format for the next statement: writes nothing.
    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        isFirstRow = true
    }
}

extension DumpFormat where Self == DebugDumpFormat {
    /// The default format of database dumps: values separated by `|`, blobs
    /// printed so that a developer can read them. See ``DebugDumpFormat``.
    ///
    /// ```swift
    /// // id|name|score
    /// // 1|Arthur|500
    /// try db.dumpSQL("SELECT * FROM player", format: .debug(header: true))
    /// ```
    ///
    /// - Parameters:
    ///   - header: Whether column names are printed before the first row of
    ///     each statement (default false).
    ///   - separator: The text between two values (default `"|"`).
    ///   - nullValue: The text of NULL (default empty).
    public static func debug(header: Bool = false, separator: String = "|", nullValue: String = "") -> Self {
        DebugDumpFormat(header: header, separator: separator, nullValue: nullValue)
    }
}
