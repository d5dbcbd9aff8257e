import Foundation
import Cairn

/// A temporary directory, removed when the value is released.
final class TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("CairnTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    func filePath(_ name: String = "db.sqlite") -> String {
        (path as NSString).appendingPathComponent(name)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A database queue on a file in a temporary directory. Keep the value
/// alive for as long as the queue is used.
struct TemporaryDatabase {
    let directory: TemporaryDirectory
    let dbQueue: DatabaseQueue
    var path: String { directory.filePath() }

    init(configuration: Configuration = Configuration()) throws {
        directory = try TemporaryDirectory()
        dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: configuration)
    }
}

/// The SQL of the player table of the examples.
let createPlayerTableSQL = """
    CREATE TABLE player (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        score INT)
    """
