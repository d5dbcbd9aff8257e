// Indexes: create and drop them, rebuild those of a collation.

extension Database {
    // MARK: Indexes

    /// Creates an index, with the options as booleans.
    ///
    /// ```swift
    /// try db.create(index: "player_on_email", on: "player", columns: ["email"], unique: true)
    /// // CREATE UNIQUE INDEX "player_on_email" ON "player"("email")
    /// ```
    ///
    /// Prefer ``create(index:on:columns:options:condition:)``.
    ///
    /// - Parameters:
    ///   - name: The index name.
    ///   - table: The indexed table.
    ///   - columns: The indexed columns.
    ///   - unique: Whether the index is unique.
    ///   - ifNotExists: Whether an existing index is not an error.
    ///   - condition: When not nil, a partial index of the rows that match
    ///     the condition.
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createindex.html>
    @_disfavoredOverload
    public func create(
        index name: String,
        on table: String,
        columns: [String],
        unique: Bool = false,
        ifNotExists: Bool = false,
        condition: (any SQLExpressible)? = nil) throws
    {
        var options: IndexOptions = []
        if unique { options.insert(.unique) }
        if ifNotExists { options.insert(.ifNotExists) }
        try create(index: name, on: table, columns: columns, options: options, condition: condition)
    }

    /// Creates an index on columns.
    ///
    /// ```swift
    /// try db.create(index: "player_on_email", on: "player", columns: ["email"], options: [.unique, .ifNotExists])
    /// // CREATE UNIQUE INDEX IF NOT EXISTS "player_on_email" ON "player"("email")
    ///
    /// // A partial index:
    /// try db.create(index: "player_on_score", on: "player", columns: ["score"], condition: Column("score") != nil)
    /// // CREATE INDEX "player_on_score" ON "player"("score") WHERE "score" IS NOT NULL
    /// ```
    ///
    /// - Parameters:
    ///   - name: The index name.
    ///   - table: The indexed table.
    ///   - columns: The indexed columns.
    ///   - options: `unique`, `ifNotExists`.
    ///   - condition: When not nil, a partial index of the rows that match
    ///     the condition.
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createindex.html>
    public func create(
        index name: String,
        on table: String,
        columns: [String],
        options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil) throws
    {
        try createIndex(
            name: name, on: table, keys: columns.map(\.quotedDatabaseIdentifier),
            options: options, condition: condition)
    }

    /// Creates an index on expressions: values computed from the columns,
    /// or columns with a collation.
    ///
    /// ```swift
    /// try db.create(index: "player_on_name", on: "player", expressions: [Column("name").collating(.nocase)])
    /// // CREATE INDEX "player_on_name" ON "player"("name" COLLATE NOCASE)
    ///
    /// try db.create(index: "rect_on_area", on: "rect", expressions: [Column("width") * Column("height")])
    /// // CREATE INDEX "rect_on_area" ON "rect"("width" * "height")
    /// ```
    ///
    /// Values in the expressions are written as SQL literals: an index has
    /// no arguments. SQLite accepts only deterministic expressions, which
    /// refer to columns of the table.
    ///
    /// - Parameters:
    ///   - name: The index name.
    ///   - table: The indexed table.
    ///   - expressions: The indexed expressions.
    ///   - options: `unique`, `ifNotExists`.
    ///   - condition: When not nil, a partial index of the rows that match
    ///     the condition.
    /// - Throws: A ``DatabaseError``: an expression that SQLite does not
    ///   accept in an index, for instance.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/expridx.html>
    public func create(
        index name: String,
        on table: String,
        expressions: [any SQLExpressible],
        options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil) throws
    {
        let context = SQLGenerationContext(self, inlinesArguments: true)
        let keys = try expressions.map { try $0.sqlExpression.sql(context) }
        try createIndex(name: name, on: table, keys: keys, options: options, condition: condition)
    }

    /// `CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table(keys) [WHERE condition]`.
    private func createIndex(
        name: String,
        on table: String,
        keys: [String],
        options: IndexOptions,
        condition: (any SQLExpressible)?) throws
    {
        var sql = "CREATE " + (options.contains(.unique) ? "UNIQUE " : "") + "INDEX "
        sql += options.contains(.ifNotExists) ? "IF NOT EXISTS " : ""
        sql += name.quotedDatabaseIdentifier + " ON " + table.quotedDatabaseIdentifier
        sql += "(" + keys.joined(separator: ", ") + ")"
        if let condition {
            let context = SQLGenerationContext(self, inlinesArguments: true)
            sql += " WHERE " + (try condition.sqlExpression.sql(context))
        }
        try execute(sql: sql)
    }

