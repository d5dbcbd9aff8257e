/// The definition of a column, in ``TableDefinition`` or ``TableAlteration``.
///
/// Methods return the column, so that they chain:
///
/// ```swift
/// t.column("email", .text).notNull().unique(onConflict: .replace).collate(.nocase)
/// ```
public final class ColumnDefinition {
    /// The column name.
    let name: String
    let type: Database.ColumnType?
    private var primaryKey: (conflictResolution: Database.ConflictResolution?, autoincrement: Bool)?
    private var notNullConflictResolution: Database.ConflictResolution??
    private var uniqueConflictResolution: Database.ConflictResolution??
    private var checks: [SQLExpression] = []
    private var defaultExpression: SQLExpression?
    private var collationName: String?
    private var reference: ForeignKeyConstraint?
    private var generated: (expression: SQLExpression, qualification: GeneratedColumnQualification)?
    private(set) var isIndexed = false

    /// Whether the column gets an index of its own (`CREATE INDEX
    /// "table_on_column"`): it is indexed, and not UNIQUE, whose constraint
    /// has its index already. GRDB's `unique()` replaces `indexed()`.
    var hasIndexOfItsOwn: Bool { isIndexed && uniqueConflictResolution == nil }

    /// Whether the column is the primary key (`PRIMARY KEY` in the column
    /// definition).
    var isPrimaryKey: Bool { primaryKey != nil }

    init(name: String, type: Database.ColumnType?) {
        self.name = name
        self.type = type
    }

    /// Makes the column the primary key.
    ///
    /// - Parameters:
    ///   - conflictResolution: The conflict resolution of the constraint.
    ///   - autoincrement: Whether an `INTEGER PRIMARY KEY` never reuses the
    ///     ids of deleted rows.
    @discardableResult
    public func primaryKey(onConflict conflictResolution: Database.ConflictResolution? = nil, autoincrement: Bool = false) -> Self {
        primaryKey = (conflictResolution, autoincrement)
        return self
    }

    /// Adds a NOT NULL constraint.
    @discardableResult
    public func notNull(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        notNullConflictResolution = .some(conflictResolution)
        return self
    }

    /// Adds a UNIQUE constraint.
    @discardableResult
    public func unique(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        uniqueConflictResolution = .some(conflictResolution)
        return self
    }

    /// Adds a CHECK constraint on the column.
    ///
    /// ```swift
    /// t.column("score", .integer).check { $0 >= 0 }
    /// ```
    @discardableResult
    public func check(_ condition: (Column) -> some SQLExpressible) -> Self {
        checks.append(condition(Column(name)).sqlExpression)
        return self
    }

    /// Adds a CHECK constraint written in SQL.
    @discardableResult
    public func check(sql: String) -> Self {
        checks.append(.literal(SQL(sql: sql)))
        return self
    }

    /// Sets the default value.
    ///
    /// ```swift
    /// t.column("score", .integer).defaults(to: 0)
    /// ```
    @discardableResult
    public func defaults(to value: some DatabaseValueConvertible) -> Self {
        defaultExpression = .value(value.databaseValue)
        return self
    }

    /// Sets the default value with SQL.
    ///
    /// ```swift
    /// t.column("creationDate", .datetime).defaults(sql: "CURRENT_TIMESTAMP")
    /// ```
    @discardableResult
    public func defaults(sql: String) -> Self {
        defaultExpression = .literal(SQL(sql: sql))
        return self
    }

    /// Sets the collation of one of SQLite's built-in collations.
    @discardableResult
    public func collate(_ collation: Database.CollationName) -> Self {
        collationName = collation.rawValue
        return self
    }

    /// Sets a custom collation.
    @discardableResult
    public func collate(_ collation: DatabaseCollation) -> Self {
        collationName = collation.name
        return self
    }

