/// A full-text search pattern for FTS3 and FTS4 tables.
///
/// Build valid patterns from any string, including strings typed by users:
/// characters of the query syntax (quotes, `*`, `-`, parentheses,
/// keywords…) are searched as text, never interpreted.
///
/// ```swift
/// let pattern = FTS3Pattern(matchingAllTokensIn: "SQLite database")
/// let books = try Book.matching(pattern).fetchAll(db)
/// let books = try Book.fetchAll(db, sql: "SELECT * FROM book WHERE book MATCH ?", arguments: [pattern])
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/fts3.html#full_text_index_queries>
public struct FTS3Pattern: Hashable, Sendable {
    /// The pattern, as given to MATCH.
    public let rawPattern: String

    private init(checkedPattern: String) {
        rawPattern = checkedPattern
    }

    /// Creates a pattern from a raw pattern, after checking its syntax.
    ///
    /// ```swift
    /// let pattern = try FTS3Pattern(rawPattern: "sqlite AND database")
    /// _ = try FTS3Pattern(rawPattern: "AND") // DatabaseError: malformed MATCH expression: [AND]
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` for an invalid pattern.
    public init(rawPattern: String) throws {
        try FTSTokenization.shared.validateFTS3Pattern(rawPattern)
        self.rawPattern = rawPattern
    }

    /// A pattern that matches documents that contain any of the tokens of
    /// `string`; nil when `string` has no token.
    public init?(matchingAnyTokenIn string: String) {
        guard let tokens = FTS3Pattern.tokens(string) else { return nil }
        self.init(checkedPattern: tokens.map(\.fts3Term).joined(separator: " OR "))
    }

    /// A pattern that matches documents that contain all the tokens of
    /// `string`; nil when `string` has no token.
    public init?(matchingAllTokensIn string: String) {
        guard let tokens = FTS3Pattern.tokens(string) else { return nil }
        self.init(checkedPattern: tokens.map(\.fts3Term).joined(separator: " "))
    }

    /// A pattern that matches documents that contain words that start with
    /// each of the tokens of `string`; nil when `string` has no token.
    public init?(matchingAllPrefixesIn string: String) {
        guard let tokens = FTS3Pattern.tokens(string) else { return nil }
        self.init(checkedPattern: tokens.map { $0.isPlainFTS3Token ? $0 + "*" : "\"\($0.escapingFTSQuotes)*\"" }.joined(separator: " "))
    }

    /// A pattern that matches documents that contain the tokens of `string`
    /// as a phrase, in order; nil when `string` has no token.
    public init?(matchingPhrase string: String) {
        guard let tokens = FTS3Pattern.tokens(string) else { return nil }
        self.init(checkedPattern: tokens.joined(separator: " ").quotedFTSPhrase)
    }

    /// The tokens of the simple tokenizer (alphanumeric ASCII characters,
    /// and all characters beyond ASCII); nil when there is none.
    private static func tokens(_ string: String) -> [String]? {
        // SQLite reads patterns as C strings: a NUL would cut the pattern.
        let tokens = ((try? FTS3.tokenize(string)) ?? [])
            .map { $0.replacingOccurrences(of: "\u{0}", with: "") }
            .filter { !$0.isEmpty }
        return tokens.isEmpty ? nil : tokens
    }
}

/// A full-text search pattern for FTS5 tables.
///
/// Build valid patterns from any string, including strings typed by users:
/// characters of the query syntax (quotes, `*`, `^`, `:`, `-`, parentheses,
/// `AND`, `OR`, `NOT`, `NEAR`…) are searched as text, never interpreted.
///
/// ```swift
/// let pattern = FTS5Pattern(matchingAllTokensIn: "SQLite database")
/// let documents = try Document.matching(pattern).fetchAll(db)
/// ```
///
/// Check raw patterns with ``Database/makeFTS5Pattern(rawPattern:forTable:)``.
///
/// Related SQLite documentation: <https://www.sqlite.org/fts5.html#full_text_query_syntax>
public struct FTS5Pattern: Hashable, Sendable {
    /// The pattern, as given to MATCH.
    public let rawPattern: String

    init(checkedPattern: String) {
        rawPattern = checkedPattern
    }

    /// Creates a pattern from a raw pattern, after checking its syntax.
    ///
    /// Column filters (`title: sqlite`) may only name `allowedColumns`. To
    /// check a pattern against the columns of an existing table, use
    /// ``Database/makeFTS5Pattern(rawPattern:forTable:)``.
    ///
    /// ```swift
    /// let pattern = try FTS5Pattern(rawPattern: "sqlite AND database")
    /// let titled = try FTS5Pattern(rawPattern: "title: sqlite", allowedColumns: ["title"])
    /// _ = try FTS5Pattern(rawPattern: "AND")  // DatabaseError: fts5: syntax error near "AND"
    /// ```
    ///
    /// - Parameters:
    ///   - rawPattern: The pattern.
    ///   - allowedColumns: The columns that column filters may name.
    /// - Throws: A ``DatabaseError`` for an invalid pattern.
    public init(rawPattern: String, allowedColumns: [String] = []) throws {
        try FTSTokenization.shared.validateFTS5Pattern(rawPattern, allowedColumns: allowedColumns)
        self.rawPattern = rawPattern
    }

    /// A pattern that matches documents that contain any of the tokens of
    /// `string`; nil when `string` has no token.
    public init?(matchingAnyTokenIn string: String) {
        guard let tokens = FTS5Pattern.tokens(string) else { return nil }
        self.init(checkedPattern: tokens.map(\.fts5Term).joined(separator: " OR "))
    }

