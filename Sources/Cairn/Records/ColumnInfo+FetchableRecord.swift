// Columns fetched from the table_info pragmas, as records.

/// A column is a record of `PRAGMA table_info` and `PRAGMA table_xinfo`
/// (see ``ColumnInfo/init(row:)``):
///
/// ```swift
/// let columns = try ColumnInfo.fetchAll(db, sql: "PRAGMA table_xinfo(player)")
/// ```
extension ColumnInfo: FetchableRecord { }
