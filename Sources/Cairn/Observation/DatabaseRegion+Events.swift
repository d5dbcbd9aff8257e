// Regions and the changes of transaction observers.

extension DatabaseRegion {
    /// Whether a change modified the region.
    ///
    /// Call it only for events whose kind modifies the region (see
    /// ``isModified(byEventsOfKind:)``): this only checks the table and the
    /// rowid.
    public func isModified(by event: DatabaseEvent) -> Bool {
        isModified(table: event.tableName, rowID: event.rowID)
    }
}
