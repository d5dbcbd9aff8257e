import Foundation
import Testing
import Cairn

/// The examples of the SQL chapters of the guides that Cairn follows
/// (executing updates, fetching, values, prepared statements, errors,
/// transactions, functions, collations), and of our README, run as written.
@Suite struct SpecExamplesTests {
    @Test func readmeQuickExample() async throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        // In an async function, the async variants run: they need `await`.
        try await dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT)
                """)
            try db.execute(
                sql: "INSERT INTO player (name, score) VALUES (?, ?)",
                arguments: ["Arthur", 1000])
            let name = "Barbara"
            try db.execute(literal: "INSERT INTO player (name, score) VALUES (\(name), \(750))")
        }
        let players = try await dbQueue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY score DESC")
        }
        let bestName = try await dbQueue.read { db in
            try String.fetchOne(db, sql: "SELECT name FROM player ORDER BY score DESC")
        }
        #expect(players.count == 2)
        #expect(bestName == "Arthur")
        let version = String(cString: sqlite3_libversion())
        #expect(version == "3.50.4")
    }

    @Test func executingUpdates() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  name TEXT NOT NULL,
                  score INT)
                """)
            try db.execute(
                sql: "INSERT INTO player (name, score) VALUES (?, ?)",
                arguments: ["Barbara", 1000])
            try db.execute(
                sql: "UPDATE player SET score = :score WHERE id = :id",
                arguments: ["score": 1000, "id": 1])
            let playerId = db.lastInsertedRowID
            #expect(playerId == 1)

            // SQL interpolation
            let name = "O'Brien"
            let score = 550
            try db.execute(literal: """
                INSERT INTO player (name, score) VALUES (\(name), \(score))
                """)
        }
    }

    @Test func fetchingRowsValuesAndCursors() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT, isPinned BOOLEAN);
                CREATE TABLE link (url TEXT);
                INSERT INTO player (name, score, isPinned) VALUES ('Arthur', 750, 1), ('Barbara', 1000, 0);
                INSERT INTO link VALUES ('https://example.com');
                """)
        }
        try dbQueue.read { db in
            if let row = try Row.fetchOne(db, sql: "SELECT * FROM player WHERE id = ?", arguments: [1]) {
                let name: String = row["name"]
                let isPinned: Bool = row["isPinned"]
                #expect(name == "Arthur")
                #expect(isPinned)
            }
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM player")
            while let row = try rows.next() {
                let id: Int64 = row["id"]
                let name: String = row["name"]
                #expect(id > 0 && !name.isEmpty)
            }
            let playerCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! // Int
            #expect(playerCount == 2)
            let playerNames = try String.fetchAll(db, sql: "SELECT name FROM player") // [String]
            #expect(playerNames.count == 2)
            let urls = try URL.fetchCursor(db, sql: "SELECT url FROM link")
            while let url = try urls.next() {
                #expect(url.host == "example.com")
            }
            let maxScore = try Int.fetchOne(db, sql: "SELECT MAX(score) FROM player") // Int?
            #expect(maxScore == 1000)

            // Row values
            let row = try Row.fetchOne(db, sql: "SELECT 'Mozart'")!
            #expect(row[0] as String == "Mozart")
            #expect(row[0] as String? == "Mozart")
            // A value that does not convert is an error, also for optionals:
            #expect(throws: RowDecodingError.self) { try row.decode(Int?.self, atIndex: 0) }
            let dbValue: DatabaseValue = row[0]
            switch dbValue.storage {
            case .string(let string): #expect(string == "Mozart")
            default: Issue.record("Expected a string")
            }
        }
    }

    @Test func preparedStatements() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: createPlayerTableSQL)
            let insertStatement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (:name, :score)")
            try insertStatement.execute(arguments: ["name": "Arthur", "score": 1000])
            try insertStatement.setArguments(["name": "Barbara", "score": 750])
            try insertStatement.execute()

            let selectStatement = try db.makeStatement(sql: "SELECT * FROM player WHERE name = ?")
            let rows = try Row.fetchCursor(selectStatement, arguments: ["Arthur"])
            #expect(try rows.next()?["score"] as Int? == 1000)
            let players = try Row.fetchAll(selectStatement, arguments: ["Barbara"])
            #expect(players.count == 1)

            // Cached statements
            let sql = "INSERT INTO player (name, score) VALUES (:name, :score)"
            let statement = try db.cachedStatement(sql: sql)
            try statement.execute(arguments: ["name": "Craig", "score": 500])
            let literal = try db.cachedStatement(literal: "SELECT COUNT(*) FROM player WHERE score > \(600)")
            #expect(try Int.fetchOne(literal) == 2)
        }
    }

    @Test func errorHandling() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE pet (masterId INTEGER NOT NULL REFERENCES player(id), name TEXT);
                """)
        }
        do {
            try dbQueue.write { db in
                try db.execute(
                    sql: "INSERT INTO pet (masterId, name) VALUES (?, ?)",
                    arguments: [1, "Bobby"])
            }
            Issue.record("Expected an error")
        } catch let error as DatabaseError {
            // The SQLite result code
            #expect(error.resultCode == .SQLITE_CONSTRAINT)
            #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            #expect(error.message == "FOREIGN KEY constraint failed")
            #expect(error.sql == "INSERT INTO pet (masterId, name) VALUES (?, ?)")
            #expect(error.description.contains("FOREIGN KEY constraint failed"))
        }

        do {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO pet (masterId, name) VALUES (1, 'Bobby')")
            }
        } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
            // foreign key constraint error
        } catch DatabaseError.SQLITE_CONSTRAINT {
            Issue.record("The extended code should match first")
        } catch {
            Issue.record("Unexpected \(error)")
        }
    }

    @Test func transactionsAndSavepoints() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE credit (amount INT); CREATE TABLE debit (amount INT)")
        }
        // Makes sure both inserts succeed, or none:
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO credit VALUES (100)")
            try db.execute(sql: "INSERT INTO debit VALUES (100)")
        }
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO credit VALUES (200)")
            return .commit
        }
        try dbQueue.writeWithoutTransaction { db in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO credit VALUES (300)")
                return .commit
            }
            try db.inTransaction(.exclusive) {
                try db.execute(sql: "INSERT INTO credit VALUES (400)")
                return .rollback
            }
        }
        try dbQueue.write { db in
            try db.inSavepoint {
                try db.execute(sql: "DELETE FROM credit")
                return .rollback
            }
        }
        // 2) Customized default transaction kind:
        var config = Configuration()
        config.defaultTransactionKind = .immediate
        let immediateQueue = try DatabaseQueue(configuration: config)
        try immediateQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }

        #expect(try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT amount FROM credit ORDER BY amount") } == [100, 200, 300])
    }

    @Test func customFunctionsAndAggregates() throws {
        let reverseString = DatabaseFunction("reverseString", argumentCount: 1, pure: true) { (values: [DatabaseValue]) in
            // Extract string value, if any...
            guard let string = String.fromDatabaseValue(values[0]) else {
                return nil
            }
            // ... and return reversed string:
            return String(string.reversed())
        }
        let sqrtFunction = DatabaseFunction("sqrt2", argumentCount: 1, pure: true) { (values: [DatabaseValue]) in
            guard let double = Double.fromDatabaseValue(values[0]) else { return nil }
            guard double >= 0 else { throw DatabaseError(message: "invalid negative number") }
            return sqrt(double)
        }
        struct MaxLength: DatabaseAggregate {
            var maxLength: Int = 0
            mutating func step(_ dbValues: [DatabaseValue]) {
                // At each step, extract string value, if any...
                guard let string = String.fromDatabaseValue(dbValues[0]) else { return }
                // ... and update the result
                let length = string.count
                if length > maxLength { maxLength = length }
            }
            func finalize() -> (any DatabaseValueConvertible)? { maxLength }
        }
        let maxLength = DatabaseFunction("maxLength", argumentCount: 1, pure: true, aggregate: MaxLength.self)

        var config = Configuration()
        config.prepareDatabase { db in
            db.add(function: reverseString)
            db.add(function: sqrtFunction)
            db.add(function: maxLength)
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.execute(sql: createPlayerTableSQL)
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur'), ('Barbara')")
            // SELECT reverseString("name") FROM player
            #expect(try String.fetchAll(db, sql: "SELECT reverseString(name) FROM player ORDER BY id") == ["ruhtrA", "arabraB"])
            #expect(try Int.fetchOne(db, sql: "SELECT maxLength(name) FROM player") == 7)
            // SQLite error 1: invalid negative number - while executing `SELECT sqrt2(-1)`
            #expect {
                try Double.fetchOne(db, sql: "SELECT sqrt2(-1)")
            } throws: { error in
                String(describing: error) == "SQLite error 1: invalid negative number - while executing `SELECT sqrt2(-1)`"
            }
        }
    }

    @Test func unicodeCollations() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            // A collation can be applied to a table column.
            try db.execute(sql: "CREATE TABLE player (name TEXT COLLATE localizedCaseInsensitiveCompare)")
            try db.execute(sql: "INSERT INTO player VALUES ('bob'), ('Alice'), ('charlie')")
            // All comparisons and sorts on the column use the collation:
            let sorted = try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY name")
            #expect(sorted == ["Alice", "bob", "charlie"])
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player WHERE name = 'BOB'") == "bob")
            // Or in a query:
            let other = try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY name COLLATE unicodeCompare")
            #expect(other == ["Alice", "bob", "charlie"])
        }
    }

    @Test func tracingAndErrorLog() throws {
        let statements = Locked<[String]>([])
        var config = Configuration()
        config.prepareDatabase { db in
            db.trace { event in statements.withLock { $0.append("\(event)") } }
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (name TEXT)")
            try db.execute(sql: "INSERT INTO player VALUES (?)", arguments: ["O'Brien"])
        }
        // Values such as 'O''Brien' are hidden from the logged statements.
        #expect(statements.withLock { $0 }.contains("INSERT INTO player VALUES (?)"))

        let profiled = Locked<[String]>([])
        let profiledQueue = try DatabaseQueue()
        try profiledQueue.inDatabase { db in
            db.trace(options: .profile) { event in profiled.withLock { $0.append("\(event)") } }
            try db.execute(sql: "SELECT 1")
        }
        #expect(profiled.withLock { $0 }.first?.hasSuffix("s SELECT 1") == true)
    }
}

