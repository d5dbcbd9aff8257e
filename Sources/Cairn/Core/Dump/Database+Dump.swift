// Database dumps: the rows of SQL statements, tables, and the whole
// database, printed in a ``DumpFormat``, for debugging and tests.

extension Database {
    // MARK: Dumping SQL

    /// Runs SQL statements and prints their rows.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     // 1|Arthur|500
    ///     // 2|Barbara|1000
    ///     try db.dumpSQL("SELECT * FROM player ORDER BY id")
    ///
    ///     // [{"name":"Arthur"},
    ///     // {"name":"Barbara"}]
    ///     try db.dumpSQL("SELECT name FROM player ORDER BY name", format: .json())
    /// }
    /// ```
    ///
    /// The statements are separated by semicolons; each runs before the
    /// next one is prepared, so that a statement can use what an earlier one
    /// created. Statements without rows (`CREATE TABLE`, `INSERT`…) run and
    /// print nothing (the JSON format prints `[]` for a statement that has
    /// columns but no row). Positional arguments of the literal are consumed
    /// statement after statement, as in ``execute(sql:arguments:)``.
    ///
    /// - Parameters:
    ///   - sql: SQL statements. Interpolated values become statement
    ///     arguments.
    ///   - format: The output format (default ``DumpFormat/debug(header:separator:nullValue:)``).
    ///   - stream: The stream that receives the output; nil (the default)
    ///     prints to the standard output. Pass a class instance: the stream
    ///     is copied, so that the writes to a value (a `String`) are lost.
    /// - Throws: A ``DatabaseError`` when a statement is invalid or fails,
    ///   or the error of the format. The rows of the statements that ran
    ///   before are already printed.
    public func dumpSQL(
        _ sql: SQL,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil) throws
    {
        var dumpStream = DumpStream(stream)
        var format = format
        try dumpSQL(sql, format: &format, to: &dumpStream)
    }

    /// Runs SQL statements and prints their rows (see
    /// ``dumpSQL(_:format:to:)``).
    func dumpSQL(_ sqlLiteral: SQL, format: inout some DumpFormat, to stream: inout DumpStream) throws {
        let (sql, arguments) = try sqlLiteral.build(self)
        var remaining = arguments
        var lastStatement: Statement?
        do {
            try forEachStatement(sql: sql) { statement in
                let bindings = try remaining.extractBindings(forStatement: statement, allowingRemainingValues: true)
                try statement.setBindings(bindings, arguments: arguments)
                lastStatement = statement
                try dumpStatement(statement, format: &format, to: &stream)
                return true
            }
        } catch let error as PreparationError {
            throw error.underlyingError
        }
        if !remaining.values.isEmpty {
            throw makeError(
                resultCode: .SQLITE_MISUSE,
                message: "wrong number of statement arguments: \(arguments.values.count)",
                sql: lastStatement?.sql ?? sql, arguments: arguments)
        }
    }

    /// Runs a statement, whose arguments are set, and prints its rows.
    ///
    /// - Throws: A ``DatabaseError`` when the statement fails, or the error
    ///   of the format.
    ///
    /// Each statement is printed by a copy of `format`, as in GRDB: the
    /// changes that a format makes to itself while it prints a statement
    /// are not seen by the next statement, and `format` is left as it is.
    func dumpStatement(_ statement: Statement, format: inout some DumpFormat, to stream: inout DumpStream) throws {
        var statementFormat = format
        let cursor = try Row.fetchCursor(statement)
        while try cursor.next() != nil {
            try statementFormat.writeRow(self, statement: statement, to: &stream)
        }
        statementFormat.finalize(self, statement: statement, to: &stream)
    }

    // MARK: Dumping tables

