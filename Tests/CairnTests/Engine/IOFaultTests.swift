import CairnFaultVFS
import Foundation
import Testing
import Cairn

/// I/O faults (a full disk, a failing write, sync or read) injected by a
/// test VFS (`Tests/CairnFaultVFS`): the failure is a ``DatabaseError`` with
/// SQLite's extended code, the database stays as it was before the failed
/// transaction, and the connection works again once the fault stops.
@Suite struct IOFaultTests {
    /// A temporary directory whose files fail on demand.
    final class FaultyDirectory: Sendable {
        let directory: TemporaryDirectory
        let rule: CInt

        init() throws {
            let code = cairn_fault_install()
            guard code == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot install the fault VFS")
            }
            directory = try TemporaryDirectory()
            // SQLite opens files by their full path, symbolic links resolved.
            let resolved = URL(fileURLWithPath: directory.path).resolvingSymlinksInPath().path
            rule = cairn_fault_rule_create(resolved + "/")
            guard rule >= 0 else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "too many fault rules")
            }
        }

        var path: String { directory.filePath() }

        /// Fails the operations after `countdown` successful ones.
        func arm(_ operations: CInt, on fileKinds: CInt, after countdown: CInt = 0, code: ResultCode, persistent: Bool = true) {
            cairn_fault_rule_arm(rule, operations, fileKinds, countdown, code.rawValue, persistent ? 1 : 0)
        }

        func disarm() {
            cairn_fault_rule_disarm(rule)
        }

        var faultCount: Int { Int(cairn_fault_rule_fault_count(rule)) }
    }

    /// Opens a writer with FULL synchronous mode (a sync at each commit), a
    /// table of 10 rows, and no automatic checkpoint.
    func makeWriter(_ kind: WriterKind, in directory: FaultyDirectory, cacheSize: Int = 2000) throws -> any DatabaseWriter {
        var config = Configuration()
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA cache_size = \(cacheSize)")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        }
        let writer = try kind.make(path: directory.path, configuration: config)
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB)")
            for id in 1...10 {
                try db.execute(sql: "INSERT INTO t VALUES (?, randomblob(2000))", arguments: [id])
            }
        }
        return writer
    }

    /// The content of the table, and the result of the integrity check.
    func state(_ reader: any DatabaseReader) throws -> (rows: [Row], integrity: String?) {
        try reader.read { db in
            (try Row.fetchAll(db, sql: "SELECT id, hex(payload) FROM t ORDER BY id"),
             try String.fetchOne(db, sql: "PRAGMA integrity_check"))
        }
    }

    /// A transaction that writes enough to spill pages out of a small
    /// cache before its commit.
    func bigTransaction(_ db: Database) throws {
        try db.execute(sql: "UPDATE t SET payload = randomblob(20000)")
        try db.execute(sql: "INSERT INTO t SELECT id + 100, randomblob(20000) FROM t")
    }

    /// Checks that the writer fails with `code`, then works again as it was.
    func expectFailure(
        of writer: any DatabaseWriter,
        in directory: FaultyDirectory,
        code: ResultCode,
        _ transaction: (Database) throws -> Void) throws
    {
        let before = try state(writer)
        #expect(before.integrity == "ok")
        #expect(throws: DatabaseError.self) {
            do {
                try writer.write(transaction)
            } catch let error as DatabaseError {
                #expect(error.extendedResultCode == code, "\(error)")
                throw error
            }
        }
        #expect(directory.faultCount > 0)
        directory.disarm()
        let after = try state(writer)
        #expect(after.rows == before.rows)
        #expect(after.integrity == "ok")
        // The connection works again.
        try writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (1000, x'00')") }
        #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == before.rows.count + 1)
    }

    @Test(arguments: WriterKind.allCases)
    func writeFailsDuringTheTransaction(kind: WriterKind) throws {
        let directory = try FaultyDirectory()
        // A cache of 10 pages spills the transaction before its commit: into
        // the database file (after the journal) or into the WAL.
        let writer = try makeWriter(kind, in: directory, cacheSize: 10)
        directory.arm(CAIRN_FAULT_WRITE, on: CInt(CAIRN_FAULT_ANY_FILE), after: 3, code: .SQLITE_IOERR_WRITE)
        try expectFailure(of: writer, in: directory, code: .SQLITE_IOERR_WRITE, bigTransaction)
    }

    @Test(arguments: WriterKind.allCases)
    func diskFullDuringTheTransaction(kind: WriterKind) throws {
        let directory = try FaultyDirectory()
        let writer = try makeWriter(kind, in: directory, cacheSize: 10)
        directory.arm(CAIRN_FAULT_WRITE, on: CInt(CAIRN_FAULT_ANY_FILE), after: 3, code: .SQLITE_FULL)
        try expectFailure(of: writer, in: directory, code: .SQLITE_FULL, bigTransaction)
    }

    @Test(arguments: WriterKind.allCases)
    func syncFailsDuringTheCommit(kind: WriterKind) throws {
        let directory = try FaultyDirectory()
        let writer = try makeWriter(kind, in: directory)
        directory.arm(CAIRN_FAULT_SYNC, on: CInt(CAIRN_FAULT_ANY_FILE), code: .SQLITE_IOERR_FSYNC)
        try expectFailure(of: writer, in: directory, code: .SQLITE_IOERR_FSYNC) { db in
            try db.execute(sql: "UPDATE t SET payload = x'01' WHERE id = 1")
        }
    }

    @Test(arguments: WriterKind.allCases)
    func writeFailsDuringTheCommit(kind: WriterKind) throws {
        let directory = try FaultyDirectory()
        // A large cache: nothing is written before the commit. Then the
        // database file (rollback journal) or the WAL fails.
        let writer = try makeWriter(kind, in: directory)
        directory.arm(CAIRN_FAULT_WRITE, on: CInt(CAIRN_FAULT_MAIN_DB | CAIRN_FAULT_WAL), code: .SQLITE_IOERR_WRITE)
        try expectFailure(of: writer, in: directory, code: .SQLITE_IOERR_WRITE) { db in
            try db.execute(sql: "UPDATE t SET payload = x'02'")
        }
    }

    @Test func poolReadersDuringAFailedCheckpoint() async throws {
        let directory = try FaultyDirectory()
        let dbPool = try #require(try makeWriter(.pool, in: directory) as? DatabasePool)
        try await dbPool.write { db in try db.execute(sql: "UPDATE t SET payload = x'03' WHERE id <= 5") }
        let expected = try state(dbPool)

        // The checkpoint copies a few pages into the database file, then
        // the file fails.
        directory.arm(CAIRN_FAULT_WRITE, on: CInt(CAIRN_FAULT_MAIN_DB), after: 1, code: .SQLITE_IOERR_WRITE)
        let readers = (0..<4).map { _ in
            Task.detached { try dbPool.read { db in try Row.fetchAll(db, sql: "SELECT id, hex(payload) FROM t ORDER BY id") } }
        }
        #expect(throws: DatabaseError.self) {
            do {
                try dbPool.checkpoint(.full)
            } catch let error as DatabaseError {
                #expect(error.extendedResultCode == .SQLITE_IOERR_WRITE, "\(error)")
                throw error
            }
        }
        for reader in readers {
            #expect(try await reader.value == expected.rows)
        }
        // Readers that start after the failure read the committed state.
        #expect(try state(dbPool).rows == expected.rows)
        directory.disarm()

        try dbPool.checkpoint(.truncate)
        let after = try state(dbPool)
        #expect(after.rows == expected.rows)
        #expect(after.integrity == "ok")
    }

    @Test(arguments: WriterKind.allCases)
    func readFailureIsAnErrorAndTheConnectionRecovers(kind: WriterKind) throws {
        let directory = try FaultyDirectory()
        let writer = try makeWriter(kind, in: directory)
        let expected = try state(writer)
        // Drop the page cache of the connections, so that the read hits the
        // files.
        try writer.write { db in try db.execute(sql: "PRAGMA shrink_memory") }
        if let dbPool = writer as? DatabasePool { dbPool.releaseMemory() }
        directory.arm(CAIRN_FAULT_READ, on: CInt(CAIRN_FAULT_MAIN_DB | CAIRN_FAULT_WAL), code: .SQLITE_IOERR_READ)
        #expect(throws: DatabaseError.self) {
            do {
                _ = try writer.read { db in try Row.fetchAll(db, sql: "SELECT * FROM t") }
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_IOERR, "\(error)")
                throw error
            }
        }
        directory.disarm()
        let after = try state(writer)
        #expect(after.rows == expected.rows)
        #expect(after.integrity == "ok")
    }
}
