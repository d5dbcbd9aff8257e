import Foundation
import Cairn

// The Swift code of Sources/Cairn/Documentation.docc/Cairn.md, block by
// block, so that it compiles and runs in the tests (ArticleTests checks that
// each block of the article is here, line after line, between its markers).
// Lines that are not in the article only wrap the blocks: a namespace for
// its types, functions for its statements, and the use of values the
// article leaves unused. The article's "/path/to/database.sqlite" is
// `databasePath` here.
enum CairnArticle { }

// Cairn.md block 0
extension CairnArticle {
    static func block0(databasePath: String) throws -> [String] {
        let dbQueue = try DatabaseQueue(path: databasePath)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
        }
        let names = try dbQueue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM player")
        }
        return names
    }
}
// end of Cairn.md block 0
