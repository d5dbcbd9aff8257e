import Foundation
import Testing
import Cairn

@Suite struct TableDefinitionTests {
    @Test func literalColumnsAndConstraints() throws {
        let recorder = try SchemaSQLRecorder()
        let defaultName = "O'Reilly"
        let forbiddenName = "admin"
        let statements = try recorder.sql { db throws in
            try db.create(table: "player") { t in
                t.column("id", .integer).primaryKey()
                t.column(literal: "name TEXT DEFAULT \(defaultName)")
                t.constraint(literal: "CHECK (name <> \(forbiddenName))")
            }
        }
        #expect(statements == [
            #"CREATE TABLE "player" ("id" INTEGER PRIMARY KEY, name TEXT DEFAULT 'O''Reilly', CHECK (name <> 'admin'))"#,
        ])
        try recorder.dbQueue.inDatabase { db throws in
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == "O'Reilly")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO player (name) VALUES ('admin')") }
        }
    }

    @Test func primaryKeyWithBodyAndConflictClause() throws {
        let recorder = try SchemaSQLRecorder()
        let statements = try recorder.sql { db throws in
            try db.create(table: "membership") { t in
                try t.primaryKey(onConflict: .replace, body: {
                    t.column("userId", .integer)
                    t.column("groupId", .integer)
                    try checkNothingThrows()
                })
                t.column("role", .text)
            }
        }
        #expect(statements == [
            #"CREATE TABLE "membership" ("userId" INTEGER NOT NULL, "groupId" INTEGER NOT NULL, "role" TEXT, PRIMARY KEY ("userId", "groupId") ON CONFLICT REPLACE)"#,
        ])
        // The error of the body is rethrown, and the table is not created.
        struct BodyError: Error { }
        #expect(throws: BodyError.self) {
            try recorder.dbQueue.inDatabase { db throws in
                try db.create(table: "other") { t in
                    try t.primaryKey { throw BodyError() }
                }
            }
        }
        #expect(try recorder.dbQueue.read { db throws in try db.tableExists("other") } == false)
    }

    func checkNothingThrows() throws { }

    @Test func uniqueForeignKeys() throws {
        let recorder = try SchemaSQLRecorder()
        let statements = try recorder.sql { db throws in
            try db.create(table: "citizen") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "passport") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("citizen").notNull().unique()
            }
        }
        #expect(statements.last == #"CREATE TABLE "passport" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "citizenId" INTEGER NOT NULL UNIQUE REFERENCES "citizen"("id"))"#)
        try recorder.dbQueue.inDatabase { db throws in
            try db.execute(sql: "INSERT INTO citizen DEFAULT VALUES; INSERT INTO passport (citizenId) VALUES (1)")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO passport (citizenId) VALUES (1)") }
        }
    }

    @Test func jsonColumnTypes() throws {
        let recorder = try SchemaSQLRecorder()
        let statements = try recorder.sql { db throws in
            try db.create(table: "player") { t in
                t.column("address", .jsonText)
                t.column("binaryAddress", .jsonb)
            }
        }
        #expect(statements == [#"CREATE TABLE "player" ("address" TEXT, "binaryAddress" BLOB)"#])
    }

    @Test func legacyTableCreationOptions() throws {
        let recorder = try SchemaSQLRecorder()
        let statements = try recorder.sql { db throws in
            try db.create(table: "a", temporary: true) { t in t.column("x") }
            try db.create(table: "b", ifNotExists: true, withoutRowID: true) { t in t.primaryKey("x", .text) }
            try db.create(table: "b", ifNotExists: true) { t in t.column("x") }
            // The options variant remains the one that trailing closures pick.
            try db.create(table: "c") { t in t.column("x") }
        }
        #expect(statements == [
            #"CREATE TEMPORARY TABLE "a" ("x")"#,
            #"CREATE TABLE IF NOT EXISTS "b" ("x" TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID"#,
            #"CREATE TABLE IF NOT EXISTS "b" ("x")"#,
            #"CREATE TABLE "c" ("x")"#,
        ])
        try recorder.dbQueue.inDatabase { db throws in
            #expect(try db.tableExists("a", in: "temp"))
            #expect(try !db.primaryKey("b").tableHasRowID)
        }
    }
}

@Suite struct TableAlterationTests {
    @Test func addColumnsWithSQLAndLiterals() throws {
        let recorder = try SchemaSQLRecorder()
        try recorder.dbQueue.inDatabase { db throws in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)") }
        let defaultName = "Anonymous"
        let statements = try recorder.sql { db throws in
            try db.alter(table: "player") { t in
                t.addColumn(sql: "email TEXT NOT NULL DEFAULT ''")
                t.addColumn(literal: "name TEXT NOT NULL DEFAULT \(defaultName)")
                t.add(column: "score", .integer)
            }
        }
        #expect(statements == [
            #"ALTER TABLE "player" ADD COLUMN email TEXT NOT NULL DEFAULT ''"#,
            #"ALTER TABLE "player" ADD COLUMN name TEXT NOT NULL DEFAULT 'Anonymous'"#,
            #"ALTER TABLE "player" ADD COLUMN "score" INTEGER"#,
        ])
        try recorder.dbQueue.inDatabase { db throws in
            #expect(try db.columns(in: "player").map(\.name) == ["id", "email", "name", "score"])
            try db.execute(sql: "INSERT INTO player DEFAULT VALUES")
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == "Anonymous")
        }
    }
}
