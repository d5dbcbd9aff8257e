import Foundation
import Testing
import Cairn

@Suite struct EventKindTests {
    @Test func preUpdateEventKindsHaveTheirOwnType() throws {
        #expect(DatabasePreUpdateEvent.Kind(rawValue: SQLITE_INSERT) == .insert)
        #expect(DatabasePreUpdateEvent.Kind(rawValue: SQLITE_DELETE) == .delete)
        #expect(DatabasePreUpdateEvent.Kind(rawValue: SQLITE_UPDATE) == .update)
        #expect(DatabasePreUpdateEvent.Kind(rawValue: 0) == nil)
        #expect(Set<DatabasePreUpdateEvent.Kind>([.insert, .insert, .delete]).count == 2)

        let dbQueue = try DatabaseQueue()
        let observer = RecordingObserver()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            db.add(transactionObserver: observer, extent: .databaseLifetime)
            try db.execute(sql: "INSERT INTO t VALUES (1); UPDATE t SET a = 2; DELETE FROM t")
        }
        #expect(observer.preUpdateEvents.map(\.kind) == [.insert, .update, .delete])
        #expect(observer.events.map(\.kind) == [.insert, .update, .delete])
    }

    @Test func transactionObservationExtentsAreDatabaseTypes() {
        let extents: Set<Database.TransactionObservationExtent> = [.observerLifetime, .nextTransaction, .databaseLifetime]
        #expect(extents.count == 3)
        // The former top-level name remains.
        let extent: TransactionObservationExtent = .nextTransaction
        #expect(extent == Database.TransactionObservationExtent.nextTransaction)
    }
}
