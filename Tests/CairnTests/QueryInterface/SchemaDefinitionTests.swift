import Foundation
import Testing
import Cairn

@Suite struct SchemaDefinitionTests {
    let dbQueue: DatabaseQueue
    let statements = Locked<[String]>([])

    init() throws {
        let statements = self.statements
        var config = Configuration()
        config.prepareDatabase { db throws in
            db.trace { event in statements.withLock { $0.append(event.description) } }
        }
        dbQueue = try DatabaseQueue(configuration: config)
    }

    /// The schema statements run by `body`.
    func sql(_ body: (Database) throws -> Void) throws -> [String] {
        statements.withLock { $0.removeAll() }
        try dbQueue.inDatabase(body)
        return statements.withLock { $0 }.filter {
            $0.hasPrefix("CREATE") || $0.hasPrefix("ALTER") || $0.hasPrefix("DROP")
        }
    }

    @Test func createTable() throws {
        let statements = try sql { db throws in
            try db.create(table: "team") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique(onConflict: .replace).collate(.nocase)
            }
            try db.create(table: "player", options: [.ifNotExists]) { t in
                t.primaryKey("uuid", .text)
                t.column("name", .text).notNull().defaults(to: "Anonymous")
                t.column("score", .integer).notNull().defaults(to: 0).check { $0 >= 0 }
                t.column("bonus", .integer).defaults(sql: "(1 + 1)")
                t.column("total", .integer).generatedAs(Column("score") + Column("bonus"), .stored)
                t.column("email", .text).indexed()
                t.belongsTo("team", onDelete: .cascade)
                t.belongsTo("mentor", inTable: "player", onDelete: .setNull)
                t.uniqueKey(["name", "email"])
                t.check(Column("name") != "")
            }
        }
        #expect(statements == [
            #"CREATE TABLE "team" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL UNIQUE ON CONFLICT REPLACE COLLATE NOCASE)"#,
            #"CREATE TABLE IF NOT EXISTS "player" ("uuid" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL DEFAULT 'Anonymous', "score" INTEGER NOT NULL CHECK ("score" >= 0) DEFAULT 0, "bonus" INTEGER DEFAULT ((1 + 1)), "total" INTEGER GENERATED ALWAYS AS ("score" + "bonus") STORED, "email" TEXT, "teamId" INTEGER REFERENCES "team"("id") ON DELETE CASCADE, "mentorUuid" TEXT REFERENCES "player"("uuid") ON DELETE SET NULL, UNIQUE ("name", "email"), CHECK ("name" <> ''))"#,
            // GRDB's order: the indexes of single columns in column order,
            // where a single-column foreign key is one of the columns.
            #"CREATE INDEX IF NOT EXISTS "player_on_email" ON "player"("email")"#,
            #"CREATE INDEX IF NOT EXISTS "player_on_teamId" ON "player"("teamId")"#,
            #"CREATE INDEX IF NOT EXISTS "player_on_mentorUuid" ON "player"("mentorUuid")"#,
        ])
        try dbQueue.write { db throws in
            try db.execute(sql: "INSERT INTO team (name) VALUES ('Red')")
            try db.execute(sql: "INSERT INTO player (uuid, email, teamId) VALUES ('a', 'a@x', 1)")
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM player"))
            #expect(row["name"] as String == "Anonymous")
            #expect(row["total"] as Int == 2)
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (uuid, score) VALUES ('b', -1)")
            }
            #expect(try db.foreignKeys(on: "player").count == 2)
            #expect(try db.indexes(on: "player").count >= 3)
        }
    }

    /// `belongsTo` finds the referenced table (as named, its plural, or the
    /// table being created) and gets one column per column of its primary
    /// key, with the declared types.
    @Test func belongsToResolvesTablesAndKeys() throws {
        try dbQueue.inDatabase { db throws in
            try db.create(table: "teams") { t in t.column("name", .text) }
            try db.create(table: "COUNTRY") { t in t.primaryKey("code", .text) }
            try db.create(table: "citizenship") { t in
                t.primaryKey {
                    t.column("countryCode", .text)
                    t.column("personId", .integer)
                }
            }
        }
        let statements = try sql { db throws in
            try db.create(table: "employees") { t in
                t.column("name", .text)
                t.belongsTo("team")                 // plural table, hidden rowid
                t.belongsTo("country").notNull()    // case of the existing table, TEXT key
                t.belongsTo("manager", inTable: "employees")
                t.belongsTo("employee")             // the table itself, by its singular
                t.belongsTo("citizenship", onDelete: .cascade).unique()
                t.belongsTo("badge", inTable: "teams").unique()
            }
        }
        #expect(statements == [
            #"CREATE TABLE "employees" ("name" TEXT, "teamId" INTEGER REFERENCES "teams"("rowid"), "# +
            #""countryCode" TEXT NOT NULL REFERENCES "country"("code"), "# +
            #""managerId" INTEGER REFERENCES "employees"("rowid"), "employeeId" INTEGER REFERENCES "employees"("rowid"), "# +
            #""citizenshipCountryCode" TEXT, "citizenshipPersonId" INTEGER, "# +
            #""badgeId" INTEGER UNIQUE REFERENCES "teams"("rowid"), "# +
            #"FOREIGN KEY ("citizenshipCountryCode", "citizenshipPersonId") REFERENCES "citizenship"("countryCode", "personId") ON DELETE CASCADE)"#,
            // GRDB's order: multi-column foreign keys first.
            #"CREATE UNIQUE INDEX "index_employees_on_citizenshipCountryCode_citizenshipPersonId" ON "employees"("citizenshipCountryCode", "citizenshipPersonId")"#,
            #"CREATE INDEX "employees_on_teamId" ON "employees"("teamId")"#,
            #"CREATE INDEX "employees_on_countryCode" ON "employees"("countryCode")"#,
            #"CREATE INDEX "employees_on_managerId" ON "employees"("managerId")"#,
            #"CREATE INDEX "employees_on_employeeId" ON "employees"("employeeId")"#,
        ])
        try dbQueue.inDatabase { db throws in
            let foreignKeys = try db.foreignKeys(on: "employees")
            #expect(foreignKeys.count == 6)
            #expect(foreignKeys.contains { $0.destinationTable.lowercased() == "citizenship" && $0.originColumns == ["citizenshipCountryCode", "citizenshipPersonId"] })
        }
    }

    /// A foreign key in the primary key is NOT NULL and not indexed; a
    /// foreign key to the table being created can not be part of its
    /// primary key; a missing table is an error. Failed definitions create
    /// nothing.
    @Test func belongsToInPrimaryKeysAndErrors() throws {
        let statements = try sql { db throws in
            try db.create(table: "pair") { t in
                t.primaryKey {
                    t.column("a", .text)
                    t.column("b", .text)
                }
            }
            try db.create(table: "simple") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "child") { t in
                t.primaryKey {
                    t.column("rank", .integer)
                    t.belongsTo("pair")
                    t.belongsTo("simple")
                }
            }
        }
        #expect(statements.last == #"CREATE TABLE "child" ("rank" INTEGER NOT NULL, "pairA" TEXT NOT NULL, "pairB" TEXT NOT NULL, "simpleId" INTEGER NOT NULL REFERENCES "simple"("id"), PRIMARY KEY ("rank", "pairA", "pairB", "simpleId"), FOREIGN KEY ("pairA", "pairB") REFERENCES "pair"("a", "b"))"#)
        try dbQueue.inDatabase { db throws in
            #expect(try db.primaryKey("child").columns == ["rank", "pairA", "pairB", "simpleId"])
            #expect {
                try db.create(table: "node") { t in
                    t.primaryKey { t.belongsTo("node") }
                }
            } throws: { error in
                (error as? DatabaseError)?.message?.contains("can not be part of its primary key") == true
            }
            #expect {
                try db.create(table: "book") { t in t.belongsTo("author") }
            } throws: { error in
                (error as? DatabaseError)?.message?.contains("no such table: author (nor authors)") == true
            }
            #expect(try !db.tableExists("node"))
            #expect(try !db.tableExists("book"))
        }
    }

    @Test func tableOptionsAndCompositeKeys() throws {
        let statements = try sql { db throws in
            try db.create(table: "membership", options: [.withoutRowID, .strict]) { t in
                t.column("userId", .integer).notNull()
                t.column("groupId", .integer).notNull()
                t.primaryKey(["userId", "groupId"])
            }
            try db.create(table: "log", options: [.temporary]) { t in
                t.column("message")
            }
            try db.create(table: "award") { t in
                t.column("userId", .integer)
                t.column("groupId", .integer)
                t.foreignKey(["userId", "groupId"], references: "membership", onDelete: .cascade, deferred: true)
            }
        }
        #expect(statements == [
            #"CREATE TABLE "membership" ("userId" INTEGER NOT NULL, "groupId" INTEGER NOT NULL, PRIMARY KEY ("userId", "groupId")) STRICT, WITHOUT ROWID"#,
            #"CREATE TEMPORARY TABLE "log" ("message")"#,
            #"CREATE TABLE "award" ("userId" INTEGER, "groupId" INTEGER, FOREIGN KEY ("userId", "groupId") REFERENCES "membership"("userId", "groupId") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED)"#,
        ])
        try dbQueue.read { db throws in
            #expect(try db.primaryKey("membership").columns == ["userId", "groupId"])
        }
    }

    @Test func alterRenameDropIndexesViews() throws {
        try dbQueue.inDatabase { db throws in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
                t.column("score", .integer)
            }
        }
        let statements = try sql { db throws in
            try db.alter(table: "player") { t in
                t.add(column: "email", .text).notNull().defaults(to: "")
                t.rename(column: "name", to: "fullName")
                t.drop(column: "score")
            }
            try db.create(index: "player_on_email", on: "player", columns: ["email"], unique: true, condition: Column("email") != "")
            try db.create(view: "namedPlayer", as: Table("player").filter(Column("fullName") != nil).select(Column("fullName")))
            try db.drop(view: "namedPlayer")
            try db.drop(index: "player_on_email")
            try db.rename(table: "player", to: "gamer")
            try db.drop(table: "gamer")
            try db.drop(table: "gamer", ifExists: true)
        }
        #expect(statements == [
            #"ALTER TABLE "player" ADD COLUMN "email" TEXT NOT NULL DEFAULT ''"#,
            #"ALTER TABLE "player" RENAME COLUMN "name" TO "fullName""#,
            #"ALTER TABLE "player" DROP COLUMN "score""#,
            #"CREATE UNIQUE INDEX "player_on_email" ON "player"("email") WHERE "email" <> ''"#,
            #"CREATE VIEW "namedPlayer" AS SELECT "fullName" FROM "player" WHERE "fullName" IS NOT NULL"#,
            #"DROP VIEW "namedPlayer""#,
            #"DROP INDEX "player_on_email""#,
            #"ALTER TABLE "player" RENAME TO "gamer""#,
            #"DROP TABLE "gamer""#,
            #"DROP TABLE IF EXISTS "gamer""#,
        ])
    }

    @Test func virtualTables() throws {
        try dbQueue.inDatabase { db throws in
            try db.create(virtualTable: "box", using: "rtree(id, minX, maxX)")
            try db.execute(sql: "INSERT INTO box VALUES (1, 0, 10)")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM box WHERE minX < 5") == 1)
        }
    }

    @Test func schemaChangesClearTheSchemaCache() throws {
        try dbQueue.inDatabase { db throws in
            try db.create(table: "t") { t in t.column("a", .integer).primaryKey() }
            #expect(try db.primaryKey("t").columns == ["a"])
            try db.drop(table: "t")
            try db.create(table: "t") { t in t.column("b", .text).primaryKey() }
            #expect(try db.primaryKey("t").columns == ["b"])
            // A rolled back schema change too.
            try db.inTransaction {
                try db.drop(table: "t")
                try db.create(table: "t") { t in t.column("c", .text).primaryKey() }
                #expect(try db.primaryKey("t").columns == ["c"])
                return .rollback
            }
            #expect(try db.primaryKey("t").columns == ["b"])
        }
    }
}
