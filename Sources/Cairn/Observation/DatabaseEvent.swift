/// The schema and table names of an event: SQLite's strings during the
/// hook call, Swift strings once copied.
private enum EventNames {
    /// Pointers to SQLite's strings, valid while the scope is current: during
    /// the hook call.
    case borrowed(databaseName: UnsafePointer<CChar>, tableName: UnsafePointer<CChar>, scope: ScopeToken)
    case copied(databaseName: String, tableName: String)

    var databaseName: String {
        switch self {
        case .borrowed(let databaseName, _, let scope):
            checkEventScope(scope)
            return String(cString: databaseName)
        case .copied(let databaseName, _):
            return databaseName
        }
    }

    var tableName: String {
        switch self {
        case .borrowed(_, let tableName, let scope):
            checkEventScope(scope)
            return String(cString: tableName)
        case .copied(_, let tableName):
            return tableName
        }
    }

    func hasTableName(_ name: String) -> Bool {
        switch self {
        case .borrowed(_, let tableName, let scope):
            checkEventScope(scope)
            // withCString reads the string in place: passing the string
            // directly would copy it into a new C string.
            return name.withCString { sqlite3_stricmp(tableName, $0) } == 0
        case .copied(_, let tableName):
            return tableName.equalsIgnoringASCIICase(name)
        }
    }
}

/// Stops the program when an event is used after the observer call that
/// received it: SQLite's memory it would read may be gone.
private func checkEventScope(_ scope: ScopeToken) {
    if _slowPath(!scope.isCurrent) {
        stopProgram(
            "A transaction event was used after the observer method that received it returned. "
            + "Events read SQLite's memory during the call: keep event.copy() instead.")
    }
}

/// A change of one row, after it happened: what a
/// ``TransactionObserver`` receives in
/// ``TransactionObserver/databaseDidChange(with:)``.
///
/// During the call to the observer, the event reads SQLite's memory in
/// place: call ``copy()`` to keep it. An event that was not copied stops the
/// program if it is used after the call, rather than read memory that
/// SQLite may have reused. Events are not `Sendable`; their copies can be
/// sent to another task (``copy()`` returns a `sending` value).
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/update_hook.html>
public struct DatabaseEvent {
    /// The kinds of row changes.
    public enum Kind: Int32, Sendable {
        /// An INSERT (`SQLITE_INSERT`).
        case insert = 18
        /// A DELETE (`SQLITE_DELETE`).
        case delete = 9
        /// An UPDATE (`SQLITE_UPDATE`).
        case update = 23
    }

    /// The kind of change.
    public let kind: Kind

    /// The rowid of the changed row.
    public let rowID: Int64

    private let names: EventNames

    /// The name of the database schema of the table (`main`, `temp`, or the
    /// name of an attached database).
    ///
    /// - Precondition: the event was copied, or the observer call that
    ///   received it has not returned.
    public var databaseName: String { names.databaseName }

    /// The name of the changed table.
    ///
    /// - Precondition: the event was copied, or the observer call that
    ///   received it has not returned.
    public var tableName: String { names.tableName }

    init(
        kind: Kind, rowID: Int64,
        databaseName: UnsafePointer<CChar>, tableName: UnsafePointer<CChar>,
        scope: ScopeToken)
    {
        self.kind = kind
        self.rowID = rowID
        self.names = .borrowed(databaseName: databaseName, tableName: tableName, scope: scope)
    }

    /// Creates an event, for tests and for the replay of changes.
    public init(kind: Kind, rowID: Int64, databaseName: String = "main", tableName: String) {
        self.kind = kind
        self.rowID = rowID
        self.names = .copied(databaseName: databaseName, tableName: tableName)
    }

    /// A copy of the event that remains valid after the observer call, and
    /// that can be sent to another task.
    ///
    /// - Precondition: the event was copied, or the observer call that
    ///   received it has not returned.
    public func copy() -> sending DatabaseEvent {
        DatabaseEvent(kind: kind, rowID: rowID, databaseName: databaseName, tableName: tableName)
    }

    /// Whether the event has the table name `name` (compared without regard
    /// to ASCII case), without building a Swift string.
    func hasTableName(_ name: String) -> Bool {
        names.hasTableName(name)
    }
}

extension DatabaseEvent: CustomStringConvertible {
    /// A description such as `insert main.player(1)`.
    public var description: String {
        "\(kind) \(databaseName).\(tableName)(\(rowID))"
    }
}

/// A change of one row, before it happens, with the old and new values of
/// the row: what a ``TransactionObserver`` receives in
/// ``TransactionObserver/databaseWillChange(with:)``.
///
/// During the call to the observer, the event reads the values in SQLite's
/// memory, in place; call ``copy()`` to keep it. An event that was not
/// copied stops the program if it is used after the call. Events are not
/// `Sendable`; their copies can be sent to another task.
///
/// ```swift
/// func databaseWillChange(with event: DatabasePreUpdateEvent) {
///     if event.kind == .update, event.tableName == "player" {
///         let oldScore = event.initialDatabaseValues?[2]
///         let newScore = event.finalDatabaseValues?[2]
///     }
/// }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/preupdate_blobwrite.html>
public struct DatabasePreUpdateEvent {
    /// The kinds of row changes.
    public enum Kind: CInt, Sendable {
        /// An INSERT (`SQLITE_INSERT`).
        case insert = 18
        /// A DELETE (`SQLITE_DELETE`).
        case delete = 9
        /// An UPDATE (`SQLITE_UPDATE`).
        case update = 23

