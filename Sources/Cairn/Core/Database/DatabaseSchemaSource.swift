// Schema information that SQLite does not provide, supplied by the
// application: the primary keys of views, so that records can be fetched
// by key from views, and persisted to views that have INSTEAD OF triggers.

/// The schema of a database: `main`, `temp`, or an attached database.
public enum DatabaseSchemaID: Sendable, Hashable {
    /// The main database.
    case main
    /// The database of temporary objects.
    case temp
    /// An attached database, by its name.
    case attached(String)

    /// The name of the schema in SQL: `main`, `temp`, or the name of the
    /// attached database.
    public var name: String {
        switch self {
        case .main: return "main"
        case .temp: return "temp"
        case .attached(let name): return name
        }
    }

    /// The table that lists the objects of the schema, as it is named in
    /// SQL: `sqlite_master`, `sqlite_temp_master`, or
    /// `"name".sqlite_master` for an attached database.
    ///
    /// ```swift
    /// let schemaID = DatabaseSchemaID.attached("archive")
    /// let tables = try String.fetchAll(db, sql: """
    ///     SELECT name FROM \(schemaID.schemaTableName) WHERE type = 'table'
    ///     """)
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/schematab.html>
    public var schemaTableName: String {
        switch self {
        case .main: return "sqlite_master"
        case .temp: return "sqlite_temp_master"
        case .attached(let name): return "\(name.quotedDatabaseIdentifier).sqlite_master"
        }
    }

    /// The schema of a name, compared without regard to case.
    init(name: String) {
        switch name.lowercased() {
        case "main": self = .main
        case "temp": self = .temp
        default: self = .attached(name)
        }
    }
}

/// A table, view, index or trigger of a schema.
public struct DatabaseObjectID: Sendable, Hashable {
    /// The schema of the object.
    public var schemaID: DatabaseSchemaID
    /// The name of the object.
    public var name: String

    /// Creates an identifier.
    ///
    /// ```swift
    /// let view = DatabaseObjectID(name: "playerView", schemaID: .main)
    /// ```
    public init(name: String, schemaID: DatabaseSchemaID) {
        self.schemaID = schemaID
        self.name = name
    }

    /// Creates an identifier (the arguments of
    /// ``init(name:schemaID:)``, in the other order).
    public init(schemaID: DatabaseSchemaID, name: String) {
        self.init(name: name, schemaID: schemaID)
    }
}

/// Schema information that SQLite cannot tell, given by the application in
/// ``Configuration/schemaSource``.
///
/// Views have no primary key in SQLite. A schema source gives them one, so
/// that `Player.fetchOne(db, key: 1)` works when `Player` is mapped on a
/// view, and so that records can be updated and deleted through a view that
/// has INSTEAD OF triggers:
///
/// ```swift
/// struct SchemaSource: DatabaseSchemaSource {
///     func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
///         view.name == "playerView" ? ["id"] : nil
///     }
/// }
///
/// var config = Configuration()
/// config.schemaSource = SchemaSource()
/// ```
public protocol DatabaseSchemaSource: Sendable {
    /// The columns of the primary key of a view, or nil when the source
    /// does not know it (`Database.primaryKey(_:)` then throws, as for any
    /// view). An empty list says that the view has no primary key:
    /// `Database.primaryKey(_:)` throws too, and the sources that follow
    /// in a chain (``then(_:)``) are not asked.
    ///
    /// - Parameters:
    ///   - db: A connection, to query the schema.
    ///   - view: The view.
    /// - Throws: An error that `Database.primaryKey(_:)` throws.
    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]?
}

extension DatabaseSchemaSource {
    /// A schema source that asks this source first, and `other` when this
    /// source does not know.
    ///
    /// ```swift
    /// config.schemaSource = ViewSchemaSource().then(LegacySchemaSource())
    /// ```
    public func then(_ other: some DatabaseSchemaSource) -> some DatabaseSchemaSource {
        ChainedDatabaseSchemaSource(first: self, second: other)
    }
}

/// See ``DatabaseSchemaSource/then(_:)``.
private struct ChainedDatabaseSchemaSource<First: DatabaseSchemaSource, Second: DatabaseSchemaSource>: DatabaseSchemaSource {
    let first: First
    let second: Second

    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        try first.columnsForPrimaryKey(db, inView: view) ?? second.columnsForPrimaryKey(db, inView: view)
    }
}
