import Foundation
import Testing
import Cairn

/// Records decode their prefetched associations as GRDB decodes them:
/// into arrays and sets, under the association key (`forKey`), and into an
/// optional collection that is nil when the request does not prefetch it.
@Suite struct GRDBAssociationDecodingTests {
    struct Club: Codable, FetchableRecord, TableRecord, Hashable {
        static let trainers = hasMany(Trainer.self)
        var id: Int64
        var city: String
    }
    struct Trainer: Codable, FetchableRecord, TableRecord, Hashable {
        var id: Int64
        var clubId: Int64
        var name: String
    }

    func makeClubs() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE club (id INTEGER PRIMARY KEY, city TEXT NOT NULL);
                CREATE TABLE trainer (id INTEGER PRIMARY KEY, clubId INTEGER NOT NULL REFERENCES club, name TEXT NOT NULL);
                INSERT INTO club VALUES (1, 'Lyon'), (2, 'Nice');
                INSERT INTO trainer VALUES (7, 1, 'Ivo'), (8, 1, 'Jan');
                """)
        }
        return dbQueue
    }

    @Test func prefetchedRowsDecodeIntoArraysAndSets() throws {
        struct WithSet: Decodable, FetchableRecord {
            var club: Club
            var trainers: Set<Trainer>
        }
        struct Renamed: Decodable, FetchableRecord {
            var club: Club
            var staff: [Trainer]
        }
        let dbQueue = try makeClubs()
        try dbQueue.read { db in
            let sets = try Club.including(all: Club.trainers).orderByPrimaryKey().asRequest(of: WithSet.self).fetchAll(db)
            #expect(sets.map { Set($0.trainers.map(\.name)) } == [["Ivo", "Jan"], []])
            let renamed = try Club.including(all: Club.trainers.forKey("staff").orderByPrimaryKey())
                .orderByPrimaryKey().asRequest(of: Renamed.self).fetchAll(db)
            #expect(renamed.map { $0.staff.map(\.id) } == [[7, 8], []])
        }
    }

    @Test func optionalCollectionIsNilWithoutPrefetch() throws {
        struct MaybeTrainers: Decodable, FetchableRecord {
            var club: Club
            var trainers: [Trainer]?
        }
        let dbQueue = try makeClubs()
        try dbQueue.read { db in
            let prefetched = try Club.including(all: Club.trainers).orderByPrimaryKey()
                .asRequest(of: MaybeTrainers.self).fetchAll(db)
            #expect(prefetched.map { $0.trainers?.count } == [2, 0])
            let plain = try Club.orderByPrimaryKey().asRequest(of: MaybeTrainers.self).fetchAll(db)
            #expect(plain.map { $0.trainers?.count } == [nil, nil])
        }
    }
}
