// The version of the schema, and the names of the tables that SQLite and
// the toolkit reserve.

extension Database {
    /// The schema version of the main database: a number that SQLite
    /// changes each time the schema changes (a table, index, view or
    /// trigger is created, altered or dropped), in any connection.
    ///
    /// ```swift
    /// let version = try dbQueue.read { try $0.schemaVersion() }
    /// try dbQueue.write { try $0.create(table: "player") { t in t.column("name") } }
    /// try dbQueue.read { try $0.schemaVersion() } // not `version` any longer
    /// ```
    ///
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_schema_version>
    public func schemaVersion() throws -> Int32 {
        try Int32.fetchOne(internalCachedStatement(sql: "PRAGMA schema_version")) ?? 0
    }

    /// Whether a table is one of SQLite's internal tables, whose names begin
    /// with `sqlite_` (`sqlite_master`, `sqlite_sequence`, `sqlite_stat1`…)
    /// or `pragma_` (the table-valued functions of pragmas).
    ///
    /// ```swift
    /// Database.isSQLiteInternalTable("sqlite_sequence") // true
    /// Database.isSQLiteInternalTable("player")          // false
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fileformat2.html#intschema>
    public static func isSQLiteInternalTable(_ tableName: String) -> Bool {
        tableName.hasPrefix("sqlite_") || tableName.hasPrefix("pragma_")
    }

    /// Whether a table is one of the toolkit's internal tables, whose names
    /// begin with `grdb_`, as the `grdb_migrations` table of
    /// ``DatabaseMigrator`` (the names GRDB uses, so that databases are
    /// shared between both).
    ///
    /// ```swift
    /// Database.isGRDBInternalTable("grdb_migrations") // true
    /// ```
    public static func isGRDBInternalTable(_ tableName: String) -> Bool {
        tableName.hasPrefix("grdb_")
    }
}
