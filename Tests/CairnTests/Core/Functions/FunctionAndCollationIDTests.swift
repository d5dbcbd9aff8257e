import Foundation
import Testing
import Cairn

@Suite struct FunctionAndCollationIDTests {
    @Test func functionsAreIdentifiedByNameAndArgumentCount() throws {
        let f1 = DatabaseFunction("succ", argumentCount: 1) { _ in 1 }
        let f2 = DatabaseFunction("SUCC", argumentCount: 1) { _ in 2 }
        let f3 = DatabaseFunction("succ", argumentCount: 2) { _ in 3 }
        let f4 = DatabaseFunction("succ") { _ in 4 }
        #expect(f1.id == f2.id)
        #expect(f1.id != f3.id)
        #expect(f1.id != f4.id)
        #expect(Set([f1.id, f2.id, f3.id, f4.id]).count == 3)
        // The identity is SQLite's: the function added last wins.
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            db.add(function: f1)
            db.add(function: f2)
            #expect(try Int.fetchOne(db, sql: "SELECT succ(0)") == 2)
        }
        let byID = Dictionary(grouping: [f1, f2, f3], by: \.id)
        #expect(byID.count == 2)
    }

    @Test func collationsAreIdentifiedByName() {
        let c1 = DatabaseCollation("byLength") { _, _ in .orderedSame }
        let c2 = DatabaseCollation("BYLENGTH") { _, _ in .orderedAscending }
        #expect(c1.id == c2.id)
        #expect(c1.id != DatabaseCollation.localizedCompare.id)
        #expect(Set([c1.id, c2.id, DatabaseCollation.unicodeCompare.id]).count == 2)
    }
}
