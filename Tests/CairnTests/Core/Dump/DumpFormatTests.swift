import Foundation
import Testing
import Cairn

/// The output of each dump format, and the stream that formats write to.
@Suite struct DumpFormatTests {
    /// A database with one table of assorted values, in the order of
    /// their rowid.
    func makeValuesQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE value(name TEXT, value)")
            try db.execute(sql: """
                INSERT INTO value VALUES ('integer', 42);
                INSERT INTO value VALUES ('double', -1.0);
                INSERT INTO value VALUES ('big double', 1e100);
                INSERT INTO value VALUES ('infinity', 9e999);
                INSERT INTO value VALUES ('text', 'it''s');
                INSERT INTO value VALUES ('multiline', 'a' || char(10) || 'b');
                INSERT INTO value VALUES ('null', NULL);
                INSERT INTO value VALUES ('utf8 blob', CAST('héllo' AS BLOB));
                INSERT INTO value VALUES ('empty blob', x'');
                INSERT INTO value VALUES ('binary blob', x'80FF');
                INSERT INTO value VALUES ('uuid blob', x'69BF8A9CD9F04777BD1193451D84CBCF');
                """)
        }
        return dbQueue
    }

    func dump(_ dbQueue: DatabaseQueue, _ sql: SQL, format: some DumpFormat) throws -> String {
        let output = DumpOutput()
        try dbQueue.write { db in
            try db.dumpSQL(sql, format: format, to: output)
        }
        return output.text
    }

    // MARK: Debug

    @Test func debugRendersValuesForDevelopers() throws {
        let output = try dump(makeValuesQueue(), "SELECT * FROM value ORDER BY rowid", format: .debug())
        #expect(output == """
            integer|42
            double|-1.0
            big double|1e+100
            infinity|inf
            text|it's
            multiline|a
            b
            null|
            utf8 blob|héllo
            empty blob|
            binary blob|X'80FF'
            uuid blob|69BF8A9C-D9F0-4777-BD11-93451D84CBCF

            """)
    }

    @Test func debugOptions() throws {
        let dbQueue = try makeValuesQueue()
        let sql: SQL = "SELECT name, value FROM value WHERE name IN ('integer', 'null') ORDER BY rowid"
        #expect(try dump(dbQueue, sql, format: .debug(header: true, separator: " | ", nullValue: "NULL")) == """
            name | value
            integer | 42
            null | NULL

            """)
        #expect(try dump(dbQueue, sql, format: DebugDumpFormat()) == "integer|42\nnull|\n")
        // No row, no header.
        #expect(try dump(dbQueue, "SELECT * FROM value WHERE 0", format: .debug(header: true)) == "")
    }

    // MARK: List

    @Test func listRendersBlobsAsLossyText() throws {
        let dbQueue = try makeValuesQueue()
        let output = try dump(dbQueue, "SELECT value FROM value WHERE name LIKE '%blob' ORDER BY rowid", format: .list())
        #expect(output == "héllo\n\n\u{FFFD}\u{FFFD}\n" + String(decoding: [0x69, 0xBF, 0x8A, 0x9C, 0xD9, 0xF0, 0x47, 0x77, 0xBD, 0x11, 0x93, 0x45, 0x1D, 0x84, 0xCB, 0xCF] as [UInt8], as: UTF8.self) + "\n")
        #expect(try dump(dbQueue, "SELECT name, value FROM value WHERE name = 'null'", format: .list(header: true, separator: ",", nullValue: "-")) == """
            name,value
            null,-

            """)
    }

    // MARK: Line

    @Test func lineAlignsColumnNamesAndSeparatesRows() throws {
        let dbQueue = try DatabaseQueue()
        let output = try dump(dbQueue, """
            SELECT 1 AS id, 'Arthur' AS name, NULL AS é
            UNION ALL SELECT 2, 'Barbara', x'41'
            """, format: .line(nullValue: "NULL"))
        #expect(output == """
              id = 1
            name = Arthur
               é = NULL

              id = 2
            name = Barbara
               é = A

            """)
    }

    @Test func lineSeparatesTheRowsOfSeveralStatements() throws {
        let output = try dump(DatabaseQueue(), "SELECT 1 AS a; SELECT 2 AS bb; SELECT 3 WHERE 0", format: LineDumpFormat())
        #expect(output == "a = 1\n\nbb = 2\n")
    }

    // MARK: Quote

    @Test func quoteRendersSQLLiterals() throws {
        let output = try dump(makeValuesQueue(), "SELECT name, value FROM value ORDER BY rowid", format: .quote(header: true))
        #expect(output == """
            'name','value'
            'integer',42
            'double',-1.0
            'big double',1.0e+100
            'infinity',9.0e+999
            'text','it''s'
            'multiline','a
            b'
            'null',NULL
            'utf8 blob',X'68C3A96C6C6F'
            'empty blob',X''
            'binary blob',X'80FF'
            'uuid blob',X'69BF8A9CD9F04777BD1193451D84CBCF'

            """)
        #expect(try dump(DatabaseQueue(), "SELECT 1, 'a'", format: .quote(separator: "; ")) == "1; 'a'\n")
    }

    @Test func quotedValuesReadBackAsTheSameValues() throws {
        let dbQueue = try makeValuesQueue()
        let rowIDs = try dbQueue.read { db in try Int64.fetchAll(db, sql: "SELECT rowid FROM value") }
        for rowID in rowIDs {
            let literal = try dump(dbQueue, "SELECT value FROM value WHERE rowid = \(rowID)", format: .quote())
            try dbQueue.read { db in
                let original = try DatabaseValue.fetchOne(db, sql: "SELECT value FROM value WHERE rowid = ?", arguments: [rowID])
                let readBack = try DatabaseValue.fetchOne(db, sql: "SELECT " + literal.dropLast())
                #expect(readBack == original, "\(literal)")
            }
        }
    }

    // MARK: JSON

    @Test func jsonRendersArraysOfObjects() throws {
        let output = try dump(makeValuesQueue(), """
            SELECT name, value FROM value WHERE name IN ('integer', 'double', 'text', 'null', 'binary blob') ORDER BY rowid
            """, format: .json())
        #expect(output == """
            [{"name":"integer","value":42},
            {"name":"double","value":-1},
            {"name":"text","value":"it's"},
            {"name":"null","value":null},
            {"name":"binary blob","value":"gP8="}]

            """)
    }

    @Test func jsonKeepsDuplicateColumnsAndSlashes() throws {
        let output = try dump(DatabaseQueue(), "SELECT 'a/b' AS x, 2 AS x", format: .json())
        #expect(output == #"[{"x":"a/b","x":2}]"# + "\n")
    }

    @Test func jsonPrintsEmptyArraysForStatementsWithColumns() throws {
        let output = try dump(DatabaseQueue(), "CREATE TABLE t(a); SELECT * FROM t; SELECT 1 AS one", format: .json())
        #expect(output == "[]\n[{\"one\":1}]\n")
    }

    @Test func jsonPrettyPrinted() throws {
        let encoder = JSONDumpFormat.defaultEncoder
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let output = try dump(DatabaseQueue(), "SELECT 1 AS b, 'x' AS a UNION ALL SELECT 2, 'y'", format: .json(encoder: encoder))
        #expect(output == """
            [
              {
                "b":1,
                "a":"x"
              },
              {
                "b":2,
                "a":"y"
              }
            ]

            """)
    }

    @Test func jsonInfinityIsAStringWithTheDefaultEncoder() throws {
        let dbQueue = try makeValuesQueue()
        // GRDB's default encoder writes "inf".
        #expect(try dump(dbQueue, "SELECT value FROM value WHERE name = 'infinity'", format: .json())
            == #"[{"value":"inf"}]"# + "\n")

        // An encoder that throws leaves no partial row in the stream.
        let output = DumpOutput()
        let encoder = JSONDumpFormat.defaultEncoder
        encoder.nonConformingFloatEncodingStrategy = .throw
        #expect(throws: EncodingError.self) {
            try dbQueue.read { db in
                try db.dumpSQL(
                    "SELECT value FROM value WHERE name IN ('integer', 'infinity') ORDER BY rowid",
                    format: .json(encoder: encoder), to: output)
            }
        }
        #expect(output.text == #"[{"value":42}"#)
    }

    @Test func jsonDefaultEncoderIsNewAtEachAccess() {
        let encoder = JSONDumpFormat.defaultEncoder
        encoder.outputFormatting = .prettyPrinted
        #expect(JSONDumpFormat.defaultEncoder.outputFormatting == .withoutEscapingSlashes)
        #expect(JSONDumpFormat().encoder !== JSONDumpFormat().encoder)
    }

    // MARK: Custom formats and the dump stream

    /// Counts rows, and writes the count in a paragraph of its own.
    struct CountDumpFormat: DumpFormat {
        var count = 0
        mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
            count += 1
        }
        mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
            stream.margin()
            stream.margin()
            stream.write("\(count) row(s)")
            count = 0
        }
    }

    @Test func customFormatWithMargins() throws {
        // A margin is a line feed before the next text, even at the start
        // (as in GRDB); two margins in a row ask for one.
        let output = try dump(DatabaseQueue(), "SELECT 1 UNION ALL SELECT 2; SELECT 3", format: CountDumpFormat())
        #expect(output == "\n2 row(s)\n1 row(s)")
    }

    /// The format of the documentation of ``DumpFormat``.
    struct TabSeparatedDumpFormat: DumpFormat {
        mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
            let values = (0..<statement.columnCount).map { index in
                DatabaseValue(sqliteStatement: statement.sqliteStatement, index: CInt(index)).description
            }
            stream.write(values.joined(separator: "\t") + "\n")
        }

        mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) { }
    }

    @Test func documentedCustomFormat() throws {
        let dbQueue = try DatabaseQueue()
        let output = DumpOutput()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO player VALUES (1, 'Arthur')")
            try db.dumpTables(["player"], format: TabSeparatedDumpFormat(), to: output)
        }
        #expect(output.text == "1\t\"Arthur\"\n")
    }

    @Test func formatErrorsStopTheDump() throws {
        struct Failure: Error { }
        struct FailingFormat: DumpFormat {
            mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
                stream.write("row\n")
                throw Failure()
            }
            mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) { }
        }
        let dbQueue = try DatabaseQueue()
        let output = DumpOutput()
        #expect(throws: Failure.self) {
            try dbQueue.read { db in try db.dumpSQL("SELECT 1 UNION ALL SELECT 2; SELECT 3", format: FailingFormat(), to: output) }
        }
        #expect(output.text == "row\n")
        // The connection is usable: the statement was reset.
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }
}
