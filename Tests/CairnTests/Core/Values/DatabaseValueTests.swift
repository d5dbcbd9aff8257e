import Foundation
import Testing
import Cairn

/// Descriptions of database values, and the places that must not use them.
@Suite struct DatabaseValueDescriptionTests {
    /// A blob describes itself by its size, as GRDB does; other values read
    /// as SQL-like text.
    @Test func descriptionOfEachStorage() {
        #expect(DatabaseValue.null.description == "NULL")
        #expect(Int64(1).databaseValue.description == "1")
        #expect(100000.1.databaseValue.description == "100000.1")
        #expect("foo\n".databaseValue.description == #""foo\n""#)
        #expect(Data("foo".utf8).databaseValue.description == "Data(3 bytes)")
        #expect(Data().databaseValue.description == "Data(0 bytes)")
        #expect(Data("foo".utf8).databaseValue.debugDescription == "Data(3 bytes)")
    }

    /// Rows and arguments describe their blobs the same way.
    @Test func rowsAndArgumentsDescribeBlobsBySize() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS int, CAST('SQLite' AS BLOB) AS data"))
            #expect(row.description == "[int:1 data:Data(6 bytes)]")
            let cursor = try Row.fetchCursor(db, sql: "SELECT x'0102' AS data")
            while let cursorRow = try cursor.next() {
                #expect(cursorRow.description == "[data:Data(2 bytes)]")
            }
        }
        let arguments: StatementArguments = [Data([1, 2])]
        #expect(arguments.description == "[Data(2 bytes)]")
    }

    /// SQL literals and the `quote` dump format keep their hexadecimal
    /// spelling: they must read back as the same bytes.
    @Test func literalsAndDumpsKeepHexadecimalBlobs() throws {
        let dbQueue = try DatabaseQueue()
        let output = DumpOutput()
        try dbQueue.write { db throws in
            try db.create(table: "t") { t in
                t.column("b", .blob).defaults(to: Data([0x66, 0x0A]))
            }
            let schema = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 't'")
            #expect(schema?.contains("DEFAULT X'660A'") == true)
            try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
            #expect(try Data.fetchOne(db, sql: "SELECT b FROM t") == Data([0x66, 0x0A]))
            try db.dumpSQL("SELECT x'660a'", format: .quote(), to: output)
        }
        #expect(output.text == "X'660A'\n")
    }
}
