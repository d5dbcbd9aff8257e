// Upserts that return the inserted or updated row, with a conflict target
// and explicit assignments.
//
// Related SQLite documentation: <https://www.sqlite.org/lang_upsert.html>

extension MutablePersistableRecord {
    /// Inserts the record, or updates the row it conflicts with, and
    /// returns the row, decoded.
    ///
    /// ```swift
    /// // INSERT INTO "vocabulary" ("word", "kind", "isTainted") VALUES (?, ?, ?)
    /// // ON CONFLICT("word") DO UPDATE SET "count" = "count" + ?, "kind" = "excluded"."kind"
    /// // RETURNING *, "rowid"
    /// let upserted = try vocabulary.upsertAndFetch(db, onConflict: ["word"]) { _ in
    ///     [Column("count") += 1, Column("isTainted").noOverwrite]
    /// }
    /// ```
    ///
    /// On conflict, the explicit assignments run first; every other column
    /// of the record that is neither in the conflict target nor in the
    /// primary key is set to its new value (`"excluded"."column"`), unless
    /// an assignment marks it ``ColumnExpression/noOverwrite``.
    /// ``MutablePersistableRecord/didInsert(_:)`` receives the rowid of the
    /// inserted or updated row.
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - conflictTarget: The columns of the uniqueness constraint that
    ///     the conflict is about; empty for any constraint.
    ///   - assignments: Given the `excluded` alias (the values of the
    ///     record), returns the assignments of the `DO UPDATE` clause; nil
    ///     for the default ones.
    /// - Returns: The inserted or updated record.
    /// - Throws: A ``DatabaseError``, or the error of a callback.
    public mutating func upsertAndFetch(
        _ db: Database,
        onConflict conflictTarget: [String] = [],
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil) throws -> Self
        where Self: FetchableRecord
    {
        try upsertAndFetch(db, as: Self.self, onConflict: conflictTarget, doUpdate: assignments)
    }

    /// Inserts the record, or updates the row it conflicts with, and
    /// returns the row, decoded as another record type: see
    /// ``upsertAndFetch(_:onConflict:doUpdate:)``.
    ///
    /// - Throws: See ``upsertAndFetch(_:onConflict:doUpdate:)``.
    public mutating func upsertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        as returnedType: T.Type,
        onConflict conflictTarget: [String] = [],
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil) throws -> T
    {
        try performUpsertAndFetch(
            db, onConflict: conflictTarget, doUpdate: assignments,
            selection: T.databaseSelection, decode: { try T(row: $0) })
    }

    /// Inserts the record, or updates the row it conflicts with, with a
    /// RETURNING clause of the given selection, and returns the row that
    /// `decode` builds: see ``upsertAndFetch(_:onConflict:doUpdate:)``.
    ///
    /// ```swift
    /// let score = try player.upsertAndFetch(
    ///     db, selection: [Column("score")],
    ///     decode: { row in row[0] as Int })
    /// ```
    ///
    /// - Throws: See ``upsertAndFetch(_:onConflict:doUpdate:)``, and the
    ///   error of `decode`.
    public mutating func upsertAndFetch<T>(
        _ db: Database,
        onConflict conflictTarget: [String] = [],
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil,
        selection: [any SQLSelectable],
        decode: (Row) throws -> T) throws -> T
    {
        try performUpsertAndFetch(
            db, onConflict: conflictTarget, doUpdate: assignments, selection: selection, decode: decode)
    }

    /// The implementation of the upserts that fetch.
    mutating func performUpsertAndFetch<T>(
        _ db: Database,
        onConflict conflictTarget: [String],
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])?,
        selection: [any SQLSelectable],
        decode: (Row) throws -> T) throws -> T
    {
        try withoutActuallyEscaping(decode) { decode in
            var returned: T?
            let upsert = UpsertClause(
                conflictTarget: conflictTarget,
                assignments: assignments.map { $0(TableAlias(name: "excluded")) },
                returning: (selection, { returned = try decode($0) }))
            try performInsert(db, onConflict: nil, upsert: upsert, returning: nil)
            guard let returned else {
                // The upsert decodes the row it returns, or throws.
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the upsert returned no row")
            }
            return returned
        }
    }
}

extension PersistableRecord {
    /// Inserts the record, or updates the row it conflicts with, and
    /// returns the row, decoded: see
    /// ``MutablePersistableRecord/upsertAndFetch(_:onConflict:doUpdate:)``.
    ///
    /// ```swift
    /// let player = try Player(id: 1, name: "Arthur").upsertAndFetch(db)
    /// ```
    ///
    /// - Throws: See ``MutablePersistableRecord/upsertAndFetch(_:onConflict:doUpdate:)``.
    public func upsertAndFetch(
        _ db: Database,
        onConflict conflictTarget: [String] = [],
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil) throws -> Self
        where Self: FetchableRecord
    {
        var record = self
        return try record.performUpsertAndFetch(
            db, onConflict: conflictTarget, doUpdate: assignments,
            selection: Self.databaseSelection, decode: { try Self(row: $0) })
    }

    /// Inserts the record, or updates the row it conflicts with, and
    /// returns the row, decoded as another record type: see
    /// ``MutablePersistableRecord/upsertAndFetch(_:as:onConflict:doUpdate:)``.
    ///
    /// - Throws: See ``MutablePersistableRecord/upsertAndFetch(_:onConflict:doUpdate:)``.
    public func upsertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        as returnedType: T.Type,
        onConflict conflictTarget: [String] = [],
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil) throws -> T
    {
        var record = self
        return try record.performUpsertAndFetch(
            db, onConflict: conflictTarget, doUpdate: assignments,
            selection: T.databaseSelection, decode: { try T(row: $0) })
    }

    /// Inserts the record, or updates the row it conflicts with, with a
    /// RETURNING clause of the given selection, and returns the row that
    /// `decode` builds: see
    /// ``MutablePersistableRecord/upsertAndFetch(_:onConflict:doUpdate:selection:decode:)``.
    ///
    /// - Throws: See ``MutablePersistableRecord/upsertAndFetch(_:onConflict:doUpdate:)``.
    public func upsertAndFetch<T>(
        _ db: Database,
        onConflict conflictTarget: [String] = [],
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil,
        selection: [any SQLSelectable],
        decode: (Row) throws -> T) throws -> T
    {
        var record = self
        return try record.performUpsertAndFetch(
            db, onConflict: conflictTarget, doUpdate: assignments, selection: selection, decode: decode)
    }
}