    /// Prints the rows of tables or views.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     // 1|Arthur|500
    ///     // 2|Barbara|1000
    ///     try db.dumpTables(["player"])
    ///
    ///     // player
    ///     // 1|Arthur|500
    ///     // 2|Barbara|1000
    ///     //
    ///     // team
    ///     // 1|Red
    ///     try db.dumpTables(["player", "team"])
    /// }
    /// ```
    ///
    /// The rows of a table are sorted by primary key (the `rowid` for a
    /// table without explicit primary key). The rows of a view come in the
    /// order of the view, unless `stableOrder` is true: they are then sorted
    /// by the primary key that ``Configuration/schemaSource`` gives for the
    /// view, or else by all columns.
    ///
    /// - Parameters:
    ///   - tables: The names of tables and views, printed in this order.
    ///   - format: The output format (default ``DumpFormat/debug(header:separator:nullValue:)``).
    ///   - tableHeader: Whether the name of each table is printed before
    ///     its rows (default ``DumpTableHeaderOptions/automatic``: when there
    ///     are several tables). Tables are separated by an empty line.
    ///   - stableOrder: Whether the rows of views are sorted (default false).
    ///   - stream: The stream that receives the output; nil (the default)
    ///     prints to the standard output.
    /// - Throws: A ``DatabaseError`` (such as "no such table"), or the error
    ///   of the format.
    public func dumpTables(
        _ tables: [String],
        format: some DumpFormat = .debug(),
        tableHeader: DumpTableHeaderOptions = .automatic,
        stableOrder: Bool = false,
        to stream: (any TextOutputStream)? = nil) throws
    {
        var dumpStream = DumpStream(stream)
        var format = format
        let header: Bool
        switch tableHeader {
        case .automatic: header = tables.count > 1
        case .always: header = true
        }
        try dumpTables(tables, header: header, stableOrder: stableOrder, format: &format, to: &dumpStream)
    }

    /// Prints the rows of tables and views, separated by a line feed (an
    /// empty line after a table whose output ends with a line feed), each
    /// after its name if `header` is true.
    private func dumpTables(
        _ tables: [String],
        header: Bool,
        stableOrder: Bool,
        format: inout some DumpFormat,
        to stream: inout DumpStream) throws
    {
        for (index, table) in tables.enumerated() {
            if index > 0 {
                stream.write("\n")
            }
            try dumpTable(table, header: header, stableOrder: stableOrder, format: &format, to: &stream)
        }
    }

    /// Prints the rows of a table or view, after its name if `header`
    /// is true.
    private func dumpTable(
        _ table: String,
        header: Bool,
        stableOrder: Bool,
        format: inout some DumpFormat,
        to stream: inout DumpStream) throws
    {
        // The name comes first, as in GRDB: a missing table is named before
        // its error is thrown.
        if header {
            stream.write(table + "\n")
        }
        let statement = try makeStatement(sql: dumpSelectSQL(table, stableOrder: stableOrder))
        try dumpStatement(statement, format: &format, to: &stream)
    }

    /// The SQL that selects the rows of a table or view for a dump.
    private func dumpSelectSQL(_ table: String, stableOrder: Bool) throws -> String {
        let select = "SELECT * FROM " + table.quotedDatabaseIdentifier
        guard let schema = try schemaName(ofTable: table, in: nil) else {
            // SQLite reports the missing table.
            return select
        }
        if try viewExists(table, in: schema) {
            guard stableOrder else { return select }
            if let columns = try schemaSourcePrimaryKey(ofView: table) {
                return select + " ORDER BY " + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            }
            // All columns, by position: names may be duplicated.
            let count = try columns(in: table, in: schema).count
            guard count > 0 else { return select }
            return select + " ORDER BY " + (1...count).map { String($0) }.joined(separator: ", ")
        }
        let primaryKey = try primaryKey(table, in: schema)
        if primaryKey.isRowID && primaryKey.columns == ["rowid"] {
            // The hidden rowid, under a name that no column takes.
            let names = Set(try columns(in: table, in: schema).map { $0.name.lowercased() })
            guard let rowID = ["rowid", "_rowid_", "oid"].first(where: { !names.contains($0) }) else {
                return select
            }
            return select + " ORDER BY " + rowID
        }
        return select + " ORDER BY " + primaryKey.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
    }

    // MARK: Dumping the database

