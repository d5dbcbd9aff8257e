/// The definition of a table, for ``Database/create(table:options:body:)``.
///
/// ```swift
/// try db.create(table: "player") { t in
///     t.autoIncrementedPrimaryKey("id")
///     t.column("name", .text).notNull().unique()
///     t.column("score", .integer).notNull().defaults(to: 0)
///     t.belongsTo("team", onDelete: .cascade)
/// }
/// // CREATE TABLE "player" (
/// //   "id" INTEGER PRIMARY KEY AUTOINCREMENT,
/// //   "name" TEXT NOT NULL UNIQUE,
/// //   "score" INTEGER NOT NULL DEFAULT 0,
/// //   "teamId" INTEGER REFERENCES "team"("id") ON DELETE CASCADE
/// // )
/// // CREATE INDEX "player_on_teamId" ON "player"("teamId")
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_createtable.html>
public final class TableDefinition {
    let name: String
    let options: TableOptions
    /// The columns and `belongsTo` foreign keys, in the order of
    /// their definition.
    private var elements: [Element] = []
    private var primaryKeyConstraint: (members: [Element], conflictResolution: Database.ConflictResolution?)?
    private var uniqueKeyConstraints: [(columns: [String], conflictResolution: Database.ConflictResolution?)] = []
    private var foreignKeyConstraints: [ForeignKeyConstraint] = []
    private var checkConstraints: [SQLExpression] = []
    private var literalConstraints: [SQL] = []

    /// A column, or the columns of a foreign key that are known when the
    /// table is created. In a primary key constraint, a column is only
    /// named: `.name`.
    private enum Element {
        case column(ColumnDefinition)
        case name(String)
        case foreignKey(ForeignKeyDefinition)
    }

    init(name: String, options: TableOptions) {
        self.name = name
        self.options = options
    }

    // MARK: Columns

    /// Adds an `INTEGER PRIMARY KEY AUTOINCREMENT` column: an
    /// auto-incremented id that is never reused.
    ///
    /// ```swift
    /// t.autoIncrementedPrimaryKey("id")
    /// ```
    @discardableResult
    public func autoIncrementedPrimaryKey(
        _ name: String,
        onConflict conflictResolution: Database.ConflictResolution? = nil) -> ColumnDefinition
    {
        column(name, .integer).primaryKey(onConflict: conflictResolution, autoincrement: true)
    }

    /// Adds a primary key column.
    ///
    /// ```swift
    /// t.primaryKey("uuid", .blob)
    /// // "uuid" BLOB PRIMARY KEY NOT NULL
    /// ```
    @discardableResult
    public func primaryKey(
        _ name: String,
        _ type: Database.ColumnType,
        onConflict conflictResolution: Database.ConflictResolution? = nil) -> ColumnDefinition
    {
        let column = column(name, type).primaryKey(onConflict: conflictResolution)
        // A non-integer primary key accepts NULL, unless told otherwise.
        if type != .integer { column.notNull() }
        return column
    }

    /// Sets a primary key on several columns, as a table constraint.
    ///
    /// ```swift
    /// t.column("userId", .integer).notNull()
    /// t.column("groupId", .integer).notNull()
    /// t.primaryKey(["userId", "groupId"])
    /// ```
    public func primaryKey(_ columns: [String], onConflict conflictResolution: Database.ConflictResolution? = nil) {
        primaryKeyConstraint = (columns.map(Element.name), conflictResolution)
    }

