import Foundation
import Cairn

// The Swift code of Sources/Cairn/Documentation.docc/DifferencesFromGRDB.md,
// block by block, so that it compiles and runs in the tests (ArticleTests
// checks that each block of the article is here, line after line, between
// its markers). Lines that are not in the article only wrap the blocks: a
// namespace, and a function for the statements, with the `db` that the
// article assumes.
enum DifferencesArticle { }

// DifferencesFromGRDB.md block 0
extension DifferencesArticle {
    static func block0(_ db: Database) throws -> (Int?, Int?) {
        // Text that spells a number reads as one; other text throws.
        let count = try Int.fetchOne(db, sql: "SELECT '42'")
        let word = try String.fetchOne(db, sql: "SELECT 'foo'").flatMap { Int($0) }
        return (count, word)
    }
}
// end of DifferencesFromGRDB.md block 0
