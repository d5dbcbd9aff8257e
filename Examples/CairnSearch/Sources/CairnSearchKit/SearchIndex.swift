import Cairn
import Foundation

/// A full-text index of text and Markdown files, stored in an SQLite
/// database.
///
/// ```swift
/// let index = try SearchIndex(path: "/tmp/notes.sqlite")
/// let summary = try index.index(directory: "/Users/me/Notes")
/// print(summary)  // 12 added, 0 updated, 0 removed, 0 unchanged
/// for result in try index.search("database design") ?? [] {
///     print(result.path, result.title, result.snippet)
/// }
/// ```
///
/// The database is a ``DatabasePool`` in WAL mode: searches can run while
/// another process indexes. Its schema is built by ``migrator``: a regular
/// table `document` (see ``Document``), and an FTS5 table `document_ft` that
/// indexes the title and body of each document, kept in sync with it by
/// triggers. The full-text table tokenizes text with ``tokenizer``.
public final class SearchIndex: Sendable {
    /// The path of the database file.
    public let path: String

    /// The database.
    let dbPool: DatabasePool

    /// How an index is opened.
    public enum OpeningMode: Sendable {
        /// Creates the database when it does not exist, and migrates its
        /// schema: for indexing.
        case create
        /// Opens an existing index, read-only: for searching.
        case readOnly
    }

    /// Opens an index.
    ///
    /// - Parameters:
    ///   - path: The path of the database file.
    ///   - mode: Whether the index is created when needed (the default), or
    ///     must exist and is opened read-only.
    /// - Throws: A ``SearchError`` when the database cannot be opened or
    ///   is not an index, or was created by a newer version of the program.
    public init(path: String, mode: OpeningMode = .create) throws {
        self.path = path
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue {
            throw SearchError.cannotOpenDatabase(path: path, reason: "it is a directory")
        }
        if mode == .readOnly && !exists {
            throw SearchError.databaseNotFound(path: path)
        }

        var configuration = Configuration()
        configuration.readonly = (mode == .readOnly)
        // Another process may be indexing: wait for it a little.
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            // Swift tokenizers must be registered in each connection that
            // uses a table that names them.
            db.add(tokenizer: FTS5LatinASCIITokenizer.self)
            db.add(tokenizer: FTS5SynonymTokenizer.self)
            db.add(tokenizer: FTS5StopWordTokenizer.self)
        }

        let migrator = Self.migrator
        do {
            switch mode {
            case .create:
                if exists {
                    // Look before opening the pool, read-only: a pool
                    // would switch any database to WAL mode.
                    var inspection = Configuration()
                    inspection.readonly = true
                    inspection.busyMode = .timeout(5)
                    try DatabaseQueue(path: path, configuration: inspection).read { db in
                        try Self.checkSchema(db, path: path, requiresIndex: false)
                    }
                }
                dbPool = try DatabasePool(path: path, configuration: configuration)
                try migrator.migrate(dbPool)
            case .readOnly:
                dbPool = try DatabasePool(path: path, configuration: configuration)
                try dbPool.read { db in
                    try Self.checkSchema(db, path: path, requiresIndex: true)
                }
            }
        } catch let error as SearchError {
            throw error
        } catch let error as DatabaseError {
            throw SearchError.cannotOpenDatabase(path: path, reason: error.message ?? "\(error)")
        }
    }

    /// Throws when the database is not an index that this version can
    /// use: an index created by a newer version, or another database
    /// (unless `requiresIndex` is false and the database is empty).
    private static func checkSchema(_ db: Database, path: String, requiresIndex: Bool) throws {
        let applied = try migrator.appliedIdentifiers(db)
        let known = Set(migrator.migrations)
        if !applied.isSubset(of: known) {
            throw SearchError.newerIndex(path: path)
        }
        if requiresIndex {
            if applied != known {
                throw SearchError.notAnIndex(path: path)
            }
        } else if applied.isEmpty, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") != 0 {
            // Never add tables to a database that is something else.
            throw SearchError.notAnIndex(path: path)
        }
    }

    // MARK: - Schema

    /// The groups of synonyms of the index: a document that contains one
    /// word of a group matches a search for any other word of the group
    /// ("db" finds "database", "1st" finds "first", and the reverse).
    ///
    /// Words are compared after folding and stemming: "Café" and "cafe"
    /// are one word, and so are "databases" and "database".
    public static let synonyms: [Set<String>] = [
        ["db", "database"],
        ["1st", "first"],
        ["2nd", "second"],
        ["3rd", "third"],
        ["doc", "document"],
        ["docs", "documentation"],
        ["app", "application"],
        ["config", "configuration"],
        ["dir", "directory", "folder"],
        ["info", "information"],
        ["repo", "repository"],
        ["img", "image"],
        ["intro", "introduction"],
        ["spec", "specification"],
    ]

    /// The English stop words of the index: too common to help a search,
    /// they are left out of the index and of searches. Like synonyms, they
    /// are compared after folding and stemming.
    public static let stopWords: Set<String> = [
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "from",
        "has", "have", "in", "is", "it", "its", "of", "on", "or", "that",
        "the", "this", "to", "was", "were", "will", "with",
    ]

    /// The tokenizer of the full-text table, a chain of Cairn's ready-made
    /// tokenizers around SQLite's built-in ones. Text goes through
    /// unicode61 (words, lowercased), then ``FTS5LatinASCIITokenizer``
    /// ("Großmann" → "grossmann", "café" → "cafe"), then the porter stemmer
    /// for English ("pools" → "pool", "indexing" → "index"), then
    /// ``FTS5StopWordTokenizer`` (``stopWords`` are dropped), then
    /// ``FTS5SynonymTokenizer`` (``synonyms`` are indexed along with each
    /// word of their group).
    public static let tokenizer: FTS5TokenizerDescriptor =
        FTS5SynonymTokenizer.tokenizerDescriptor(
            synonyms: synonyms,
            wrapping: FTS5StopWordTokenizer.tokenizerDescriptor(
                stopWords: stopWords,
                wrapping: .porter(wrapping: FTS5LatinASCIITokenizer.tokenizerDescriptor())))

    /// The name of the full-text table: `document_ft`.
    public static let fullTextTableName = "document_ft"

    /// The migrations of the database schema.
    ///
    /// - `v1`: the `document` table, with a unique `path`, and the FTS5
    ///   table `document_ft` (`title`, `body`), synchronized with it.
    public static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: Document.databaseTableName) { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("path", .text).notNull().unique()
                t.column("title", .text).notNull()
                t.column("body", .text).notNull()
                t.column("modified", .datetime).notNull()
                t.column("size", .integer).notNull()
            }
            try db.create(virtualTable: fullTextTableName, using: FTS5()) { t in
                t.synchronize(withTable: Document.databaseTableName)
                t.tokenizer = tokenizer
                t.column("title")
                t.column("body")
            }
        }
        return migrator
    }()

    // MARK: - Reading

    /// All indexed documents, sorted by path.
    ///
    /// - Throws: A ``DatabaseError``.
    public func documents() throws -> [Document] {
        try dbPool.read { db in
            try Document.order(Document.Columns.path).fetchAll(db)
        }
    }
}
