import Foundation
import Testing
import Cairn

@Suite struct DatabaseIndexesTests {
    func makeRecorder() throws -> SchemaSQLRecorder {
        let recorder = try SchemaSQLRecorder()
        try recorder.dbQueue.inDatabase { db throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, email TEXT UNIQUE, score INT, bonus INT)")
        }
        return recorder
    }

    @Test func indexesOnColumnsAndExpressions() throws {
        let recorder = try makeRecorder()
        let statements = try recorder.sql { db throws in
            try db.create(index: "i1", on: "player", columns: ["name"])
            try db.create(index: "i2", on: "player", columns: ["name", "score"], options: [.unique, .ifNotExists])
            try db.create(index: "i3", on: "player", columns: ["score"], unique: true, condition: Column("score") > 10)
            try db.create(index: "i4", on: "player", expressions: [Column("name").collating(.nocase)])
            try db.create(
                index: "i5", on: "player", expressions: [Column("score") + Column("bonus"), Column("name")],
                options: .ifNotExists, condition: Column("name") != "x")
            try db.create(indexOn: "player", columns: ["bonus"])
        }
        #expect(statements == [
            #"CREATE INDEX "i1" ON "player"("name")"#,
            #"CREATE UNIQUE INDEX IF NOT EXISTS "i2" ON "player"("name", "score")"#,
            #"CREATE UNIQUE INDEX "i3" ON "player"("score") WHERE "score" > 10"#,
            #"CREATE INDEX "i4" ON "player"("name" COLLATE NOCASE)"#,
            #"CREATE INDEX IF NOT EXISTS "i5" ON "player"("score" + "bonus", "name") WHERE "name" <> 'x'"#,
            #"CREATE INDEX "index_player_on_bonus" ON "player"("bonus")"#,
        ])
        // An expression that SQLite refuses in an index.
        try recorder.dbQueue.inDatabase { db throws in
            #expect(throws: DatabaseError.self) {
                try db.create(index: "bad", on: "player", expressions: [SQL("random()").sqlExpression])
            }
            return
        }
    }

    @Test func dropIndexes() throws {
        let recorder = try makeRecorder()
        try recorder.dbQueue.inDatabase { db throws in
            try db.create(index: "byName", on: "player", columns: ["name"])
            try db.create(indexOn: "player", columns: ["score", "bonus"])
        }
        let statements = try recorder.sql { db throws in
            try db.drop(index: "byName")
            try db.drop(index: "byName", ifExists: true)
            // Case does not matter; order does.
            try db.drop(indexOn: "player", columns: ["bonus", "score"])
            try db.drop(indexOn: "player", columns: ["SCORE", "BONUS"])
            // No index: nothing happens.
            try db.drop(indexOn: "player", columns: ["name"])
        }
        #expect(statements == [
            #"DROP INDEX "byName""#,
            #"DROP INDEX IF EXISTS "byName""#,
            #"DROP INDEX "index_player_on_score_bonus""#,
        ])
        try recorder.dbQueue.inDatabase { db throws in
            #expect(try db.indexes(on: "player").map(\.name) == ["sqlite_autoindex_player_1"])
            #expect(throws: DatabaseError.self) { try db.drop(index: "byName") }
            // The index of a UNIQUE constraint cannot be dropped.
            #expect(throws: DatabaseError.self) { try db.drop(indexOn: "player", columns: ["email"]) }
            #expect(throws: DatabaseError.self) { try db.drop(indexOn: "missing", columns: ["a"]) }
        }
    }

    @Test func reindexCollations() throws {
        let recorder = try makeRecorder()
        try recorder.dbQueue.inDatabase { db throws in
            try db.create(index: "i", on: "player", expressions: [Column("name").collating(.localizedCompare)])
        }
        let statements = try recorder.sql { db throws in
            try db.reindex(collation: .nocase)
            try db.reindex(collation: DatabaseCollation.localizedCompare)
        }
        #expect(statements == ["REINDEX NOCASE", "REINDEX swiftLocalizedCompare"])
    }

    @Test func indexOrigins() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE t (a PRIMARY KEY, b UNIQUE, c);
                CREATE INDEX t_c ON t(c);
                """)
            let origins = try Dictionary(uniqueKeysWithValues: db.indexes(on: "t").map { ($0.columns[0], $0.origin) })
            #expect(origins["a"] == .primaryKeyConstraint)
            #expect(origins["b"] == .uniqueConstraint)
            #expect(origins["c"] == .createIndex)
            #expect(IndexInfo.Origin.primaryKeyConstraint.rawValue == "pk")
            // Origins are database values.
            let fetched = try IndexInfo.Origin.fetchAll(db, sql: "SELECT origin FROM pragma_index_list('t') ORDER BY origin")
            #expect(fetched == [.createIndex, .primaryKeyConstraint, .uniqueConstraint])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pragma_index_list('t') WHERE origin = ?",
                                     arguments: [IndexInfo.Origin.createIndex]) == 1)
        }
    }
}
