import Foundation
import Testing
import Cairn

/// `DatabaseRegion`: combinations, descriptions, and the regions of
/// statements and requests, as GRDB 7.8 gives them.
@Suite struct GRDBRegionTests {
    /// Eight regions of two tables, `shelf` and `crate`.
    static let samples: [DatabaseRegion] = [
        .fullDatabase,
        DatabaseRegion(),
        DatabaseRegion(table: "shelf"),
        DatabaseRegion(table: "shelf", columns: ["x", "y"]),
        DatabaseRegion(table: "shelf", columns: ["y", "z"]),
        DatabaseRegion(table: "shelf", rowIDs: [1, 2]),
        DatabaseRegion(table: "shelf", rowIDs: [2, 3]),
        DatabaseRegion(table: "crate"),
    ]

    @Test func unionsOfSamples() {
        let unions = Self.samples.flatMap { lhs in Self.samples.map { lhs.union($0).description } }
        let full = Array(repeating: "full database", count: 8)
        #expect(Array(unions[0..<8]) == full)
        #expect(Array(unions[8..<16]) == ["full database", "empty", "shelf(*)", "shelf(x,y)", "shelf(y,z)",
                                          "shelf(*)[1,2]", "shelf(*)[2,3]", "crate(*)"])
        #expect(Array(unions[16..<24]) == ["full database", "shelf(*)", "shelf(*)", "shelf(*)", "shelf(*)",
                                           "shelf(*)", "shelf(*)", "crate(*),shelf(*)"])
        #expect(Array(unions[24..<32]) == ["full database", "shelf(x,y)", "shelf(*)", "shelf(x,y)", "shelf(x,y,z)",
                                           "shelf(*)", "shelf(*)", "crate(*),shelf(x,y)"])
        #expect(Array(unions[40..<48]) == ["full database", "shelf(*)[1,2]", "shelf(*)", "shelf(*)", "shelf(*)",
                                           "shelf(*)[1,2]", "shelf(*)[1,2,3]", "crate(*),shelf(*)[1,2]"])
        #expect(Array(unions[56..<64]) == ["full database", "crate(*)", "crate(*),shelf(*)", "crate(*),shelf(x,y)",
                                           "crate(*),shelf(y,z)", "crate(*),shelf(*)[1,2]", "crate(*),shelf(*)[2,3]",
                                           "crate(*)"])
    }

    @Test func intersectionsOfSamples() {
        let intersections = Self.samples.flatMap { lhs in Self.samples.map { lhs.intersection($0).description } }
        #expect(Array(intersections[0..<8]) == ["full database", "empty", "shelf(*)", "shelf(x,y)", "shelf(y,z)",
                                                "shelf(*)[1,2]", "shelf(*)[2,3]", "crate(*)"])
        #expect(Array(intersections[8..<16]) == Array(repeating: "empty", count: 8))
        #expect(Array(intersections[24..<32]) == ["shelf(x,y)", "empty", "shelf(x,y)", "shelf(x,y)", "shelf(y)",
                                                  "shelf(x,y)[1,2]", "shelf(x,y)[2,3]", "empty"])
        #expect(Array(intersections[40..<48]) == ["shelf(*)[1,2]", "empty", "shelf(*)[1,2]", "shelf(x,y)[1,2]",
                                                  "shelf(y,z)[1,2]", "shelf(*)[1,2]", "shelf(*)[2]", "empty"])
    }

    @Test func columnsAndRowsCombine() {
        let first = DatabaseRegion(table: "shelf", columns: ["x"]).intersection(DatabaseRegion(table: "shelf", rowIDs: [1]))
        let second = DatabaseRegion(table: "shelf", columns: ["y"]).intersection(DatabaseRegion(table: "shelf", rowIDs: [2]))
        #expect(first.description == "shelf(x)[1]")
        #expect(first.union(second).description == "shelf(x,y)[1,2]")
        #expect(first.intersection(second).description == "empty")
        let mixed = DatabaseRegion(table: "shelf").union(
            DatabaseRegion(table: "crate", columns: ["x"]).intersection(DatabaseRegion(table: "crate", rowIDs: [1])))
        #expect(mixed.description == "crate(x)[1],shelf(*)")
    }

    /// GRDB sorts tables and columns by their names as given, with
    /// uppercase letters before lowercase ones.
    @Test func descriptionsSortNamesAsGiven() {
        #expect(DatabaseRegion(table: "shelf", columns: ["label", "Name", "id"]).description == "shelf(Name,id,label)")
        #expect(DatabaseRegion(table: "shelf", columns: ["boxId", "boxes"]).description == "shelf(boxId,boxes)")
        #expect(DatabaseRegion(table: "shelf").union(DatabaseRegion(table: "Crate")).description == "Crate(*),shelf(*)")
        #expect(DatabaseRegion(table: "shelf").union(DatabaseRegion(table: "Zone")).description == "Zone(*),shelf(*)")
    }

    func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE shelf (id INTEGER PRIMARY KEY, label TEXT);
                CREATE TABLE crate (id INTEGER PRIMARY KEY, label TEXT, shelfId INTEGER REFERENCES shelf(id));
                CREATE TABLE lid (id INTEGER PRIMARY KEY, label TEXT, shelfId INTEGER REFERENCES shelf(id));
                CREATE TABLE loose (n INTEGER, shelfId INTEGER);
                """)
        }
        return dbQueue
    }

    @Test func regionsOfStatements() throws {
        try makeDatabase().read { db in
            let join = try db.makeStatement(sql: "SELECT SHELF.label FROM Shelf JOIN LOOSE ON loose.shelfId = shelf.id")
            #expect(join.databaseRegion.description == "loose(shelfId),shelf(id,label)")
            #expect(join.databaseRegion == DatabaseRegion(table: "shelf", columns: ["label", "id"])
                .union(DatabaseRegion(table: "loose", columns: ["shelfId"])))
            #expect(try db.makeStatement(sql: "SELECT COUNT(*) FROM loose").databaseRegion.description == "loose(*)")
        }
    }

    struct Shelf: TableRecord {
        static let databaseTableName = "shelf"
        static let crate = hasOne(Crate.self)
        static let lids = hasMany(Lid.self)
    }

    struct Crate: TableRecord {
        static let databaseTableName = "crate"
        static let shelf = belongsTo(Shelf.self)
    }

    struct Lid: TableRecord {
        static let databaseTableName = "lid"
    }

    @Test func rowsOfRequests() throws {
        let dbQueue = try makeDatabase()
        func region(_ request: QueryInterfaceRequest<Shelf>) throws -> String {
            try dbQueue.read { db in try request.databaseRegion(db).description }
        }
        do {
            let id = Column("id")
            let label = Column("label")
            // All rows
            #expect(try region(Shelf.all()) == "shelf(id,label)")
            #expect(try region(Shelf.filter(label == "top")) == "shelf(id,label)")
            #expect(try region(Shelf.filter(id >= 1)) == "shelf(id,label)")
            #expect(try region(Shelf.filter(id == 1 || label == "top")) == "shelf(id,label)")
            // No row
            #expect(try region(Shelf.filter(id == nil)) == "empty")
            #expect(try region(Shelf.filter(id === nil)) == "empty")
            #expect(try region(Shelf.filter(nil == id)) == "empty")
            #expect(try region(Shelf.filter(id == 1 && id == 2)) == "empty")
            #expect(try region(Shelf.filter(key: 1).filter(key: 2)) == "empty")
            // One row
            #expect(try region(Shelf.filter(id == 1)) == "shelf(id,label)[1]")
            #expect(try region(Shelf.filter(id === 1)) == "shelf(id,label)[1]")
            #expect(try region(Shelf.filter(1 == id)) == "shelf(id,label)[1]")
            #expect(try region(Shelf.filter(Column.rowID == 1)) == "shelf(id,label)[1]")
            #expect(try region(Shelf.filter(1 === Column.rowID)) == "shelf(id,label)[1]")
            #expect(try region(Shelf.filter(id == 1 && label == "top")) == "shelf(id,label)[1]")
            #expect(try region(Shelf.filter(key: 1)) == "shelf(id,label)[1]")
            #expect(try region(Shelf.filter(key: 1).filter(key: 1)) == "shelf(id,label)[1]")
            #expect(try region(Shelf.filter(key: 1).filter(label == "top")) == "shelf(id,label)[1]")
            // Several rows
            #expect(try region(Shelf.filter(id == 1 || Column.rowID == 2)) == "shelf(id,label)[1,2]")
            #expect(try region(Shelf.filter((id == 1 && label == "top") || Column.rowID == 2)) == "shelf(id,label)[1,2]")
            #expect(try region(Shelf.filter([1, 2, 3].contains(id))) == "shelf(id,label)[1,2,3]")
            #expect(try region(Shelf.filter([1, 2, 3].contains(Column.rowID))) == "shelf(id,label)[1,2,3]")
            #expect(try region(Shelf.filter(keys: [1, 2, 3])) == "shelf(id,label)[1,2,3]")
        }
    }

    @Test func rowsOfJoinedAndDerivedRequests() throws {
        let descriptions = try makeDatabase().read { db -> [String] in
            let joined = Shelf.filter(key: 1)
                .including(optional: Shelf.crate.filter(key: 2))
                .including(optional: Shelf.lids.filter(keys: [1, 2, 3]))
            let nested = Crate.filter(key: 1)
                .including(optional: Crate.shelf.filter(key: 2).including(optional: Shelf.lids.filter(keys: [1, 2])))
            let request = Shelf.filter(keys: [1, 2, 3])
            return [
                try joined.databaseRegion(db).description,
                try nested.databaseRegion(db).description,
                try AnyFetchRequest(request).databaseRegion(db).description,
                try request.adapted { _ in SuffixRowAdapter(fromIndex: 1) }.databaseRegion(db).description,
            ]
        }
        #expect(descriptions == [
            "crate(id,label,shelfId),lid(id,label,shelfId),shelf(id,label)[1]",
            "crate(id,label,shelfId)[1],lid(id,label,shelfId),shelf(id,label)",
            "shelf(id,label)[1,2,3]",
            "shelf(id,label)[1,2,3]",
        ])
    }
}
