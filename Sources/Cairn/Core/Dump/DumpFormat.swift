import Foundation

/// A way to print the rows of database statements, used by the dump
/// methods such as ``Database/dumpSQL(_:format:to:)``,
/// ``Database/dumpTables(_:format:tableHeader:stableOrder:to:)`` and
/// ``Database/dumpContent(format:to:)``.
///
/// Cairn provides five formats:
///
/// - ``DebugDumpFormat`` (`.debug()`, the default): values separated by `|`,
///   blobs as text when they hold UTF-8, as UUIDs or hexadecimal otherwise.
/// - ``JSONDumpFormat`` (`.json()`): a JSON array of objects per statement.
/// - ``LineDumpFormat`` (`.line()`): one `column = value` line per column.
/// - ``ListDumpFormat`` (`.list()`): values separated by `|`, like the
///   `list` mode of the `sqlite3` command-line tool.
/// - ``QuoteDumpFormat`` (`.quote()`): values as SQL literals, like the
///   `quote` mode of the `sqlite3` command-line tool.
///
/// ```swift
/// try dbQueue.read { db in
///     // 1|Arthur|500
///     // 2|Barbara|1000
///     try db.dumpSQL("SELECT * FROM player ORDER BY id")
///
///     // [{"id":1,"name":"Arthur","score":500},
///     // {"id":2,"name":"Barbara","score":1000}]
///     try db.dumpSQL("SELECT * FROM player ORDER BY id", format: .json())
/// }
/// ```
///
/// ## Writing a format
///
/// A dump calls ``writeRow(_:statement:to:)`` for each row of a statement,
/// then ``finalize(_:statement:to:)`` once the statement is done, even if it
/// has no row. Each statement of a dump (the statements of an SQL string,
/// the tables of a database) is printed by a fresh copy of the format that
/// was given to the dump method, as in GRDB: what a format changes in itself
/// while it prints a statement is not seen by the next one. Read the values
/// of the current row from the statement, for example with
/// ``DatabaseValue/init(sqliteStatement:index:)``:
///
/// ```swift
/// struct TabSeparatedDumpFormat: DumpFormat {
///     mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
///         let values = (0..<statement.columnCount).map { index in
///             DatabaseValue(sqliteStatement: statement.sqliteStatement, index: CInt(index)).description
///         }
///         stream.write(values.joined(separator: "\t") + "\n")
///     }
///
///     mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) { }
/// }
///
/// try db.dumpTables(["player"], format: TabSeparatedDumpFormat())
/// ```
public protocol DumpFormat {
    /// Writes the current row of a statement.
    ///
    /// - Parameters:
    ///   - db: The connection of the statement.
    ///   - statement: A statement that has just produced a row: its values
    ///     are those of the row.
    ///   - stream: The stream of the dump.
    /// - Throws: An error that stops the dump.
    mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws

    /// Ends the output of a statement, after its last row (or when it has
    /// none), and prepares the format for the next statement.
    ///
    /// - Parameters:
    ///   - db: The connection of the statement.
    ///   - statement: The statement that is done.
    ///   - stream: The stream of the dump.
    mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream)
}

// MARK: - Rendering values (support for the built-in formats)

extension Statement {
    /// The value of a column of the current row.
    func dumpValue(at index: Int) -> DatabaseValue {
        DatabaseValue(sqliteStatement: sqliteStatement, index: CInt(index))
    }
}

enum DumpRendering {
    /// A number as text: `1`, `-1.0`, `123.45`.
    static func number(_ value: DatabaseValue.Storage) -> String? {
        switch value {
        case .int64(let int64): return String(int64)
        case .double(let double): return String(double)
        default: return nil
        }
    }

    /// The bytes of a blob as SQLite gives them as text, and as GRDB prints
    /// them: up to the first NUL byte, with invalid UTF-8 replaced by
    /// U+FFFD. An empty blob is an empty text.
    static func cStringText(_ data: Data) -> String {
        let end = data.firstIndex(of: 0) ?? data.endIndex
        return String(decoding: data[data.startIndex..<end], as: UTF8.self)
    }

    /// Whether a column is left out of dumps: the columns whose name
    /// starts with `grdb_` (the keys of prefetched rows), as in GRDB.
    static func isHiddenColumn(_ name: String) -> Bool {
        name.hasPrefix("grdb_")
    }

    /// The indexes of the columns of a statement that dumps print.
    static func visibleColumnIndexes(_ statement: Statement) -> [Int] {
        statement.columnNames.indices.filter { !isHiddenColumn(statement.columnNames[$0]) }
    }

    /// The bytes of a blob as text when they are valid UTF-8, as a UUID
    /// when there are 16 of them, or in hexadecimal: `X'80'`.
    static func debugText(_ data: Data) -> String {
        if let string = data.withUnsafeBytes({ String(validatingUTF8Bytes: $0) }) {
            return string
        }
        if data.count == 16 {
            let bytes = Array(data)
            let uuid = UUID(uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
            return uuid.uuidString
        }
        return hexLiteral(data)
    }

    /// A blob as an SQL literal: `X'0A1B'`.
    static func hexLiteral(_ data: Data) -> String {
        let digits: [UInt8] = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "X"), UInt8(ascii: "'")]
        bytes.reserveCapacity(data.count * 2 + 3)
        for byte in data {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        bytes.append(UInt8(ascii: "'"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A value as an SQL literal, as SQLite's `quote()` function writes it
    /// (and GRDB prints it): `NULL`, `1`, `1.5`, `1.0e+20`, `'it''s'`,
    /// `X'0A'`.
    ///
    /// Doubles are written by `quote()` itself: fifteen significant
    /// digits when they read back as the same double, more otherwise
    /// (`0.1`, `1.0e-07`, `3.333333333333333148e-01`, `0.0` for -0.0).
    /// Texts are written whole, even after a NUL character (Cairn stores
    /// such texts whole).
    static func sqlLiteral(_ value: DatabaseValue, _ db: Database) -> String {
        switch value.storage {
        case .null:
            return "NULL"
        case .int64(let int64):
            return String(int64)
        case .double(let double):
            if let literal = try? String.fetchOne(
                db.internalCachedStatement(sql: "SELECT quote(?)"), arguments: [double])
            {
                return literal
            }
            // Not reached unless SQLite fails (out of memory): the shortest
            // text that reads back as the same double.
            if double.isInfinite {
                return double < 0 ? "-9.0e+999" : "9.0e+999"
            }
            return String(double)
        case .string(let string):
            return string.sqlStringLiteral
        case .blob(let data):
            return hexLiteral(data)
        }
    }

    /// Writes the values of the current row of a statement, separated by
    /// `separator`, and a line feed. The columns that dumps hide (see
    /// ``isHiddenColumn(_:)``) are left out.
    static func writeSeparatedRow(
        _ statement: Statement,
        separator: String,
        to stream: inout DumpStream,
        render: (DatabaseValue) -> String)
    {
        var line = ""
        var isFirst = true
        for (index, name) in statement.columnNames.enumerated() where !isHiddenColumn(name) {
            if isFirst { isFirst = false } else { line += separator }
            line += render(statement.dumpValue(at: index))
        }
        line += "\n"
        stream.write(line)
    }

    /// The header line of the formats that print one: the names of the
    /// columns that dumps print, separated by `separator`.
    static func headerLine(_ statement: Statement, separator: String, render: (String) -> String = { $0 }) -> String {
        statement.columnNames.filter { !isHiddenColumn($0) }.map(render).joined(separator: separator) + "\n"
    }
}
