// Telling value observations about reads that Cairn cannot see.

extension Database {
    /// Adds a region to the region that the current fetch of a value
    /// observation reads, so that the observation tracks it: use it when the
    /// fetch reads the database in a way that Cairn does not see, such as
    /// the SQLite C interface, or a statement prepared outside of Cairn.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking { db in
    ///     // Reading through the C interface: tell which table is read.
    ///     try db.registerAccess(to: Table("player"))
    ///     return rawPlayerCount(db.sqliteConnection)
    /// }
    /// ```
    ///
    /// Outside of the fetches of value observations, the region is not
    /// evaluated and the method does nothing.
    ///
    /// - Parameter region: The region that is read, such as a table or a
    ///   request.
    /// - Throws: The error of the region (a request that cannot be
    ///   prepared, for instance).
    public func registerAccess(to region: @autoclosure () -> some DatabaseRegionConvertible) throws {
        preconditionInsideAccess()
        guard state.recordedRegion != nil else { return }
        let region = try region().databaseRegion(self)
        state.recordedRegion?.formUnion(region)
    }
}
