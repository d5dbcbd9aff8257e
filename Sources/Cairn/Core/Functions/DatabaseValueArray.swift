import Foundation

// Arrays as tables: the `cairn_values` table function, registered on every
// connection, reads the values of a `DatabaseValueArray` argument as a
// one-column table, so that one statement can test membership in any number
// of values (`x IN (SELECT value FROM cairn_values(?))`) where `IN (?, ?, …)`
// stops at SQLite's limit of 32,766 parameters. SQL generation uses it for
// large `IN` lists (see `SQLExpression`), which is how `filter(keys:)`,
// `filter(ids:)` and `deleteAll(keys:)` take any number of keys.
//
// The array travels as an ordinary BLOB argument in a compact encoding, read
// back one value at a time: no pointer crosses the C boundary, and a blob
// that is not such an array makes the statement fail with a clear message.

/// An array of database values that SQL reads as a table with the
/// `cairn_values` table function, registered on every connection.
///
/// ```swift
/// let ids: [Int64] = ... // any number of them
/// let players = try Player.fetchAll(db, sql: """
///     SELECT * FROM player WHERE id IN (SELECT value FROM cairn_values(?))
///     """, arguments: [DatabaseValueArray(ids)])
/// ```
///
/// `cairn_values(?)` has one column, `value`, with the values in order,
/// duplicates and NULLs included. The query interface uses it for you when
/// a list of values is long (see ``DatabaseValueArray/inlineLimit``): `ids.contains(Column("id"))`,
/// `filter(keys:)`, `filter(ids:)` and `deleteAll(keys:)` work with any
/// number of values, in one statement, without a temporary table.
///
/// Keys of several columns use the companion function `cairn_rows(?, width)`
/// (``DatabaseTableFunction/valueRows``), which reads the same array as rows
/// of `width` values.
///
/// The array is passed as a BLOB in a private encoding: only `cairn_values`
/// and `cairn_rows` read it.
public struct DatabaseValueArray: Sendable, Equatable {
    /// The values.
    public var values: [DatabaseValue]

    /// The number of values above which the query interface renders
    /// `x IN (...)` with `cairn_values` instead of one parameter per value.
    public static let inlineLimit = 1000

    /// The name of the table function that reads arrays.
    static let functionName = "cairn_values"

    /// The name of the table function that reads arrays as rows of
    /// several values (`cairn_rows(?, width)`).
    static let rowsFunctionName = "cairn_rows"

    /// The largest number of values of a row of `cairn_rows`, whose columns
    /// are `c1` to `c16`.
    public static let maximumRowWidth = 16

    /// Creates an array from values that convert to database values.
    public init<Values: Sequence>(_ values: Values) where Values.Element: DatabaseValueConvertible {
        self.values = values.map(\.databaseValue)
    }

    /// Creates an array from optional values: nil is NULL.
    public init(_ values: [(any DatabaseValueConvertible)?]) {
        self.values = values.map { $0?.databaseValue ?? .null }
    }
}

extension DatabaseValueArray: DatabaseValueConvertible {
    /// The encoded array, as a BLOB.
    public var databaseValue: DatabaseValue {
        var encoder = Encoding.Writer()
        for value in values { encoder.append(value) }
        return encoder.data.databaseValue
    }

    /// Decodes a BLOB made by ``databaseValue``; nil for other values.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseValueArray? {
        guard case .blob(let data) = dbValue.storage, var reader = Encoding.Reader(data) else { return nil }
        var values: [DatabaseValue] = []
        do {
            while let value = try reader.next() { values.append(value) }
        } catch {
            return nil
        }
        return DatabaseValueArray(values: values)
    }

    /// Creates an array of database values.
    init(values: [DatabaseValue]) {
        self.values = values
    }
}

extension DatabaseTableFunction {
    /// The `cairn_values` table function: the values of a
    /// ``DatabaseValueArray`` argument, as a table with one column,
    /// `value`. Registered on every connection.
    ///
    /// ```sql
    /// SELECT * FROM player WHERE id IN (SELECT value FROM cairn_values(?))
    /// ```
    public static let values = DatabaseTableFunction(
        name: DatabaseValueArray.functionName,
        columns: ["value"],
        parameters: ["array"],
        makeRows: { arguments in try ArrayRows(arguments[0]) })
}

extension DatabaseTableFunction {
    /// The `cairn_rows` table function: the values of a
    /// ``DatabaseValueArray`` argument, read as rows of `width` values, in
    /// the columns `c1`, `c2`… up to `c16` (the columns after the width
    /// are NULL). Registered on every connection. The query interface uses
    /// it for long lists of keys of several columns (`filter(keys:)` with
    /// dictionaries).
    ///
    /// ```sql
    /// -- The array holds a1, b1, a2, b2…
    /// SELECT * FROM t WHERE (a, b) IN (SELECT c1, c2 FROM cairn_rows(?, 2))
    /// ```
    public static let valueRows = DatabaseTableFunction(
        name: DatabaseValueArray.rowsFunctionName,
        columns: (1...DatabaseValueArray.maximumRowWidth).map { "c\($0)" },
        parameters: ["array", "width"],
        makeRows: { arguments in
            guard let width = Int.fromDatabaseValue(arguments[1]),
                  (1...DatabaseValueArray.maximumRowWidth).contains(width)
            else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISMATCH,
                    message: "the width of \(DatabaseValueArray.rowsFunctionName) must be an integer "
                        + "from 1 to \(DatabaseValueArray.maximumRowWidth)")
            }
            return try ArrayRows(arguments[0], width: width)
        })
}

