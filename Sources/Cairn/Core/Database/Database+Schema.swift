import Foundation

// Schema introspection: tables, columns, primary keys, indexes and foreign
// keys, read from sqlite_master and the table_xinfo, table_list,
// index_list, index_info and foreign_key_list pragmas.
//
// The statements are those of GRDB, and so is their cache (see
// `SchemaCache`): `PRAGMA database_list` once, `SELECT type, name,
// tbl_name, sql FROM sqlite_master` once per schema, and each pragma once
// per schema and table, until the schema changes. An unqualified name is
// looked up in each schema in SQLite's order (temp, main, attached
// databases), and the first that holds it answers.

extension Database {
    // MARK: Schemas

    /// The schemas of the connection, in the order SQLite searches them for
    /// an unqualified name: temp (once used), main, then attached
    /// databases.
    ///
    /// - Throws: A ``DatabaseError``.
    private func schemaIdentifiers() throws -> [String] {
        if let names = state.schemaCache.schemaNames { return names }
        // database_list: main (seq 0), temp (seq 1, once used), then
        // attached databases.
        let names = try Row.fetchAll(self, sql: "PRAGMA database_list").map { row -> String in row["name"] }
        let ordered = names.filter { $0 == "temp" } + names.filter { $0 != "temp" }
        state.schemaCache.schemaNames = ordered
        return ordered
    }

    /// The schemas to search, in SQLite's search order: all of them for a
    /// nil `schemaName`, and the one named `schemaName` otherwise.
    ///
    /// - Throws: A ``DatabaseError`` ("no such schema") when `schemaName`
    ///   is not the name of a database of the connection.
    private func schemaNames(searching schemaName: String?) throws -> [String] {
        let names = try schemaIdentifiers()
        guard let schemaName else { return names }
        let lowercasedName = schemaName.lowercased()
        if let name = names.first(where: { $0.lowercased() == lowercasedName }) {
            return [name]
        }
        // The temporary database is not listed before its first use: it
        // is empty.
        guard lowercasedName == "temp" else {
            throw makeError(resultCode: .SQLITE_ERROR, message: "no such schema: \(schemaName)", sql: nil, arguments: nil)
        }
        return ["temp"]
    }

    /// The tables, views and triggers of a schema, read once.
    ///
    /// - Throws: A ``DatabaseError``.
    private func schemaObjects(_ schema: String) throws -> SchemaObjects {
        if let objects = state.schemaCache.schemaObjects[schema] { return objects }
        let masterTable = switch schema.lowercased() {
        case "main": "sqlite_master"
        case "temp": "sqlite_temp_master"
        default: "\(schema.schemaSQL).sqlite_master"
        }
        var objects = SchemaObjects()
        let rows = try Row.fetchCursor(self, sql: "SELECT type, name, tbl_name, sql FROM \(masterTable)")
        while let row = try rows.next() {
            let createdName = try row.decode(String.self, forColumn: "name")
            let name = createdName.lowercased()
            switch try row.decode(String.self, forColumn: "type") {
            case "table":
                objects.tables.insert(name)
                objects.tableNames[name] = createdName
            case "view": objects.views.insert(name)
            case "trigger": objects.triggers.insert(name)
            default: break
            }
        }
        state.schemaCache.schemaObjects[schema] = objects
        return objects
    }

    // MARK: Schema objects

