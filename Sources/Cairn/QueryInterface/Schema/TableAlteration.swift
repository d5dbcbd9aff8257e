/// The modifications of ``Database/alter(table:body:)``.
public final class TableAlteration {
    let name: String
    private var changes: [Change] = []

    private enum Change {
        case add(ColumnDefinition)
        case addLiteral(SQL)
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

    /// Adds a column defined in SQL.
    ///
    /// ```swift
    /// try db.alter(table: "player") { t in
    ///     t.addColumn(sql: "email TEXT NOT NULL DEFAULT ''")
    /// }
    /// // ALTER TABLE "player" ADD COLUMN email TEXT NOT NULL DEFAULT ''
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_altertable.html#altertabaddcol>
    public func addColumn(sql: String) {
        changes.append(.addLiteral(SQL(sql: sql)))
    }

    /// Adds a column defined with an SQL literal: interpolated values are
    /// written in the SQL as literals (a schema change has no arguments).
    ///
    /// ```swift
    /// let defaultName = "Anonymous"
    /// try db.alter(table: "player") { t in
    ///     t.addColumn(literal: "name TEXT NOT NULL DEFAULT \(defaultName)")
    /// }
    /// // ALTER TABLE "player" ADD COLUMN name TEXT NOT NULL DEFAULT 'Anonymous'
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_altertable.html#altertabaddcol>
    public func addColumn(literal: SQL) {
        changes.append(.addLiteral(literal))
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
        var statements: [String] = []
        for change in changes {
            switch change {
            case .add(let column):
                // A reference without columns names the primary key of the
                // referenced table (see TableDefinition).
                try column.resolveReference { table in
                    try db.tableExists(table) ? db.primaryKey(table).columns : nil
                }
                statements.append(table + " ADD COLUMN " + (try column.sql(context)))
                // An indexed column gets its index right after, as in GRDB.
                if column.hasIndexOfItsOwn {
                    statements.append("CREATE INDEX " + (name + "_on_" + column.name).quotedDatabaseIdentifier
                        + " ON " + name.quotedDatabaseIdentifier + "(" + column.name.quotedDatabaseIdentifier + ")")
                }
            case .addLiteral(let literal):
                statements.append(table + " ADD COLUMN " + (try literal.sql(context)))
            case let .rename(old, new):
                statements.append(table + " RENAME COLUMN " + old.quotedDatabaseIdentifier + " TO " + new.quotedDatabaseIdentifier)
            case .drop(let column):
                statements.append(table + " DROP COLUMN " + column.quotedDatabaseIdentifier)
            }
        }
        return statements
    }
}
