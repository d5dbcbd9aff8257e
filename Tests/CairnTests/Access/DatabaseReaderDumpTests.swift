import Foundation
import Testing
import Cairn

/// The dump methods of readers: queues, pools, snapshots and snapshot
/// pools.
@Suite struct DatabaseReaderDumpTests {
    struct Player: TableRecord {
        static let databaseTableName = "player"
    }

    func makeReader(_ kind: ReaderKind, _ directory: TemporaryDirectory) throws -> (reader: any DatabaseReader, writer: any DatabaseWriter) {
        try kind.make(in: directory) { db throws in
            try db.execute(sql: createPlayerTableSQL)
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Arthur', 1000), ('Barbara', 750)")
        }
    }

    @Test(arguments: ReaderKind.allCases)
    func dumps(_ kind: ReaderKind) throws {
        let directory = try TemporaryDirectory()
        let reader = try makeReader(kind, directory).reader

        let sql = DumpOutput()
        try reader.dumpSQL("SELECT name FROM player ORDER BY score", to: sql)
        #expect(sql.text == "Barbara\nArthur\n")

        let request = DumpOutput()
        try reader.dumpRequest(Player.orderByPrimaryKey(), format: .quote(), to: request)
        #expect(request.text == "1,'Arthur',1000\n2,'Barbara',750\n")

        let tables = DumpOutput()
        try reader.dumpTables(["player"], format: .json(), tableHeader: .always, to: tables)
        #expect(tables.text == """
            player
            [{"id":1,"name":"Arthur","score":1000},
            {"id":2,"name":"Barbara","score":750}]

            """)

        let schema = DumpOutput()
        try reader.dumpSchema(to: schema)
        #expect(schema.text == "sqlite_master\n" + createPlayerTableSQL + ";\n")

        let content = DumpOutput()
        try reader.dumpContent(to: content)
        #expect(content.text == schema.text + "\nplayer\n1|Arthur|1000\n2|Barbara|750\n")
    }

    @Test(arguments: ReaderKind.allCases)
    func dumpsFromInsideAnAccess(_ kind: ReaderKind) throws {
        let directory = try TemporaryDirectory()
        let reader = try makeReader(kind, directory).reader
        let output = DumpOutput()
        try reader.read { _ in
            // Reentrant: the dump uses the connection of the current read.
            try reader.dumpContent(to: output)
        }
        #expect(output.text.hasSuffix("\nplayer\n1|Arthur|1000\n2|Barbara|750\n"))
    }

    @Test func dumpSQLWritesWithAQueue() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        let output = DumpOutput()
        try dbQueue.dumpSQL("CREATE TABLE t(a); INSERT INTO t VALUES (1); SELECT * FROM t", to: output)
        #expect(output.text == "1\n")
        #expect(try dbQueue.read { db in try db.tableExists("t") })

        // From inside a write, the dump sees the uncommitted changes.
        let inside = DumpOutput()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO t VALUES (2)")
            try dbQueue.dumpTables(["t"], to: inside)
        }
        #expect(inside.text == "1\n2\n")
    }

    @Test func dumpSQLCannotWriteWithThePoolReaders() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.filePath())
        #expect {
            try dbPool.dumpSQL("CREATE TABLE t(a)", to: DumpOutput())
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_READONLY
        }
    }

    @Test(arguments: WriterKind.allCases)
    func dumpsSeeCommittedChanges(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES ('x')")
        }
        let output = DumpOutput()
        try writer.dumpTables(["t"], to: output)
        #expect(output.text == "x\n")
    }
}