    /// A pattern that matches documents that contain all the tokens of
    /// `string`; nil when `string` has no token.
    public init?(matchingAllTokensIn string: String) {
        guard let tokens = FTS5Pattern.tokens(string) else { return nil }
        self.init(checkedPattern: tokens.map(\.fts5Term).joined(separator: " "))
    }

    /// A pattern that matches documents that contain words that start with
    /// each of the tokens of `string`; nil when `string` has no token.
    public init?(matchingAllPrefixesIn string: String) {
        guard let tokens = FTS5Pattern.tokens(string) else { return nil }
        self.init(checkedPattern: tokens.map { $0.isPlainFTS5Token ? $0 + "*" : $0.quotedFTSPhrase + " *" }.joined(separator: " "))
    }

    /// A pattern that matches documents that contain the tokens of `string`
    /// as a phrase, in order; nil when `string` has no token.
    public init?(matchingPhrase string: String) {
        guard let tokens = FTS5Pattern.tokens(string) else { return nil }
        self.init(checkedPattern: tokens.joined(separator: " ").quotedFTSPhrase)
    }

    /// A pattern that matches documents whose column starts with the tokens
    /// of `string`, as a phrase; nil when `string` has no token.
    public init?(matchingPrefixPhrase string: String) {
        guard let tokens = FTS5Pattern.tokens(string) else { return nil }
        self.init(checkedPattern: "^" + tokens.joined(separator: " ").quotedFTSPhrase)
    }

    /// The tokens of the ascii tokenizer (ASCII alphanumeric characters,
    /// and all characters beyond ASCII); nil when there is none.
    private static func tokens(_ string: String) -> [String]? {
        // A NUL would cut the pattern, which SQLite reads as a C string.
        guard let tokens = try? FTSTokenization.shared.fts5QueryTokens(string)
            .map({ $0.replacingOccurrences(of: "\u{0}", with: "") })
            .filter({ !$0.isEmpty }),
            !tokens.isEmpty
        else {
            return nil
        }
        return tokens
    }
}

extension Database {
    /// Returns a pattern for an FTS5 table, after checking its syntax and
    /// its columns.
    ///
    /// ```swift
    /// try db.makeFTS5Pattern(rawPattern: "sqlite", forTable: "book")
    /// try db.makeFTS5Pattern(rawPattern: "AND", forTable: "book")         // syntax error near "AND"
    /// try db.makeFTS5Pattern(rawPattern: "missing: sqlite", forTable: "book") // no such column: missing
    /// ```
    ///
    /// - Parameters:
    ///   - rawPattern: The pattern.
    ///   - table: An FTS5 table.
    /// - Throws: A ``DatabaseError`` for an invalid pattern, or a table that
    ///   does not exist.
    public func makeFTS5Pattern(rawPattern: String, forTable table: String) throws -> FTS5Pattern {
        // As GRDB: the pattern is checked with the columns of the table,
        // not run against its content.
        try FTS5Pattern(rawPattern: rawPattern, allowedColumns: columns(in: table).map(\.name))
    }
}

extension FTS3Pattern: DatabaseValueConvertible {
    /// The raw pattern, as text.
    public var databaseValue: DatabaseValue { rawPattern.databaseValue }

    /// A pattern from text, after checking its syntax; nil for an invalid
    /// pattern and for other values, as in GRDB.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS3Pattern? {
        guard case .string(let string) = dbValue.storage else { return nil }
        return try? FTS3Pattern(rawPattern: string)
    }
}

extension FTS5Pattern: DatabaseValueConvertible {
    /// The raw pattern, as text.
    public var databaseValue: DatabaseValue { rawPattern.databaseValue }

    /// A pattern from text, after checking its syntax (without column
    /// filters); nil for an invalid pattern and for other values, as in
    /// GRDB.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS5Pattern? {
        guard case .string(let string) = dbValue.storage else { return nil }
        return try? FTS5Pattern(rawPattern: string)
    }
}

extension FTS3Pattern: CustomStringConvertible {
    /// The raw pattern.
    public var description: String { rawPattern }
}

extension FTS5Pattern: CustomStringConvertible {
    /// The raw pattern.
    public var description: String { rawPattern }
}

// MARK: - Matching a column

extension ColumnExpression {
    /// `column MATCH pattern`: full-text matching of a column of an FTS3 or
    /// FTS4 table, or of the whole table when the column is named after the
    /// table. A nil pattern matches nothing.
    ///
    /// ```swift
    /// let pattern = FTS3Pattern(matchingAllTokensIn: "SQLite database")
    /// let books = try Book.filter(Column("content").match(pattern)).fetchAll(db)
    /// // SELECT * FROM "book" WHERE "content" MATCH ?
    /// ```
    ///
    /// - Parameter pattern: The full-text pattern.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts3.html#full_text_index_queries>
    public func match(_ pattern: FTS3Pattern?) -> SQLExpression {
        SQLExpression(impl: .binary("MATCH", sqlExpression, pattern?.sqlExpression ?? .value(.null)))
    }

    /// `column MATCH pattern`: full-text matching of a column of an FTS5
    /// table, or of the whole table when the column is named after the
    /// table.
    ///
    /// ```swift
    /// if let pattern = FTS5Pattern(matchingAllTokensIn: "SQLite database") {
    ///     let books = try Book.filter(Column("book").match(pattern)).fetchAll(db)
    /// }
    /// ```
    ///
    /// - Parameter pattern: The full-text pattern.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts5.html#full_text_query_syntax>
    public func match(_ pattern: FTS5Pattern) -> SQLExpression {
        SQLExpression(impl: .binary("MATCH", sqlExpression, pattern.sqlExpression))
    }
}
