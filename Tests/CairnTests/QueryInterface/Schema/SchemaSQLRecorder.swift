import Foundation
import Cairn

/// An in-memory database queue that records the schema statements it runs.
struct SchemaSQLRecorder {
    let dbQueue: DatabaseQueue
    private let statements = Locked<[String]>([])

    init(configuration: Configuration = Configuration()) throws {
        let statements = self.statements
        var config = configuration
        config.prepareDatabase { db throws in
            db.trace { event in statements.withLock { $0.append(event.description) } }
        }
        dbQueue = try DatabaseQueue(configuration: config)
    }

    /// The CREATE, ALTER, DROP and REINDEX statements run by `body`.
    func sql(_ body: (Database) throws -> Void) throws -> [String] {
        statements.withLock { $0.removeAll() }
        try dbQueue.inDatabase(body)
        return statements.withLock { $0 }.filter {
            $0.hasPrefix("CREATE") || $0.hasPrefix("ALTER") || $0.hasPrefix("DROP") || $0.hasPrefix("REINDEX")
        }
    }
}
