import Foundation
import Testing
import Cairn

/// The statements that Cairn prepares for SQL strings are reused through a
/// bounded cache (`Configuration.implicitStatementCacheCapacity`).
@Suite struct ImplicitStatementCacheTests {
    func makeQueue(capacity: Int? = nil) throws -> DatabaseQueue {
        var configuration = Configuration()
        if let capacity { configuration.implicitStatementCacheCapacity = capacity }
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, a)")
        }
        return dbQueue
    }

    @Test func executeAndFetchesReuseTheirStatements() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            for value in 0..<10 {
                try db.execute(sql: "INSERT INTO t (a) VALUES (?)", arguments: [value])
                _ = try Int.fetchOne(db, sql: "SELECT a FROM t WHERE id = ?", arguments: [value + 1])
                _ = try Table("t").filter(Column("a") > value).fetchAll(db)
            }
            let prepared = preparedSQL(db)
            #expect(prepared.filter { $0 == "INSERT INTO t (a) VALUES (?)" }.count == 1)
            #expect(prepared.filter { $0 == "SELECT a FROM t WHERE id = ?" }.count == 1)
            #expect(prepared.filter { $0 == #"SELECT * FROM "t" WHERE "a" > ?"# }.count == 1)
            // A prepared SQL request hands its statement out, with its
            // arguments: not shared with another one.
            let request = SQLRequest<Row>(sql: "SELECT ?", arguments: [1])
            let first = try request.makePreparedRequest(db, forSingleResult: false)
            let second = try request.makePreparedRequest(db, forSingleResult: false)
            #expect(first.statement !== second.statement)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 10)
        }
    }

    @Test func theCacheIsBoundedAndCanBeTurnedOff() throws {
        let bounded = try makeQueue(capacity: 4)
        try bounded.inDatabase { db throws in
            for value in 0..<20 {
                _ = try Int.fetchOne(db, sql: "SELECT \(value)")
            }
            // The four most recent ones.
            let selects = preparedSQL(db).filter { $0.hasPrefix("SELECT ") }
            #expect(Set(selects) == ["SELECT 16", "SELECT 17", "SELECT 18", "SELECT 19"])
        }
        let off = try makeQueue(capacity: 0)
        try off.inDatabase { db throws in
            for value in 0..<3 {
                try db.execute(sql: "INSERT INTO t (a) VALUES (?)", arguments: [value])
                _ = try Int.fetchOne(db, sql: "SELECT 1")
            }
            #expect(!preparedSQL(db).contains("INSERT INTO t (a) VALUES (?)"))
            #expect(!preparedSQL(db).contains("SELECT 1"))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 3)
        }
    }

    /// The statements of `cachedStatement(sql:)` share the connection's
    /// cache with the implicit ones, as entries of their own: the bound of
    /// the implicit statements never evicts them, and the same SQL gives
    /// two statements, one that keeps its arguments and one that releases
    /// them.
    @Test func explicitStatementsAreNotEvictedNorShared() throws {
        let dbQueue = try makeQueue(capacity: 2)
        try dbQueue.inDatabase { db throws in
            let explicit = try db.cachedStatement(sql: "SELECT ?")
            try explicit.setArguments([42])
            for value in 0..<10 {
                _ = try Int.fetchOne(db, sql: "SELECT \(value)")
                _ = try Int.fetchOne(db, sql: "SELECT ?", arguments: [value])
            }
            #expect(try db.cachedStatement(sql: "SELECT ?") === explicit)
            #expect(explicit.arguments == [42])
            #expect(try Int.fetchOne(explicit) == 42)
            let selects = preparedSQL(db).filter { $0.hasPrefix("SELECT ") }
            // The explicit one, and the two most recent implicit ones.
            #expect(selects.sorted() == ["SELECT 9", "SELECT ?", "SELECT ?"])
            db.clearStatementCache()
            #expect(try db.cachedStatement(sql: "SELECT ?") !== explicit)
        }
    }

    /// A statement that is running is never given to another user: a cursor
    /// that iterates the SQL, and a function that runs the same SQL while
    /// the statement runs, get statements of their own.
    @Test func runningStatementsAreNotReused() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "INSERT INTO t (a) VALUES (1), (2), (3)")
            let sql = "SELECT a FROM t ORDER BY id"
            let outer = try Int.fetchCursor(db, sql: sql)
            var pairs: [[Int]] = []
            while let a = try outer.next() {
                pairs.append([a] + (try Int.fetchAll(db, sql: sql)))
            }
            #expect(pairs == [[1, 1, 2, 3], [2, 1, 2, 3], [3, 1, 2, 3]])

            // A function that runs the statement that calls it. It runs
            // inside the access, on its thread: the connection is only
            // touched there.
            nonisolated(unsafe) let connection = db
            let reentrant = DatabaseFunction("reentrant", argumentCount: 1, pure: false) { values in
                guard let depth = Int.fromDatabaseValue(values[0]), depth > 0 else { return 0 }
                return try Int.fetchOne(connection, sql: "SELECT reentrant(?) + 1", arguments: [depth - 1])
            }
            db.add(function: reentrant)
            #expect(try Int.fetchOne(db, sql: "SELECT reentrant(?) + 1", arguments: [3]) == 4)
            try db.execute(sql: "UPDATE t SET a = reentrant(2) WHERE id = ?", arguments: [1])
            #expect(try Int.fetchOne(db, sql: "SELECT a FROM t WHERE id = 1") == 2)
        }
    }

    /// What Cairn reads from a statement (its columns, its region) follows
    /// the schema: a change of schema between two runs of the same SQL
    /// prepares it again.
    @Test func schemaChangesPrepareStatementsAgain() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
            let sql = "SELECT * FROM t"
            #expect(try Row.fetchOne(db, sql: sql)?.columnNames == ["id", "a"])
            #expect(try SQLRequest<Row>(sql: sql).databaseRegion(db).description == "t(a,id)")
            try db.execute(sql: "ALTER TABLE t ADD COLUMN b DEFAULT 'x'")
            #expect(try Row.fetchOne(db, sql: sql)?.columnNames == ["id", "a", "b"])
            #expect(try Row.fetchOne(db, sql: sql)?["b"] == "x")
            #expect(try SQLRequest<Row>(sql: sql).databaseRegion(db).description == "t(a,b,id)")
            try db.execute(sql: "DROP TABLE t; CREATE TABLE t (name TEXT)")
            try db.execute(sql: "INSERT INTO t (name) VALUES (?)", arguments: ["Arthur"])
            #expect(try Row.fetchOne(db, sql: sql)?.columnNames == ["name"])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM t") == ["Arthur"])
            // An INSERT prepared before the schema changed runs on the new one.
            try db.execute(sql: "DROP TABLE t; CREATE TABLE t (name TEXT, extra DEFAULT 7)")
            try db.execute(sql: "INSERT INTO t (name) VALUES (?)", arguments: ["Barbara"])
            #expect(try Int.fetchOne(db, sql: "SELECT extra FROM t") == 7)
        }
    }

    /// Observers keep seeing every change made with cached statements.
    @Test func observersSeeChangesOfCachedStatements() throws {
        let dbQueue = try makeQueue()
        let changes = Locked(0)
        let observation = DatabaseRegionObservation(tracking: Table("t"))
        let cancellable = observation.start(in: dbQueue, onError: { _ in }, onChange: { _ in
            changes.withLock { $0 += 1 }
        })
        for value in 0..<5 {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (?)", arguments: [value]) }
        }
        #expect(changes.withLock { $0 } == 5)
        cancellable.cancel()
    }

    /// Strings of several statements run as before, and are not cached as
    /// one statement.
    @Test func severalStatementsInOneString() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            let sql = "INSERT INTO t (a) VALUES (?); INSERT INTO t (a) VALUES (?)"
            try db.execute(sql: sql, arguments: [1, 2])
            try db.execute(sql: sql, arguments: [3, 4])
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY id") == [1, 2, 3, 4])
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: sql, arguments: [5])
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 4)
            #expect(!preparedSQL(db).contains { $0.contains("; INSERT") })
        }
    }

    /// A cached statement does not keep the values it ran with: a large
    /// blob is released after the execution, by Swift and by SQLite.
    @Test func cachedStatementsReleaseTheirArguments() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            let blob = Data(repeating: 0xAB, count: 1_000_000)
            try db.execute(sql: "INSERT INTO t (a) VALUES (?)", arguments: [blob])
            _ = try Row.fetchAll(db, sql: "SELECT id FROM t WHERE a = ?", arguments: [blob])
            for sql in ["INSERT INTO t (a) VALUES (?)", "SELECT id FROM t WHERE a = ?"] {
                var statement = sqlite3_next_stmt(db.sqliteConnection, nil)
                var found = false
                while let current = statement {
                    if sqlite3_sql(current).map({ String(cString: $0) }) == sql {
                        found = true
                        // A cleared parameter reads as NULL.
                        let expanded = sqlite3_expanded_sql(current).map { pointer in
                            defer { sqlite3_free(pointer) }
                            return String(cString: pointer)
                        }
                        #expect(expanded?.contains("NULL") == true && expanded?.contains("x'") == false, "\(sql)")
                    }
                    statement = sqlite3_next_stmt(db.sqliteConnection, current)
                }
                #expect(found, "\(sql)")
            }
            // The cached statements run again with new values.
            try db.execute(sql: "INSERT INTO t (a) VALUES (?)", arguments: ["small"])
            #expect(try Row.fetchAll(db, sql: "SELECT id FROM t WHERE a = ?", arguments: ["small"]).count == 1)
        }
    }

    /// A lookup by primary key binds its key without an array of
    /// arguments: integer and text keys find their rows, and a text key is
    /// not kept by the cached statement after the lookup.
    @Test func keyLookupsBindTheirKeyAndReleaseIt() throws {
        struct Item: FetchableRecord, TableRecord {
            static let databaseTableName = "item"
            var name: String
            init(row: Row) { name = row["name"] }
        }
        struct Word: FetchableRecord, TableRecord {
            static let databaseTableName = "word"
            var text: String
            var rank: Int
            init(row: Row) { text = row["text"]; rank = row["rank"] }
        }
        let dbQueue = try makeQueue()
        let longWord = String(repeating: "long key ", count: 1000)
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                INSERT INTO item VALUES (1, 'one'), (2, 'two');
                CREATE TABLE word (text TEXT PRIMARY KEY, rank INTEGER NOT NULL);
                """)
            try db.execute(sql: "INSERT INTO word VALUES (?, ?), ('short', 2)", arguments: [longWord, 1])
            #expect(try Item.fetchOne(db, key: 2)?.name == "two")
            #expect(try Item.fetchOne(db, key: Int64(1))?.name == "one")
            #expect(try Item.fetchOne(db, key: 3) == nil)
            #expect(try Word.fetchOne(db, key: "short")?.rank == 2)
            #expect(try Word.fetchOne(db, key: longWord)?.rank == 1)
            #expect(try Word.fetchOne(db, key: "missing") == nil)

            // The lookup statement of `word` keeps no copy of the text key.
            let lookups = preparedSQL(db).filter { $0.hasPrefix(#"SELECT * FROM "word""#) }
            #expect(lookups.count == 1)
            var statement = sqlite3_next_stmt(db.sqliteConnection, nil)
            while let current = statement {
                if sqlite3_sql(current).map({ String(cString: $0) })?.hasPrefix(#"SELECT * FROM "word""#) == true {
                    let expanded = sqlite3_expanded_sql(current).map { pointer in
                        defer { sqlite3_free(pointer) }
                        return String(cString: pointer)
                    }
                    #expect(expanded?.hasSuffix("= NULL") == true)
                }
                statement = sqlite3_next_stmt(db.sqliteConnection, current)
            }
        }
    }
}
