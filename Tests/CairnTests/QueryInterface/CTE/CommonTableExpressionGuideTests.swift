import Foundation
import Testing
import Cairn

/// The examples of the common table expressions guide, in its order: the
/// SQL it prints, and the values fetched, on a queue and on a pool.
@Suite struct CommonTableExpressionGuideTests {
    struct Player: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var name: String
        var score: Int
        enum Columns {
            static let id = Column("id")
            static let name = Column("name")
            static let score = Column("score")
        }
    }

    func makeWriter(_ kind: WriterKind, _ directory: TemporaryDirectory) throws -> any DatabaseWriter {
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            try Player(id: 1, name: "Arthur", score: 100).insert(db)
            try Player(id: 2, name: "O'Brien", score: 200).insert(db)
            try Player(id: 3, name: "Barbara", score: 300).insert(db)
        }
        return writer
    }

    /// The SQL and the arguments of a request.
    func sqlAndArguments(_ db: Database, _ request: some FetchRequest) throws -> (sql: String, arguments: StatementArguments) {
        let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
        return (statement.sql, statement.arguments)
    }

    /// The statements that `body` runs.
    func executedSQL(_ db: Database, _ body: () throws -> Void) rethrows -> [String] {
        let statements = Locked<[String]>([])
        db.trace { event in
            if case .statement(let statement) = event { statements.withLock { $0.append(statement.expandedSQL) } }
        }
        defer { db.trace(nil) }
        try body()
        return statements.withLock { $0 }
    }

    // MARK: Define Common Table Expressions

    @Test(arguments: WriterKind.allCases)
    func definitions(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        try writer.read { db throws -> Void in
            // From a query interface request.
            let fromRequest = CommonTableExpression(named: "playerName", request: Player.select(\.name))
            #expect(try sqlAndArguments(db, fromRequest.all().with(fromRequest)).sql
                == #"WITH "playerName" AS (SELECT "name" FROM "player") SELECT * FROM "playerName""#)
            #expect(try String.fetchAll(db, fromRequest.all().with(fromRequest).order(Column("name")))
                == ["Arthur", "Barbara", "O'Brien"])

            // From raw SQL, an SQL literal, and an SQL request: the
            // arguments are bound, never inlined.
            let name = "O'Brien"
            let ctes = [
                CommonTableExpression(named: "playerName", sql: "SELECT ?", arguments: [name]),
                CommonTableExpression(named: "playerName", literal: "SELECT \(name)"),
                CommonTableExpression(named: "playerName", request: SQLRequest<Row>("SELECT \(name)")),
            ]
            for cte in ctes {
                let request = cte.all().with(cte)
                let (sql, arguments) = try sqlAndArguments(db, request)
                #expect(sql == #"WITH "playerName" AS (SELECT ?) SELECT * FROM "playerName""#)
                #expect(arguments == [name])
                #expect(try String.fetchOne(db, request) == name)
            }

            // Explicit column names.
            let pairCTE = CommonTableExpression(named: "pair", columns: ["a", "b"], sql: "SELECT 1, 2")
            #expect(try sqlAndArguments(db, pairCTE.all().with(pairCTE)).sql
                == #"WITH "pair"("a", "b") AS (SELECT 1, 2) SELECT * FROM "pair""#)
            let pair = try #require(try pairCTE.all().with(pairCTE).fetchOne(db))
            #expect(pair == ["a": 1, "b": 2])

            // A recursive CTE: the integers from 1 to 1000.
            let counterCTE = CommonTableExpression(
                recursive: true,
                named: "counter",
                columns: ["x"],
                sql: """
                    VALUES(1)
                    UNION ALL
                    SELECT x+1 FROM counter WHERE x<1000
                    """)
            #expect(try sqlAndArguments(db, counterCTE.all().with(counterCTE)).sql == """
                WITH RECURSIVE "counter"("x") AS (VALUES(1)
                UNION ALL
                SELECT x+1 FROM counter WHERE x<1000) SELECT * FROM "counter"
                """)
            let numbers = try Int.fetchAll(db, counterCTE.all().with(counterCTE))
            #expect(numbers == Array(1...1000))
            #expect(try counterCTE.all().with(counterCTE).fetchCount(db) == 1000)
        }
    }

    @Test(arguments: WriterKind.allCases)
    func recursiveCTEWalksATree(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in
            try db.execute(sql: """
                CREATE TABLE node (id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES node(id), name TEXT NOT NULL);
                INSERT INTO node VALUES (1, NULL, 'root'), (2, 1, 'a'), (3, 1, 'b'), (4, 2, 'a1'), (5, 4, 'a11'), (6, NULL, 'other');
                """)
        }
        try writer.read { db throws -> Void in
            // The descendants of a node, with their depth.
            let rootID = 2
            let descendants = CommonTableExpression(
                recursive: true,
                named: "descendant",
                columns: ["id", "depth"],
                literal: """
                    SELECT \(rootID), 0
                    UNION ALL
                    SELECT node.id, descendant.depth + 1 FROM node JOIN descendant ON node.parentId = descendant.id
                    """)
            let rows = try descendants.all().with(descendants).order(Column("id")).fetchAll(db)
            #expect(rows.map { $0["id"] as Int } == [2, 4, 5])
            #expect(rows.map { $0["depth"] as Int } == [0, 1, 2])
            // As a filter of another table.
            let names = try String.fetchAll(db, Table("node")
                .with(descendants)
                .filter(descendants.all().select(Column("id")).contains(Column("id")))
                .select(Column("name"))
                .order(Column("id")))
            #expect(names == ["a", "a1", "a11"])
        }
    }

    // MARK: Embed Common Table Expressions in Requests

    @Test(arguments: WriterKind.allCases)
    func embeddingInRequests(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        let name = "O'Brien"
        let playerNameCTE = CommonTableExpression(named: "playerName", literal: "SELECT \(name)")
        try writer.read { db throws -> Void in
            let request = Player
                .with(playerNameCTE)
                .filter { $0.name == playerNameCTE.all() }
            let (sql, arguments) = try sqlAndArguments(db, request)
            #expect(sql == """
                WITH "playerName" AS (SELECT ?) SELECT * FROM "player" WHERE "name" = (SELECT * FROM "playerName")
                """)
            #expect(arguments == [name])
            #expect(try request.fetchAll(db) == [Player(id: 2, name: "O'Brien", score: 200)])

            // with(_:) at any place of the chain, and several times.
            let later = Player.filter { $0.name == playerNameCTE.all() }.with(playerNameCTE)
            #expect(try later.fetchAll(db).map(\.id) == [2])

            // A CTE of the same name replaces the previous one, at its place.
            let other = CommonTableExpression(named: "playerName", literal: "SELECT 'Arthur'")
            let scores = CommonTableExpression(named: "scores", literal: "SELECT 300")
            let replaced = Player
                .with(playerNameCTE)
                .with(scores)
                .with(other)
                .filter { $0.name == playerNameCTE.all() || $0.score == scores.all() }
            #expect(try sqlAndArguments(db, replaced).sql == """
                WITH "playerName" AS (SELECT 'Arthur'), "scores" AS (SELECT 300) \
                SELECT * FROM "player" WHERE ("name" = (SELECT * FROM "playerName")) OR ("score" = (SELECT * FROM "scores"))
                """)
            #expect(try replaced.fetchAll(db).map(\.id) == [1, 3])

            // cte.all() refined like any request.
            let scoreCTE = CommonTableExpression(named: "score", request: Player.select(\.score))
            let topScores = scoreCTE.all().filter(Column("score") > 150).order(Column("score").desc)
            #expect(try Int.fetchAll(db, topScores.with(scoreCTE)) == [300, 200])
            #expect(try sqlAndArguments(db, topScores.with(scoreCTE)).sql == """
                WITH "score" AS (SELECT "score" FROM "player") SELECT * FROM "score" WHERE "score" > ? ORDER BY "score" DESC
                """)
        }
    }

    @Test(arguments: WriterKind.allCases)
    func embeddingInSQLLiterals(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        let name = "O'Brien"
        let playerNameCTE = CommonTableExpression(named: "playerName", literal: "SELECT \(name)")
        try writer.read { db throws -> Void in
            let request1: SQLRequest<Player> = """
                WITH \(definitionFor: playerNameCTE)
                SELECT * FROM player
                WHERE name = (SELECT * FROM \(playerNameCTE))
                """
            let request2: SQLRequest<Player> = """
                WITH \(definitionFor: playerNameCTE)
                SELECT * FROM player
                WHERE name = (\(playerNameCTE.all()))
                """
            #expect(try sqlAndArguments(db, request1).sql == """
                WITH "playerName" AS (SELECT ?)
                SELECT * FROM player
                WHERE name = (SELECT * FROM "playerName")
                """)
            #expect(try sqlAndArguments(db, request2).sql == """
                WITH "playerName" AS (SELECT ?)
                SELECT * FROM player
                WHERE name = (SELECT * FROM "playerName")
                """)
            for request in [request1, request2] {
                #expect(try sqlAndArguments(db, request).arguments == [name])
                #expect(try request.fetchAll(db).map(\.id) == [2])
            }

            // Columns in the definition.
            let pair = CommonTableExpression(named: "pair", columns: ["a", "b"], literal: "SELECT \(1), 2")
            let request3: SQLRequest<Row> = "WITH \(definitionFor: pair) SELECT b FROM \(pair)"
            #expect(try sqlAndArguments(db, request3).sql == #"WITH "pair"("a", "b") AS (SELECT ?, 2) SELECT b FROM "pair""#)
            #expect(try Int.fetchOne(db, request3) == 2)
        }
    }

    @Test(arguments: WriterKind.allCases)
    func updatesAndDeletes(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        let name = "O'Brien"
        let playerNameCTE = CommonTableExpression(named: "playerName", literal: "SELECT \(name)")
        try writer.write { db in
            let updateSQL = try executedSQL(db) {
                try Player
                    .with(playerNameCTE)
                    .updateAll(db) { $0.name.set(to: playerNameCTE.all()) }
            }
            // The schema queries of the first batch update come before it.
            #expect(updateSQL.last == #"WITH "playerName" AS (SELECT 'O''Brien') UPDATE "player" SET "name" = (SELECT * FROM "playerName")"#)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player") == [name, name, name])

            try db.execute(sql: "UPDATE player SET name = 'Arthur' WHERE id = 1")
            let deleteSQL = try executedSQL(db) {
                try Player
                    .with(playerNameCTE)
                    .filter { $0.name == playerNameCTE.all() }
                    .deleteAll(db)
            }
            #expect(deleteSQL == [#"WITH "playerName" AS (SELECT 'O''Brien') DELETE FROM "player" WHERE "name" = (SELECT * FROM "playerName")"#])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player") == ["Arthur"])

            // A CTE in a joined or limited batch update: one WITH clause,
            // before the statement, and the arguments in order.
            try Player(id: 4, name: "Craig", score: 10).insert(db)
            let bonus = CommonTableExpression(named: "bonus", literal: "SELECT \(5)")
            let limitedSQL = try executedSQL(db) {
                try Player
                    .with(bonus)
                    .order(Column("score").desc)
                    .limit(1)
                    .updateAll(db) { $0.score.set(to: $0.score + bonus.all()) }
            }
            #expect(limitedSQL == [
                #"WITH "bonus" AS (SELECT 5) UPDATE "player" SET "score" = "score" + (SELECT * FROM "bonus") "#
                    + #"WHERE "id" IN (SELECT "id" FROM "player" ORDER BY "score" DESC LIMIT 1)"#,
            ])
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") == [105, 10])
        }
    }

    // MARK: Fetch Values From Common Table Expressions

    @Test(arguments: WriterKind.allCases)
    func fetchingFromCTEs(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        try writer.read { db throws -> Void in
            let cte = CommonTableExpression(named: "bestPlayer", request: Player.filter { $0.score > 150 })
            // Rows.
            let rows = try cte.all().with(cte).fetchAll(db)
            #expect(rows.map { $0["name"] as String } == ["O'Brien", "Barbara"])
            // Records, through asRequest(of:).
            let players = try cte.all().with(cte).asRequest(of: Player.self).fetchAll(db)
            #expect(players.map(\.id) == [2, 3])
            // Records, through the type of the CTE.
            let typed = CommonTableExpression<Player>(named: "bestPlayer", request: Player.filter { $0.score > 150 })
            let typedPlayers: [Player] = try typed.all().with(typed).fetchAll(db)
            #expect(typedPlayers == players)
            #expect(try typed.all().with(typed).fetchOne(db) == players.first)
            #expect(try typed.all().with(typed).fetchCount(db) == 2)
            #expect(try Row.fetchAll(db, cte.all().with(cte)) == rows)
            // Values.
            let answer = CommonTableExpression<Int>(named: "answer", sql: "SELECT 42")
            #expect(try answer.all().with(answer).fetchOne(db) == 42)
            // A CTE without with(_:) is a table SQLite does not know.
            #expect(throws: DatabaseError.self) {
                _ = try cte.all().fetchAll(db)
            }
        }
    }
}
