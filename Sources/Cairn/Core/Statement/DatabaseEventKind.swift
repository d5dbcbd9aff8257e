/// A kind of change that a statement may perform, as SQLite's authorizer
/// reports it when the statement is prepared: transaction observers filter
/// the changes they want to hear about with it.
///
/// Changes made by triggers and by foreign key actions are included: they
/// are part of the statement that fires them.
public enum DatabaseEventKind: Hashable, Sendable {
    /// The insertion of rows in a table.
    case insert(tableName: String)

    /// The deletion of rows from a table.
    case delete(tableName: String)

    /// The update of some columns of the rows of a table.
    case update(tableName: String, columnNames: Set<String>)

    /// The table of the change.
    public var tableName: String {
        switch self {
        case .insert(let tableName), .delete(let tableName), .update(let tableName, _):
            return tableName
        }
    }

    /// The region that the change modifies.
    public var modifiedRegion: DatabaseRegion {
        switch self {
        case .insert(let tableName), .delete(let tableName):
            return DatabaseRegion(table: tableName)
        case .update(let tableName, let columnNames):
            return DatabaseRegion(table: tableName, columns: columnNames)
        }
    }
}
