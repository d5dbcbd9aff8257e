// The schema source in use: the one of the configuration, or the one that
// withSchemaSource(_:execute:) gives for the time of a closure.

/// The schema source that ``Database/withSchemaSource(_:execute:)`` gives
/// for the time of its closure (possibly none).
struct SchemaSourceOverride {
    var schemaSource: (any DatabaseSchemaSource)?
}

extension Database {
    /// The schema source that the connection uses now: the one of
    /// ``withSchemaSource(_:execute:)`` while its closure runs, and
    /// ``Configuration/schemaSource`` otherwise.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     db.schemaSource // the schema source of the configuration
    /// }
    /// ```
    public var schemaSource: (any DatabaseSchemaSource)? {
        if let schemaSourceOverride {
            return schemaSourceOverride.schemaSource
        }
        return configuration.schemaSource
    }

    /// Runs `block` with another schema source, and returns its result.
    ///
    /// The primary keys of views, for instance, come from this source while
    /// `block` runs:
    ///
    /// ```swift
    /// struct PlayerViewSource: DatabaseSchemaSource {
    ///     func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
    ///         view.name == "playerView" ? ["id"] : nil
    ///     }
    /// }
    ///
    /// try dbQueue.read { db in
    ///     try db.withSchemaSource(PlayerViewSource()) {
    ///         try db.primaryKey("playerView").columns // ["id"]
    ///     }
    /// }
    /// ```
    ///
    /// Pass nil to run `block` without schema source. Calls nest: the
    /// innermost source is used. The schema information that the connection
    /// caches is forgotten when the source changes, at the beginning and at
    /// the end of `block`.
    ///
    /// - Parameters:
    ///   - schemaSource: The schema source, or nil.
    ///   - block: The code that uses the schema source.
    /// - Returns: The result of `block`.
    /// - Throws: The error of `block`.
    public func withSchemaSource<T>(
        _ schemaSource: (any DatabaseSchemaSource)?,
        execute block: () throws -> T) rethrows -> T
    {
        preconditionInsideAccess()
        let previous = schemaSourceOverride
        schemaSourceOverride = SchemaSourceOverride(schemaSource: schemaSource)
        state.schemaCache.clear()
        defer {
            schemaSourceOverride = previous
            state.schemaCache.clear()
        }
        return try block()
    }
}
