import Foundation
import Testing
import Cairn

/// Small parts of the public API: Foundation conversions, date functions,
/// schema and request conveniences.
@Suite struct SmallAPIAdditionsTests {
    private struct Reader: TableRecord, FetchableRecord, Decodable {
        static let databaseTableName = "reader"
        var id: Int64
        var name: String
        enum Columns {
            static let id = Column("id")
            static let name = Column("name")
        }
    }

    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws -> Void in
            try db.execute(sql: """
                CREATE TABLE reader (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INT);
                INSERT INTO reader VALUES (1, 'Arthur', 42);
                """)
        }
        return dbQueue
    }

    @Test func nsNull() {
        #expect(NSNull().databaseValue.isNull)
        #expect(NSNull.fromDatabaseValue(.null) == nil)
        #expect(NSNull.fromDatabaseValue(1.databaseValue) == nil)
    }

    @Test func statementArgumentsFromUntypedCollections() throws {
        let values: [Any] = ["Arthur", 41, NSNull()]
        #expect(StatementArguments(values) == ["Arthur", 41, nil])
        #expect(StatementArguments(["Arthur", NSObject()] as [Any]) == nil)
        let named: [AnyHashable: Any] = ["name": "Arthur", "age": 41]
        #expect(StatementArguments(named) == ["name": "Arthur", "age": 41])
        #expect(StatementArguments([1: "Arthur"] as [AnyHashable: Any]) == nil)

        try makeQueue().write { db throws -> Void in
            try db.execute(
                sql: "INSERT INTO reader (name, age) VALUES (:name, :age)",
                arguments: StatementArguments(["name": "Barbara", "age": 36] as [AnyHashable: Any])!)
            #expect(try Int.fetchOne(db, sql: "SELECT age FROM reader WHERE name = 'Barbara'") == 36)
        }
    }

    @Test func julianDays() throws {
        // 00:30:00 UTC, January 1, 2013.
        let date = try #require(Date(julianDay: 2_456_293.520833))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        #expect(calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
            == DateComponents(year: 2013, month: 1, day: 1, hour: 0, minute: 29))
        #expect(Date(julianDay: .infinity) == nil)

        try DatabaseQueue().read { db throws -> Void in
            let dbDate = date.databaseValue
            let request: SQLRequest<String> = """
                SELECT \(dateTime(dbDate)), \(dateTime(dbDate, .day(-1))), \(dateTime(dbDate, .startOfMonth, .month(1), .day(-1))), \
                \(dateTime(dbDate, .second(1.5)))
                """
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row[0] as String == "2013-01-01 00:29:59")
            #expect(row[1] as String == "2012-12-31 00:29:59")
            #expect(row[2] as String == "2013-01-31 00:00:00")
            #expect(row[3] as String == "2013-01-01 00:30:01")
            let shifted = try Double.fetchOne(db, SQLRequest<Double>("SELECT \(julianDay(dbDate, .hour(1)))"))
            let interval = try #require(shifted.flatMap(Date.init(julianDay:))).timeIntervalSince(date)
            #expect(abs(interval - 3600) < 0.1)
        }
    }

    @Test func primaryKeyBuilder() throws {
        try DatabaseQueue().write { db throws -> Void in
            var statements: [String] = []
            db.trace { statements.append($0.expandedDescription) }
            try db.create(table: "node") { t in
                t.primaryKey {
                    t.column("code", .text)
                    t.column("version", .integer)
                }
                t.column("name")
            }
            db.trace(options: [], nil)
            #expect(statements.last == """
                CREATE TABLE "node" ("code" TEXT NOT NULL, "version" INTEGER NOT NULL, "name", PRIMARY KEY ("code", "version"))
                """)
            #expect(try db.primaryKey("node").columns == ["code", "version"])
        }
    }

    @Test func numberOfSelectedColumns() throws {
        struct Narrow: TableRecord {
            static let databaseTableName = "reader"
            static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("name")] }
        }
        try makeQueue().read { db throws -> Void in
            #expect(try Reader.numberOfSelectedColumns(db) == 3)
            #expect(try Narrow.numberOfSelectedColumns(db) == 2)
        }
    }

    @Test func selectionsAndAnnotations() throws {
        try makeQueue().read { db throws -> Void in
            let annotated = Reader.annotated(with: [Reader.Columns.id - 1])
            #expect(try annotated.makePreparedRequest(db).statement.sql == #"SELECT *, "id" - ? FROM "reader""#)
            #expect(try Row.fetchOne(db, annotated)?[3] as Int? == 0)

            #expect(try Reader.select([Reader.Columns.name], as: String.self).fetchOne(db) == "Arthur")
            // The type of the fetched values comes from the context.
            let names: QueryInterfaceRequest<String> = Reader.select([Reader.Columns.name])
            #expect(try names.fetchAll(db) == ["Arthur"])
            let literal: QueryInterfaceRequest<String> = Reader.select(literal: "name")
            #expect(try literal.fetchOne(db) == "Arthur")
            let sql: QueryInterfaceRequest<Int> = Reader.select(sql: "age")
            #expect(try sql.fetchOne(db) == 42)
            let closure: QueryInterfaceRequest<String> = Reader.all().select { $0.name }
            #expect(try closure.fetchOne(db) == "Arthur")
            // Without a context, the request fetches records.
            let records = Reader.select([Reader.Columns.id, Reader.Columns.name])
            #expect(try records.fetchOne(db)?.name == "Arthur")
        }
    }

    @Test func cursorRegionsAndObservationNames() throws {
        try makeQueue().read { db throws -> Void in
            let cursor = try Row.fetchCursor(db, sql: "SELECT name FROM reader")
            #expect(cursor.databaseRegion.description == "reader(name)")
        }
        let extent: Database.TransactionObservationExtent = .observerLifetime
        #expect("\(extent)" == "\(TransactionObservationExtent.observerLifetime)")
        let observation = DatabaseRegionObservation(tracking: .fullDatabase)
        _ = observation
    }
}

/// Requests see the columns of the table as it is when they run.
@Suite struct SchemaChangeColumnsTests {
    @Test func selectStarAfterTheTableChanged() throws {
        try DatabaseQueue().inDatabase { db throws -> Void in
            try db.execute(sql: "CREATE TABLE t(a)")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            #expect(try Row.fetchOne(db, Table("t").all())?.count == 1)
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM t")?.count == 1)
            try db.execute(sql: "DROP TABLE t; CREATE TABLE t(a, b); INSERT INTO t VALUES (1, 2)")
            #expect(try Row.fetchOne(db, Table("t").all()) == ["a": 1, "b": 2])
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM t") == ["a": 1, "b": 2])
        }
    }

    @Test func numberOfSelectedColumnsAfterARollback() throws {
        struct T: TableRecord { static let databaseTableName = "t" }
        let dbQueue = try DatabaseQueue()
        try dbQueue.inTransaction { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            #expect(try T.numberOfSelectedColumns(db) == 1)
            return .rollback
        }
        try dbQueue.inTransaction { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            #expect(try T.numberOfSelectedColumns(db) == 2)
            return .rollback
        }
    }
}

/// A statement kept by the user across a schema change that alters its
/// columns: its cursor throws a clear error instead of reading rows with
/// the former columns; the next execution reads the new columns.
@Suite struct ReprepareTests {
    @Test(arguments: [["a", "b"], ["a"], ["a", "b", "c"]])
    func keptStatementAfterTheColumnsChanged(_ columns: [String]) throws {
        try DatabaseQueue().inDatabase { db throws -> Void in
            try db.execute(sql: "CREATE TABLE t(a, b); INSERT INTO t VALUES (1, 2)")
            let statement = try db.makeStatement(sql: "SELECT * FROM t")
            #expect(try Row.fetchOne(statement) == ["a": 1, "b": 2])
            let values = columns.indices.map { String($0 + 1) }.joined(separator: ", ")
            try db.execute(sql: """
                DROP TABLE t; CREATE TABLE t(\(columns.joined(separator: ", "))); INSERT INTO t VALUES (\(values))
                """)
            // The columns and values, in order.
            func fetched() throws -> [String: Int]? {
                try Row.fetchOne(statement).map { row in
                    Dictionary(uniqueKeysWithValues: row.columnNames.map { ($0, row[$0] as Int) })
                }
            }
            let expected = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0 + 1) })
            if columns == ["a", "b"] {
                #expect(try fetched() == expected)
            } else {
                #expect {
                    try Row.fetchOne(statement)
                } throws: { error in
                    (error as? DatabaseError)?.resultCode == .SQLITE_SCHEMA
                }
                #expect(try fetched() == expected)
                #expect(statement.columnNames == columns)
            }
        }
    }
}
