import Foundation
import Testing
import Cairn

@Suite struct DatabaseFunctionTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
    }

    @Test func scalarFunctions() throws {
        let reverse = DatabaseFunction("reverseString", argumentCount: 1, pure: true) { dbValues in
            guard let string = String.fromDatabaseValue(dbValues[0]) else { return nil }
            return String(string.reversed())
        }
        let sum = DatabaseFunction("mySum") { dbValues in
            dbValues.compactMap { Int.fromDatabaseValue($0) }.reduce(0, +)
        }
        try dbQueue.inDatabase { db throws in
            db.add(function: reverse)
            db.add(function: sum)
            #expect(try String.fetchOne(db, sql: "SELECT reverseString('foo')") == "oof")
            #expect(try String.fetchOne(db, sql: "SELECT reverseString(NULL)") == nil)
            #expect(try Int.fetchOne(db, sql: "SELECT mySum()") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT mySum(1, 2, 3)") == 6)
            // Pure functions can be used in indexes.
            try db.execute(sql: "CREATE TABLE t(a TEXT); CREATE INDEX ta ON t(reverseString(a))")
            db.remove(function: reverse)
            #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT reverseString('foo')") }
        }
    }

    @Test func functionsReturnEveryKindOfValue() throws {
        let values: [(any DatabaseValueConvertible)?] = [nil, 1, 2.5, "text", Data([1, 2]), true]
        try dbQueue.inDatabase { db throws in
            for (index, value) in values.enumerated() {
                let dbValue = value?.databaseValue ?? .null
                db.add(function: DatabaseFunction("f\(index)", argumentCount: 0) { _ in dbValue })
                let result = try #require(try Row.fetchOne(db, sql: "SELECT f\(index)()"))
                #expect(result[0] as DatabaseValue == dbValue)
            }
        }
    }

    struct NegativeNumber: Error, CustomStringConvertible {
        var description: String { "negative number" }
    }

    /// A Swift error of an SQL function comes back as an SQLite error whose
    /// message describes it.
    static func isNegativeNumberError(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_ERROR && error.message == "negative number"
    }

    @Test func throwingFunctions() throws {
        let sqrt = DatabaseFunction("mysqrt", argumentCount: 1, pure: true) { dbValues in
            guard let double = Double.fromDatabaseValue(dbValues[0]) else { return nil }
            guard double >= 0 else {
                throw DatabaseError(message: "invalid negative number")
            }
            return double.squareRoot()
        }
        let failing = DatabaseFunction("failing", argumentCount: 0) { _ in throw NegativeNumber() }
        try dbQueue.inDatabase { db throws in
            db.add(function: sqrt)
            db.add(function: failing)
            #expect(try Double.fetchOne(db, sql: "SELECT mysqrt(4)") == 2)
            // A DatabaseError keeps its message and code.
            #expect {
                try Double.fetchOne(db, sql: "SELECT mysqrt(-1)")
            } throws: { error in
                guard let error = error as? DatabaseError else { return false }
                return error.message == "invalid negative number" && error.resultCode == .SQLITE_ERROR
                    && error.description == "SQLite error 1: invalid negative number - while executing `SELECT mysqrt(-1)`"
            }
            // Other errors become SQLite errors that describe them, with the
            // SQL of the statement.
            #expect {
                try Int.fetchOne(db, sql: "SELECT failing()")
            } throws: { error in
                Self.isNegativeNumberError(error)
                    && (error as? DatabaseError)?.description == "SQLite error 1: negative number - while executing `SELECT failing()`"
            }
            #expect { try db.execute(sql: "SELECT failing()") } throws: { Self.isNegativeNumberError($0) }
            #expect { try Row.fetchAll(db, sql: "SELECT failing()") } throws: { Self.isNegativeNumberError($0) }
            // The connection stays usable.
            #expect(try Int.fetchOne(db, sql: "SELECT 1") == 1)
        }
    }

    @Test func throwingFunctionWritesNothing() throws {
        let failing = DatabaseFunction("failing", argumentCount: 1) { dbValues in
            if Int.fromDatabaseValue(dbValues[0]) == 3 { throw NegativeNumber() }
            return dbValues[0]
        }
        var config = Configuration()
        config.prepareDatabase { db in db.add(function: failing) }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db throws in try db.execute(sql: "CREATE TABLE t(a)") }
        #expect {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                try db.execute(sql: "INSERT INTO t VALUES (failing(3))")
            }
        } throws: { Self.isNegativeNumberError($0) }
        #expect {
            try dbQueue.inDatabase { db throws in
                // A single statement is atomic, even outside of a transaction.
                try db.execute(sql: "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 5) INSERT INTO t SELECT failing(x) FROM n")
            }
        } throws: { Self.isNegativeNumberError($0) }
        #expect(try dbQueue.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    struct MySum: DatabaseAggregate {
        var sum: Int?
        mutating func step(_ dbValues: [DatabaseValue]) throws {
            guard let int = Int.fromDatabaseValue(dbValues[0]) else { return }
            if int < 0 { throw NegativeNumber() }
            sum = (sum ?? 0) + int
        }
        func finalize() -> (any DatabaseValueConvertible)? { sum }
    }

    @Test func aggregates() throws {
        let mySum = DatabaseFunction("mysum", argumentCount: 1, aggregate: MySum.self)
        try dbQueue.inDatabase { db throws in
            db.add(function: mySum)
            try db.execute(sql: "CREATE TABLE t(g, a); INSERT INTO t VALUES (1, 1), (1, 2), (2, 10), (2, NULL)")
            #expect(try Int.fetchOne(db, sql: "SELECT mysum(a) FROM t") == 13)
            #expect(try Int.fetchAll(db, sql: "SELECT mysum(a) FROM t GROUP BY g ORDER BY g") == [3, 10])
            // No row: the aggregate of an empty group.
            #expect(try Int.fetchOne(db, sql: "SELECT mysum(a) FROM t WHERE 0") == nil)
            try db.execute(sql: "INSERT INTO t VALUES (3, -1)")
            #expect { try Int.fetchOne(db, sql: "SELECT mysum(a) FROM t") } throws: { Self.isNegativeNumberError($0) }
        }
    }

    /// Counts its steps and finalizations, and fails on a negative value.
    struct CountingAggregate: DatabaseAggregate {
        nonisolated(unsafe) static var steps = 0
        nonisolated(unsafe) static var finalizations = 0
        mutating func step(_ dbValues: [DatabaseValue]) throws {
            CountingAggregate.steps += 1
            if let int = Int.fromDatabaseValue(dbValues[0]), int < 0 { throw NegativeNumber() }
        }
        func finalize() -> (any DatabaseValueConvertible)? {
            CountingAggregate.finalizations += 1
            return 0
        }
    }

    @Test func aggregatesAreNotFinalizedAfterAFailedStep() throws {
        let counting = DatabaseFunction("counting", argumentCount: 1, aggregate: CountingAggregate.self)
        try dbQueue.inDatabase { db throws in
            db.add(function: counting)
            try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1), (-1), (2), (3)")
            #expect { try Int.fetchOne(db, sql: "SELECT counting(a) FROM t") } throws: { Self.isNegativeNumberError($0) }
            // The failed step was the last one, and the aggregate was not
            // asked for a result.
            #expect(CountingAggregate.steps == 2)
            #expect(CountingAggregate.finalizations == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT counting(a) FROM t WHERE a > 0") == 0)
            #expect(CountingAggregate.finalizations == 1)
        }
    }

    @Test func collations() throws {
        let byLength = DatabaseCollation("byLength") { lhs, rhs in
            lhs.count < rhs.count ? .orderedAscending : (lhs.count > rhs.count ? .orderedDescending : .orderedSame)
        }
        try dbQueue.inDatabase { db throws in
            db.add(collation: byLength)
            try db.execute(sql: "CREATE TABLE file (name TEXT COLLATE byLength)")
            try db.execute(sql: "INSERT INTO file VALUES ('ccc'), ('a'), ('bb')")
            #expect(try String.fetchAll(db, sql: "SELECT name FROM file ORDER BY name") == ["a", "bb", "ccc"])
            db.remove(collation: byLength)
            #expect(throws: DatabaseError.self) { try String.fetchAll(db, sql: "SELECT name FROM file ORDER BY name") }
        }
    }

    @Test func builtInUnicodeCollations() throws {
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t(name TEXT)")
            for name in ["file10", "File2", "éclair", "eclair", "Zebra"] {
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [name])
            }
            func sorted(_ collation: String) throws -> [String] {
                try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY name COLLATE \(collation), rowid")
            }
            let standard = try sorted("swiftLocalizedStandardCompare")
            #expect(try #require(standard.firstIndex(of: "File2")) < #require(standard.firstIndex(of: "file10")))
            #expect(try sorted("swiftCaseInsensitiveCompare").first == "eclair")
            #expect(try sorted("swiftCompare") == ["File2", "Zebra", "eclair", "file10", "éclair"])
            _ = try sorted("swiftLocalizedCaseInsensitiveCompare")
            _ = try sorted("swiftLocalizedCompare")
            // Canonical equivalence: precomposed é equals e + combining accent.
            #expect(try Bool.fetchOne(db, sql: "SELECT ? = ? COLLATE swiftCompare", arguments: ["\u{E9}", "e\u{301}"]) == true)
            #expect(try Bool.fetchOne(db, sql: "SELECT 'ABC' = 'abc' COLLATE swiftCaseInsensitiveCompare") == true)
        }
    }

    /// The built-in collations have GRDB's SQL names, which schemas written
    /// by GRDB declare.
    @Test func builtInCollationsHaveGRDBNames() throws {
        #expect(DatabaseCollation.unicodeCompare.name == "swiftCompare")
        #expect(DatabaseCollation.caseInsensitiveCompare.name == "swiftCaseInsensitiveCompare")
        #expect(DatabaseCollation.localizedCaseInsensitiveCompare.name == "swiftLocalizedCaseInsensitiveCompare")
        #expect(DatabaseCollation.localizedCompare.name == "swiftLocalizedCompare")
        #expect(DatabaseCollation.localizedStandardCompare.name == "swiftLocalizedStandardCompare")
        try dbQueue.inDatabase { db throws in
            // A table as GRDB creates it with a built-in collation.
            try db.create(table: "player") { t in
                t.column("name", .text).collate(.localizedCaseInsensitiveCompare)
            }
            let schema = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'player'")
            #expect(schema?.contains("COLLATE swiftLocalizedCaseInsensitiveCompare") == true)
            try db.execute(sql: "INSERT INTO player VALUES ('bob'), ('Alice')")
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY name") == ["Alice", "bob"])
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player WHERE name = 'BOB'") == "bob")
            let request = Table("player").order(Column("name").collating(.localizedCaseInsensitiveCompare))
            #expect(try request.makePreparedRequest(db, forSingleResult: false).statement.sql
                == #"SELECT * FROM "player" ORDER BY "name" COLLATE swiftLocalizedCaseInsensitiveCompare"#)
        }
    }

    /// The names of earlier Cairn releases stay registered, with the same
    /// comparisons: schemas that declare them keep working.
    @Test func legacyCollationNamesStayRegistered() throws {
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "CREATE TABLE legacy (name TEXT COLLATE localizedCaseInsensitiveCompare)")
            try db.execute(sql: "INSERT INTO legacy VALUES ('bob'), ('Alice')")
            #expect(try String.fetchAll(db, sql: "SELECT name FROM legacy ORDER BY name") == ["Alice", "bob"])
            #expect(try Bool.fetchOne(db, sql: "SELECT ? = ? COLLATE unicodeCompare", arguments: ["\u{E9}", "e\u{301}"]) == true)
            #expect(try Bool.fetchOne(db, sql: "SELECT 'ABC' = 'abc' COLLATE caseInsensitiveCompare") == true)
            for name in ["localizedCompare", "localizedStandardCompare"] {
                #expect(try String.fetchAll(db, sql: "SELECT name FROM legacy ORDER BY name COLLATE \(name)") == ["Alice", "bob"])
            }
        }
    }
}
