import Foundation
import Testing
import Cairn

private struct GardenTool: TableRecord { }
private struct XMLParserJob: TableRecord { }
private struct ISBN: TableRecord { }
private class Vehicle: TableRecord { }
private class Truck: Vehicle { }
private class NamedVehicle: TableRecord { class var databaseTableName: String { "vehicles" } }
private class NamedTruck: NamedVehicle { override class var databaseTableName: String { "trucks" } }
private enum Shed {
    struct Rake: TableRecord { }
}

/// The table names and selections of `TableRecord` types, and records of
/// attached databases, as in GRDB 7.
@Suite struct GRDBRequestTableRecordTests {
    @Test func defaultTableNames() {
        struct LocalThing: TableRecord { }
        func name<T: TableRecord>(_ type: T.Type) -> String { T.databaseTableName }
        #expect(GardenTool.databaseTableName == "gardenTool")
        #expect(XMLParserJob.databaseTableName == "xmlParserJob")
        #expect(ISBN.databaseTableName == "isbn")
        #expect(Vehicle.databaseTableName == "vehicle")
        #expect(Truck.databaseTableName == "truck")
        #expect(NamedVehicle.databaseTableName == "vehicles")
        #expect(NamedTruck.databaseTableName == "trucks")
        #expect(Shed.Rake.databaseTableName == "rake")
        #expect(LocalThing.databaseTableName == "localThing")
        #expect(name(Truck.self) == "truck")
        #expect(name(NamedTruck.self) == "trucks")
        #expect(name(Shed.Rake.self) == "rake")
    }

    @Test func databaseSelections() throws {
        struct Plain: TableRecord { static let databaseTableName = "t" }
        struct WithRowID: TableRecord {
            static let databaseTableName = "t"
            static var databaseSelection: [any SQLSelectable] { [AllColumns(), Column.rowID] }
        }
        struct Narrow: TableRecord {
            static let databaseTableName = "t"
            static var databaseSelection: [any SQLSelectable] { [Column("a"), Column("b")] }
        }
        struct Excluding: TableRecord {
            static let databaseTableName = "t"
            static var databaseSelection: [any SQLSelectable] { [.allColumns(excluding: ["b"])] }
        }
        let recorder = try GRDBSQLRecorder(schema: "CREATE TABLE t(a, b, c)")
        #expect(try recorder.sql(of: Plain.all()) == #"SELECT * FROM "t""#)
        #expect(try recorder.sql(of: WithRowID.all()) == #"SELECT *, "rowid" FROM "t""#)
        #expect(try recorder.sql(of: Narrow.all()) == #"SELECT "a", "b" FROM "t""#)
        #expect(try recorder.sql(of: Excluding.all()) == #"SELECT "a", "c" FROM "t""#)
        // select replaces the selection of the record.
        #expect(try recorder.sql(of: Narrow.select(Column("c"))) == #"SELECT "c" FROM "t""#)
        #expect(try recorder.sql(of: Narrow.select(AllColumns())) == #"SELECT * FROM "t""#)
        #expect(try recorder.sql(of: Narrow.all().annotated(with: Column("c"))) == #"SELECT "a", "b", "c" FROM "t""#)
        #expect(try recorder.sql(of: Narrow.aliased(TableAlias(name: "x"))) == #"SELECT "x"."a", "x"."b" FROM "t" "x""#)
    }

    @Test func recordsOfAttachedDatabases() throws {
        struct Crew: Codable, PersistableRecord, FetchableRecord, Equatable {
            var id: Int64
            var name: String
        }
        struct Sailor: Codable, PersistableRecord, FetchableRecord, Equatable {
            static let crew = belongsTo(Crew.self)
            var id: Int64
            var crewID: Int64
            var name: String
        }
        struct SailorInfo: Decodable, FetchableRecord, Equatable {
            var sailor: Sailor
            var crew: Crew
        }
        let directory = try TemporaryDirectory()
        let other = try DatabaseQueue(path: directory.filePath("other.sqlite"))
        try other.write { db throws in
            try db.create(table: "crew") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.create(table: "sailor") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("crewID", .integer).notNull().references("crew")
                t.column("name", .text).notNull()
            }
        }
        let main = try DatabaseQueue(path: directory.filePath("main.sqlite"))
        try main.writeWithoutTransaction { db throws in
            try db.execute(literal: "ATTACH DATABASE \(other.path) AS other")
            #expect(try Sailor.fetchCount(db) == 0)
            let crew = Crew(id: 1, name: "Blue")
            let sailor = Sailor(id: 1, crewID: 1, name: "Ann")
            try crew.insert(db)
            try sailor.insert(db)
            #expect(try Sailor.fetchOne(db, key: 1) == sailor)
            #expect(try Sailor.orderByPrimaryKey().fetchOne(db)?.name == "Ann")
            #expect(try Sailor.including(required: Sailor.crew).asRequest(of: SailorInfo.self).fetchOne(db)
                == SailorInfo(sailor: sailor, crew: crew))
        }
    }
}
