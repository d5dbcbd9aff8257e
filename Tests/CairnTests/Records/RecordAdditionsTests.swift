import Foundation
import Testing
import Cairn

/// A record whose columns store dates and data in different formats: the
/// strategies are asked column by column.
private struct Event: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "event"
    var id: Int64
    var start: Date
    var end: Date?
    var payload: Data
    var raw: Data?

    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        column == "start" ? .secondsSince1970 : .deferredToDate
    }

    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        column == "start" ? .timeIntervalSince1970 : .deferredToDate
    }

    static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
        column == "payload" ? .custom { $0.base64EncodedString() } : .deferredToData
    }

    static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
        column == "payload"
            ? .custom { String.fromDatabaseValue($0).flatMap { Data(base64Encoded: $0) } }
            : .deferredToData
    }
}

/// A record that stores its data as UTF-8 text.
private struct TextData: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "textData"
    var data: Data

    static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy { .text }
}

/// Records the columns the strategies were asked for.
private struct AskedColumns: Decodable, FetchableRecord {
    nonisolated(unsafe) static var dateColumns: [String] = []
    nonisolated(unsafe) static var dataColumns: [String] = []
    static let lock = NSLock()
    var createdAt: Date
    var updatedAt: Date
    var blob: Data

    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .convertFromSnakeCase }

    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        lock.withLock { dateColumns.append(column) }
        return .deferredToDate
    }

    static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
        lock.withLock { dataColumns.append(column) }
        return .deferredToData
    }
}

/// The Decodable decoding, called from a custom init(row:).
private struct Normalized: Decodable, FetchableRecord, Equatable {
    var name: String
    var score: Int

    init(name: String, score: Int) {
        self.name = name
        self.score = score
    }

    init(row: Row) throws {
        let decoded = try FetchableRecordDecoder().decode(Normalized.self, from: row)
        self.init(name: decoded.name.uppercased(), score: decoded.score)
    }
}

/// A record that counts its non-mutating insertion callbacks.
private final class InsertLog: @unchecked Sendable {
    var events: [String] = []
}

private struct Tag: PersistableRecord {
    static let databaseTableName = "tag"
    let name: String
    let log: InsertLog

    func encode(to container: inout PersistenceContainer) {
        container["name"] = name
    }

    func willInsert(_ db: Database) throws {
        guard !name.isEmpty else { throw DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: "empty tag") }
        log.events.append("willInsert \(name)")
    }

    func didInsert(_ inserted: InsertionSuccess) {
        log.events.append("didInsert \(inserted.rowID)")
    }
}

private final class Note: Record {
    var id: Int64?
    var text: String

    init(id: Int64?, text: String) {
        self.id = id
        self.text = text
        super.init()
    }

    required init(row: Row) throws {
        id = row["id"]
        text = row["text"]
        try super.init(row: row)
    }

    override class var databaseTableName: String { "note" }

    override func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["text"] = text
    }

    override func didInsert(_ inserted: InsertionSuccess) {
        super.didInsert(inserted)
        id = inserted.rowID
    }
}