    /// Whether a table exists (in the main, temp or an attached schema).
    ///
    /// ```swift
    /// if try db.tableExists("player") { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The table name (compared without regard to ASCII case).
    ///   - schemaName: A schema name ("main", "temp", or an attached
    ///     database); nil searches the temp schema, then main, then attached
    ///     databases.
    /// - Throws: A ``DatabaseError``.
    public func tableExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try schemaObjectExists(\.tables, name: name, in: schemaName)
    }

    /// The name of a table as it was created, found without regard to
    /// ASCII case in the schemas of the connection, in SQLite's order; nil
    /// when no table has this name (views included).
    ///
    /// - Throws: A ``DatabaseError``.
    func canonicalTableName(_ name: String) throws -> String? {
        try checkSchemaCacheVersion()
        let lowercasedName = name.lowercased()
        for schema in try schemaNames(searching: nil) {
            if let tableName = try schemaObjects(schema).tableNames[lowercasedName] { return tableName }
        }
        return nil
    }

    /// Whether a view exists.
    ///
    /// - Throws: A ``DatabaseError``.
    public func viewExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try schemaObjectExists(\.views, name: name, in: schemaName)
    }

    /// Whether a name is the name of a view, read once per schema.
    ///
    /// - Throws: A ``DatabaseError``.
    func isCachedView(_ name: String) throws -> Bool {
        try checkSchemaCacheVersion()
        let key = name.lowercased()
        if let isView = state.schemaCache.isView[key] { return isView }
        let isView = try viewExists(name)
        state.schemaCache.isView[key] = isView
        return isView
    }

    /// Whether a trigger exists.
    ///
    /// - Throws: A ``DatabaseError``.
    public func triggerExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try schemaObjectExists(\.triggers, name: name, in: schemaName)
    }

    private func schemaObjectExists(
        _ kind: KeyPath<SchemaObjects, Set<String>>, name: String, in schemaName: String?) throws -> Bool
    {
        try checkSchemaCacheVersion()
        let lowercasedName = name.lowercased()
        for schema in try schemaNames(searching: schemaName)
        where try schemaObjects(schema)[keyPath: kind].contains(lowercasedName) {
            return true
        }
        return false
    }

    /// Whether a schema holds a table or a view of this name, SQLite's
    /// tables included.
    private func schema(_ schema: String, holdsTableOrView name: String) throws -> Bool {
        let objects = try schemaObjects(schema)
        let lowercasedName = name.lowercased()
        return objects.tables.contains(lowercasedName) || objects.views.contains(lowercasedName)
            || Self.isUnlistedInternalTable(lowercasedName, schema: schema)
    }

    /// Whether a lowercased name is one of SQLite's tables, which
    /// `sqlite_master` does not list (`sqlite_master`, `sqlite_sequence`…),
    /// looked up in main or an attached schema, or is the
    /// `sqlite_temp_master` of the temp schema.
    private static func isUnlistedInternalTable(_ lowercasedName: String, schema: String) -> Bool {
        schema.lowercased() == "temp"
            ? lowercasedName == "sqlite_temp_master" || lowercasedName == "sqlite_temp_schema"
            : lowercasedName.hasPrefix("sqlite_")
    }

    /// The schema that holds a table or a view, or nil.
    func schemaName(ofTable table: String, in schemaName: String?) throws -> String? {
        try checkSchemaCacheVersion()
        for schema in try schemaNames(searching: schemaName) where try self.schema(schema, holdsTableOrView: table) {
            return schema
        }
        return nil
    }

    private func checkedSchemaName(ofTable table: String, in schemaName: String?) throws -> String {
        guard let schema = try self.schemaName(ofTable: table, in: schemaName) else {
            throw noSuchTable(table)
        }
        return schema
    }

    private func noSuchTable(_ table: String) -> DatabaseError {
        makeError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)", sql: nil, arguments: nil)
    }

    /// The first answer of `lookup` in the schemas to search, in order.
    ///
    /// - Throws: "no such table" when no schema answers, or the error of
    ///   `lookup`.
    private func firstInSchemas<T>(
        of table: String, in schemaName: String?,
        _ lookup: (_ schema: String) throws -> T?) throws -> T
    {
        try checkSchemaCacheVersion()
        for schema in try schemaNames(searching: schemaName) {
            if let result = try lookup(schema) { return result }
        }
        throw noSuchTable(table)
    }

    // MARK: Columns

    /// The columns of a table or view, in order.
    ///
    /// ```swift
    /// let columns = try db.columns(in: "player")
    /// columns.map(\.name) // ["id", "name", "score"]
    /// ```
    ///
    /// Hidden columns of virtual tables are not included; generated columns
    /// are.
    ///
    /// - Throws: A ``DatabaseError`` when the table does not exist.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_table_xinfo>
    public func columns(in tableName: String, in schemaName: String? = nil) throws -> [ColumnInfo] {
        try firstInSchemas(of: tableName, in: schemaName) { schema in
            try columns(in: tableName, schema: schema)
        }
    }

    /// The columns of a table or view of one schema, read once; nil when
    /// the schema does not hold it.
    private func columns(in tableName: String, schema: String) throws -> [ColumnInfo]? {
        let key = SchemaTableKey(schema: schema, table: tableName)
        if let columns = state.schemaCache.columns[key] { return columns }
        let rows = try Row.fetchAll(
            self,
            sql: "PRAGMA \(schema.schemaSQL).table_xinfo(\(tableName.quotedDatabaseIdentifier))")
        let columns = try rows.compactMap { row -> ColumnInfo? in
            let hidden = try row.decode(Int.self, forColumn: "hidden")
            // 1: hidden column of a virtual table.
            guard hidden != 1 else { return nil }
            return try ColumnInfo(
                name: row.decode(forColumn: "name"),
                type: row.decode(forColumn: "type"),
                isNotNull: row.decode(forColumn: "notnull"),
                defaultValueSQL: row.decode(forColumn: "dflt_value"),
                primaryKeyIndex: row.decode(forColumn: "pk"),
                hidden: hidden)
        }
        let result = columns.isEmpty ? nil : columns
        state.schemaCache.columns[key] = .some(result)
        return result
    }

    /// The number of columns that `SELECT table.*` selects (generated
    /// columns included, hidden columns of virtual tables excluded), read
    /// once per schema.
    ///
    /// - Throws: A ``DatabaseError`` when the table does not exist.
    func selectedColumnCount(in tableName: String) throws -> Int {
        try selectedColumnNames(in: tableName).count
    }

    /// The names of the columns that `SELECT table.*` selects, read once
    /// per schema.
    ///
    /// - Throws: A ``DatabaseError`` when the table does not exist.
    func selectedColumnNames(in tableName: String) throws -> [String] {
        try checkSchemaCacheVersion()
        let key = tableName.lowercased()
        if let names = state.schemaCache.selectedColumnNames[key] { return names }
        let names = try columns(in: tableName).map(\.name)
        state.schemaCache.selectedColumnNames[key] = names
        return names
    }

    /// The foreign keys of a table, read once per schema.
    ///
    /// - Throws: A ``DatabaseError`` when the table does not exist.
    func cachedForeignKeys(on tableName: String) throws -> [ForeignKeyInfo] {
        try foreignKeys(on: tableName)
    }

    // MARK: Primary key

    /// The primary key of a table.
    ///
    /// ```swift
    /// let primaryKey = try db.primaryKey("player")
    /// primaryKey.columns     // ["id"]
    /// primaryKey.rowIDColumn // "id" (an INTEGER PRIMARY KEY)
    /// ```
    ///
    /// A table without explicit primary key has the hidden `rowid` primary
    /// key.
    ///
    /// - Throws: A ``DatabaseError`` when the table does not exist, or is a
    ///   view.
    public func primaryKey(_ tableName: String, in schemaName: String? = nil) throws -> PrimaryKeyInfo {
        try checkSchemaCacheVersion()
        let cacheKey = SchemaTableKey(schema: schemaName, table: tableName)
        if let primaryKey = state.schemaCache.primaryKeys[cacheKey] {
            return primaryKey
        }
        let primaryKey = try firstInSchemas(of: tableName, in: schemaName) { schema in
            try uncachedPrimaryKey(tableName, schema: schema)
        }
        state.schemaCache.primaryKeys[cacheKey] = primaryKey
        return primaryKey
    }

    /// The primary key that the schema source in use (``schemaSource``:
    /// the one of ``withSchemaSource(_:execute:)``, or of the
    /// configuration) gives to a view; nil for a table, or a view without
    /// one.
    ///
    /// - Throws: A ``DatabaseError``, or the error of the schema source.
    func schemaSourcePrimaryKey(ofView name: String) throws -> [String]? {
        guard let schemaSource,
              let schema = try schemaName(ofTable: name, in: nil),
              try viewExists(name, in: schema)
        else { return nil }
        let view = DatabaseObjectID(schemaID: DatabaseSchemaID(name: schema), name: name)
        guard let columns = try schemaSource.columnsForPrimaryKey(self, inView: view), !columns.isEmpty else {
            return nil
        }
        return columns
    }

    /// The primary key of a table of one schema; nil when the schema holds
    /// no table or view of this name.
    private func uncachedPrimaryKey(_ tableName: String, schema: String) throws -> PrimaryKeyInfo? {
        let objects = try schemaObjects(schema)
        let lowercasedName = tableName.lowercased()
        if objects.views.contains(lowercasedName) {
            let view = DatabaseObjectID(schemaID: DatabaseSchemaID(name: schema), name: tableName)
            // An empty list of columns, as nil, gives no primary key (GRDB).
            if let columns = try schemaSource?.columnsForPrimaryKey(self, inView: view), !columns.isEmpty {
                return PrimaryKeyInfo(columns: columns, rowIDColumn: nil, isRowID: false, tableHasRowID: false)
            }
            throw makeError(
                resultCode: .SQLITE_ERROR, message: "database view \(tableName) has no primary key",
                sql: nil, arguments: nil)
        }
        guard objects.tables.contains(lowercasedName) || Self.isUnlistedInternalTable(lowercasedName, schema: schema),
              let columns = try columns(in: tableName, schema: schema)
        else { return nil }
        let pkColumns = columns
            .filter { $0.primaryKeyIndex > 0 }
            .sorted { $0.primaryKeyIndex < $1.primaryKeyIndex }
        guard !pkColumns.isEmpty else {
            return .hiddenRowID
        }
        if pkColumns.count == 1,
           let column = pkColumns.first,
           column.type.uppercased() == "INTEGER"
        {
            // INTEGER PRIMARY KEY (the declared type in any case) is an alias
            // of the rowid, and the key is the rowid, as in GRDB. SQLite's
            // exception, "INTEGER PRIMARY KEY DESC", is reported as an alias
            // too, as GRDB does: `PRAGMA table_info` does not tell them apart.
            // GRDB runs no statement more here; a WITHOUT ROWID table, where
            // the column is no alias, is told by preparing a statement, which
            // runs nothing.
            if try tableHasRowIDByPreparing(tableName, in: schema) {
                return PrimaryKeyInfo(columns: [column.name], rowIDColumn: column.name, isRowID: true)
            }
            return PrimaryKeyInfo(columns: [column.name], rowIDColumn: nil, isRowID: false, tableHasRowID: false)
        }
        let hasRowID = try tableHasRowID(tableName, in: schema)
        return PrimaryKeyInfo(columns: pkColumns.map(\.name), rowIDColumn: nil, isRowID: false, tableHasRowID: hasRowID)
    }

    /// Whether a table has a rowid (it is not a WITHOUT ROWID table), as
    /// GRDB tells it: `PRAGMA table_list`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_table_list>
    private func tableHasRowID(_ tableName: String, in schema: String) throws -> Bool {
        let row = try Row.fetchOne(
            self,
            sql: "PRAGMA \(schema.schemaSQL).table_list(\(tableName.quotedDatabaseIdentifier))")
        guard let row else { return try tableHasRowIDByPreparing(tableName, in: schema) }
        return try !row.decode(Bool.self, forColumn: "wr")
    }

    /// Whether a table has a rowid, told by preparing a statement that
    /// selects it (WITHOUT ROWID tables reject it): nothing runs.
    private func tableHasRowIDByPreparing(_ tableName: String, in schema: String) throws -> Bool {
        do {
            _ = try makeStatement(
                sql: "SELECT rowid FROM \(schema.quotedDatabaseIdentifier).\(tableName.quotedDatabaseIdentifier)")
            return true
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            return false
        }
    }

    // MARK: Indexes

    /// The indexes of a table, including those of UNIQUE and PRIMARY KEY
    /// constraints.
    ///
    /// Indexes on expressions (`CREATE INDEX … ON player(length(name))`)
    /// are not included: their keys are not columns.
    ///
    /// - Throws: A ``DatabaseError`` when the table or the schema does not
    ///   exist.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_index_list>
    public func indexes(on tableName: String, in schemaName: String? = nil) throws -> [IndexInfo] {
        try firstInSchemas(of: tableName, in: schemaName) { schema in
            try indexes(on: tableName, schema: schema)
        }
    }

    /// The indexes of a table of one schema, read once; nil when the schema
    /// holds no table or view of this name.
    private func indexes(on tableName: String, schema: String) throws -> [IndexInfo]? {
        let key = SchemaTableKey(schema: schema, table: tableName)
        if let indexes = state.schemaCache.indexes[key] { return indexes }
        let schemaSQL = schema.schemaSQL
        let indexRows = try Row.fetchAll(
            self, sql: "PRAGMA \(schemaSQL).index_list(\(tableName.quotedDatabaseIdentifier))")
        let indexes = try indexRows.compactMap { indexRow -> IndexInfo? in
            let name: String = try indexRow.decode(forColumn: "name")
            let columnRows = try Row.fetchAll(
                self, sql: "PRAGMA \(schemaSQL).index_info(\(name.quotedDatabaseIdentifier))")
            // An expression has no column name.
            let names = try columnRows.map { row in try row.decode(String?.self, forColumn: "name") }
            guard !names.contains(nil) else { return nil }
            let columns = names.compactMap { $0 }
            let originCode: String = try indexRow.decode(forColumn: "origin")
            let origin = IndexInfo.Origin(rawValue: originCode)
            return try IndexInfo(
                name: name,
                columns: columns,
                isUnique: indexRow.decode(forColumn: "unique"),
                origin: origin)
        }
        // index_list does not tell a missing table from a table without
        // index.
        let result = try indexes.isEmpty && !self.schema(schema, holdsTableOrView: tableName) ? nil : indexes
        state.schemaCache.indexes[key] = .some(result)
        return result
    }

    /// Whether a set of columns identifies the rows of a table: it contains
    /// the primary key, the columns of a unique index, or the rowid (of a
    /// table that has one). Column names are compared without regard to
    /// case, and order does not matter.
    ///
    /// ```swift
    /// // CREATE TABLE player (id INTEGER PRIMARY KEY, email TEXT UNIQUE, name TEXT)
    /// try db.table("player", hasUniqueKey: ["email"])         // true
    /// try db.table("player", hasUniqueKey: ["id", "name"])    // true
    /// try db.table("player", hasUniqueKey: ["name"])          // false
    /// ```
    ///
    /// A view has a unique key when the ``Configuration/schemaSource`` gives
    /// it a primary key.
    ///
    /// - Throws: A ``DatabaseError`` when the table does not exist.
    public func table<S: Sequence>(_ tableName: String, hasUniqueKey columns: S) throws -> Bool
    where S.Element == String
    {
        let wanted = Set(columns.map { $0.lowercased() })
        guard !wanted.isEmpty else { return false }
        func isKey(_ key: [String]) -> Bool {
            !key.isEmpty && Set(key.map { $0.lowercased() }).isSubset(of: wanted)
        }
        let schema = try checkedSchemaName(ofTable: tableName, in: nil)
        if try viewExists(tableName, in: schema) {
            let view = DatabaseObjectID(schemaID: DatabaseSchemaID(name: schema), name: tableName)
            guard let key = try schemaSource?.columnsForPrimaryKey(self, inView: view) else {
                return false
            }
            return isKey(key)
        }
        let primaryKey = try self.primaryKey(tableName)
        if isKey(primaryKey.columns) { return true }
        if primaryKey.tableHasRowID {
            // The names of the rowid, unless a column has taken them.
            let columnNames = Set(try self.columns(in: tableName).map { $0.name.lowercased() })
            if !wanted.isDisjoint(with: Set(["rowid", "oid", "_rowid_"]).subtracting(columnNames)) {
                return true
            }
        }
        return try indexes(on: tableName).contains { $0.isUnique && isKey($0.columns) }
    }

    /// The columns of the primary key or unique index of a table made of
    /// the given columns (compared without regard to case and order), in
    /// the order of the key; nil when the columns are not a unique key.
    ///
    /// - Throws: A ``DatabaseError`` when the table does not exist.
    func uniqueKeyColumns<S: Sequence>(_ tableName: String, matching columns: S) throws -> [String]?
    where S.Element == String
    {
        let wanted = Set(columns.map { $0.lowercased() })
        let primaryKey = try self.primaryKey(tableName)
        if Set(primaryKey.columns.map { $0.lowercased() }) == wanted {
            return primaryKey.columns
        }
        return try indexes(on: tableName).first { index in
            index.isUnique && Set(index.columns.map { $0.lowercased() }) == wanted
        }?.columns
    }

    // MARK: Foreign keys

    /// The foreign keys of a table.
    ///
    /// ```swift
    /// // CREATE TABLE book (authorId INTEGER REFERENCES author(id))
    /// let foreignKeys = try db.foreignKeys(on: "book")
    /// foreignKeys[0].destinationTable   // "author"
    /// foreignKeys[0].originColumns      // ["authorId"]
    /// foreignKeys[0].destinationColumns // ["id"]
    /// ```
    ///
    /// When a foreign key does not name the columns it refers to, they are
    /// the primary key of the destination table.
    ///
    /// - Throws: A ``DatabaseError`` when the table does not exist.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_foreign_key_list>
    public func foreignKeys(on tableName: String, in schemaName: String? = nil) throws -> [ForeignKeyInfo] {
        try firstInSchemas(of: tableName, in: schemaName) { schema in
            try foreignKeys(on: tableName, schema: schema)
        }
    }

    /// The foreign keys of a table of one schema, read once; nil when the
    /// schema holds no table or view of this name.
    private func foreignKeys(on tableName: String, schema: String) throws -> [ForeignKeyInfo]? {
        let key = SchemaTableKey(schema: schema, table: tableName)
        if let foreignKeys = state.schemaCache.foreignKeys[key] { return foreignKeys }
        let rows = try Row.fetchAll(
            self, sql: "PRAGMA \(schema.schemaSQL).foreign_key_list(\(tableName.quotedDatabaseIdentifier))")
        var foreignKeys: [ForeignKeyInfo] = []
        for row in rows {
            let id: Int = try row.decode(forColumn: "id")
            let destinationTable: String = try row.decode(forColumn: "table")
            let origin: String = try row.decode(forColumn: "from")
            var destination: String? = try row.decode(forColumn: "to")
            if destination == nil {
                // The destination is the primary key, in order.
                let seq: Int = try row.decode(forColumn: "seq")
                let primaryKey = try self.primaryKey(destinationTable)
                destination = seq < primaryKey.columns.count ? primaryKey.columns[seq] : nil
            }
            let pair = (origin: origin, destination: destination ?? "rowid")
            if let last = foreignKeys.last, last.id == id {
                foreignKeys[foreignKeys.count - 1].mapping.append(pair)
            } else {
                foreignKeys.append(ForeignKeyInfo(id: id, destinationTable: destinationTable, mapping: [pair]))
            }
        }
        // foreign_key_list does not tell a missing table from a table
        // without foreign key.
        let result = try foreignKeys.isEmpty && !self.schema(schema, holdsTableOrView: tableName) ? nil : foreignKeys
        state.schemaCache.foreignKeys[key] = .some(result)
        return result
    }
}

