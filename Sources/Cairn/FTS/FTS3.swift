import Foundation

/// The FTS3 full-text engine, for
/// ``Database/create(virtualTable:ifNotExists:using:_:)``.
///
/// ```swift
/// // CREATE VIRTUAL TABLE document USING fts3(content)
/// try db.create(virtualTable: "document", using: FTS3()) { t in
///     t.column("content")
/// }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/fts3.html>
public struct FTS3: VirtualTableModule, Sendable {
    /// How the unicode61 tokenizer treats diacritics.
    public enum Diacritics: Sendable {
        /// Keeps diacritics (`remove_diacritics=0`).
        case keep
        /// Removes diacritics of characters made of one code point
        /// (`remove_diacritics=1`), the default of SQLite.
        case removeLegacy
        /// Removes all diacritics of latin letters (`remove_diacritics=2`).
        case remove
    }

    /// Creates the module.
    public init() { }

    /// `fts3`.
    public var moduleName: String { "fts3" }

    /// Returns an empty table definition.
    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS3TableDefinition {
        FTS3TableDefinition()
    }

    /// The columns and the tokenizer of the table.
    public func moduleArguments(for definition: FTS3TableDefinition, in db: Database) throws -> [String] {
        var arguments = definition.columns.map(\.ftsColumnName)
        if let tokenizer = definition.tokenizer {
            arguments.append(tokenizer.tableArgument)
        }
        return arguments
    }

    /// The tokens of a string, as an FTS3 or FTS4 tokenizer produces them.
    ///
    /// ```swift
    /// try FTS3.tokenize("SQLite database")                        // ["sqlite", "database"]
    /// try FTS3.tokenize("SQLite database", withTokenizer: .porter) // ["sqlite", "databas"]
    /// try FTS3.tokenize("Gustave Doré", withTokenizer: .unicode61()) // ["gustave", "dore"]
    /// ```
    ///
    /// Tokens are returned as the tokenizer produces them, whatever the
    /// script (`"中文"` is one token for simple and unicode61). A tokenizer
    /// that cuts a character in two bytes sequences (porter keeps the first
    /// and last ten bytes of long words) gives a token whose invalid UTF-8
    /// is replaced by U+FFFD, as in GRDB.
    ///
    /// - Parameters:
    ///   - string: The string to tokenize.
    ///   - tokenizer: The tokenizer; by default, simple.
    /// - Returns: The tokens.
    /// - Throws: A ``DatabaseError`` when the tokenizer does not exist, or
    ///   refuses its arguments, as in GRDB.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts3.html#querying_tokenizers>
    public static func tokenize(_ string: String, withTokenizer tokenizer: FTS3TokenizerDescriptor = .simple) throws -> [String] {
        try FTSTokenization.shared.tokenize(string, withFTS3Tokenizer: tokenizer)
    }
}

/// The definition of an FTS3 table: its columns and tokenizer.
public final class FTS3TableDefinition {
    fileprivate(set) var columns: [String] = []

    /// The tokenizer; nil for the default (simple).
    public var tokenizer: FTS3TokenizerDescriptor?

    init() { }

    /// Appends a column.
    public func column(_ name: String) {
        columns.append(name)
    }
}
