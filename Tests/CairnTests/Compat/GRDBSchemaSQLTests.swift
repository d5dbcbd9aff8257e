import Foundation
import Testing
import Cairn

/// The schema DSL writes the SQL GRDB writes: references name the primary
/// key of the referenced table, and the default conflict clause (ABORT) is
/// left out.
@Suite struct GRDBSchemaSQLTests {
    @Test func referencesWithoutColumnNameThePrimaryKey() throws {
        let recorder = try SchemaSQLRecorder()
        let statements = try recorder.sql { db throws in
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "country") { t in t.primaryKey("code", .text) }
            try db.create(table: "tag") { t in t.column("name", .text) }   // hidden rowid
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("teamId", .integer).references("team")
                t.column("countryCode", .text).references("country", onDelete: .setNull)
                t.column("tagId", .integer).references("tag")
                t.column("mentorId", .integer).references("player")
                t.column("coachId", .integer).references("team", column: "id")
            }
            try db.create(table: "node") { t in
                t.column("parentId", .integer).references("node")
            }
        }
        #expect(statements[3] == #"CREATE TABLE "player" ("#
            + #""id" INTEGER PRIMARY KEY AUTOINCREMENT, "#
            + #""teamId" INTEGER REFERENCES "team"("id"), "#
            + #""countryCode" TEXT REFERENCES "country"("code") ON DELETE SET NULL, "#
            + #""tagId" INTEGER REFERENCES "tag"("rowid"), "#
            + #""mentorId" INTEGER REFERENCES "player"("id"), "#
            + #""coachId" INTEGER REFERENCES "team"("id"))"#)
        #expect(statements[4] == #"CREATE TABLE "node" ("parentId" INTEGER REFERENCES "node"("rowid"))"#)
    }

    @Test func resolvedReferencesAreEnforced() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "team") { t in t.primaryKey("code", .text) }
            try db.create(table: "player") { t in
                t.column("teamCode", .text).references("team")
            }
            #expect(try db.foreignKeys(on: "player").first?.destinationColumns == ["code"])
            try db.execute(sql: "INSERT INTO team VALUES ('a')")
            try db.execute(sql: "INSERT INTO player VALUES ('a')")
            let error = #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO player VALUES ('b')") }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
        }
    }

    @Test func tableForeignKeysNameThePrimaryKey() throws {
        let recorder = try SchemaSQLRecorder()
        let statements = try recorder.sql { db throws in
            try db.create(table: "pair") { t in
                t.column("a", .text)
                t.column("b", .text)
                t.primaryKey(["a", "b"])
            }
            try db.create(table: "item") { t in
                t.column("a", .text)
                t.column("b", .text)
                t.foreignKey(["a", "b"], references: "pair")
            }
            try db.alter(table: "item") { t in
                t.add(column: "otherId", .integer).references("item")
            }
        }
        #expect(statements[1] == #"CREATE TABLE "item" ("a" TEXT, "b" TEXT, FOREIGN KEY ("a", "b") REFERENCES "pair"("a", "b"))"#)
        #expect(statements[2] == #"ALTER TABLE "item" ADD COLUMN "otherId" INTEGER REFERENCES "item"("rowid")"#)
    }

    @Test func referenceToAMissingTableNamesTheTableOnly() throws {
        // SQLite allows a reference to a table created later.
        let recorder = try SchemaSQLRecorder()
        let statements = try recorder.sql { db throws in
            try db.create(table: "early") { t in t.column("laterId", .integer).references("later") }
        }
        #expect(statements == [#"CREATE TABLE "early" ("laterId" INTEGER REFERENCES "later")"#])
    }

    @Test func defaultConflictClauseIsLeftOut() throws {
        let recorder = try SchemaSQLRecorder()
        let statements = try recorder.sql { db throws in
            try db.create(table: "t") { t in
                t.column("a", .text).notNull(onConflict: .abort)
                t.column("b", .text).unique(onConflict: .abort)
                t.column("c", .text).notNull(onConflict: .replace).unique(onConflict: .ignore)
                t.column("d", .text).notNull().unique()
            }
        }
        #expect(statements == [#"CREATE TABLE "t" ("#
            + #""a" TEXT NOT NULL, "b" TEXT UNIQUE, "#
            + #""c" TEXT NOT NULL ON CONFLICT REPLACE UNIQUE ON CONFLICT IGNORE, "d" TEXT NOT NULL UNIQUE)"#])
    }

    @Test func viewsAndReindexAreSpelledAsGRDBSpellsThem() throws {
        let recorder = try SchemaSQLRecorder()
        let statements = try recorder.sql { db throws in
            try db.create(table: "player") { t in t.column("name", .text) }
            try db.create(view: "names", columns: ["playerName"], as: Table("player").select(Column("name")))
            try db.reindex(collation: .nocase)
            try db.reindex(collation: .localizedCaseInsensitiveCompare)
        }
        #expect(statements.dropFirst() == [
            #"CREATE VIEW "names" ("playerName") AS SELECT "name" FROM "player""#,
            "REINDEX NOCASE",
            "REINDEX swiftLocalizedCaseInsensitiveCompare",
        ])
    }
}
