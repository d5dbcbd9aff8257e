/// A part of the database: tables, some of their columns, some of their
/// rows, or the full database.
///
/// A region tells which changes may modify the result of a request. Cairn
/// computes the region that a statement reads when it prepares it, from
/// SQLite's authorizer: ``ValueObservation`` and
/// ``DatabaseRegionObservation`` use it to know which transactions they must
/// react to.
///
/// ```swift
/// // Tables and columns read by a request
/// let region = try dbQueue.read { db in
///     try Player.filter(Column("score") > 1000).databaseRegion(db)
/// }
/// print(region) // player(id,name,score)
///
/// // Regions combine
/// let both = DatabaseRegion(table: "player").union(DatabaseRegion(table: "team"))
/// ```
///
/// Table and column names compare without regard to ASCII case, as SQLite
/// compares identifiers.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/set_authorizer.html>
public struct DatabaseRegion: Hashable, Sendable {
    /// The regions of tables, keyed by lowercased table name; nil for the
    /// full database.
    private var tableRegions: [String: TableRegion]?

    /// The region of one table.
    private struct TableRegion: Hashable, Sendable {
        /// The name as first given.
        var tableName: String
        /// Lowercased column names; nil for all columns.
        var columns: Set<String>?
        /// Rowids; nil for all rows.
        var rowIDs: Set<Int64>?
        /// The column names as first given, keyed by lowercased name, for
        /// the description only: they do not take part in equality.
        var columnNames: [String: String] = [:]

        init(tableName: String, columns: Set<String>?, rowIDs: Set<Int64>?, columnNames: [String: String] = [:]) {
            self.tableName = tableName
            self.columns = columns
            self.rowIDs = rowIDs
            self.columnNames = columnNames
        }

        /// A region of some columns, given in any case.
        init(tableName: String, columnsAsGiven: some Sequence<String>) {
            var names: [String: String] = [:]
            for column in columnsAsGiven where names[column.lowercased()] == nil {
                names[column.lowercased()] = column
            }
            self.init(tableName: tableName, columns: Set(names.keys), rowIDs: nil, columnNames: names)
        }

        /// Equal when they have the same columns and rows: the regions of
        /// a region are keyed by lowercased table name, so that the name as
        /// first given does not take part.
        static func == (lhs: TableRegion, rhs: TableRegion) -> Bool {
            lhs.columns == rhs.columns && lhs.rowIDs == rhs.rowIDs
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(columns)
            hasher.combine(rowIDs)
        }

        /// The name of a column as first given.
        func displayName(ofColumn column: String) -> String {
            columnNames[column] ?? column
        }

        func union(_ other: TableRegion) -> TableRegion {
            let columns: Set<String>? = self.columns.flatMap { lhs in other.columns.map { lhs.union($0) } }
            let rowIDs: Set<Int64>? = self.rowIDs.flatMap { lhs in other.rowIDs.map { lhs.union($0) } }
            return TableRegion(tableName: tableName, columns: columns, rowIDs: rowIDs,
                               columnNames: columnNames.merging(other.columnNames) { first, _ in first })
        }

        /// Nil when the intersection is empty.
        func intersection(_ other: TableRegion) -> TableRegion? {
            let columns: Set<String>?
            switch (self.columns, other.columns) {
            case let (lhs?, rhs?): columns = lhs.intersection(rhs)
            case let (lhs?, nil): columns = lhs
            case let (nil, rhs): columns = rhs
            }
            let rowIDs: Set<Int64>?
            switch (self.rowIDs, other.rowIDs) {
            case let (lhs?, rhs?): rowIDs = lhs.intersection(rhs)
            case let (lhs?, nil): rowIDs = lhs
            case let (nil, rhs): rowIDs = rhs
            }
            if columns?.isEmpty == true || rowIDs?.isEmpty == true { return nil }
            return TableRegion(tableName: tableName, columns: columns, rowIDs: rowIDs,
                               columnNames: columnNames.merging(other.columnNames) { first, _ in first })
        }
    }

    /// Whether two regions are the same tables, columns and rows. Table and
    /// column names are compared without regard to ASCII case.
    ///
    /// ```swift
    /// DatabaseRegion(table: "Player") == DatabaseRegion(table: "player") // true
    /// ```
    public static func == (lhs: DatabaseRegion, rhs: DatabaseRegion) -> Bool {
        lhs.tableRegions == rhs.tableRegions
    }

