import Foundation
import Testing
import Cairn

@Suite struct DatabaseViewsTests {
    func makeRecorder() throws -> SchemaSQLRecorder {
        let recorder = try SchemaSQLRecorder()
        try recorder.dbQueue.inDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INT);
                INSERT INTO player VALUES (1, 'Arthur', 500), (2, 'Barbara', 1500);
                """)
        }
        return recorder
    }

    @Test func createViews() throws {
        let recorder = try makeRecorder()
        let statements = try recorder.sql { db throws in
            try db.create(view: "best", as: Table("player").filter(Column("score") > 1000))
            try db.create(
                view: "names", options: [.temporary, .ifNotExists], columns: ["playerName"],
                as: Table("player").select(Column("name")))
            try db.create(view: "heroes", asLiteral: "SELECT * FROM player WHERE name = \("Arthur")")
            try db.create(view: "legacy", ifNotExists: true, temporary: true, as: Table("player").all())
            // An existential request.
            let request: any SQLSubqueryable = Table("player").select(Column("id"))
            try db.create(view: "ids", as: request)
        }
        #expect(statements == [
            #"CREATE VIEW "best" AS SELECT * FROM "player" WHERE "score" > 1000"#,
            #"CREATE TEMPORARY VIEW IF NOT EXISTS "names" ("playerName") AS SELECT "name" FROM "player""#,
            #"CREATE VIEW "heroes" AS SELECT * FROM player WHERE name = 'Arthur'"#,
            #"CREATE TEMPORARY VIEW IF NOT EXISTS "legacy" AS SELECT * FROM "player""#,
            #"CREATE VIEW "ids" AS SELECT "id" FROM "player""#,
        ])
        try recorder.dbQueue.inDatabase { db throws in
            #expect(try String.fetchAll(db, sql: "SELECT name FROM best") == ["Barbara"])
            #expect(try String.fetchAll(db, sql: "SELECT playerName FROM names ORDER BY 1") == ["Arthur", "Barbara"])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM heroes") == ["Arthur"])
            #expect(try db.viewExists("names", in: "temp"))
        }
    }

    @Test func dropViewsAndTables() throws {
        let recorder = try makeRecorder()
        try recorder.dbQueue.inDatabase { db throws in try db.create(view: "v", as: Table("player").all()) }
        let statements = try recorder.sql { db throws in
            try db.drop(view: "v")
            try db.drop(view: "v", ifExists: true)
            try db.drop(table: "player")
            try db.drop(table: "player", ifExists: true)
        }
        #expect(statements == [
            #"DROP VIEW "v""#,
            #"DROP VIEW IF EXISTS "v""#,
            #"DROP TABLE "player""#,
            #"DROP TABLE IF EXISTS "player""#,
        ])
        try recorder.dbQueue.inDatabase { db throws in
            #expect(throws: DatabaseError.self) { try db.drop(view: "v") }
            #expect(throws: DatabaseError.self) { try db.drop(table: "player") }
        }
    }

    @Test func virtualTablesWithOptions() throws {
        let recorder = try SchemaSQLRecorder()
        let statements = try recorder.sql { db throws in
            try db.create(virtualTable: "box", using: "rtree(id, minX, maxX)")
            try db.create(virtualTable: "box", options: .ifNotExists, using: "rtree(id, minX, maxX)")
            try db.create(virtualTable: "scratch", options: .temporary, using: "fts5(content)")
            try db.create(virtualTable: "legacy", ifNotExists: true, using: "fts5(content)")
        }
        #expect(statements == [
            #"CREATE VIRTUAL TABLE "box" USING rtree(id, minX, maxX)"#,
            #"CREATE VIRTUAL TABLE IF NOT EXISTS "box" USING rtree(id, minX, maxX)"#,
            #"CREATE VIRTUAL TABLE temp."scratch" USING fts5(content)"#,
            #"CREATE VIRTUAL TABLE IF NOT EXISTS "legacy" USING fts5(content)"#,
        ])
        try recorder.dbQueue.inDatabase { db throws in
            #expect(try db.tableExists("scratch", in: "temp"))
        }
    }
}