/// The rows of `cairn_values` and `cairn_rows`, decoded one at a time.
private final class ArrayRows: TableFunctionRows {
    var reader: DatabaseValueArray.Encoding.Reader
    /// The number of values of a row.
    let width: Int
    var current: [DatabaseValue]

    init(_ argument: DatabaseValue, width: Int = 1) throws {
        self.width = width
        current = Array(repeating: .null, count: width)
        switch argument.storage {
        case .null:
            // No argument: no rows.
            reader = DatabaseValueArray.Encoding.Reader()
        case .blob(let data):
            guard let reader = DatabaseValueArray.Encoding.Reader(data) else {
                throw Self.invalidArgument()
            }
            self.reader = reader
        default:
            throw Self.invalidArgument()
        }
    }

    static func invalidArgument() -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_MISMATCH,
            message: "the argument of \(DatabaseValueArray.functionName) is not a DatabaseValueArray")
    }

    func advance() throws -> Bool {
        guard let first = try reader.next() else { return false }
        current[0] = first
        for index in 1..<width {
            guard let value = try reader.next() else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISMATCH,
                    message: "the array of \(DatabaseValueArray.rowsFunctionName) does not hold whole rows "
                        + "of \(width) values")
            }
            current[index] = value
        }
        return true
    }

    func value(ofColumn index: Int) -> DatabaseValue {
        index < width ? current[index] : .null
    }
}

extension DatabaseValueArray {
    /// The encoding of arrays: a header, then each value as a tag byte and
    /// its bytes (little-endian integers and reals, lengths of 4 bytes).
    enum Encoding {
        /// "CVA" and a version byte.
        static let header: [UInt8] = [0x43, 0x56, 0x41, 1]

        enum Tag: UInt8 {
            case null = 0, integer = 1, real = 2, text = 3, blob = 4
        }

        struct Writer {
            var data = Data(Encoding.header)

            mutating func append(_ value: DatabaseValue) {
                switch value.storage {
                case .null:
                    data.append(Tag.null.rawValue)
                case .int64(let int64):
                    data.append(Tag.integer.rawValue)
                    appendWord(UInt64(bitPattern: int64))
                case .double(let double):
                    data.append(Tag.real.rawValue)
                    appendWord(double.bitPattern)
                case .string(let string):
                    data.append(Tag.text.rawValue)
                    let utf8 = Array(string.utf8)
                    appendLength(utf8.count)
                    data.append(contentsOf: utf8)
                case .blob(let blob):
                    data.append(Tag.blob.rawValue)
                    appendLength(blob.count)
                    data.append(blob)
                }
            }

            private mutating func appendWord(_ word: UInt64) {
                withUnsafeBytes(of: word.littleEndian) { data.append(contentsOf: $0) }
            }

            private mutating func appendLength(_ length: Int) {
                withUnsafeBytes(of: UInt32(length).littleEndian) { data.append(contentsOf: $0) }
            }
        }

        struct Reader {
            let bytes: [UInt8]
            var position: Int

            /// An empty array.
            init() {
                bytes = []
                position = 0
            }

            /// Nil when the data does not start with the header (empty
            /// data is an empty array).
            init?(_ data: Data) {
                bytes = [UInt8](data)
                if bytes.isEmpty {
                    position = 0
                    return
                }
                guard bytes.count >= header.count, Array(bytes[0..<header.count]) == header else { return nil }
                position = header.count
            }

            /// The next value; nil at the end.
            mutating func next() throws -> DatabaseValue? {
                guard position < bytes.count else { return nil }
                guard let tag = Tag(rawValue: bytes[position]) else { throw Self.corrupt() }
                position += 1
                switch tag {
                case .null:
                    return .null
                case .integer:
                    return Int64(bitPattern: try readWord()).databaseValue
                case .real:
                    return Double(bitPattern: try readWord()).databaseValue
                case .text:
                    let range = try readRange()
                    let string = bytes[range].withUnsafeBytes { String(validatingUTF8Bytes: $0) }
                    guard let string else { throw Self.corrupt() }
                    return string.databaseValue
                case .blob:
                    return Data(bytes[try readRange()]).databaseValue
                }
            }

            private mutating func readWord() throws -> UInt64 {
                guard bytes.count - position >= 8 else { throw Self.corrupt() }
                var word: UInt64 = 0
                for index in (0..<8).reversed() {
                    word = word << 8 | UInt64(bytes[position + index])
                }
                position += 8
                return word
            }

            private mutating func readRange() throws -> Range<Int> {
                guard bytes.count - position >= 4 else { throw Self.corrupt() }
                var length = 0
                for index in (0..<4).reversed() {
                    length = length << 8 | Int(bytes[position + index])
                }
                position += 4
                guard bytes.count - position >= length else { throw Self.corrupt() }
                defer { position += length }
                return position..<(position + length)
            }

            static func corrupt() -> DatabaseError {
                DatabaseError(
                    resultCode: .SQLITE_MISMATCH,
                    message: "the argument of \(DatabaseValueArray.functionName) is not a valid DatabaseValueArray")
            }
        }
    }
}