// MARK: - Schema information types

/// A column of a table, as reported by `PRAGMA table_xinfo`.
public struct ColumnInfo: Sendable, Hashable {
    /// The column name.
    public let name: String

    /// The declared type, such as `"INTEGER"` or `"TEXT"`; empty when none
    /// was declared.
    public let type: String

    /// Whether the column has a NOT NULL constraint.
    public let isNotNull: Bool

    /// The SQL of the default value, such as `"0"` or `"'foo'"`, or nil.
    public let defaultValueSQL: String?

    /// The position of the column in the primary key, from 1; 0 when the
    /// column is not in the primary key.
    public let primaryKeyIndex: Int

    /// 0 for a normal column, 2 for a virtual generated column, 3 for a
    /// stored generated column.
    let hidden: Int

    /// Whether the column is a generated column.
    public var isGenerated: Bool { hidden == 2 || hidden == 3 }

    init(name: String, type: String, isNotNull: Bool, defaultValueSQL: String?, primaryKeyIndex: Int, hidden: Int) {
        self.name = name
        self.type = type
        self.isNotNull = isNotNull
        self.defaultValueSQL = defaultValueSQL
        self.primaryKeyIndex = primaryKeyIndex
        self.hidden = hidden
    }

    /// Creates a column from a row of `PRAGMA table_info` or
    /// `PRAGMA table_xinfo`: the columns `name`, `type`, `notnull`,
    /// `dflt_value`, `pk` and, for `table_xinfo`, `hidden`.
    ///
    /// ```swift
    /// let columns = try ColumnInfo.fetchAll(db, sql: "PRAGMA table_info(player)")
    /// ```
    ///
    /// A column missing from the row, or a value of another type, gives the
    /// value of a column without that property: an empty name or type,
    /// false, nil, 0.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_table_xinfo>
    public init(row: Row) {
        self.init(
            // `try?` flattens the optional of a NULL or missing column.
            name: (try? row.decode(String?.self, forColumn: "name")) ?? "",
            type: (try? row.decode(String?.self, forColumn: "type")) ?? "",
            isNotNull: (try? row.decode(Bool?.self, forColumn: "notnull")) ?? false,
            defaultValueSQL: try? row.decode(String?.self, forColumn: "dflt_value"),
            primaryKeyIndex: (try? row.decode(Int?.self, forColumn: "pk")) ?? 0,
            hidden: (try? row.decode(Int?.self, forColumn: "hidden")) ?? 0)
    }
}

