import Foundation
import Testing
import Cairn

/// The output of the dump methods and formats, as GRDB 7.8 prints it
/// (issue 51): code and tests written against GRDB compare this text.
///
/// The expected strings were worked out from GRDB's formats: line mode has
/// no empty line after a table name, blobs print as the text SQLite makes
/// of them in line and list modes, quote mode prints values as SQLite's
/// `quote()` does, the JSON encoder writes infinities as strings, and
/// columns named `grdb_…` are not printed.
@Suite struct GRDBDumpFormatTests {
    /// One table of assorted values, by rowid.
    func makeValues() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE sample(label TEXT, value);
                INSERT INTO sample VALUES ('null', NULL);
                INSERT INTO sample VALUES ('int', -7);
                INSERT INTO sample VALUES ('int max', 9223372036854775807);
                INSERT INTO sample VALUES ('real', 1.5);
                INSERT INTO sample VALUES ('real big', 1e20);
                INSERT INTO sample VALUES ('real negative zero', -0.0);
                INSERT INTO sample VALUES ('real small', 1e-7);
                INSERT INTO sample VALUES ('real third', 1.0 / 3);
                INSERT INTO sample VALUES ('real infinite', -9e999);
                INSERT INTO sample VALUES ('text', 'l''été' || char(10) || 'fin');
                INSERT INTO sample VALUES ('blob empty', x'');
                INSERT INTO sample VALUES ('blob utf8', CAST('日本' AS BLOB));
                INSERT INTO sample VALUES ('blob binary', x'41FF00420043');
                """)
        }
        return dbQueue
    }

    func output(_ dbQueue: DatabaseQueue, _ body: (Database, DumpOutput) throws -> Void) throws -> String {
        let stream = DumpOutput()
        try dbQueue.write { db in try body(db, stream) }
        return stream.text
    }

    func dump(_ sql: SQL, format: some DumpFormat) throws -> String {
        try output(makeValues()) { db, stream in
            try db.dumpSQL(sql, format: format, to: stream)
        }
    }

    // MARK: Values

    @Test func listPrintsBlobsAsSQLiteText() throws {
        let text = try dump("SELECT label, value FROM sample ORDER BY rowid", format: .list())
        // Doubles as Swift describes them; blobs up to their first NUL
        // byte, invalid UTF-8 replaced.
        #expect(text == """
            null|
            int|-7
            int max|9223372036854775807
            real|1.5
            real big|1e+20
            real negative zero|-0.0
            real small|1e-07
            real third|0.3333333333333333
            real infinite|-inf
            text|l'été
            fin
            blob empty|
            blob utf8|日本
            blob binary|A\u{FFFD}

            """)
    }

    @Test func linePrintsBlobsAsSQLiteText() throws {
        let text = try dump("SELECT value FROM sample WHERE label LIKE 'blob%' ORDER BY rowid", format: .line())
        #expect(text == "value = \n\nvalue = 日本\n\nvalue = A\u{FFFD}\n")
    }

    @Test func debugKeepsItsReadableBlobs() throws {
        let text = try dump("SELECT value FROM sample WHERE label LIKE 'blob%' OR label = 'real big' ORDER BY rowid", format: .debug())
        #expect(text == "1e+20\n\n日本\nX'41FF00420043'\n")
    }

    @Test func quotePrintsValuesAsSQLiteQuotes() throws {
        let text = try dump("SELECT label, value FROM sample ORDER BY rowid", format: .quote(header: true))
        #expect(text == """
            'label','value'
            'null',NULL
            'int',-7
            'int max',9223372036854775807
            'real',1.5
            'real big',1.0e+20
            'real negative zero',0.0
            'real small',1.0e-07
            'real third',3.333333333333333148e-01
            'real infinite',-9.0e+999
            'text','l''été
            fin'
            'blob empty',X''
            'blob utf8',X'E697A5E69CAC'
            'blob binary',X'41FF00420043'

