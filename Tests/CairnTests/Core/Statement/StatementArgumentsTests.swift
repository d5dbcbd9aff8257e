import Foundation
import Testing
import Cairn

@Suite struct StatementArgumentsTests {
    func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: createPlayerTableSQL) }
        return dbQueue
    }

    @Test func positionalArguments() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur", 1000])
            try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Barbara", nil])
            let rows = try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY id")
            #expect(rows == [["name": "Arthur", "score": 1000], ["name": "Barbara", "score": nil]])
        }
    }

    @Test(arguments: [":", "$", "@"])
    func namedArguments(prefix: String) throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            try db.execute(
                sql: "INSERT INTO player (name, score) VALUES (\(prefix)name, \(prefix)score)",
                arguments: ["name": "Arthur", "score": 1000])
            #expect(try Row.fetchOne(db, sql: "SELECT name, score FROM player") == ["name": "Arthur", "score": 1000])
        }
    }

    /// Named arguments match their parameters whatever their order, and
    /// whatever the length of their names (short names are stored in the
    /// string itself, long ones apart).
    @Test func namedArgumentsInAnyOrder() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let statement = try db.cachedStatement(sql: "SELECT :a, :b, :aVeryLongParameterName, :c")
            let orders: [StatementArguments] = [
                ["a": 1, "b": 2, "aVeryLongParameterName": 3, "c": 4],
                ["c": 4, "aVeryLongParameterName": 3, "b": 2, "a": 1],
                ["b": 2, "a": 1, "c": 4, "aVeryLongParameterName": 3],
                ["a": 1, "b": 2, "c": 4, "aVeryLongParameterName": 3],
            ]
            for arguments in orders {
                let row = try #require(try Row.fetchOne(statement, arguments: arguments))
                #expect(Array(row.databaseValues) == [1, 2, 3, 4].map(\.databaseValue), "\(arguments)")
            }
            #expect(throws: DatabaseError.self) {
                try Row.fetchOne(statement, arguments: ["a": 1, "b": 2, "c": 4])
            }
        }
    }

    @Test func repeatedNamedArgument() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT :x + :x", arguments: ["x": 21]) == 42)
        }
    }

    @Test func mixedArguments() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // Named parameters take their named value, others the next positional value.
            let arguments = StatementArguments([1, 2]) + ["b": 10]
            #expect(try Int.fetchOne(db, sql: "SELECT ? * 100 + :b + ? * 1000", arguments: arguments) == 2110)
            // A named parameter without named value takes a positional value.
            #expect(try Int.fetchOne(db, sql: "SELECT :a + ?", arguments: [1, 2]) == 3)
            // Numbered parameters are positional.
            #expect(try Int.fetchOne(db, sql: "SELECT ?1 - ?2", arguments: [5, 3]) == 2)
        }
    }

    @Test func wrongArgumentCountThrowsBeforeRunning() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.inDatabase { db throws in
            #expect {
                try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur"])
            } throws: { error in
                guard let error = error as? DatabaseError else { return false }
                return error.resultCode == .SQLITE_MISUSE
                    && error.message == "wrong number of statement arguments: 1"
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur", 1])
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (name) VALUES (?)")
            }
            #expect {
                try db.execute(sql: "INSERT INTO player (name, score) VALUES (:name, :score)", arguments: ["name": "Arthur"])
            } throws: { error in
                (error as? DatabaseError)?.message == "missing statement argument: score"
            }
            // The same, with a value that is converted as soon as the
            // arguments are built (Int32 is not kept as given).
            #expect {
                try db.execute(sql: "INSERT INTO player (name, score) VALUES (:name, :score)", arguments: ["score": Int32(1)])
            } throws: { error in
                (error as? DatabaseError)?.message == "missing statement argument: name"
            }
            // A multi-statement string with a mismatch in its last statement writes nothing.
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: """
                    INSERT INTO player (name) VALUES (?);
                    INSERT INTO player (name) VALUES (?)
                    """, arguments: ["Arthur"])
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: """
                    INSERT INTO player (name) VALUES (?);
                    INSERT INTO player (name) VALUES (?)
                    """, arguments: ["Arthur", "Barbara", "Craig"])
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
            // The connection stays usable.
            try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 1)
        }
    }

    /// Wrong argument counts have GRDB's messages, which give the number
    /// of positional values, while no statement runs: a multi-statement
    /// string never writes partially.
    @Test func wrongArgumentCountMessages() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.inDatabase { db throws in
            func failure(_ sql: String, _ arguments: StatementArguments) -> DatabaseError? {
                do {
                    try db.execute(sql: sql, arguments: arguments)
                    return nil
                } catch {
                    return error as? DatabaseError
                }
            }
            let insert = "INSERT INTO player (name) VALUES (?)"
            let noStatement = failure("", [1])
            #expect(noStatement?.resultCode == .SQLITE_MISUSE)
            #expect(noStatement?.message == "wrong number of statement arguments: 1")
            #expect(noStatement?.description == "SQLite error 21: wrong number of statement arguments: 1")

            let tooMany = failure(insert, ["Arthur", "Barbara"])
            #expect(tooMany?.message == "wrong number of statement arguments: 2")
            #expect(tooMany?.sql == insert)

            // Too few for the second statement: the values left for it.
            let tooFew = failure("\(insert); \(insert)", ["Arthur"])
            #expect(tooFew?.message == "wrong number of statement arguments: 0")
            #expect(tooFew?.description == "SQLite error 21: wrong number of statement arguments: 0 - while executing `\(insert)`")

            // Too many for two statements: all the values.
            let tooManyForTwo = failure("\(insert); \(insert)", ["Arthur", "Barbara", "Craig"])
            #expect(tooManyForTwo?.message == "wrong number of statement arguments: 3")

            let statement = try db.makeStatement(sql: insert)
            #expect {
                try statement.setArguments(["Arthur", "Barbara"])
            } throws: { error in
                (error as? DatabaseError)?.message == "wrong number of statement arguments: 2"
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
        }
    }

    @Test func fetchChecksArguments() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(throws: DatabaseError.self) { try Row.fetchAll(db, sql: "SELECT ?") }
            #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT ?", arguments: [1, 2]) }
            #expect(throws: DatabaseError.self) { try Row.fetchCursor(db, sql: "SELECT :a", arguments: ["b": 1]) }
        }
    }

    @Test func literalsDescriptionsAndOperators() {
        let positional: StatementArguments = [1, "foo", nil]
        #expect(positional.description == "[1, \"foo\", NULL]")
        let named: StatementArguments = ["b": 2, "a": 1]
        #expect(named.description == #"["a": 1, "b": 2]"#)
        #expect(named["a"] == 1.databaseValue)
        #expect(!positional.isEmpty)
        #expect(StatementArguments().isEmpty)
        let left: StatementArguments = ["a": 1]
        let right: StatementArguments = ["a": 2, "b": 3]
        // &+ lets the right operand override the left one.
        #expect((left &+ right) == ["a": 2, "b": 3])
        #expect((StatementArguments([1]) &+ [2]) == [1, 2])
        var appended = left
        let replaced = appended.append(contentsOf: right)
        #expect(replaced == ["a": 1.databaseValue])
        #expect(appended == ["a": 2, "b": 3])
        #expect(StatementArguments([1, 2, 3]) == [1, 2, 3])
        let values: [(any DatabaseValueConvertible)?] = ["foo", 1, nil]
        #expect(StatementArguments(values) == ["foo", 1, nil])
    }

    /// A value too large for the inline buffer of an existential container:
    /// the container holds a pointer to a heap box.
    struct LargeValue: DatabaseValueConvertible {
        var a = 1, b = 2, c = 3, d = 4
        var databaseValue: DatabaseValue { (a + b + c + d).databaseValue }
        static func fromDatabaseValue(_ dbValue: DatabaseValue) -> LargeValue? { nil }
    }

    /// A class value: the container holds a reference.
    final class ReferenceValue: DatabaseValueConvertible {
        let string: String
        init(_ string: String) { self.string = string }
        var databaseValue: DatabaseValue { string.databaseValue }
        static func fromDatabaseValue(_ dbValue: DatabaseValue) -> ReferenceValue? { nil }
    }

    /// Literals read their values in place, whatever the layout of the value
    /// in its existential container (inline, boxed, reference), and tell nil
    /// from optionals that wrap nil.
    @Test func literalsReadEveryKindOfValue() throws {
        let noString: String? = nil
        let someInt: Int? = 7
        let reference = ReferenceValue("ref")
        let data = Data([1, 2, 3])
        let positional: StatementArguments = [
            nil, 1, 2.5, "text", data, LargeValue(), reference, noString, someInt, Int64.max, true]
        let expected: [DatabaseValue] = [
            .null, 1.databaseValue, 2.5.databaseValue, "text".databaseValue, data.databaseValue,
            10.databaseValue, "ref".databaseValue, .null, 7.databaseValue, Int64.max.databaseValue,
            1.databaseValue]
        #expect(positional == StatementArguments(expected))

        let named: StatementArguments = [
            "a": nil, "b": LargeValue(), "c": reference, "d": noString, "e": someInt, "f": "text"]
        #expect(named["a"] == .null)
        #expect(named["b"] == 10.databaseValue)
        #expect(named["c"] == "ref".databaseValue)
        #expect(named["d"] == .null)
        #expect(named["e"] == 7.databaseValue)
        #expect(named["f"] == "text".databaseValue)

        // And the values reach the database.
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?", arguments: positional))
            #expect(Array(row.databaseValues) == expected)
        }
    }

    /// Literals of standard values are bound without conversion into an
    /// array of database values: every deferred type reaches the database,
    /// and compares equal with the same values given otherwise.
    @Test func literalsOfStandardValues() throws {
        let dbValue = DatabaseValue(storage: .blob(Data([9])))
        let positional: StatementArguments = [nil, 42, "text", 2.5, Int64.min, true, false, dbValue]
        let expected: [DatabaseValue] = [
            .null, 42.databaseValue, "text".databaseValue, 2.5.databaseValue,
            Int64.min.databaseValue, 1.databaseValue, 0.databaseValue, dbValue]
        #expect(positional == StatementArguments(expected))
        #expect(positional.hashValue == StatementArguments(expected).hashValue)
        #expect(positional.description == #"[NULL, 42, "text", 2.5, -9223372036854775808, 1, 0, Data(1 bytes)]"#)

        let named: StatementArguments = ["i": 42, "s": "text", "n": nil, "d": 2.5, "b": true]
        let namedExpected = StatementArguments([
            ("b", true), ("d", 2.5), ("i", 42), ("n", nil), ("s", "text")] as [(String, (any DatabaseValueConvertible)?)])
        #expect(named == namedExpected)
        #expect(named.hashValue == namedExpected.hashValue)

        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let statement = try db.makeStatement(sql: "SELECT ?, ?, ?, ?, ?, ?, ?, ?")
            let row = try #require(try Row.fetchOne(statement, arguments: positional))
            #expect(Array(row.databaseValues) == expected)
            #expect(statement.arguments == positional)

            // Named parameters in another order than the literal's.
            let namedRow = try #require(try Row.fetchOne(db, sql: "SELECT :s, :n, :i, :b, :d", arguments: named))
            #expect(Array(namedRow.databaseValues) == [
                "text".databaseValue, .null, 42.databaseValue, 1.databaseValue, 2.5.databaseValue])
        }
    }

    /// A value of a class is converted when the literal is created: later
    /// changes to the object do not reach the arguments (which would race
    /// when the arguments go to another thread).
    @Test func literalsConvertMutableObjectsAtOnce() throws {
        final class Counter: DatabaseValueConvertible, @unchecked Sendable {
            var value = 1
            var databaseValue: DatabaseValue { value.databaseValue }
            static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Counter? { nil }
        }
        let counter = Counter()
        let positional: StatementArguments = [1, counter]
        let named: StatementArguments = ["a": 1, "b": counter]
        counter.value = 2
        #expect(positional == [1, 1])
        #expect(named["b"] == 1.databaseValue)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT ? + ?", arguments: positional) == 2)
            #expect(try Int.fetchOne(db, sql: "SELECT :a + :b", arguments: named) == 2)
        }
    }

    /// Arguments created from literals can be changed and combined.
    @Test func literalArgumentsAreMutable() throws {
        var positional: StatementArguments = [1, "a"]
        let copy = positional
        positional += [2]
        #expect(positional == [1, "a", 2])
        #expect(copy == [1, "a"])

        var named: StatementArguments = ["a": 1, "b": "x"]
        let namedCopy = named
        named["b"] = 2.databaseValue
        named["c"] = 3.databaseValue
        named["a"] = nil
        #expect(named == ["b": 2, "c": 3])
        #expect(namedCopy == ["a": 1, "b": "x"])
        let replaced = named.append(contentsOf: ["c": 4, "d": 5])
        #expect(replaced == ["c": 3.databaseValue])
        #expect(named == ["b": 2, "c": 4, "d": 5])

        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT :b + :c + :d", arguments: named) == 11)
            #expect(try Int.fetchOne(db, sql: "SELECT ? + ? + ?", arguments: [1, 2] + [3]) == 6)
        }
    }
}
