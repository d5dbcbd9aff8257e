import Cairn
import Foundation

/// What ``SearchIndex/index(directory:progress:)`` did.
public struct IndexSummary: Equatable, Sendable, CustomStringConvertible {
    /// The absolute path of the indexed folder.
    public var directory: String

    /// The paths of the new files, sorted.
    public var added: [String] = []

    /// The paths of the files whose modification date or size changed,
    /// indexed again, sorted.
    public var updated: [String] = []

    /// The paths of the files that disappeared, removed from the index,
    /// sorted.
    public var removed: [String] = []

    /// The number of files that did not change, and were not read.
    public var unchanged = 0

    /// The files that could not be read, with the reason, sorted by path.
    /// An unreadable file that was indexed before keeps its previous text.
    public var skipped: [Skipped] = []

    /// A file that could not be read.
    public struct Skipped: Equatable, Sendable {
        /// The path of the file.
        public var path: String
        /// Why it could not be read.
        public var reason: String
    }

    /// Creates an empty summary of the indexing of a folder.
    ///
    /// - Parameter directory: The absolute path of the folder.
    public init(directory: String) {
        self.directory = directory
    }

    /// `3 added, 1 updated, 0 removed, 12 unchanged`, then
    /// `, 1 skipped` when files could not be read.
    public var description: String {
        var text = "\(added.count) added, \(updated.count) updated, \(removed.count) removed, \(unchanged) unchanged"
        if !skipped.isEmpty {
            text += ", \(skipped.count) skipped"
        }
        return text
    }
}

/// The progress of an indexing, given to the progress function of
/// ``SearchIndex/index(directory:progress:)`` after each file.
public struct IndexProgress: Equatable, Sendable {
    /// The number of files processed so far, from 1 to ``total``.
    public var completed: Int

    /// The number of files to process.
    public var total: Int

    /// The path of the file that was just processed.
    public var path: String

    /// Creates a progress report.
    ///
    /// - Parameters:
    ///   - completed: The number of files processed so far.
    ///   - total: The number of files to process.
    ///   - path: The path of the file that was just processed.
    public init(completed: Int, total: Int, path: String) {
        self.completed = completed
        self.total = total
        self.path = path
    }
}

