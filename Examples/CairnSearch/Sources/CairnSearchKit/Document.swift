import Cairn
import Foundation

/// An indexed file: a row of the `document` table.
///
/// The full-text table `document_ft` indexes the `title` and `body` columns,
/// and triggers keep it in sync with this table: inserting, updating or
/// deleting a document is all it takes to update the index.
public struct Document: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    /// `document`.
    public static let databaseTableName = "document"

    /// The row id; nil until the document is inserted.
    public var id: Int64?

    /// The absolute path of the file.
    public var path: String

    /// The title: the first `# ` heading of a Markdown file, else the file
    /// name (see ``title(fileName:contents:)``).
    public var title: String

    /// The text of the file.
    public var body: String

    /// The modification date of the file, to the millisecond (the precision
    /// of dates in the database).
    public var modified: Date

    /// The size of the file, in bytes.
    public var size: Int64

    /// Creates a document.
    ///
    /// - Parameters:
    ///   - id: The row id; nil for a new document.
    ///   - path: The absolute path of the file.
    ///   - title: The title.
    ///   - body: The text of the file.
    ///   - modified: The modification date of the file.
    ///   - size: The size of the file, in bytes.
    public init(id: Int64? = nil, path: String, title: String, body: String, modified: Date, size: Int64) {
        self.id = id
        self.path = path
        self.title = title
        self.body = body
        self.modified = modified
        self.size = size
    }

    /// The columns of the `document` table.
    public enum Columns {
        /// `id`, the primary key.
        public static let id = Column(CodingKeys.id)
        /// `path`, unique.
        public static let path = Column(CodingKeys.path)
        /// `title`.
        public static let title = Column(CodingKeys.title)
        /// `body`.
        public static let body = Column(CodingKeys.body)
        /// `modified`.
        public static let modified = Column(CodingKeys.modified)
        /// `size`.
        public static let size = Column(CodingKeys.size)
    }

    /// The file extensions that are indexed, lowercased: `txt`, `md` and
    /// `markdown` (compared without case: `NOTES.MD` is indexed too).
    public static let indexedExtensions: Set<String> = ["txt", "md", "markdown"]

    /// The extensions of Markdown files, whose title is their first heading.
    static let markdownExtensions: Set<String> = ["md", "markdown"]

    /// The title of a file: for a Markdown file, the text of its first
    /// level-1 ATX heading (`# Title`, outside fenced code blocks); for
    /// other files, or when there is no such heading, the file name.
    ///
    /// ```swift
    /// Document.title(fileName: "intro.md", contents: "# Getting started\n…") // "Getting started"
    /// Document.title(fileName: "notes.txt", contents: "# Not a title")       // "notes.txt"
    /// ```
    ///
    /// - Parameters:
    ///   - fileName: The name of the file, with its extension.
    ///   - contents: The text of the file.
    public static func title(fileName: String, contents: String) -> String {
        let fileExtension = (fileName as NSString).pathExtension.lowercased()
        guard markdownExtensions.contains(fileExtension) else { return fileName }
        var fence: String?
        for line in contents.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            // Up to three spaces of indentation, as in CommonMark.
            let indentation = line.prefix { $0 == " " }.count
            guard indentation <= 3 else { continue }
            let text = line.dropFirst(indentation)
            if let currentFence = fence {
                if text.hasPrefix(currentFence) { fence = nil }
                continue
            }
            if text.hasPrefix("```") || text.hasPrefix("~~~") {
                fence = String(text.prefix(3))
                continue
            }
            guard text.hasPrefix("#"), let separator = text.dropFirst().first, separator == " " || separator == "\t" else {
                continue
            }
            var heading = text.dropFirst(2).trimmingCharacters(in: .whitespaces)
            // An optional closing sequence: "# Title ##".
            if let closing = heading.range(of: #"(^|\s)#+$"#, options: .regularExpression) {
                heading = heading[..<closing.lowerBound].trimmingCharacters(in: .whitespaces)
            }
            if !heading.isEmpty {
                return heading
            }
        }
        return fileName
    }
}
