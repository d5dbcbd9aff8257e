// Schema changes: create, alter, rename and drop tables, and create virtual
// tables (indexes and views: Database+Indexes.swift, Database+Views.swift).

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

    /// Creates a table, with the options as booleans.
    ///
    /// ```swift
    /// try db.create(table: "player", ifNotExists: true) { t in
    ///     t.autoIncrementedPrimaryKey("id")
    ///     t.column("name", .text).notNull()
    /// }
    /// ```
    ///
    /// Prefer ``create(table:options:body:)``, which also accepts
    /// ``TableOptions/strict``.
    ///
    /// - Parameters:
    ///   - name: The table name.
    ///   - temporary: Whether the table is temporary (`CREATE TEMPORARY
    ///     TABLE`): it lives in the `temp` schema, for the connection.
    ///   - ifNotExists: Whether an existing table is not an error (`IF NOT
    ///     EXISTS`).
    ///   - withoutRowID: Whether the table has no rowid (`WITHOUT ROWID`).
    ///   - body: Defines the columns and constraints.
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createtable.html>
    @_disfavoredOverload
    public func create(
        table name: String,
        temporary: Bool = false,
        ifNotExists: Bool = false,
        withoutRowID: Bool = false,
        body: (TableDefinition) throws -> Void) throws
    {
        var options: TableOptions = []
        if temporary { options.insert(.temporary) }
        if ifNotExists { options.insert(.ifNotExists) }
        if withoutRowID { options.insert(.withoutRowID) }
        try create(table: name, options: options, body: body)
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
    /// ```swift
    /// try db.drop(table: "player")
    /// ```
    ///
    /// - Parameter name: The table name.
    /// - Throws: A ``DatabaseError``, when the table does not exist, for
    ///   instance.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_droptable.html>
    public func drop(table name: String) throws {
        try drop(table: name, ifExists: false)
    }

    /// Drops a table, unless it does not exist when `ifExists` is true.
    ///
    /// ```swift
    /// try db.drop(table: "player", ifExists: true)
    /// ```
    ///
    /// - Parameters:
    ///   - name: The table name.
    ///   - ifExists: Whether a missing table is not an error (`IF EXISTS`).
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_droptable.html>
    public func drop(table name: String, ifExists: Bool) throws {
        try execute(sql: "DROP TABLE " + (ifExists ? "IF EXISTS " : "") + name.quotedDatabaseIdentifier)
    }

    // MARK: Virtual tables

    /// Creates a virtual table with raw module arguments, with the option
    /// as a boolean.
    ///
    /// ```swift
    /// try db.create(virtualTable: "box", ifNotExists: true, using: "rtree(id, minX, maxX)")
    /// // CREATE VIRTUAL TABLE IF NOT EXISTS "box" USING rtree(id, minX, maxX)
    /// ```
    ///
    /// Prefer ``create(virtualTable:options:using:)``.
    ///
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createvtab.html>
    @_disfavoredOverload
    public func create(virtualTable name: String, ifNotExists: Bool = false, using module: String) throws {
        try create(virtualTable: name, options: ifNotExists ? .ifNotExists : [], using: module)
    }

    /// Creates a virtual table with raw module arguments, and options.
    ///
    /// ```swift
    /// try db.create(virtualTable: "box", options: .ifNotExists, using: "rtree(id, minX, maxX)")
    /// // CREATE VIRTUAL TABLE IF NOT EXISTS "box" USING rtree(id, minX, maxX)
    ///
    /// try db.create(virtualTable: "scratch", options: .temporary, using: "fts5(content)")
    /// // CREATE VIRTUAL TABLE temp."scratch" USING fts5(content)
    /// ```
    ///
    /// - Parameters:
    ///   - name: The table name.
    ///   - options: `ifNotExists`, `temporary`.
    ///   - module: The module and its arguments, as written after `USING`.
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createvtab.html>
    public func create(virtualTable name: String, options: VirtualTableOptions = [], using module: String) throws {
        try execute(sql: "CREATE VIRTUAL TABLE " + (options.contains(.ifNotExists) ? "IF NOT EXISTS " : "")
            + (options.contains(.temporary) ? "temp." : "")
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
