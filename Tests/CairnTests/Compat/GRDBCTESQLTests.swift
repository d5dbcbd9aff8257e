import Foundation
import Testing
import Cairn

/// Common table expressions write the SQL GRDB writes: the WITH clause
/// before the statement, `"name"("column", ...)` only when columns are
/// given, RECURSIVE when one of them is, and joined CTEs named like tables.
@Suite struct GRDBCTESQLTests {
    struct Item: TableRecord, FetchableRecord, PersistableRecord, Decodable, Encodable {
        static let databaseTableName = "item"
        var id: Int64
        var a: Int?
    }

    func makeRecorder() throws -> GRDBSQLRecorder {
        try GRDBSQLRecorder(schema: """
            CREATE TABLE item (id INTEGER PRIMARY KEY, a INT);
            CREATE TABLE post (id INTEGER PRIMARY KEY, itemId INTEGER, day INT);
            """)
    }

    @Test func withClauseOfEachKindOfDefinition() throws {
        let recorder = try makeRecorder()
        let fromSQL = CommonTableExpression<Void>(named: "c", sql: "SELECT ?", arguments: ["it's"])
        #expect(try recorder.sql(of: Item.all().with(fromSQL))
            == #"WITH "c" AS (SELECT 'it''s') SELECT * FROM "item""#)

        let fromLiteral = CommonTableExpression<Void>(named: "c", literal: "SELECT \("it's")")
        #expect(try recorder.sql(of: Item.all().with(fromLiteral))
            == #"WITH "c" AS (SELECT 'it''s') SELECT * FROM "item""#)

        let fromRequest = CommonTableExpression<Void>(named: "c", request: Item.filter(Column("a") > 2))
        #expect(try recorder.sql(of: Item.all().with(fromRequest))
            == #"WITH "c" AS (SELECT * FROM "item" WHERE "a" > 2) SELECT * FROM "item""#)

        let sqlRequest: SQLRequest<Int> = "SELECT \(7)"
        let fromSQLRequest = CommonTableExpression<Void>(named: "c", request: sqlRequest)
        #expect(try recorder.sql(of: Item.all().with(fromSQLRequest))
            == #"WITH "c" AS (SELECT 7) SELECT * FROM "item""#)
    }

    @Test func columnsAreWrittenOnlyWhenGiven() throws {
        let recorder = try makeRecorder()
        let noColumns = CommonTableExpression<Void>(named: "c", columns: [], literal: "SELECT 1")
        #expect(try recorder.sql(of: noColumns.all().with(noColumns))
            == #"WITH "c" AS (SELECT 1) SELECT * FROM "c""#)
        let twoColumns = CommonTableExpression<Void>(named: "c", columns: ["x", "y"], literal: "SELECT 1, 2")
        #expect(try recorder.sql(of: twoColumns.all().with(twoColumns))
            == #"WITH "c"("x", "y") AS (SELECT 1, 2) SELECT * FROM "c""#)
    }

    @Test func recursiveCTE() throws {
        let recorder = try makeRecorder()
        let counter = CommonTableExpression<Int>(
            recursive: true, named: "counter", columns: ["n"],
            literal: "VALUES(\(1)) UNION ALL SELECT n+1 FROM counter WHERE n < \(4)")
        let request = counter.all().with(counter)
        #expect(try recorder.sql(of: request)
            == #"WITH RECURSIVE "counter"("n") AS (VALUES(1) UNION ALL SELECT n+1 FROM counter WHERE n < 4) SELECT * FROM "counter""#)
        #expect(try recorder.dbQueue.read { try request.fetchAll($0) } == [1, 2, 3, 4])

        // One recursive CTE makes the whole clause recursive.
        let plain = CommonTableExpression<Void>(named: "plain", sql: "SELECT 1")
        #expect(try recorder.sql(of: counter.all().with(plain).with(counter))
            == #"WITH RECURSIVE "plain" AS (SELECT 1), "counter"("n") AS (VALUES(1) UNION ALL SELECT n+1 FROM counter WHERE n < 4) SELECT * FROM "counter""#)
    }

    @Test func joinedCTEs() throws {
        let recorder = try makeRecorder()
        let cte = CommonTableExpression<Void>(named: "c", request: Item.all())
        #expect(try recorder.sql(of: Item.all().with(cte)
            .including(optional: Item.association(to: cte) { left, right in left["id"] < right["id"] }))
            == #"WITH "c" AS (SELECT * FROM "item") SELECT "item".*, "c".* FROM "item" LEFT JOIN "c" ON "item"."id" < "c"."id""#)
        #expect(try recorder.sql(of: Item.all().with(cte)
            .joining(required: Item.association(to: cte) { left, right in left["id"] == right["id"] }))
            == #"WITH "c" AS (SELECT * FROM "item") SELECT "item".* FROM "item" JOIN "c" ON "item"."id" = "c"."id""#)
        // No condition: a plain JOIN; a filter of the association goes in ON.
        #expect(try recorder.sql(of: Item.all().with(cte).including(required: Item.association(to: cte)))
            == #"WITH "c" AS (SELECT * FROM "item") SELECT "item".*, "c".* FROM "item" JOIN "c""#)
        #expect(try recorder.sql(of: Item.all().with(cte)
            .including(required: Item.association(to: cte).filter(Column("a") != nil)))
            == #"WITH "c" AS (SELECT * FROM "item") SELECT "item".*, "c".* FROM "item" JOIN "c" ON "c"."a" IS NOT NULL"#)
        // An ordering of the association comes after the ordering of the request.
        #expect(try recorder.sql(of: Item.all().with(cte)
            .including(required: Item.association(to: cte).order(Column("a"))))
            == #"WITH "c" AS (SELECT * FROM "item") SELECT "item".*, "c".* FROM "item" JOIN "c" ORDER BY "c"."a""#)
        // A table alias names the CTE in the filters of the request.
        let alias = TableAlias()
        #expect(try recorder.sql(of: Item.all().with(cte)
            .including(required: Item.association(to: cte).aliased(alias))
            .filter(alias[Column("a")] == 3))
            == #"WITH "c" AS (SELECT * FROM "item") SELECT "item".*, "c".* FROM "item" JOIN "c" WHERE "c"."a" = 3"#)
    }

    @Test func sameCTEJoinedTwice() throws {
        let recorder = try makeRecorder()
        let cte = CommonTableExpression<Void>(named: "c", request: Item.all())
        // Same key: the last condition wins.
        #expect(try recorder.sql(of: Item.all().with(cte)
            .including(required: Item.association(to: cte) { left, right in left["id"] < right["id"] })
            .including(required: Item.association(to: cte) { left, right in left["a"] == right["a"] }))
            == #"WITH "c" AS (SELECT * FROM "item") SELECT "item".*, "c".* FROM "item" JOIN "c" ON "item"."a" = "c"."a""#)
        // Two keys: two aliases, numbered.
        #expect(try recorder.sql(of: Item.all().with(cte)
            .including(required: Item.association(to: cte) { left, right in left["id"] < right["id"] }.forKey("lower"))
            .including(required: Item.association(to: cte) { left, right in left["id"] > right["id"] }.forKey("upper")))
            == #"WITH "c" AS (SELECT * FROM "item") SELECT "item".*, "c1".*, "c2".* FROM "item" JOIN "c" "c1" ON "item"."id" < "c1"."id" JOIN "c" "c2" ON "item"."id" > "c2"."id""#)
    }

    @Test func chainedCTEAssociations() throws {
        let recorder = try makeRecorder()
        enum First {}
        enum Second {}
        let first = CommonTableExpression<First>(named: "first", request: Item.all())
        let second = CommonTableExpression<Second>(named: "second", literal: "SELECT \(5) AS a")
        let request = Item.all().with(first).with(second)
            .including(required: Item.association(to: first)
                .including(required: first.association(to: second)
                    .including(required: second.association(to: Item.self))))
        #expect(try recorder.sql(of: request) == #"WITH "first" AS (SELECT * FROM "item"), "second" AS (SELECT 5 AS a) "#
            + #"SELECT "item1".*, "first".*, "second".*, "item2".* FROM "item" "item1" JOIN "first" JOIN "second" JOIN "item" "item2""#)
    }

    @Test func cteAsSubqueryAndCollection() throws {
        let recorder = try makeRecorder()
        let cte = CommonTableExpression<Void>(named: "c", request: Item.select(Column("id")))
        #expect(try recorder.sql(of: Item.all().with(cte).annotated(with: cte.all()))
            == #"WITH "c" AS (SELECT "id" FROM "item") SELECT *, (SELECT * FROM "c") FROM "item""#)
        #expect(try recorder.sql(of: Item.all().with(cte).annotated(with: cte.all().filter(Column("id") > 1)))
            == #"WITH "c" AS (SELECT "id" FROM "item") SELECT *, (SELECT * FROM "c" WHERE "id" > 1) FROM "item""#)
        #expect(try recorder.sql(of: Item.all().with(cte).filter(cte.contains(Column("a"))))
            == #"WITH "c" AS (SELECT "id" FROM "item") SELECT * FROM "item" WHERE "a" IN "c""#)
        #expect(try recorder.sql(of: Item.filter(Column("a") == cte.all()).with(cte))
            == #"WITH "c" AS (SELECT "id" FROM "item") SELECT * FROM "item" WHERE "a" = (SELECT * FROM "c")"#)
    }

    @Test func cteOfAnAggregatedRequest() throws {
        let recorder = try makeRecorder()
        struct Post: TableRecord {}
        let latest = CommonTableExpression<Void>(
            named: "latest",
            request: Post.annotated(with: max(Column("day"))).group(Column("itemId")))
        let request = Item.with(latest)
            .including(optional: Item.association(to: latest) { item, post in item[Column("id")] == post[Column("itemId")] })
            .orderByPrimaryKey()
        #expect(try recorder.sql(of: request)
            == #"WITH "latest" AS (SELECT *, MAX("day") FROM "post" GROUP BY "itemId") "#
            + #"SELECT "item".*, "latest".* FROM "item" LEFT JOIN "latest" ON "item"."id" = "latest"."itemId" ORDER BY "item"."id""#)
    }

    @Test func cteInSQLLiterals() throws {
        let recorder = try makeRecorder()
        let cte = CommonTableExpression<Void>(named: "c", columns: ["word"], literal: "SELECT \("it's")")
        let selectStar: SQLRequest<Row> = "WITH \(definitionFor: cte) SELECT * FROM \(cte)"
        #expect(try recorder.sql(of: selectStar) == #"WITH "c"("word") AS (SELECT 'it''s') SELECT * FROM "c""#)
        let embedded: SQLRequest<Row> = "WITH \(definitionFor: cte) \(cte.all())"
        #expect(try recorder.sql(of: embedded) == #"WITH "c"("word") AS (SELECT 'it''s') SELECT * FROM "c""#)
        let bare = CommonTableExpression<Void>(named: "c", columns: [], literal: "SELECT 1")
        let bareRequest: SQLRequest<Row> = "WITH \(definitionFor: bare) SELECT * FROM \(bare)"
        #expect(try recorder.sql(of: bareRequest) == #"WITH "c" AS (SELECT 1) SELECT * FROM "c""#)
    }

    @Test func cteInBatchUpdatesAndDeletes() throws {
        let recorder = try makeRecorder()
        let cte = CommonTableExpression<Void>(named: "c", sql: "SELECT 1")
        #expect(try recorder.lastSQL { db in try Item.with(cte).updateAll(db, Column("a").set(to: cte.all())) }
            == #"WITH "c" AS (SELECT 1) UPDATE "item" SET "a" = (SELECT * FROM "c")"#)
        #expect(try recorder.lastSQL { db in try Item.with(cte).filter(cte.contains(Column("a"))).deleteAll(db) }
            == #"WITH "c" AS (SELECT 1) DELETE FROM "item" WHERE "a" IN "c""#)
        // A delete that selects its rows by key: the subquery has the WITH clause.
        let other = CommonTableExpression<Void>(named: "other", request: Item.all())
        let joined = Item.with(other).joining(required: Item.association(to: other) { left, right in left["a"] == right["id"] })
        #expect(try recorder.lastSQL { db in try joined.deleteAll(db) }
            == #"DELETE FROM "item" WHERE "id" IN (WITH "other" AS (SELECT * FROM "item") "#
            + #"SELECT "item"."id" FROM "item" JOIN "other" ON "item"."a" = "other"."id")"#)
        // An update keeps it first, where its assignments can use it (GRDB
        // writes it in the subquery, and this update fails there).
        #expect(try recorder.lastSQL { db in try joined.updateAll(db, Column("a").set(to: other.all().select(max(Column("id"))))) }
            == #"WITH "other" AS (SELECT * FROM "item") UPDATE "item" SET "a" = (SELECT MAX("id") FROM "other") "#
            + #"WHERE "id" IN (SELECT "item"."id" FROM "item" JOIN "other" ON "item"."a" = "other"."id")"#)
    }
}
