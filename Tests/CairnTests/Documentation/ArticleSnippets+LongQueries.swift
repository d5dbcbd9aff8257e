import Foundation
import Cairn

// The Swift code of Sources/Cairn/Documentation.docc/LongQueries.md, block
// by block, so that it compiles and runs in the tests (ArticleTests checks
// that each block of the article is here, line after line, between its
// markers). Lines that are not in the article only wrap the blocks: a
// namespace, functions for their statements (with the `dbQueue` that the
// article assumes, on tables `message (id, body, exported)` and
// `exportLog (date)`, and the values that it names: `userSQL`,
// `statisticsSQL`, `searchIsCancelled`, `pattern`), and what the tests
// read.
enum LongQueriesArticle { }

// LongQueries.md block 0
extension LongQueriesArticle {
    /// The number of rows, or nil when the article's `catch` clause caught
    /// the error.
    static func block0(_ dbQueue: DatabaseQueue, userSQL: String) throws -> Int? {
        var result: Int?
        do {
            let rows = try dbQueue.read { db in
                try db.withTimeLimit(1) {
                    try Row.fetchAll(db, sql: userSQL)
                }
            }
            print("\(rows.count) rows")
            result = rows.count
        } catch DatabaseError.SQLITE_INTERRUPT {
            print("The query ran for more than a second: it was stopped.")
            result = nil
        }
        return result
    }
}
// end of LongQueries.md block 0

// LongQueries.md block 1
extension LongQueriesArticle {
    static func block1(_ dbQueue: DatabaseQueue, statisticsSQL: String) throws -> [Row] {
        var statistics: [Row] = []
        try dbQueue.write { db in
            try db.execute(sql: "UPDATE message SET exported = 1")
            do {
                statistics = try db.withTimeLimit(0.5) {
                    try Row.fetchAll(db, sql: statisticsSQL)
                }
            } catch DatabaseError.SQLITE_INTERRUPT {
                // Too slow: export without statistics. The transaction goes on.
            }
            try db.execute(sql: "INSERT INTO exportLog (date) VALUES (CURRENT_TIMESTAMP)")
        }
        return statistics
    }
}
// end of LongQueries.md block 1

// LongQueries.md block 2
extension LongQueriesArticle {
    struct SearchCancelled: Error { }

    static func block2(
        _ dbQueue: DatabaseQueue,
        pattern: String,
        searchIsCancelled: @escaping () -> Bool) throws -> [Row]
    {
        let rows = try dbQueue.read { db in
            db.setProgressHandler(instructions: 10_000) {
                if searchIsCancelled() { throw SearchCancelled() }
            }
            defer { db.setProgressHandler(nil) }
            return try Row.fetchAll(db, sql: "SELECT * FROM message WHERE body LIKE ?", arguments: [pattern])
        }
        return rows
    }
}
// end of LongQueries.md block 2