    /// Prints the schema of the database, then the rows of all its tables.
    ///
    /// ```swift
    /// // sqlite_master
    /// // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
    /// // CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
    /// //
    /// // player
    /// // 1|Arthur|500
    /// // 2|Barbara|1000
    /// //
    /// // team
    /// // 1|Red
    /// try dbQueue.read { db in
    ///     try db.dumpContent()
    /// }
    /// ```
    ///
    /// The schema is printed as by ``dumpSchema(to:)``. Each table of the
    /// schema follows, with its name, its rows sorted by primary key, and
    /// an empty line before. Views are not printed, and neither are the
    /// tables that ``dumpSchema(to:)`` leaves out.
    ///
    /// - Parameters:
    ///   - format: The output format of rows (default ``DumpFormat/debug(header:separator:nullValue:)``).
    ///   - stream: The stream that receives the output; nil (the default)
    ///     prints to the standard output.
    /// - Throws: A ``DatabaseError``, or the error of the format.
    public func dumpContent(
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil) throws
    {
        var dumpStream = DumpStream(stream)
        var format = format
        let tables = try dumpSchema(to: &dumpStream)
        guard !tables.isEmpty else { return }
        dumpStream.write("\n")
        try dumpTables(tables, header: true, stableOrder: false, format: &format, to: &dumpStream)
    }

    /// Prints the SQL of the schema of the main database: tables, indexes,
    /// triggers and views.
    ///
    /// ```swift
    /// // sqlite_master
    /// // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, teamId INTEGER);
    /// // CREATE INDEX player_on_teamId ON player(teamId);
    /// // CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
    /// try dbQueue.read { db in
    ///     try db.dumpSchema()
    /// }
    /// ```
    ///
    /// The output starts with the `sqlite_master` line, followed by one
    /// statement per schema object, as SQLite stored it, and a semicolon.
    /// Objects are grouped by table, in the alphabetical order of table
    /// names (ignoring case): a table comes first, then its indexes, then
    /// its triggers. A view comes after the `INSTEAD OF` triggers of the
    /// same name. This is the order of GRDB's `dumpContent`.
    ///
    /// SQLite's own tables (`sqlite_sequence`, `sqlite_stat1`…), the shadow
    /// tables of virtual tables (the storage of full-text tables), and the
    /// internal tables of Cairn (names that start with `grdb_`, such as the
    /// table of ``DatabaseMigrator``) are left out. As in GRDB, an object is
    /// left out by its own name only: an index or a trigger that you create
    /// on such a table is printed. Indexes that SQLite creates for
    /// constraints have no SQL, and are left out too.
    ///
    /// - Parameter stream: The stream that receives the output; nil (the
    ///   default) prints to the standard output.
    /// - Throws: A ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/schematab.html>
    public func dumpSchema(to stream: (any TextOutputStream)? = nil) throws {
        var dumpStream = DumpStream(stream)
        _ = try dumpSchema(to: &dumpStream)
    }

    /// Prints the schema, and returns the names of its tables, in the
    /// order of the output.
    private func dumpSchema(to stream: inout DumpStream) throws -> [String] {
        let shadowTables = try Set(Row.fetchAll(self, sql: "PRAGMA main.table_list")
            .filter { row in (row["schema"] as String?) == "main" && (row["type"] as String?) == "shadow" }
            .compactMap { row in (row["name"] as String?)?.lowercased() })
        // Objects are left out by their own name, as in GRDB: the names
        // that start with `sqlite_`, `pragma_` or `grdb_`, and shadow tables.
        func isHidden(_ name: String) -> Bool {
            Database.isSQLiteInternalTable(name) || Database.isGRDBInternalTable(name)
                || shadowTables.contains(name.lowercased())
        }

        // GRDB's order: by table, then tables, indexes, triggers and views
        // (a view comes after the INSTEAD OF triggers of its own name).
        let objects = try Row.fetchAll(self, sql: """
            SELECT type, name, sql FROM main.sqlite_master
            WHERE sql IS NOT NULL
            ORDER BY
              tbl_name COLLATE NOCASE,
              CASE type WHEN 'table' THEN 'a' WHEN 'index' THEN 'aa' ELSE type END,
              name COLLATE NOCASE,
              sql
            """)
        stream.write("sqlite_master\n")
        var tables: [String] = []
        for object in objects {
            let type: String = object["type"]
            let name: String = object["name"]
            let sql: String = object["sql"]
            if isHidden(name) { continue }
            stream.write(sql + ";\n")
            if type == "table" {
                tables.append(name)
            }
        }
        return tables
    }
}
