// The program that Scripts/check-replication.sh runs beside Litestream: a
// DatabasePool writer under load, with concurrent readers, and a verifier of
// the databases that Litestream restores.
//
//   ReplicationCheck write DB ACKLOG [--readers N] [--pause-ms MS] [--queue]
//       Writes transactions 1, 2, 3… (after the last one in DB) with a
//       DatabasePool (a DatabaseQueue with --queue), configured by
//       Configuration.prepareForReplication() as the article says, until
//       SIGTERM or SIGINT, then closes its connections and exits 0. Each transaction
//       inserts one `txn` row and a number of `item` rows that depends on its
//       id only. After each commit, the id is appended to ACKLOG: the
//       transactions that the app saw committed. Readers check, while the
//       writer runs, that no transaction is seen half written.
//
//   ReplicationCheck verify DB [--acked N]
//       Checks a database: integrity_check, transactions 1…M without gaps,
//       each complete with the expected payloads, no item without its
//       transaction. Prints `verify: txns=M lost=L torn=T gaps=G orphans=O
//       payloads=P integrity=ok`, where lost counts the acknowledged
//       transactions (1…N) that are missing. Exits 1 when the database is
//       damaged (torn, gaps, orphans, payloads, integrity), not for losses:
//       the script decides which losses are allowed.
//
//   ReplicationCheck read-vfs URI EXTENSION [--acked N] [--pool]
//       Loads an SQLite extension that registers a VFS (litestream-vfs), then
//       opens the URI filename (which names the VFS) with a read-only
//       DatabaseQueue, or DatabasePool, and verifies it as `verify` does.

import Cairn
import Foundation

/// Writes an error and exits with `code`.
func fail(_ message: String, code: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("ReplicationCheck: \(message)\n".utf8))
    exit(code)
}

/// The value of `--name` in the arguments, if any.
func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: "--\(name)"), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// The number of items of a transaction: 1 to 8, from its id only, so that
/// the verifier does not trust what it checks.
func itemCount(ofTransaction id: Int64) -> Int {
    Int(1 + (id &* 7) % 8)
}

/// The characters of payloads.
let payloadAlphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)

/// The payload of an item: 40 to 439 bytes, from its transaction and rank
/// only. Long enough that the WAL grows and checkpoints run.
func payload(transaction id: Int64, rank: Int) -> String {
    let length = 40 + Int((id &* 31 &+ Int64(rank) &* 17) % 400)
    var bytes = Array("\(id).\(rank):".utf8)
    bytes.reserveCapacity(length)
    var state = UInt64(bitPattern: id) &* 6364136223846793005 &+ UInt64(rank) &+ 1442695040888963407
    while bytes.count < length {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        bytes.append(payloadAlphabet[Int(state >> 33) % payloadAlphabet.count])
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// The schema: transactions, and their items.
func migrator() -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
        try db.create(table: "txn") { t in
            t.primaryKey("id", .integer)
            t.column("itemCount", .integer).notNull()
            t.column("committedAt", .double).notNull()
        }
        try db.create(table: "item") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("txnId", .integer).notNull().indexed()
            t.column("rank", .integer).notNull()
            t.column("payload", .text).notNull()
        }
        // The table that the "Replication and Backups" article reads in a
        // replica (ArticleTests.replicationAndBackupsBlocksRun).
        try db.create(table: "player") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
        }
        try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur'), ('Barbara'), ('Craig')")
    }
    return migrator
}

/// A flag that a signal handler sets and the loops read.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    var isStopped: Bool { lock.withLock { stopped } }
    func stop() { lock.withLock { stopped = true } }
}

/// The `write` command.
func write(path: String, ackLog: String, arguments: [String]) throws -> Never {
    let readerCount = Int(option("readers", in: arguments) ?? "3") ?? 3
    let pause = UInt32(option("pause-ms", in: arguments) ?? "2") ?? 2
    var configuration = Configuration()
    configuration.maximumReaderCount = max(1, readerCount)
    // The recipe of the article: WAL, a 5 s busy timeout, synchronous =
    // NORMAL.
    configuration.prepareForReplication()
    // A pool, or with --queue a queue (whose reads wait for its writes).
    let pool: any DatabaseWriter
    let close: () throws -> Void
    if arguments.contains("--queue") {
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        (pool, close) = (queue, queue.close)
    } else {
        let databasePool = try DatabasePool(path: path, configuration: configuration)
        (pool, close) = (databasePool, databasePool.close)
    }
    try migrator().migrate(pool)

    guard let ack = FileHandle(forWritingAtPath: ackLog) ?? {
        _ = FileManager.default.createFile(atPath: ackLog, contents: nil)
        return FileHandle(forWritingAtPath: ackLog)
    }() else { fail("cannot open \(ackLog)") }
    ack.seekToEndOfFile()

    let flag = StopFlag()
    signal(SIGTERM, SIG_IGN)
    signal(SIGINT, SIG_IGN)
    let sources = [SIGTERM, SIGINT].map { number in
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { flag.stop() }
        source.resume()
        return source
    }

    // Readers: the last transactions they see are complete, and the last id
    // never goes backwards.
    let readers = (0..<readerCount).map { number in
        Thread {
            var lastSeen: Int64 = 0
            while !flag.isStopped {
                do {
                    let rows = try pool.read { db in
                        try Row.fetchAll(db, sql: """
                            SELECT t.id, t.itemCount, (SELECT COUNT(*) FROM item WHERE txnId = t.id) AS actual
                            FROM txn t ORDER BY t.id DESC LIMIT 20
                            """)
                    }
                    for row in rows {
                        let id: Int64 = row["id"]
                        let actual: Int = row["actual"]
                        if actual != itemCount(ofTransaction: id) || row["itemCount"] != actual {
                            fail("reader \(number) saw transaction \(id) with \(actual) items", code: 4)
                        }
                    }
                    let newest: Int64 = rows.first?["id"] ?? 0
                    if newest < lastSeen { fail("reader \(number) went back from \(lastSeen) to \(newest)", code: 4) }
                    lastSeen = newest
                } catch {
                    fail("reader \(number): \(error)", code: 3)
                }
                usleep(1000)
            }
        }
    }
    readers.forEach { $0.start() }

    var next = try pool.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM txn") ?? 0 } + 1
    let first = next
    while !flag.isStopped {
        let id = next
        do {
            try pool.write { db in
                let count = itemCount(ofTransaction: id)
                try db.execute(
                    sql: "INSERT INTO txn (id, itemCount, committedAt) VALUES (?, ?, ?)",
                    arguments: [id, count, Date().timeIntervalSince1970])
                for rank in 0..<count {
                    try db.execute(
                        sql: "INSERT INTO item (txnId, rank, payload) VALUES (?, ?, ?)",
                        arguments: [id, rank, payload(transaction: id, rank: rank)])
                }
            }
        } catch {
            fail("write of transaction \(id): \(error)", code: 3)
        }
        // Acknowledged: a kill -9 after this line cannot lose it from the
        // file, which the operating system keeps.
        ack.write(Data("\(id)\n".utf8))
        next += 1
        if pause > 0 { usleep(pause * 1000) }
    }
    // Clean shutdown: readers stop, the connections close.
    while readers.contains(where: { !$0.isFinished }) { usleep(1000) }
    try close()
    withExtendedLifetime(sources) {}
    print("write: transactions \(first)...\(next - 1) committed, connections closed")
    exit(0)
}