    /// Creates an index named after its table and columns:
    /// `"index_player_on_teamId"`, as GRDB names it (the name differs from
    /// the `"player_on_teamId"` index that ``TableDefinition/belongsTo(_:inTable:onDelete:onUpdate:deferred:indexed:)``
    /// creates, so that both can exist).
    ///
    /// ```swift
    /// // CREATE UNIQUE INDEX "index_player_on_teamId" ON "player"("teamId") WHERE "isCaptain"
    /// try db.create(indexOn: "player", columns: ["teamId"], options: .unique, condition: Column("isCaptain"))
    /// ```
    ///
    /// - Throws: A ``DatabaseError``.
    public func create(
        indexOn table: String,
        columns: [String],
        options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil) throws
    {
        try create(
            index: "index_" + table + "_on_" + columns.joined(separator: "_"), on: table, columns: columns,
            options: options, condition: condition)
    }

    /// Drops an index.
    ///
    /// ```swift
    /// try db.drop(index: "player_on_email")
    /// ```
    ///
    /// - Parameter name: The index name.
    /// - Throws: A ``DatabaseError``, when the index does not exist, for
    ///   instance.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_dropindex.html>
    public func drop(index name: String) throws {
        try drop(index: name, ifExists: false)
    }

    /// Drops an index, unless it does not exist when `ifExists` is true.
    ///
    /// - Parameters:
    ///   - name: The index name.
    ///   - ifExists: Whether a missing index is not an error (`IF EXISTS`).
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_dropindex.html>
    public func drop(index name: String, ifExists: Bool) throws {
        try execute(sql: "DROP INDEX " + (ifExists ? "IF EXISTS " : "") + name.quotedDatabaseIdentifier)
    }

    /// Drops the index of a table on the given columns, in this order, when
    /// exactly one such index exists; does nothing when there is none, or
    /// several.
    ///
    /// ```swift
    /// try db.create(indexOn: "player", columns: ["email"])
    /// try db.drop(indexOn: "player", columns: ["email"])
    /// ```
    ///
    /// Column names are compared without regard to case. Indexes on
    /// expressions are not considered.
    ///
    /// - Parameters:
    ///   - table: The indexed table.
    ///   - columns: The indexed columns.
    /// - Throws: A ``DatabaseError``: the table does not exist, or the index
    ///   belongs to a UNIQUE or PRIMARY KEY constraint, which SQLite does not
    ///   drop.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_dropindex.html>
    public func drop(indexOn table: String, columns: [String]) throws {
        let lowercasedColumns = columns.map { $0.lowercased() }
        let matches = try indexes(on: table).filter { $0.columns.map { $0.lowercased() } == lowercasedColumns }
        if matches.count == 1, let index = matches.first {
            try drop(index: index.name)
        }
    }

    /// Rebuilds the indexes that use a collation: call it after the order of
    /// a collation changed (a new version of a custom collation).
    ///
    /// ```swift
    /// try db.reindex(collation: .nocase)
    /// ```
    ///
    /// - Parameter collation: The name of the collation.
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_reindex.html>
    public func reindex(collation: Database.CollationName) throws {
        // A bare name, as GRDB writes it (`REINDEX NOCASE`); quoted only
        // when it is not an identifier.
        try execute(sql: "REINDEX " + collation.rawValue.bareOrQuotedDatabaseIdentifier)
    }

    /// Rebuilds the indexes that use a custom collation: call it after the
    /// order of the collation changed.
    ///
    /// ```swift
    /// try db.reindex(collation: .localizedCompare)
    /// ```
    ///
    /// - Parameter collation: The collation.
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_reindex.html>
    public func reindex(collation: DatabaseCollation) throws {
        try reindex(collation: Database.CollationName(rawValue: collation.name))
    }
}

/// Options of ``Database/create(index:on:columns:options:condition:)``.
public struct IndexOptions: OptionSet, Sendable {
    public let rawValue: Int

    /// Creates options.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `IF NOT EXISTS`: an existing index is not an error.
    public static let ifNotExists = IndexOptions(rawValue: 1 << 0)

    /// `UNIQUE`: a unique index.
    public static let unique = IndexOptions(rawValue: 1 << 1)
}
