import Foundation
import Cairn

// Records that several test files share.

/// A player, Codable, with an auto-incremented id.
struct Player: Codable, Equatable, Hashable, Identifiable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    var score: Int?

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// A record with hand-written conversions.
struct Country: FetchableRecord, PersistableRecord, Equatable {
    var isoCode: String
    var name: String

    init(isoCode: String, name: String) {
        self.isoCode = isoCode
        self.name = name
    }

    init(row: Row) throws {
        isoCode = try row.decode(forColumn: "isoCode")
        name = row["name"]
    }

    func encode(to container: inout PersistenceContainer) {
        container["isoCode"] = isoCode
        container["name"] = name
    }
}
