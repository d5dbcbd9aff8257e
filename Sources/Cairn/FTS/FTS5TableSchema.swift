import Foundation

/// What the `CREATE VIRTUAL TABLE … USING fts5(…)` statement of a table
/// says: its columns, which of them are indexed, and its tokenizer.
///
/// FTS5 offers no C function that returns the tokenizer of a table: the
/// tools of ``FTS5Table`` read it from the statement that SQLite keeps in
/// `sqlite_master`, parsed as FTS5 parses its arguments
/// (<https://www.sqlite.org/fts5.html#fts5_table_creation_and_initialization>).
struct FTS5TableSchema: Equatable {
    /// The columns, in order, with whether they are indexed (not
    /// `UNINDEXED`).
    var columns: [(name: String, isIndexed: Bool)]
    /// The tokenizer (`unicode61` when the table names none).
    var tokenizer: FTS5TokenizerDescriptor
    /// The `locale` option.
    var hasLocale: Bool

    static func == (lhs: FTS5TableSchema, rhs: FTS5TableSchema) -> Bool {
        lhs.columns.map(\.name) == rhs.columns.map(\.name)
            && lhs.columns.map(\.isIndexed) == rhs.columns.map(\.isIndexed)
            && lhs.tokenizer.components == rhs.tokenizer.components
            && lhs.hasLocale == rhs.hasLocale
    }

