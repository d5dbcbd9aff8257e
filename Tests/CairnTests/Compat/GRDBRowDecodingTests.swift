import Foundation
import Testing
import Cairn

/// Rows, row adapters and value conversions behave as in GRDB 7.8: the
/// texts of `description` and `debugDescription`, equality and hashing,
/// scopes, the adapters, and the errors of conversions that fail.
@Suite struct GRDBRowDecodingTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
    }

    // MARK: - Descriptions

    @Test func descriptionsOfValuesAndRows() throws {
        let row: Row = ["i": 7, "d": 0.25, "s": "say \"hi\"", "n": nil, "b": Data([1, 2, 3])]
        #expect(row.description == #"[i:7 d:0.25 s:"say \"hi\"" n:NULL b:Data(3 bytes)]"#)
        // A row that no adapter made describes itself the same way in debug.
        #expect(row.debugDescription == row.description)
        #expect(Row().description == "[]")
        #expect(DatabaseValue.null.description == "NULL")
        #expect(1e100.databaseValue.description == "1e+100")
    }

    @Test func debugDescriptionOfNestedScopes() throws {
        try dbQueue.read { db throws in
            let adapter = ColumnMapping(["code": "c0", "label": "l0"])
                .addingScopes([
                    "zeta": ColumnMapping(["code": "c1"]),
                    "alpha": ColumnMapping(["code": "c1", "label": "l1"])
                        .addingScopes([
                            "inner": RangeRowAdapter(4..<6),
                            "all": SuffixRowAdapter(fromIndex: 0)]),
                ])
            let row = try #require(try Row.fetchOne(
                db,
                sql: "SELECT 'x' AS c0, 10 AS l0, 'y' AS c1, 20 AS l1, 'z' AS c2, 30 AS l2",
                adapter: adapter))
            #expect(row.description == #"[code:"x" label:10]"#)
            // Scopes are sorted by name, and indented by level.
            #expect(row.debugDescription == """
                ▿ [code:"x" label:10]
                  unadapted: [c0:"x" l0:10 c1:"y" l1:20 c2:"z" l2:30]
                  - alpha: [code:"y" label:20]
                    - all: [c0:"x" l0:10 c1:"y" l1:20 c2:"z" l2:30]
                    - inner: [c2:"z" l2:30]
                  - zeta: [code:"y"]
                """)
            // A scope shows the unadapted row, and its own scopes.
            let alpha = try #require(row.scopes["alpha"])
            #expect(alpha.debugDescription == """
                ▿ [code:"y" label:20]
                  unadapted: [c0:"x" l0:10 c1:"y" l1:20 c2:"z" l2:30]
                  - all: [c0:"x" l0:10 c1:"y" l1:20 c2:"z" l2:30]
                  - inner: [c2:"z" l2:30]
                """)
            let zeta = try #require(row.scopes["zeta"])
            #expect(zeta.debugDescription == """
                ▿ [code:"y"]
                  unadapted: [c0:"x" l0:10 c1:"y" l1:20 c2:"z" l2:30]
                """)
        }
    }

    /// GRDB prints the unadapted row only when it differs from the adapted
    /// one, and a row equal to its unadapted row as its description.
    @Test func debugDescriptionOfAnAdaptedRowEqualToItsBase() throws {
        try dbQueue.read { db throws in
            let sql = "SELECT 1 AS a, 'b' AS b"
            let whole = try #require(try Row.fetchOne(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 0)))
            #expect(whole.debugDescription == #"[a:1 b:"b"]"#)
            let renamedToItself = try #require(try Row.fetchOne(db, sql: sql, adapter: RenameColumnAdapter { $0 }))
            #expect(renamedToItself.debugDescription == #"[a:1 b:"b"]"#)
            // With scopes, the row differs from its unadapted row, even
            // with the same columns.
            let scoped = try #require(try Row.fetchOne(db, sql: sql, adapter: ScopeAdapter(["s": RangeRowAdapter(1..<2)])))
            #expect(scoped.debugDescription == """
                ▿ [a:1 b:"b"]
                  unadapted: [a:1 b:"b"]
                  - s: [b:"b"]
                """)
            let part = try #require(try Row.fetchOne(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 1)))
            #expect(part.debugDescription == """
                ▿ [b:"b"]
                  unadapted: [a:1 b:"b"]
                """)
            // Cursor rows describe themselves as copied rows do.
            let rows = try Row.fetchCursor(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 1))
            while let row = try rows.next() {
                #expect(row.debugDescription == part.debugDescription)
                #expect(row.description == #"[b:"b"]"#)
            }
        }
    }

    struct Shelf: TableRecord {
        static let volumes = hasMany(Volume.self)
    }
    struct Volume: TableRecord {
        static let shelf = belongsTo(Shelf.self)
    }

    func makeLibrary() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE shelf (id INTEGER PRIMARY KEY, label TEXT);
                CREATE TABLE volume (id INTEGER PRIMARY KEY, shelfId INTEGER REFERENCES shelf(id), title TEXT);
                INSERT INTO shelf VALUES (1, 'top'), (2, 'bottom'), (3, 'empty');
                INSERT INTO volume VALUES (10, 1, 'a'), (11, 1, 'b'), (12, 2, 'c');
                """)
        }
        return dbQueue
    }

    @Test func debugDescriptionOfPrefetchedRows() throws {
        try makeLibrary().read { db throws in
            let rows = try Row.fetchAll(db, Shelf.including(all: Shelf.volumes).order(Column("id")))
            #expect(rows.map(\.debugDescription) == [
                "▿ [id:1 label:\"top\"]\n  + volumes: 2 rows",
                "▿ [id:2 label:\"bottom\"]\n  + volumes: 1 row",
                "▿ [id:3 label:\"empty\"]\n  + volumes: 0 row",
            ])
            #expect(rows.map(\.description) == [
                "[id:1 label:\"top\"]",
                "[id:2 label:\"bottom\"]",
                "[id:3 label:\"empty\"]",
            ])
            // Prefetched rows take part in equality, not in unscoped rows.
            #expect(rows[0] != ["id": 1, "label": "top"])
            #expect(rows[0].unscoped == ["id": 1, "label": "top"])
            #expect(rows[0].unscoped.debugDescription == #"[id:1 label:"top"]"#)
            #expect(rows[0].prefetchedRows.keys == ["volumes"])
            #expect(rows[2].prefetchedRows["volumes"] == [])
            #expect(rows[0] == rows[0].copy())
        }
    }

    // MARK: - Equality and hashing

    @Test func equalityAndHashing() throws {
        let integer: Row = ["a": 1, "b": "x"]
        let double: Row = ["a": 1.0, "b": "x"]
        #expect(integer == double)
        #expect(integer.hashValue == double.hashValue)
        #expect(Set([integer, double]).count == 1)
        // Names are compared with their case, and in order.
        #expect(integer != ["A": 1, "b": "x"])
        #expect(integer != ["b": "x", "a": 1])
        #expect(integer != ["a": 1])
        // Text and blob differ.
        #expect(Row(["a": "x"]) != Row(["a": Data("x".utf8)]))
        // An integer equals a double only when the double is exactly it.
        #expect(Int64(9_007_199_254_740_993).databaseValue != Double(9_007_199_254_740_992).databaseValue)
        #expect(1.databaseValue == 1.0.databaseValue)
        #expect(1.databaseValue.storage != 1.0.databaseValue.storage)
        #expect(0.5.databaseValue != 0.databaseValue)

        try dbQueue.read { db throws in
            let fetched = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS a, 'x' AS b"))
            #expect(fetched == integer)
            #expect(fetched.hashValue == integer.hashValue)
            let rows = try Row.fetchSet(db, sql: "SELECT 1 AS a UNION ALL SELECT 1.0 UNION ALL SELECT 2")
            #expect(rows.count == 2)
        }
    }

    @Test func equalityComparesScopesNotAdapters() throws {
        try dbQueue.read { db throws in
            let sql = "SELECT 1 AS a, 2 AS b, 2 AS c"
            func fetch(_ adapter: any RowAdapter) throws -> Row {
                try #require(try Row.fetchOne(db, sql: sql, adapter: adapter))
            }
            let one = try fetch(ColumnMapping(["a": "a"]).addingScopes(["s": ColumnMapping(["x": "b"])]))
            let sameValues = try fetch(ColumnMapping(["a": "a"]).addingScopes(["s": ColumnMapping(["x": "c"])]))
            let noScope = try fetch(ColumnMapping(["a": "a"]))
            let otherScopeName = try fetch(ColumnMapping(["a": "a"]).addingScopes(["t": ColumnMapping(["x": "b"])]))
            let extraScope = try fetch(ColumnMapping(["a": "a"]).addingScopes(["s": ColumnMapping(["x": "b"]), "t": EmptyRowAdapter()]))
            #expect(one == sameValues)
            #expect(one != noScope)
            #expect(one != otherScopeName)
            #expect(one != extraScope)
            // A row without scopes equals the row of a dictionary.
            #expect(noScope == ["a": 1])
            #expect(one.unscoped == ["a": 1])
            #expect(one.scopes["s"] == ["x": 2])
            // A copy is equal.
            #expect(one.copy() == one)
        }
    }

    // MARK: - Building rows

    @Test func rowsFromUntypedDictionaries() throws {
        let values: [AnyHashable: Any] = ["name": "Arthur", "score": 12, "none": NSNull()]
        let row = try #require(Row(values))
        #expect(row.count == 3)
        #expect(row["name"] as String == "Arthur")
        #expect(row["score"] as Int == 12)
        #expect(row.hasColumn("none"))
        #expect(row["none"] == nil)
        // Keys must be strings, values database values.
        #expect(Row([1: "one"] as [AnyHashable: Any]) == nil)
        #expect(Row(["name": NSObject()] as [AnyHashable: Any]) == nil)
    }

    @Test func rowsFromDictionaries() throws {
        let row = Row(["name": "Arthur", "score": nil])
        #expect(Set(row.columnNames) == ["name", "score"])
        #expect(row["score"] == nil)
        #expect(row.hasColumn("score"))
        // A literal keeps its order and its duplicated names; lookups take
        // the leftmost column, whatever the case.
        let literal: Row = ["id": 1, "ID": 2, "id": 3]
        #expect(literal.columnNames == ["id", "ID", "id"])
        #expect(literal["Id"] as Int == 1)
        #expect(literal.description == "[id:1 ID:2 id:3]")
        #expect(Row().isEmpty)
        #expect(!Row().containsNonNullValue)
        #expect(Row(["a": nil]).containsNonNullValue == false)
        #expect(Row(["a": nil, "b": 0]).containsNonNullValue)
    }

    @Test func containsNonNullValueLooksInScopes() throws {
        try dbQueue.read { db throws in
            let adapter = EmptyRowAdapter().addingScopes(["s": SuffixRowAdapter(fromIndex: 1)])
            let withValue = try #require(try Row.fetchOne(db, sql: "SELECT NULL, 1", adapter: adapter))
            #expect(withValue.isEmpty)
            #expect(withValue.containsNonNullValue)
            let withoutValue = try #require(try Row.fetchOne(db, sql: "SELECT 1, NULL", adapter: adapter))
            #expect(!withoutValue.containsNonNullValue)
            #expect(try #require(try Row.fetchOne(db, sql: "SELECT NULL, 1")).hasNull(atIndex: 0))
        }
    }

    // MARK: - Adapters

    @Test func columnMappingOfAMissingColumn() throws {
        try dbQueue.read { db throws in
            do {
                _ = try Row.fetchOne(db, sql: "SELECT 1 AS a, 2 AS b", adapter: ColumnMapping(["x": "missing"]))
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_MISUSE)
                #expect(error.message == "Mapping references missing column missing. Valid column names are: a, b.")
            }
        }
    }

    @Test func columnMappingKeepsTheOrderOfTheBaseRow() throws {
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(
                db,
                sql: "SELECT 1 AS one, 2 AS two, 3 AS three, 4 AS TWO",
                adapter: ColumnMapping(["z": "one", "a": "three", "m": "Two"])))
            #expect(row.columnNames == ["z", "m", "a"])
            #expect(Array(row.databaseValues) == [1.databaseValue, 2.databaseValue, 3.databaseValue])
            // Lookups are case-insensitive.
            #expect(row["Z"] as Int == 1)
            #expect(!row.hasColumn("one"))
            #expect(row["one"] == nil)
        }
    }

    @Test func adaptersOfAdaptedRequests() throws {
        try dbQueue.read { db throws in
            let request = SQLRequest<Row>(sql: "SELECT 1 AS a, 2 AS b, 3 AS c, 4 AS d", adapter: SuffixRowAdapter(fromIndex: 1))
            // A second adapter works on the columns of the first one.
            let twice = try #require(try request.adapted { _ in RangeRowAdapter(1...2) }.fetchOne(db))
            #expect(twice == ["c": 3, "d": 4])
            let renamed = try #require(try request
                .adapted { _ in ColumnMapping(["x": "c"]) }
                .adapted { _ in ColumnMapping(["y": "x"]) }
                .fetchOne(db))
            #expect(renamed == ["y": 3])
            #expect(renamed.unadapted == ["a": 1, "b": 2, "c": 3, "d": 4])
            do {
                _ = try request.adapted { _ in ColumnMapping(["x": "a"]) }.fetchOne(db)
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "Mapping references missing column a. Valid column names are: b, c, d.")
            }
        }
    }

    @Test func scopesAreLaidOutOnTheRowOfTheirAdapter() throws {
        try dbQueue.read { db throws in
            let adapter = ScopeAdapter([
                "outer": SuffixRowAdapter(fromIndex: 2)
                    .addingScopes(["inner": SuffixRowAdapter(fromIndex: 2)]),
            ])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS a, 2 AS b, 3 AS c, 4 AS d", adapter: adapter))
            #expect(row.unscoped == ["a": 1, "b": 2, "c": 3, "d": 4])
            let outer = try #require(row.scopes["outer"])
            #expect(outer.unscoped == ["c": 3, "d": 4])
            // The nested scope counts from the start of the base row too.
            #expect(outer.scopes["inner"] == ["c": 3, "d": 4])
            #expect(row.scopes["inner"] == nil)
            #expect(row.scopesTree["inner"] == ["c": 3, "d": 4])
            #expect(row.scopesTree.names == ["outer", "inner"])
            #expect(Set(row.scopes.names) == ["outer"])
            // Names of scopes are case-sensitive.
            #expect(row.scopes["OUTER"] == nil)
            #expect(row.scopesTree["OUTER"] == nil)
        }
    }

    @Test func addingScopesReplacesScopesOfTheSameName() throws {
        try dbQueue.read { db throws in
            let base = ScopeAdapter(["kept": RangeRowAdapter(0..<1), "replaced": RangeRowAdapter(0..<1)])
            let adapter = base.addingScopes(["replaced": RangeRowAdapter(1..<2), "added": RangeRowAdapter(2..<3)])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS a, 2 AS b, 3 AS c", adapter: adapter))
            #expect(Set(row.scopes.names) == ["kept", "replaced", "added"])
            #expect(row.scopes["kept"] == ["a": 1])
            #expect(row.scopes["replaced"] == ["b": 2])
            #expect(row.scopes["added"] == ["c": 3])
            #expect(row.count == 3)
        }
    }

    @Test func renamingAndSplitting() throws {
        try dbQueue.read { db throws in
            let request: SQLRequest<Row> = #"SELECT 1 AS "id@1", 'n' AS name, 2 AS "id@2""#
            let row = try #require(try request
                .adapted { _ in RenameColumnAdapter { String($0.prefix { $0 != "@" }) } }
                .adapted { _ in
                    let adapters = splittingRowAdapters(columnCounts: [2])
                    return ScopeAdapter(["first": adapters[0], "second": adapters[1]])
                }
                .fetchOne(db))
            #expect(row.unscoped == ["id": 1, "name": "n", "id": 2])
            #expect(row.unadapted == ["id@1": 1, "name": "n", "id@2": 2])
            #expect(row.scopes["first"] == ["id": 1, "name": "n"])
            #expect(row.scopes["second"] == ["id": 2])
            #expect(splittingRowAdapters(columnCounts: []).count == 1)
            #expect(splittingRowAdapters(columnCounts: [1, 2]).count == 3)
        }
    }

    @Test func rangesAndSuffixesAtTheEdges() throws {
        try dbQueue.read { db throws in
            let sql = "SELECT 0 AS a, 1 AS b, 2 AS c"
            #expect(try Row.fetchOne(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 3))?.isEmpty == true)
            #expect(try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(3..<3))?.isEmpty == true)
            #expect(try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(2...2)) == ["c": 2])
            #expect(try Row.fetchOne(db, sql: sql, adapter: ColumnMapping([:]))?.isEmpty == true)
            // Values of an adapted request read its first column.
            #expect(try Int.fetchAll(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 2)) == [2])
        }
    }

    // MARK: - NULL

    /// A value that reads NULL as a value of its own.
    struct Level: DatabaseValueConvertible, Equatable {
        var rawValue: Int
        var databaseValue: DatabaseValue { rawValue == 0 ? .null : rawValue.databaseValue }
        static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Level? {
            if dbValue.isNull { return Level(rawValue: 0) }
            return Int.fromDatabaseValue(dbValue).map(Level.init(rawValue:))
        }
    }

    /// An optional gives the value that its wrapped type reads from NULL,
    /// and nil only when the wrapped type reads none.
    @Test func optionalsOfTypesThatReadNull() throws {
        try dbQueue.read { db throws in
            let sql = "SELECT NULL AS n, 3 AS i, 'x' AS s"
            let copied = try #require(try Row.fetchOne(db, sql: sql))
            let rows = try Row.fetchCursor(db, sql: sql)
            while let cursorRow = try rows.next() {
                for row in [copied, cursorRow] {
                    let value: DatabaseValue? = row["n"]
                    #expect(value == .null)
                    #expect(try row.decode(DatabaseValue?.self, forColumn: "n") == .null)
                    let missing: DatabaseValue? = row["missing"]
                    #expect(missing == nil)
                    let level: Level? = row["n"]
                    #expect(level == Level(rawValue: 0))
                    let nonOptionalLevel: Level = row["n"]
                    #expect(nonOptionalLevel == Level(rawValue: 0))
                    let three: Level? = row["i"]
                    #expect(three == Level(rawValue: 3))
                    let int: Int? = row["n"]
                    #expect(int == nil)
                    #expect(try row.decode(Int?.self, atIndex: 0) == nil)
                }
            }
            #expect(DatabaseValue?.fromDatabaseValue(.null) == .some(.some(.null)))
            #expect(Int?.fromDatabaseValue(.null) == .some(.none))
            #expect(Int?.fromDatabaseValue("x".databaseValue) == nil)
            // fetchOne: nil for no row, the type's own value for NULL.
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT NULL") == .null)
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT 1 WHERE 0") == nil)
            #expect(try Level.fetchOne(db, sql: "SELECT NULL") == Level(rawValue: 0))
            #expect(try Level.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT 2") == [Level(rawValue: 0), Level(rawValue: 2)])
            #expect(try Int.fetchOne(db, sql: "SELECT NULL") == nil)
            #expect(try String.fetchOne(db, sql: "SELECT NULL") == nil)
        }
    }

    /// `Level`, decodable: its single value is the raw value.
    struct DecodableLevel: DatabaseValueConvertible, Decodable, Equatable {
        var rawValue: Int
        var databaseValue: DatabaseValue { rawValue == 0 ? .null : rawValue.databaseValue }
        static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DecodableLevel? {
            Level.fromDatabaseValue(dbValue).map { DecodableLevel(rawValue: $0.rawValue) }
        }
        init(rawValue: Int) { self.rawValue = rawValue }
        init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(Int.self)
        }
    }

    /// A decodable record's optional property reads NULL as its type does:
    /// the value the type makes of NULL, nil when it makes none.
    struct Reading: FetchableRecord, Decodable {
        var level: DecodableLevel?
        var count: Int?
        var note: String?
        var when: Date?
    }

    @Test func decodableOptionalsOfTypesThatReadNull() throws {
        try dbQueue.read { db throws in
            let reading = try #require(try Reading.fetchOne(db, sql: """
                SELECT NULL AS level, NULL AS count, NULL AS note, NULL AS "when"
                """))
            #expect(reading.level == DecodableLevel(rawValue: 0))
            #expect(reading.count == nil)
            #expect(reading.note == nil)
            #expect(reading.when == nil)
            let other = try #require(try Reading.fetchOne(db, sql: "SELECT 2 AS level"))
            #expect(other.level == DecodableLevel(rawValue: 2))
            #expect(other.count == nil)
        }
    }

    // MARK: - Decoding strategies of records

    struct Attachment: FetchableRecord, Decodable {
        static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
            .custom { dbValue in dbValue == "bad".databaseValue ? nil : Data("ok:\(dbValue)".utf8) }
        }
        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
            .custom { dbValue in Int.fromDatabaseValue(dbValue).map { Date(timeIntervalSince1970: TimeInterval($0) * 86400) } }
        }
        var payload: Data
        var day: Date?
    }

    /// Custom strategies decode the value; when they give nil, the error
    /// names the type, the value, the column and the statement.
    @Test func customStrategiesOfRecords() throws {
        try dbQueue.read { db throws in
            let fetched = try #require(try Attachment.fetchOne(db, sql: "SELECT 'x' AS payload, 2 AS day"))
            #expect(fetched.payload == Data(#"ok:"x""#.utf8))
            #expect(fetched.day == Date(timeIntervalSince1970: 2 * 86400))
            let row = try #require(try Row.fetchOne(db, sql: "SELECT x'00' AS payload, NULL AS day"))
            let copied = try Attachment(row: row)
            #expect(copied.payload == Data("ok:Data(1 bytes)".utf8))
            #expect(copied.day == nil)
            do {
                _ = try Attachment.fetchAll(db, sql: "SELECT 'bad' AS payload, NULL AS day")
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.description == #"could not decode Data from database value "bad" - column: "payload", column index: 0, row: [payload:"bad" day:NULL], sql: `SELECT 'bad' AS payload, NULL AS day`, arguments: []"#)
            }
            do {
                _ = try Attachment.fetchAll(db, sql: "SELECT 'x' AS payload, 'monday' AS day")
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.description == #"could not decode Date from database value "monday" - column: "day", column index: 1, row: [payload:"x" day:"monday"], sql: `SELECT 'x' AS payload, 'monday' AS day`, arguments: []"#)
            }
        }
    }
}
