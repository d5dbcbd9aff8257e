import Foundation

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
        if let content = definition.content {
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
                INSERT INTO \(ftsTable)(\(ftsColumns)) VALUES(\(newValues));
            END;
            \(createTrigger) \(FTS4.triggerName(tableName, "ai")) AFTER INSERT ON \(content) BEGIN
                INSERT INTO \(ftsTable)(\(ftsColumns)) VALUES(\(newValues));
            END;
            """)
        // A statement of its own, as GRDB runs it.
        try db.execute(sql: "INSERT INTO \(ftsTable)(\(ftsTable)) VALUES('rebuild')")
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

    /// The content option, when the table is not synchronized.
    private var rawContent: String?

    /// The content option: an empty string for a contentless table, or the
    /// name of an external content table.
    ///
    /// It reads the content table of a synchronized table (see
    /// ``synchronize(withTable:)``); setting it ends the synchronization,
    /// as in GRDB.
    public var content: String? {
        get { contentTable ?? rawContent }
        set {
            contentTable = nil
            rawContent = newValue
        }
    }

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
