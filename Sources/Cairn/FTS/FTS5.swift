/// The FTS5 full-text engine, for
/// ``Database/create(virtualTable:ifNotExists:using:_:)``.
///
/// ```swift
/// // CREATE VIRTUAL TABLE "book" USING fts5(author, title, body, tokenize='''porter''')
/// try db.create(virtualTable: "book", using: FTS5()) { t in
///     t.tokenizer = .porter()
///     t.column("author")
///     t.column("title")
///     t.column("body")
/// }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/fts5.html>
public struct FTS5: VirtualTableModule, Sendable {
    /// How the unicode61 tokenizer treats diacritics.
    public enum Diacritics: Sendable {
        /// Keeps diacritics (`remove_diacritics 0`).
        case keep
        /// Removes diacritics of characters made of one code point
        /// (`remove_diacritics 1`), the default of SQLite.
        case removeLegacy
        /// Removes all diacritics of latin letters, including those of
        /// decomposed characters (`remove_diacritics 2`).
        case remove
    }

    /// Creates the module.
    public init() { }

    /// `fts5`.
    public var moduleName: String { "fts5" }

    /// Returns an empty table definition.
    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS5TableDefinition {
        FTS5TableDefinition(configuration: configuration)
    }

    /// The columns and options of the table.
    ///
    /// - Throws: A ``DatabaseError`` when the table has no column.
    public func moduleArguments(for definition: FTS5TableDefinition, in db: Database) throws -> [String] {
        guard !definition.columns.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "an FTS5 table needs at least one column")
        }
        var arguments = definition.columns.map { column in
            column.name.ftsColumnName + (column.isIndexed ? "" : " UNINDEXED")
        }
        if let tokenizer = definition.tokenizer {
            // Each component single-quoted, as GRDB writes it:
            // tokenize='''porter'' ''ascii'''.
            arguments.append("tokenize=" + tokenizer.components.map(\.sqlStringLiteral).joined(separator: " ").sqlStringLiteral)
        }
        if let contentTable = definition.contentTable {
            arguments.append("content=" + contentTable.sqlStringLiteral)
            // As GRDB: content_rowid names an INTEGER PRIMARY KEY, and is
            // left out when the rowid is hidden (FTS5's default).
            if let rowIDColumn = try db.primaryKey(contentTable).rowIDColumn {
                arguments.append("content_rowid=" + rowIDColumn.sqlStringLiteral)
            }
        } else {
            if let content = definition.content {
                arguments.append("content=" + content.sqlStringLiteral)
            }
            if let contentRowID = definition.contentRowID {
                arguments.append("content_rowid=" + contentRowID.sqlStringLiteral)
            }
        }
        if let prefixes = definition.prefixes {
            arguments.append("prefix=" + prefixes.sorted().map(String.init).joined(separator: " ").sqlStringLiteral)
        }
        if let columnSize = definition.columnSize {
            arguments.append("columnSize=" + String(columnSize))
        }
        if let detail = definition.detail {
            arguments.append("detail=" + (detail.isPlainFTSIdentifier ? detail : detail.sqlStringLiteral))
        }
        if definition.locale {
            arguments.append("locale=1")
        }
        return arguments
    }

    /// Creates the triggers of a table synchronized with its content table,
    /// and indexes the content already there.
    public func database(_ db: Database, didCreate tableName: String, using definition: FTS5TableDefinition) throws {
        guard let contentTable = definition.contentTable else { return }
        let rowIDColumn = try db.primaryKey(contentTable).rowIDColumn ?? "rowid"
        let ftsTable = tableName.quotedDatabaseIdentifier
        let content = contentTable.quotedDatabaseIdentifier
        let indexedColumns = definition.columns.map(\.name)
        let ftsColumns = (["rowid"] + indexedColumns).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let newValues = ([rowIDColumn] + indexedColumns).map { "new." + $0.quotedDatabaseIdentifier }.joined(separator: ", ")
        let oldValues = ([rowIDColumn] + indexedColumns).map { "old." + $0.quotedDatabaseIdentifier }.joined(separator: ", ")
        let createTrigger = definition.configuration.ifNotExists ? "CREATE TRIGGER IF NOT EXISTS" : "CREATE TRIGGER"
        // GRDB's text, which SQLite keeps in sqlite_master: the triggers,
        // then the rebuild, as a statement of its own.
        try db.execute(sql: """
            \(createTrigger) \(FTS5.triggerName(tableName, "ai")) AFTER INSERT ON \(content) BEGIN
                INSERT INTO \(ftsTable)(\(ftsColumns)) VALUES (\(newValues));
            END;
            \(createTrigger) \(FTS5.triggerName(tableName, "ad")) AFTER DELETE ON \(content) BEGIN
                INSERT INTO \(ftsTable)(\(ftsTable), \(ftsColumns)) VALUES('delete', \(oldValues));
            END;
            \(createTrigger) \(FTS5.triggerName(tableName, "au")) AFTER UPDATE ON \(content) BEGIN
                INSERT INTO \(ftsTable)(\(ftsTable), \(ftsColumns)) VALUES('delete', \(oldValues));
                INSERT INTO \(ftsTable)(\(ftsColumns)) VALUES (\(newValues));
            END;
            """)
        try db.execute(sql: "INSERT INTO \(ftsTable)(\(ftsTable)) VALUES('rebuild')")
    }

    /// The FTS5 C interface of a connection (`fts5_api`), for code that
    /// registers tokenizers or auxiliary functions with the C functions of
    /// FTS5.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     let api = FTS5.api(db)
    ///     print(api.pointee.iVersion) // 3
    ///     // api.pointee.xCreateFunction(...), api.pointee.xCreateTokenizer_v2(...)
    /// }
    /// ```
    ///
    /// The pointer is valid until the connection is closed: use it inside
    /// the database access.
    ///
    /// - Parameter db: A connection, inside its database access.
    /// - Returns: The `fts5_api` of the connection, version 3 or more.
    /// - Precondition: The connection is open. Cairn's SQLite always has
    ///   FTS5.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts5.html#extending_fts5>
    public static func api(_ db: Database) -> UnsafePointer<fts5_api> {
        db.preconditionInsideAccess()
        do {
            return UnsafePointer(try db.fts5API())
        } catch {
            stopProgram("FTS5.api(_:) needs an open connection, inside its database access: \(error)")
        }
    }

    /// The quoted name of a synchronization trigger.
    static func triggerName(_ tableName: String, _ suffix: String) -> String {
        "__\(tableName)_\(suffix)".quotedDatabaseIdentifier
    }
}

