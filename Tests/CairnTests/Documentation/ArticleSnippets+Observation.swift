import Foundation
import Cairn
import Observation

// The Swift code of Sources/Cairn/Documentation.docc/Observation.md, block by
// block, so that it compiles and runs in the tests (ArticleTests checks that
// each block of the article is here, line after line, between its markers).
// Lines that are not in the article only wrap the blocks: a namespace for
// its types, observer classes around the observer methods that the article
// shows alone, functions for its statements, and what the tests read (the
// changes that the observers saw).
enum ObservationArticle {
    /// The player of the article (a table `player (id, name, score)`).
    struct Player: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
        var score: Int
    }
}

// Observation.md block 0
extension ObservationArticle {
    final class ScoreObserver: TransactionObserver {
        private var changedIDs: Set<Int64> = []
        /// The ids of the changed players, at each commit.
        var committedIDs: [Set<Int64>] = []

        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
            switch eventKind {
            case .insert(let tableName), .delete(let tableName):
                return tableName == "player"
            case .update(let tableName, let columnNames):
                return tableName == "player" && columnNames.contains("score")
            }
        }

        func databaseDidChange(with event: DatabaseEvent) {
            changedIDs.insert(event.rowID)
        }

        func databaseDidCommit(_ db: Database) {
            print("Changed players: \(changedIDs)")
            committedIDs.append(changedIDs)
            changedIDs = []
        }

        func databaseDidRollback(_ db: Database) {
            changedIDs = []
        }
    }

    static func block0(_ dbQueue: DatabaseQueue) -> ScoreObserver {
        let observer = ScoreObserver()
        dbQueue.add(transactionObserver: observer)
        return observer
    }
}
// end of Observation.md block 0

// Observation.md block 1
extension ObservationArticle {
    final class EventKeeper: TransactionObserver {
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }

        var events: [DatabaseEvent] = []

        func databaseDidChange(with event: DatabaseEvent) {
            events.append(event.copy())
        }

        func databaseDidCommit(_ db: Database) { }
        func databaseDidRollback(_ db: Database) { }
    }
}
// end of Observation.md block 1

// Observation.md block 2
extension ObservationArticle {
    final class ScoreChangeObserver: TransactionObserver {
        /// The scores before and after each update of a player.
        var scoreChanges: [(old: DatabaseValue?, new: DatabaseValue?)] = []

        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) { }
        func databaseDidCommit(_ db: Database) { }
        func databaseDidRollback(_ db: Database) { }

        func databaseWillChange(with event: DatabasePreUpdateEvent) {
            guard event.tableName == "player", event.kind == .update else { return }
            // Values by column index, in the order of the table's columns.
            let oldScore = event.initialDatabaseValue(atIndex: 2)
            let newScore = event.finalDatabaseValue(atIndex: 2)
            print("score: \(String(describing: oldScore)) -> \(String(describing: newScore))")
            scoreChanges.append((oldScore, newScore))
        }
    }
}
// end of Observation.md block 2

// Observation.md block 3
extension ObservationArticle {
    struct NegativeScoreError: Error { }

    final class ScoreValidator: TransactionObserver {
        private var sawNegativeScore = false

        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
            eventKind.tableName == "player"
        }

        func databaseDidChange(with event: DatabaseEvent) { }

        func databaseWillChange(with event: DatabasePreUpdateEvent) {
            if let score = event.finalDatabaseValue(atIndex: 2).flatMap(Int.fromDatabaseValue), score < 0 {
                sawNegativeScore = true
            }
        }

        func databaseWillCommit() throws {
            if sawNegativeScore { throw NegativeScoreError() }
        }

        func databaseDidCommit(_ db: Database) { sawNegativeScore = false }
        func databaseDidRollback(_ db: Database) { sawNegativeScore = false }
    }
}
// end of Observation.md block 3

// Observation.md block 4
extension ObservationArticle {
    static func block4(_ dbQueue: DatabaseQueue) -> AnyDatabaseCancellable {
        let observation = DatabaseRegionObservation(tracking: Table("player"))
        let cancellable = observation.start(
            in: dbQueue,
            onError: { error in print(error) },
            onChange: { db in print("Players changed") })
        return cancellable
    }
}
// end of Observation.md block 4

// Observation.md block 5
extension ObservationArticle {
    static func block5(_ dbQueue: DatabaseQueue) -> AnyDatabaseCancellable {
        let observation = ValueObservation.tracking { db in
            try Player.order(Column("score").desc).limit(10).fetchAll(db)
        }

        // With callbacks: the observation runs until the cancellable is cancelled
        // or deallocated. Off the main actor, name the scheduler.
        let cancellable = observation.start(
            in: dbQueue,
            scheduling: .async(onQueue: .main),
            onError: { error in print(error) },
            onChange: { bestPlayers in print("Best players: \(bestPlayers)") })
        return cancellable
    }

    static func block5Async(_ dbQueue: DatabaseQueue) async throws {
        // In async code: the loop runs until the task is cancelled.
        func printBestPlayers(of dbQueue: DatabaseQueue) async throws {
            let observation = ValueObservation.tracking { db in
                try Player.order(Column("score").desc).limit(10).fetchAll(db)
            }
            for try await bestPlayers in observation.values(in: dbQueue) {
                print("Best players: \(bestPlayers)")
            }
        }
        try await printBestPlayers(of: dbQueue)
    }
}
// end of Observation.md block 5

// Observation.md block 6
extension ObservationArticle {
    @MainActor @Observable final class PlayerList {
        var players: [Player] = []
        private var cancellable: AnyDatabaseCancellable?

        func observe(_ reader: some DatabaseReader) {
            let observation = ValueObservation.tracking { db in
                try Player.order(Column("score").desc).fetchAll(db)
            }
            cancellable = observation.start(in: reader, scheduling: .immediate) { error in
                print(error)
            } onChange: { [unowned self] players in
                self.players = players
            }
        }
    }
}
// end of Observation.md block 6
