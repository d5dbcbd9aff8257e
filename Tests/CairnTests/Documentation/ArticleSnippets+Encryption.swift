import Foundation
import Cairn

// The Swift code of Sources/Cairn/Documentation.docc/Encryption.md, block by
// block, so that it compiles and runs in the tests (ArticleTests checks that
// each block of the article is here, line after line, between its markers).
// The blocks use the API of the trait SQLITE_HAS_CODEC: they compile with it
// only. Block 0 is a `Package.swift`.
enum EncryptionArticle { }

// Encryption.md block 1
#if SQLITE_HAS_CODEC
extension EncryptionArticle {
    static func block1(path: String, passphrase: String) throws -> DatabasePool {
        var config = Configuration()
        config.prepareDatabase { db in
            try db.usePassphrase(passphrase)
        }
        let dbPool = try DatabasePool(path: path, configuration: config)
        return dbPool
    }
}
#endif
// end of Encryption.md block 1

// Encryption.md block 2
#if SQLITE_HAS_CODEC
extension EncryptionArticle {
    static func block2(passphrase: String) -> Configuration {
        var config = Configuration()
        config.cipher = .sqlcipher(version: 3)
        config.prepareDatabase { db in
            try db.usePassphrase(passphrase)
        }
        return config
    }
}
#endif
// end of Encryption.md block 2

// Encryption.md block 3
#if SQLITE_HAS_CODEC
extension EncryptionArticle {
    static func block3(_ dbQueue: DatabaseQueue, newPassphrase: String) throws {
        try dbQueue.writeWithoutTransaction { db in
            try db.changePassphrase(newPassphrase)
        }
    }
}
#endif
// end of Encryption.md block 3

// Encryption.md block 4
#if SQLITE_HAS_CODEC
extension EncryptionArticle {
    static func block4(_ dbPool: DatabasePool, newPassphrase: String) throws {
        try dbPool.barrierWriteWithoutTransaction { db in
            try db.changePassphrase(newPassphrase)
            dbPool.invalidateReadOnlyConnections()
        }
    }
}
#endif
// end of Encryption.md block 4
