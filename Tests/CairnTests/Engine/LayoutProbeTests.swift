@_spi(Diagnostics) import Cairn
import Foundation
import Testing

/// The layout probes of `Sources/Cairn/Core/Raw/LayoutAssumptions.swift`
/// succeed where CI runs (x86-64 or arm64 Linux): the tests then exercise
/// the fast paths that rely on them, in debug and in release builds
/// (`.ci/run` runs the tests in both).
@Suite struct LayoutProbeTests {
    @Test func probesSucceedOnThisPlatform() {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
        #expect(LayoutProbes.threadPointer)
        #endif
        #expect(LayoutProbes.literalValues)
        #expect(LayoutProbes.stringBits)
        #expect(LayoutProbes.codingKeyBits)
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
}
