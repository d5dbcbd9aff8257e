import Dispatch
import Foundation
import Testing
import Cairn

/// Observations of requests that prefetch associated rows with
/// `including(all:)`, as in GRDB 7.8: the observed region holds the tables
/// of the prefetched rows, even when the first fetch finds no base row,
/// so that their changes are seen.
@Suite struct GRDBValueObservationPrefetchTests {
    struct Shelf: TableRecord, FetchableRecord, Decodable, Equatable, Sendable {
        static let books = hasMany(Book.self)
        var id: Int64
        var label: String
    }

    struct Book: TableRecord, FetchableRecord, Decodable, Equatable, Sendable {
        var id: Int64
        var shelfId: Int64
        var title: String
    }

    struct ShelfInfo: FetchableRecord, Decodable, Equatable, Sendable {
        var shelf: Shelf
        var books: [Book]
    }

    static let setup: @Sendable (Database) throws -> Void = { db in
        try db.create(table: "shelf") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("label", .text)
        }
        try db.create(table: "book") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("shelfId", .integer).references("shelf", onDelete: .cascade)
            t.column("title", .text)
        }
    }

    /// Five transactions: shelves, then books, then a rename, then a shelf
    /// with its book, then deletions.
    static let updates: @Sendable (Database) throws -> Void = { db in
        try db.inTransaction {
            try db.execute(sql: "INSERT INTO shelf (id, label) VALUES (1, 'left'), (2, 'right')")
            return .commit
        }
        try db.inTransaction {
            try db.execute(sql: """
                INSERT INTO book (id, shelfId, title) VALUES (1, 1, 'Emma');
                INSERT INTO book (id, shelfId, title) VALUES (2, 1, 'Ivanhoe');
                INSERT INTO book (id, shelfId, title) VALUES (3, 2, 'Kim');
                """)
            return .commit
        }
        try db.inTransaction {
            try db.execute(sql: "UPDATE book SET title = 'Emma (2nd ed.)' WHERE id = 1")
            return .commit
        }
        try db.inTransaction {
            try db.execute(sql: """
                INSERT INTO shelf (id, label) VALUES (3, 'top');
                INSERT INTO book (id, shelfId, title) VALUES (4, 3, 'Nana');
                """)
            return .commit
        }
        try db.inTransaction {
            try db.execute(sql: "DELETE FROM shelf WHERE id = 1; DELETE FROM book")
            return .commit
        }
    }

    static let request = Shelf
        .including(all: Shelf.books.orderByPrimaryKey())
        .orderByPrimaryKey()

    static func shelf(_ id: Int64, _ label: String, _ books: [(Int64, Int64, String)] = []) -> ShelfInfo {
        ShelfInfo(
            shelf: Shelf(id: id, label: label),
            books: books.map { Book(id: $0.0, shelfId: $0.1, title: $0.2) })
    }

    static let emma = (Int64(1), Int64(1), "Emma")
    static let emma2 = (Int64(1), Int64(1), "Emma (2nd ed.)")
    static let ivanhoe = (Int64(2), Int64(1), "Ivanhoe")
    static let kim = (Int64(3), Int64(2), "Kim")
    static let nana = (Int64(4), Int64(3), "Nana")

    static let expectedAll: [[ShelfInfo]] = [
        [],
        [shelf(1, "left"), shelf(2, "right")],
        [shelf(1, "left", [emma, ivanhoe]), shelf(2, "right", [kim])],
        [shelf(1, "left", [emma2, ivanhoe]), shelf(2, "right", [kim])],
        [shelf(1, "left", [emma2, ivanhoe]), shelf(2, "right", [kim]), shelf(3, "top", [nana])],
        [shelf(2, "right"), shelf(3, "top")],
    ]

    /// The first shelf; the fourth transaction does not change it, and
    /// gives the same value again.
    static let expectedOne: [ShelfInfo?] = [
        nil,
        shelf(1, "left"),
        shelf(1, "left", [emma, ivanhoe]),
        shelf(1, "left", [emma2, ivanhoe]),
        shelf(1, "left", [emma2, ivanhoe]),
        shelf(2, "right"),
    ]

    let records: GRDBValueObservationRecordsTests

    init() throws {
        records = try GRDBValueObservationRecordsTests()
    }

    @Test func allRecordsWithPrefetchedRows() async throws {
        let request = Self.request.asRequest(of: ShelfInfo.self)
        try await records.expectRecords(
            ValueObservation.trackingConstantRegion { try request.fetchAll($0) },
            Self.expectedAll, setup: Self.setup, updates: Self.updates)
    }

    @Test func oneRecordWithPrefetchedRows() async throws {
        let request = Self.request.asRequest(of: ShelfInfo.self)
        try await records.expectRecords(
            ValueObservation.trackingConstantRegion { try request.fetchOne($0) },
            Self.expectedOne, setup: Self.setup, updates: Self.updates)
    }

    /// Rows compare with their prefetched rows: `removeDuplicates()` on
    /// rows drops the value of the fourth transaction, and only that one.
    @Test func duplicateRowsWithPrefetchedRowsAreRemoved() async throws {
        let request = Self.request
        try await records.expectRecords(
            ValueObservation
                .trackingConstantRegion { db in try Row.fetchOne(db, request) }
                .removeDuplicates()
                .map { row in try row.map(ShelfInfo.init(row:)) },
            Self.expectedOne.enumerated().filter { $0.offset != 4 }.map(\.element),
            setup: Self.setup, updates: Self.updates)
        try await records.expectRecords(
            ValueObservation
                .trackingConstantRegion { db in try Row.fetchAll(db, request) }
                .removeDuplicates()
                .map { rows in try rows.map(ShelfInfo.init(row:)) },
            Self.expectedAll, setup: Self.setup, updates: Self.updates)
    }

    /// The rows of an observation carry their prefetched rows, with the
    /// column that joins them to their parent.
    @Test func prefetchedRowsOfObservedRows() async throws {
        let writer = try DatabaseQueue()
        try await writer.write(Self.setup)
        let request = Self.request.asRequest(of: Row.self)
        let recorder = Recorder<[Row]>()
        let queue = DispatchQueue(label: "prefetchedRowsOfObservedRows")
        let cancellable = ValueObservation
            .trackingConstantRegion { try request.fetchAll($0) }
            .start(in: writer, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        try await TestThreads.start {
            try writer.writeWithoutTransaction(Self.updates)
            recorder.wait { $0.count >= 6 }
        }()
        let values = recorder.values
        try #require(values.count == 6)
        #expect(values[0].isEmpty)
        #expect(values[1].map(\.unscoped) == [["id": 1, "label": "left"], ["id": 2, "label": "right"]])
        #expect(values[1][0].prefetchedRows["books"] == [])
        #expect(values[2][0].prefetchedRows["books"] == [
            ["id": 1, "shelfId": 1, "title": "Emma", "grdb_shelfId": 1],
            ["id": 2, "shelfId": 1, "title": "Ivanhoe", "grdb_shelfId": 1]])
        #expect(values[3][0].prefetchedRows["books"] == [
            ["id": 1, "shelfId": 1, "title": "Emma (2nd ed.)", "grdb_shelfId": 1],
            ["id": 2, "shelfId": 1, "title": "Ivanhoe", "grdb_shelfId": 1]])
        #expect(values[5].map(\.unscoped) == [["id": 2, "label": "right"], ["id": 3, "label": "top"]])
        #expect(values[5][1].prefetchedRows["books"] == [])
        cancellable.cancel()
    }

    // MARK: - Regions of prefetching requests

    struct Crate: TableRecord { }
    struct Item: TableRecord { }
    struct Tray: TableRecord { }
    struct Part: TableRecord { }

    func makeRegionDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "crate") { t in
                t.autoIncrementedPrimaryKey("crateId")
                t.column("crateName", .text)
            }
            try db.create(table: "item") { t in
                t.autoIncrementedPrimaryKey("itemId")
                t.column("itemCrateId", .integer).references("crate")
                t.column("itemName", .text)
            }
            try db.create(table: "tray") { t in
                t.autoIncrementedPrimaryKey("trayId")
                t.column("trayCrateId", .integer).references("crate")
            }
            try db.create(table: "part") { t in
                t.autoIncrementedPrimaryKey("partId")
                t.column("partTrayId", .integer).references("tray")
                t.column("partName", .text)
            }
        }
        return dbQueue
    }

    @Test func regionsOfPrefetchingRequests() throws {
        let dbQueue = try makeRegionDatabase()
        func region(_ request: QueryInterfaceRequest<some Any>) throws -> String {
            try dbQueue.read { db in try request.databaseRegion(db).description }
        }
        do {
            #expect(try region(Crate.including(all: Crate.hasMany(Item.self)))
                == "crate(crateId,crateName),item(itemCrateId,itemId,itemName)")
            #expect(try region(Crate
                .filter(Column("crateId") != 3)
                .including(all: Crate.hasMany(Item.self).filter(Column("itemId") == 4).forKey("some"))
                .including(all: Crate.hasMany(Item.self).filter(Column("itemId") != 4).forKey("others")))
                == "crate(crateId,crateName),item(itemCrateId,itemId,itemName)")
            // The joining column is selected too.
            #expect(try region(Crate.including(all: Crate.hasMany(Item.self).select(Column("itemName"))))
                == "crate(crateId,crateName),item(itemCrateId,itemName)")
            #expect(try region(Crate.none().including(all: Crate.hasMany(Item.self))) == "empty")
            #expect(try region(Crate.including(all: Crate.hasMany(Item.self).none())) == "crate(crateId,crateName)")
            #expect(try region(Crate.including(all: Crate.hasMany(Tray.self).including(all: Tray.hasMany(Part.self))))
                == "crate(crateId,crateName),part(partId,partName,partTrayId),tray(trayCrateId,trayId)")
            #expect(try region(Crate.including(all: Crate.hasMany(Tray.self).including(all: Tray.hasMany(Part.self).none())))
                == "crate(crateId,crateName),tray(trayCrateId,trayId)")
            #expect(try region(Crate.including(all: Crate.hasMany(
                Part.self, through: Crate.hasMany(Tray.self), using: Tray.hasMany(Part.self))))
                == "crate(crateId,crateName),part(partId,partName,partTrayId),tray(trayCrateId,trayId)")
        }
    }

    /// An observation of a prefetching request records the tables of the
    /// prefetched rows from its first fetch, even without base rows.
    @Test func observedRegionOfAnEmptyPrefetchingRequest() async throws {
        let dbQueue = try makeRegionDatabase()
        let regions = Locked<[String]>([])
        let recorder = Recorder<Int>()
        let queue = DispatchQueue(label: "observedRegionOfAnEmptyPrefetchingRequest")
        let request = Crate.including(all: Crate.hasMany(Item.self)).asRequest(of: Row.self)
        let cancellable = ValueObservation
            .trackingConstantRegion { db in try request.fetchAll(db).count }
            .handleEvents(willTrackRegion: { region in regions.withLock { $0.append(region.description) } })
            .start(in: dbQueue, scheduling: .async(onQueue: queue), onError: recorder.receive(error:), onChange: recorder.receive)
        try await TestThreads.start {
            recorder.wait { $0.count >= 1 }
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO item (itemName) VALUES ('loose')") }
            recorder.wait { $0.count >= 2 }
        }()
        #expect(regions.withLock { $0 } == ["crate(crateId,crateName),item(itemCrateId,itemId,itemName)"])
        #expect(recorder.values == [0, 0])
        cancellable.cancel()
    }
}
