import Foundation
import Testing
import Cairn

/// The SQL that requests generate, and what they fetch.
@Suite struct QueryInterfaceRequestTests {
    let dbQueue: DatabaseQueue
    let player = Table("player")

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INT, teamId INT, isActive BOOLEAN);
                INSERT INTO player VALUES (1, 'Arthur', 1000, 1, 1), (2, 'Barbara', 750, 1, 0), (3, 'Craig', NULL, 2, 1);
                CREATE TABLE t (id INTEGER PRIMARY KEY, a, b, c, name, score, teamId, isActive);
                """)
        }
    }

    /// The SQL and arguments of a request.
    func sql(_ request: some FetchRequest, singleResult: Bool = false) throws -> String {
        try dbQueue.read { db throws in
            let statement = try request.makePreparedRequest(db, forSingleResult: singleResult).statement
            return statement.sql
        }
    }

    func arguments(_ request: some FetchRequest) throws -> StatementArguments {
        try dbQueue.read { db in try request.makePreparedRequest(db, forSingleResult: false).statement.arguments }
    }

    @Test func basicSQL() throws {
        #expect(try sql(player.all()) == #"SELECT * FROM "player""#)
        #expect(try sql(player.filter(Column("name") == "Arthur")) == #"SELECT * FROM "player" WHERE "name" = ?"#)
        #expect(try arguments(player.filter(Column("name") == "Arthur")) == ["Arthur"])
        #expect(try sql(player.all(), singleResult: true) == #"SELECT * FROM "player" LIMIT 1"#)
        #expect(try sql(player.select(Column("id"), Column("name"))) == #"SELECT "id", "name" FROM "player""#)
        #expect(try sql(player.order(Column("score").desc, Column("name"))) == #"SELECT * FROM "player" ORDER BY "score" DESC, "name""#)
        #expect(try sql(player.limit(10, offset: 20)) == #"SELECT * FROM "player" LIMIT 10 OFFSET 20"#)
        #expect(try sql(player.select(Column("teamId"), max(Column("score"))).group(Column("teamId")).having(count(Column("id")) > 1))
            == #"SELECT "teamId", MAX("score") FROM "player" GROUP BY "teamId" HAVING COUNT("id") > ?"#)
        #expect(try sql(player.select(Column("teamId")).distinct()) == #"SELECT DISTINCT "teamId" FROM "player""#)
        #expect(try sql(player.all().reversed()) == #"SELECT * FROM "player""#)
        #expect(try sql(player.order(Column("name")).reversed()) == #"SELECT * FROM "player" ORDER BY "name" DESC"#)
        #expect(try sql(player.order(Column("name").ascNullsLast).reversed()) == #"SELECT * FROM "player" ORDER BY "name" DESC NULLS FIRST"#)
        #expect(try sql(player.annotated(with: (Column("score") * 2).forKey("double"))) == #"SELECT *, "score" * ? AS "double" FROM "player""#)
    }

    /// Reversing a request without ordering leaves it unordered, as in
    /// GRDB 7: only ordering terms are reversed, those of the request and
    /// those of its joined tables, and the stable order.
    @Test func reversedWithoutOrdering() throws {
        #expect(try sql(player.all().reversed()) == #"SELECT * FROM "player""#)
        #expect(try sql(player.all().reversed().reversed()) == #"SELECT * FROM "player""#)
        #expect(try sql(player.limit(1, offset: 2).reversed()) == #"SELECT * FROM "player" LIMIT 1 OFFSET 2"#)
        #expect(try sql(player.all().withStableOrder().reversed()) == #"SELECT * FROM "player" ORDER BY "id" DESC"#)
        #expect(try sql(player.order(Column("name")).reversed().reversed()) == #"SELECT * FROM "player" ORDER BY "name""#)
        let names = try dbQueue.read { db in
            try String.fetchAll(db, player.select(Column("name")).withStableOrder().reversed())
        }
        #expect(names == ["Craig", "Barbara", "Arthur"])
    }

    @Test func expressionSQL() throws {
        func where_(_ expression: SQLExpression) throws -> String {
            let full = try sql(Table("t").filter(expression))
            return String(full.dropFirst(#"SELECT * FROM "t" WHERE "#.count))
        }
        #expect(try where_(Column("name") == nil) == #""name" IS NULL"#)
        #expect(try where_(Column("name") != nil) == #""name" IS NOT NULL"#)
        #expect(try where_(nil == Column("name")) == #""name" IS NULL"#)
        #expect(try where_(Column("isActive") == true) == #""isActive" = ?"#)
        #expect(try where_(Column("a") == Column("b")) == #""a" = "b""#)
        #expect(try where_(Column("score") > 1 && Column("score") < 10 || Column("name") == "x")
            == #"(("score" > ?) AND ("score" < ?)) OR ("name" = ?)"#)
        #expect(try where_((Column("a") == 1 || Column("b") == 2) && Column("c") == 3)
            == #"(("a" = ?) OR ("b" = ?)) AND ("c" = ?)"#)
        #expect(try where_(!(Column("a") == 1)) == #""a" <> ?"#)
        #expect(try where_(!Column("isActive")) == #"NOT "isActive""#)
        // Operands that are operations are parenthesized, as GRDB does.
        #expect(try where_((Column("a") + 1) * 2 > Column("b") - Column("c") / 3) == #"(("a" + ?) * ?) > ("b" - ("c" / ?))"#)
        // `+` and `*` are not flattened, as in GRDB (they are not strictly
        // associative for floating point values).
        #expect(try where_(Column("a") + Column("b") + 1 == 3) == #"(("a" + "b") + ?) = ?"#)
        #expect(try where_((Column("a") - 1).between(0, and: 2)) == #"("a" - ?) BETWEEN ? AND ?"#)
        #expect(try where_([1, 2].contains(Column("a") * 2)) == #"("a" * ?) IN (?, ?)"#)
        #expect(try where_([1, 2, 3].contains(Column("id"))) == #""id" IN (?, ?, ?)"#)
        #expect(try where_(![1, 2].contains(Column("id"))) == #""id" NOT IN (?, ?)"#)
        #expect(try where_([Int]().contains(Column("id"))) == "0")
        #expect(try where_((1...3).contains(Column("id"))) == #""id" BETWEEN ? AND ?"#)
        #expect(try where_((1..<3).contains(Column("id"))) == #"("id" >= ?) AND ("id" < ?)"#)
        #expect(try where_(Column("name").like("A%")) == #""name" LIKE ?"#)
        #expect(try where_(Column("name").collating(.nocase) == "arthur") == #""name" = ? COLLATE NOCASE"#)
        #expect(try where_(length(Column("name")) > 5) == #"LENGTH("name") > ?"#)
        #expect(try where_(Column("name").lowercased == "arthur") == #"swiftLowercaseString("name") = ?"#)
        #expect(try where_((Column("score") ?? 0) > 10) == #"IFNULL("score", ?) > ?"#)
        #expect(try where_([Column("a") == 1, Column("b") == 2].joined(operator: .and)) == #"("a" = ?) AND ("b" = ?)"#)
        // The neutral values are values, as in GRDB.
        #expect(try where_([SQLExpression]().joined(operator: .and)) == "?")
        #expect(try where_([SQLExpression]().joined(operator: .or)) == "?")
        #expect(try where_(cast(Column("score"), as: .real) > 1) == #"CAST("score" AS REAL) > ?"#)
        #expect(try where_(Column("score") === Column("teamId")) == #""score" IS "teamId""#)
    }

    /// A collated operand is parenthesized like any operation, and a
    /// collated comparison is written with the collation at its end, as
    /// GRDB writes them. The collation of a condition applies to what it
    /// compares.
    @Test func collatedOperands() throws {
        func where_(_ expression: SQLExpression) throws -> String {
            let full = try sql(Table("t").filter(expression))
            return String(full.dropFirst(#"SELECT * FROM "t" WHERE "#.count))
        }
        let name = Column("name")
        #expect(try where_(["a", "b"].contains(name.collating(.nocase))) == #"("name" COLLATE NOCASE) IN (?, ?)"#)
        #expect(try where_(["a", "b"].contains(name).collating(.nocase)) == #"("name" COLLATE NOCASE) IN (?, ?)"#)
        #expect(try where_(!["a", "b"].contains(name.collating(.nocase))) == #"("name" COLLATE NOCASE) NOT IN (?, ?)"#)
        #expect(try where_(("a"..."b").contains(name.collating(.nocase))) == #"("name" COLLATE NOCASE) BETWEEN ? AND ?"#)
        #expect(try where_(("a"..."b").contains(name).collating(.nocase)) == #"("name" COLLATE NOCASE) BETWEEN ? AND ?"#)
        #expect(try where_(name.collating(.nocase) == "arthur") == #""name" = ? COLLATE NOCASE"#)
        #expect(try where_("arthur" == name.collating(.nocase)) == #"? = "name" COLLATE NOCASE"#)
        #expect(try where_((name == "arthur").collating(.nocase)) == #""name" = ? COLLATE NOCASE"#)
        #expect(try where_(name.collating(.nocase) < "b") == #""name" < ? COLLATE NOCASE"#)
        #expect(try where_(name.collating(.nocase) == "a" && Column("score") > 1)
            == #"("name" = ? COLLATE NOCASE) AND ("score" > ?)"#)
        #expect(try where_((name == "a" || name == "b").collating(.nocase))
            == #"("name" = ? COLLATE NOCASE) OR ("name" = ? COLLATE NOCASE)"#)
        #expect(try where_(name.collating(.nocase).like("a%")) == #"("name" COLLATE NOCASE) LIKE ?"#)
        #expect(try where_(!name.collating(.nocase)) == #"NOT ("name" COLLATE NOCASE)"#)
        #expect(try sql(player.order(name.collating(.nocase).desc)) == #"SELECT * FROM "player" ORDER BY "name" COLLATE NOCASE DESC"#)

        // A subquery.
        let subquery = player.select(Column("name"))
        let literal: SQL = "SELECT \(subquery.contains("arthur".databaseValue.collating(.nocase)))"
        #expect(try dbQueue.read { db in try literal.build(db).sql } == #"SELECT (? COLLATE NOCASE) IN (SELECT "name" FROM "player")"#)
        #expect(try dbQueue.read { db in try Bool.fetchOne(db, SQLRequest<Bool>(literal: literal)) } == true)

        // The collations apply: the names are stored capitalized.
        try dbQueue.read { db throws in
            #expect(try player.filter(["arthur", "craig"].contains(name.collating(.nocase))).fetchCount(db) == 2)
            #expect(try player.filter(["arthur", "craig"].contains(name).collating(.nocase)).fetchCount(db) == 2)
            #expect(try player.filter(("a"..."b").contains(name).collating(.nocase)).fetchCount(db) == 1)
            #expect(try player.filter(name.collating(.nocase) == "BARBARA").fetchCount(db) == 1)
            #expect(try player.filter((name == "BARBARA" || name == "craig").collating(.nocase)).fetchCount(db) == 2)
        }
    }

    /// `none()` is filtered by a false value bound as an argument, as GRDB
    /// writes it.
    @Test func noneIsFilteredByABoundFalse() throws {
        let request = player.filter(Column("name") == "Arthur").none()
        #expect(try sql(request) == #"SELECT * FROM "player" WHERE ("name" = ?) AND ?"#)
        #expect(try arguments(request) == ["Arthur", false])
        #expect(try sql(player.none()) == #"SELECT * FROM "player" WHERE ?"#)
        try dbQueue.read { db throws in
            #expect(try request.fetchAll(db).isEmpty)
            #expect(try player.none().fetchCount(db) == 0)
        }
    }

    /// A request that selects an aggregate without GROUP BY returns one row:
    /// `fetchOne` adds no `LIMIT 1`, as in GRDB.
    @Test func fetchOneOfAnUngroupedAggregateHasNoLimit() throws {
        let score = Column("score")
        #expect(try sql(player.select(max(Column("id"))), singleResult: true) == #"SELECT MAX("id") FROM "player""#)
        #expect(try sql(player.select(min(score).forKey("minScore"), max(score).forKey("maxScore")), singleResult: true)
            == #"SELECT MIN("score") AS "minScore", MAX("score") AS "maxScore" FROM "player""#)
        #expect(try sql(player.select(max(score + 1)), singleResult: true) == #"SELECT MAX("score" + ?) FROM "player""#)
        #expect(try sql(player.select(max(score) + 1), singleResult: true) == #"SELECT MAX("score") + ? FROM "player""#)
        #expect(try sql(player.select(count(Column("id"))).filter(Column("teamId") == 1), singleResult: true)
            == #"SELECT COUNT("id") FROM "player" WHERE "teamId" = ?"#)
        #expect(try sql(player.select(count(AllColumns())), singleResult: true) == #"SELECT COUNT(*) FROM "player""#)
        #expect(try sql(player.select(sum(score, filter: Column("isActive"))), singleResult: true)
            == #"SELECT SUM("score") FILTER (WHERE "isActive") FROM "player""#)
        #expect(try sql(player.select(average(score)).having(average(score) > 10), singleResult: true)
            == #"SELECT AVG("score") FROM "player" HAVING AVG("score") > ?"#)
        // Grouped, scalar, or written in SQL: the LIMIT stays.
        #expect(try sql(player.select(max(score)).group(Column("teamId")), singleResult: true)
            == #"SELECT MAX("score") FROM "player" GROUP BY "teamId" LIMIT 1"#)
        #expect(try sql(player.select(max(score, Column("teamId"))), singleResult: true)
            == #"SELECT MAX("score", "teamId") FROM "player" LIMIT 1"#)
        #expect(try sql(player.select(abs(score)), singleResult: true) == #"SELECT ABS("score") FROM "player" LIMIT 1"#)
        #expect(try sql(player.select(sql: "MAX(score)"), singleResult: true) == #"SELECT MAX(score) FROM "player" LIMIT 1"#)

        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, player.select(max(score))) == 1000)
            #expect(try Int.fetchOne(db, player.select(max(score) + 1)) == 1001)
        }
    }

    @Test func fetchOneOfACustomAggregateHasNoLimit() throws {
        struct Total: DatabaseAggregate {
            var total = 0
            mutating func step(_ dbValues: [DatabaseValue]) throws {
                total += Int.fromDatabaseValue(dbValues[0]) ?? 0
            }
            func finalize() -> (any DatabaseValueConvertible)? { total }
        }
        let total = DatabaseFunction("total_of", argumentCount: 1, aggregate: Total.self)
        let scalar = DatabaseFunction("twice", argumentCount: 1, pure: true) { dbValues in
            (Int.fromDatabaseValue(dbValues[0]) ?? 0) * 2
        }
        try dbQueue.inDatabase { db throws in
            db.add(function: total)
            db.add(function: scalar)
            let aggregate = player.select(total(Column("score")))
            #expect(try aggregate.makePreparedRequest(db, forSingleResult: true).statement.sql
                == #"SELECT total_of("score") FROM "player""#)
            #expect(try Int.fetchOne(db, aggregate) == 1750)
            #expect(try player.select(scalar(Column("score"))).makePreparedRequest(db, forSingleResult: true).statement.sql
                == #"SELECT twice("score") FROM "player" LIMIT 1"#)
        }
    }

    @Test func fetching() throws {
        try dbQueue.read { db throws in
            #expect(try player.fetchCount(db) == 3)
            #expect(try player.filter(Column("score") > 800).fetchCount(db) == 1)
            #expect(try player.select(Column("teamId")).distinct().fetchCount(db) == 2)
            #expect(try player.limit(2).fetchCount(db) == 2)
            let names = try player.select(Column("name"), as: String.self).order(Column("name")).fetchAll(db)
            #expect(names == ["Arthur", "Barbara", "Craig"])
            let maxScore = try player.select(max(Column("score")), as: Int.self).fetchOne(db)
            #expect(maxScore == 1000)
            #expect(try player.order(Column("id")).fetchOne(db)?["name"] == "Arthur")
            #expect(try player.order(Column("id")).reversed().fetchOne(db)?["name"] == "Craig")
            #expect(try player.filter(Column("score") == nil).fetchAll(db).count == 1)
            #expect(try player.none().fetchAll(db).isEmpty)
            #expect(try player.filter(sql: "score > ?", arguments: [800]).fetchCount(db) == 1)
            #expect(try player.filter(literal: "score > \(800)").fetchCount(db) == 1)
            #expect(try player.all().isEmpty(db) == false)
            #expect(try Row.fetchAll(db, player.order(Column("id"))).count == 3)
            #expect(try Int.fetchAll(db, player.select(Column("id")).order(Column("id"))) == [1, 2, 3])
        }
    }

    @Test func subqueries() throws {
        let maximumScore = player.select(max(Column("score")))
        let best = player.filter(Column("score") == maximumScore)
        #expect(try sql(best) == #"SELECT * FROM "player" WHERE "score" = (SELECT MAX("score") FROM "player")"#)
        try dbQueue.read { db throws in
            #expect(try best.fetchOne(db)?["name"] == "Arthur")
            let team1 = Table("player").filter(Column("teamId") == 1).select(Column("id"))
            #expect(try player.filter(team1.contains(Column("id"))).fetchCount(db) == 2)
        }
    }

    @Test func batchUpdatesAndDeletes() throws {
        try dbQueue.write { db throws in
            #expect(try player.filter(Column("teamId") == 1).updateAll(db, Column("score") += 10) == 2)
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player WHERE id = 1") == 1010)
            try player.updateAll(db, Column("isActive").set(to: false), Column("name").set(to: nil))
            #expect(try player.filter(Column("name") != nil).fetchCount(db) == 0)
            #expect(try player.order(Column("id")).limit(1).deleteAll(db) == 1)
            #expect(try player.fetchCount(db) == 2)
            #expect(try player.deleteAll(db) == 2)
        }
    }

    @Test func countsAndEmptiness() throws {
        try dbQueue.write { db throws in
            var statements: [String] = []
            db.trace { statements.append($0.expandedDescription) }
            let distinctDoubles = try player.select((Column("score") * 2).forKey("double")).distinct().fetchCount(db)
            // The filter refers to the alias of the selection: the request
            // is counted as a subquery.
            let aliased = try player.annotated(with: Column("name").forKey("alt")).filter(Column("alt").detached != nil).fetchCount(db)
            let empty = try player.filter(Column("score") > 1_000_000).isEmpty(db)
            let notEmpty = try player.isEmpty(db)
            db.trace(options: [], nil)
            #expect(distinctDoubles == (try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT score * 2) FROM player")))
            #expect(aliased == (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player WHERE name IS NOT NULL")))
            #expect(empty && !notEmpty)
            let queries = statements.filter { $0.hasPrefix("SELECT") }
            #expect(queries.contains(#"SELECT COUNT(DISTINCT "score" * 2) FROM "player""#))
            #expect(queries.contains(#"SELECT COUNT(*) FROM (SELECT *, "name" AS "alt" FROM "player" WHERE "alt" IS NOT NULL)"#))
            #expect(queries.contains(#"SELECT EXISTS (SELECT * FROM "player" WHERE "score" > 1000000)"#))
        }
    }

    @Test func batchUpdatesAndDeletesOfGroupedRequests() throws {
        try dbQueue.write { db throws in
            // The rows of grouped and distinct requests are selected by key.
            var statements: [String] = []
            db.trace { statements.append($0.expandedDescription) }
            let grouped = player.group(Column("teamId")).having(count(Column("id")) > 1)
            #expect(try grouped.updateAll(db, Column("score").set(to: 0)) >= 1)
            #expect(statements.last?.hasSuffix(
                #"WHERE "id" IN (SELECT "id" FROM "player" GROUP BY "teamId" HAVING COUNT("id") > 1)"#) == true)
            db.trace(options: [], nil)
            let remaining = try player.fetchCount(db)
            #expect(try player.select(Column("teamId")).distinct().deleteAll(db) == remaining)
            #expect(try player.fetchCount(db) == 0)
        }
    }

    @Test func aliases() throws {
        let alias = TableAlias(name: "p")
        let request = player.aliased(alias).filter(alias[Column("score")] > 800)
        #expect(try sql(request) == #"SELECT "p".* FROM "player" "p" WHERE "p"."score" > ?"#)
        let count = try dbQueue.read { db in try request.fetchCount(db) }
        #expect(count == 1)
    }

    @Test func fullTextMatching() throws {
        struct Document: TableRecord, FetchableRecord, Decodable { var content: String }
        try dbQueue.write { db throws in
            try db.create(virtualTable: "document", using: "fts5(content)")
            try db.execute(sql: "INSERT INTO document VALUES ('SQLite is a database'), ('Swift is a language')")
            #expect(try Document.matching("database").fetchAll(db).map(\.content) == ["SQLite is a database"])
            #expect(try Document.matching(String?.none).fetchAll(db).isEmpty)
            #expect(try Document.filter(Column("content").match("swift")).fetchCount(db) == 1)
            #expect(try Document.matching("sqlite OR swift").order(Column.rank).fetchCount(db) == 2)
        }
        #expect(try sql(Table("document").all().matching("x")) == #"SELECT * FROM "document" WHERE "document" MATCH ?"#)
    }

    @Test func unknownColumnThrows() throws {
        _ = try dbQueue.read { db throws in
            #expect {
                try player.filter(Column("missing") == 1).fetchAll(db)
            } throws: { error in
                (error as? DatabaseError)?.message?.hasPrefix(#"no such column: "missing""#) == true
            }
        }
    }
}