    /// Sets the primary key on the columns and foreign keys that `body`
    /// adds, as a table constraint; the columns are NOT NULL, and foreign
    /// keys of the primary key are not indexed.
    ///
    /// ```swift
    /// try db.create(table: "membership") { t in
    ///     t.primaryKey {
    ///         t.column("userId", .integer)
    ///         t.column("groupId", .integer)
    ///     }
    /// }
    /// // CREATE TABLE "membership" ("userId" INTEGER NOT NULL, "groupId" INTEGER NOT NULL,
    /// //   PRIMARY KEY ("userId", "groupId"))
    ///
    /// try db.create(table: "membership") { t in
    ///     t.primaryKey {
    ///         t.belongsTo("user")
    ///         t.belongsTo("group")
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - conflictResolution: The conflict clause of the constraint.
    ///   - body: Adds the columns of the primary key.
    /// - Throws: The error of `body`.
    public func primaryKey(
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        body: () throws -> Void) rethrows
    {
        let start = elements.count
        try body()
        let members = elements[start...]
        for member in members {
            switch member {
            case .column(let column):
                column.notNull()
            case .foreignKey(let foreignKey):
                foreignKey.isInPrimaryKey = true
                if foreignKey.notNullConflictResolution == nil { foreignKey.notNull() }
            case .name:
                break
            }
        }
        primaryKeyConstraint = (Array(members), conflictResolution)
    }

    /// Adds a column.
    ///
    /// ```swift
    /// t.column("name", .text).notNull()
    /// ```
    ///
    /// - Parameters:
    ///   - name: The column name.
    ///   - type: The column type; nil for no declared type.
    @discardableResult
    public func column(_ name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        elements.append(.column(column))
        return column
    }

    /// Adds a column defined in SQL.
    ///
    /// ```swift
    /// t.column(sql: "name TEXT NOT NULL")
    /// ```
    public func column(sql: String) {
        literalColumns.append(SQL(sql: sql))
    }

    /// Adds a column defined with an SQL literal: interpolated values are
    /// written in the SQL as literals (a table definition has no
    /// arguments).
    ///
    /// ```swift
    /// let defaultName = "O'Reilly"
    /// t.column(literal: "name TEXT DEFAULT \(defaultName)")
    /// // name TEXT DEFAULT 'O''Reilly'
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createtable.html#tablecoldef>
    public func column(literal: SQL) {
        literalColumns.append(literal)
    }

    private var literalColumns: [SQL] = []

    /// Adds a foreign key to the table of another record: one column per
    /// column of its primary key, named after the relation and that column,
    /// with an index.
    ///
    /// ```swift
    /// t.belongsTo("team", onDelete: .cascade)
    /// // "teamId" INTEGER REFERENCES "team"("id") ON DELETE CASCADE
    /// // CREATE INDEX "player_on_teamId" ON "player"("teamId")
    /// t.belongsTo("author", inTable: "person").notNull()
    /// // "authorId" INTEGER NOT NULL REFERENCES "person"("id")
    /// t.belongsTo("country")   // country has the primary key "code" TEXT
    /// // "countryCode" TEXT REFERENCES "country"("code")
    /// t.belongsTo("citizenship")   // primary key ("countryCode", "personId")
    /// // "citizenshipCountryCode" TEXT, "citizenshipPersonId" INTEGER,
    /// // FOREIGN KEY ("citizenshipCountryCode", "citizenshipPersonId")
    /// //   REFERENCES "citizenship"("countryCode", "personId")
    /// // CREATE INDEX "index_…_on_citizenshipCountryCode_citizenshipPersonId" …
    /// ```
    ///
    /// The referenced table is `table` when given. Otherwise it is `name`,
    /// or its plural when there is no such table (`belongsTo("team")`
    /// refers to "teams"); a relation named after the table being created,
    /// singular or plural, refers to it (`belongsTo("employee")` in
    /// "employees"). A table without an explicit primary key is referred to
    /// by its `rowid` (`"teamId" INTEGER REFERENCES "team"("rowid")`).
    ///
    /// A unique single-column foreign key is not indexed (its UNIQUE
    /// constraint is); neither is one that belongs to the primary key.
    ///
    /// - Parameters:
    ///   - name: The name of the relation, such as "team".
    ///   - table: The referenced table; nil to derive it from `name`.
    ///   - deleteAction: The action when the referenced row is deleted.
    ///   - updateAction: The action when the referenced key changes.
    ///   - deferred: Whether the constraint is checked at commit.
    ///   - indexed: Whether to index the columns (default true).
    /// - Returns: The foreign key, for `notNull()` and `unique()`.
    ///
    /// When the table is created, a ``DatabaseError`` is thrown if the
    /// referenced table does not exist, or if a foreign key to the table
    /// being created is part of its primary key.
    @discardableResult
    public func belongsTo(
        _ name: String,
        inTable table: String? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred: Bool = false,
        indexed: Bool = true) -> ForeignKeyDefinition
    {
        let foreignKey = ForeignKeyDefinition(
            name: name, table: table, deleteAction: deleteAction, updateAction: updateAction,
            deferred: deferred, indexed: indexed)
        elements.append(.foreignKey(foreignKey))
        return foreignKey
    }