    /// Makes the column refer to a row of another table.
    ///
    /// ```swift
    /// t.column("teamId", .integer).references("team", onDelete: .cascade)
    /// ```
    ///
    /// - Parameters:
    ///   - table: The referenced table.
    ///   - column: The referenced column; nil for the primary key.
    ///   - deleteAction: The action when the referenced row is deleted.
    ///   - updateAction: The action when the referenced key changes.
    ///   - deferred: Whether the constraint is checked at commit.
    @discardableResult
    public func references(
        _ table: String,
        column: String? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred: Bool = false) -> Self
    {
        reference = ForeignKeyConstraint(
            columns: [name], table: table, destinationColumns: column.map { [$0] },
            deleteAction: deleteAction, updateAction: updateAction, deferred: deferred)
        return self
    }

    /// Indexes the column: `CREATE INDEX "table_on_column"` after CREATE
    /// TABLE, or after ADD COLUMN in ``Database/alter(table:body:)``. A
    /// UNIQUE column gets no other index, as in GRDB.
    @discardableResult
    public func indexed() -> Self {
        isIndexed = true
        return self
    }

    /// Whether a generated column is computed when it is read, or stored.
    public enum GeneratedColumnQualification: String, Sendable {
        /// Computed when read.
        case virtual = "VIRTUAL"
        /// Computed when written, and stored.
        case stored = "STORED"
    }

    /// Makes the column a generated column.
    ///
    /// ```swift
    /// t.column("total", .integer).generatedAs(Column("score") + Column("bonus"), .stored)
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/gencol.html>
    @discardableResult
    public func generatedAs(_ expression: some SQLExpressible, _ qualification: GeneratedColumnQualification = .virtual) -> Self {
        generated = (expression.sqlExpression, qualification)
        return self
    }

    /// Makes the column a generated column, with SQL.
    @discardableResult
    public func generatedAs(sql: String, _ qualification: GeneratedColumnQualification = .virtual) -> Self {
        generated = (.literal(SQL(sql: sql)), qualification)
        return self
    }

    // MARK: SQL

    /// Names the referenced columns of a reference that names none
    /// (`references("team")`): `resolve` returns the primary key of a
    /// table, or nil when it is unknown (the reference then names the table
    /// only, and SQLite uses its primary key when it checks the key).
    func resolveReference(_ resolve: (_ table: String) throws -> [String]?) rethrows {
        guard let table = reference?.table, reference?.destinationColumns == nil else { return }
        reference?.destinationColumns = try resolve(table)
    }

    /// The column definition SQL.
    func sql(_ context: SQLGenerationContext) throws -> String {
        var sql = name.quotedDatabaseIdentifier
        if let type, !type.rawValue.isEmpty {
            sql += " " + type.rawValue
        }
        if let primaryKey {
            sql += " PRIMARY KEY"
            if let resolution = primaryKey.conflictResolution { sql += " ON CONFLICT " + resolution.rawValue }
            if primaryKey.autoincrement { sql += " AUTOINCREMENT" }
        }
        // ABORT is SQLite's default conflict resolution: it is not written,
        // as GRDB does not write it.
        if let notNull = notNullConflictResolution {
            sql += " NOT NULL"
            if let resolution = notNull, resolution != .abort { sql += " ON CONFLICT " + resolution.rawValue }
        }
        if let unique = uniqueConflictResolution {
            sql += " UNIQUE"
            if let resolution = unique, resolution != .abort { sql += " ON CONFLICT " + resolution.rawValue }
        }
        for check in checks {
            sql += " CHECK (" + (try check.sql(context)) + ")"
        }
        if let defaultExpression {
            // DEFAULT takes a literal, or an expression in parentheses.
            let rendered = try defaultExpression.sql(context)
            if case .value = defaultExpression.impl {
                sql += " DEFAULT " + rendered
            } else {
                sql += " DEFAULT (" + rendered + ")"
            }
        }
        if let collationName {
            sql += " COLLATE " + collationName
        }
        if let reference {
            sql += " " + reference.referenceSQL
        }
        if let generated {
            sql += " GENERATED ALWAYS AS (" + (try generated.expression.sql(context)) + ") " + generated.qualification.rawValue
        }
        return sql
    }
}