extension SearchIndex {
    /// Indexes the `.txt`, `.md` and `.markdown` files of a folder and of
    /// its subfolders, and returns what changed.
    ///
    /// The first indexing of a folder reads all its files. The next ones
    /// only read the files whose modification date or size changed, add
    /// the new files, and remove the files that disappeared from the
    /// folder. Files and folders whose name starts with a dot are ignored,
    /// and symbolic links are not followed. Files are read as UTF-8, or as
    /// Latin-1 when they are not valid UTF-8.
    ///
    /// All changes are written in one transaction: searches see the index
    /// before or after, never halfway.
    ///
    /// - Parameters:
    ///   - directory: The folder, absolute or relative to the current
    ///     directory.
    ///   - progress: A function called after each file.
    /// - Throws: A ``SearchError`` when the folder does not exist or cannot
    ///   be read, or a ``DatabaseError``.
    @discardableResult
    public func index(directory: String, progress: ((IndexProgress) -> Void)? = nil) throws -> IndexSummary {
        let root = try Self.checkedDirectory(directory)
        let files = try Self.scan(root: root)
        var summary = IndexSummary(directory: root)
        let prefix = root.hasSuffix("/") ? root : root + "/"

        try dbPool.write { db in
            // The documents of this folder: paths from "root/" (included)
            // to "root0" (excluded), since "0" follows "/". This range uses
            // the unique index on path, and leaves other folders alone.
            let existing = try Document
                .select(Document.Columns.id, Document.Columns.path, Document.Columns.modified, Document.Columns.size)
                .filter(Document.Columns.path >= prefix && Document.Columns.path < String(prefix.dropLast()) + "0")
                .asRequest(of: DocumentStamp.self)
                .fetchAll(db)
            var stamps = Dictionary(existing.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })

            for (offset, file) in files.enumerated() {
                defer { progress?(IndexProgress(completed: offset + 1, total: files.count, path: file.path)) }
                let stamp = stamps.removeValue(forKey: file.path)
                if let stamp, stamp.size == file.size, Self.milliseconds(stamp.modified) == Self.milliseconds(file.modified) {
                    summary.unchanged += 1
                    continue
                }
                let body: String
                do {
                    body = try Self.readText(atPath: file.path)
                } catch {
                    summary.skipped.append(.init(path: file.path, reason: Self.reason(error)))
                    continue
                }
                let document = Document(
                    id: stamp?.id,
                    path: file.path,
                    title: Document.title(fileName: (file.path as NSString).lastPathComponent, contents: body),
                    body: body,
                    modified: file.modified,
                    size: file.size)
                if stamp == nil {
                    try document.insert(db)
                    summary.added.append(file.path)
                } else {
                    try document.update(db)
                    summary.updated.append(file.path)
                }
            }

            // What is left was not found in the folder.
            let gone = stamps.values.sorted { $0.path < $1.path }
            // By chunks: SQLite limits the number of arguments of a
            // statement (32,766), and deleteAll(_:keys:) binds one per key.
            var ids = gone.map(\.id)[...]
            while !ids.isEmpty {
                try Document.deleteAll(db, keys: ids.prefix(500))
                ids = ids.dropFirst(500)
            }
            summary.removed = gone.map(\.path)
        }
        return summary
    }

    /// The id, path, modification date and size of an indexed document:
    /// what tells whether a file changed, without reading the text.
    private struct DocumentStamp: Decodable, FetchableRecord {
        var id: Int64
        var path: String
        var modified: Date
        var size: Int64
    }

    /// A file to index.
    private struct ScannedFile {
        var path: String
        var modified: Date
        var size: Int64
    }

    /// The absolute path of a folder to index.
    ///
    /// - Throws: A ``SearchError`` when it does not exist, is not a folder,
    ///   or cannot be read.
    static func checkedDirectory(_ directory: String) throws -> String {
        let root = URL(fileURLWithPath: directory).standardizedFileURL.path
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: root, isDirectory: &isDirectory) else {
            throw SearchError.directoryNotFound(path: root)
        }
        guard isDirectory.boolValue else {
            throw SearchError.notADirectory(path: root)
        }
        guard fileManager.isReadableFile(atPath: root), fileManager.isExecutableFile(atPath: root) else {
            throw SearchError.unreadableDirectory(path: root)
        }
        return root
    }

    /// The files to index in a folder, sorted by path.
    private static func scan(root: String) throws -> [ScannedFile] {
        let fileManager = FileManager.default
        guard let enumerator = fileManager.enumerator(atPath: root) else {
            throw SearchError.unreadableDirectory(path: root)
        }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        var files: [ScannedFile] = []
        while let relativePath = enumerator.nextObject() as? String {
            let name = (relativePath as NSString).lastPathComponent
            let path = prefix + relativePath
            guard let attributes = try? fileManager.attributesOfItem(atPath: path) else { continue }
            let type = attributes[.type] as? FileAttributeType
            if name.hasPrefix(".") {
                if type == .typeDirectory { enumerator.skipDescendants() }
                continue
            }
            guard type == .typeRegular,
                  Document.indexedExtensions.contains((name as NSString).pathExtension.lowercased()),
                  let modified = attributes[.modificationDate] as? Date,
                  let size = (attributes[.size] as? NSNumber)?.int64Value
            else { continue }
            files.append(ScannedFile(path: path, modified: modified, size: size))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// A date as the number of milliseconds since 1970, the precision of
    /// dates stored in the database.
    private static func milliseconds(_ date: Date) -> Int64 {
        Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded()) ?? 0
    }

    /// The text of a file: UTF-8 (without byte order mark), else Latin-1.
    private static func readText(atPath path: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let text = String(data: data, encoding: .utf8)
            ?? String(data: data, encoding: .isoLatin1)
            ?? String(decoding: data, as: UTF8.self)
        if text.unicodeScalars.first == "\u{FEFF}" {
            return String(text.unicodeScalars.dropFirst())
        }
        return text
    }

    /// A short reason for an error of the file system.
    private static func reason(_ error: any Error) -> String {
        if let error = error as? CocoaError, let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.localizedDescription
        }
        return error.localizedDescription
    }
}
