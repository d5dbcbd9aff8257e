import Foundation
import Cairn

// The Swift code of Sources/Cairn/Documentation.docc/CustomSQLiteBuilds.md,
// block by block, so that it compiles and runs in the tests (ArticleTests
// checks that each block of the article is here, line after line, between
// its markers). Lines that are not in the article only wrap the blocks: a
// namespace, functions for its statements (with the `dbQueue` and
// `replicaQueue` that the article assumes), and the use of values the
// article leaves unused. Block 2 is a `Package.swift`.
enum CustomSQLiteBuildsArticle { }

// CustomSQLiteBuilds.md block 0
extension CustomSQLiteBuildsArticle {
    static func block0() -> (version: String, hasFTS5: Bool) {
        let version = String(cString: sqlite3_libversion())          // "3.50.4"
        let hasFTS5 = sqlite3_compileoption_used("ENABLE_FTS5") != 0  // true
        return (version, hasFTS5)
    }
}
// end of CustomSQLiteBuilds.md block 0

// CustomSQLiteBuilds.md block 1
#if SQLITE_ENABLE_SESSION
extension CustomSQLiteBuildsArticle {
    static func block1(_ dbQueue: DatabaseQueue, replicaQueue: DatabaseQueue) throws {
        let changeset = try dbQueue.write { db in
            let session = try DatabaseSession(db)
            try session.attach("player")
            try db.execute(sql: "UPDATE player SET score = score + 10")
            return try session.changeset()
        }
        try replicaQueue.write { db in
            try db.apply(changeset) { conflict in
                conflict.kind == .notFound ? .omit : .replace
            }
        }
    }
}
#endif
// end of CustomSQLiteBuilds.md block 1

// CustomSQLiteBuilds.md block 3
extension CustomSQLiteBuildsArticle {
    static func block3DBStat(_ dbQueue: DatabaseQueue) throws -> [Row] {
        // With SQLITE_ENABLE_DBSTAT_VTAB: the size of each table and index.
        let rows = try dbQueue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT name, SUM(pgsize) AS size FROM dbstat GROUP BY name ORDER BY size DESC
                """)
        }
        return rows
    }

    static func block3Analyze(_ dbQueue: DatabaseQueue) throws {
        // With SQLITE_ENABLE_STAT4: ANALYZE also fills the sqlite_stat4 table.
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "ANALYZE")
        }
    }
}
// end of CustomSQLiteBuilds.md block 3

// CustomSQLiteBuilds.md block 4
extension CustomSQLiteBuildsArticle {
    static func block4() -> Bool {
        let hasDBStat = sqlite3_compileoption_used("ENABLE_DBSTAT_VTAB") != 0
        return hasDBStat
    }
}
// end of CustomSQLiteBuilds.md block 4