/// The README's snapshot pool example.
@Suite struct ReadmeConcurrencyExampleTests {
    @Test func snapshotPoolExample() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.filePath())
        try dbPool.write { db in
            try db.execute(sql: createPlayerTableSQL)
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
        }
        let snapshotPool = try dbPool.makeSnapshotPool()
        try dbPool.write { db in try db.execute(sql: "DELETE FROM player") }
        // From any number of threads, the players as they were:
        let count = try snapshotPool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
        }
        #expect(count == 1)
    }
}

/// The README's records example.
@Suite struct ReadmeRecordsExampleTests {
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

    @Test func recordsExample() throws {
        let dbQueue = try DatabaseQueue()
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
            try player.insert(db)
            player.score += 100
            try player.update(db)
        }

        let best = try dbQueue.read { db in
            try Player.filter { $0.score > 500 }.order { $0.score.desc }.limit(10).fetchAll(db)
        }
        #expect(best.map(\.score) == [1100])
    }
}

/// The README's associations example.
@Suite struct ReadmeAssociationsExampleTests {
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

    @Test func associationsExample() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "author") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
            }
            try db.create(table: "book") { t in
                t.primaryKey("id", .integer)
                t.belongsTo("author").notNull()
                t.column("title", .text).notNull()
            }
            try Author(id: 1, name: "Herman Melville").insert(db)
            try Author(id: 2, name: "Jules Verne").insert(db)
            try Author(id: 3, name: "Nobody").insert(db)
            try Book(id: 1, authorId: 1, title: "Moby-Dick").insert(db)
            try Book(id: 2, authorId: 2, title: "Around the World in Eighty Days").insert(db)
            try Book(id: 3, authorId: 2, title: "Twenty Thousand Leagues Under the Seas").insert(db)
        }
        try dbQueue.read { db in
            let bookRequest = Book.including(required: Book.author)
            #expect(try bookRequest.makePreparedRequest(db, forSingleResult: false).statement.sql == """
                SELECT "book".*, "author".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId"
                """)
            let bookInfos = try bookRequest.asRequest(of: BookInfo.self).fetchAll(db)
            #expect(Set(bookInfos.map { "\($0.book.title)/\($0.author.name)" }) == [
                "Moby-Dick/Herman Melville",
                "Around the World in Eighty Days/Jules Verne",
                "Twenty Thousand Leagues Under the Seas/Jules Verne",
            ])

            let authorRequest = Author
                .annotated(with: Author.books.count)
                .including(all: Author.books)
            #expect(try authorRequest.makePreparedRequest(db, forSingleResult: false).statement.sql == """
                SELECT "author".*, COUNT(DISTINCT "book"."id") AS "bookCount" FROM "author" \
                LEFT JOIN "book" ON "book"."authorId" = "author"."id" GROUP BY "author"."id"
                """)
            let authorInfos = try authorRequest.asRequest(of: AuthorInfo.self).fetchAll(db).sorted { $0.author.id < $1.author.id }
            #expect(authorInfos.map(\.bookCount) == [1, 2, 0])
            #expect(authorInfos.map { $0.books.map(\.id).sorted() } == [[1], [2, 3], []])
        }
    }
}

/// The README's common table expressions example.
@Suite struct ReadmeCommonTableExpressionsExampleTests {
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

    @Test func commonTableExpressionsExample() throws {
        let dbQueue = try DatabaseQueue()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        try dbQueue.write { db in
            try db.create(table: "chat") { t in t.primaryKey("id", .integer) }
            try db.create(table: "message") { t in
                t.primaryKey("id", .integer)
                t.belongsTo("chat").notNull()
                t.column("date", .datetime).notNull()
            }
            try Chat(id: 1).insert(db)
            try Chat(id: 2).insert(db)
            try Message(id: 1, chatId: 1, date: start).insert(db)
            try Message(id: 2, chatId: 1, date: start + 60).insert(db)
        }

        // The README's code.
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
        let counter = CommonTableExpression<Int>(
            recursive: true, named: "counter", columns: ["x"],
            sql: "VALUES(1) UNION ALL SELECT x+1 FROM counter WHERE x<10")
        let numbers = try dbQueue.read { db in try counter.all().with(counter).fetchAll(db) }

        #expect(chatInfos.map(\.chat.id) == [1, 2])
        #expect(chatInfos.map(\.latestMessage?.id) == [2, nil])
        #expect(numbers == Array(1...10))
    }
}
