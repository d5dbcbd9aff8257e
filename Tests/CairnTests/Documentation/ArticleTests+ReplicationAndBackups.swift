import Dispatch
import Foundation
import Testing
import Cairn

extension ArticleTests {
    /// The blocks of ReplicationAndBackups.md. Blocks 1 and 2 load
    /// `litestream-vfs` and read a Litestream replica when
    /// Scripts/check-replication.sh runs this test with
    /// CAIRN_LITESTREAM_VFS and CAIRN_LITESTREAM_REPLICA_URI (a replica whose
    /// `player` table has 3 rows); otherwise they run on what this machine
    /// has: a missing library, and a URI filename of the default VFS.
    @Test func replicationAndBackupsBlocksRun() throws {
        typealias Article = ReplicationAndBackupsArticle
        let directory = try TemporaryDirectory()
        let environment = ProcessInfo.processInfo.environment

        // Block 0: the writes of the pool wait for the write lock that
        // another connection holds for a moment, as Litestream's syncs do.
        let dbPool = try Article.block0(databasePath: directory.filePath())
        // synchronous = NORMAL (1) on the writer and the readers.
        #expect(try dbPool.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } == 1)
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } == 1)
        try dbPool.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                INSERT INTO player (name) VALUES ('Arthur'), ('Barbara'), ('Craig');
                """)
        }
        let other = try DatabaseQueue(path: directory.filePath())
        let locked = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        TestThreads.detach {
            defer { released.signal() }
            do {
                try other.writeWithoutTransaction { db in
                    try db.execute(sql: "BEGIN IMMEDIATE")
                    locked.signal()
                    usleep(300_000)
                    try db.execute(sql: "ROLLBACK")
                }
            } catch {
                // No hang: the write below does not wait, and the test fails.
                locked.signal()
            }
        }
        // The lock is taken, then (0.3 s later) released: the write waits.
        try #require(locked.wait(timeout: .now() + 10) == .success)
        let start = Date()
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Dan')") }
        #expect(Date().timeIntervalSince(start) > 0.2)
        try #require(released.wait(timeout: .now() + 10) == .success)

        // Block 3: the backup holds the rows of the pool.
        let copy = try Article.block3(dbPool, backupPath: directory.filePath("backup.sqlite"))
        #expect(try copy.read { db in try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id") }
            == ["Arthur", "Barbara", "Craig", "Dan"])

        // Block 4: the laptop gets the edit of the phone.
        #if SQLITE_ENABLE_SESSION
        let phoneQueue = try DatabaseQueue()
        let laptopQueue = try DatabaseQueue()
        for queue in [phoneQueue, laptopQueue] {
            try queue.write { db in
                try db.execute(sql: """
                    CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
                    INSERT INTO note VALUES (1, 'Buy bread');
                    """)
            }
        }
        try Article.block4(phoneQueue: phoneQueue, laptopQueue: laptopQueue)
        #expect(try laptopQueue.read { db in try String.fetchOne(db, sql: "SELECT text FROM note WHERE id = 1") }
            == "Buy milk")
        #endif

        // Blocks 1 and 2 come last: once litestream-vfs 0.5.17 is loaded,
        // connections that do not use its VFS fail to open (see the
        // article's "Known issues").

        // Block 1: loads the extension, or throws SQLite's message.
        if let litestreamVFSPath = environment["CAIRN_LITESTREAM_VFS"] {
            try Article.block1(litestreamVFSPath: litestreamVFSPath)
        } else {
            let error = try #require(throws: DatabaseError.self) {
                try Article.block1(litestreamVFSPath: directory.filePath("litestream-vfs.so"))
            }
            #expect(error.message?.contains("litestream-vfs.so") == true)
        }

        // Block 2: a read-only pool on a URI filename.
        let (replica, playerCount): (DatabasePool, Int)
        if let replicaURI = environment["CAIRN_LITESTREAM_REPLICA_URI"] {
            (replica, playerCount) = try Article.block2(replicaURI: replicaURI)
            #expect(playerCount == 3)
        } else {
            (replica, playerCount) = try Article.block2(replicaURI: "file:\(directory.filePath())?mode=ro")
            #expect(playerCount == 4)
        }
        let error = try #require(throws: DatabaseError.self) {
            try replica.write { db in try db.execute(sql: "DELETE FROM player") }
        }
        #expect(error.resultCode.primaryResultCode == .SQLITE_READONLY)
    }
}
