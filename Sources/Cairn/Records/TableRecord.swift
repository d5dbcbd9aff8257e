import Foundation

/// A type that is stored in a database table.
///
/// ```swift
/// struct Player: TableRecord {
///     // Optional: the default is "player", derived from the type name.
///     static let databaseTableName = "player"
///
///     enum Columns {
///         static let id = Column("id")
///         static let name = Column("name")
///     }
/// }
/// ```
///
/// The table name derives from the type name: `Player` is stored in
/// `player`, `LegacyPlayer` in `legacyPlayer`, `URLRequest` in
/// `urlRequest`.
///
/// Record types that declare a `Columns` type can filter and sort requests
/// with closures: `Player.filter { $0.score > 1000 }`.
public protocol TableRecord {
    /// The type that defines the columns of the table, as static members:
    /// requests give it to their closures (`$0.name`).
    associatedtype Columns = NoColumns

    /// The type of the value that the closures of requests receive
    /// (`Player.filter { $0.score > 1000 }`): the metatype of ``Columns``
    /// by default.
    associatedtype DatabaseComponents = Columns.Type

    /// The value that the closures of requests receive: ``Columns`` by
    /// default.
    static var databaseComponents: DatabaseComponents { get }

    /// The name of the database table.
    static var databaseTableName: String { get }

    /// The columns that requests select by default (all columns by
    /// default).
    ///
    /// ```swift
    /// struct PartialPlayer: TableRecord, FetchableRecord {
    ///     static let databaseTableName = "player"
    ///     static let databaseSelection: [any SQLSelectable] = [Column("id"), Column("name")]
    /// }
    /// ```
    static var databaseSelection: [any SQLSelectable] { get }
}

/// The columns of a record type that declares none.
public enum NoColumns { }

extension TableRecord {
    /// The table name derived from the type name: its leading uppercase
    /// letters lowercased, except the last one when a lowercase letter
    /// follows (`URLRequest` gives `urlRequest`). Generic parameters are
    /// ignored.
    public static var databaseTableName: String {
        // Describing a type is slow: remember the names.
        let key = ObjectIdentifier(Self.self)
        if let name = defaultTableNames.withLock({ $0[key] }) {
            return name
        }
        let name = defaultDatabaseTableName(forTypeName: String(describing: Self.self))
        defaultTableNames.withLock { $0[key] = name }
        return name
    }

    /// All columns.
    public static var databaseSelection: [any SQLSelectable] {
        defaultDatabaseSelection
    }
}

extension TableRecord where DatabaseComponents == Columns.Type {
    /// The record type's ``TableRecord/Columns``.
    public static var databaseComponents: Columns.Type { Columns.self }
}

/// The default selection of records, `[AllColumns()]`, built once: the
/// default `databaseSelection` allocates no array, and code that receives it
/// recognizes it by its storage (see ``selectsAllColumns(_:)``).
///
/// `nonisolated(unsafe)`: the array is never mutated (a copy that a caller
/// mutates gets storage of its own), and `AllColumns` is an empty value.
nonisolated(unsafe) let defaultDatabaseSelection: [any SQLSelectable] = [AllColumns()]

/// Whether a selection is the selection of all columns, `[AllColumns()]`.
///
/// The default selection is recognized by the identity of its storage,
/// without a dynamic cast.
func selectsAllColumns(_ selection: [any SQLSelectable]) -> Bool {
    let isDefault = selection.withUnsafeBufferPointer { buffer in
        defaultDatabaseSelection.withUnsafeBufferPointer { $0.baseAddress == buffer.baseAddress }
    }
    if isDefault { return true }
    return selection.count == 1 && selection[0] is AllColumns
}

/// The default table names of record types.
private let defaultTableNames = Locked<[ObjectIdentifier: String]>([:])

/// Derives a table name from a type name: `Player` → `player`,
/// `URLRequest` → `urlRequest`, `Player<Int>` → `player`.
func defaultDatabaseTableName(forTypeName typeName: String) -> String {
    let name = typeName.prefix { $0 != "<" && $0 != "(" && $0 != " " }
    let uppercasePrefix = name.prefix { $0.isUppercase }
    switch uppercasePrefix.count {
    case 0:
        return String(name)
    case name.count:
        return name.lowercased()
    case 1:
        return uppercasePrefix.lowercased() + name.dropFirst()
    default:
        // Keep the last uppercase letter: it starts the next word.
        return uppercasePrefix.dropLast().lowercased() + name.dropFirst(uppercasePrefix.count - 1)
    }
}