/// The primary key of a table.
public struct PrimaryKeyInfo: Sendable, Hashable {
    /// The columns of the primary key, in order.
    public let columns: [String]

    /// The column that is an alias of the rowid (an `INTEGER PRIMARY KEY`),
    /// or nil. It is nil for the hidden `rowid` of a table without explicit
    /// primary key, as in GRDB: no column of the table aliases the rowid.
    public let rowIDColumn: String?

    /// Whether the primary key is the rowid: the hidden `rowid` column, or
    /// the `INTEGER PRIMARY KEY` column that is an alias of it (then
    /// ``rowIDColumn`` names it).
    public let isRowID: Bool

    /// Whether the table has a rowid: false for a `WITHOUT ROWID` table.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/withoutrowid.html>
    public let tableHasRowID: Bool

    init(columns: [String], rowIDColumn: String?, isRowID: Bool, tableHasRowID: Bool = true) {
        self.columns = columns
        self.rowIDColumn = rowIDColumn
        self.isRowID = isRowID
        self.tableHasRowID = tableHasRowID
    }

    /// The hidden `rowid` primary key of a table without explicit primary
    /// key.
    static let hiddenRowID = PrimaryKeyInfo(columns: ["rowid"], rowIDColumn: nil, isRowID: true)
}

/// An index of a table.
public struct IndexInfo: Sendable, Hashable {
    /// Why an index exists: the `origin` column of `PRAGMA index_list`.
    ///
    /// ```swift
    /// let indexes = try db.indexes(on: "player")
    /// let createdIndexes = indexes.filter { $0.origin == .createIndex }
    /// ```
    ///
    /// An origin is a value that can be stored and fetched, as its raw
    /// value (`"c"`, `"u"`, `"pk"`).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_index_list>
    public struct Origin: RawRepresentable, Sendable, Hashable {
        /// The origin as SQLite reports it: `"c"`, `"u"` or `"pk"`.
        public var rawValue: String

