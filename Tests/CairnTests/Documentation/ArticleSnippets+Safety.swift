import Foundation
import Cairn

// The Swift code of Sources/Cairn/Documentation.docc/Safety.md, block by
// block, so that it compiles and runs in the tests (ArticleTests checks that
// each block of the article is here, line after line, between its markers).
// Lines that are not in the article only wrap the blocks: a namespace for
// its types, functions for its statements (with the `dbQueue` that the
// article assumes, on a table `player (id, name, score)`), and what the
// tests read (the branch that caught an error, the caught error).
enum SafetyArticle { }

// Safety.md block 0
extension SafetyArticle {
    static func block0(_ dbQueue: DatabaseQueue) throws -> [Row] {
        var kept: [Row] = []
        try dbQueue.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM player")
            while let row = try rows.next() {
                let name: String = row["name"]   // fine: inside the access
                kept.append(row.copy())          // keep a copy, not the row itself
                print(name)
            }
        }
        return kept
    }
}
// end of Safety.md block 0

// Safety.md block 1
extension SafetyArticle {
    static func block1(_ dbQueue: DatabaseQueue) async throws -> [Row] {
        func allPlayerRows(in dbQueue: DatabaseQueue) async throws -> [Row] {
            try await dbQueue.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM player")   // copied rows
            }
        }
        return try await allPlayerRows(in: dbQueue)
    }
}
// end of Safety.md block 1

// Safety.md block 2
extension SafetyArticle {
    /// The branch that caught the error: "misuse" or "constraint"; nil when
    /// nothing was thrown.
    static func block2(_ dbQueue: DatabaseQueue) throws -> String? {
        var caught: String?
        do {
            try dbQueue.write { db in
                // One placeholder, no argument:
                try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: [])
            }
        } catch DatabaseError.SQLITE_MISUSE {
            // The statement did not run.
            caught = "misuse"
        } catch DatabaseError.SQLITE_CONSTRAINT {
            // Any constraint violation.
            caught = "constraint"
        }
        return caught
    }
}
// end of Safety.md block 2

// Safety.md block 3
extension SafetyArticle {
    /// Throws the error of the article's second `decode`, after it gave the
    /// result of the first one to `decodedName`.
    static func block3(_ dbQueue: DatabaseQueue, decodedName: inout String??) throws {
        try dbQueue.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT NULL AS name")!
            let name = try row.decode(String?.self, forColumn: "name")     // nil
            decodedName = name
            let other = try row.decode(String.self, forColumn: "name")     // throws RowDecodingError
            _ = other
            // let crash: String = row["name"]                             // stops the program
        }
    }
}
// end of Safety.md block 3

// Safety.md block 4
extension SafetyArticle {
    struct MissingName: Error { }

    static func block4(_ dbQueue: DatabaseQueue) throws -> DatabaseError? {
        var caught: DatabaseError?
        try dbQueue.write { db in
            db.add(function: DatabaseFunction("nameLength", argumentCount: 1) { values in
                guard let name = String.fromDatabaseValue(values[0]) else { throw MissingName() }
                return name.count
            })
            do {
                _ = try Int.fetchOne(db, sql: "SELECT nameLength(NULL)")
            } catch let error as DatabaseError {
                print(error.resultCode)    // 1 (SQL logic error): SQLITE_ERROR
                print(error.message ?? "") // the description of MissingName
                caught = error
            }
        }
        return caught
    }
}
// end of Safety.md block 4
