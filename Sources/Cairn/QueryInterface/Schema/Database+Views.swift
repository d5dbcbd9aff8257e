// Views: create and drop them.

extension Database {
    // MARK: Views

    /// Creates a view of a request.
    ///
    /// ```swift
    /// try db.create(view: "bestPlayer", as: Player.filter(Column("score") > 1000))
    /// // CREATE VIEW "bestPlayer" AS SELECT * FROM "player" WHERE "score" > 1000
    ///
    /// try db.create(view: "playerName", options: [.temporary, .ifNotExists], columns: ["name"],
    ///               as: Player.select(Column("name")))
    /// // CREATE TEMPORARY VIEW IF NOT EXISTS "playerName"("name") AS SELECT "name" FROM "player"
    /// ```
    ///
    /// Values of the request are written as SQL literals: a view has no
    /// parameters. In migrations, prefer `Table("player")` to the record
    /// types of the application, which may change later.
    ///
    /// - Parameters:
    ///   - name: The view name.
    ///   - options: `temporary`, `ifNotExists`.
    ///   - columns: The names of the columns of the view; nil for the
    ///     columns of the request.
    ///   - request: The request that feeds the view.
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createview.html>
    public func create(
        view name: String,
        options: ViewOptions = [],
        columns: [String]? = nil,
        as request: any SQLSubqueryable) throws
    {
        let context = SQLGenerationContext(self, inlinesArguments: true)
        try createView(name: name, options: options, columns: columns, select: request.sqlSubquery.sql(context))
    }

    /// Creates a view of an SQL literal.
    ///
    /// ```swift
    /// try db.create(view: "hero", asLiteral: "SELECT * FROM player WHERE isHero = \(true)")
    /// // CREATE VIEW "hero" AS SELECT * FROM player WHERE isHero = 1
    /// ```
    ///
    /// Interpolated values are written as SQL literals: a view has no
    /// parameters.
    ///
    /// - Parameters:
    ///   - name: The view name.
    ///   - options: `temporary`, `ifNotExists`.
    ///   - columns: The names of the columns of the view; nil for the
    ///     columns of the SELECT statement.
    ///   - sqlLiteral: A SELECT statement.
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createview.html>
    public func create(
        view name: String,
        options: ViewOptions = [],
        columns: [String]? = nil,
        asLiteral sqlLiteral: SQL) throws
    {
        let context = SQLGenerationContext(self, inlinesArguments: true)
        try createView(name: name, options: options, columns: columns, select: sqlLiteral.sql(context))
    }

    /// Creates a view of a request, with the options as booleans.
    ///
    /// Prefer ``create(view:options:columns:as:)``.
    ///
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createview.html>
    @_disfavoredOverload
    public func create(
        view name: String,
        ifNotExists: Bool = false,
        temporary: Bool = false,
        as request: some SQLSubqueryable) throws
    {
        var options: ViewOptions = []
        if ifNotExists { options.insert(.ifNotExists) }
        if temporary { options.insert(.temporary) }
        try create(view: name, options: options, as: request)
    }

    /// `CREATE [TEMPORARY] VIEW [IF NOT EXISTS] name [(columns)] AS select`.
    private func createView(name: String, options: ViewOptions, columns: [String]?, select: String) throws {
        var sql = "CREATE " + (options.contains(.temporary) ? "TEMPORARY " : "") + "VIEW "
        sql += options.contains(.ifNotExists) ? "IF NOT EXISTS " : ""
        sql += name.quotedDatabaseIdentifier
        if let columns {
            sql += " (" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        }
        sql += " AS " + select
        try execute(sql: sql)
    }

    /// Drops a view.
    ///
    /// ```swift
    /// try db.drop(view: "bestPlayer")
    /// ```
    ///
    /// - Parameter name: The view name.
    /// - Throws: A ``DatabaseError``, when the view does not exist, for
    ///   instance.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_dropview.html>
    public func drop(view name: String) throws {
        try drop(view: name, ifExists: false)
    }

    /// Drops a view, unless it does not exist when `ifExists` is true.
    ///
    /// - Parameters:
    ///   - name: The view name.
    ///   - ifExists: Whether a missing view is not an error (`IF EXISTS`).
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_dropview.html>
    public func drop(view name: String, ifExists: Bool) throws {
        try execute(sql: "DROP VIEW " + (ifExists ? "IF EXISTS " : "") + name.quotedDatabaseIdentifier)
    }
}

/// Options of ``Database/create(view:options:columns:as:)``.
///
/// ```swift
/// try db.create(view: "bestPlayer", options: [.temporary, .ifNotExists], as: Player.filter(Column("score") > 1000))
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_createview.html>
public struct ViewOptions: OptionSet, Sendable {
    /// The raw value.
    public let rawValue: Int

    /// Creates options from their raw value.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// An existing view is not an error (`IF NOT EXISTS`).
    public static let ifNotExists = ViewOptions(rawValue: 1 << 0)

    /// The view is temporary (`CREATE TEMPORARY VIEW`): it lives in the
    /// `temp` schema, for the connection.
    public static let temporary = ViewOptions(rawValue: 1 << 1)
}