        /// Creates an origin from the value that SQLite reports.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// A CREATE INDEX statement (`"c"`).
        public static let createIndex = Origin(rawValue: "c")
        /// A UNIQUE constraint (`"u"`).
        public static let uniqueConstraint = Origin(rawValue: "u")
        /// A PRIMARY KEY constraint (`"pk"`).
        public static let primaryKeyConstraint = Origin(rawValue: "pk")
    }

    /// The index name.
    public let name: String

    /// The indexed columns, in order (an empty name for an expression).
    public let columns: [String]

    /// Whether the index is unique.
    public let isUnique: Bool

    /// Why the index exists.
    public let origin: Origin
}

extension IndexInfo.Origin: DatabaseValueConvertible { }

/// A foreign key of a table.
public struct ForeignKeyInfo: Sendable, Hashable {
    /// The identifier of the foreign key in its table.
    public let id: Int

    /// The table that the foreign key refers to.
    public let destinationTable: String

    /// The (origin, destination) column pairs.
    public internal(set) var mapping: [(origin: String, destination: String)]

    /// The columns of the table that holds the foreign key.
    public var originColumns: [String] { mapping.map(\.origin) }

    /// The columns of the destination table.
    public var destinationColumns: [String] { mapping.map(\.destination) }

    /// Compares identifiers, destinations and mappings.
    public static func == (lhs: ForeignKeyInfo, rhs: ForeignKeyInfo) -> Bool {
        lhs.id == rhs.id && lhs.destinationTable == rhs.destinationTable
            && lhs.originColumns == rhs.originColumns && lhs.destinationColumns == rhs.destinationColumns
    }

