import Foundation
import Testing
import Cairn

/// Swift lets a `Decodable` record keep its decoder or a container, and an
/// `Encodable` record keep its encoder: used after `init(from:)` or
/// `encode(to:)` returned, they keep working on copied values, or throw a
/// clear error. They never read freed memory (these tests also run under
/// AddressSanitizer in CI).
@Suite struct KeptCoderTests {
    /// The record of the report: it keeps its decoder.
    struct Keeper: Decodable, FetchableRecord {
        var id: Int
        var name: String
        let kept: any Decoder
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decode(Int.self, forKey: .id)
            name = try c.decode(String.self, forKey: .name)
            kept = decoder
        }
        enum CodingKeys: String, CodingKey { case id, name }
    }

    /// A record that keeps its keyed container, and not its decoder.
    struct ContainerKeeper: Decodable, FetchableRecord {
        var name: String
        let kept: KeyedDecodingContainer<CodingKeys>
        init(from decoder: any Decoder) throws {
            kept = try decoder.container(keyedBy: CodingKeys.self)
            name = try kept.decode(String.self, forKey: .name)
        }
        enum CodingKeys: String, CodingKey { case id, name, score }
    }

    /// A record that keeps a single value container.
    struct SingleValueKeeper: Decodable, FetchableRecord {
        var name: String
        let kept: any SingleValueDecodingContainer
        init(from decoder: any Decoder) throws {
            kept = try decoder.singleValueContainer()
            name = try kept.decode(String.self)
        }
    }

    /// A container kept by another record, for ``KeptContainerUser``.
    final class ContainerBox: @unchecked Sendable {
        var kept: KeyedDecodingContainer<ContainerKeeper.CodingKeys>?
    }

    /// A record whose `init(from:)` also tries the container that another
    /// record kept.
    struct KeptContainerUser: Decodable, FetchableRecord {
        static let box = ContainerBox()
        var name: String
        var keptResult: Result<String, any Error>
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: ContainerKeeper.CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            let kept = try #require(Self.box.kept)
            keptResult = Result { try kept.decode(String.self, forKey: .name) }
        }
    }

    func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE keeper (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT);
                INSERT INTO keeper VALUES (1, 'Arthur', 100), (2, 'Barbara', 200);
                """)
        }
        return dbQueue
    }

    /// Whether an error says that a decoder was used after its record.
    func isUsedAfterDecoding(_ error: any Error) -> Bool {
        guard case DecodingError.dataCorrupted(let context) = error else { return false }
        return context.debugDescription.contains("used after init(from:) returned")
    }

    @Test func decoderKeptFromCursorRowsThrows() throws {
        let dbQueue = try makeDatabase()
        let keepers = try dbQueue.read { db in try Keeper.fetchAll(db, sql: "SELECT * FROM keeper ORDER BY id") }
        #expect(keepers.map(\.name) == ["Arthur", "Barbara"])
        #expect(performing: {
            let c = try keepers[0].kept.container(keyedBy: Keeper.CodingKeys.self)
            _ = try c.decode(String.self, forKey: .name)
        }, throws: isUsedAfterDecoding)
        // The same from a cursor that is still alive, during the access.
        try dbQueue.read { db in
            let cursor = try Keeper.fetchCursor(db, sql: "SELECT * FROM keeper ORDER BY id")
            let first = try #require(try cursor.next())
            #expect(throws: DecodingError.self) {
                _ = try first.kept.container(keyedBy: Keeper.CodingKeys.self)
            }
            _ = try cursor.next()
        }
    }

    @Test func decoderKeptFromACopiedRowKeepsWorking() throws {
        let row: Row = ["id": 3, "name": "Craig"]
        let keeper = try Keeper(row: row)
        let c = try keeper.kept.container(keyedBy: Keeper.CodingKeys.self)
        #expect(try c.decode(String.self, forKey: .name) == "Craig")
        #expect(try c.decode(Int.self, forKey: .id) == 3)
    }

    @Test func containerKeptAfterTheCursorRowIsGoneThrows() throws {
        let dbQueue = try makeDatabase()
        // Cursor rows cache their containers: the kept container does not
        // retain the row, which is gone once fetchAll returns.
        let keepers = try dbQueue.read { db in
            try ContainerKeeper.fetchAll(db, sql: "SELECT * FROM keeper ORDER BY id")
        }
        #expect(keepers.map(\.name) == ["Arthur", "Barbara"])
        for keeper in keepers {
            #expect(performing: { try keeper.kept.decode(String.self, forKey: .name) }, throws: isUsedAfterDecoding)
            #expect(performing: { try keeper.kept.decode(Int?.self, forKey: .score) }, throws: isUsedAfterDecoding)
            #expect(performing: { try keeper.kept.decodeNil(forKey: .score) }, throws: isUsedAfterDecoding)
            #expect(performing: { try keeper.kept.superDecoder() }, throws: isUsedAfterDecoding)
            #expect(!keeper.kept.contains(.name))
            #expect(keeper.kept.allKeys.isEmpty)
        }
    }

    @Test func containerKeptWhileTheCursorRowLivesThrows() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM keeper ORDER BY id")
            let row = try #require(try rows.next())
            let first = try ContainerKeeper(row: row)
            #expect(first.name == "Arthur")
            // The row is alive, but it is not being decoded any longer.
            #expect(performing: { try first.kept.decode(String.self, forKey: .name) }, throws: isUsedAfterDecoding)
            let secondRow = try #require(try rows.next())
            let second = try ContainerKeeper(row: secondRow)
            #expect(second.name == "Barbara")
        }
    }

    /// Containers of cursor rows hold no reference: they find the row being
    /// decoded on their thread. A kept one does not read the row of
    /// another cursor that is being decoded.
    @Test func containerKeptFromACursorRowThrowsDuringTheDecodingOfAnotherRow() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let keepers = try ContainerKeeper.fetchCursor(db, sql: "SELECT * FROM keeper WHERE id = 1")
            let keeper = try #require(try keepers.next())
            KeptContainerUser.box.kept = keeper.kept
            defer { KeptContainerUser.box.kept = nil }
            let users = try KeptContainerUser.fetchAll(db, sql: "SELECT * FROM keeper WHERE id = 2")
            #expect(users.count == 1)
            #expect(users.first?.name == "Barbara")
            #expect(performing: { try users.first?.keptResult.get() }, throws: isUsedAfterDecoding)
        }
    }

    @Test func containerKeptFromACopiedRowKeepsWorking() throws {
        let row: Row = ["id": 3, "name": "Craig", "score": nil]
        let keeper = try ContainerKeeper(row: row)
        #expect(try keeper.kept.decode(String.self, forKey: .name) == "Craig")
        #expect(try keeper.kept.decodeNil(forKey: .score))
        #expect(keeper.kept.contains(.id))
    }

    /// Copied rows are Sendable: several threads decode one at once (the
    /// thread sanitizer lane of CI checks that they do not race), and a
    /// container kept from it retains it: it keeps working when the other
    /// references to the row are gone.
    @Test func copiedRowDecodedByManyThreadsAtOnce() async throws {
        var keeper: ContainerKeeper?
        do {
            let row: Row = ["id": 1, "name": "Arthur", "score": 10]
            let names = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try (0..<50).map { _ in try ContainerKeeper(row: row).name }
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(names.count == 400)
            #expect(names.allSatisfy { $0 == "Arthur" })
            keeper = try ContainerKeeper(row: row)
            // The row is alive: the kept container keeps working.
            #expect(try keeper?.kept.decode(Int.self, forKey: .score) == 10)
        }
        // The container holds the last reference to the row.
        let kept = try #require(keeper).kept
        #expect(try kept.decode(Int.self, forKey: .score) == 10)
        #expect(try kept.decode(String.self, forKey: .name) == "Arthur")
    }

    @Test func singleValueContainerKeptFromCursorRowsThrows() throws {
        let dbQueue = try makeDatabase()
        let keepers = try dbQueue.read { db in
            try SingleValueKeeper.fetchAll(db, sql: "SELECT name FROM keeper ORDER BY id")
        }
        #expect(keepers.map(\.name) == ["Arthur", "Barbara"])
        #expect(performing: { try keepers[0].kept.decode(String.self) }, throws: isUsedAfterDecoding)
        #expect(!keepers[0].kept.decodeNil())
        // From a copied row, the container keeps working.
        let copied = try SingleValueKeeper(row: ["name": "Craig"])
        #expect(try copied.kept.decode(String.self) == "Craig")
    }

    // MARK: Encoders

    /// Keeps the encoder and the keyed container of its last encoding.
    final class EncoderBox: @unchecked Sendable {
        var encoder: (any Encoder)?
        var container: KeyedEncodingContainer<EncodingKeeper.CodingKeys>?
        var keptError: (any Error)?
    }

    struct EncodingKeeper: Encodable, PersistableRecord {
        static let databaseTableName = "keeper"
        var id: Int
        var name: String
        let box: EncoderBox
        enum CodingKeys: String, CodingKey { case id, name }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(name, forKey: .name)
            box.encoder = encoder
            box.container = c
        }
    }

    func isUsedAfterEncoding(_ error: any Error) -> Bool {
        guard case EncodingError.invalidValue(_, let context) = error else { return false }
        return context.debugDescription.contains("used after encode(to:) returned")
    }

    @Test func encoderKeptAfterAnInsertThrows() throws {
        let dbQueue = try makeDatabase()
        let box = EncoderBox()
        try dbQueue.write { db throws in
            try EncodingKeeper(id: 3, name: "Craig", box: box).insert(db)
            // Inserts reuse the encoder of their record type.
            try EncodingKeeper(id: 4, name: "David", box: box).insert(db)
        }
        var container = try #require(box.container)
        #expect(performing: { try container.encode("Eve", forKey: .name) }, throws: isUsedAfterEncoding)
        var fromEncoder = try #require(box.encoder).container(keyedBy: EncodingKeeper.CodingKeys.self)
        #expect(performing: { try fromEncoder.encode(5, forKey: .id) }, throws: isUsedAfterEncoding)
        #expect(performing: { try fromEncoder.encodeNil(forKey: .name) }, throws: isUsedAfterEncoding)
        let names = try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT name FROM keeper ORDER BY id") }
        #expect(names == ["Arthur", "Barbara", "Craig", "David"])
    }

    /// A record whose `encode(to:)` also tries the container that another
    /// record kept.
    struct KeptEncoderUser: Encodable, PersistableRecord {
        static let databaseTableName = "keeper"
        var id: Int
        var name: String
        let box: EncoderBox
        enum CodingKeys: String, CodingKey { case id, name }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(name, forKey: .name)
            var kept = try #require(box.container)
            do {
                try kept.encode("Eve", forKey: .name)
                box.keptError = nil
            } catch {
                box.keptError = error
            }
        }
    }

    /// Encoding containers hold no reference: they find the encoder that
    /// encodes on their thread. A kept one does not write into another
    /// encoding.
    @Test func encoderKeptThrowsDuringAnotherEncoding() throws {
        let dbQueue = try makeDatabase()
        let box = EncoderBox()
        try dbQueue.write { db throws in
            try EncodingKeeper(id: 3, name: "Craig", box: box).insert(db)
            try KeptEncoderUser(id: 4, name: "David", box: box).insert(db)
        }
        let error = try #require(box.keptError)
        #expect(isUsedAfterEncoding(error))
        let names = try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT name FROM keeper ORDER BY id") }
        #expect(names == ["Arthur", "Barbara", "Craig", "David"])
    }

    @Test func encoderKeptAfterTheDatabaseIsGoneThrows() throws {
        let box = EncoderBox()
        do {
            let dbQueue = try makeDatabase()
            try dbQueue.write { db throws in
                try EncodingKeeper(id: 3, name: "Craig", box: box).insert(db)
            }
        }
        // The connection, its insert cache, and the reusable encoder are
        // gone: the kept container reaches nothing.
        var container = try #require(box.container)
        #expect(performing: { try container.encode("Eve", forKey: .name) }, throws: isUsedAfterEncoding)
    }

    @Test func encoderKeptAfterADictionaryEncodingThrows() throws {
        let box = EncoderBox()
        let record = EncodingKeeper(id: 7, name: "Gus", box: box)
        #expect(try record.databaseDictionary == ["id": 7.databaseValue, "name": "Gus".databaseValue])
        var container = try #require(box.container)
        #expect(performing: { try container.encode("Eve", forKey: .name) }, throws: isUsedAfterEncoding)
        // A new encoding is not disturbed by the kept container.
        #expect(try record.databaseDictionary["name"] == "Gus".databaseValue)
    }
}
