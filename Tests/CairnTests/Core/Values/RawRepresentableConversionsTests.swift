import Foundation
import Testing
import Cairn

/// A wrapper that gets each ability of its raw value by declaring the
/// conformance only.
private struct Wrapped<RawValue>: RawRepresentable {
    var rawValue: RawValue
}

extension Wrapped: SQLExpressible where RawValue: SQLExpressible { }
extension Wrapped: StatementBinding where RawValue: StatementBinding { }
extension Wrapped: DatabaseValueConvertible where RawValue: DatabaseValueConvertible { }
extension Wrapped: StatementColumnConvertible where RawValue: StatementColumnConvertible { }
extension Wrapped: SQLSelectable where RawValue: SQLSelectable { }
extension Wrapped: SQLOrderingTerm where RawValue: SQLOrderingTerm { }
extension Wrapped: SQLSpecificExpressible where RawValue: SQLSpecificExpressible { }

private enum Grape: String, DatabaseValueConvertible, StatementColumnConvertible {
    case chardonnay, merlot
}

/// Raw representable types: values, column reads, expressions.
@Suite struct RawRepresentableConversionsTests {
    @Test func wrappersOfValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (value INTEGER)")
            try db.execute(sql: "INSERT INTO t VALUES (?), (?), (NULL)", arguments: [Wrapped(rawValue: 2), Wrapped(rawValue: 1)])
            // Cursor (direct column reads) and arrays.
            let values = try Array(Wrapped<Int>.fetchCursor(db, sql: "SELECT value FROM t WHERE value IS NOT NULL ORDER BY value"))
            #expect(values.map(\.rawValue) == [1, 2])
            let optionals = try Wrapped<Int>?.fetchAll(db, sql: "SELECT value FROM t ORDER BY value")
            #expect(optionals.map { $0?.rawValue } == [nil, 1, 2])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT value FROM t WHERE value = 2"))
            let fromRow: Wrapped<Int> = row[0]
            #expect(fromRow.rawValue == 2)
        }
    }

    @Test func wrappersOfExpressions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            let a = Wrapped(rawValue: Column("a"))
            let request = Table("t").select(a).filter(a == 1).order(a)
            let sql = try request.makePreparedRequest(db, forSingleResult: false).statement.sql
            #expect(sql == #"SELECT "a" FROM "t" WHERE "a" = ? ORDER BY "a""#)
            // An expression wrapped in a value conversion keeps rendering
            // as an argument.
            let value = Wrapped(rawValue: 42)
            let literal: SQL = "SELECT \(value)"
            #expect(try literal.build(db).arguments == [42])
        }
    }

    @Test func rawRepresentableEnums() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            let grapes = try Array(Grape.fetchCursor(db, sql: "SELECT 'merlot' UNION ALL SELECT 'chardonnay'"))
            #expect(grapes == [.merlot, .chardonnay])
            #expect(throws: RowDecodingError.self) {
                _ = try Grape.fetchAll(db, sql: "SELECT 'syrah'")
            }
        }
    }
}
