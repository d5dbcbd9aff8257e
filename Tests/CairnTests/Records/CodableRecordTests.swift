import Foundation
import Testing
import Cairn

@Suite struct CodableRecordTests {
    struct Address: Codable, Equatable {
        var street: String
        var city: String
    }

    enum Kind: String, Codable {
        case regular, premium
    }

    struct Customer: Codable, Equatable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
        var address: Address          // JSON
        var tags: [String]            // JSON
        var optionalAddress: Address? // JSON or NULL
        var kind: Kind                // raw value
        var birthDate: Date?
        var uuid: UUID
        var data: Data
        var score: Double
    }

    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE customer (
                    id INTEGER PRIMARY KEY, name TEXT, address TEXT, tags TEXT, optionalAddress TEXT,
                    kind TEXT, birthDate TEXT, uuid BLOB, data BLOB, score REAL)
                """)
        }
    }

    func makeCustomer() -> Customer {
        Customer(
            id: 1, name: "Arthur",
            address: Address(street: "1 Main St", city: "Paris"),
            tags: ["a", "b"], optionalAddress: nil, kind: .premium,
            birthDate: Date(timeIntervalSince1970: 86_400.5),
            uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
            data: Data([1, 2, 3]), score: 1.5)
    }

    @Test func roundTrip() throws {
        let customer = makeCustomer()
        try dbQueue.write { db throws in
            try customer.insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM customer"))
            #expect(row["address"] as String == #"{"city":"Paris","street":"1 Main St"}"#)
            #expect(row["tags"] as String == #"["a","b"]"#)
            #expect(row["optionalAddress"] as DatabaseValue == .null)
            #expect(row["kind"] as String == "premium")
            #expect(row["birthDate"] as String == "1970-01-02 00:00:00.500")
            #expect((row["uuid"] as Data).count == 16)
            #expect(try Customer.fetchOne(db, key: 1) == customer)
            var updated = customer
            updated.optionalAddress = Address(street: "2 Side St", city: "Lyon")
            try updated.update(db)
            #expect(try Customer.fetchOne(db, key: 1) == updated)
            #expect(try updated.databaseChanges(from: customer).keys.sorted() == ["optionalAddress"])
        }
    }

    @Test func decodingFailuresNameTheColumn() throws {
        try dbQueue.write { db throws in
            try makeCustomer().insert(db)
            try db.execute(sql: "UPDATE customer SET kind = 'unknown'")
            #expect {
                try Customer.fetchOne(db, key: 1)
            } throws: { error in
                guard case .valueMismatch(_, let context) = error as? RowDecodingError else { return false }
                return context.columnName == "kind"
            }
            try db.execute(sql: "UPDATE customer SET kind = 'regular', address = 'not json'")
            #expect {
                try Customer.fetchAll(db)
            } throws: { error in
                guard case .valueMismatch(_, let context) = error as? RowDecodingError else { return false }
                return context.columnName == "address" && String(describing: error).contains("JSON")
            }
            try db.execute(sql: "UPDATE customer SET address = NULL")
            #expect {
                try Customer.fetchAll(db)
            } throws: { error in
                (error as? RowDecodingError)?.context.columnName == "address"
            }
            // A missing column is an error for non-optional properties.
            #expect {
                try Customer.fetchOne(db, sql: "SELECT id FROM customer")
            } throws: { error in
                guard case .keyNotFound(.columnName(let name), _) = error as? RowDecodingError else { return false }
                return name == "name"
            }
        }
    }

    struct PartialCustomer: Decodable, FetchableRecord, TableRecord {
        static let databaseTableName = "customer"
        var id: Int64
        var nickname: String?   // no such column: nil
        var optionalAddress: Address?
    }

    @Test func missingColumnsDecodeAsNilForOptionals() throws {
        try dbQueue.write { db throws in
            try makeCustomer().insert(db)
            let partial = try #require(try PartialCustomer.fetchOne(db))
            #expect(partial.id == 1)
            #expect(partial.nickname == nil)
            #expect(partial.optionalAddress == nil)
        }
    }

    struct OptionalItem: Decodable, FetchableRecord, Equatable {
        var a: Int?
        var b: String?
        var c: Double?
        var d: Int64?
    }

    /// Optional properties of standard types are nil for NULL and missing
    /// columns, from cursor rows and copied rows alike, and a value that
    /// does not convert is an error.
    @Test func optionalPropertiesOfStandardTypes() throws {
        try dbQueue.read { db throws in
            let sql = "SELECT 1 AS a, 'x' AS b, 1.5 AS c UNION ALL SELECT NULL, NULL, NULL UNION ALL SELECT 3, 'z', NULL"
            let expected = [
                OptionalItem(a: 1, b: "x", c: 1.5, d: nil), OptionalItem(a: nil, b: nil, c: nil, d: nil),
                OptionalItem(a: 3, b: "z", c: nil, d: nil),
            ]
            #expect(try OptionalItem.fetchAll(db, sql: sql) == expected)
            #expect(try Row.fetchAll(db, sql: sql).map(OptionalItem.init(row:)) == expected)
            #expect(throws: RowDecodingError.self) {
                try OptionalItem.fetchAll(db, sql: "SELECT 1 AS a UNION ALL SELECT 'not a number'")
            }
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'not a number' AS a"))
            #expect(throws: RowDecodingError.self) { try OptionalItem(row: row) }
        }
    }

    struct StrategyRecord: Codable, FetchableRecord, PersistableRecord, Equatable {
        static let databaseTableName = "strategy"
        static var databaseDateEncodingStrategy: DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
        static var databaseDateDecodingStrategy: DatabaseDateDecodingStrategy { .timeIntervalSince1970 }
        static var databaseUUIDEncodingStrategy: DatabaseUUIDEncodingStrategy { .lowercaseString }
        static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
        static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .convertFromSnakeCase }
        var recordID: Int64
        var creationDate: Date
        var externalID: UUID
    }

    @Test func strategies() throws {
        let record = StrategyRecord(
            recordID: 1, creationDate: Date(timeIntervalSince1970: 1000),
            externalID: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE strategy (record_id INTEGER PRIMARY KEY, creation_date, external_id)")
            try record.insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM strategy"))
            #expect(row["creation_date"] as Double == 1000)
            #expect(row["external_id"] as String == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
            #expect(try StrategyRecord.fetchOne(db) == record)
        }
    }

    struct Failing: FetchableRecord {
        struct Invalid: Error {}
        init(row: Row) throws { throw Invalid() }
    }

    @Test func recordWhoseInitThrows() throws {
        _ = try dbQueue.read { db throws in
            #expect(throws: Failing.Invalid.self) { try Failing.fetchAll(db, sql: "SELECT 1") }
        }
    }

    struct Note: Codable, FetchableRecord, PersistableRecord {
        var rowid: Int64?
        var content: String
    }

    struct Membership: Codable, FetchableRecord, PersistableRecord, Equatable {
        var userId: Int64
        var groupId: Int64
        var role: String
    }

    @Test func hiddenRowIDAndCompositeKeys() throws {
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE note (content TEXT);
                CREATE TABLE membership (userId INT, groupId INT, role TEXT, PRIMARY KEY (userId, groupId));
                """)
            try Note(rowid: nil, content: "a").insert(db)
            try Note(rowid: 5, content: "b").insert(db)
            let note = try #require(try Note.fetchOne(db, key: 5))
            #expect(note.content == "b")
            #expect(note.rowid == nil) // SELECT * does not select the hidden rowid
            #expect(try Row.fetchOne(db, Note.filter(key: 5))?["content"] == "b")
            try Note(rowid: 5, content: "c").update(db)
            #expect(try String.fetchOne(db, sql: "SELECT content FROM note WHERE rowid = 5") == "c")
            #expect(try Note.deleteOne(db, key: 1))

            let membership = Membership(userId: 1, groupId: 2, role: "admin")
            try membership.insert(db)
            #expect(try Membership.fetchOne(db, key: ["userId": 1, "groupId": 2]) == membership)
            #expect(try Membership.fetchOne(db, key: ["userId": 1, "groupId": 3]) == nil)
            var changed = membership
            changed.role = "member"
            try changed.update(db)
            #expect(try Membership.fetchOne(db, key: ["userId": 1, "groupId": 2])?.role == "member")
            #expect(try membership.exists(db))
            // A single value is not a key of a composite primary key.
            #expect(throws: RecordError.self) { try Membership.fetchOne(db, key: 1) }
            // Columns that are not a unique key are rejected.
            #expect(throws: RecordError.self) { try Membership.fetchOne(db, key: ["role": "member"]) }
            #expect(try Membership.deleteOne(db, key: ["userId": 1, "groupId": 2]))
        }
    }

    /// An Encodable record whose encoding skips a key when its value is
    /// nil: its columns vary from one insert to the next.
    struct SparseItem: Encodable, PersistableRecord {
        static let databaseTableName = "sparse"
        var a: Int
        var b: String?
        var c: Int

        enum CodingKeys: String, CodingKey { case a, b, c }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(a, forKey: .a)
            // A nil b is not encoded: the column takes its default.
            if let b { try container.encode(b, forKey: .b) }
            try container.encode(c, forKey: .c)
        }
    }

    @Test func encodableInsertsWhoseColumnsVary() throws {
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE sparse (a INT, b TEXT DEFAULT 'default', c INT)")
            try SparseItem(a: 1, b: "x", c: 10).insert(db)
            try SparseItem(a: 2, b: "y", c: 20).insert(db)
            try SparseItem(a: 3, b: nil, c: 30).insert(db)
            try SparseItem(a: 4, b: "z", c: 40).insert(db)
            #expect(try Row.fetchAll(db, sql: "SELECT a, b, c FROM sparse ORDER BY a") == [
                ["a": 1, "b": "x", "c": 10], ["a": 2, "b": "y", "c": 20],
                ["a": 3, "b": "default", "c": 30], ["a": 4, "b": "z", "c": 40]])
        }
    }

    /// The Encodable implementation of encode(to:) adds the columns of the
    /// record to what the container already holds.
    @Test func encodableEncodingKeepsTheValuesOfTheContainer() throws {
        let customer = Customer(
            id: 1, name: "Arthur", address: Address(street: "1 Main St", city: "Paris"), tags: [],
            optionalAddress: nil, kind: .regular, birthDate: nil, uuid: UUID(), data: Data(), score: 1)
        var container = PersistenceContainer()
        container["extra"] = 1
        container["name"] = "replaced"
        try customer.encode(to: &container)
        #expect(container.columns == [
            "extra", "name", "id", "address", "tags", "optionalAddress", "kind", "birthDate", "uuid", "data", "score"])
        let name: String? = container["name"]
        let extra: Int? = container["extra"]
        #expect(name == "Arthur")
        #expect(extra == 1)
    }

    struct CamelItem: Decodable, FetchableRecord {
        var firstValue: Int
        var secondValue: Int
    }

    /// The same coding keys as CamelItem, read from snake case columns.
    struct SnakeItem: Decodable, FetchableRecord {
        var firstValue: Int
        var secondValue: Int
        static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .convertFromSnakeCase }
    }

    struct OtherKeysItem: Decodable, FetchableRecord {
        var second_value: Int
    }

    /// Records decoded from the row of a cursor share the container of their
    /// decoder from one step to the next; records of other types, or with
    /// other strategies, decoded from the same row, get their own.
    @Test func recordsOfSeveralTypesFromOneCursorRow() throws {
        try dbQueue.read { db throws in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT 1 AS firstValue, 2 AS secondValue, 10 AS first_value, 20 AS second_value
                UNION ALL SELECT 3, 4, 30, 40
                """)
            var decoded: [[Int]] = []
            while let row = try rows.next() {
                let camel = try CamelItem(row: row)
                let snake = try SnakeItem(row: row)
                let other = try OtherKeysItem(row: row)
                let camelAgain = try CamelItem(row: row)
                decoded.append([camel.firstValue, camel.secondValue, snake.firstValue, snake.secondValue,
                                other.second_value, camelAgain.firstValue])
            }
            #expect(decoded == [[1, 2, 10, 20, 20, 1], [3, 4, 30, 40, 40, 3]])
        }
    }

    /// A record that reads other columns depending on a value.
    struct Shape: Decodable, FetchableRecord, Equatable {
        var kind: String
        var size: Int

        enum CodingKeys: String, CodingKey {
            case kind, width, radius
        }

        init(kind: String, size: Int) {
            self.kind = kind
            self.size = size
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            kind = try container.decode(String.self, forKey: .kind)
            size = try container.decode(Int.self, forKey: kind == "square" ? .width : .radius)
        }
    }

    /// Coding keys that are not plain values: looked up by name.
    struct NameKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A record whose coding keys are strings.
    struct NamedKeysShape: Decodable, FetchableRecord, Equatable {
        var width: Int
        var radius: Int

        init(width: Int, radius: Int) {
            self.width = width
            self.radius = radius
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: NameKey.self)
            width = try container.decode(Int.self, forKey: NameKey(stringValue: "width"))
            radius = try container.decode(Int.self, forKey: NameKey(stringValue: "radius"))
        }
    }

    /// Cursor rows remember the column of each key that a record type reads,
    /// in order: a record that reads other keys for some rows still reads
    /// the right columns.
    @Test func recordsThatReadOtherColumnsFromRowToRow() throws {
        let sql = """
            SELECT 'square' AS kind, 1 AS width, 10 AS radius
            UNION ALL SELECT 'circle', 2, 20
            UNION ALL SELECT 'circle', 3, 30
            UNION ALL SELECT 'square', 4, 40
            """
        let expected = [
            Shape(kind: "square", size: 1), Shape(kind: "circle", size: 20),
            Shape(kind: "circle", size: 30), Shape(kind: "square", size: 4),
        ]
        try dbQueue.read { db throws in
            #expect(try Shape.fetchAll(db, sql: sql) == expected)
            #expect(try Array(Shape.fetchCursor(db, sql: sql)) == expected)
            #expect(try NamedKeysShape.fetchAll(db, sql: sql) == [
                NamedKeysShape(width: 1, radius: 10), NamedKeysShape(width: 2, radius: 20),
                NamedKeysShape(width: 3, radius: 30), NamedKeysShape(width: 4, radius: 40),
            ])
            // A missing column is reported, at the first row and at later ones.
            #expect(throws: RowDecodingError.self) {
                try Shape.fetchAll(db, sql: "SELECT 'square' AS kind, 1 AS radius")
            }
            let cursor = try Shape.fetchCursor(db, sql: """
                SELECT 'square' AS kind, 1 AS width, NULL AS radius UNION ALL SELECT 'circle', 2, NULL
                """)
            #expect(try cursor.next() == Shape(kind: "square", size: 1))
            #expect(throws: RowDecodingError.self) { try cursor.next() }
        }
    }

    /// A record that decodes another record from its own decoder, and then
    /// goes on reading its own keys.
    struct Outer: Decodable, FetchableRecord {
        var first: Int
        var inner: CamelItem
        var last: Int

        enum CodingKeys: String, CodingKey {
            case first, last
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            first = try container.decode(Int.self, forKey: .first)
            inner = try CamelItem(from: decoder)
            last = try container.decode(Int.self, forKey: .last)
        }
    }

    /// The container of a record stays valid while the record decodes
    /// another record from the same row (each keeps its own cache entry).
    @Test func recordsThatDecodeOtherRecordsFromTheirRow() throws {
        try dbQueue.read { db throws in
            let records = try Outer.fetchAll(db, sql: """
                SELECT 1 AS first, 2 AS firstValue, 3 AS secondValue, 4 AS last
                UNION ALL SELECT 5, 6, 7, 8
                """)
            #expect(records.map { [$0.first, $0.inner.firstValue, $0.inner.secondValue, $0.last] } == [
                [1, 2, 3, 4], [5, 6, 7, 8],
            ])
        }
    }

    /// The container a cursor row caches does not retain the row: the row
    /// and its statement are freed after the cursor.
    @Test func cursorRowsAreFreedAfterDecoding() throws {
        weak var weakRow: Row?
        try dbQueue.read { db throws in
            try {
                let rows = try Row.fetchCursor(db, sql: "SELECT 1 AS firstValue, 2 AS secondValue")
                let row = try #require(try rows.next())
                weakRow = row
                #expect(try CamelItem(row: row).secondValue == 2)
            }()
            let records = try CamelItem.fetchAll(db, sql: "SELECT 1 AS firstValue, 2 AS secondValue")
            #expect(records.count == 1)
        }
        #expect(weakRow == nil)
    }

    struct NestedItem: Encodable, PersistableRecord {
        static let databaseTableName = "sparse"
        enum CodingKeys: String, CodingKey { case a, b }
        enum InnerKeys: String, CodingKey { case x }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(1, forKey: .a)
            var nested = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .b)
            try nested.encode(2, forKey: .x)
        }
    }

    struct UnkeyedItem: Encodable, PersistableRecord {
        static let databaseTableName = "sparse"
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(1)
        }
    }

    /// A record that encodes its columns through a super encoder.
    struct SuperItem: Encodable, PersistableRecord {
        static let databaseTableName = "sparse"
        enum CodingKeys: String, CodingKey { case a, c }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(5, forKey: .a)
            let superEncoder = container.superEncoder()
            var superContainer = superEncoder.container(keyedBy: CodingKeys.self)
            try superContainer.encode(50, forKey: .c)
        }
    }

    /// Encodings that do not fit a row throw a clear error, and insert
    /// nothing; a super encoder fills the same row.
    @Test func encodingErrors() throws {
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE sparse (a INT, b TEXT DEFAULT 'default', c INT)")
            do {
                try NestedItem().insert(db)
                Issue.record("expected an error")
            } catch let EncodingError.invalidValue(_, context) {
                #expect(context.debugDescription.contains("nested containers are not supported"))
                #expect(context.codingPath.map(\.stringValue) == ["b"])
            }
            do {
                try UnkeyedItem().insert(db)
                Issue.record("expected an error")
            } catch let EncodingError.invalidValue(_, context) {
                #expect(context.debugDescription.contains("unkeyed container"))
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sparse") == 0)

            try SuperItem().insert(db)
            #expect(try Row.fetchAll(db, sql: "SELECT a, b, c FROM sparse") == [["a": 5, "b": "default", "c": 50]])
        }
    }

    /// A record whose encoding may insert another record of the same type,
    /// or fail.
    struct NestingItem: Encodable, PersistableRecord {
        static let databaseTableName = "nesting"
        nonisolated(unsafe) static var database: Database?
        var a: Int
        var nests = false
        var fails = false
        enum CodingKeys: String, CodingKey { case a }
        enum InnerKeys: String, CodingKey { case x }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if fails {
                // Records an error, thrown after the encoding.
                _ = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .a)
            }
            if nests, let db = Self.database {
                try NestingItem(a: a * 10).insert(db)
            }
            try container.encode(a, forKey: .a)
        }
    }

    /// Inserts reuse the encoder of their record type, one encoding at a
    /// time: an insert during the encoding of another gets its own encoder,
    /// and a failed encoding leaves nothing behind for the next one.
    @Test func encodersServeOneEncodingAtATime() throws {
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE nesting (a INT)")
            NestingItem.database = db
            defer { NestingItem.database = nil }
            try NestingItem(a: 1).insert(db)
            try NestingItem(a: 2, nests: true).insert(db)
            #expect(throws: EncodingError.self) { try NestingItem(a: 3, fails: true).insert(db) }
            // The error of the outer encoding survives the inner one.
            #expect(throws: EncodingError.self) { try NestingItem(a: 4, nests: true, fails: true).insert(db) }
            try NestingItem(a: 5).insert(db)
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM nesting ORDER BY rowid") == [1, 20, 2, 40, 5])
        }
    }
}

/// Per-column encoding strategies of Date, UUID and Data, in persistence
/// and in key requests.
@Suite struct ColumnEncodingStrategyTests {
    private struct Document: Codable, Identifiable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "document"
        static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
            column == "id" ? .lowercaseString : .deferredToUUID
        }
        static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
            column == "body" ? .text : .deferredToData
        }
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
            column == "stamp" ? .timeIntervalSince1970 : .deferredToDate
        }
        var id: UUID
        var owner: UUID
        var body: Data
        var raw: Data
        var stamp: Date
    }

    @Test func strategiesPerColumn() throws {
        let dbQueue = try DatabaseQueue()
        let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let owner = UUID()
        try dbQueue.write { db throws -> Void in
            try db.execute(sql: "CREATE TABLE document(id TEXT PRIMARY KEY, owner BLOB, body, raw, stamp)")
            try Document(id: id, owner: owner, body: Data("hello".utf8), raw: Data([0x80]), stamp: Date(timeIntervalSince1970: 10)).insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT id, typeof(owner), body, typeof(raw), stamp FROM document"))
            #expect(row[0] as String == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
            #expect(row[1] as String == "blob")
            #expect(row[2] as String == "hello")
            #expect(row[3] as String == "blob")
            #expect(row[4] as Double == 10)

            // Key requests encode the key as the column does.
            #expect(try Document.filter(id: id).fetchCount(db) == 1)
            #expect(try Document.exists(db, id: id))
            #expect(try Document.deleteOne(db, id: id))
            #expect(try Document.fetchCount(db) == 0)
        }
    }

    @Test func nilKeysDoNotHitTheDatabase() throws {
        try DatabaseQueue().write { db throws -> Void in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)")
            var statements: [String] = []
            db.trace { statements.append($0.expandedDescription) }
            #expect(try !Table("t").deleteOne(db, key: nil as Int?))
            db.trace(options: [], nil)
            #expect(statements.isEmpty)
        }
    }

    /// Snake-cased columns, JSON coders chosen by coding key.
    private struct Profile: Codable, FetchableRecord, PersistableRecord {
        struct Address: Codable, Equatable { var streetName: String }
        static let databaseTableName = "profile"
        static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
        static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
        static func databaseJSONEncoder(for column: String) -> JSONEncoder {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            if column == "homeAddress" { encoder.keyEncodingStrategy = .convertToSnakeCase }
            return encoder
        }
        static func databaseJSONDecoder(for column: String) -> JSONDecoder {
            let decoder = JSONDecoder()
            if column == "homeAddress" { decoder.keyDecodingStrategy = .convertFromSnakeCase }
            return decoder
        }
        var id: Int64
        var homeAddress: Address
    }

    @Test func jsonCodersAreChosenByCodingKey() throws {
        // As in GRDB: the coders get "homeAddress", not "home_address".
        try DatabaseQueue().write { db throws -> Void in
            try db.execute(sql: "CREATE TABLE profile(id INTEGER PRIMARY KEY, home_address)")
            try Profile(id: 1, homeAddress: .init(streetName: "a/b")).insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT home_address FROM profile") == #"{"street_name":"a\/b"}"#)
            try db.execute(sql: #"UPDATE profile SET home_address = '{"street_name":"c"}'"#)
            #expect(try Profile.fetchOne(db)?.homeAddress == .init(streetName: "c"))
        }
    }
}
