import Foundation
import Cairn

// The Swift code of Sources/Cairn/Documentation.docc/SerializedDatabases.md,
// block by block, so that it compiles and runs in the tests (ArticleTests
// checks that each block of the article is here, line after line, between
// its markers). Lines that are not in the article only wrap the blocks: a
// namespace, functions for their statements (with the `dbPool`, `dbQueue`
// and bytes that the article assumes, on a table `player (id, name,
// score)`), and what the tests read.
enum SerializedDatabasesArticle { }

// SerializedDatabases.md block 0
extension SerializedDatabasesArticle {
    static func block0(_ dbPool: DatabasePool) throws -> (bytes: Data, dbQueue: DatabaseQueue, playerCount: Int) {
        // The sender: the bytes of the database, as its file would hold them.
        let bytes = try dbPool.read { db in try db.serialize() }

        // The receiver: an in-memory database that starts from these bytes.
        let dbQueue = try DatabaseQueue(deserializing: bytes)
        let playerCount = try dbQueue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
        }
        return (bytes, dbQueue, playerCount)
    }
}
// end of SerializedDatabases.md block 0

// SerializedDatabases.md block 1
extension SerializedDatabasesArticle {
    static func block1(_ dbQueue: DatabaseQueue, archiveBytes: Data) throws -> [String] {
        var result: [String] = []
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ':memory:' AS archive")
            try db.deserialize(archiveBytes, schema: "archive", readOnly: true)
            let deletedNames = try String.fetchAll(db, sql: """
                SELECT name FROM archive.player
                EXCEPT SELECT name FROM main.player
                """)
            result = deletedNames
        }
        return result
    }
}
// end of SerializedDatabases.md block 1

// SerializedDatabases.md block 2
extension SerializedDatabasesArticle {
    /// Whether the error was caught by the article's `catch` clause.
    static func block2(_ dbQueue: DatabaseQueue, receivedBytes: Data) throws -> Bool {
        var caught = false
        do {
            try dbQueue.writeWithoutTransaction { db in
                try db.deserialize(receivedBytes)
            }
        } catch DatabaseError.SQLITE_NOTADB {
            // Not a database: dbQueue keeps its content.
            caught = true
        }
        return caught
    }
}
// end of SerializedDatabases.md block 2

// SerializedDatabases.md block 3
extension SerializedDatabasesArticle {
    static func block3(bytes: Data, databasePath: String) throws -> DatabaseQueue {
        let copy = try DatabaseQueue(deserializing: bytes)
        let fileQueue = try DatabaseQueue(path: databasePath)
        try copy.backup(to: fileQueue)
        return fileQueue
    }
}
// end of SerializedDatabases.md block 3