/// Decoding strategies by column, the record decoder, and persistence
/// methods of GRDB's API.
@Suite struct RecordAdditionsTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE event (id INTEGER PRIMARY KEY, start, "end", payload, raw);
                CREATE TABLE tag (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT);
                """)
        }
    }

    @Test func strategiesApplyColumnByColumn() throws {
        let event = Event(
            id: 1,
            start: Date(timeIntervalSince1970: 1000.75),
            end: Date(timeIntervalSince1970: 2000),
            payload: Data([1, 2, 3]),
            raw: Data([4]))
        try dbQueue.write { db throws in
            try event.insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM event"))
            #expect(row["start"] as DatabaseValue == 1000.databaseValue)   // whole seconds, an integer
            #expect(row["end"] as String == "1970-01-01 00:33:20.000")
            #expect(row["payload"] as String == Data([1, 2, 3]).base64EncodedString())
            #expect(row["raw"] as Data == Data([4]))
            let fetched = try #require(try Event.fetchOne(db))
            #expect(fetched.start == Date(timeIntervalSince1970: 1000))
            #expect(fetched.end == event.end)
            #expect(fetched.payload == event.payload)
            #expect(fetched.raw == event.raw)
            // A payload that the custom strategy rejects.
            try db.execute(sql: "UPDATE event SET payload = '%%%'")
            #expect(throws: RowDecodingError.self) { try Event.fetchOne(db) }
        }
    }

    @Test func strategiesAreAskedForEachColumn() throws {
        try dbQueue.read { db throws in
            AskedColumns.lock.withLock {
                AskedColumns.dateColumns = []
                AskedColumns.dataColumns = []
            }
            let records = try AskedColumns.fetchAll(db, sql: """
                SELECT '2020-01-01' AS created_at, '2021-01-01' AS updated_at, x'00' AS blob
                UNION ALL SELECT '2022-01-01', '2023-01-01', x'01'
                """)
            #expect(records.count == 2)
            AskedColumns.lock.withLock {
                #expect(AskedColumns.dateColumns == ["created_at", "updated_at", "created_at", "updated_at"])
                #expect(AskedColumns.dataColumns == ["blob", "blob"])
            }
        }
    }

    @Test func otherDateStrategies() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "dd/MM/yyyy HH:mm"
        let date = Date(timeIntervalSince1970: 86400 * 365)
        #expect(DatabaseDateEncodingStrategy.formatted(formatter).encodeForTest(date) == "01/01/1971 00:00".databaseValue)
        #expect(DatabaseDateEncodingStrategy.secondsSince1970.encodeForTest(Date(timeIntervalSince1970: -0.5)) == (-1).databaseValue)
        #expect(DatabaseDateEncodingStrategy.secondsSince1970.encodeForTest(Date(timeIntervalSince1970: 1.9)) == 1.databaseValue)
        // Milliseconds are rounded down, before and after 1970.
        #expect(DatabaseDateEncodingStrategy.millisecondsSince1970.encodeForTest(Date(timeIntervalSince1970: 1.9876)) == 1987.databaseValue)
        #expect(DatabaseDateEncodingStrategy.millisecondsSince1970.encodeForTest(Date(timeIntervalSince1970: -0.0005)) == (-1).databaseValue)
        // Dates too far for an integer do not crash.
        #expect(DatabaseDateEncodingStrategy.millisecondsSince1970.encodeForTest(Date(timeIntervalSince1970: 1e300)).storage
            == .double(1e303))
        #expect(DatabaseDateEncodingStrategy.secondsSince1970.encodeForTest(Date(timeIntervalSince1970: 1e300)).storage
            == .double(1e300))
        try dbQueue.read { db throws in
            let decoded = try #require(try FormattedDate.fetchOne(db, sql: "SELECT '01/01/1971 00:00' AS date"))
            #expect(decoded.date == date)
            #expect(throws: RowDecodingError.self) {
                _ = try FormattedDate.fetchOne(db, sql: "SELECT '1971-01-01' AS date")
            }
        }
    }

    @Test func dataThatIsNotUTF8IsNotStoredAsText() throws {
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE textData (data PRIMARY KEY)")
            try TextData(data: Data("héllo".utf8)).insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT data FROM textData") == "héllo")
            // Invalid UTF-8 throws, names the property, and writes nothing.
            let error = try #require(throws: EncodingError.self) {
                try TextData(data: Data([0x00, 0x01, 0xFF])).insert(db)
            }
            guard case .invalidValue(_, let context) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(context.codingPath.map(\.stringValue) == ["data"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM textData") == 1)
            // A primary key is encoded as the column is: as text, and a key
            // of invalid UTF-8 matches no row instead of throwing.
            #expect(try TextData.filter(key: Data("héllo".utf8)).fetchCount(db) == 1)
            #expect(try TextData.filter(key: Data([0xFF])).fetchCount(db) == 0)
        }
    }

    @Test func fetchableRecordDecoder() throws {
        try dbQueue.read { db throws in
            let record = try #require(try Normalized.fetchOne(db, sql: "SELECT 'arthur' AS name, 10 AS score"))
            #expect(record == Normalized(name: "ARTHUR", score: 10))
            let row: Row = ["name": "b", "score": 2]
            #expect(try FetchableRecordDecoder().decode(Normalized.self, from: row) == Normalized(name: "b", score: 2))
            #expect(throws: RowDecodingError.self) {
                try FetchableRecordDecoder().decode(Normalized.self, from: ["name": "b"])
            }
        }
    }

    @Test func nonMutatingInsertCallbacks() throws {
        let log = InsertLog()
        try dbQueue.write { db throws in
            try Tag(name: "swift", log: log).insert(db)
            #expect(log.events == ["willInsert swift", "didInsert 1"])
            #expect(throws: DatabaseError.self) { try Tag(name: "", log: log).insert(db) }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tag") == 1)
            try Tag(name: "sqlite", log: log).save(db)
            #expect(log.events.suffix(2) == ["willInsert sqlite", "didInsert 2"])
        }
    }

    @Test func updateWithConflictResolution() throws {
        try dbQueue.write { db throws in
            var player = Player(id: nil, name: "Arthur", score: 10)
            try db.execute(sql: createPlayerTableSQL)
            try player.insert(db)
            player.score = 20
            try player.update(db)
            try player.update(db, onConflict: .replace)
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player") == 20)
            let missing = Player(id: 42, name: "Nobody", score: nil)
            #expect(throws: RecordError.self) { try missing.update(db) }
        }
    }

    @Test func recordUpdateChanges() throws {
        try dbQueue.write { db throws in
            let note = Note(id: nil, text: "draft")
            try note.insert(db)
            #expect(try note.updateChanges(db) == false)
            note.text = "final"
            #expect(try note.updateChanges(db) == true)
            #expect(try String.fetchOne(db, sql: "SELECT text FROM note") == "final")
            #expect(try note.updateChanges(db) == false)
        }
    }

    @Test func sendableMetatypes() {
        func acceptsMetatype<T: GRDBSendableMetatype>(_ type: T.Type) -> String { "\(type)" }
        #expect(acceptsMetatype(Int.self) == "Int")
    }
}

private struct FormattedDate: Decodable, FetchableRecord {
    var date: Date
    static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "dd/MM/yyyy HH:mm"
        return formatter
    }()
    static var databaseDateDecodingStrategy: DatabaseDateDecodingStrategy { .formatted(formatter) }
}

/// The database value a strategy gives, through a record.
private struct DateHolder: Encodable, EncodableRecord {
    nonisolated(unsafe) static var strategy = DatabaseDateEncodingStrategy.deferredToDate
    var date: Date
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { strategy }
}

private let dateHolderLock = NSLock()

extension DatabaseDateEncodingStrategy {
    fileprivate func encodeForTest(_ date: Date) -> DatabaseValue {
        dateHolderLock.withLock {
            DateHolder.strategy = self
            var container = PersistenceContainer()
            try? DateHolder(date: date).encode(to: &container)
            return container.first { $0.0 == "date" }?.1 ?? .null
        }
    }
}
