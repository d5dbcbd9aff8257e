import Foundation
import Testing
import Cairn

/// The statements that `including(all:)` runs are GRDB's: the keys of the
/// parent rows in SQLite's order (`IN (1, 2, 3)` whatever the order of the
/// parents), compound keys written `((a = ?) AND (b = ?)) OR …`, and
/// prefetched associations through pivots of the same key share the
/// filters of those pivots.
@Suite struct GRDBAssociationPrefetchSQLTests {
    struct Writer: Codable, FetchableRecord, TableRecord, Equatable {
        static let novels = hasMany(Novel.self)
        var id: Int64
        var name: String
    }
    struct Novel: Codable, FetchableRecord, TableRecord, Equatable {
        static let writer = belongsTo(Writer.self)
        var id: Int64
        var writerId: Int64?
        var title: String
    }
    struct WriterShelf: Decodable, FetchableRecord, Equatable {
        var writer: Writer
        var novels: [Novel]
    }

    func makeLibrary() throws -> GRDBSQLRecorder {
        try GRDBSQLRecorder(schema: """
            CREATE TABLE writer (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE novel (id INTEGER PRIMARY KEY, writerId INTEGER REFERENCES writer, title TEXT NOT NULL);
            INSERT INTO writer VALUES (1, 'Zoe'), (2, 'Ann'), (3, 'Max'), (4, 'Bob');
            INSERT INTO novel VALUES (10, 2, 'Dawn'), (11, 1, 'Dusk'), (12, 3, 'Noon'), (13, 2, 'Night'), (14, NULL, 'Lost');
            """)
    }

