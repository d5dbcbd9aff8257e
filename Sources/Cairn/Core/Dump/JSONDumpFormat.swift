import Foundation

/// A format of database dumps that prints the rows of each statement as a
/// JSON array of objects, one object per line.
///
/// ```swift
/// // [{"id":1,"name":"Arthur","score":500},
/// // {"id":2,"name":"Barbara","score":1000}]
/// try db.dumpSQL("SELECT * FROM player ORDER BY id", format: .json())
/// ```
///
/// The keys of an object are the column names, in the order of the columns
/// (a name that appears twice in the statement appears twice in the
/// object). Values are encoded with the ``encoder``: numbers, strings, `null`
/// for NULL, and blobs according to its `dataEncodingStrategy` (Base64 by
/// default). A statement without row prints `[]`; a statement without
/// column (`CREATE TABLE ...`) prints nothing.
///
/// When the encoder has the `.prettyPrinted` output formatting, each key
/// and object is on its own line:
///
/// ```swift
/// let encoder = JSONDumpFormat.defaultEncoder
/// encoder.outputFormatting = .prettyPrinted
/// // [
/// //   {
/// //     "id":1,
/// //     "name":"Arthur",
/// //     "score":500
/// //   }
/// // ]
/// try db.dumpSQL("SELECT * FROM player", format: .json(encoder: encoder))
/// ```
///
/// Keys keep the order of the columns: `.sortedKeys` has no effect.
public struct JSONDumpFormat: Sendable {
    /// The encoder of the keys and values.
    public var encoder: JSONEncoder

    /// The indexes and encoded names of the printed columns of the current
    /// statement; nil before its first row.
    private var encodedColumnNames: [(index: Int, key: String)]?

    /// The number of rows written for the current statement.
    private var rowCount = 0

    /// Whether the encoder has the `.prettyPrinted` output formatting, read
    /// at the first row of each statement.
    private var isPrettyPrinted = false

    /// A new encoder with the default options of ``JSONDumpFormat``, those
    /// of GRDB: blobs in Base64, slashes not escaped, and infinite doubles
    /// (which JSON cannot represent) as the strings `"inf"` and `"-inf"`.
    ///
    /// Each access returns a new encoder, which you can modify:
    ///
    /// ```swift
    /// let encoder = JSONDumpFormat.defaultEncoder
    /// encoder.nonConformingFloatEncodingStrategy = .throw
    /// try db.dumpSQL("SELECT * FROM measure", format: .json(encoder: encoder))
    /// ```
    public static var defaultEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        encoder.dataEncodingStrategy = .base64
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    /// Creates a JSON format.
    ///
    /// ```swift
    /// let format = JSONDumpFormat(encoder: JSONDumpFormat.defaultEncoder)
    /// ```
    ///
    /// - Parameter encoder: The encoder of keys and values (default
    ///   ``defaultEncoder``).
    public init(encoder: JSONEncoder = JSONDumpFormat.defaultEncoder) {
        self.encoder = encoder
    }

    /// A value (or a key) encoded as a JSON fragment.
    private func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

extension JSONDumpFormat: DumpFormat {
    /// Writes the current row of the statement as a JSON object, after the
    /// opening bracket of the array for the first row, or after a comma and
    /// a line feed for the others.
    ///
    /// Columns whose name starts with `grdb_` are left out, as in GRDB.
    ///
    /// - Throws: The error of the ``encoder``, such as an `EncodingError`
    ///   for an infinite double with an encoder whose
    ///   `nonConformingFloatEncodingStrategy` is `.throw`.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        let keys: [(index: Int, key: String)]
        if let encodedColumnNames {
            keys = encodedColumnNames
        } else {
            let names = statement.columnNames
            keys = try DumpRendering.visibleColumnIndexes(statement).map { index in
                (index, try encoded(names[index]))
            }
            encodedColumnNames = keys
            isPrettyPrinted = encoder.outputFormatting.contains(.prettyPrinted)
        }

        // Encoded before anything is written, so that an encoding error
        // leaves no partial object in the stream.
        var members: [String] = []
        members.reserveCapacity(keys.count)
        for (index, key) in keys {
            let value: String
            switch statement.dumpValue(at: index).storage {
            case .null: value = "null"
            case .int64(let int64): value = try encoded(int64)
            case .double(let double): value = try encoded(double)
            case .string(let string): value = try encoded(string)
            case .blob(let data): value = try encoded(data)
            }
            members.append(key + ":" + value)
        }

        var text = rowCount == 0 ? "[" : ",\n"
        if isPrettyPrinted {
            if rowCount == 0 { text += "\n" }
            text += "  {"
            text += members.map { "\n    " + $0 }.joined(separator: ",")
            text += "\n  }"
        } else {
            text += "{" + members.joined(separator: ",") + "}"
        }
        rowCount += 1
        stream.write(text)
    }

    /// Closes the array of the statement (`[]` when it has no row, nothing
    /// when it has no column), and prepares the format for the next
    /// statement.
    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        if rowCount > 0 {
            stream.write(isPrettyPrinted ? "\n]\n" : "]\n")
        } else if statement.columnCount > 0 {
            stream.write("[]\n")
        }
        rowCount = 0
        encodedColumnNames = nil
    }
}

extension DumpFormat where Self == JSONDumpFormat {
    /// A format that prints the rows of each statement as a JSON array of
    /// objects. See ``JSONDumpFormat``.
    ///
    /// ```swift
    /// // [{"id":1,"name":"Arthur","score":500}]
    /// try db.dumpSQL("SELECT * FROM player", format: .json())
    /// ```
    ///
    /// - Parameter encoder: The encoder of keys and values (default
    ///   ``JSONDumpFormat/defaultEncoder``).
    public static func json(encoder: JSONEncoder = JSONDumpFormat.defaultEncoder) -> Self {
        JSONDumpFormat(encoder: encoder)
    }
}