        /// The kind of a change event.
        init(_ kind: DatabaseEvent.Kind) {
            switch kind {
            case .insert: self = .insert
            case .delete: self = .delete
            case .update: self = .update
            }
        }
    }

    /// The kind of change.
    public let kind: Kind

    private let names: EventNames

    /// The name of the database schema of the table.
    ///
    /// - Precondition: the event was copied, or the observer call that
    ///   received it has not returned.
    public var databaseName: String { names.databaseName }

    /// The name of the changed table.
    ///
    /// - Precondition: the event was copied, or the observer call that
    ///   received it has not returned.
    public var tableName: String { names.tableName }

    /// Whether the event has the table name `name` (compared without regard
    /// to ASCII case), without building a Swift string.
    func hasTableName(_ name: String) -> Bool {
        names.hasTableName(name)
    }

    /// The number of columns of the row.
    public let count: Int

    /// The depth of the change: 0 for a change made by the statement itself,
    /// 1 for a change made by a trigger it fired, and so on.
    public let depth: CInt

    /// The rowid of the row before the change; nil for an insert.
    public let initialRowID: Int64?

    /// The rowid of the row after the change; nil for a delete.
    public let finalRowID: Int64?

    private enum Values {
        /// Read from SQLite while the scope is current: during the hook call.
        case live(SQLiteConnection, ScopeToken)
        case copied(initial: [DatabaseValue]?, final: [DatabaseValue]?)
    }

    private let values: Values

    init(
        connection: SQLiteConnection, kind: DatabaseEvent.Kind,
        databaseName: UnsafePointer<CChar>, tableName: UnsafePointer<CChar>,
        initialRowID: Int64, finalRowID: Int64, scope: ScopeToken)
    {
        let kind = Kind(kind)
        self.kind = kind
        self.names = .borrowed(databaseName: databaseName, tableName: tableName, scope: scope)
        self.count = Int(sqlite3_preupdate_count(connection))
        self.depth = sqlite3_preupdate_depth(connection)
        self.initialRowID = kind == .insert ? nil : initialRowID
        self.finalRowID = kind == .delete ? nil : finalRowID
        self.values = .live(connection, scope)
    }

    private init(
        kind: Kind, databaseName: String, tableName: String, count: Int, depth: CInt,
        initialRowID: Int64?, finalRowID: Int64?,
        initialValues: [DatabaseValue]?, finalValues: [DatabaseValue]?)
    {
        self.kind = kind
        self.names = .copied(databaseName: databaseName, tableName: tableName)
        self.count = count
        self.depth = depth
        self.initialRowID = initialRowID
        self.finalRowID = finalRowID
        self.values = .copied(initial: initialValues, final: finalValues)
    }

    /// The values of the row before the change; nil for an insert.
    public var initialDatabaseValues: [DatabaseValue]? {
        guard kind != .insert else { return nil }
        switch values {
        case .live:
            return (0..<count).map { initialDatabaseValue(atIndex: $0) ?? .null }
        case .copied(let initial, _):
            return initial
        }
    }

    /// The values of the row after the change; nil for a delete.
    public var finalDatabaseValues: [DatabaseValue]? {
        guard kind != .delete else { return nil }
        switch values {
        case .live:
            return (0..<count).map { finalDatabaseValue(atIndex: $0) ?? .null }
        case .copied(_, let final):
            return final
        }
    }

    /// The value of a column before the change; nil for an insert, or an
    /// index out of range.
    ///
    /// The corresponding C function is `sqlite3_preupdate_old`.
    public func initialDatabaseValue(atIndex index: Int) -> DatabaseValue? {
        guard kind != .insert, index >= 0, index < count else { return nil }
        switch values {
        case .live(let connection, let scope):
            checkEventScope(scope)
            var value: OpaquePointer?
            guard sqlite3_preupdate_old(connection, CInt(index), &value) == SQLITE_OK, let value else { return nil }
            return DatabaseValue(sqliteValue: value)
        case .copied(let initial, _):
            return initial?[index]
        }
    }

    /// The value of a column after the change; nil for a delete, or an index
    /// out of range.
    ///
    /// The corresponding C function is `sqlite3_preupdate_new`.
    public func finalDatabaseValue(atIndex index: Int) -> DatabaseValue? {
        guard kind != .delete, index >= 0, index < count else { return nil }
        switch values {
        case .live(let connection, let scope):
            checkEventScope(scope)
            var value: OpaquePointer?
            guard sqlite3_preupdate_new(connection, CInt(index), &value) == SQLITE_OK, let value else { return nil }
            return DatabaseValue(sqliteValue: value)
        case .copied(_, let final):
            return final?[index]
        }
    }

    /// A copy of the event that remains valid after the observer call, and
    /// that can be sent to another task.
    ///
    /// - Precondition: the event was copied, or the observer call that
    ///   received it has not returned.
    public func copy() -> sending DatabasePreUpdateEvent {
        DatabasePreUpdateEvent(
            kind: kind, databaseName: databaseName, tableName: tableName, count: count, depth: depth,
            initialRowID: initialRowID, finalRowID: finalRowID,
            initialValues: initialDatabaseValues, finalValues: finalDatabaseValues)
    }
}

extension DatabasePreUpdateEvent: CustomStringConvertible {
    /// A description such as `update main.player(1→1) depth 0`.
    public var description: String {
        let rowIDs = "\(initialRowID.map(String.init) ?? "-")→\(finalRowID.map(String.init) ?? "-")"
        return "\(kind) \(databaseName).\(tableName)(\(rowIDs)) depth \(depth)"
    }
}