    /// Hashes identifiers, destinations and mappings.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(destinationTable)
        hasher.combine(originColumns)
        hasher.combine(destinationColumns)
    }
}

extension String {
    /// The string as an SQL identifier, in double quotes, with inner double
    /// quotes doubled: `"player"`, `"my ""quoted"" table"`.
    ///
    /// ```swift
    /// let table = "player"
    /// try db.execute(sql: "DELETE FROM \(table.quotedDatabaseIdentifier)")
    /// ```
    public var quotedDatabaseIdentifier: String {
        // Fast path: most identifiers contain no double quote.
        if !utf8.contains(UInt8(ascii: "\"")) {
            return "\"" + self + "\""
        }
        return "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension String {
    /// The schema name as GRDB writes it before a pragma or a table name:
    /// `main` and `temp` bare (`temp` is a keyword, which a schema name may
    /// be), other names bare or quoted (``bareOrQuotedDatabaseIdentifier``).
    var schemaSQL: String {
        switch lowercased() {
        case "main", "temp": self
        default: bareOrQuotedDatabaseIdentifier
        }
    }

    /// The string as a bare SQL identifier when it is one (`main`,
    /// `NOCASE`), and quoted otherwise: how GRDB writes schema names in
    /// pragmas (`PRAGMA main.table_xinfo("player")`, whose rows SQLite lists
    /// in the order of their cid, seq, seqno and id) and collation names.
    var bareOrQuotedDatabaseIdentifier: String {
        // A keyword (`order`) is quoted too: bare, it would not parse.
        let isBare = first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
            && allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
            && sqlite3_keyword_check(self, Int32(utf8.count)) == 0
        return isBare ? self : quotedDatabaseIdentifier
    }
}