    // MARK: Table constraints

    /// Adds a UNIQUE constraint on several columns.
    public func uniqueKey(_ columns: [String], onConflict conflictResolution: Database.ConflictResolution? = nil) {
        uniqueKeyConstraints.append((columns, conflictResolution))
    }

    /// Adds a FOREIGN KEY constraint on several columns.
    ///
    /// ```swift
    /// t.foreignKey(["countryCode", "citizenId"], references: "citizenship", columns: ["countryCode", "id"])
    /// ```
    ///
    /// - Parameters:
    ///   - columns: The columns of this table.
    ///   - table: The referenced table.
    ///   - destinationColumns: The referenced columns; nil for the primary
    ///     key of the referenced table.
    ///   - deleteAction: The action when the referenced row is deleted.
    ///   - updateAction: The action when the referenced key changes.
    ///   - deferred: Whether the constraint is checked at commit.
    public func foreignKey(
        _ columns: [String],
        references table: String,
        columns destinationColumns: [String]? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred: Bool = false)
    {
        foreignKeyConstraints.append(ForeignKeyConstraint(
            columns: columns, table: table, destinationColumns: destinationColumns,
            deleteAction: deleteAction, updateAction: updateAction, deferred: deferred))
    }

    /// Adds a CHECK constraint.
    ///
    /// ```swift
    /// t.check(Column("score") >= 0)
    /// ```
    public func check(_ condition: some SQLExpressible) {
        checkConstraints.append(condition.sqlExpression)
    }

    /// Adds a CHECK constraint written in SQL.
    public func check(sql: String) {
        checkConstraints.append(.literal(SQL(sql: sql)))
    }

    /// Adds a table constraint written in SQL.
    ///
    /// ```swift
    /// t.constraint(sql: "CHECK (a + b < 10)")
    /// ```
    public func constraint(sql: String) {
        literalConstraints.append(SQL(sql: sql))
    }

    /// Adds a table constraint defined with an SQL literal: interpolated
    /// values are written in the SQL as literals (a table definition has no
    /// arguments).
    ///
    /// ```swift
    /// let forbiddenName = "admin"
    /// t.constraint(literal: "CHECK (name <> \(forbiddenName))")
    /// // CHECK (name <> 'admin')
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createtable.html#tablecoldef>
    public func constraint(literal: SQL) {
        literalConstraints.append(literal)
    }

    // MARK: SQL

    /// The resolved `belongsTo` foreign keys of the table, by identity.
    private typealias ResolvedForeignKeys = [ObjectIdentifier: ForeignKeyDefinition.Resolved]

    /// The CREATE TABLE statement, and the CREATE INDEX statements of
    /// indexed columns.
    func sql(_ db: Database) throws -> [String] {
        let context = SQLGenerationContext(db, inlinesArguments: true)
        let foreignKeys = try resolveForeignKeys(db)
        let (columnItems, compositeForeignKeys) = try columnItems(db, context, foreignKeys: foreignKeys)
        let constraintItems = try constraintItems(
            db, context, foreignKeys: foreignKeys, compositeForeignKeys: compositeForeignKeys)

        var sql = "CREATE"
        if options.contains(.temporary) { sql += " TEMPORARY" }
        sql += " TABLE"
        if options.contains(.ifNotExists) { sql += " IF NOT EXISTS" }
        sql += " " + name.quotedDatabaseIdentifier + " ("
        sql += (columnItems + constraintItems).joined(separator: ", ") + ")"
        // In GRDB's order.
        var tableOptions: [String] = []
        if options.contains(.strict) { tableOptions.append("STRICT") }
        if options.contains(.withoutRowID) { tableOptions.append("WITHOUT ROWID") }
        if !tableOptions.isEmpty { sql += " " + tableOptions.joined(separator: ", ") }
        return [sql] + indexStatements(foreignKeys: foreignKeys)
    }