/// The definition of an FTS5 table: its columns and options.
///
/// See ``FTS5``.
public final class FTS5TableDefinition {
    /// The columns, in order.
    fileprivate(set) var columns: [FTS5ColumnDefinition] = []

    /// The table whose content the table indexes, and keeps synchronized.
    fileprivate(set) var contentTable: String?

    /// The tokenizer (`tokenize` option); nil for FTS5's default
    /// (unicode61).
    public var tokenizer: FTS5TokenizerDescriptor?

    /// The content and content_rowid options, when the table is not
    /// synchronized.
    private var rawContent: String?
    private var rawContentRowID: String?

    /// The content option: an empty string for a contentless table, or the
    /// name of an external content table.
    ///
    /// It reads the content table of a synchronized table (see
    /// ``synchronize(withTable:)``); setting it ends the synchronization,
    /// as in GRDB.
    public var content: String? {
        get { contentTable ?? rawContent }
        set {
            if contentTable != nil {
                contentTable = nil
                rawContentRowID = nil
            }
            rawContent = newValue
        }
    }

    /// The rowid column of the external content table (`content_rowid`).
    ///
    /// It is nil for a synchronized table (see
    /// ``synchronize(withTable:)``); setting it ends the synchronization,
    /// as in GRDB.
    public var contentRowID: String? {
        get { contentTable == nil ? rawContentRowID : nil }
        set {
            if contentTable != nil {
                contentTable = nil
                rawContent = nil
            }
            rawContentRowID = newValue
        }
    }

