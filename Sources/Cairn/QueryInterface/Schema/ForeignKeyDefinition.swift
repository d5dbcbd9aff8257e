/// The foreign key that ``TableDefinition/belongsTo(_:inTable:onDelete:onUpdate:deferred:indexed:)``
/// adds to a table: one column per column of the primary key of the
/// referenced table, named after the relation and that column.
///
/// Methods return the definition, so that they chain:
///
/// ```swift
/// try db.create(table: "book") { t in
///     t.autoIncrementedPrimaryKey("id")
///     t.belongsTo("author").notNull()
///     // "authorId" INTEGER NOT NULL REFERENCES "author"("id")
/// }
/// ```
///
/// The columns are known when the table is created, from the schema of the
/// referenced table: `belongsTo("country")`, where `country` has the primary
/// key `code TEXT`, adds `"countryCode" TEXT REFERENCES "country"("code")`;
/// a composite primary key gives several columns and a
/// `FOREIGN KEY (…) REFERENCES …` table constraint.
///
/// Related SQLite documentation: <https://www.sqlite.org/foreignkeys.html>
public final class ForeignKeyDefinition {
    /// The name of the relation, the prefix of the column names.
    let name: String
    /// The referenced table as written; nil when it is derived from `name`.
    let table: String?
    let deleteAction: Database.ForeignKeyAction?
    let updateAction: Database.ForeignKeyAction?
    let deferred: Bool
    let indexed: Bool
    private(set) var notNullConflictResolution: Database.ConflictResolution??
    private(set) var uniqueConflictResolution: Database.ConflictResolution??
    /// Whether the columns belong to the primary key of the table
    /// (`t.primaryKey { t.belongsTo(…) }`).
    var isInPrimaryKey = false

    init(
        name: String,
        table: String?,
        deleteAction: Database.ForeignKeyAction?,
        updateAction: Database.ForeignKeyAction?,
        deferred: Bool,
        indexed: Bool)
    {
        self.name = name
        self.table = table
        self.deleteAction = deleteAction
        self.updateAction = updateAction
        self.deferred = deferred
        self.indexed = indexed
    }

    /// Adds a NOT NULL constraint to the columns of the foreign key.
    ///
    /// - Parameter conflictResolution: The conflict clause of the constraint.
    @discardableResult
    public func notNull(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        notNullConflictResolution = .some(conflictResolution)
        return self
    }

    /// Makes the foreign key unique: a single column gets a UNIQUE
    /// constraint, several columns a unique index.
    ///
    /// ```swift
    /// try db.create(table: "passport") { t in
    ///     t.autoIncrementedPrimaryKey("id")
    ///     t.belongsTo("citizen").notNull().unique()
    ///     // "citizenId" INTEGER NOT NULL UNIQUE REFERENCES "citizen"("id")
    /// }
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createtable.html#uniqueconst>
    @discardableResult
    public func unique() -> Self {
        unique(onConflict: nil)
    }

    /// Makes the foreign key unique: a single column gets a UNIQUE
    /// constraint, several columns a unique index (or a UNIQUE table
    /// constraint when `conflictResolution` is not nil, since an index has
    /// no conflict clause).
    ///
    /// - Parameter conflictResolution: The conflict clause of the constraint.
    @discardableResult
    public func unique(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        uniqueConflictResolution = .some(conflictResolution)
        return self
    }

    // MARK: Resolution

    /// A column of a referenced primary key.
    struct KeyColumn {
        var name: String
        var type: Database.ColumnType?
    }

    /// The foreign key, once the referenced table and its primary key
    /// are known.
    struct Resolved {
        /// The columns of the foreign key, in the order of the key.
        var columns: [ColumnDefinition]
        /// The referenced table.
        var destinationTable: String
        /// The referenced columns.
        var destinationColumns: [String]

        var columnNames: [String] { columns.map(\.name) }
    }

    /// The name of the referenced table, and whether it is the table being
    /// created.
    ///
    /// `belongsTo("team")` refers to "team", or to "teams" when there is no
    /// "team" table; `belongsTo("employee")` in the table "employee" or
    /// "employees" refers to that table.
    func destination(_ db: Database, definedTable: String) throws -> (table: String, isSelf: Bool) {
        if let table {
            return (table, table.lowercased() == definedTable.lowercased())
        }
        let lowercasedDefined = definedTable.lowercased()
        if name.lowercased() == lowercasedDefined || Inflections.default.pluralize(name).lowercased() == lowercasedDefined {
            return (definedTable, true)
        }
        if try db.tableExists(name) {
            return (name, false)
        }
        let plural = Inflections.default.pluralize(name)
        if try db.tableExists(plural) {
            return (plural, false)
        }
        throw DatabaseError(
            resultCode: .SQLITE_ERROR,
            message: "belongsTo(\"\(name)\"): no such table: \(name)"
                + (plural == name ? "" : " (nor \(plural))")
                + "; create it first, or name it with belongsTo(_:inTable:)")
    }

    /// Builds the columns of the foreign key, given the primary key of the
    /// referenced table (`rowid` for a table without an explicit one).
    func resolve(destinationTable: String, primaryKey: [KeyColumn]) -> Resolved {
        let columns = primaryKey.map { keyColumn in
            let suffix = keyColumn.name.lowercased() == "rowid" ? "id" : keyColumn.name
            let column = ColumnDefinition(name: name + Inflections.capitalizingFirstLetter(suffix), type: keyColumn.type)
            if let notNull = notNullConflictResolution {
                column.notNull(onConflict: notNull)
            }
            return column
        }
        if columns.count == 1, let column = columns.first {
            if let unique = uniqueConflictResolution {
                column.unique(onConflict: unique)
            }
            column.references(
                destinationTable, column: primaryKey[0].name,
                onDelete: deleteAction, onUpdate: updateAction, deferred: deferred)
        }
        return Resolved(columns: columns, destinationTable: destinationTable, destinationColumns: primaryKey.map(\.name))
    }

    /// The primary key of another table, with the declared types of
    /// its columns.
    static func primaryKey(_ db: Database, of table: String) throws -> [KeyColumn] {
        // A table without an explicit primary key has the columns ["rowid"].
        let primaryKey = try db.primaryKey(table)
        let columns = try db.columns(in: table)
        return primaryKey.columns.map { name in
            let declaredType = columns.first { $0.name.lowercased() == name.lowercased() }?.type
            let type = primaryKey.isRowID && primaryKey.rowIDColumn == nil ? .integer : declaredType.flatMap { $0.isEmpty ? nil : Database.ColumnType(rawValue: $0) }
            return KeyColumn(name: name, type: type)
        }
    }
}