    /// `("a", "b")`.
    private static func quotedList(_ names: [String]) -> String {
        "(" + names.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
    }

    /// The key that a reference without columns names: the primary key of
    /// the referenced table, as GRDB writes it (`"rowid"` for a hidden
    /// rowid, which SQLite cannot enforce: with foreign keys on, such a
    /// reference fails with "foreign key mismatch", as it does without
    /// columns). Nil for a table that does not exist yet, which keeps the
    /// bare name.
    private func referencedKey(_ table: String, _ db: Database, foreignKeys: ResolvedForeignKeys) throws -> [String]? {
        if table.lowercased() == name.lowercased() {
            return try ownPrimaryKey(resolved: foreignKeys).map(\.name)
        }
        guard try db.tableExists(table) else { return nil }
        return try db.primaryKey(table).columns
    }

    /// The definitions of the columns, in order, and the `belongsTo`
    /// foreign keys of several columns, whose constraints come after the
    /// columns.
    private func columnItems(
        _ db: Database,
        _ context: SQLGenerationContext,
        foreignKeys: ResolvedForeignKeys) throws
        -> (items: [String], compositeForeignKeys: [(ForeignKeyDefinition, ForeignKeyDefinition.Resolved)])
    {
        var items: [String] = []
        var compositeForeignKeys: [(ForeignKeyDefinition, ForeignKeyDefinition.Resolved)] = []
        for element in elements {
            switch element {
            case .column(let column):
                try column.resolveReference { try referencedKey($0, db, foreignKeys: foreignKeys) }
                items.append(try column.sql(context))
            case .foreignKey(let foreignKey):
                guard let resolved = foreignKeys[ObjectIdentifier(foreignKey)] else { continue }
                items += try resolved.columns.map { try $0.sql(context) }
                if resolved.columns.count > 1 { compositeForeignKeys.append((foreignKey, resolved)) }
            case .name:
                break
            }
        }
        items += try literalColumns.map { try $0.sql(context) }
        return (items, compositeForeignKeys)
    }

    /// The table constraints: primary key, unique keys, foreign keys,
    /// checks, and literal constraints, in this order.
    private func constraintItems(
        _ db: Database,
        _ context: SQLGenerationContext,
        foreignKeys: ResolvedForeignKeys,
        compositeForeignKeys: [(ForeignKeyDefinition, ForeignKeyDefinition.Resolved)]) throws -> [String]
    {
        func columnNames(_ element: Element) -> [String] {
            switch element {
            case .column(let column): [column.name]
            case .name(let name): [name]
            case .foreignKey(let foreignKey): foreignKeys[ObjectIdentifier(foreignKey)]?.columnNames ?? []
            }
        }
        var items: [String] = []
        if let primaryKeyConstraint {
            var item = "PRIMARY KEY " + Self.quotedList(primaryKeyConstraint.members.flatMap(columnNames))
            if let resolution = primaryKeyConstraint.conflictResolution { item += " ON CONFLICT " + resolution.rawValue }
            items.append(item)
        }
        var uniqueKeys = uniqueKeyConstraints
        for (foreignKey, resolved) in compositeForeignKeys {
            // An index has no conflict clause: a unique foreign key with one
            // is a table constraint.
            if case .some(.some(let resolution)) = foreignKey.uniqueConflictResolution {
                uniqueKeys.append((resolved.columnNames, resolution))
            }
        }
        for unique in uniqueKeys {
            var item = "UNIQUE " + Self.quotedList(unique.columns)
            if let resolution = unique.conflictResolution { item += " ON CONFLICT " + resolution.rawValue }
            items.append(item)
        }
        var foreignKeyConstraints = self.foreignKeyConstraints
        for index in foreignKeyConstraints.indices where foreignKeyConstraints[index].destinationColumns == nil {
            foreignKeyConstraints[index].destinationColumns = try referencedKey(
                foreignKeyConstraints[index].table, db, foreignKeys: foreignKeys)
        }
        for (foreignKey, resolved) in compositeForeignKeys {
            foreignKeyConstraints.append(ForeignKeyConstraint(
                columns: resolved.columnNames, table: resolved.destinationTable,
                destinationColumns: resolved.destinationColumns,
                deleteAction: foreignKey.deleteAction, updateAction: foreignKey.updateAction,
                deferred: foreignKey.deferred))
        }
        for foreignKey in foreignKeyConstraints {
            items.append("FOREIGN KEY " + Self.quotedList(foreignKey.columns) + " " + foreignKey.referenceSQL)
        }
        for check in checkConstraints {
            items.append("CHECK (" + (try check.sql(context)) + ")")
        }
        items += try literalConstraints.map { try $0.sql(context) }
        return items
    }

