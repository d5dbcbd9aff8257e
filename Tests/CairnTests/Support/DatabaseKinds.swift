import Foundation
import Cairn

/// The writers that storage-sensitive tests run against.
enum WriterKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case queue, pool

    var description: String { rawValue }

    func make(path: String, configuration: Configuration = Configuration()) throws -> any DatabaseWriter {
        switch self {
        case .queue: return try DatabaseQueue(path: path, configuration: configuration)
        case .pool: return try DatabasePool(path: path, configuration: configuration)
        }
    }
}

/// The readers that storage-sensitive tests run against: each sees the
/// database after `setup` ran.
enum ReaderKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case queue, pool, snapshot, snapshotPool

    var description: String { rawValue }

    /// Returns a reader on a new database file prepared by `setup`, and
    /// the writer of that file.
    func make(
        in directory: TemporaryDirectory,
        setup: (Database) throws -> Void) throws -> (reader: any DatabaseReader, writer: any DatabaseWriter)
    {
        let path = directory.filePath()
        switch self {
        case .queue:
            let dbQueue = try DatabaseQueue(path: path)
            try dbQueue.write(setup)
            return (dbQueue, dbQueue)
        case .pool:
            let dbPool = try DatabasePool(path: path)
            try dbPool.write(setup)
            return (dbPool, dbPool)
        case .snapshot:
            let dbPool = try DatabasePool(path: path)
            try dbPool.write(setup)
            return (try dbPool.makeSnapshot(), dbPool)
        case .snapshotPool:
            let dbPool = try DatabasePool(path: path)
            try dbPool.write(setup)
            return (try dbPool.makeSnapshotPool(), dbPool)
        }
    }
}