            """)
        // The same text as SQLite's quote() function (which drops the sign
        // of -0.0, and writes nineteen digits when fifteen do not read back
        // as the same double).
        let sqliteQuotes = try makeValues().read { db in
            try String.fetchAll(db, sql: "SELECT quote(label) || ',' || quote(value) FROM sample ORDER BY rowid")
        }
        #expect(text == "'label','value'\n" + sqliteQuotes.map { $0 + "\n" }.joined())
    }

    @Test func jsonWritesInfinitiesAsStrings() throws {
        let text = try dump("SELECT value FROM sample WHERE label IN ('real big', 'real infinite') ORDER BY rowid", format: .json())
        #expect(text == #"[{"value":1e+20},"# + "\n" + #"{"value":"-inf"}]"# + "\n")
        let encoder = JSONDumpFormat.defaultEncoder
        let strategy = encoder.nonConformingFloatEncodingStrategy
        guard case let .convertToString(positive, negative, nan) = strategy else {
            Issue.record("unexpected strategy \(strategy)")
            return
        }
        #expect([positive, negative, nan] == ["inf", "-inf", "nan"])
    }

    @Test func jsonPrettyPrintedWithoutColumns() throws {
        let encoder = JSONDumpFormat.defaultEncoder
        encoder.outputFormatting = .prettyPrinted
        let text = try dump("SELECT 1 AS grdb_hidden", format: .json(encoder: encoder))
        #expect(text == "[\n  {\n  }\n]\n")
    }

    // MARK: Hidden columns

    @Test func columnsOfGRDBAreNotPrinted() throws {
        let sql: SQL = "SELECT 1 AS a, 2 AS grdb_key, 3 AS b"
        #expect(try dump(sql, format: .debug(header: true)) == "a|b\n1|3\n")
        #expect(try dump(sql, format: .list(header: true)) == "a|b\n1|3\n")
        #expect(try dump(sql, format: .quote(header: true)) == "'a','b'\n1,3\n")
        #expect(try dump(sql, format: .line()) == "a = 1\nb = 3\n")
        #expect(try dump(sql, format: .json()) == #"[{"a":1,"b":3}]"# + "\n")
        // A name that only looks alike is printed.
        #expect(try dump("SELECT 1 AS GRDB_key, 2 AS xgrdb_", format: .list()) == "1|2\n")
        // A row of hidden columns only: nothing in line mode.
        #expect(try dump("SELECT 1 AS grdb_a; SELECT 2 AS b", format: .line()) == "b = 2\n")
    }

    // MARK: Line mode and tables

    func makeTables() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE color(id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE empty(id INTEGER PRIMARY KEY);
                CREATE TABLE shape(name TEXT PRIMARY KEY, sides INT);
                INSERT INTO color VALUES (2, 'blue'), (1, 'red');
                INSERT INTO shape VALUES ('square', 4), ('triangle', 3);
                """)
        }
        return dbQueue
    }

    @Test func lineModeHasNoEmptyLineAfterTableNames() throws {
        let text = try output(makeTables()) { db, stream in
            try db.dumpTables(["color", "empty", "shape"], format: .line(), to: stream)
        }
        #expect(text == """
            color
              id = 1
            name = red

              id = 2
            name = blue

            empty

            shape
             name = square
            sides = 4

             name = triangle
            sides = 3

            """)
    }

    @Test func lineModeWithOneTableHasNoHeader() throws {
        let text = try output(makeTables()) { db, stream in
            try db.dumpTables(["shape"], format: .line(), to: stream)
        }
        #expect(text == " name = square\nsides = 4\n\n name = triangle\nsides = 3\n")
        let always = try output(makeTables()) { db, stream in
            try db.dumpTables(["shape"], format: .line(), tableHeader: .always, to: stream)
        }
        #expect(always == "shape\n name = square\nsides = 4\n\n name = triangle\nsides = 3\n")
    }

    @Test func lineModeSeparatesStatements() throws {
        let text = try output(makeTables()) { db, stream in
            try db.dumpSQL("SELECT 1 AS a; SELECT 2 AS a WHERE 0; SELECT 3 AS b, 4 AS c", format: .line(), to: stream)
        }
        #expect(text == "a = 1\n\nb = 3\nc = 4\n")
    }

    @Test func headersAndEmptyTablesInListAndJSON() throws {
        let list = try output(makeTables()) { db, stream in
            try db.dumpTables(["empty", "color"], format: .list(header: true), to: stream)
        }
        #expect(list == "empty\n\ncolor\nid|name\n1|red\n2|blue\n")
        let json = try output(makeTables()) { db, stream in
            try db.dumpTables(["empty", "color"], format: .json(), to: stream)
        }
        #expect(json == "empty\n[]\n\ncolor\n" + #"[{"id":1,"name":"red"},"# + "\n" + #"{"id":2,"name":"blue"}]"# + "\n")
    }

    @Test func contentInLineMode() throws {
        let text = try output(makeTables()) { db, stream in
            try db.dumpContent(format: .line(), to: stream)
        }
        #expect(text == """
            sqlite_master
            CREATE TABLE color(id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE empty(id INTEGER PRIMARY KEY);
            CREATE TABLE shape(name TEXT PRIMARY KEY, sides INT);

            color
              id = 1
            name = red

              id = 2
            name = blue

            empty

            shape
             name = square
            sides = 4

             name = triangle
            sides = 3

            """)
    }

    // MARK: The schema of dumpContent

    @Test func contentOrdersTriggersBeforeViewsOfTheSameName() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE item(name TEXT);
                CREATE VIEW shelf AS SELECT name FROM item;
                CREATE TRIGGER shelf_insert INSTEAD OF INSERT ON shelf BEGIN INSERT INTO item VALUES (new.name); END;
                """)
        }
        let text = try output(dbQueue) { db, stream in try db.dumpContent(to: stream) }
        #expect(text == """
            sqlite_master
            CREATE TABLE item(name TEXT);
            CREATE TRIGGER shelf_insert INSTEAD OF INSERT ON shelf BEGIN INSERT INTO item VALUES (new.name); END;
            CREATE VIEW shelf AS SELECT name FROM item;

            item

            """)
    }

    @Test func contentLeavesOutObjectsByTheirOwnName() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE grdb_cache(key TEXT);
                CREATE INDEX cache_by_key ON grdb_cache(key);
                CREATE TABLE GRDB_Upper(a);
                """)
        }
        let text = try output(dbQueue) { db, stream in try db.dumpContent(to: stream) }
        // The index on an internal table has a name of its own; the prefix
        // is compared with its case.
        #expect(text == """
            sqlite_master
            CREATE INDEX cache_by_key ON grdb_cache(key);
            CREATE TABLE GRDB_Upper(a);

            GRDB_Upper

            """)
    }

    // MARK: Formats and the stream

    /// A format that counts the rows of each statement.
    struct RowCounter: DumpFormat {
        var count = 0
        mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
            count += 1
        }
        mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
            stream.margin()
            stream.write("\(count)")
        }
    }

    @Test func eachStatementStartsFromTheGivenFormat() throws {
        // The count never carries over to the next statement, and a margin
        // is one line feed before the next text, even at the start.
        let text = try output(DatabaseQueue()) { db, stream in
            try db.dumpSQL("SELECT 1 UNION ALL SELECT 2; SELECT 3", format: RowCounter(), to: stream)
        }
        #expect(text == "\n2\n1")
        let tables = try output(makeTables()) { db, stream in
            try db.dumpTables(["color", "shape"], format: RowCounter(count: 10), to: stream)
        }
        #expect(tables == "color\n\n12\nshape\n\n12")
    }

    /// A format that asks for margins around text that starts with a line
    /// feed.
    struct MarginFormat: DumpFormat {
        mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
            stream.margin()
            stream.margin()
            stream.write("")
            stream.write("\nrow")
        }
        mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) { }
    }

    @Test func aMarginIsNotAddedBeforeALineFeed() throws {
        let text = try output(DatabaseQueue()) { db, stream in
            try db.dumpSQL("SELECT 1 UNION ALL SELECT 2", format: MarginFormat(), to: stream)
        }
        #expect(text == "\nrow\nrow")
    }
}
