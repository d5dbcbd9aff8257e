import Foundation
import Testing
import Cairn

/// Statement arguments combine, describe themselves, and fit statements as
/// in GRDB 7.8.
@Suite struct GRDBCodingArgumentsTests {
    @Test func positionalAndNamedArgumentsMix() throws {
        try DatabaseQueue().read { db throws in
            let row = try #require(try Row.fetchOne(
                db, sql: "SELECT ?2 AS two, :word AS word, ?1 AS one, :word AS again, :rest AS rest",
                arguments: [10, 20, "end"] + ["word": "w"]))
            #expect(row == ["two": 20, "word": "w", "one": 10, "again": "w", "rest": "end"])
        }
    }

    @Test func appendingReturnsTheReplacedNamedValues() throws {
        var positional: StatementArguments = [1, 2]
        #expect(positional.append(contentsOf: [3]).isEmpty)
        #expect(positional.description == "[1, 2, 3]")

        var named: StatementArguments = ["a": "x", "b": "y"]
        #expect(named.append(contentsOf: ["a": "z", "c": nil]) == ["a": "x".databaseValue])
        #expect(named.description == #"["a": "z", "b": "y", "c": NULL]"#)

        let merged: StatementArguments = ["a": 1, "b": 2] &+ ["b": 3]
        #expect(merged == ["a": 1, "b": 3])
    }

    @Test func argumentsThatDoNotFit() throws {
        try DatabaseQueue().inDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            let positional = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?)")
            try positional.validateArguments([1, 2])
            let tooFew = try #require(throws: DatabaseError.self) { try positional.validateArguments([1]) }
            #expect(tooFew.resultCode == .SQLITE_MISUSE)
            #expect(tooFew.message == "wrong number of statement arguments: 1")
            #expect(throws: DatabaseError.self) { try positional.validateArguments([1, 2, 3]) }
            #expect(throws: DatabaseError.self) { try positional.validateArguments(["a": 1, "b": 2]) }

            let named = try db.makeStatement(sql: "INSERT INTO t VALUES (:a, :b)")
            try named.validateArguments(["a": 1, "b": 2, "extra": 3])
            try named.validateArguments([1, 2])
            let missing = try #require(throws: DatabaseError.self) { try named.validateArguments(["a": 1]) }
            #expect(missing.resultCode == .SQLITE_MISUSE)
            #expect(missing.message == "missing statement argument: b")
        }
    }
}
