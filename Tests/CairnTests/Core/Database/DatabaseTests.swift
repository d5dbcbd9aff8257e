import Foundation
import Testing
import Cairn

@Suite struct DatabaseTests {
    @Test func executeSeveralStatementsWithArguments() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT);
                INSERT INTO player (name, score) VALUES (?, ?);
                INSERT INTO player (name, score) VALUES (:name, :score);
                """, arguments: StatementArguments(["Arthur", 750]) + ["name": "Barbara", "score": 1000])
            let rows = try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY id")
            #expect(rows == [["name": "Arthur", "score": 750], ["name": "Barbara", "score": 1000]])
        }
    }

    @Test func connectionCounters() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: createPlayerTableSQL)
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            #expect(db.lastInsertedRowID == 1)
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
            #expect(db.lastInsertedRowID == 2)
            #expect(db.changesCount == 1)
            try db.execute(sql: "UPDATE player SET score = 0")
            #expect(db.changesCount == 2)
            #expect(db.totalChangesCount == 4)
            #expect(db.isInsideTransaction)
        }
        try dbQueue.inDatabase { db throws in
            #expect(!db.isInsideTransaction)
            #expect(db.sqliteConnection != nil)
        }
    }

    @Test func executeLiteralBindsInterpolatedValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: createPlayerTableSQL)
            let name = "O'Brien'); DROP TABLE player; --"
            let score = 42
            try db.execute(literal: "INSERT INTO player (name, score) VALUES (\(name), \(score))")
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == name)
            #expect(try db.tableExists("player"))

            let query: SQL = "UPDATE player SET name = \(name) WHERE id = \(1)"
            let (sql, arguments) = try query.build(db)
            #expect(sql == "UPDATE player SET name = ? WHERE id = ?")
            #expect(arguments == [name, 1])
        }
    }

    /// Generic code that only knows `some SQLExpressible` interpolates it:
    /// values become arguments, columns and operations render as SQL.
    @Test func sqlLiteralInterpolatesAnySQLExpressible() throws {
        func selecting(_ expression: some SQLExpressible) -> SQL { "SELECT \(expression)" }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: createPlayerTableSQL)
            let value = try selecting(42).build(db)
            #expect(value.sql == "SELECT ?")
            #expect(value.arguments == [42])
            let optional: Int? = nil
            #expect(try Int.fetchOne(db.makeStatement(literal: selecting(optional))) == nil)
            #expect(try selecting(Column("score") + 1).build(db).sql == "SELECT \"score\" + ?")
            let literal: SQL = "\(1) + \(2)"
            #expect(try Int.fetchOne(db.makeStatement(literal: selecting(literal))) == 3)
            // Data stays one BLOB argument, not a list of bytes.
            let blob = Data([1, 2, 3])
            let data: SQL = "SELECT \(blob)"
            #expect(try data.build(db).arguments == [blob])
        }
    }

    @Test func sqlLiteralComposition() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: createPlayerTableSQL)
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30)")
            let ids = [1, 3]
            let condition: SQL = "score > \(5)"
            let conditions: [SQL] = [condition, "id IN \(ids)"]
            let query: SQL = "SELECT name FROM player WHERE \(literal: conditions.joined(separator: " AND ")) ORDER BY id"
            #expect(try query.build(db).sql == "SELECT name FROM player WHERE score > ? AND id IN (?,?) ORDER BY id")
            let statement = try db.makeStatement(literal: query)
            #expect(try String.fetchAll(statement) == ["a", "c"])

            let empty: [Int] = []
            #expect(try Int.fetchAll(db.makeStatement(literal: "SELECT id FROM player WHERE id IN \(empty)")).isEmpty)

            let raw: SQL = "SELECT \(sql: "? + ?", arguments: [1, 2])"
            #expect(try Int.fetchOne(db.makeStatement(literal: raw)) == 3)

            var appended = SQL(sql: "SELECT ")
            appended += "\(40) + \(2)"
            #expect(try Int.fetchOne(db.cachedStatement(literal: appended)) == 42)

            let blob = Data([1, 2, 3])
            #expect(try Data.fetchOne(db.makeStatement(literal: "SELECT \(blob)")) == blob)
        }
    }

    @Test func makeStatementRejectsSeveralStatementsAndEmptySQL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            #expect(throws: DatabaseError.self) { try db.makeStatement(sql: "SELECT 1; SELECT 2") }
            #expect(throws: DatabaseError.self) { try db.makeStatement(sql: "  -- comment only") }
            // Trailing semicolons, whitespace and comments are fine.
            let statement = try db.makeStatement(sql: "  SELECT 1;  -- comment\n ")
            #expect(statement.sql == "SELECT 1")
        }
    }

    @Test func cachedStatementsAreReusedUnlessBusy() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            let sql = "SELECT 1 UNION ALL SELECT 2"
            let statement1 = try db.cachedStatement(sql: sql)
            let statement2 = try db.cachedStatement(sql: sql)
            #expect(statement1 === statement2)

            // While a cursor iterates the cached statement, a new one is given.
            let cursor = try Row.fetchCursor(statement1)
            _ = try cursor.next()
            let statement3 = try db.cachedStatement(sql: sql)
            #expect(statement3 !== statement1)
            #expect(try Int.fetchAll(db, sql: sql) == [1, 2])
            #expect(try cursor.next()?[0] as Int? == 2)

            // A cursor that has not stepped yet is not disturbed either.
            let argumentSQL = "SELECT ?"
            let pending = try Int.fetchCursor(db, sql: argumentSQL, arguments: [1])
            #expect(try Int.fetchOne(db, sql: argumentSQL, arguments: [2]) == 2)
            #expect(try pending.next() == 1)
        }
    }

    @Test func invalidSQLThrowsAndWritesNothing() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: createPlayerTableSQL) }
        #expect {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('a'); INSERT INTO player (name) VALUS ('b')")
            }
        } throws: { error in
            guard let error = error as? DatabaseError else { return false }
            return error.resultCode == .SQLITE_ERROR
                && error.message == "near \"VALUS\": syntax error"
                && error.sql == "INSERT INTO player (name) VALUS ('b')"
        }
        // Even outside of a transaction, the first statement did not run.
        #expect(throws: DatabaseError.self) {
            try dbQueue.inDatabase { db throws in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('a'); SELEC 1")
            }
        }
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
        }
    }

    @Test func statementsThatDependOnEarlierStatements() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE t(a);
                INSERT INTO t(a) VALUES (?);
                CREATE INDEX ta ON t(a);
                INSERT INTO t(a) VALUES (:value)
                """, arguments: [1] + ["value": 2])
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") == [1, 2])
        }
        // An argument error in a dependent script rolls back with the write.
        #expect(throws: DatabaseError.self) {
            try dbQueue.write { db throws in
                try db.execute(sql: "CREATE TABLE u(a); INSERT INTO u(a) VALUES (?)", arguments: [])
            }
        }
        try dbQueue.read { db throws in #expect(try !db.tableExists("u")) }
    }

    /// Scripts whose statements depend on the schema changes of earlier
    /// ones run, whatever the kind of dependency.
    @Test func scriptsThatRecreateAndAlterTables() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t(a); CREATE INDEX t_a ON t(a)")
            try db.execute(sql: """
                DROP TABLE t;
                CREATE TABLE t(a, b);
                DROP INDEX IF EXISTS t_a;
                CREATE INDEX t_a ON t(b);
                ALTER TABLE t ADD COLUMN c;
                INSERT INTO t(a, b, c) VALUES (?, ?, ?)
                """, arguments: [1, 2, 3])
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM t") == ["a": 1, "b": 2, "c": 3])
        }
        // A syntax error in a later statement still throws before anything
        // runs.
        #expect(throws: DatabaseError.self) {
            try dbQueue.writeWithoutTransaction { db throws in
                try db.execute(sql: "DROP TABLE t; CREATE TABLE (")
            }
        }
        try dbQueue.read { db throws in #expect(try db.tableExists("t")) }
    }

    /// A script whose statements depend on earlier ones runs them one after
    /// the other in a savepoint: whatever fails (invalid SQL, a missing
    /// table, a constraint, arguments), nothing of the script remains.
    @Test(arguments: [
        "CREATE TABLE u(a); INSERT INTO u(a) VALUES (1); SELEC 1",
        "CREATE TABLE u(a); INSERT INTO u(a) VALUES (1); INSERT INTO missing VALUES (1)",
        "CREATE TABLE u(a); INSERT INTO u(a) VALUES (1); CREATE TABLE (",
        "CREATE TABLE u(a UNIQUE); INSERT INTO u(a) VALUES (1); INSERT INTO u(a) VALUES (1)",
        "CREATE TABLE u(a); INSERT INTO u(a) VALUES (1); INSERT INTO u(a) VALUES (?)",
    ])
    func failedDependentScriptsLeaveNothing(sql: String) throws {
        let dbQueue = try DatabaseQueue()
        // Outside of a transaction.
        #expect(throws: DatabaseError.self) {
            try dbQueue.inDatabase { db throws in try db.execute(sql: sql) }
        }
        try dbQueue.inDatabase { db throws in
            #expect(try !db.tableExists("u"))
            #expect(!db.isInsideTransaction)
        }
        // Inside a transaction that goes on after the error.
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE kept(a)")
            #expect(throws: DatabaseError.self) { try db.execute(sql: sql) }
            #expect(try !db.tableExists("u"))
            try db.execute(sql: "INSERT INTO kept(a) VALUES (1)")
        }
        try dbQueue.read { db throws in
            #expect(try !db.tableExists("u"))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM kept") == 1)
        }
    }

    /// Statements that manage transactions, or that cannot run inside one,
    /// still run in a dependent script; an error after one of them comes
    /// after what ran before it, as documented.
    @Test func dependentScriptsWithStatementsThatNeedNoTransaction() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: """
                ATTACH DATABASE ':memory:' AS aux;
                CREATE TABLE aux.t(a);
                INSERT INTO aux.t(a) VALUES (1)
                """)
            #expect(try Int.fetchOne(db, sql: "SELECT a FROM aux.t") == 1)
            try db.execute(sql: "CREATE TABLE v(a); INSERT INTO v(a) VALUES (1); VACUUM")
            try db.execute(sql: "BEGIN; CREATE TABLE w(a); INSERT INTO w(a) VALUES (1); COMMIT")
            #expect(!db.isInsideTransaction)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM v") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM w") == 1)

            // The pragma runs outside of the savepoint: the table created
            // before it stays.
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "CREATE TABLE x(a); INSERT INTO x VALUES (1); PRAGMA user_version = 5; SELEC")
            }
            #expect(try db.tableExists("x"))
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == 5)
            #expect(!db.isInsideTransaction)
        }
        // Inside a transaction, a COMMIT of the script ends it, and keeps
        // its changes; the block, whose transaction is gone, then ends with
        // SQLITE_ABORT, as in GRDB.
        #expect {
            try dbQueue.write { db throws in
                try db.execute(sql: "CREATE TABLE y(a); INSERT INTO y(a) VALUES (1); COMMIT")
            }
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_ABORT
        }
        try dbQueue.read { db throws in #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM y") == 1) }
    }

    @Test func unknownTableAndColumn() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: createPlayerTableSQL)
            #expect {
                try db.execute(sql: "SELECT * FROM missing")
            } throws: { error in
                (error as? DatabaseError)?.message == "no such table: missing"
            }
            #expect {
                try Row.fetchAll(db, sql: "SELECT unknown FROM player")
            } throws: { error in
                (error as? DatabaseError)?.message == "no such column: unknown"
            }
            // Double-quoted strings are identifiers, not strings.
            #expect {
                try Row.fetchAll(db, sql: "SELECT * FROM player WHERE name = \"Arthur\"")
            } throws: { error in
                (error as? DatabaseError)?.message?.hasPrefix("no such column: \"Arthur\"") == true
            }
            // The connection stays usable.
            try db.execute(sql: "INSERT INTO player (name) VALUES ('ok')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 1)
        }
    }

    @Test func schemaIntrospection() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT 'anonymous', email TEXT UNIQUE);
                CREATE TABLE book (
                    isbn TEXT NOT NULL,
                    edition INT NOT NULL,
                    authorId INTEGER REFERENCES author,
                    coauthorEmail TEXT REFERENCES author(email),
                    title TEXT,
                    PRIMARY KEY (isbn, edition));
                CREATE INDEX bookTitle ON book(title);
                CREATE TABLE note (content TEXT);
                CREATE TABLE tag (name TEXT PRIMARY KEY) WITHOUT ROWID;
                CREATE VIEW authorName AS SELECT name FROM author;
                """)
            #expect(try db.tableExists("author"))
            #expect(try db.tableExists("AUTHOR"))
            #expect(try !db.tableExists("missing"))
            #expect(try db.viewExists("authorName"))
            #expect(try !db.tableExists("authorName"))

            let columns = try db.columns(in: "author")
            #expect(columns.map(\.name) == ["id", "name", "email"])
            #expect(columns.map(\.type) == ["INTEGER", "TEXT", "TEXT"])
            #expect(columns.map(\.isNotNull) == [false, true, false])
            #expect(columns[1].defaultValueSQL == "'anonymous'")
            #expect(columns.map(\.primaryKeyIndex) == [1, 0, 0])
            #expect(throws: DatabaseError.self) { try db.columns(in: "missing") }

            let authorKey = try db.primaryKey("author")
            #expect(authorKey.columns == ["id"])
            #expect(authorKey.rowIDColumn == "id")
            #expect(authorKey.isRowID)
            let bookKey = try db.primaryKey("book")
            #expect(bookKey.columns == ["isbn", "edition"])
            #expect(bookKey.rowIDColumn == nil)
            let noteKey = try db.primaryKey("note")
            #expect(noteKey.columns == ["rowid"])
            #expect(noteKey.isRowID)
            let tagKey = try db.primaryKey("tag")
            #expect(tagKey.columns == ["name"])
            #expect(tagKey.rowIDColumn == nil)
            #expect(throws: DatabaseError.self) { try db.primaryKey("missing") }

            let indexes = try db.indexes(on: "book").sorted { $0.name < $1.name }
            #expect(indexes.count == 2)
            #expect(indexes.first { $0.name == "bookTitle" }?.columns == ["title"])
            #expect(indexes.first { $0.name == "bookTitle" }?.origin == .createIndex)
            #expect(indexes.first { $0.origin == .primaryKeyConstraint }?.columns == ["isbn", "edition"])
            #expect(try db.table("author", hasUniqueKey: ["email"]))
            #expect(try db.table("author", hasUniqueKey: ["id"]))
            #expect(try !db.table("author", hasUniqueKey: ["name"]))
            #expect(try db.table("book", hasUniqueKey: ["edition", "isbn"]))

            let foreignKeys = try db.foreignKeys(on: "book")
            #expect(foreignKeys.count == 2)
            let byAuthor = try #require(foreignKeys.first { $0.originColumns == ["authorId"] })
            #expect(byAuthor.destinationTable == "author")
            #expect(byAuthor.destinationColumns == ["id"])
            let byEmail = try #require(foreignKeys.first { $0.originColumns == ["coauthorEmail"] })
            #expect(byEmail.destinationColumns == ["email"])
        }
    }

    @Test func quotedDatabaseIdentifier() {
        #expect("player".quotedDatabaseIdentifier == "\"player\"")
        #expect("a\"b".quotedDatabaseIdentifier == "\"a\"\"b\"")
    }
}

/// DROP VIEW drops the view, whatever the statement and the observers:
/// the authorizer, which turns off the truncate optimization of DELETE,
/// must not turn the drop into nothing.
@Suite struct DropViewTests {
    final class EverythingObserver: TransactionObserver, @unchecked Sendable {
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) { }
        func databaseDidCommit(_ db: Database) { }
        func databaseDidRollback(_ db: Database) { }
    }

    @Test(arguments: [false, true], [false, true])
    func dropViewDropsTheView(observed: Bool, prepared: Bool) throws {
        let dbQueue = try DatabaseQueue()
        if observed {
            dbQueue.add(transactionObserver: EverythingObserver(), extent: .databaseLifetime)
        }
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: """
                CREATE TABLE t(a);
                INSERT INTO t VALUES (1);
                CREATE VIEW v AS SELECT * FROM t;
                CREATE TEMPORARY VIEW tv AS SELECT * FROM t;
                """)
            #expect(try db.viewExists("v"))
            #expect(try db.viewExists("tv"))
            for (sql, name) in [("DROP VIEW v", "v"), ("DROP VIEW tv", "tv")] {
                if prepared {
                    let statement = try db.makeStatement(sql: sql)
                    try statement.execute()
                } else {
                    try db.execute(sql: sql)
                }
                #expect(try !db.viewExists(name))
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_temp_master WHERE name = ?", arguments: [name]) == 0)
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name = ?", arguments: [name]) == 0)
            }
            // The table is untouched.
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 1)
            // And the name can be used again.
            try db.execute(sql: "CREATE VIEW v AS SELECT a + 1 AS b FROM t")
            #expect(try Int.fetchOne(db, sql: "SELECT b FROM v") == 2)
        }
    }
}
