// Schema changes: create, alter, rename and drop tables, indexes, views and
// virtual tables.

extension Database {
    // MARK: Tables

    /// Creates a table.
    ///
    /// ```swift
    /// try db.create(table: "player") { t in
    ///     t.autoIncrementedPrimaryKey("id")
    ///     t.column("name", .text).notNull()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The table name.
    ///   - options: `ifNotExists`, `temporary`, `withoutRowID`, `strict`.
    ///   - body: Defines the columns and constraints.
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createtable.html>
    public func create(
        table name: String,
        options: TableOptions = [],
        body: (TableDefinition) throws -> Void) throws
    {
        let definition = TableDefinition(name: name, options: options)
        try body(definition)
        for sql in try definition.sql(self) {
            try execute(sql: sql)
        }
    }

    /// Modifies a table: adds, renames and drops columns.
    ///
    /// ```swift
    /// try db.alter(table: "player") { t in
    ///     t.add(column: "email", .text)
    ///     t.rename(column: "name", to: "fullName")
    ///     t.drop(column: "score")
    /// }
    /// ```
    ///
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_altertable.html>
    public func alter(table name: String, body: (TableAlteration) throws -> Void) throws {
        let alteration = TableAlteration(name: name)
        try body(alteration)
        for sql in try alteration.sql(self) {
            try execute(sql: sql)
        }
    }

    /// Renames a table.
    ///
    /// - Throws: A ``DatabaseError``.
    public func rename(table name: String, to newName: String) throws {
        try execute(sql: "ALTER TABLE " + name.quotedDatabaseIdentifier + " RENAME TO " + newName.quotedDatabaseIdentifier)
    }

    /// Drops a table.
    ///
    /// - Parameters:
    ///   - name: The table name.
    ///   - ifExists: Whether a missing table is not an error.
    /// - Throws: A ``DatabaseError``.
    public func drop(table name: String, ifExists: Bool = false) throws {
        try execute(sql: "DROP TABLE " + (ifExists ? "IF EXISTS " : "") + name.quotedDatabaseIdentifier)
    }

    // MARK: Indexes

