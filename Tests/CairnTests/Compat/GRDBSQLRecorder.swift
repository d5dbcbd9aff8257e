import Foundation
import Testing
import Cairn

/// A database queue that records the statements it runs, with their
/// arguments written in the SQL (`expandedDescription`), the way the tests
/// of applications compare the SQL of their requests with expected text.
struct GRDBSQLRecorder {
    let dbQueue: DatabaseQueue
    private let statements = Locked<[String]>([])

    /// Opens an in-memory queue, and runs `schema` (not recorded).
    init(schema: String) throws {
        let statements = self.statements
        var config = Configuration()
        config.prepareDatabase { db throws in
            db.trace { event in statements.withLock { $0.append(event.expandedDescription) } }
        }
        dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db throws in try db.execute(sql: schema) }
        statements.withLock { $0.removeAll() }
    }

    /// The statements that `body` ran, schema queries included.
    func allSQL(_ body: (Database) throws -> Void) throws -> [String] {
        statements.withLock { $0.removeAll() }
        try dbQueue.inDatabase(body)
        return statements.withLock { $0 }
    }

    /// The statements that `body` ran, without the schema queries that
    /// Cairn runs to learn about tables (`PRAGMA`, `sqlite_master`).
    func sql(_ body: (Database) throws -> Void) throws -> [String] {
        try allSQL(body).filter {
            !$0.hasPrefix("PRAGMA") && !$0.contains("sqlite_master") && !$0.contains("sqlite_temp_master")
        }
    }

    /// The last statement that `body` ran.
    func lastSQL(_ body: (Database) throws -> Void) throws -> String? {
        try sql(body).last
    }

    /// The SQL of the statement that fetches the rows of `request`.
    func sql(of request: some FetchRequest) throws -> String? {
        try lastSQL { db in _ = try Row.fetchAll(db, request) }
    }
}

// Records of the table `player` of ``playerSchema``, that the SQL tests of
// upserts and RETURNING clauses share with the shared `Player`.

/// The table of the shared `Player`, with a unique name and a default score.
let playerSchema = """
    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, score INTEGER NOT NULL DEFAULT 500);
    """

/// A player that encodes two of the three columns of its table.
struct NamedPlayer: Codable, MutablePersistableRecord, FetchableRecord {
    static let databaseTableName = "player"
    var id: Int64?
    var name: String
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A player that selects two columns only.
struct PlayerSummary: Codable, Hashable, PersistableRecord, FetchableRecord {
    static let databaseTableName = "player"
    static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("name")] }
    var id: Int64
    var name: String
}
