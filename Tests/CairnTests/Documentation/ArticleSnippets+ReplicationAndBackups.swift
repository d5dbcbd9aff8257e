import Foundation
import Cairn

// The Swift code of Sources/Cairn/Documentation.docc/ReplicationAndBackups.md,
// block by block, so that it compiles and runs in the tests (ArticleTests
// checks that each block of the article is here, line after line, between
// its markers). Lines that are not in the article only wrap the blocks:
// functions for their statements, with the paths and connections that the
// article assumes, and what the tests read. Blocks 1 and 2 run against a
// real Litestream replica in Scripts/check-replication.sh.
enum ReplicationAndBackupsArticle { }

// ReplicationAndBackups.md block 0
extension ReplicationAndBackupsArticle {
    static func block0(databasePath: String) throws -> DatabasePool {
        var config = Configuration()
        config.prepareForReplication()
        let dbPool = try DatabasePool(path: databasePath, configuration: config)
        return dbPool
    }
}
// end of ReplicationAndBackups.md block 0

// ReplicationAndBackups.md block 1
extension ReplicationAndBackupsArticle {
    static func block1(litestreamVFSPath: String) throws {
        // Once per process, from any connection. For example, litestreamVFSPath =
        // "/opt/litestream/litestream-vfs.so"
        try DatabaseQueue().inDatabase { db in
            try db.loadExtension(litestreamVFSPath)
        }
    }
}
// end of ReplicationAndBackups.md block 1

// ReplicationAndBackups.md block 2
extension ReplicationAndBackupsArticle {
    static func block2(replicaURI: String) throws -> (replica: DatabasePool, playerCount: Int) {
        // For example, replicaURI =
        // "file:replica.db?vfs=litestream&replica_url=s3://my-bucket/myapp"
        var config = Configuration()
        config.readonly = true
        config.acceptsURIFilenames = true
        let replica = try DatabasePool(path: replicaURI, configuration: config)
        let playerCount = try replica.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
        }
        return (replica, playerCount)
    }
}
// end of ReplicationAndBackups.md block 2

// ReplicationAndBackups.md block 3
extension ReplicationAndBackupsArticle {
    static func block3(_ dbPool: DatabasePool, backupPath: String) throws -> DatabaseQueue {
        // For example, backupPath = "/var/backups/myapp-2026-12-06.sqlite"
        let copy = try DatabaseQueue(path: backupPath)
        try dbPool.backup(to: copy)
        return copy
    }
}
// end of ReplicationAndBackups.md block 3

// ReplicationAndBackups.md block 4
#if SQLITE_ENABLE_SESSION
extension ReplicationAndBackupsArticle {
    static func block4(phoneQueue: DatabaseQueue, laptopQueue: DatabaseQueue) throws {
        let changeset = try phoneQueue.write { db in
            let session = try DatabaseSession(db)
            try session.attach("note")
            try db.execute(sql: "UPDATE note SET text = ? WHERE id = ?", arguments: ["Buy milk", 1])
            return try session.changeset()
        }
        try laptopQueue.write { db in
            try db.apply(changeset) { conflict in .omit }
        }
    }
}
#endif
// end of ReplicationAndBackups.md block 4
