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
    private(set) var columns: [ColumnDefinition] = []
    private var primaryKeyConstraint: (columns: [String], conflictResolution: Database.ConflictResolution?)?
    private var uniqueKeyConstraints: [(columns: [String], conflictResolution: Database.ConflictResolution?)] = []
    private var foreignKeyConstraints: [ForeignKeyConstraint] = []
    private var checkConstraints: [SQLExpression] = []
    private var literalConstraints: [SQL] = []
    /// Columns created by `belongsTo` that need an index.
    private var indexedForeignKeys: [[String]] = []
    /// The indexed `belongsTo` columns, whose names are known when the
    /// table is created.
    private var indexedBelongsToColumns: [ColumnDefinition] = []

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
        primaryKeyConstraint = (columns, conflictResolution)
    }

    /// Sets the primary key on the columns that `body` adds, as a table
    /// constraint; the columns are NOT NULL.
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
    /// ```
    ///
    /// - Parameters:
    ///   - conflictResolution: The conflict clause of the constraint.
    ///   - body: Adds the columns of the primary key.
    /// - Throws: The error of `body`.
    public func primaryKey(
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ body: () throws -> Void) rethrows
    {
        let start = columns.count
        try body()
        let keyColumns = columns[start...]
        for column in keyColumns { column.notNull() }
        primaryKey(keyColumns.map(\.name), onConflict: conflictResolution)
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
        columns.append(column)
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

    private var literalColumns: [SQL] = []

    /// Adds a foreign key column to the table of another record, named after
    /// it and the primary key it refers to, and indexes it.
    ///
    /// ```swift
    /// t.belongsTo("team", onDelete: .cascade)
    /// // "teamId" INTEGER REFERENCES "team"("id") ON DELETE CASCADE
    /// t.belongsTo("author", inTable: "person")
    /// // "authorId" INTEGER REFERENCES "person"("id")
    /// t.belongsTo("country")   // country has the primary key "code"
    /// // "countryCode" TEXT REFERENCES "country"("code")
    /// ```
    ///
    /// The referenced table must have a single-column primary key, whose
    /// type the new column takes; a table that refers to itself may be
    /// created this way too.
    ///
    /// - Parameters:
    ///   - name: The name of the relation, such as "team".
    ///   - table: The referenced table; nil when it is `name`.
    ///   - onDelete: The action when the referenced row is deleted.
    ///   - onUpdate: The action when the referenced key changes.
    ///   - deferred: Whether the constraint is checked at commit.
    ///   - indexed: Whether to index the column (default true).
    @discardableResult
    public func belongsTo(
        _ name: String,
        inTable table: String? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred: Bool = false,
        indexed: Bool = true) -> ColumnDefinition
    {
        let table = table ?? name
        let column = ColumnDefinition(name: name + "Id", type: nil)
        column.pendingReference = (table, deleteAction, updateAction, deferred)
        column.belongsToName = name
        columns.append(column)
        if indexed {
            indexedBelongsToColumns.append(column)
        }
        return column
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

    // MARK: SQL

    /// The CREATE TABLE statement, and the CREATE INDEX statements of
    /// indexed columns.
    func sql(_ db: Database) throws -> [String] {
        let context = SQLGenerationContext(db, inlinesArguments: true)
        var sql = "CREATE"
        if options.contains(.temporary) { sql += " TEMPORARY" }
        sql += " TABLE"
        if options.contains(.ifNotExists) { sql += " IF NOT EXISTS" }
        sql += " " + name.quotedDatabaseIdentifier + " ("

        var items: [String] = []
        for column in columns {
            try column.resolveReference(db, tableName: name, columns: columns)
            items.append(try column.sql(context))
        }
        items += try literalColumns.map { try $0.sql(context) }
        if let primaryKeyConstraint {
            var item = "PRIMARY KEY (" + primaryKeyConstraint.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
            if let resolution = primaryKeyConstraint.conflictResolution { item += " ON CONFLICT " + resolution.rawValue }
            items.append(item)
        }
        for unique in uniqueKeyConstraints {
            var item = "UNIQUE (" + unique.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
            if let resolution = unique.conflictResolution { item += " ON CONFLICT " + resolution.rawValue }
            items.append(item)
        }
        for foreignKey in foreignKeyConstraints {
            items.append("FOREIGN KEY (" + foreignKey.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ") "
                + foreignKey.referenceSQL)
        }
        for check in checkConstraints {
            items.append("CHECK (" + (try check.sql(context)) + ")")
        }
        items += try literalConstraints.map { try $0.sql(context) }
        sql += items.joined(separator: ", ") + ")"

        var tableOptions: [String] = []
        if options.contains(.withoutRowID) { tableOptions.append("WITHOUT ROWID") }
        if options.contains(.strict) { tableOptions.append("STRICT") }
        if !tableOptions.isEmpty { sql += " " + tableOptions.joined(separator: ", ") }

        var statements = [sql]
        var indexedColumns = indexedBelongsToColumns.map { [$0.name] } + indexedForeignKeys
        indexedColumns += columns.filter(\.isIndexed).map { [$0.name] }
        for columns in indexedColumns {
            var index = "CREATE INDEX"
            if options.contains(.ifNotExists) { index += " IF NOT EXISTS" }
            let indexName = name + "_on_" + columns.joined(separator: "_")
            index += " " + indexName.quotedDatabaseIdentifier + " ON " + name.quotedDatabaseIdentifier
                + "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
            statements.append(index)
        }
        return statements
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
