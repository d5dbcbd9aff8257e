import Foundation
import Testing
import Cairn

/// Lookups in rows, adapted rows and rows built from dictionaries, as in
/// GRDB 7.8: which column a name finds, what a row holds after a copy, and
/// the errors of fetches that fail.
@Suite struct GRDBRowLookupTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
    }

    @Test func mappedNamesFindTheLeftmostBaseColumn() throws {
        try dbQueue.read { db throws in
            // The base column is found without regard to case, leftmost first.
            let single = try #require(try Row.fetchOne(
                db, sql: "SELECT 1 AS srcname, 2 AS srcName, 3 AS SRCNAME",
                adapter: ColumnMapping(["label": "srcName"])))
            #expect(single == ["label": 1])

            // Two mapped names that differ by case: lookups find the leftmost
            // one of the adapted row.
            let double = try #require(try Row.fetchOne(
                db, sql: "SELECT 1 AS low, 'skip' AS other, 2 AS high",
                adapter: ColumnMapping(["tag": "low", "TAG": "high"])))
            #expect(double.count == 2)
            for name in ["tag", "TAG", "Tag"] {
                #expect(double[name] as Int == 1)
                #expect(double[name] as DatabaseValue? == 1.databaseValue)
            }
            #expect(double.hasColumn("tAg"))
            #expect(!double.hasColumn("other"))
            #expect(!double.hasColumn("low"))
            #expect(double["other"] == nil)
            #expect(double["other"] as DatabaseValue? == nil)
        }
    }

    @Test func adaptedRowsAsSequences() throws {
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(
                db, sql: "SELECT 0 AS x0, 'skip' AS other, 1 AS x1, x'01' AS x2",
                adapter: ColumnMapping(["a": "x0", "b": "x1", "c": "x2"])))
            #expect(row.map(\.0) == ["a", "b", "c"])
            #expect(row.map(\.1) == [0.databaseValue, 1.databaseValue, Data([1]).databaseValue])
            #expect(Array(row.columnNames) == ["a", "b", "c"])
            #expect(row.dataNoCopy(named: "C") == Data([1]))
            #expect(row.dataNoCopy(Column("c")) == Data([1]))
            #expect(row.dataNoCopy(atIndex: 2) == Data([1]))
            #expect(row.dataNoCopy(named: "missing") == nil)
            #expect(row[Column("B")] as Int == 1)
        }
    }

    @Test func copiesKeepTheirScopes() throws {
        try dbQueue.read { db throws in
            let adapter = ColumnMapping(["a": "x0", "b": "x1"])
                .addingScopes(["inner": ColumnMapping(["z": "x1"]).addingScopes(["deep": RangeRowAdapter(2..<3)])])
            let cursor = try Row.fetchCursor(db, sql: "SELECT 1 AS x0, 'skip' AS y, 2 AS x1 UNION ALL SELECT 3, 'skip', 4", adapter: adapter)
            var copies: [Row] = []
            while let row = try cursor.next() {
                let copy = row.copy()
                #expect(copy == row)
                copies.append(copy)
            }
            #expect(copies.count == 2)
            let last = try #require(copies.last)
            #expect(last.unscoped == ["a": 3, "b": 4])
            #expect(last.unadapted == ["x0": 3, "y": "skip", "x1": 4])
            #expect(Set(last.scopes.names) == ["inner"])
            #expect(last.scopes["inner"]?.unscoped == ["z": 4])
            #expect(last.scopesTree.names == ["inner", "deep"])
            #expect(last.scopesTree["deep"] == ["x1": 4])
            #expect(last.copy() == last)
            #expect(last.debugDescription == """
                ▿ [a:3 b:4]
                  unadapted: [x0:3 y:"skip" x1:4]
                  - inner: [z:4]
                    - deep: [x1:4]
                """)
        }
    }

    @Test func equalityOfAdaptedRows() throws {
        try dbQueue.read { db throws in
            let sql = "SELECT 0 AS p, 'skip' AS q, 1 AS r, 1 AS s, 2 AS t"
            func fetch(_ adapter: any RowAdapter) throws -> Row {
                try #require(try Row.fetchOne(db, sql: sql, adapter: adapter))
            }
            let main = ColumnMapping(["a": "p", "b": "r", "c": "t"])
            let other = ColumnMapping(["a": "p", "b": "s", "c": "t"])
            let one = try fetch(main.addingScopes(["sub": ColumnMapping(["b": "r"])]))
            let plain = try fetch(other)
            let sameValues = try fetch(other.addingScopes(["sub": ColumnMapping(["b": "s"])]))
            let twoScopes = try fetch(main.addingScopes(["sub": ColumnMapping(["b": "r"]), "more": ColumnMapping(["a": "s"])]))
            let widerScope = try fetch(main.addingScopes(["sub": ColumnMapping(["b": "r", "c": "t"])]))
            #expect(one != plain)
            #expect(one == sameValues)
            #expect(one.hashValue == sameValues.hashValue)
            #expect(one != twoScopes)
            #expect(one != widerScope)
            #expect(one.scopes["sub"] == sameValues.scopes["sub"])
            #expect(one.scopes["sub"] == twoScopes.scopes["sub"])
            #expect(one.scopes["sub"] != widerScope.scopes["sub"])

            // Order of columns matters, whether the row is adapted or not.
            let mapped = try fetch(ColumnMapping(["k": "r", "v": "q"]))
            #expect(mapped == ["v": "skip", "k": 1] as Row)
            #expect(mapped != ["k": 1, "v": "skip"] as Row)
            #expect(try Row.fetchOne(db, sql: "SELECT 'skip' AS v, 1 AS k") == mapped)
        }
    }

    @Test func rowsOfDictionariesFollowTheDictionary() throws {
        let dictionary: [String: (any DatabaseValueConvertible)?] = ["nothing": nil, "int": 1, "real": 1.5, "text": "txt", "blob": Data("b".utf8)]
        let row = Row(dictionary)
        #expect(Array(row.columnNames) == Array(dictionary.keys))
        for (index, key) in dictionary.keys.enumerated() {
            #expect(row[index] as DatabaseValue == (dictionary[key]!?.databaseValue ?? .null))
        }
        #expect(row["INT"] as DatabaseValue? == 1.databaseValue)
        #expect(row["missing"] as DatabaseValue? == nil)
        #expect(row.scopes.isEmpty)
        #expect(row.scopes["missing"] == nil)
        #expect(row.scopesTree["missing"] == nil)
        #expect(row.prefetchedRows.isEmpty)
        #expect(row.copy() == row)
        #expect(row.dataNoCopy(named: "blob") == Data("b".utf8))
        #expect(row.dataNoCopy(named: "nothing") == nil)
    }

    @Test func adaptersAreCheckedBeforeTheFirstRow() throws {
        try dbQueue.read { db throws in
            // The columns of the statement are enough to find the mistake of
            // an adapter: no row is needed.
            let sql = "SELECT 1 AS a, 2 AS b WHERE 0"
            let adapter = ColumnMapping(["x": "missing"])
            let message = "Mapping references missing column missing. Valid column names are: a, b."
            for fetch in [
                { _ = try Row.fetchOne(db, sql: sql, adapter: adapter) },
                { _ = try Row.fetchAll(db, sql: sql, adapter: adapter) },
                { _ = try Row.fetchCursor(db, sql: sql, adapter: adapter) },
            ] as [() throws -> Void] {
                do {
                    try fetch()
                    Issue.record("expected an error")
                } catch let error as DatabaseError {
                    #expect(error.resultCode == .SQLITE_MISUSE)
                    #expect(error.message == message)
                }
            }
        }
    }

    @Test func failuresOfFetches() throws {
        try dbQueue.inDatabase { db throws in
            db.add(function: DatabaseFunction("refuse", argumentCount: 0, pure: true) { _ in
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "refused")
            })
            let failing = "SELECT 0, refuse(), NULL"
            let adapter = SuffixRowAdapter(fromIndex: 1)
            let fetches: [() throws -> Void] = [
                { _ = try Row.fetchAll(db, sql: failing) },
                { _ = try Row.fetchAll(db, sql: failing, adapter: adapter) },
                { _ = try Row.fetchSet(db, sql: failing) },
                { _ = try Row.fetchOne(db, sql: failing, adapter: adapter) },
                { _ = try Row.fetchCursor(db, sql: failing, adapter: adapter).next() },
                { _ = try SQLRequest<Row>(sql: failing, adapter: adapter).fetchAll(db) },
            ]
            for fetch in fetches {
                do {
                    try fetch()
                    Issue.record("expected an error")
                } catch let error as DatabaseError {
                    #expect(error.resultCode == .SQLITE_ERROR)
                    #expect(error.message == "refused")
                    #expect(error.sql == failing)
                    #expect(error.description == "SQLite error 1: refused - while executing `\(failing)`")
                }
            }
            let missing = "SELECT * FROM noSuchTable"
            let compilations: [() throws -> Void] = [
                { _ = try Row.fetchCursor(db, sql: missing, adapter: adapter) },
                { _ = try Row.fetchAll(db, sql: missing) },
                { _ = try Row.fetchOne(db, SQLRequest<Void>(sql: missing, adapter: adapter)) },
            ]
            for compilation in compilations {
                do {
                    try compilation()
                    Issue.record("expected an error")
                } catch let error as DatabaseError {
                    #expect(error.resultCode == .SQLITE_ERROR)
                    #expect(error.message == "no such table: noSuchTable")
                    #expect(error.sql == missing)
                    #expect(error.description == "SQLite error 1: no such table: noSuchTable - while executing `\(missing)`")
                }
            }
            // A cursor that failed keeps failing.
            let cursor = try Row.fetchCursor(db, sql: failing)
            #expect(throws: DatabaseError.self) { _ = try cursor.next() }
            #expect(throws: DatabaseError.self) { _ = try cursor.next() }
        }
    }
}
