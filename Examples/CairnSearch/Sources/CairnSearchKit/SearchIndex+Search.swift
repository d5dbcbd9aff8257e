import Cairn
import Foundation

/// A document that matches a search.
///
/// Its JSON form, with sorted keys, is what `cairn-search query --json`
/// prints:
///
/// ```json
/// {"path": "/notes/sqlite.md", "score": 4.2, "snippet": "…a [database] engine…", "title": "SQLite"}
/// ```
public struct SearchResult: Codable, Equatable, Sendable {
    /// The absolute path of the file.
    public var path: String

    /// The title, with the matched words between ``SearchIndex/highlightMarkers``.
    public var title: String

    /// An excerpt of the text around the matched words, between
    /// ``SearchIndex/highlightMarkers``, on one line.
    public var snippet: String

    /// The relevance of the document: the opposite of its bm25 rank, so
    /// that a higher score is a better match. Matches in the title weigh
    /// ten times as much as matches in the body.
    public var score: Double

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - path: The absolute path of the file.
    ///   - title: The highlighted title.
    ///   - snippet: The highlighted excerpt.
    ///   - score: The relevance; higher is better.
    public init(path: String, title: String, snippet: String, score: Double) {
        self.path = path
        self.title = title
        self.snippet = snippet
        self.score = score
    }
}

extension SearchIndex {
    /// The number of results of a search, unless told otherwise: 10.
    public static let defaultLimit = 10

    /// The text around matched words in titles and snippets: `[` and `]`.
    public static let highlightMarkers = (open: "[", close: "]")

    /// Searches the documents that contain all the words of `text`, best
    /// matches first (bm25 ranking).
    ///
    /// Any text is accepted: the characters of the FTS5 query syntax
    /// (quotes, `*`, `^`, `:`, parentheses, `AND`, `OR`, `NOT`, `NEAR`…)
    /// are searched as words or ignored, never interpreted. Words are
    /// folded and stemmed like indexed text ("Café" finds "cafe", "pools"
    /// finds "pool"), stop words are ignored, and synonyms match each other
    /// ("db" finds "database"). See ``tokenizer``.
    ///
    /// - Parameters:
    ///   - text: The words to search, as a user types them.
    ///   - limit: The maximum number of results.
    /// - Returns: The matching documents, or nil when `text` contains no
    ///   word to search.
    /// - Throws: A ``DatabaseError``.
    public func search(_ text: String, limit: Int = defaultLimit) throws -> [SearchResult]? {
        guard let pattern = FTS5Pattern(matchingAllTokensIn: text) else {
            return nil
        }
        let (open, close) = Self.highlightMarkers
        let ft = Self.fullTextTableName
        let rows = try dbPool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT document.path,
                       highlight(\(ft), 0, ?, ?) AS title,
                       snippet(\(ft), 1, ?, ?, '…', 16) AS snippet,
                       -bm25(\(ft), 10.0, 1.0) AS score
                FROM \(ft)
                JOIN document ON document.id = \(ft).rowid
                WHERE \(ft) MATCH ?
                ORDER BY score DESC, document.path
                LIMIT ?
                """, arguments: [open, close, open, close, pattern, max(limit, 0)])
        }
        return rows.map { row in
            SearchResult(
                path: row["path"],
                title: Self.singleLine(row["title"] ?? ""),
                snippet: Self.singleLine(row["snippet"] ?? ""),
                score: row["score"] ?? 0)
        }
    }

    /// The text on one line: runs of white space, newlines included, become
    /// one space.
    static func singleLine(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
