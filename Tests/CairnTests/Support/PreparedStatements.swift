import Cairn

/// The SQL of the statements that a connection holds prepared, in the order
/// of `sqlite3_next_stmt`: tests check with it which statements a cache
/// keeps, and that the others were finalized.
func preparedSQL(_ db: Database) -> [String] {
    var result: [String] = []
    var statement = sqlite3_next_stmt(db.sqliteConnection, nil)
    while let current = statement {
        result.append(sqlite3_sql(current).map { String(cString: $0) } ?? "")
        statement = sqlite3_next_stmt(db.sqliteConnection, current)
    }
    return result
}