    @Test func keysOfParentsInAnyOrderAreListedInSQLiteOrder() throws {
        let library = try makeLibrary()
        let request = Writer.including(all: Writer.novels.orderByPrimaryKey()).order(Column("name"))
        #expect(try library.sql { db in _ = try Row.fetchAll(db, request) } == [
            #"SELECT * FROM "writer" ORDER BY "name""#,
            #"SELECT *, "writerId" AS "grdb_writerId" FROM "novel" WHERE "writerId" IN (1, 2, 3, 4) ORDER BY "id""#,
        ])
        let shelves = try library.dbQueue.read { try request.asRequest(of: WriterShelf.self).fetchAll($0) }
        #expect(shelves.map(\.writer.name) == ["Ann", "Bob", "Max", "Zoe"])
        #expect(shelves.map { $0.novels.map(\.id) } == [[10, 13], [], [12], [11]])
    }

    @Test func keysOfPivotRowsAreListedOnceInSQLiteOrder() throws {
        let library = try makeLibrary()
        // Novels ordered by descending id: writers 2, 3, 1, 2, and NULL.
        let siblings = Novel.hasMany(Novel.self, through: Novel.writer, using: Writer.novels).forKey("siblings")
        let request = Novel.including(all: siblings.orderByPrimaryKey()).order(Column("id").desc)
        #expect(try library.sql { db in _ = try Row.fetchAll(db, request) } == [
            #"SELECT * FROM "novel" ORDER BY "id" DESC"#,
            #"SELECT "novel".*, "writer"."id" AS "grdb_id" FROM "novel" "#
                + #"JOIN "writer" ON ("writer"."id" = "novel"."writerId") AND ("writer"."id" IN (1, 2, 3)) "#
                + #"ORDER BY "novel"."id""#,
        ])
        let rows = try library.dbQueue.read { try Row.fetchAll($0, request) }
        #expect(rows.map { $0.prefetchedRows["siblings"]!.map { $0["id"] as Int64 } }
            == [[], [10, 13], [12], [11], [10, 13]])
    }

    // MARK: - Compound keys

    func makeWarehouse() throws -> GRDBSQLRecorder {
        try GRDBSQLRecorder(schema: """
            CREATE TABLE bin (aisle TEXT NOT NULL, slot INTEGER NOT NULL, PRIMARY KEY (aisle, slot));
            CREATE TABLE parcel (id INTEGER PRIMARY KEY, aisle TEXT, slot INTEGER, label TEXT NOT NULL,
                FOREIGN KEY (aisle, slot) REFERENCES bin);
            INSERT INTO bin VALUES ('north', 2), ('east', 7), ('north', 1);
            INSERT INTO parcel VALUES (1, 'north', 1, 'lamp'), (2, 'east', 7, 'desk'), (3, 'north', 1, 'rug'),
                (4, NULL, 1, 'box');
            """)
    }
    struct Bin: TableRecord {}
    struct Parcel: TableRecord {}

    @Test func compoundKeysAreOneConditionPerParentRow() throws {
        let warehouse = try makeWarehouse()
        let request = Bin.including(all: Bin.hasMany(Parcel.self).orderByPrimaryKey()).order(Column("slot").desc)
        #expect(try warehouse.sql { db in _ = try Row.fetchAll(db, request) } == [
            #"SELECT * FROM "bin" ORDER BY "slot" DESC"#,
            #"SELECT *, "aisle" AS "grdb_aisle", "slot" AS "grdb_slot" FROM "parcel" "#
                + #"WHERE (("aisle" = 'east') AND ("slot" = 7)) OR (("aisle" = 'north') AND ("slot" = 2)) "#
                + #"OR (("aisle" = 'north') AND ("slot" = 1)) ORDER BY "id""#,
        ])
        let rows = try warehouse.dbQueue.read { try Row.fetchAll($0, request) }
        #expect(rows.map { $0.prefetchedRows["parcels"]!.map { $0["label"] as String } }
            == [["desk"], [], ["lamp", "rug"]])
    }

    @Test func compoundKeyOfOneParentStaysOneOperand() throws {
        let warehouse = try makeWarehouse()
        let request = Bin
            .filter(Column("aisle") == "east")
            .including(all: Bin.hasMany(Parcel.self).filter(Column("label") != "rug"))
        #expect(try warehouse.sql { db in _ = try Row.fetchAll(db, request) } == [
            #"SELECT * FROM "bin" WHERE "aisle" = 'east'"#,
            #"SELECT *, "aisle" AS "grdb_aisle", "slot" AS "grdb_slot" FROM "parcel" "#
                + #"WHERE ("label" <> 'rug') AND (("aisle" = 'east') AND ("slot" = 7))"#,
        ])
    }

    @Test func manyCompoundKeysArePrefetched() throws {
        // GRDB writes one OR per parent in one query, which SQLite refuses
        // beyond its expression depth (1,000); Cairn splits the keys.
        let warehouse = try makeWarehouse()
        try warehouse.dbQueue.write { db in
            for slot in 100..<1_300 {
                try db.execute(sql: "INSERT INTO bin VALUES ('west', ?)", arguments: [slot])
                try db.execute(sql: "INSERT INTO parcel (aisle, slot, label) VALUES ('west', ?, ?)",
                               arguments: [slot, "p\(slot)"])
            }
        }
        let rows = try warehouse.dbQueue.read { db in
            try Row.fetchAll(db, Bin.filter(Column("aisle") == "west")
                .including(all: Bin.hasMany(Parcel.self)).order(Column("slot")))
        }
        #expect(rows.count == 1_200)
        #expect(rows.allSatisfy { row in
            row.prefetchedRows["parcels"]!.map { $0["label"] as String } == ["p\(row["slot"] as Int)"]
        })
    }

    // MARK: - Shared pivots

    struct Club: TableRecord {
        static let members = hasMany(Member.self)
    }
    struct Member: TableRecord {
        static let club = belongsTo(Club.self)
    }

    func makeClubs() throws -> GRDBSQLRecorder {
        try GRDBSQLRecorder(schema: """
            CREATE TABLE club (id INTEGER PRIMARY KEY, city TEXT NOT NULL);
            CREATE TABLE member (id INTEGER PRIMARY KEY, clubId INTEGER REFERENCES club, name TEXT NOT NULL);
            INSERT INTO club VALUES (1, 'Oslo'), (2, 'Rome');
            INSERT INTO member VALUES (1, 1, 'Ida'), (2, 1, 'Ola'), (3, 2, 'Pia');
            """)
    }

    @Test func pivotsOfTheSameKeyShareTheirFilters() throws {
        let clubs = try makeClubs()
        func clubmates(_ city: SQLExpression) -> HasManyThroughAssociation<Member, Member> {
            Member.hasMany(Member.self, through: Member.club.filter(city), using: Club.members)
        }
        // One key for both: one association, both pivot filters.
        let merged = Member
            .including(all: clubmates(Column("city") == "Oslo").forKey("mates").orderByPrimaryKey())
            .including(all: clubmates(Column("city") != "Oslo").forKey("mates").orderByPrimaryKey())
            .orderByPrimaryKey()
        let expectedPrefetch = #"SELECT "member".*, "club"."id" AS "grdb_id" FROM "member" "#
            + #"JOIN "club" ON ("club"."id" = "member"."clubId") AND ("club"."city" = 'Oslo') "#
            + #"AND ("club"."city" <> 'Oslo') AND ("club"."id" IN (1, 2)) ORDER BY "member"."id""#
        #expect(try clubs.sql { db in _ = try Row.fetchAll(db, merged) } == [
            #"SELECT * FROM "member" ORDER BY "id""#, expectedPrefetch,
        ])
        // Two keys, one pivot key: two queries, both pivot filters.
        let shared = Member
            .including(all: clubmates(Column("city") == "Oslo").forKey("osloMates").orderByPrimaryKey())
            .including(all: clubmates(Column("city") != "Oslo").forKey("otherMates").orderByPrimaryKey())
            .orderByPrimaryKey()
        #expect(try clubs.sql { db in _ = try Row.fetchAll(db, shared) } == [
            #"SELECT * FROM "member" ORDER BY "id""#, expectedPrefetch, expectedPrefetch,
        ])
        let rows = try clubs.dbQueue.read { try Row.fetchAll($0, shared) }
        #expect(rows.allSatisfy { $0.prefetchedRows["osloMates"]!.isEmpty && $0.prefetchedRows["otherMates"]!.isEmpty })
    }

    @Test func pivotsOfDistinctKeysKeepTheirFilters() throws {
        let clubs = try makeClubs()
        let request = Member
            .including(all: Member.hasMany(
                Member.self, through: Member.club.filter(Column("city") == "Oslo").forKey("oslo"), using: Club.members)
                .forKey("osloMates").orderByPrimaryKey())
            .including(all: Member.hasMany(
                Member.self, through: Member.club.filter(Column("city") != "Oslo").forKey("other"), using: Club.members)
                .forKey("otherMates").orderByPrimaryKey())
            .orderByPrimaryKey()
        #expect(try clubs.sql { db in _ = try Row.fetchAll(db, request) } == [
            #"SELECT * FROM "member" ORDER BY "id""#,
            #"SELECT "member".*, "club"."id" AS "grdb_id" FROM "member" "#
                + #"JOIN "club" ON ("club"."id" = "member"."clubId") AND ("club"."city" = 'Oslo') "#
                + #"AND ("club"."id" IN (1, 2)) ORDER BY "member"."id""#,
            #"SELECT "member".*, "club"."id" AS "grdb_id" FROM "member" "#
                + #"JOIN "club" ON ("club"."id" = "member"."clubId") AND ("club"."city" <> 'Oslo') "#
                + #"AND ("club"."id" IN (1, 2)) ORDER BY "member"."id""#,
        ])
        let rows = try clubs.dbQueue.read { try Row.fetchAll($0, request) }
        #expect(rows.map { $0.prefetchedRows["osloMates"]!.map { $0["name"] as String } } == [["Ida", "Ola"], ["Ida", "Ola"], []])
        #expect(rows.map { $0.prefetchedRows["otherMates"]!.map { $0["name"] as String } } == [[], [], ["Pia"]])
    }
}