    /// The prefix indexes (`prefix` option).
    public var prefixes: Set<Int>?

    /// The `columnsize` option: 0 to store no column sizes.
    public var columnSize: Int?

    /// The `detail` option: `full`, `column` or `none`.
    public var detail: String?

    /// The `locale` option: when true (`locale=1`), each value may come
    /// with a locale, given with the `fts5_locale(locale, text)` SQL
    /// function, which FTS5 passes on to the tokenizer
    /// (``FTS5Tokenizer/tokenize(context:tokenization:pText:nText:locale:tokenCallback:)``);
    /// `fts5_get_locale(table, column)` reads it back.
    ///
    /// ```swift
    /// try db.create(virtualTable: "note", using: FTS5()) { t in
    ///     t.tokenizer = FTS5WordTokenizer.tokenizerDescriptor()
    ///     t.locale = true
    ///     t.column("text")
    /// }
    /// try db.execute(sql: "INSERT INTO note(text) VALUES (fts5_locale('th', ?))", arguments: [thaiText])
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts5.html#the_locale_option>
    public var locale = false

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
    /// ```
    @discardableResult
    public func column(_ name: String) -> FTS5ColumnDefinition {
        let column = FTS5ColumnDefinition(name: name)
        columns.append(column)
        return column
    }

    /// Makes the table an external content table of `tableName`, kept in
    /// sync with it by triggers; the content already in the table is
    /// indexed when the full-text table is created.
    ///
    /// ```swift
    /// try db.create(virtualTable: "book_ft", using: FTS5()) { t in
    ///     t.synchronize(withTable: "book")
    ///     t.column("title")
    ///     t.column("content")
    /// }
    /// ```
    ///
    /// When you drop the full-text table, drop the triggers too, with
    /// ``Database/dropFTS5SynchronizationTriggers(forTable:)``.
    public func synchronize(withTable tableName: String) {
        contentTable = tableName
        rawContent = nil
        rawContentRowID = nil
    }
}

/// A column of an FTS5 table.
public final class FTS5ColumnDefinition {
    let name: String
    fileprivate(set) var isIndexed = true

    init(name: String) {
        self.name = name
    }

    /// Excludes the column from the full-text index (`UNINDEXED`).
    @discardableResult
    public func notIndexed() -> Self {
        isIndexed = false
        return self
    }
}

extension Database {
    /// Drops the triggers that synchronize an FTS5 table with its content
    /// table (see ``FTS5TableDefinition/synchronize(withTable:)``). Drop
    /// them after you drop the full-text table: they would fail the writes
    /// of the content table.
    ///
    /// - Parameter tableName: The name of the full-text table.
    /// - Throws: A ``DatabaseError``.
    public func dropFTS5SynchronizationTriggers(forTable tableName: String) throws {
        try execute(sql: ["ai", "ad", "au"].map { suffix in
            "DROP TRIGGER IF EXISTS \(FTS5.triggerName(tableName, suffix));"
        }.joined(separator: "\n"))
    }
}

/// The descriptor of an FTS5 tokenizer: its name and arguments, as in the
/// `tokenize` option of an FTS5 table.
///
/// ```swift
/// t.tokenizer = .unicode61(diacritics: .keep)
/// t.tokenizer = .porter(wrapping: .ascii())
/// t.tokenizer = MyTokenizer.tokenizerDescriptor(arguments: ["arg"])
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/fts5.html#tokenizers>
public struct FTS5TokenizerDescriptor: Hashable, Sendable {
    /// The name of the tokenizer, followed by its arguments.
    public let components: [String]

    /// The name of the tokenizer.
    public var name: String { components.first ?? "" }

