// Regions and the changes of transaction observers.

extension DatabaseRegion {
    /// Whether a change modified the region.
    ///
    /// Call it only for events whose kind modifies the region (see
    /// ``isModified(byEventsOfKind:)``): this only checks the table and the
    /// rowid.
    ///
    /// For a region of some rows, the event alone may not tell: SQLite
    /// reports an UPDATE that changes the rowid of a row with its new rowid
    /// only, and does not report the rows that an `ON CONFLICT REPLACE`
    /// clause deletes. Value observations and ``DatabaseRegionObservation``
    /// also look at the ``DatabasePreUpdateEvent`` of each change, which
    /// tells the rowid before and after it: an observer of rows should do
    /// the same, in ``TransactionObserver/databaseWillChange(with:)``.
    public func isModified(by event: DatabaseEvent) -> Bool {
        isModified(rowID: event.rowID, ofTableWhere: event.hasTableName)
    }

    /// Whether a change modified the region, before it happens: the change
    /// of a row of the region, by its rowid before or after the change (an
    /// UPDATE may change the rowid).
    ///
    /// As ``isModified(by:)``, call it only for events whose kind modifies
    /// the region.
    func isModified(by event: DatabasePreUpdateEvent) -> Bool {
        if let rowID = event.initialRowID, isModified(rowID: rowID, ofTableWhere: event.hasTableName) { return true }
        if let rowID = event.finalRowID, isModified(rowID: rowID, ofTableWhere: event.hasTableName) { return true }
        return false
    }
}
