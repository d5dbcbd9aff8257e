import Foundation
import Testing
import Cairn

private let sourceKey = CodingUserInfoKey(rawValue: "source")!

/// What the encoders and decoders of Codable records tell the record: their
/// `userInfo`, the coding path of nested values; and records that encode
/// another record as a single value.
@Suite struct CodableContextTests {
    /// A value whose encoding and decoding depend on the user info of the
    /// coder: the names swap unless the source is "database".
    struct Name: Codable {
        var first: String
        var last: String

        enum CodingKeys: String, CodingKey { case first, last }

        init(first: String, last: String) {
            self.first = first
            self.last = last
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let swapped = decoder.userInfo[sourceKey] as? String != "database"
            first = try container.decode(String.self, forKey: swapped ? .last : .first)
            last = try container.decode(String.self, forKey: swapped ? .first : .last)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            let swapped = encoder.userInfo[sourceKey] as? String != "database"
            try container.encode(first, forKey: swapped ? .last : .first)
            try container.encode(last, forKey: swapped ? .first : .last)
        }
    }

    /// The user info is declared as the guides show it, with `Any` values.
    struct Person: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "person"
        static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [sourceKey: "database"] }
        static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [sourceKey: "database"] }
        var name: Name
        var source: String?

        enum CodingKeys: String, CodingKey { case name, source }

        init(name: Name) {
            self.name = name
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(Name.self, forKey: .name)
            source = decoder.userInfo[sourceKey] as? String
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(encoder.userInfo[sourceKey] as? String, forKey: .source)
        }
    }

    @Test func userInfoReachesRecordsAndTheirJSONValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE person (name TEXT, source TEXT)")
            try Person(name: Name(first: "Bob", last: "Dylan")).insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM person"))
            #expect(row["source"] == "database")
            // The JSON encoder of the nested value has the user info too.
            #expect(row["name"] == #"{"first":"Bob","last":"Dylan"}"#)
            let person = try #require(try Person.fetchOne(db))
            #expect(person.source == "database")
            #expect(person.name.first == "Bob")
            #expect(person.name.last == "Dylan")
        }
    }

    /// A value stored as a single value, which reports its coder's context.
    struct Tag: Encodable {
        var name: String

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            let key = encoder.codingPath.last?.stringValue ?? "nil"
            let source = encoder.userInfo[sourceKey] as? String ?? "nil"
            try container.encode("\(name),key:\(key),source:\(source)")
        }
    }

    struct Tagged: Encodable, PersistableRecord {
        static let databaseTableName = "tagged"
        static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [sourceKey: "database"] }
        var tag: Tag
    }

    @Test func singleValuePropertiesHaveTheirKeyAndUserInfo() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE tagged (tag TEXT)")
            try Tagged(tag: Tag(name: "swift")).insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT tag FROM tagged") == "swift,key:tag,source:database")
        }
    }

    struct Model: Encodable {
        var value: String
    }

    /// A generic wrapper that encodes its model as a single value, and a
    /// property of its own.
    struct Wrapper<Wrapped: Encodable>: Encodable, PersistableRecord {
        static var databaseTableName: String { "wrapper" }
        var model: Wrapped
        var extra: String

        enum CodingKeys: String, CodingKey { case extra }

        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            try single.encode(model)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(extra, forKey: .extra)
        }
    }

    @Test func recordsEncodedAsASingleRecordValue() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE wrapper (value TEXT, extra TEXT)")
            try Wrapper(model: Model(value: "foo"), extra: "bar").insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT value, extra FROM wrapper"))
            #expect(row["value"] == "foo")
            #expect(row["extra"] == "bar")

            // A database value has no column: the record does not encode,
            // and nothing is written.
            #expect(throws: EncodingError.self) {
                try Wrapper(model: "foo", extra: "bar").insert(db)
            }
            #expect(throws: EncodingError.self) {
                try Wrapper(model: Date(), extra: "bar").insert(db)
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM wrapper") == 1)
        }
    }
}

extension CodableContextTests {
    /// A record whose own columns differ from its encoded properties.
    struct Columns: Encodable, EncodableRecord {
        var value: String

        func encode(to container: inout PersistenceContainer) throws {
            container["value"] = value.uppercased()
            container["extra"] = "from the record"
        }
    }

    @Test func aRecordEncodedAsASingleValueEncodesItsColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE wrapper (value TEXT, extra TEXT)")
            // The wrapper's own property is encoded after the record's.
            try Wrapper(model: Columns(value: "foo"), extra: "bar").insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT value, extra FROM wrapper"))
            #expect(row["value"] == "FOO")
            #expect(row["extra"] == "bar")
        }
    }
}