    /// Creates an index.
    ///
    /// ```swift
    /// try db.create(index: "player_on_email", on: "player", columns: ["email"], unique: true)
    /// // CREATE UNIQUE INDEX "player_on_email" ON "player"("email")
    /// ```
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
    public func create(
        index name: String,
        on table: String,
        columns: [String],
        unique: Bool = false,
        ifNotExists: Bool = false,
        condition: (any SQLExpressible)? = nil) throws
    {
        var sql = "CREATE " + (unique ? "UNIQUE " : "") + "INDEX " + (ifNotExists ? "IF NOT EXISTS " : "")
        sql += name.quotedDatabaseIdentifier + " ON " + table.quotedDatabaseIdentifier
        sql += "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        if let condition {
            let context = SQLGenerationContext(self, inlinesArguments: true)
            sql += " WHERE " + (try condition.sqlExpression.sql(context))
        }
        try execute(sql: sql)
    }

    /// Creates an index, with options.
    ///
    /// ```swift
    /// try db.create(index: "player_on_email", on: "player", columns: ["email"], options: [.unique, .ifNotExists])
    /// ```
    ///
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createindex.html>
    public func create(
        index name: String,
        on table: String,
        columns: [String],
        options: IndexOptions,
        condition: (any SQLExpressible)? = nil) throws
    {
        try create(
            index: name, on: table, columns: columns,
            unique: options.contains(.unique), ifNotExists: options.contains(.ifNotExists), condition: condition)
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
    /// - Throws: A ``DatabaseError``.
    public func drop(index name: String, ifExists: Bool = false) throws {
        try execute(sql: "DROP INDEX " + (ifExists ? "IF EXISTS " : "") + name.quotedDatabaseIdentifier)
    }

    // MARK: Views

    /// Creates a view of a request.
    ///
    /// ```swift
    /// try db.create(view: "bestPlayer", as: Player.filter(Column("score") > 1000))
    /// ```
    ///
    /// Values of the request are written as SQL literals: a view has no
    /// parameters.
    ///
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createview.html>
    public func create(
        view name: String,
        ifNotExists: Bool = false,
        temporary: Bool = false,
        as request: some SQLSubqueryable) throws
    {
        let context = SQLGenerationContext(self, inlinesArguments: true)
        var sql = "CREATE " + (temporary ? "TEMPORARY " : "") + "VIEW " + (ifNotExists ? "IF NOT EXISTS " : "")
        sql += name.quotedDatabaseIdentifier + " AS " + (try request.sqlSubquery.sql(context))
        try execute(sql: sql)
    }

    /// Drops a view.
    ///
    /// - Throws: A ``DatabaseError``.
    public func drop(view name: String, ifExists: Bool = false) throws {
        try execute(sql: "DROP VIEW " + (ifExists ? "IF EXISTS " : "") + name.quotedDatabaseIdentifier)
    }

    // MARK: Virtual tables

    /// Creates a virtual table with raw module arguments.
    ///
    /// ```swift
    /// try db.create(virtualTable: "box", using: "rtree(id, minX, maxX)")
    /// // CREATE VIRTUAL TABLE "box" USING rtree(id, minX, maxX)
    /// ```
    ///
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createvtab.html>
    public func create(virtualTable name: String, ifNotExists: Bool = false, using module: String) throws {
        try execute(sql: "CREATE VIRTUAL TABLE " + (ifNotExists ? "IF NOT EXISTS " : "")
            + name.quotedDatabaseIdentifier + " USING " + module)
    }

    /// Creates a virtual table with a module that defines its arguments, such
    /// as the full-text modules.
    ///
    /// - Parameters:
    ///   - name: The table name.
    ///   - ifNotExists: Whether an existing table is not an error.
    ///   - module: The module.
    ///   - body: Defines the table, in the terms of the module.
    /// - Throws: A ``DatabaseError``.
    public func create<Module: VirtualTableModule>(
        virtualTable name: String,
        ifNotExists: Bool,
        using module: Module,
        _ body: ((Module.TableDefinition) throws -> Void)? = nil) throws
    {
        try create(virtualTable: name, ifNotExists: ifNotExists, temporary: false, using: module, body)
    }

    /// See ``create(virtualTable:ifNotExists:using:_:)``; a temporary table
    /// is created in the `temp` schema.
    private func create<Module: VirtualTableModule>(
        virtualTable name: String,
        ifNotExists: Bool,
        temporary: Bool,
        using module: Module,
        _ body: ((Module.TableDefinition) throws -> Void)?) throws
    {
        let definition = module.makeTableDefinition(
            configuration: VirtualTableConfiguration(ifNotExists: ifNotExists, isTemporary: temporary))
        try body?(definition)
        let arguments = try module.moduleArguments(for: definition, in: self)
        var sql = "CREATE VIRTUAL TABLE " + (ifNotExists ? "IF NOT EXISTS " : "") + (temporary ? "temp." : "")
            + name.quotedDatabaseIdentifier
        sql += " USING " + module.moduleName
        if !arguments.isEmpty {
            sql += "(" + arguments.joined(separator: ", ") + ")"
        }
        try inSavepoint {
            try execute(sql: sql)
            try module.database(self, didCreate: name, using: definition)
            return .commit
        }
    }
}

/// How a virtual table is created, given to
/// ``VirtualTableModule/makeTableDefinition(configuration:)``.
public struct VirtualTableConfiguration: Sendable {
    /// Whether the table is created with `IF NOT EXISTS`: the objects
    /// created with it should be created the same way.
    public let ifNotExists: Bool

    /// Whether the table is created in the `temp` schema.
    public let isTemporary: Bool

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - ifNotExists: Whether the table is created with `IF NOT EXISTS`.
    ///   - isTemporary: Whether the table is temporary.
    public init(ifNotExists: Bool = false, isTemporary: Bool = false) {
        self.ifNotExists = ifNotExists
        self.isTemporary = isTemporary
    }
}

