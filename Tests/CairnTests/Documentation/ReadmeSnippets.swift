import Foundation
import Cairn
import Observation

// The Swift code of README.md, block by block, so that it compiles and runs
// in the tests (ReadmeTests checks that each block of the README is here,
// line after line, between its markers). Lines that are not in the README
// only wrap the blocks: namespaces for their types, functions for their
// statements, and the use of values the README leaves unused. The README's
// "/path/to/database.sqlite" is `databasePath` here.

// README block 1
enum ReadmeBlock1 {
    static func run(databasePath: String) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(path: databasePath)

        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT)
                """)
            try db.execute(
                sql: "INSERT INTO player (name, score) VALUES (?, ?)",
                arguments: ["Arthur", 1000])
            let name = "Barbara"
            try db.execute(literal: "INSERT INTO player (name, score) VALUES (\(name), \(750))")
        }

        let players = try dbQueue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY score DESC")
        }
        precondition(players.count == 2)
        return dbQueue
    }
}
// end of README block 1

// README block 2
enum ReadmeBlock2 {
    static func run(_ dbQueue: DatabaseQueue) async throws -> String? {
        func bestPlayerName(in dbQueue: DatabaseQueue) async throws -> String? {
            try await dbQueue.read { db in
                try String.fetchOne(db, sql: "SELECT name FROM player ORDER BY score DESC")
            }
        }
        return try await bestPlayerName(in: dbQueue)
    }
}
// end of README block 2

// README block 3
enum ReadmeBlock3 {
    struct Player: Codable, Identifiable, FetchableRecord, MutablePersistableRecord {
        var id: Int64?
        var name: String
        var score: Int

        enum Columns {
            static let name = Column(CodingKeys.name)
            static let score = Column(CodingKeys.score)
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }

    static func run(_ dbQueue: DatabaseQueue) throws -> [Player] {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createPlayer") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull().defaults(to: 0)
            }
        }
        try migrator.migrate(dbQueue)

        try dbQueue.write { db in
            var player = Player(id: nil, name: "Arthur", score: 1000)
            try player.insert(db)        // INSERT INTO "player" ("id", "name", "score") VALUES (?, ?, ?)
            player.score += 100
            try player.update(db)        // UPDATE "player" SET "name"=?, "score"=? WHERE "id"=?
        }

        let best = try dbQueue.read { db in
            // SELECT * FROM "player" WHERE "score" > ? ORDER BY "score" DESC LIMIT 10
            try Player.filter { $0.score > 500 }.order { $0.score.desc }.limit(10).fetchAll(db)
        }
        return best
    }
}
// end of README block 3

// README block 4
enum ReadmeBlock4 {
    struct Author: Codable, FetchableRecord, PersistableRecord {
        static let books = hasMany(Book.self)
        var id: Int64
        var name: String
    }

    struct Book: Codable, FetchableRecord, PersistableRecord {
        static let author = belongsTo(Author.self)
        var id: Int64
        var authorId: Int64
        var title: String
    }

    struct BookInfo: Decodable, FetchableRecord {
        var book: Book
        var author: Author
    }

    struct AuthorInfo: Decodable, FetchableRecord {
        var author: Author
        var books: [Book]
        var bookCount: Int
    }

    static func run(_ dbQueue: DatabaseQueue) throws -> ([BookInfo], [AuthorInfo]) {
        let (bookInfos, authorInfos) = try dbQueue.read { db in
            // SELECT "book".*, "author".* FROM "book"
            // JOIN "author" ON "author"."id" = "book"."authorId"
            let bookInfos = try Book.including(required: Book.author).asRequest(of: BookInfo.self).fetchAll(db)

            // SELECT "author".*, COUNT(DISTINCT "book"."id") AS "bookCount" FROM "author"
            // LEFT JOIN "book" ON "book"."authorId" = "author"."id" GROUP BY "author"."id"
            // SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE "authorId" IN (1, 2, 3)
            let authorInfos = try Author
                .annotated(with: Author.books.count)
                .including(all: Author.books)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            return (bookInfos, authorInfos)
        }
        return (bookInfos, authorInfos)
    }
}
// end of README block 4

// README block 5
enum ReadmeBlock5 {
    struct Chat: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        enum Columns { static let id = Column("id") }
    }

    struct Message: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var chatId: Int64
        var date: Date
        enum Columns {
            static let chatId = Column("chatId")
            static let date = Column("date")
        }
    }

    struct ChatInfo: Decodable, FetchableRecord {
        var chat: Chat
        var latestMessage: Message?
    }

    static func run(_ dbQueue: DatabaseQueue) throws -> ([ChatInfo], [Int]) {
        // WITH "latestMessage" AS (SELECT *, MAX("date") FROM "message" GROUP BY "chatId")
        // SELECT "chat".*, "latestMessage".* FROM "chat"
        // LEFT JOIN "latestMessage" ON "chat"."id" = "latestMessage"."chatId"
        // ORDER BY "latestMessage"."date" DESC
        let latestMessageCTE = CommonTableExpression<Message>(
            named: "latestMessage",
            request: Message.annotated { max($0.date) }.group(\.chatId))
        let latestMessage = Chat
            .association(to: latestMessageCTE) { chat, message in chat.id == message.chatId }
            .order(\.date.desc)
        let chatInfos = try dbQueue.read { db in
            try Chat
                .with(latestMessageCTE)
                .including(optional: latestMessage)
                .asRequest(of: ChatInfo.self)
                .fetchAll(db)
        }

        // WITH RECURSIVE "counter"("x") AS (VALUES(1) UNION ALL SELECT x+1 FROM counter WHERE x<10)
        // SELECT * FROM "counter"
        let counter = CommonTableExpression<Int>(
            recursive: true, named: "counter", columns: ["x"],
            sql: "VALUES(1) UNION ALL SELECT x+1 FROM counter WHERE x<10")
        let numbers = try dbQueue.read { db in try counter.all().with(counter).fetchAll(db) }  // [1, ..., 10]
        return (chatInfos, numbers)
    }
}
// end of README block 5

// README block 6
enum ReadmeBlock6 {
    static func run(databasePath: String) throws -> Int {
        let dbPool = try DatabasePool(path: databasePath)
        let snapshotPool = try dbPool.makeSnapshotPool()
        try dbPool.write { db in try db.execute(sql: "DELETE FROM player") }
        // From any number of threads, the players as they were:
        let count = try snapshotPool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
        }
        return count
    }
}
// end of README block 6

// README block 7
enum ReadmeBlock7 {
    static func run(databasePath: String) throws -> (titles: [String], posts: [String]) {
        // Swift tokenizers are registered in each connection that uses them.
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.add(tokenizer: FTS5LatinASCIITokenizer.self)
            db.add(tokenizer: FTS5WordTokenizer.self)
        }
        let dbQueue = try DatabaseQueue(path: databasePath, configuration: configuration)

        try dbQueue.write { db in
            try db.create(virtualTable: "document", using: FTS5()) { t in
                t.tokenizer = FTS5LatinASCIITokenizer.tokenizerDescriptor() // "Großmann" matches "grossmann"
                t.column("title")
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO document (title, body) VALUES (?, ?)", arguments: ["Café", "Crème brûlée"])

            // Words of languages written without spaces, found with dictionaries.
            try db.create(virtualTable: "post", using: FTS5()) { t in
                t.tokenizer = FTS5WordTokenizer.tokenizerDescriptor()
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO post (body) VALUES (?)", arguments: ["研究生命科学很有意思"])
        }

        let userInput = "creme cafe"
        let titles = try dbQueue.read { db -> [String] in
            guard let pattern = FTS5Pattern(matchingAllTokensIn: userInput) else { return [] } // nil when no token
            return try String.fetchAll(db, sql: "SELECT title FROM document WHERE document MATCH ? ORDER BY rank", arguments: [pattern])
        }
        let posts = try dbQueue.read { db in
            // 科学 (science) is a word of the post: 研究 生命 科学 很 有意思
            try String.fetchAll(db, sql: "SELECT body FROM post WHERE post MATCH ?", arguments: ["科学"])
        }
        return (titles, posts)
    }
}
// end of README block 7

// README block 8
extension ReadmeBlock3 {
    @MainActor @Observable final class BestPlayers {
        var players: [Player] = []
        private var cancellable: AnyDatabaseCancellable?

        // The closures run on the main actor; with `.immediate`, the first
        // value is set before `start` returns.
        func observe(_ dbQueue: DatabaseQueue) {
            let observation = ValueObservation.tracking { db in
                try Player.order(Column("score").desc).limit(10).fetchAll(db)
            }
            cancellable = observation.start(in: dbQueue, scheduling: .immediate) { error in
                print(error)
            } onChange: { [unowned self] players in
                self.players = players
            }
        }
    }
}
// end of README block 8

// README block 9
extension ReadmeBlock3 {
    static func observeAsync(_ dbQueue: DatabaseQueue) async throws {
        func printBestPlayers(of dbQueue: DatabaseQueue) async throws {
            let observation = ValueObservation.tracking { db in
                try Player.order(Column("score").desc).limit(10).fetchAll(db)
            }
            for try await bestPlayers in observation.values(in: dbQueue) {
                print("Fresh best players: \(bestPlayers)")
            }
        }
        try await printBestPlayers(of: dbQueue)
    }
}
// end of README block 9

// README block 10
enum ReadmeBlock10 {
    static func run(_ dbQueue: DatabaseQueue) throws {
        let pieceSize = 1 << 20   // 1 MB
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE file (id INTEGER PRIMARY KEY, content BLOB NOT NULL)")
            // Reserve 3 MB, then write them one piece at a time.
            try db.execute(sql: "INSERT INTO file (id, content) VALUES (1, zeroblob(?))", arguments: [3 * pieceSize])
            let blob = try db.openBlob(table: "file", column: "content", rowID: 1, readOnly: false)
            for index in 0..<3 {
                try blob.write(Data(repeating: UInt8(index), count: pieceSize), at: index * pieceSize)
            }
        }
    }
}
// end of README block 10

// README block 11
enum ReadmeBlock11 {
    static func run(_ dbQueue: DatabaseQueue) throws -> (bytes: Data, copy: DatabaseQueue, totalSize: Int?) {
        let bytes = try dbQueue.read { db in try db.serialize() }   // Data, to store or send
        let copy = try DatabaseQueue(deserializing: bytes)          // in memory

        let totalSize = try copy.read { db in
            try db.withTimeLimit(2) {   // past 2 seconds, throws SQLITE_INTERRUPT
                try Int.fetchOne(db, sql: "SELECT SUM(length(content)) FROM file")
            }
        }
        return (bytes, copy, totalSize)
    }
}
// end of README block 11

// README block 12
enum ReadmeBlock12 {
    static func run(_ dbQueue: DatabaseQueue) throws -> (words: [String], count: Int) {
        var result: (words: [String], count: Int) = ([], 0)
        let splitWords = DatabaseTableFunction("split_words", columns: ["word"], parameters: ["text"]) { arguments in
            let text = String.fromDatabaseValue(arguments[0]) ?? ""
            return AnyCursor(text.split(separator: " ").lazy.map { [String($0)] })
        }
        try dbQueue.write { db in
            try db.add(tableFunction: splitWords)   // on each connection that uses it
            let words = try String.fetchAll(db, sql: "SELECT word FROM split_words(?)", arguments: ["to be or not"])

            let ids = Array(1...50_000)   // IN (SELECT +value FROM cairn_values(?))
            let count = try Table("file").filter(keys: ids).fetchCount(db)
            result = (words, count)
        }
        return result
    }
}
// end of README block 12

// README block 13
enum ReadmeBlock13 {
    static func run() -> String {
        let version = String(cString: sqlite3_libversion()) // "3.50.4"
        return version
    }
}
// end of README block 13

// README block 15
#if SQLITE_ENABLE_SESSION
enum ReadmeBlock15 {
    static func run(_ dbQueue: DatabaseQueue, replicaQueue: DatabaseQueue) throws {
        let changeset = try dbQueue.write { db in
            let session = try DatabaseSession(db)
            try session.attach("player")
            try db.execute(sql: "UPDATE player SET score = score + 10")
            return try session.changeset()       // Data inside: changeset.data
        }
        for operation in try changeset.operations() {
            print(operation.kind, operation.tableName, operation.oldValues, operation.newValues)
        }
        try replicaQueue.write { db in
            try db.apply(changeset) { conflict in
                switch conflict.kind {
                case .data, .conflict: return .replace   // the changeset wins
                case .notFound: return .omit
                case .constraint, .foreignKey: return .abort
                }
            }
        }
    }
}
#endif
// end of README block 15

// README block 16
#if SQLITE_HAS_CODEC
enum ReadmeBlock16 {
    static func run(path: String, passphrase: String, newPassphrase: String) throws -> DatabaseQueue {
        var config = Configuration()
        config.prepareDatabase { db in
            try db.usePassphrase(passphrase)     // before anything reads the file
        }
        let dbQueue = try DatabaseQueue(path: path, configuration: config)

        // A new passphrase (an empty one decrypts), outside WAL mode:
        try dbQueue.writeWithoutTransaction { db in
            try db.changePassphrase(newPassphrase)
        }
        return dbQueue
    }
}
#endif
// end of README block 16
