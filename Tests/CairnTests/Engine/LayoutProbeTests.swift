@_spi(Diagnostics) import Cairn
import Foundation
import Testing

/// The layout probes of `Sources/Cairn/Core/Raw/LayoutAssumptions.swift`
/// succeed where CI runs (x86-64 or arm64 Linux): the tests then exercise
/// the fast paths that rely on them, in debug and in release builds
/// (`.ci/run` runs the tests in both).
@Suite struct LayoutProbeTests {
    @Test func probesSucceedOnThisPlatform() {
        #expect(LayoutProbes.literalValues)
        #expect(LayoutProbes.stringBits)
        #expect(LayoutProbes.codingKeyBits)
        #expect(LayoutProbes.markerExistentials)
    }

    /// Literal arguments read in place bind the values they hold.
    @Test func literalArgumentsBindTheirValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT ?, ?, ?, ?, ?, ?", arguments: [
                1, "two", 3.5, nil, Int64(5), Data([6]),
            ]))
            #expect(row.databaseValues == [1.databaseValue, "two".databaseValue, 3.5.databaseValue, .null, 5.databaseValue, Data([6]).databaseValue])
            let named = try #require(try Row.fetchOne(db, sql: "SELECT :a, :b, :c", arguments: ["a": 1, "b": "two", "c": nil]))
            #expect(named.databaseValues == [1.databaseValue, "two".databaseValue, .null])
            // Names in another order than the parameters.
            let shuffled = try #require(try Row.fetchOne(db, sql: "SELECT :a, :b", arguments: ["b": 2, "a": 1]))
            #expect(shuffled.databaseValues == [1.databaseValue, 2.databaseValue])
        }
    }

    /// Literal arguments read in place are shared by the caller and the
    /// statement that keeps them until its next execution: arguments that
    /// the caller kept, or that `statement.arguments` returned, keep their
    /// values when the statement runs again with others (trivial values,
    /// strings, blobs and database values alike).
    @Test func keptLiteralArgumentsKeepTheirValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a, b, c, d)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?, ?, ?)")
            let text = String(repeating: "long text, not a small string ", count: 4)
            let kept: StatementArguments = [1, text, 2.5, nil]
            let other: StatementArguments = [Int64(2), Data([1, 2, 3]), true, DatabaseValue.null]
            // The same arguments twice, then alternating with others.
            try statement.execute(arguments: kept)
            try statement.execute(arguments: kept)
            try statement.execute(arguments: other)
            try statement.execute(arguments: kept)
            let fromStatement = statement.arguments
            try statement.execute(arguments: other)
            // Literals given once, released by the next execution.
            for index in 0..<3 {
                try statement.execute(arguments: [index, "\(text) \(index)", Double(index), Data([UInt8(index)])])
            }
            try statement.execute(arguments: [5, 6, 7, 8])
            #expect(kept == [1, text, 2.5, nil])
            #expect(other == [Int64(2), Data([1, 2, 3]), true, DatabaseValue.null])
            #expect(fromStatement == kept)
            #expect(statement.arguments == [5, 6, 7, 8])
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
            #expect(count == 9)
            let texts = try String.fetchAll(db, sql: "SELECT b FROM t WHERE typeof(b) = 'text' ORDER BY rowid")
            #expect(texts == [text, text, text, text + " 0", text + " 1", text + " 2"])
        }
    }

    /// Named literal arguments of a statement executed in a loop: each
    /// execution binds its own values, and kept arguments stay intact.
    @Test func namedLiteralArgumentsInALoop() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (:a, :b)")
            let kept: StatementArguments = ["a": "kept", "b": 0]
            for index in 1...3 {
                try statement.execute(arguments: ["a": "row \(index)", "b": index])
                try statement.execute(arguments: kept)
            }
            try statement.execute(arguments: ["b": 4, "a": nil])
            #expect(kept == ["a": "kept", "b": 0])
            let names = try String?.fetchAll(db, sql: "SELECT a FROM t ORDER BY rowid")
            let numbers = try Int.fetchAll(db, sql: "SELECT b FROM t ORDER BY rowid")
            let expectedNames: [String?] = ["row 1", "kept", "row 2", "kept", "row 3", "kept", nil]
            #expect(names == expectedNames)
            #expect(numbers == [1, 0, 2, 0, 3, 0, 4])
        }
    }
}
