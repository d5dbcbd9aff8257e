import Foundation
import Testing
import Cairn

/// The Swift code of README.md compiles and runs: each block is copied in
/// ReadmeSnippets.swift (this test checks that the copy holds every line of
/// the block, in order), which the test target compiles, and the tests below
/// run. Blocks of `Package.swift` (`.package(…)`) are not Swift code of a
/// program: Scripts/check-consumer.sh builds a package that depends on Cairn
/// that way.
@Suite struct ReadmeTests {
    /// The Swift blocks of the README, in order.
    static func readmeBlocks() throws -> [String] {
        DocumentationBlocks.swiftBlocks(in: try DocumentationBlocks.contents(of: "README.md"))
    }

    @Test func everyReadmeBlockIsCompiledByTheTests() throws {
        let blocks = try ReadmeTests.readmeBlocks()
        #expect(blocks.count >= 10)
        let snippets = try DocumentationBlocks.contents(of: "Tests/CairnTests/Documentation/ReadmeSnippets.swift")
        try DocumentationBlocks.checkCopies(of: blocks, label: "README", in: snippets, copyFileName: "ReadmeSnippets.swift")
    }

    @Test func readmeBlocksRun() async throws {
        let directory = try TemporaryDirectory()

        // Block 1 and 2: the first steps.
        let dbQueue = try ReadmeBlock1.run(databasePath: directory.filePath("quick.sqlite"))
        #expect(try await ReadmeBlock2.run(dbQueue) == "Arthur")

        // Block 3: records and migrations, then observation (8 and 9).
        let playerQueue = try DatabaseQueue(path: directory.filePath("records.sqlite"))
        let best = try ReadmeBlock3.run(playerQueue)
        #expect(best.map(\.name) == ["Arthur"])
        #expect(best.map(\.score) == [1100])
        let bestPlayers = await ReadmeBlock3.BestPlayers()
        await bestPlayers.observe(playerQueue)
        #expect(await bestPlayers.players.map(\.name) == ["Arthur"])
        let observing = Task { try await ReadmeBlock3.observeAsync(playerQueue) }
        try await Task.sleep(nanoseconds: 50_000_000)
        observing.cancel()
        _ = await observing.result

        // Block 4: associations.
        let libraryQueue = try DatabaseQueue(path: directory.filePath("library.sqlite"))
        try await libraryQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id), title TEXT NOT NULL);
                INSERT INTO author VALUES (1, 'Herman Melville'), (2, 'Jules Verne');
                INSERT INTO book VALUES (1, 1, 'Moby-Dick'), (2, 2, 'Vingt mille lieues sous les mers'), (3, 2, 'Michel Strogoff');
                """)
        }
        let (bookInfos, authorInfos) = try ReadmeBlock4.run(libraryQueue)
        #expect(bookInfos.map(\.author.name) == ["Herman Melville", "Jules Verne", "Jules Verne"])
        #expect(authorInfos.map(\.bookCount) == [1, 2])
        #expect(authorInfos.map { $0.books.map(\.id) } == [[1], [2, 3]])

        // Block 5: common table expressions.
        let chatQueue = try DatabaseQueue(path: directory.filePath("chat.sqlite"))
        try await chatQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE chat (id INTEGER PRIMARY KEY);
                CREATE TABLE message (id INTEGER PRIMARY KEY, chatId INTEGER NOT NULL REFERENCES chat(id), date DATETIME NOT NULL);
                INSERT INTO chat VALUES (1), (2), (3);
                INSERT INTO message VALUES (1, 1, '2026-01-01 10:00:00'), (2, 1, '2026-01-03 10:00:00'), (3, 2, '2026-01-02 10:00:00');
                """)
        }
        let (chatInfos, numbers) = try ReadmeBlock5.run(chatQueue)
        #expect(chatInfos.map(\.chat.id) == [1, 2, 3])
        #expect(chatInfos.map { $0.latestMessage?.id } == [2, 3, nil])
        #expect(numbers == Array(1...10))

        // Block 6: a snapshot pool sees the state before the deletion.
        let poolPath = directory.filePath("pool.sqlite")
        try await DatabaseQueue(path: poolPath).write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY); INSERT INTO player VALUES (1), (2)")
        }
        #expect(try ReadmeBlock6.run(databasePath: poolPath) == 2)

        // Block 7: full-text search with Swift tokenizers, in Latin and
        // Chinese text.
        let (titles, posts) = try ReadmeBlock7.run(databasePath: directory.filePath("fts.sqlite"))
        #expect(titles == ["Café"])
        #expect(posts == ["研究生命科学很有意思"])

        // Block 10: a file stored in pieces, into a zeroblob.
        let megabyte = 1 << 20
        let fileQueue = try DatabaseQueue(path: directory.filePath("file.sqlite"))
        try ReadmeBlock10.run(fileQueue)
        let content = try #require(try await fileQueue.read { db in
            try Data.fetchOne(db, sql: "SELECT content FROM file WHERE id = 1")
        })
        #expect(content.count == 3 * megabyte)
        let pieceBytes: [UInt8] = [content[0], content[megabyte], content[2 * megabyte], content[3 * megabyte - 1]]
        #expect(pieceBytes == [0, 1, 2, 2])

        // Block 11: the bytes of the database, opened in memory, and a
        // query with a time limit.
        let (bytes, copy, totalSize) = try ReadmeBlock11.run(fileQueue)
        #expect(totalSize == 3 * megabyte)
        #expect(bytes.count > 3 * megabyte)
        // The copy is in memory: its changes do not reach the file.
        try await copy.write { db in try db.execute(sql: "DELETE FROM file") }
        #expect(try await copy.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM file") } == 0)
        #expect(try await fileQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM file") } == 1)

        // Block 12: a table function, and 50,000 keys in one statement.
        let (words, keyCount) = try ReadmeBlock12.run(fileQueue)
        #expect(words == ["to", "be", "or", "not"])
        #expect(keyCount == 1)

        // Block 13: the C interface.
        #expect(ReadmeBlock13.run().hasPrefix("3."))

        #if SQLITE_ENABLE_SESSION
        // Block 15: changesets.
        let replicaQueue = try DatabaseQueue(path: directory.filePath("replica.sqlite"))
        try await replicaQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT)")
            try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur', 0)")
        }
        try ReadmeBlock15.run(dbQueue, replicaQueue: replicaQueue)
        let scores = try await replicaQueue.read { db in try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") }
        // Player 2 is not in the replica: its update was omitted (.notFound).
        #expect(scores == [1010])
        #endif

        #if SQLITE_HAS_CODEC
        // Block 16: encryption.
        let encryptedPath = directory.filePath("encrypted.sqlite")
        let encrypted = try ReadmeBlock16.run(path: encryptedPath, passphrase: "secret", newPassphrase: "new secret")
        try await encrypted.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        try encrypted.close()
        var config = Configuration()
        config.prepareDatabase { db in try db.usePassphrase("new secret") }
        #expect(try await DatabaseQueue(path: encryptedPath, configuration: config).read { db in
            try db.tableExists("t")
        })
        #expect { try DatabaseQueue(path: encryptedPath) } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_NOTADB
        }
        #endif
    }
}