/// The result of a verification.
struct Verification {
    var transactions: Int64 = 0
    var torn = 0
    var gaps = 0
    var orphans = 0
    var badPayloads = 0
    var integrity = ""

    var isSound: Bool { torn == 0 && gaps == 0 && orphans == 0 && badPayloads == 0 && integrity == "ok" }
}

/// Checks a database.
func verify(_ reader: some DatabaseReader) throws -> Verification {
    try reader.read { db in
        var result = Verification()
        result.integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ")
        guard try db.tableExists("txn") else { return result }
        var expectedID: Int64 = 1
        let transactions = try Row.fetchCursor(db, sql: """
            SELECT t.id, t.itemCount, (SELECT COUNT(*) FROM item WHERE txnId = t.id) AS actual
            FROM txn t ORDER BY t.id
            """)
        while let row = try transactions.next() {
            let id: Int64 = row["id"]
            if id != expectedID { result.gaps += 1 }
            expectedID = id + 1
            let actual: Int = row["actual"]
            if actual != itemCount(ofTransaction: id) || row["itemCount"] != actual { result.torn += 1 }
            result.transactions = max(result.transactions, id)
        }
        result.orphans = try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM item WHERE txnId NOT IN (SELECT id FROM txn)
            """) ?? 0
        let items = try Row.fetchCursor(db, sql: "SELECT txnId, rank, payload FROM item")
        while let row = try items.next() {
            let id: Int64 = row[0]
            let rank: Int = row[1]
            let text: String = row[2]
            if text != payload(transaction: id, rank: rank) { result.badPayloads += 1 }
        }
        return result
    }
}

/// Prints a verification and exits: 1 when the database is damaged.
func report(_ result: Verification, acked: Int64?) -> Never {
    let lost = acked.map { max(0, $0 - result.transactions) } ?? 0
    print("verify: txns=\(result.transactions) lost=\(lost) torn=\(result.torn) gaps=\(result.gaps) "
        + "orphans=\(result.orphans) payloads=\(result.badPayloads) integrity=\(result.integrity)")
    exit(result.isSound ? 0 : 1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    fail("usage: ReplicationCheck write DB ACKLOG [options] | verify DB [--acked N] | read-vfs URI EXTENSION [--acked N] [--pool]")
}
do {
    switch arguments[1] {
    case "write" where arguments.count >= 4:
        try write(path: arguments[2], ackLog: arguments[3], arguments: arguments)
    case "verify":
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: arguments[2], configuration: configuration)
        report(try verify(queue), acked: option("acked", in: arguments).flatMap(Int64.init))
    case "read-vfs" where arguments.count >= 4:
        // The extension registers its VFS for the whole process: load it
        // once, from a private connection.
        try DatabaseQueue().inDatabase { db in try db.loadExtension(arguments[3]) }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.acceptsURIFilenames = true
        let reader: any DatabaseReader = arguments.contains("--pool")
            ? try DatabasePool(path: arguments[2], configuration: configuration)
            : try DatabaseQueue(path: arguments[2], configuration: configuration)
        let result = try verify(reader)
        // litestream-vfs 0.5.17 makes connections that do not use its VFS
        // fail to open, through an automatic extension: say whether it
        // still does, then check the workaround that the article gives.
        do {
            _ = try DatabaseQueue()
            print("other connections: open")
        } catch {
            print("other connections: fail (\(error))")
            sqlite3_reset_auto_extension()
            _ = try DatabaseQueue()
            // A new connection to the replica.
            let replica = try DatabaseQueue(path: arguments[2], configuration: configuration)
            guard try verify(replica).transactions == result.transactions else {
                fail("the replica reads differently after sqlite3_reset_auto_extension()")
            }
            print("other connections after sqlite3_reset_auto_extension(): open, and new connections to the replica read it")
        }
        report(result, acked: option("acked", in: arguments).flatMap(Int64.init))
    default:
        fail("unknown command \(arguments[1])")
    }
} catch {
    fail("\(error)")
}