    /// The CREATE INDEX statements of the indexed foreign keys and columns.
    private func indexStatements(foreignKeys: ResolvedForeignKeys) -> [String] {
        var statements: [String] = []
        func addIndex(_ indexName: String, on columns: [String], unique: Bool) {
            var index = unique ? "CREATE UNIQUE INDEX" : "CREATE INDEX"
            if options.contains(.ifNotExists) { index += " IF NOT EXISTS" }
            index += " " + indexName.quotedDatabaseIdentifier + " ON " + name.quotedDatabaseIdentifier
                + Self.quotedList(columns)
            statements.append(index)
        }
        // As GRDB: the indexes of multi-column foreign keys come first, then
        // the indexes of single columns in the order of the columns, where
        // a single-column foreign key is one of the columns.
        func indexedColumns(of foreignKey: ForeignKeyDefinition) -> [String]? {
            guard foreignKey.indexed && !foreignKey.isInPrimaryKey else { return nil }
            return foreignKeys[ObjectIdentifier(foreignKey)]?.columnNames
        }
        for case .foreignKey(let foreignKey) in elements {
            guard let columns = indexedColumns(of: foreignKey), columns.count > 1 else { continue }
            switch foreignKey.uniqueConflictResolution {
            case .none:
                addIndex("index_" + name + "_on_" + columns.joined(separator: "_"), on: columns, unique: false)
            case .some(.none):
                addIndex("index_" + name + "_on_" + columns.joined(separator: "_"), on: columns, unique: true)
            case .some(.some):
                break // the UNIQUE table constraint has its own index
            }
        }
        for element in elements {
            switch element {
            case .column(let column) where column.hasIndexOfItsOwn:
                addIndex(name + "_on_" + column.name, on: [column.name], unique: false)
            case .foreignKey(let foreignKey):
                // A UNIQUE column has its own index.
                guard let columns = indexedColumns(of: foreignKey), columns.count == 1,
                      foreignKey.uniqueConflictResolution == nil else { continue }
                addIndex(name + "_on_" + columns[0], on: columns, unique: false)
            default:
                continue
            }
        }
        return statements
    }

    /// The columns of the `belongsTo` foreign keys, from the primary keys
    /// of the referenced tables. Foreign keys to the table being created
    /// use its own primary key, resolved last.
    private func resolveForeignKeys(_ db: Database) throws -> [ObjectIdentifier: ForeignKeyDefinition.Resolved] {
        var resolved: [ObjectIdentifier: ForeignKeyDefinition.Resolved] = [:]
        var selfReferences: [(ForeignKeyDefinition, String)] = []
        for case .foreignKey(let foreignKey) in elements {
            let (table, isSelf) = try foreignKey.destination(db, definedTable: name)
            if isSelf {
                selfReferences.append((foreignKey, table))
            } else {
                resolved[ObjectIdentifier(foreignKey)] = foreignKey.resolve(
                    destinationTable: table,
                    primaryKey: try ForeignKeyDefinition.primaryKey(db, of: table))
            }
        }
        guard !selfReferences.isEmpty else { return resolved }
        let ownKey = try ownPrimaryKey(resolved: resolved)
        for (foreignKey, table) in selfReferences {
            resolved[ObjectIdentifier(foreignKey)] = foreignKey.resolve(destinationTable: table, primaryKey: ownKey)
        }
        return resolved
    }

