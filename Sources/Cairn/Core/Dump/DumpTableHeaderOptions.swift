/// Whether the dump of tables prints the name of each table before its
/// rows (see ``Database/dumpTables(_:format:tableHeader:stableOrder:to:)``).
///
/// ```swift
/// // player
/// // 1|Arthur|500
/// try db.dumpTables(["player"], tableHeader: .always)
/// ```
public enum DumpTableHeaderOptions: Sendable, Hashable {
    /// The names are printed when there are several tables.
    case automatic

    /// The names are always printed.
    case always
}