/// Options of ``Database/create(virtualTable:options:using:_:)``.
public struct VirtualTableOptions: OptionSet, Sendable {
    public let rawValue: Int

    /// Creates options from their raw value.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// An existing table is not an error (`IF NOT EXISTS`).
    public static let ifNotExists = VirtualTableOptions(rawValue: 1)

    /// The table is created in the `temp` schema, and lasts as long as the
    /// connection (`CREATE VIRTUAL TABLE temp."name"`).
    public static let temporary = VirtualTableOptions(rawValue: 2)
}

extension Database {
    /// Creates a virtual table.
    ///
    /// ```swift
    /// // CREATE VIRTUAL TABLE "document" USING fts5(content)
    /// try db.create(virtualTable: "document", using: FTS5()) { t in
    ///     t.column("content")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The table name.
    ///   - options: Table options.
    ///   - module: The module.
    ///   - body: Defines the table, in the terms of the module.
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createvtab.html>
    public func create<Module: VirtualTableModule>(
        virtualTable name: String,
        options: VirtualTableOptions = [],
        using module: Module,
        _ body: ((Module.TableDefinition) throws -> Void)? = nil) throws
    {
        try create(
            virtualTable: name,
            ifNotExists: options.contains(.ifNotExists),
            temporary: options.contains(.temporary),
            using: module, body)
    }
}

/// A virtual table module, such as FTS5, whose tables are created with
/// ``Database/create(virtualTable:ifNotExists:using:_:)``.
public protocol VirtualTableModule {
    /// The type that defines a table of the module.
    associatedtype TableDefinition

    /// The module name, as in `CREATE VIRTUAL TABLE ... USING name`.
    var moduleName: String { get }

    /// Returns a new table definition.
    ///
    /// - Parameter configuration: How the table is created: keep it in the
    ///   definition when the objects that the module creates with the
    ///   table depend on it (`CREATE TRIGGER IF NOT EXISTS`…).
    func makeTableDefinition(configuration: VirtualTableConfiguration) -> TableDefinition

    /// Returns the module arguments of a table definition.
    ///
    /// - Throws: An error when the definition is invalid.
    func moduleArguments(for definition: TableDefinition, in db: Database) throws -> [String]

    /// Called after the table was created, in the same savepoint: create
    /// triggers or other objects the table needs here.
    ///
    /// - Throws: An error that rolls back the creation of the table.
    func database(_ db: Database, didCreate tableName: String, using definition: TableDefinition) throws
}

extension VirtualTableModule {
    /// Does nothing.
    public func database(_ db: Database, didCreate tableName: String, using definition: TableDefinition) throws { }
}

/// The modifications of ``Database/alter(table:body:)``.
public final class TableAlteration {
    let name: String
    private var changes: [Change] = []

    private enum Change {
        case add(ColumnDefinition)
        case rename(String, String)
        case drop(String)
    }

    init(name: String) {
        self.name = name
    }

    /// Adds a column.
    ///
    /// ```swift
    /// t.add(column: "email", .text).notNull().defaults(to: "")
    /// ```
    @discardableResult
    public func add(column name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        changes.append(.add(column))
        return column
    }

    /// Renames a column.
    public func rename(column name: String, to newName: String) {
        changes.append(.rename(name, newName))
    }

    /// Drops a column.
    public func drop(column name: String) {
        changes.append(.drop(name))
    }

    func sql(_ db: Database) throws -> [String] {
        let context = SQLGenerationContext(db, inlinesArguments: true)
        let table = "ALTER TABLE " + name.quotedDatabaseIdentifier
        return try changes.map { change in
            switch change {
            case .add(let column):
                return table + " ADD COLUMN " + (try column.sql(context))
            case let .rename(old, new):
                return table + " RENAME COLUMN " + old.quotedDatabaseIdentifier + " TO " + new.quotedDatabaseIdentifier
            case .drop(let column):
                return table + " DROP COLUMN " + column.quotedDatabaseIdentifier
            }
        }
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
