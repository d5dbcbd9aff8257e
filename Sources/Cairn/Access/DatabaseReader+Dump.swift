// Database dumps from readers (see `Core/Dump/Database+Dump.swift`); the
// dump of requests is in `QueryInterface/Request/DatabaseReader+DumpRequest.swift`.

extension DatabaseReader {
    /// Runs SQL statements and prints their rows.
    ///
    /// ```swift
    /// // 1|Arthur|500
    /// // 2|Barbara|1000
    /// try dbQueue.dumpSQL("SELECT * FROM player ORDER BY id")
    /// ```
    ///
    /// The statements run as in ``Database/dumpSQL(_:format:to:)``, in an
    /// ``DatabaseReader/unsafeReentrantRead(_:)`` access: the method can be
    /// called from inside an access to the same database (to debug it), and
    /// the statements of a ``DatabaseQueue`` can write; the connections of a
    /// ``DatabasePool`` that serve reads cannot.
    ///
    /// - Parameters:
    ///   - sql: SQL statements.
    ///   - format: The output format (default ``DumpFormat/debug(header:separator:nullValue:)``).
    ///   - stream: The stream that receives the output; nil (the default)
    ///     prints to the standard output.
    /// - Throws: A ``DatabaseError`` when a statement is invalid or fails,
    ///   or the error of the format.
    public func dumpSQL(
        _ sql: SQL,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil) throws
    {
        try unsafeReentrantRead { db in
            try db.dumpSQL(sql, format: format, to: stream)
        }
    }

    /// Prints the rows of tables or views.
    ///
    /// ```swift
    /// // player
    /// // 1|Arthur|500
    /// //
    /// // team
    /// // 1|Red
    /// try dbQueue.dumpTables(["player", "team"])
    /// ```
    ///
    /// See ``Database/dumpTables(_:format:tableHeader:stableOrder:to:)``.
    /// The tables are read in one transaction, in an
    /// ``DatabaseReader/unsafeReentrantRead(_:)`` access (the method can be
    /// called from inside an access to the same database).
    ///
    /// - Parameters:
    ///   - tables: The names of tables and views, printed in this order.
    ///   - format: The output format (default ``DumpFormat/debug(header:separator:nullValue:)``).
    ///   - tableHeader: Whether the name of each table is printed before
    ///     its rows (default ``DumpTableHeaderOptions/automatic``: when there
    ///     are several tables).
    ///   - stableOrder: Whether the rows of views are sorted (default false).
    ///   - stream: The stream that receives the output; nil (the default)
    ///     prints to the standard output.
    /// - Throws: A ``DatabaseError``, or the error of the format.
    public func dumpTables(
        _ tables: [String],
        format: some DumpFormat = .debug(),
        tableHeader: DumpTableHeaderOptions = .automatic,
        stableOrder: Bool = false,
        to stream: (any TextOutputStream)? = nil) throws
    {
        try unsafeReentrantRead { db in
            try db.isolated {
                try db.dumpTables(tables, format: format, tableHeader: tableHeader, stableOrder: stableOrder, to: stream)
            }
        }
    }

    /// Prints the schema of the database, then the rows of all its tables.
    ///
    /// ```swift
    /// // sqlite_master
    /// // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
    /// //
    /// // player
    /// // 1|Arthur|500
    /// try dbQueue.dumpContent()
    /// ```
    ///
    /// See ``Database/dumpContent(format:to:)``. The database is read in one
    /// transaction, in an ``DatabaseReader/unsafeReentrantRead(_:)`` access
    /// (the method can be called from inside an access to the same
    /// database).
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
        try unsafeReentrantRead { db in
            try db.isolated {
                try db.dumpContent(format: format, to: stream)
            }
        }
    }

    /// Prints the SQL of the schema of the main database.
    ///
    /// ```swift
    /// // sqlite_master
    /// // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
    /// try dbQueue.dumpSchema()
    /// ```
    ///
    /// See ``Database/dumpSchema(to:)``. The schema is read in one
    /// transaction, in an ``DatabaseReader/unsafeReentrantRead(_:)`` access
    /// (the method can be called from inside an access to the same
    /// database).
    ///
    /// - Parameter stream: The stream that receives the output; nil (the
    ///   default) prints to the standard output.
    /// - Throws: A ``DatabaseError``.
    public func dumpSchema(to stream: (any TextOutputStream)? = nil) throws {
        try unsafeReentrantRead { db in
            try db.isolated {
                try db.dumpSchema(to: stream)
            }
        }
    }
}
