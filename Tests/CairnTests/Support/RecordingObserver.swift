import Foundation
import Cairn

/// An observer that records everything it is told.
final class RecordingObserver: TransactionObserver, @unchecked Sendable {
    let observedTables: Set<String>?
    var events: [DatabaseEvent] = []
    var preUpdateEvents: [DatabasePreUpdateEvent] = []
    var log: [String] = []
    var commitError: (any Error)?
    var stopsAfterFirstEvent = false
    var undescribedChangeCount = 0

    /// - Parameter observedTables: The tables to observe; nil for all.
    init(observing observedTables: Set<String>? = nil) {
        self.observedTables = observedTables
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        observedTables.map { $0.contains(eventKind.tableName) } ?? true
    }

    func databaseWillChange(with event: DatabasePreUpdateEvent) {
        preUpdateEvents.append(event.copy())
    }

    func databaseDidChange(with event: DatabaseEvent) {
        events.append(event.copy())
        log.append("\(event.kind) \(event.tableName) \(event.rowID)")
        if stopsAfterFirstEvent {
            stopObservingDatabaseChangesUntilNextTransaction()
        }
    }

    func databaseDidChange() {
        undescribedChangeCount += 1
    }

    func databaseWillCommit() throws {
        log.append("willCommit")
        if let commitError { throw commitError }
    }

    func databaseDidCommit(_ db: Database) {
        log.append("didCommit")
    }

    func databaseDidRollback(_ db: Database) {
        log.append("didRollback")
    }
}
