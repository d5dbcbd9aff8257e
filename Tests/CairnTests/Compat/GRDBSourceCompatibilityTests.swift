import Foundation
import Testing
import Cairn

/// Code written for GRDB 7.8 that must compile with `import Cairn`. Each test
/// uses a shape of GRDB's declarations that Cairn once declared differently
/// (so that the test did not compile), then checks what the code does.
@Suite struct GRDBSourceCompatibilityTests {
    struct Gadget: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var code: String
        var size: Int
        static let pieces = hasMany(Piece.self)
    }

    struct Piece: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var gadgetId: Int64
    }

    func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE gadget (id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, size INTEGER NOT NULL);
                CREATE TABLE piece (id INTEGER PRIMARY KEY, gadgetId INTEGER NOT NULL REFERENCES gadget(id));
                INSERT INTO gadget VALUES (1, 'g1', 10), (2, 'g2', 30), (3, 'g3', 20);
                INSERT INTO piece VALUES (1, 1), (2, 1), (3, 3);
                """)
        }
        return dbQueue
    }

    // MARK: - DatabaseMigrator

    /// GRDB has no async `migrate(_:)`: in an async function, `try
    /// migrator.migrate(writer)` runs the synchronous method. An async
    /// overload made that line fail to compile ("expression is 'async' but is
    /// not marked with 'await'").
    @Test func migrateWithoutAwaitInAsyncFunction() async throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("shelves") { db in
            try db.execute(sql: "CREATE TABLE shelf (id INTEGER PRIMARY KEY)")
        }
        try migrator.migrate(dbQueue)
        let applied = try await dbQueue.read { [migrator] db in try migrator.appliedIdentifiers(db) }
        #expect(applied == ["shelves"])
        #expect(try await dbQueue.read { db in try db.tableExists("shelf") })
    }

    // MARK: - Optional key dictionaries

    /// `fetchOne(_:key:)` and `filter(key:)` take an optional dictionary, as
    /// in GRDB: nil finds nothing.
    @Test func optionalKeyDictionaries() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let present: [String: (any DatabaseValueConvertible)?]? = ["code": "g2"]
            let absent: [String: (any DatabaseValueConvertible)?]? = nil

            #expect(try Gadget.fetchOne(db, key: present)?.id == 2)
            #expect(try Gadget.fetchOne(db, key: absent) == nil)

            #expect(try Gadget.filter(key: present).fetchAll(db).map(\.id) == [2])
            #expect(try Gadget.filter(key: absent).fetchCount(db) == 0)
            #expect(try Gadget.all().filter(key: present).fetchAll(db).map(\.id) == [2])
            #expect(try Gadget.all().filter(key: absent).fetchCount(db) == 0)
            #expect(try Table<Gadget>("gadget").filter(key: present).fetchOne(db)?.id == 2)
            #expect(try Table("gadget").filter(key: absent).fetchCount(db) == 0)
        }
    }

    // MARK: - Query interface

    /// `allColumns(excluding:)` also takes columns, as in GRDB.
    @Test func allColumnsExcludingColumns() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let row = try Gadget.select(.allColumns(excluding: [Column("size")]))
                .filter(Column("id") == 1)
                .asRequest(of: Row.self)
                .fetchOne(db)
            #expect(row == ["id": 1, "code": "g1"])
        }
    }

    /// The static `order(_:)` of a record type takes an array, as in GRDB.
    @Test func staticOrderWithArray() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let terms: [any SQLOrderingTerm] = [Column("size").desc, Column("id")]
            #expect(try Gadget.order(terms).fetchAll(db).map(\.id) == [2, 3, 1])
            #expect(try Gadget.order([Column("size")]).fetchAll(db).map(\.id) == [1, 3, 2])
        }
    }

    /// The static `annotated(with:)` of a record type takes an array of
    /// association aggregates, as in GRDB.
    @Test func staticAnnotatedWithArrayOfAggregates() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let aggregates = [Gadget.pieces.count.forKey("pieceCount")]
            let rows = try Gadget.annotated(with: aggregates)
                .order(Column("id"))
                .asRequest(of: Row.self)
                .fetchAll(db)
            #expect(rows.map { $0["pieceCount"] as Int } == [2, 0, 1])
        }
    }

    // MARK: - Functions

    /// `DatabaseFunction` takes its argument count as an `Int`, as in GRDB.
    @Test func functionArgumentCountIsAnInt() throws {
        let dbQueue = try DatabaseQueue()
        let arity: Int = 2
        let join = DatabaseFunction("joinPair", argumentCount: arity, pure: true) { values in
            values.compactMap { String.fromDatabaseValue($0) }.joined(separator: "+")
        }
        struct Longest: DatabaseAggregate {
            var longest = ""
            mutating func step(_ dbValues: [DatabaseValue]) {
                if let text = String.fromDatabaseValue(dbValues[0]), text.count > longest.count { longest = text }
            }
            func finalize() -> (any DatabaseValueConvertible)? { longest }
        }
        let longest = DatabaseFunction("longest", argumentCount: arity - 1, aggregate: Longest.self)
        try dbQueue.write { db throws in
            db.add(function: join)
            db.add(function: longest)
            #expect(try String.fetchOne(db, sql: "SELECT joinPair('a', 'b')") == "a+b")
            #expect(try String.fetchOne(db, sql: "SELECT longest(x) FROM (SELECT 'ab' AS x UNION ALL SELECT 'abcd')") == "abcd")
        }
    }

    // MARK: - Writers

    /// `writeWithoutTransaction(_:)` rethrows, as in GRDB: a closure that
    /// does not throw needs no `try`, through a generic or existential
    /// writer too.
    @Test func writeWithoutTransactionWithoutTryThroughProtocols() throws {
        let dbQueue = try makeDatabase()
        func changes(_ writer: some DatabaseWriter) -> Int {
            writer.writeWithoutTransaction { db in db.totalChangesCount }
        }
        let existential: any DatabaseWriter = dbQueue
        let inTransaction = existential.writeWithoutTransaction { db in db.isInsideTransaction }
        #expect(changes(dbQueue) == 6) // the six rows of makeDatabase()
        #expect(inTransaction == false)
    }

    // MARK: - Closures of the request methods

    /// The closures of `filter`, `order`, `select`, `annotated`, `group` and
    /// `having` may return existentials, as in GRDB.
    @Test func requestClosuresReturnExistentials() throws {
        let dbQueue = try makeDatabase()
        let predicate: any SQLSpecificExpressible = Column("size") >= 20
        let ordering: any SQLOrderingTerm = Column("size").desc
        let selection: any SQLSelectable = Column("code")
        let grouping: any SQLExpressible = Column("gadgetId")
        try dbQueue.read { db throws in
            #expect(try Gadget.filter { _ in predicate }.order { _ in ordering }.fetchAll(db).map(\.id) == [2, 3])
            #expect(try Gadget.all().filter { _ in predicate }.fetchCount(db) == 2)
            #expect(try Gadget.all().order { _ in ordering }.fetchAll(db).map(\.id) == [2, 3, 1])
            #expect(try Gadget.all().select { _ in selection }.order(Column("id")).asRequest(of: String.self).fetchAll(db)
                == ["g1", "g2", "g3"])
            let annotated = try Gadget.all().annotated { _ in (Column("size") * 2) as any SQLSelectable }
                .filter(Column("id") == 1).asRequest(of: Row.self).fetchOne(db)
            #expect(annotated?[3] as Int? == 20)
            let groups = try Piece.all().select(Column("gadgetId")).group { _ in grouping }
                .having { _ in (count(Column("id")) > 1) as any SQLExpressible }
                .asRequest(of: Int64.self).fetchAll(db)
            #expect(groups == [1])
        }
    }

    // MARK: - ValueObservation

    /// Receives the text of an observation's `print`. Sendable, so that the
    /// test can read it after the stream was sent to the observation.
    final class PrintSink: Sendable {
        let lines = Locked<[String]>([])
    }

    /// A stream that is not Sendable, as the streams of apps often are.
    struct NonSendableStream: TextOutputStream {
        let sink: PrintSink
        var history = NonSendableHistory()
        mutating func write(_ string: String) {
            history.count += 1
            sink.lines.withLock { $0.append(string) }
        }
    }

    final class NonSendableHistory {
        var count = 0
    }

    /// `print(_:to:)` takes a stream that is not Sendable, as in GRDB.
    @Test func printToNonSendableStream() async throws {
        let dbQueue = try makeDatabase()
        let sink = PrintSink()
        let observation = ValueObservation
            .tracking { db in try Gadget.fetchCount(db) }
            .print("gadgets", to: NonSendableStream(sink: sink))
        for try await count in observation.values(in: dbQueue) {
            #expect(count == 3)
            break
        }
        let lines = sink.lines.withLock { $0 }
        #expect(lines.contains("gadgets: start"))
        #expect(lines.contains("gadgets: value: 3"))
    }

    /// Compares text without regard to case; a class, thus not Sendable.
    final class CaseInsensitiveRule {
        func same(_ a: String?, _ b: String?) -> Bool { a?.lowercased() == b?.lowercased() }
    }

    /// `removeDuplicates(by:)` takes a closure that is not Sendable, as
    /// in GRDB.
    @Test func removeDuplicatesWithNonSendablePredicate() async throws {
        let dbQueue = try makeDatabase()
        let rule = CaseInsensitiveRule()
        let observation = ValueObservation
            .tracking { db in try String.fetchOne(db, sql: "SELECT code FROM gadget WHERE id = 1") }
            .removeDuplicates(by: { rule.same($0, $1) })
        var iterator = observation.values(in: dbQueue).makeAsyncIterator()
        #expect(try await iterator.next() == "g1")
        try await dbQueue.write { db in try db.execute(sql: "UPDATE gadget SET code = 'G1' WHERE id = 1") }
        try await dbQueue.write { db in try db.execute(sql: "UPDATE gadget SET code = 'other' WHERE id = 1") }
        #expect(try await iterator.next() == "other")
    }
}
