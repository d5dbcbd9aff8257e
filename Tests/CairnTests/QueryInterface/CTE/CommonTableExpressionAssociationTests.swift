import Foundation
import Testing
import Cairn

/// Associations to common table expressions: the chat app of the guide,
/// the SQL of each joining method, the rules for merging, aliases and
/// conflicting CTEs, and the bad input.
@Suite struct CommonTableExpressionAssociationTests {
    struct Chat: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var title: String
        enum Columns {
            static let id = Column("id")
        }
    }

    struct Message: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var chatId: Int64
        var date: Date
        var text: String
        enum Columns {
            static let chatId = Column("chatId")
            static let date = Column("date")
        }
    }

    struct ChatInfo: Decodable, FetchableRecord, Equatable {
        /// The chat
        var chat: Chat
        /// The latest chat message, if any
        var latestMessage: Message?
    }

    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    func makeWriter(_ kind: WriterKind, _ directory: TemporaryDirectory) throws -> any DatabaseWriter {
        let writer = try kind.make(path: directory.filePath())
        try writer.write { db in
            try db.create(table: "chat") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
            }
            try db.create(table: "message") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("chat").notNull()
                t.column("date", .datetime).notNull()
                t.column("text", .text).notNull()
            }
            try Chat(id: 1, title: "Family").insert(db)
            try Chat(id: 2, title: "Work").insert(db)
            try Chat(id: 3, title: "Empty").insert(db)
            let start = Self.start
            try Message(id: 1, chatId: 1, date: start, text: "hello").insert(db)
            try Message(id: 2, chatId: 1, date: start + 20, text: "dinner?").insert(db)
            try Message(id: 3, chatId: 2, date: start + 30, text: "meeting").insert(db)
            try Message(id: 4, chatId: 2, date: start + 10, text: "report").insert(db)
        }
        return writer
    }

    func sql(_ db: Database, _ request: some FetchRequest) throws -> String {
        try request.makePreparedRequest(db, forSingleResult: false).statement.sql
    }

    // MARK: The chat app

    @Test(arguments: WriterKind.allCases)
    func latestMessageOfEachChat(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory)
        // The code of the guide.
        let latestMessageRequest = Message
            .annotated { max($0.date) }
            .group(\.chatId)
        let latestMessageCTE = CommonTableExpression<Message>(
            named: "latestMessage",
            request: latestMessageRequest)
        let latestMessage = Chat.association(
            to: latestMessageCTE,
            on: { chat, latestMessage in
                chat.id == latestMessage.chatId
            })
            .order(\.date.desc)
        let request = Chat
            .with(latestMessageCTE)
            .including(optional: latestMessage)
            .asRequest(of: ChatInfo.self)

        try writer.read { db throws -> Void in
            #expect(try sql(db, request) == """
                WITH "latestMessage" AS (SELECT *, MAX("date") FROM "message" GROUP BY "chatId") \
                SELECT "chat".*, "latestMessage".* \
                FROM "chat" \
                LEFT JOIN "latestMessage" ON "chat"."id" = "latestMessage"."chatId" \
                ORDER BY "latestMessage"."date" DESC
                """)
            let chatInfos = try request.fetchAll(db)
            let start = Self.start
            #expect(chatInfos == [
                ChatInfo(chat: Chat(id: 2, title: "Work"), latestMessage: Message(id: 3, chatId: 2, date: start + 30, text: "meeting")),
                ChatInfo(chat: Chat(id: 1, title: "Family"), latestMessage: Message(id: 2, chatId: 1, date: start + 20, text: "dinner?")),
                ChatInfo(chat: Chat(id: 3, title: "Empty"), latestMessage: nil),
            ])
            // The row has the scope of the CTE, under the key of its name.
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row.scopes.names == ["latestMessage"])
        }
    }

    // MARK: Joining methods

    @Test func joiningMethods() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "t") { t in t.autoIncrementedPrimaryKey("id") }
            try db.execute(sql: "INSERT INTO t VALUES (1), (2), (3)")
        }
        struct T: TableRecord {
            enum Columns { static let id = Column("id") }
        }
        let cte = CommonTableExpression<T>(named: "cte", request: T.filter { $0.id >= 2 })
        let association = T.association(to: cte) { t, cte in t.id < cte.id }
        try dbQueue.read { db throws -> Void in
            let base = T.all().with(cte)
            let with = #"WITH "cte" AS (SELECT * FROM "t" WHERE "id" >= ?) "#
            #expect(try sql(db, base.including(required: association))
                == with + #"SELECT "t".*, "cte".* FROM "t" JOIN "cte" ON "t"."id" < "cte"."id""#)
            #expect(try sql(db, base.including(optional: association))
                == with + #"SELECT "t".*, "cte".* FROM "t" LEFT JOIN "cte" ON "t"."id" < "cte"."id""#)
            #expect(try sql(db, base.joining(required: association))
                == with + #"SELECT "t".* FROM "t" JOIN "cte" ON "t"."id" < "cte"."id""#)
            #expect(try sql(db, base.joining(optional: association))
                == with + #"SELECT "t".* FROM "t" LEFT JOIN "cte" ON "t"."id" < "cte"."id""#)

            // t 1 < cte 2, 3; t 2 < cte 3; t 3 has none.
            let pairs = try Row.fetchAll(db, base.including(required: association).order(sql: "t.id, cte.id"))
            #expect(pairs.map { [$0["id"] as Int, $0.scopes["cte"]!["id"] as Int] } == [[1, 2], [1, 3], [2, 3]])
            let optional = try Row.fetchAll(db, base.including(optional: association).order(sql: "t.id, cte.id"))
            #expect(optional.count == 4)
            #expect(optional.last!.scopes["cte"]!.containsNonNullValue == false)
            #expect(try base.joining(required: association).fetchCount(db) == 3)

            // No condition: a cross join; the filters of the association
            // go in the ON clause; its ordering after the base ordering.
            let all = T.association(to: cte)
            #expect(try sql(db, base.including(required: all))
                == with + #"SELECT "t".*, "cte".* FROM "t" JOIN "cte""#)
            #expect(try base.including(required: all).fetchCount(db) == 6)
            let filtered = all.filter(Column("id") > 2).order(Column("id").desc)
            #expect(try sql(db, base.including(required: filtered).order(Column("id")))
                == with + #"SELECT "t".*, "cte".* FROM "t" JOIN "cte" ON "cte"."id" > ? ORDER BY "t"."id", "cte"."id" DESC"#)

            // An alias of the CTE in a filter of the request.
            let alias = TableAlias<T>()
            let aliased = base.including(required: all.aliased(alias)).filter(alias.id == 3)
            #expect(try sql(db, aliased) == with + #"SELECT "t".*, "cte".* FROM "t" JOIN "cte" WHERE "cte"."id" = ?"#)
            #expect(try Row.fetchAll(db, aliased).count == 3)
            // A named alias of the base table in the condition.
            let base2 = TableAlias<T>(name: "base")
            let request = T.aliased(base2).with(cte)
                .joining(required: T.association(to: cte) { _, cte in cte.id == base2.id })
            #expect(try sql(db, request) == with + #"SELECT "base".* FROM "t" "base" JOIN "cte" ON "cte"."id" = "base"."id""#)
            #expect(try request.fetchCount(db) == 2)
        }
    }

    @Test func mergingAndKeys() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "t") { t in t.autoIncrementedPrimaryKey("id") }
        }
        struct T: TableRecord { }
        let cte = CommonTableExpression(named: "cte", request: T.all())
        let base = T.all().with(cte)
        let with = #"WITH "cte" AS (SELECT * FROM "t") "#
        try dbQueue.read { db throws -> Void in
            // The same association twice: one join.
            let greater = T.association(to: cte) { t, cte in t["id"] > cte["id"] }
            #expect(try sql(db, base.including(required: greater).including(required: greater))
                == with + #"SELECT "t".*, "cte".* FROM "t" JOIN "cte" ON "t"."id" > "cte"."id""#)
            // Two conditions under one key: the last one wins.
            let sum = T.association(to: cte) { t, cte in t["id"] + cte["id"] == 1 }
            #expect(try sql(db, base.including(required: greater).including(required: sum))
                .hasSuffix(#"JOIN "cte" ON ("t"."id" + "cte"."id") = ?"#))
            // Two keys: two joins, with numbered names.
            let request = base
                .including(required: greater.forKey("a"))
                .including(required: T.association(to: cte) { t, cte in t["id"] < cte["id"] }.forKey("b"))
            #expect(try sql(db, request) == with + """
                SELECT "t".*, "cte1".*, "cte2".* FROM "t" \
                JOIN "cte" "cte1" ON "t"."id" > "cte1"."id" \
                JOIN "cte" "cte2" ON "t"."id" < "cte2"."id"
                """)

            // Chained associations between CTEs and tables, tagged with
            // types so that each one only joins where it belongs.
            enum CTE1 { }
            enum CTE2 { }
            let cte1 = CommonTableExpression<CTE1>(named: "cte1", request: T.all())
            let cte2 = CommonTableExpression<CTE2>(named: "cte2", literal: "SELECT \("O'Brien")")
            let toCTE1 = T.association(to: cte1)
            let toCTE2 = cte1.association(to: cte2)
            for toT in [cte2.association(to: T.self), cte2.association(to: Table("t"))] {
                let chained = T.all()
                    .with(cte1)
                    .with(cte2)
                    .including(required: toCTE1.including(required: toCTE2.including(required: toT)))
                #expect(try sql(db, chained) == """
                    WITH "cte1" AS (SELECT * FROM "t"), "cte2" AS (SELECT ?) \
                    SELECT "t1".*, "cte1".*, "cte2".*, "t2".* \
                    FROM "t" "t1" JOIN "cte1" JOIN "cte2" JOIN "t" "t2"
                    """)
                #expect(try Row.fetchAll(db, chained).isEmpty)
            }

            // Between two CTEs, from the rows of a CTE.
            let left = CommonTableExpression(named: "left", sql: "SELECT 1 AS a UNION ALL SELECT 2")
            let right = CommonTableExpression(named: "right", sql: "SELECT 2 AS b UNION ALL SELECT 3")
            let join = left.association(to: right) { l, r in l["a"] == r["b"] }
            let rows = try left.all().with(left).with(right).including(required: join).fetchAll(db)
            #expect(rows.count == 1)
            #expect(rows.first?["a"] == 2)
            #expect(rows.first?.scopes["right"]?["b"] == 2)

            // A CTE association is to-one: including(all:) does not
            // compile with it.
            #expect(!((join as Any) is any AssociationToMany))
            #expect((join as Any) is any AssociationToOne)
        }
    }

    // MARK: Where the WITH clause comes from

    @Test func ctesOfAssociations() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("team")
            }
            try db.create(table: "award") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("player")
            }
            try db.execute(sql: "INSERT INTO team VALUES (1); INSERT INTO player VALUES (1, 1); INSERT INTO award VALUES (1, 1), (2, 1)")
        }
        struct Team: TableRecord { }
        struct Player: TableRecord {
            static let team = belongsTo(Team.self)
            static let awards = hasMany(Award.self)
        }
        struct Award: TableRecord {
            static let player = belongsTo(Player.self)
            static let team = hasOne(Team.self, through: player, using: Player.team)
        }
        let one = CommonTableExpression(named: "cte", sql: "SELECT 1")
        let two = CommonTableExpression(named: "cte", sql: "SELECT 2")
        let other = CommonTableExpression(named: "other", sql: "SELECT 3")
        let joinPlayer = #"LEFT JOIN "player" ON "player"."id" = "award"."playerId""#
        let joinTeam = #"LEFT JOIN "team" ON "team"."id" = "player"."teamId""#
        try dbQueue.read { db throws -> Void in
            // A CTE embedded by an association goes in the WITH clause of
            // the request.
            #expect(try sql(db, Award.joining(optional: Award.player.with(one)))
                == #"WITH "cte" AS (SELECT 1) SELECT "award".* FROM "award" "# + joinPlayer)
            #expect(try sql(db, Award.joining(optional: Award.team.with(one)))
                == #"WITH "cte" AS (SELECT 1) SELECT "award".* FROM "award" "# + joinPlayer + " " + joinTeam)
            let throughPivot = Award.hasOne(Team.self, through: Award.player.with(one), using: Player.team)
            #expect(try sql(db, Award.joining(optional: throughPivot))
                == #"WITH "cte" AS (SELECT 1) SELECT "award".* FROM "award" "# + joinPlayer + " " + joinTeam)
            // The request first, then its joined tables, depth-first.
            #expect(try sql(db, Award.with(other).joining(optional: Award.player.with(one)))
                == #"WITH "other" AS (SELECT 3), "cte" AS (SELECT 1) SELECT "award".* FROM "award" "# + joinPlayer)
            // Conflicting names: the last CTE in that order wins.
            #expect(try sql(db, Award.with(one).joining(optional: Award.player.with(two)))
                == #"WITH "cte" AS (SELECT 2) SELECT "award".* FROM "award" "# + joinPlayer)
            #expect(try sql(db, Award.joining(optional: Award.player.with(one)).joining(optional: Award.team.with(two)))
                .hasPrefix(#"WITH "cte" AS (SELECT 2) "#))
            // The team is joined behind the player: its CTE comes last.
            #expect(try sql(db, Award.joining(optional: Award.team.with(one)).joining(optional: Award.player.with(two)))
                .hasPrefix(#"WITH "cte" AS (SELECT 1) "#))
            #expect(try sql(db, Award
                .joining(optional: Award.player.forKey("player1").with(one))
                .joining(optional: Award.player.forKey("player2").with(two))) == """
                WITH "cte" AS (SELECT 2) SELECT "award".* FROM "award" \
                LEFT JOIN "player" "player1" ON "player1"."id" = "award"."playerId" \
                LEFT JOIN "player" "player2" ON "player2"."id" = "award"."playerId"
                """)

            // Prefetch queries run on their own: they embed the CTEs of
            // the request.
            let bestAward = CommonTableExpression(named: "bestAward", sql: "SELECT 1")
            let request = Player
                .with(bestAward)
                .including(all: Player.awards.filter(bestAward.contains(Column("id"))))
            let statements = Locked<[String]>([])
            db.trace { event in
                if case .statement(let statement) = event { statements.withLock { $0.append(statement.sql) } }
            }
            let players = try Row.fetchAll(db, request)
            db.trace(nil)
            #expect(players.map { $0.prefetchedRows["awards"]?.count } == [1])
            #expect(statements.withLock { $0 }.contains(where: { $0.hasPrefix(#"WITH "bestAward" AS (SELECT 1) SELECT *, "playerId" AS "grdb_playerId" FROM "award""#) }))
        }
    }

    // MARK: Bad input

    @Test func badInput() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws -> Void in
            // Two definitions of one name in one WITH clause.
            let cte = CommonTableExpression(named: "cte", sql: "SELECT 1")
            let same = CommonTableExpression(named: "CTE", sql: "SELECT 2")
            let request: SQLRequest<Row> = "WITH \(definitionFor: cte), \(definitionFor: same) SELECT * FROM \(cte)"
            #expect {
                _ = try request.fetchAll(db)
            } throws: { error in
                "\(error)".contains(#"the common table expression "CTE" is defined twice in one WITH clause"#)
            }
            // A nested WITH clause is another scope.
            let nested: SQLRequest<Int> = """
                WITH \(definitionFor: cte) SELECT * FROM \(cte) UNION ALL SELECT * FROM (\(same.all().with(same)))
                """
            #expect(try nested.fetchAll(db) == [1, 2])

            // Declared columns that do not match the request: SQLite's
            // error, which names the CTE, with the SQL.
            let pair = CommonTableExpression(named: "pair", columns: ["a", "b"], sql: "SELECT 1")
            #expect {
                _ = try pair.all().with(pair).fetchAll(db)
            } throws: { error in
                guard let error = error as? DatabaseError else { return false }
                return error.resultCode == .SQLITE_ERROR
                    && (error.message ?? "").contains("pair")
                    && (error.sql ?? "").contains(#"WITH "pair"("a", "b") AS (SELECT 1)"#)
            }

            // A CTE whose SQL is invalid: SQLite's error, with the SQL of
            // the request and its CTEs.
            let broken = CommonTableExpression(named: "broken", sql: "SELECT * FROM missingTable")
            let other = CommonTableExpression(named: "other", sql: "SELECT 1 AS a")
            let association = other.association(to: broken)
            #expect {
                _ = try other.all().with(other).with(broken).including(required: association).fetchAll(db)
            } throws: { error in
                guard let error = error as? DatabaseError else { return false }
                return error.message == "no such table: missingTable"
                    && (error.sql ?? "").contains(#""broken" AS (SELECT * FROM missingTable)"#)
            }

            // A CTE that refers to another CTE of the request: its columns
            // are counted with the other CTEs.
            let cte1 = CommonTableExpression(named: "cte1", sql: "SELECT * FROM cte2")
            let cte2 = CommonTableExpression(named: "cte2", sql: "SELECT 1 AS a")
            let row = try #require(try cte1.all().with(cte1).with(cte2).including(required: cte1.association(to: cte2)).fetchOne(db))
            #expect(row.unscoped == ["a": 1])
            #expect(row != ["a": 1])  // the scope takes part in equality
            #expect(row.scopes["cte2"] == ["a": 1])

            // The database is as it was.
            #expect(try db.tableExists("pair") == false)
        }
    }
}
