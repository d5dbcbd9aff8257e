// The column types of JSON values: JSON text, or SQLite's binary JSONB.

extension Database.ColumnType {
    /// The type of columns that store JSON text: `TEXT`.
    ///
    /// ```swift
    /// try db.create(table: "player") { t in
    ///     t.column("address", .jsonText) // "address" TEXT
    /// }
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html>
    public static let jsonText = Database.ColumnType(rawValue: "TEXT")

    /// The type of columns that store JSONB, SQLite's binary form of JSON:
    /// `BLOB`.
    ///
    /// ```swift
    /// try db.create(table: "player") { t in
    ///     t.column("address", .jsonb) // "address" BLOB
    /// }
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/json1.html#jsonb>
    public static let jsonb = Database.ColumnType(rawValue: "BLOB")
}
