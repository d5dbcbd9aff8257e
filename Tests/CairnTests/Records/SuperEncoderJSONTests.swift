import Foundation
import Testing
import Cairn

/// What a record encodes through `superEncoder(forKey:)` is stored as JSON
/// in the column of the key, as GRDB stores it, with the record's JSON
/// encoder (sorted keys, its date strategy).
@Suite struct SuperEncoderJSONTests {
    struct Parcel: Encodable, PersistableRecord {
        struct Label: Encodable {
            var weight: Int
            var destination: String
            var sentAt: Date
            var tags: [String]
        }

        var label: Label
        var code: Int64

        enum CodingKeys: String, CodingKey { case code, label }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(code, forKey: .code)
            try label.encode(to: container.superEncoder(forKey: .label))
        }
    }

    /// Encodes by hand, with nested containers inside the super encoder.
    struct Crate: Encodable, PersistableRecord {
        var id: Int64

        enum CodingKeys: String, CodingKey { case id, extra }
        enum ExtraKeys: String, CodingKey { case size, parts, empty }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            let extra = container.superEncoder(forKey: .extra)
            var extraContainer = extra.container(keyedBy: ExtraKeys.self)
            try extraContainer.encode(3, forKey: .size)
            var parts = extraContainer.nestedUnkeyedContainer(forKey: .parts)
            try parts.encode("lid")
            try parts.encodeNil()
            var nested = parts.nestedContainer(keyedBy: ExtraKeys.self)
            try nested.encode(true, forKey: .empty)
        }
    }

    @Test func superEncoderOfAKeyStoresJSON() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE parcel (label TEXT, code INTEGER)")
            let label = Parcel.Label(
                weight: 2, destination: "Lyon", sentAt: Date(timeIntervalSince1970: 1), tags: ["fragile"])
            try Parcel(label: label, code: 7).insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT label, code FROM parcel"))
            #expect(row["code"] as Int64 == 7)
            #expect(row["label"] as String
                == #"{"destination":"Lyon","sentAt":1000,"tags":["fragile"],"weight":2}"#)
        }
    }

    @Test func nestedContainersOfTheSuperEncoder() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE crate (id INTEGER PRIMARY KEY, extra TEXT)")
            try Crate(id: 1).insert(db)
            let extra = try String.fetchOne(db, sql: "SELECT extra FROM crate")
            #expect(extra == #"{"parts":["lid",null,{"empty":true}],"size":3}"#)
        }
    }
}
