import Foundation
import Testing
import Cairn

/// SQL functions, aggregates and collations behave as in GRDB 7.8: results,
/// the errors that a Swift function throws (code, message), the errors of
/// SQLite about them, and the order of the built-in collations.
@Suite struct GRDBFunctionTests {
    struct Oops: Error, CustomStringConvertible {
        var description: String { "Oops(reason: flat tyre)" }
    }

    /// The error of `sql`, run in a queue where `function` is registered.
    func error(of sql: String, with function: DatabaseFunction) throws -> DatabaseError? {
        try DatabaseQueue().inDatabase { db throws in
            db.add(function: function)
            do {
                try db.execute(sql: sql)
                return nil
            } catch let error as DatabaseError {
                return error
            }
        }
    }

    // MARK: Scalar functions

    @Test func errorsOfScalarFunctions() throws {
        let described = try #require(try error(of: "SELECT boom()", with: DatabaseFunction("boom") { _ in throw Oops() }))
        #expect(described.resultCode == .SQLITE_ERROR)
        #expect(described.message == "Oops(reason: flat tyre)")
        #expect(described.sql == "SELECT boom()")

        let messageOnly = try #require(try error(
            of: "SELECT boom()",
            with: DatabaseFunction("boom") { _ in throw DatabaseError(message: "no fuel") }))
        #expect(messageOnly.resultCode == .SQLITE_ERROR)
        #expect(messageOnly.message == "no fuel")

        // A code without message: SQLite's text of the code.
        let codeOnly = try #require(try error(
            of: "SELECT boom()",
            with: DatabaseFunction("boom") { _ in throw DatabaseError(resultCode: ResultCode(rawValue: 123)) }))
        #expect(codeOnly.resultCode.rawValue == 123)
        #expect(codeOnly.message == "unknown error")

        let constraint = try #require(try error(
            of: "SELECT boom()",
            with: DatabaseFunction("boom") { _ in throw DatabaseError(resultCode: .SQLITE_CONSTRAINT) }))
        #expect(constraint.resultCode == .SQLITE_CONSTRAINT)
        #expect(constraint.message == "constraint failed")

        let both = try #require(try error(
            of: "SELECT boom()",
            with: DatabaseFunction("boom") { _ in
                throw DatabaseError(resultCode: ResultCode(rawValue: 123), message: "engine stalled")
            }))
        #expect(both.resultCode.rawValue == 123)
        #expect(both.message == "engine stalled")
    }

    @Test func wrongNumberOfArguments() throws {
        let none = DatabaseFunction("pick", argumentCount: 0) { _ in 1 }
        let error = try #require(try error(of: "SELECT pick(1)", with: none))
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.message == "wrong number of arguments to function pick()")
        #expect(error.description == "SQLite error 1: wrong number of arguments to function pick() - while executing `SELECT pick(1)`")

        let two = DatabaseFunction("pick", argumentCount: 2) { _ in 1 }
        #expect(try self.error(of: "SELECT pick(1)", with: two)?.message == "wrong number of arguments to function pick()")
    }

    @Test func argumentsAndResults() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            db.add(function: DatabaseFunction("count_args") { $0.count })
            db.add(function: DatabaseFunction("no_value", argumentCount: 0) { _ in nil })
            db.add(function: DatabaseFunction("kind", argumentCount: 1) { values in
                switch values[0].storage {
                case .null: "null"
                case .int64: "int"
                case .double: "double"
                case .string: "string"
                case .blob: "blob"
                }
            })
            db.add(function: DatabaseFunction("shout", argumentCount: 1) { values in
                String.fromDatabaseValue(values[0]).map { $0.uppercased() }
            })
            #expect(try Int.fetchAll(db, sql: "SELECT count_args() UNION ALL SELECT count_args(1, 2, 3)") == [0, 3])
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT no_value()") == .null)
            #expect(try String.fetchAll(db, sql: "SELECT kind(NULL) UNION ALL SELECT kind(1) UNION ALL SELECT kind(1.5) UNION ALL SELECT kind('x') UNION ALL SELECT kind(x'00')")
                == ["null", "int", "double", "string", "blob"])
            #expect(try String.fetchOne(db, sql: "SELECT kind(?)", arguments: [Data()]) == "blob")
            #expect(try String.fetchOne(db, sql: "SELECT shout(?)", arguments: ["Noël"]) == "NOËL")
            #expect(try String.fetchOne(db, sql: "SELECT shout(NULL)") == nil)
        }
    }

    @Test func builtInStringFunctions() throws {
        try DatabaseQueue().inDatabase { db throws in
            func call(_ function: DatabaseFunction) throws -> String? {
                try String.fetchOne(db, sql: "SELECT \(function.name)('éLOÏSE dUPONT')")
            }
            #expect(try call(.capitalize) == "Éloïse Dupont")
            #expect(try call(.lowercase) == "éloïse dupont")
            #expect(try call(.uppercase) == "ÉLOÏSE DUPONT")
            #expect(try call(.localizedCapitalize) == "Éloïse Dupont")
            #expect(try call(.localizedLowercase) == "éloïse dupont")
            #expect(try call(.localizedUppercase) == "ÉLOÏSE DUPONT")
            #expect(try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.uppercase.name)(NULL)") == nil)
        }
    }

    // MARK: Aggregates

    struct Failing: DatabaseAggregate {
        nonisolated(unsafe) static var stepError: (any Error)?
        nonisolated(unsafe) static var finalError: (any Error)?
        init() { }
        func step(_ values: [DatabaseValue]) throws {
            if let error = Self.stepError { throw error }
        }
        func finalize() throws -> (any DatabaseValueConvertible)? {
            if let error = Self.finalError { throw error }
            return 0
        }
    }

    struct Total: DatabaseAggregate {
        var total: Int?
        init() { }
        mutating func step(_ values: [DatabaseValue]) {
            if let value = Int.fromDatabaseValue(values[0]) { total = (total ?? 0) + value }
        }
        func finalize() -> (any DatabaseValueConvertible)? { total }
    }

    @Test(.serialized, arguments: [true, false])
    func errorsOfAggregates(inStep: Bool) throws {
        defer { Failing.stepError = nil; Failing.finalError = nil }
        func error(_ thrown: any Error) throws -> DatabaseError? {
            Failing.stepError = inStep ? thrown : nil
            Failing.finalError = inStep ? nil : thrown
            return try self.error(of: "SELECT agg(1)", with: DatabaseFunction("agg", aggregate: Failing.self))
        }
        let described = try #require(try error(Oops()))
        #expect(described.resultCode == .SQLITE_ERROR)
        #expect(described.message == "Oops(reason: flat tyre)")

        let codeOnly = try #require(try error(DatabaseError(resultCode: ResultCode(rawValue: 123))))
        #expect(codeOnly.resultCode.rawValue == 123)
        #expect(codeOnly.message == "unknown error")

        let both = try #require(try error(DatabaseError(resultCode: ResultCode(rawValue: 123), message: "engine stalled")))
        #expect(both.resultCode.rawValue == 123)
        #expect(both.message == "engine stalled")
    }

    @Test func aggregatesSumGroupsInParallel() throws {
        try DatabaseQueue().inDatabase { db throws in
            db.add(function: DatabaseFunction("total", argumentCount: 1, aggregate: Total.self))
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT total(a), total(b) FROM (SELECT 1 AS a, 10 AS b UNION ALL SELECT 2, 20 UNION ALL SELECT 4, NULL)
                """))
            #expect(row[0] as Int? == 7)
            #expect(row[1] as Int? == 30)
            // An empty group finalizes a fresh aggregate.
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT total(a) FROM (SELECT 1 AS a) WHERE a > 1") == .null)
            let error = try #require(throws: DatabaseError.self) { try db.execute(sql: "SELECT total()") }
            #expect(error.message == "wrong number of arguments to function total()")
        }
    }

    // MARK: Collations

    @Test func builtInCollationsSortAsGRDB() throws {
        try DatabaseQueue().inDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE word (id INTEGER PRIMARY KEY, text TEXT);
                INSERT INTO word VALUES (1, '1'), (2, '2'), (3, '10'), (4, 'a'), (5, 'à'), (6, 'A'), (7, 'Z'), (8, 'z');
                """)
            func order(_ collation: DatabaseCollation) throws -> [Int] {
                try Int.fetchAll(db, sql: "SELECT id FROM word ORDER BY text COLLATE \(collation.name), id")
            }
            #expect(try order(.unicodeCompare) == ("z" < "à" ? [1, 3, 2, 6, 7, 4, 8, 5] : [1, 3, 2, 6, 7, 4, 5, 8]))
            #expect(try order(.caseInsensitiveCompare) == [1, 3, 2, 4, 6, 5, 7, 8])
            #expect(try order(.localizedCaseInsensitiveCompare) == [1, 3, 2, 4, 6, 5, 7, 8])
            #expect(try order(.localizedCompare) == [1, 3, 2, 4, 6, 5, 8, 7])
            #expect(try order(.localizedStandardCompare) == [1, 2, 3, 4, 6, 5, 8, 7])
        }
    }

    @Test func customCollationsOfColumns() throws {
        try DatabaseQueue().inDatabase { db throws in
            db.add(collation: DatabaseCollation("by_length") { lhs, rhs in
                let (l, r) = (lhs.utf8.count, rhs.utf8.count)
                if l != r { return l < r ? .orderedAscending : .orderedDescending }
                return lhs < rhs ? .orderedAscending : (lhs == rhs ? .orderedSame : .orderedDescending)
            })
            // The name of the collation is case-insensitive, as in SQLite.
            try db.execute(sql: """
                CREATE TABLE word (id INTEGER PRIMARY KEY, text TEXT COLLATE BY_LENGTH);
                INSERT INTO word VALUES (1, 'x'), (2, 'xx'), (3, 'xxx'), (4, 'y'), (5, 'yy'), (6, 'yyy');
                """)
            #expect(try Int.fetchAll(db, sql: "SELECT id FROM word ORDER BY text") == [1, 4, 2, 5, 3, 6])
            let error = try #require(throws: DatabaseError.self) {
                try db.execute(sql: "SELECT 1 ORDER BY 'a' COLLATE missing_one")
            }
            #expect(error.resultCode == .SQLITE_ERROR)
            #expect(error.message == "no such collation sequence: missing_one")
        }
    }
}