    /// The arguments of the tokenizer.
    public var arguments: [String] { Array(components.dropFirst()) }

    /// Creates a descriptor from the name of a tokenizer and its arguments.
    ///
    /// - Precondition: `components` is not empty.
    public init(components: [String]) {
        stopUnless(!components.isEmpty, "Empty tokenizer descriptor")
        self.components = components
    }

    /// The ascii tokenizer, without options.
    public static let ascii = FTS5TokenizerDescriptor(components: ["ascii"])

    /// The ascii tokenizer: ASCII letters are lowercased; characters beyond
    /// ASCII are token characters.
    ///
    /// - Parameters:
    ///   - separators: Characters that separate tokens.
    ///   - tokenCharacters: Characters that are part of tokens.
    public static func ascii(separators: Set<Character> = [], tokenCharacters: Set<Character> = []) -> FTS5TokenizerDescriptor {
        var components = ["ascii"]
        if !separators.isEmpty {
            components.append(contentsOf: ["separators", String(separators.sorted())])
        }
        if !tokenCharacters.isEmpty {
            components.append(contentsOf: ["tokenchars", String(tokenCharacters.sorted())])
        }
        return FTS5TokenizerDescriptor(components: components)
    }

    /// The porter stemmer, wrapping another tokenizer (unicode61 by
    /// default).
    public static func porter(wrapping base: FTS5TokenizerDescriptor? = nil) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: ["porter"] + (base?.components ?? []))
    }

    /// The porter stemmer, wrapping another tokenizer.
    ///
    /// ```swift
    /// t.tokenizer = .porter(.ascii())
    /// ```
    public static func porter(_ base: FTS5TokenizerDescriptor) -> FTS5TokenizerDescriptor {
        porter(wrapping: base)
    }

    /// The unicode61 tokenizer, the default of FTS5: Unicode letters are
    /// lowercased, and diacritics of latin letters are removed.
    ///
    /// - Parameters:
    ///   - diacritics: How diacritics are treated; by default, removed as
    ///     SQLite does by default (`.removeLegacy`).
    ///   - categories: The Unicode categories of token characters, such as
    ///     `"L* N* Co"`; nil or empty for the default of SQLite.
    ///   - separators: Characters that separate tokens.
    ///   - tokenCharacters: Characters that are part of tokens.
    public static func unicode61(
        diacritics: FTS5.Diacritics = .removeLegacy,
        categories: String? = nil,
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []) -> FTS5TokenizerDescriptor
    {
        var components = ["unicode61"]
        switch diacritics {
        case .keep: components.append(contentsOf: ["remove_diacritics", "0"])
        case .removeLegacy: break
        case .remove: components.append(contentsOf: ["remove_diacritics", "2"])
        }
        if let categories, !categories.isEmpty {
            components.append(contentsOf: ["categories", categories])
        }
        if !separators.isEmpty {
            components.append(contentsOf: ["separators", String(separators.sorted())])
        }
        if !tokenCharacters.isEmpty {
            components.append(contentsOf: ["tokenchars", String(tokenCharacters.sorted())])
        }
        return FTS5TokenizerDescriptor(components: components)
    }

    /// The trigram tokenizer, for substring matches (LIKE and GLOB can use
    /// the full-text index).
    ///
    /// - Parameters:
    ///   - caseSensitive: Whether matches are case-sensitive; by default,
    ///     they are not.
    ///   - removeDiacritics: Whether diacritics are removed; only for
    ///     case-insensitive matches.
    public static func trigram(caseSensitive: Bool = false, removeDiacritics: Bool = false) -> FTS5TokenizerDescriptor {
        var components = ["trigram"]
        if caseSensitive {
            components.append(contentsOf: ["case_sensitive", "1"])
        }
        if removeDiacritics {
            components.append(contentsOf: ["remove_diacritics", "1"])
        }
        return FTS5TokenizerDescriptor(components: components)
    }
}