    /// Hashes the tables, columns and rows of the region.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(tableRegions)
    }

    /// The empty region.
    public init() {
        tableRegions = [:]
    }

    private init(tableRegions: [String: TableRegion]?) {
        self.tableRegions = tableRegions
    }

    /// The full database: every table, and also what Cairn cannot track
    /// (a request whose region is unknown observes everything).
    public static let fullDatabase = DatabaseRegion(tableRegions: nil)

    /// A whole table.
    ///
    /// - Parameter table: A table name.
    public init(table: String) {
        tableRegions = [table.lowercased(): TableRegion(tableName: table, columns: nil, rowIDs: nil)]
    }

    /// Some columns of a table.
    ///
    /// - Parameters:
    ///   - table: A table name.
    ///   - columns: Column names.
    public init(table: String, columns: some Sequence<String>) {
        tableRegions = [table.lowercased(): TableRegion(tableName: table, columnsAsGiven: columns)]
    }

    /// Some rows of a table, all columns.
    ///
    /// - Parameters:
    ///   - table: A table name.
    ///   - rowIDs: The rowids of the rows.
    public init(table: String, rowIDs: some Sequence<Int64>) {
        tableRegions = [table.lowercased(): TableRegion(tableName: table, columns: nil, rowIDs: Set(rowIDs))]
    }

    /// Whether the region is empty.
    public var isEmpty: Bool { tableRegions?.isEmpty == true }

    /// Whether the region is the full database.
    public var isFullDatabase: Bool { tableRegions == nil }

    /// The names of the tables of the region, as first given; nil for the
    /// full database.
    public var tableNames: Set<String>? {
        tableRegions.map { Set($0.values.map(\.tableName)) }
    }

    /// The tables of the region, each with its key (see ``tableKey(_:)``),
    /// its name as first given, and its rowids (nil for all rows); nil for
    /// the full database. The observation broker indexes observers by them.
    var tablesAndRowIDs: [(key: String, name: String, rowIDs: Set<Int64>?)]? {
        tableRegions.map { regions in regions.map { ($0.key, $0.value.tableName, $0.value.rowIDs) } }
    }

    /// The union of two regions.
    public func union(_ other: DatabaseRegion) -> DatabaseRegion {
        guard let lhs = tableRegions, let rhs = other.tableRegions else { return .fullDatabase }
        return DatabaseRegion(tableRegions: lhs.merging(rhs) { $0.union($1) })
    }

    /// Adds another region to this one.
    public mutating func formUnion(_ other: DatabaseRegion) {
        self = union(other)
    }

    /// The intersection of two regions.
    public func intersection(_ other: DatabaseRegion) -> DatabaseRegion {
        guard let lhs = tableRegions else { return other }
        guard let rhs = other.tableRegions else { return self }
        var result: [String: TableRegion] = [:]
        for (table, lhsRegion) in lhs {
            if let rhsRegion = rhs[table], let region = lhsRegion.intersection(rhsRegion) {
                result[table] = region
            }
        }
        return DatabaseRegion(tableRegions: result)
    }

    /// Keeps only the part of the region that is also in `other`.
    public mutating func formIntersection(_ other: DatabaseRegion) {
        self = intersection(other)
    }

    /// The key of a table in `tableRegions`: its lowercased name. A name
    /// that is lowercase ASCII already (the usual case) is its own key, with
    /// no new string: transaction observers look a table up for each
    /// statement and each changed row (ObservationBenchmark).
    @inline(__always)
    static func tableKey(_ tableName: String) -> String {
        if tableName.utf8.allSatisfy({ $0 < 0x80 && !(0x41...0x5A).contains($0) }) { return tableName }
        return tableName.lowercased()
    }

    /// Whether changes of this kind can modify the region.
    ///
    /// This does not look at rowids: a change of an observed table may modify
    /// the region. ``isModified(by:)`` tells, for a change that happened.
    public func isModified(byEventsOfKind eventKind: DatabaseEventKind) -> Bool {
        guard let tableRegions else { return true }
        guard let region = tableRegions[Self.tableKey(eventKind.tableName)] else { return false }
        switch eventKind {
        case .insert, .delete:
            return true
        case .update(_, let columnNames):
            guard let columns = region.columns else { return true }
            return columnNames.contains { columns.contains($0.lowercased()) }
        }
    }

    /// Whether a change of the row `rowID`, in the table whose name
    /// `hasTableName` accepts, modified the region (see `isModified(by:)`).
    ///
    /// The names of the region's tables are given to `hasTableName`, which
    /// compares them with SQLite's name of the changed table in place:
    /// regions hold few tables, and building a Swift string of the changed
    /// table, for each observer and each change, cost more
    /// (ObservationBenchmark). SQLite compares table names without regard
    /// to ASCII case, and so does `hasTableName`.
    func isModified(rowID: Int64, ofTableWhere hasTableName: (String) -> Bool) -> Bool {
        guard let tableRegions else { return true }
        for region in tableRegions.values where hasTableName(region.tableName) {
            guard let rowIDs = region.rowIDs else { return true }
            return rowIDs.contains(rowID)
        }
        return false
    }

    /// The region, with the rows of one table limited to `rowIDs`: the
    /// table leaves the region when no row remains. The other tables, and
    /// a region that does not hold the table, are unchanged; so is the
    /// full database.
    ///
    /// ```swift
    /// // player(id,name)[1]
    /// DatabaseRegion(table: "player", columns: ["id", "name"]).restrictingRows(ofTable: "Player", to: [1])
    /// ```
    func restrictingRows(ofTable tableName: String, to rowIDs: Set<Int64>) -> DatabaseRegion {
        guard var tableRegions else { return self }
        let key = tableName.lowercased()
        guard let region = tableRegions[key] else { return self }
        let rows = TableRegion(tableName: region.tableName, columns: nil, rowIDs: rowIDs)
        tableRegions[key] = region.intersection(rows)
        return DatabaseRegion(tableRegions: tableRegions)
    }

    /// Removes the rowids, for a region that must cover whole tables.
    func ignoringRowIDs() -> DatabaseRegion {
        guard let tableRegions else { return self }
        return DatabaseRegion(tableRegions: tableRegions.mapValues { region in
            var region = region
            region.rowIDs = nil
            return region
        })
    }

    /// Removes the internal tables of SQLite (`sqlite_master`…), which
    /// observers are not told about.
    func ignoringInternalTables() -> DatabaseRegion {
        guard let tableRegions else { return self }
        return DatabaseRegion(tableRegions: tableRegions.filter { !$0.key.hasPrefix("sqlite_") })
    }

    /// The region that observers track, as in GRDB: without the internal
    /// tables of SQLite, nor views (a view is observed through the tables
    /// it reads) and names that are no table, and with the names of the
    /// tables as they were created.
    ///
    /// ```swift
    /// // CREATE TABLE player(...); CREATE VIEW ranking AS SELECT ... FROM player
    /// // "Player(*),ranking(*)" is observed as "player(*)"
    /// ```
    ///
    /// - Throws: A ``DatabaseError``.
    func observableRegion(_ db: Database) throws -> DatabaseRegion {
        guard let tableRegions = ignoringInternalTables().tableRegions else { return .fullDatabase }
        var result: [String: TableRegion] = [:]
        for (key, region) in tableRegions {
            guard let tableName = try db.canonicalTableName(region.tableName) else { continue }
            var region = region
            region.tableName = tableName
            result[key] = region
        }
        return DatabaseRegion(tableRegions: result)
    }
}

