/// An error of ``SearchIndex``, with a message for people.
public enum SearchError: Error, Equatable, CustomStringConvertible {
    /// The folder to index does not exist.
    case directoryNotFound(path: String)

    /// The path to index is not a folder.
    case notADirectory(path: String)

    /// The folder to index cannot be read.
    case unreadableDirectory(path: String)

    /// There is no database at this path (searches never create one).
    case databaseNotFound(path: String)

    /// The database cannot be opened, or is not an SQLite database.
    case cannotOpenDatabase(path: String, reason: String)

    /// The database is not an index of cairn-search.
    case notAnIndex(path: String)

    /// The database was created by a newer version of cairn-search.
    case newerIndex(path: String)

    /// The message.
    public var description: String {
        switch self {
        case .directoryNotFound(let path):
            "no such folder: \(path)"
        case .notADirectory(let path):
            "not a folder: \(path)"
        case .unreadableDirectory(let path):
            "cannot read the folder \(path)"
        case .databaseNotFound(let path):
            "no index at \(path) (create it with: cairn-search index DIR --db \(path))"
        case .cannotOpenDatabase(let path, let reason):
            "cannot open the database \(path): \(reason)"
        case .notAnIndex(let path):
            "\(path) is not a cairn-search index"
        case .newerIndex(let path):
            "\(path) was created by a newer version of cairn-search"
        }
    }
}