    /// The primary key of the table being created: `rowid` when it has no
    /// explicit one.
    ///
    /// - Parameter resolved: The foreign keys to other tables, resolved.
    private func ownPrimaryKey(
        resolved: [ObjectIdentifier: ForeignKeyDefinition.Resolved]) throws -> [ForeignKeyDefinition.KeyColumn]
    {
        var ownKey: [ForeignKeyDefinition.KeyColumn] = []
        if case .column(let column)? = elements.first(where: { if case .column(let c) = $0 { c.isPrimaryKey } else { false } }) {
            ownKey = [.init(name: column.name, type: column.type)]
        } else if let primaryKeyConstraint {
            for member in primaryKeyConstraint.members {
                switch member {
                case .column(let column):
                    ownKey.append(.init(name: column.name, type: column.type))
                case .name(let memberName):
                    let column = elements.lazy.compactMap { element -> ColumnDefinition? in
                        if case .column(let column) = element, column.name.lowercased() == memberName.lowercased() { column } else { nil }
                    }.first
                    ownKey.append(.init(name: memberName, type: column?.type))
                case .foreignKey(let foreignKey):
                    guard let columns = resolved[ObjectIdentifier(foreignKey)]?.columns else {
                        throw DatabaseError(
                            resultCode: .SQLITE_ERROR,
                            message: "belongsTo(\"\(foreignKey.name)\") refers to the table \"\(name)\" "
                                + "and can not be part of its primary key")
                    }
                    ownKey += columns.map { .init(name: $0.name, type: $0.type) }
                }
            }
        } else {
            ownKey = [.init(name: "rowid", type: .integer)]
        }
        return ownKey
    }
}

/// Options of `CREATE TABLE`.
public struct TableOptions: OptionSet, Sendable {
    /// The raw value.
    public let rawValue: Int

    /// Creates options.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `IF NOT EXISTS`: no error when the table exists.
    public static let ifNotExists = TableOptions(rawValue: 1 << 0)
    /// `TEMPORARY`: the table lives in the temp schema, for the connection.
    public static let temporary = TableOptions(rawValue: 1 << 1)
    /// `WITHOUT ROWID`.
    public static let withoutRowID = TableOptions(rawValue: 1 << 2)
    /// `STRICT`: values must match the declared column types.
    public static let strict = TableOptions(rawValue: 1 << 3)
}

extension Database {
    /// The actions of foreign keys.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/foreignkeys.html#fk_actions>
    public enum ForeignKeyAction: String, Sendable {
        /// `CASCADE`.
        case cascade = "CASCADE"
        /// `RESTRICT`.
        case restrict = "RESTRICT"
        /// `SET NULL`.
        case setNull = "SET NULL"
        /// `SET DEFAULT`.
        case setDefault = "SET DEFAULT"
    }
}

/// A FOREIGN KEY clause.
struct ForeignKeyConstraint {
    var columns: [String]
    var table: String
    var destinationColumns: [String]?
    var deleteAction: Database.ForeignKeyAction?
    var updateAction: Database.ForeignKeyAction?
    var deferred: Bool

    /// `REFERENCES "table"("column") ON DELETE ...`.
    var referenceSQL: String {
        var sql = "REFERENCES " + table.quotedDatabaseIdentifier
        if let destinationColumns {
            sql += "(" + destinationColumns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        }
        if let deleteAction { sql += " ON DELETE " + deleteAction.rawValue }
        if let updateAction { sql += " ON UPDATE " + updateAction.rawValue }
        if deferred { sql += " DEFERRABLE INITIALLY DEFERRED" }
        return sql
    }
}