extension DatabaseRegion: CustomStringConvertible {
    /// A description such as `player(name,score),team(*)`, where `(*)`
    /// stands for all columns and `[1,2]` for some rowids, or
    /// `full database`, or `empty`.
    ///
    /// Tables and columns are sorted by their names as first given, in the
    /// order of their characters (`Team` before `player`, `Height` before
    /// `id`), as GRDB sorts them.
    public var description: String {
        guard let tableRegions else { return "full database" }
        if tableRegions.isEmpty { return "empty" }
        return tableRegions.values.sorted { $0.tableName < $1.tableName }.map { region in
            var description = region.tableName
            if let columns = region.columns {
                description += "(" + columns.map(region.displayName(ofColumn:)).sorted().joined(separator: ",") + ")"
            } else {
                description += "(*)"
            }
            if let rowIDs = region.rowIDs {
                description += "[" + rowIDs.sorted().map(String.init).joined(separator: ",") + "]"
            }
            return description
        }.joined(separator: ",")
    }
}

// MARK: - DatabaseRegionConvertible

/// A type that can tell which part of the database it reads: regions,
/// tables, and requests.
///
/// ```swift
/// let observation = DatabaseRegionObservation(tracking: Player.all(), Table("team"))
/// ```
///
/// Observations compute regions later, on the thread of another database
/// access: conforming types are `Sendable`.
public protocol DatabaseRegionConvertible: Sendable {
    /// The region of the database.
    ///
    /// - Parameter db: A connection, for requests that must be prepared.
    /// - Throws: A ``DatabaseError`` when a request cannot be prepared.
    func databaseRegion(_ db: Database) throws -> DatabaseRegion
}

extension DatabaseRegion: DatabaseRegionConvertible {
    /// The region itself.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion { self }
}

extension DatabaseRegionConvertible where Self == DatabaseRegion {
    /// The full database: every table, and the schema.
    ///
    /// ```swift
    /// let observation = DatabaseRegionObservation(tracking: .fullDatabase)
    /// ```
    public static var fullDatabase: DatabaseRegion { DatabaseRegion.fullDatabase }
}

extension DatabaseCursor {
    /// The region of the database that the statement of the cursor reads.
    public var databaseRegion: DatabaseRegion { statement.databaseRegion }
}

/// A type-erased ``DatabaseRegionConvertible``.
public struct AnyDatabaseRegionConvertible: DatabaseRegionConvertible {
    /// Builds the region, on the thread of the access that asks for it.
    private let makeRegion: @Sendable (Database) throws -> DatabaseRegion

    /// Wraps a region convertible value.
    public init(_ region: some DatabaseRegionConvertible) {
        makeRegion = { db in try region.databaseRegion(db) }
    }

    /// Wraps a function that builds a region. The function is `@Sendable`:
    /// observations call it on the thread of a later database access.
    public init(_ makeRegion: @escaping @Sendable (Database) throws -> DatabaseRegion) {
        self.makeRegion = makeRegion
    }

    /// The region of the wrapped value.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try makeRegion(db)
    }
}
