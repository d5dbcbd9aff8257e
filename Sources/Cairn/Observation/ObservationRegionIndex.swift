// The index of the observation broker: observers by table and rowid, so that
// the cost of a commit does not grow with the number of observations of
// other rows (ObservationBenchmark, issue 53).

/// A transaction observer of Cairn's own whose interest is a region, which
/// the observation broker indexes by table and rowid: a changed row is
/// offered to the observers of its table's rows and of that row only, and
/// the end of a transaction is told only to the observers that heard of a
/// change in it.
///
/// The observer promises that:
/// - ``TransactionObserver/observes(eventsOfKind:)`` is false for the
///   tables outside of its region;
/// - it does nothing with the changes of rows outside of its region, nor
///   with the end of a transaction in which it heard of no change (it never
///   refuses a commit: ``TransactionObserver/databaseWillCommit()`` is not
///   called);
/// - it posts each change of its region to the inbox that the broker gave
///   it, from any thread.
///
/// An observer whose region is unknown, or the full database, is kept with
/// the other observers, which hear of every statement and transaction.
protocol RegionIndexedObserver: TransactionObserver {
    /// Keeps `inbox`, where the observer posts the changes of its region
    /// from now on, and returns its current region (nil while unknown).
    /// Atomic with the changes of the region: no change is lost between
    /// the returned region and the first post.
    func attach(to inbox: RegionChangeInbox) -> DatabaseRegion?

    /// The current region of the observer; nil while unknown.
    var indexedRegion: DatabaseRegion? { get }
}

/// Where region-indexed observers post that their region changed, from any
/// thread (a pool's fetch sets the region on a reader). The broker reads it
/// on the writer, before each statement, and moves the observers in its
/// index.
final class RegionChangeInbox: Sendable {
    private let posted = Locked<[ObjectIdentifier]>([])

    /// Tells that the region of `observer` changed.
    func post(_ observer: some RegionIndexedObserver) {
        let identifier = ObjectIdentifier(observer)
        posted.withLock { $0.append(identifier) }
    }

    /// The observers whose region changed since the last call.
    func take() -> [ObjectIdentifier] {
        posted.withLock { posted in
            defer { posted = [] }
            return posted
        }
    }
}

/// The observations of a broker whose observer is a
/// ``RegionIndexedObserver`` with a known region, by table and by rowid.
struct ObservationRegionIndex {
    /// The observations of the rows of one table.
    struct TableEntry {
        /// The table name as first given: SQLite's name of a changed table
        /// is compared with it in place (`sqlite3_stricmp`).
        let name: String
        /// The observations of all rows of the table.
        var allRows: [TransactionObservation] = []
        /// The observations of some rows of the table, by rowid.
        var rows: [Int64: [TransactionObservation]] = [:]

        /// The observations of all rows, then those of the row `rowID`.
        func observations(ofRow rowID: Int64) -> [TransactionObservation] {
            guard let ofRow = rows[rowID] else { return allRows }
            return allRows.isEmpty ? ofRow : allRows + ofRow
        }

        /// Every observation of the table, each once.
        var allObservations: [TransactionObservation] {
            var seen = Set<ObjectIdentifier>()
            var result: [TransactionObservation] = []
            for observation in allRows + rows.values.joined() where seen.insert(observation.identifier).inserted {
                result.append(observation)
            }
            return result
        }
    }

    /// The tables, keyed by ``DatabaseRegion/tableKey(_:)``.
    private(set) var tables: [String: TableEntry] = [:]

    /// The indexed observations, with the region they are indexed by.
    private var entries: [ObjectIdentifier: (observation: TransactionObservation, region: DatabaseRegion)] = [:]

    /// Whether no observation is indexed.
    var isEmpty: Bool { entries.isEmpty }

    /// The indexed observation of an observer, if any.
    func observation(_ identifier: ObjectIdentifier) -> TransactionObservation? {
        entries[identifier]?.observation
    }

    /// Every indexed observation.
    var observations: [TransactionObservation] {
        entries.values.map(\.observation)
    }

    /// Indexes an observation by `region`, which is not the full database,
    /// in place of its former region.
    mutating func insert(_ observation: TransactionObservation, region: DatabaseRegion) {
        remove(observation.identifier)
        entries[observation.identifier] = (observation, region)
        for table in region.tablesAndRowIDs ?? [] {
            // Mutated in place: a copy of the entry would copy its rows.
            if let rowIDs = table.rowIDs {
                for rowID in rowIDs {
                    tables[table.key, default: TableEntry(name: table.name)].rows[rowID, default: []].append(observation)
                }
            } else {
                tables[table.key, default: TableEntry(name: table.name)].allRows.append(observation)
            }
        }
    }

    /// Removes the observation of an observer; returns it, if it was
    /// indexed.
    @discardableResult
    mutating func remove(_ identifier: ObjectIdentifier) -> TransactionObservation? {
        guard let (observation, region) = entries.removeValue(forKey: identifier) else { return nil }
        for table in region.tablesAndRowIDs ?? [] {
            if let rowIDs = table.rowIDs {
                for rowID in rowIDs {
                    tables[table.key]?.rows[rowID]?.removeAll { $0 === observation }
                    if tables[table.key]?.rows[rowID]?.isEmpty == true {
                        tables[table.key]?.rows[rowID] = nil
                    }
                }
            } else {
                tables[table.key]?.allRows.removeAll { $0 === observation }
            }
            if let entry = tables[table.key], entry.allRows.isEmpty, entry.rows.isEmpty {
                tables[table.key] = nil
            }
        }
        return observation
    }

    /// Removes every observation.
    mutating func removeAll() {
        tables = [:]
        entries = [:]
    }
}
