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
    /// FTS3.tokenize("SQLite database")                        // ["sqlite", "database"]
    /// FTS3.tokenize("SQLite database", withTokenizer: .porter) // ["sqlite", "databas"]
    /// FTS3.tokenize("Gustave Doré", withTokenizer: .unicode61()) // ["gustave", "dore"]
    /// ```
    ///
    /// - Parameters:
    ///   - string: The string to tokenize.
    ///   - tokenizer: The tokenizer; by default, simple.
    /// - Returns: The tokens; an empty array when the tokenizer does not
    ///   exist.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts3.html#querying_tokenizers>
    public static func tokenize(_ string: String, withTokenizer tokenizer: FTS3TokenizerDescriptor = .simple) -> [String] {
        (try? FTSTokenization.shared.tokenize(string, withFTS3Tokenizer: tokenizer)) ?? []
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

/// The FTS4 full-text engine, for
/// ``Database/create(virtualTable:ifNotExists:using:_:)``.
///
/// ```swift
/// // CREATE VIRTUAL TABLE book USING fts4(tokenize=porter, author, title, body)
/// try db.create(virtualTable: "book", using: FTS4()) { t in
///     t.tokenizer = .porter
///     t.column("author")
///     t.column("title")
///     t.column("body")
/// }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/fts3.html#fts4_options>
public struct FTS4: VirtualTableModule, Sendable {
    /// Creates the module.
    public init() { }

    /// `fts4`.
    public var moduleName: String { "fts4" }

    /// Returns an empty table definition.
    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS4TableDefinition {
        FTS4TableDefinition(configuration: configuration)
    }

    /// The columns and options of the table.
    public func moduleArguments(for definition: FTS4TableDefinition, in db: Database) throws -> [String] {
        var arguments: [String] = []
        for column in definition.columns {
            if column.isLanguageID {
                arguments.append("languageid=" + column.name.quotedDatabaseIdentifier)
            } else {
                arguments.append(column.name.ftsColumnName)
                if !column.isIndexed {
                    arguments.append("notindexed=" + column.name.ftsColumnName)
                }
            }
        }
        if let tokenizer = definition.tokenizer {
            arguments.append(tokenizer.tableArgument)
        }
        if let contentTable = definition.contentTable {
            arguments.append("content=" + contentTable.quotedDatabaseIdentifier)
        } else if let content = definition.content {
            arguments.append("content=" + content.quotedFTS4Option)
        }
        if let compress = definition.compress {
            arguments.append("compress=" + compress.quotedDatabaseIdentifier)
        }
        if let uncompress = definition.uncompress {
            arguments.append("uncompress=" + uncompress.quotedDatabaseIdentifier)
        }
        if let matchinfo = definition.matchinfo {
            arguments.append("matchinfo=" + matchinfo.quotedDatabaseIdentifier)
        }
        if let prefixes = definition.prefixes {
            arguments.append("prefix=" + prefixes.sorted().map(String.init).joined(separator: ",").quotedFTS4Option)
        }
        return arguments
    }

    /// Creates the triggers of a table synchronized with its content table,
    /// and indexes the content already there.
    public func database(_ db: Database, didCreate tableName: String, using definition: FTS4TableDefinition) throws {
        guard let contentTable = definition.contentTable else { return }
        let rowIDColumn = try db.primaryKey(contentTable).rowIDColumn ?? "rowid"
        let ftsTable = tableName.quotedDatabaseIdentifier
        let content = contentTable.quotedDatabaseIdentifier
        let indexedColumns = definition.columns.map(\.name)
        let ftsColumns = (["docid"] + indexedColumns).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let newValues = ([rowIDColumn] + indexedColumns).map { "new." + $0.quotedDatabaseIdentifier }.joined(separator: ", ")
        let oldRowID = "old." + rowIDColumn.quotedDatabaseIdentifier
        let createTrigger = definition.configuration.ifNotExists ? "CREATE TRIGGER IF NOT EXISTS" : "CREATE TRIGGER"
        try db.execute(sql: """
            \(createTrigger) \(FTS4.triggerName(tableName, "bu")) BEFORE UPDATE ON \(content) BEGIN
                DELETE FROM \(ftsTable) WHERE docid=\(oldRowID);
            END;
            \(createTrigger) \(FTS4.triggerName(tableName, "bd")) BEFORE DELETE ON \(content) BEGIN
                DELETE FROM \(ftsTable) WHERE docid=\(oldRowID);
            END;
            \(createTrigger) \(FTS4.triggerName(tableName, "au")) AFTER UPDATE ON \(content) BEGIN
                INSERT INTO \(ftsTable)(\(ftsColumns)) VALUES (\(newValues));
            END;
            \(createTrigger) \(FTS4.triggerName(tableName, "ai")) AFTER INSERT ON \(content) BEGIN
                INSERT INTO \(ftsTable)(\(ftsColumns)) VALUES (\(newValues));
            END;
            INSERT INTO \(ftsTable)(\(ftsTable)) VALUES ('rebuild');
            """)
    }

    /// The quoted name of a synchronization trigger.
    static func triggerName(_ tableName: String, _ suffix: String) -> String {
        "__\(tableName)_\(suffix)".quotedDatabaseIdentifier
    }
}

/// The definition of an FTS4 table: its columns and options.
public final class FTS4TableDefinition {
    fileprivate(set) var columns: [FTS4ColumnDefinition] = []
    fileprivate(set) var contentTable: String?

    /// The tokenizer; nil for the default (simple).
    public var tokenizer: FTS3TokenizerDescriptor?

    /// The content option: an empty string for a contentless table, or the
    /// name of an external content table.
    public var content: String?

    /// The function that compresses the stored content (`compress`).
    public var compress: String?

    /// The function that uncompresses the stored content (`uncompress`).
    public var uncompress: String?

    /// The `matchinfo` option (`fts3` for the FTS3 format).
    public var matchinfo: String?

    /// The prefix indexes (`prefix` option).
    public var prefixes: Set<Int>?

    /// How the table is created.
    let configuration: VirtualTableConfiguration

    init(configuration: VirtualTableConfiguration) {
        self.configuration = configuration
    }

    /// Appends a column.
    ///
    /// ```swift
    /// t.column("content")
    /// t.column("uuid").notIndexed()
    /// t.column("lid").asLanguageId()
    /// ```
    @discardableResult
    public func column(_ name: String) -> FTS4ColumnDefinition {
        let column = FTS4ColumnDefinition(name: name)
        columns.append(column)
        return column
    }

    /// Makes the table an external content table of `tableName`, kept in
    /// sync with it by triggers; the content already in the table is
    /// indexed when the full-text table is created.
    ///
    /// When you drop the full-text table, drop the triggers too, with
    /// ``Database/dropFTS4SynchronizationTriggers(forTable:)``.
    public func synchronize(withTable tableName: String) {
        contentTable = tableName
    }
}

/// A column of an FTS4 table.
public final class FTS4ColumnDefinition {
    let name: String
    fileprivate(set) var isIndexed = true
    fileprivate(set) var isLanguageID = false

    init(name: String) {
        self.name = name
    }

    /// Excludes the column from the full-text index (`notindexed`).
    @discardableResult
    public func notIndexed() -> Self {
        isIndexed = false
        return self
    }

    /// Makes the column the language id of the rows (`languageid`).
    @discardableResult
    public func asLanguageId() -> Self {
        isLanguageID = true
        return self
    }
}

extension Database {
    /// Drops the triggers that synchronize an FTS4 table with its content
    /// table (see ``FTS4TableDefinition/synchronize(withTable:)``). Drop
    /// them after you drop the full-text table: they would fail the writes
    /// of the content table.
    ///
    /// - Parameter tableName: The name of the full-text table.
    /// - Throws: A ``DatabaseError``.
    public func dropFTS4SynchronizationTriggers(forTable tableName: String) throws {
        try execute(sql: ["bu", "bd", "au", "ai"].map { suffix in
            "DROP TRIGGER IF EXISTS \(FTS4.triggerName(tableName, suffix));"
        }.joined(separator: "\n"))
    }
}

/// The descriptor of an FTS3 or FTS4 tokenizer: its name and arguments.
///
/// ```swift
/// t.tokenizer = .porter
/// t.tokenizer = .unicode61(diacritics: .keep)
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/fts3.html#tokenizer>
public struct FTS3TokenizerDescriptor: Hashable, Sendable {
    /// The name of the tokenizer.
    public let name: String
    /// The arguments of the tokenizer.
    public let arguments: [String]

    /// Creates a descriptor.
    public init(_ name: String, arguments: [String] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// The simple tokenizer, the default: ASCII letters are lowercased.
    public static let simple = FTS3TokenizerDescriptor("simple")

    /// The porter stemmer.
    public static let porter = FTS3TokenizerDescriptor("porter")

    /// The unicode61 tokenizer: Unicode letters are lowercased, and
    /// diacritics of latin letters are removed.
    ///
    /// - Parameters:
    ///   - diacritics: How diacritics are treated; by default, removed as
    ///     SQLite does by default (`.removeLegacy`).
    ///   - separators: Characters that separate tokens.
    ///   - tokenCharacters: Characters that are part of tokens.
    public static func unicode61(
        diacritics: FTS3.Diacritics = .removeLegacy,
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []) -> FTS3TokenizerDescriptor
    {
        var arguments: [String] = []
        switch diacritics {
        case .keep: arguments.append("remove_diacritics=0")
        case .removeLegacy: break
        case .remove: arguments.append("remove_diacritics=2")
        }
        if !separators.isEmpty {
            arguments.append("separators=" + String(separators.sorted()))
        }
        if !tokenCharacters.isEmpty {
            arguments.append("tokenchars=" + String(tokenCharacters.sorted()))
        }
        return FTS3TokenizerDescriptor("unicode61", arguments: arguments)
    }

    /// The `tokenize=` argument of a table.
    var tableArgument: String {
        "tokenize=" + ([name] + arguments.map(\.quotedFTS4Option)).joined(separator: " ")
    }

    /// The arguments of an `fts3tokenize` table.
    var fts3tokenizeArguments: String {
        ([name.quotedFTS4Option] + arguments.map(\.quotedFTS4Option)).joined(separator: ", ")
    }
}

/// The tokenizations of patterns and of `FTS3.tokenize`, on a private
/// in-memory connection.
final class FTSTokenization: Sendable {
    static let shared = FTSTokenization()

    private let dbQueue: DatabaseQueue?
    /// The names of the fts3tokenize tables, by tokenizer.
    private let fts3Tables = Locked<[FTS3TokenizerDescriptor: String]>([:])
    /// The FTS5 tables that check patterns, by allowed columns.
    private let fts5PatternTables = Locked<[[String]: String]>([:])

    private init() {
        var configuration = Configuration()
        configuration.label = "Cairn.FTSTokenization"
        dbQueue = try? DatabaseQueue(configuration: configuration)
    }

    func tokenize(_ string: String, withFTS3Tokenizer tokenizer: FTS3TokenizerDescriptor) throws -> [String] {
        guard let dbQueue else { return [] }
        return try dbQueue.inDatabase { db in
            let table: String
            if let existing = fts3Tables.withLock({ $0[tokenizer] }) {
                table = existing
            } else {
                table = "tokens\(fts3Tables.withLock { $0.count })"
                try db.execute(sql: "CREATE VIRTUAL TABLE temp.\(table) USING fts3tokenize(\(tokenizer.fts3tokenizeArguments))")
                fts3Tables.withLock { $0[tokenizer] = table }
            }
            return try String.fetchAll(db.cachedStatement(sql: "SELECT token FROM temp.\(table) WHERE input = ? ORDER BY position"), arguments: [string])
        }
    }

    /// The tokens of a query, for FTS5 patterns: ascii tokenizer, without
    /// synonyms.
    func fts5QueryTokens(_ string: String) throws -> [String] {
        guard let dbQueue else { return [] }
        return try dbQueue.inDatabase { db in
            try db.makeTokenizer(.ascii())
                .tokenize(query: string)
                .compactMap { $0.flags.contains(.colocated) ? nil : $0.token }
        }
    }

    /// Checks an FTS3 pattern.
    /// Checks a raw FTS5 pattern with a temporary FTS5 table of the given
    /// columns (one per set of columns).
    func validateFTS5Pattern(_ rawPattern: String, allowedColumns: [String]) throws {
        guard let dbQueue else { return }
        // A table needs a column: this one cannot be named by a pattern
        // that only names the allowed columns.
        let columns = allowedColumns.isEmpty ? ["__cairn_content"] : allowedColumns
        try dbQueue.inDatabase { db in
            let table: String
            if let existing = fts5PatternTables.withLock({ $0[columns] }) {
                table = existing
            } else {
                table = "fts5pattern\(fts5PatternTables.withLock { $0.count })"
                try db.execute(sql: "CREATE VIRTUAL TABLE temp.\(table) USING fts5("
                    + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")")
                fts5PatternTables.withLock { $0[columns] = table }
            }
            _ = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM temp.\(table) WHERE \(table) MATCH ?"), arguments: [rawPattern])
        }
    }

    func validateFTS3Pattern(_ rawPattern: String) throws {
        guard let dbQueue else { return }
        try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts3pattern USING fts3(content)")
            _ = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM temp.fts3pattern WHERE content MATCH ?"), arguments: [rawPattern])
        }
    }
}