    /// Reads the schema of an FTS5 table.
    ///
    /// - Throws: A ``DatabaseError`` when the table does not exist or is
    ///   not an FTS5 table.
    init(_ db: Database, table: String, schema: String) throws {
        let sql = try String.fetchOne(db, sql: """
            SELECT sql FROM \(schema.quotedDatabaseIdentifier).sqlite_master
            WHERE type = 'table' AND name = ? COLLATE NOCASE
            """, arguments: [table])
        guard let sql else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(schema).\(table)")
        }
        guard let schema = FTS5TableSchema(sql: sql) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "not an FTS5 table: \(table)")
        }
        self = schema
    }

    /// Parses a `CREATE VIRTUAL TABLE` statement; nil when it does not
    /// create an FTS5 table.
    init?(sql: String) {
        let scalars = Self.removingComments(Array(sql.unicodeScalars))
        // The module name, then its arguments between parentheses.
        guard let using = Self.findKeyword("USING", in: scalars) else { return nil }
        var index = using + 5
        while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
        let nameStart = index
        while index < scalars.count, scalars[index] != "(", !scalars[index].properties.isWhitespace { index += 1 }
        let module = Self.unquote(String(String.UnicodeScalarView(scalars[nameStart..<index])))
        guard module.lowercased() == "fts5" else { return nil }
        while index < scalars.count, scalars[index] != "(" { index += 1 }
        guard index < scalars.count else { return nil }
        let arguments = Self.splitArguments(Array(scalars[(index + 1)...]))
        columns = []
        tokenizer = .unicode61()
        hasLocale = false
        for argument in arguments {
            let words = Self.splitWords(argument)
            guard let first = words.first else { continue }
            if words.count >= 3 && words[1] == "=" {
                // An option: key = value.
                let key = Self.unquote(first).lowercased()
                let value = words[2...].joined(separator: " ")
                switch key {
                case "tokenize":
                    let components = Self.splitWords(Self.unquote(value)).map(Self.unquote)
                    if !components.isEmpty {
                        tokenizer = FTS5TokenizerDescriptor(components: components)
                    }
                case "locale":
                    hasLocale = Self.unquote(value) == "1"
                default:
                    break
                }
            } else {
                let isIndexed = !(words.count >= 2 && words[1].uppercased() == "UNINDEXED")
                columns.append((Self.unquote(first), isIndexed))
            }
        }
    }

    /// The statement with its comments (`-- …` to the end of the line,
    /// `/* … */`) outside quotes replaced by spaces: SQLite keeps them in
    /// `sqlite_master`.
    static func removingComments(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        result.reserveCapacity(scalars.count)
        var index = 0
        var quote: Unicode.Scalar?
        while index < scalars.count {
            let scalar = scalars[index]
            if let open = quote {
                result.append(scalar)
                if scalar == closing(open) { quote = nil }
                index += 1
            } else if "'\"`[".unicodeScalars.contains(scalar) {
                quote = scalar
                result.append(scalar)
                index += 1
            } else if scalar == "-", index + 1 < scalars.count, scalars[index + 1] == "-" {
                while index < scalars.count && scalars[index] != "\n" { index += 1 }
                result.append(" ")
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                index += 2
                while index < scalars.count && !(scalars[index] == "*" && index + 1 < scalars.count && scalars[index + 1] == "/") {
                    index += 1
                }
                index += 2
                result.append(" ")
            } else {
                result.append(scalar)
                index += 1
            }
        }
        return result
    }

    /// The position of a keyword outside quotes, case-insensitive.
    private static func findKeyword(_ keyword: String, in scalars: [Unicode.Scalar]) -> Int? {
        let target = Array(keyword.uppercased().unicodeScalars)
        var index = 0
        var quote: Unicode.Scalar?
        while index < scalars.count {
            let scalar = scalars[index]
            if let open = quote {
                if scalar == closing(open) { quote = nil }
            } else if "'\"`[".unicodeScalars.contains(scalar) {
                quote = scalar
            } else if index + target.count <= scalars.count,
                      String(String.UnicodeScalarView(scalars[index..<(index + target.count)])).uppercased()
                        == keyword.uppercased(),
                      index == 0 || !isIdentifierCharacter(scalars[index - 1]),
                      index + target.count == scalars.count || !isIdentifierCharacter(scalars[index + target.count])
            {
                return index
            }
            index += 1
        }
        return nil
    }

    private static func isIdentifierCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    private static func closing(_ quote: Unicode.Scalar) -> Unicode.Scalar {
        quote == "[" ? "]" : quote
    }

    /// The arguments between the opening parenthesis (excluded) and its
    /// closing one, split at the commas that are outside quotes and
    /// nested parentheses.
    private static func splitArguments(_ scalars: [Unicode.Scalar]) -> [String] {
        var arguments: [String] = []
        var current = String.UnicodeScalarView()
        var depth = 0
        var quote: Unicode.Scalar?
        for scalar in scalars {
            if let open = quote {
                current.append(scalar)
                if scalar == closing(open) { quote = nil }
                continue
            }
            switch scalar {
            case "'", "\"", "`", "[":
                quote = scalar
                current.append(scalar)
            case "(":
                depth += 1
                current.append(scalar)
            case ")":
                if depth == 0 {
                    arguments.append(String(current))
                    return arguments.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
                }
                depth -= 1
                current.append(scalar)
            case "," where depth == 0:
                arguments.append(String(current))
                current = String.UnicodeScalarView()
            default:
                current.append(scalar)
            }
        }
        arguments.append(String(current))
        return arguments.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    }

    /// Splits text at whitespace and around `=`, keeping quoted parts
    /// (with their quotes) whole. A doubled quote inside a quoted part is
    /// an escaped quote.
    static func splitWords(_ text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func flush() {
            if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if "'\"`[".unicodeScalars.contains(scalar) {
                let close = closing(scalar)
                current.append(scalar)
                index += 1
                while index < scalars.count {
                    current.append(scalars[index])
                    if scalars[index] == close {
                        // A doubled quote continues the quoted part.
                        if close != "]", index + 1 < scalars.count, scalars[index + 1] == close {
                            current.append(scalars[index + 1])
                            index += 2
                            continue
                        }
                        break
                    }
                    index += 1
                }
                index += 1
            } else if scalar.properties.isWhitespace {
                flush()
                index += 1
            } else if scalar == "=" {
                flush()
                words.append("=")
                index += 1
            } else {
                current.append(scalar)
                index += 1
            }
        }
        flush()
        return words
    }

    /// Removes the quotes of a quoted word, and un-doubles the quotes
    /// inside.
    static func unquote(_ word: String) -> String {
        guard let first = word.unicodeScalars.first, let last = word.unicodeScalars.last,
              word.unicodeScalars.count >= 2
        else { return word }
        switch (first, last) {
        case ("'", "'"), ("\"", "\""), ("`", "`"):
            let inner = String(word.unicodeScalars.dropFirst().dropLast())
            let quote = String(first)
            return inner.replacingOccurrences(of: quote + quote, with: quote)
        case ("[", "]"):
            return String(word.unicodeScalars.dropFirst().dropLast())
        default:
            return word
        }
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }
}
