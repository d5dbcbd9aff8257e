// The region of a request whose filter identifies rows by rowid: an
// observation of `Player.filter(id: 1)` is told about the changes of the
// row 1 only.
//
//     Player.filter(id: 1)                      player(id,name,score)[1]
//     Player.filter(keys: [1, 2])               player(id,name,score)[1,2]
//     Player.filter(Column("id") == 1 || Column("id") == 2)      [1,2]
//     Player.filter(Column("score") > 1000)     player(id,name,score)
//
// Rows are identified by the rowid, or by the INTEGER PRIMARY KEY that is
// an alias of it: a view, a WITHOUT ROWID table, a primary key of another
// type or of several columns, and a unique key, keep the whole table.
// Observers compare the rowids of the changes, before and after each
// update (see `DatabaseRegion.isModified(by:)`).

extension SQLRelation {
    /// The rowids of the rows that the filters of the relation select, or
    /// nil when they are not known: the region of the request is limited
    /// to these rows of its table.
    ///
    /// The filters are joined with AND; a filter identifies rows when it
    /// compares the rowid with values: `rowid = 1`, `1 = rowid`,
    /// `rowid IN (1, 2)`, `rowid IS NULL` (no row), the OR of such
    /// conditions, and an AND where one of them appears. When in doubt,
    /// nil: observing too many rows is safe, observing too few is not.
    ///
    /// The statement of the request must also read the table in its FROM
    /// clause only (see `Statement.isSingleSelect`): a self-join reads
    /// other rows, and gives nil here.
    ///
    /// - Parameter query: The resolved query of the relation, which names
    ///   its tables.
    /// - Throws: The error of a filter, or of the schema introspection.
    func identifiedRowIDs(_ db: Database, query: ResolvedQuery) throws -> Set<Int64>? {
        guard !filters.isEmpty else { return nil }
        // A table joined to itself: its other occurrences read any row.
        if query.nodes.dropFirst().contains(where: { $0.relation.tableName.equalsIgnoringASCIICase(tableName) }) {
            return nil
        }
        let rowIDNames = try db.rowIDNames(ofTable: tableName)
        guard !rowIDNames.isEmpty else { return nil }
        let identifier = RowIDIdentifier(rowIDNames: rowIDNames, tableName: query.root.name, context: query.context)
        var result: Set<Int64>?
        for filter in filters {
            guard let rowIDs = identifier.rowIDs(selectedBy: try filter(db)) else { continue }
            result = result.map { $0.intersection(rowIDs) } ?? rowIDs
        }
        return result
    }
}

/// Finds the rowids that a condition selects, in one table of a query.
private struct RowIDIdentifier {
    /// The lowercased names that denote the rowid of the table.
    let rowIDNames: Set<String>
    /// The name that qualifies the columns of the table in the query.
    let tableName: String
    let context: SQLGenerationContext

    /// The rowids of the rows that `condition` selects; nil when unknown.
    func rowIDs(selectedBy condition: SQLExpression) -> Set<Int64>? {
        switch condition.impl {
        case .value(let dbValue):
            // WHERE NULL and WHERE 0 select nothing.
            switch dbValue.storage {
            case .null: return []
            case .int64(0): return []
            case .double(let double) where double == 0: return []
            default: return nil
            }
        case .literal:
            return condition.isFalseLiteral ? [] : nil
        case .parenthesized(let operand), .collated(let operand, _):
            return rowIDs(selectedBy: operand)
        case let .qualified(qualifier, operand):
            guard qualifiesTable(qualifier) else { return nil }
            return rowIDs(selectedBy: operand)
        case let .associative(op, operands) where op == .and:
            var result: Set<Int64>?
            for operand in operands {
                guard let rowIDs = rowIDs(selectedBy: operand) else { continue }
                result = result.map { $0.intersection(rowIDs) } ?? rowIDs
            }
            return result
        case let .associative(op, operands) where op == .or:
            var result: Set<Int64> = []
            for operand in operands {
                guard let rowIDs = rowIDs(selectedBy: operand) else { return nil }
                result.formUnion(rowIDs)
            }
            return result
        case let .binary(op, lhs, rhs) where op == "=" || op == "==" || op == "IS":
            if isRowID(lhs) { return rowIDs(equalTo: rhs) }
            if isRowID(rhs) { return rowIDs(equalTo: lhs) }
            return nil
        case let .isIn(expression, values, negated: false):
            guard isRowID(expression) else { return nil }
            var result: Set<Int64> = []
            for value in values {
                guard let rowIDs = rowIDs(equalTo: value) else { return nil }
                result.formUnion(rowIDs)
            }
            return result
        default:
            return nil
        }
    }

    /// The rowids equal to a value: none for NULL (a rowid is never NULL)
    /// and for a number that is not an integer; nil for what is not a
    /// number (SQLite converts the text '1' to the rowid 1, for instance).
    private func rowIDs(equalTo expression: SQLExpression) -> Set<Int64>? {
        switch expression.impl {
        case .parenthesized(let operand):
            return rowIDs(equalTo: operand)
        case .value(let dbValue):
            switch dbValue.storage {
            case .null:
                return []
            case .int64(let int64):
                return [int64]
            case .double(let double):
                return Int64(exactly: double).map { [$0] } ?? []
            case .string, .blob:
                return nil
            }
        default:
            return nil
        }
    }

    /// Whether an expression is the rowid of the table.
    private func isRowID(_ expression: SQLExpression) -> Bool {
        switch expression.impl {
        case let .column(name, qualifier):
            guard qualifier.map({ $0.equalsIgnoringASCIICase(tableName) }) ?? true else { return false }
            return rowIDNames.contains(name.lowercased())
        case .rowID(let qualifier):
            guard qualifier.map({ $0.equalsIgnoringASCIICase(tableName) }) ?? true else { return false }
            return rowIDNames.contains("rowid")
        case .parenthesized(let operand), .collated(let operand, _):
            return isRowID(operand)
        case let .qualified(qualifier, operand):
            return qualifiesTable(qualifier) && isRowID(operand)
        default:
            return false
        }
    }

    /// Whether the qualifier of a table alias names the table. A nil name
    /// leaves columns unqualified: the query reads one table only.
    private func qualifiesTable(_ qualifier: @Sendable (SQLGenerationContext) throws -> String?) -> Bool {
        do {
            guard let name = try qualifier(context) else { return true }
            return name.equalsIgnoringASCIICase(tableName)
        } catch {
            return false
        }
    }
}

extension Database {
    /// The lowercased names that denote the rowid of a table: the
    /// INTEGER PRIMARY KEY that is an alias of it, and `rowid`, `oid` and
    /// `_rowid_` unless a column takes the name. Empty for a view, a
    /// `WITHOUT ROWID` table, and a name that is not a table (a common
    /// table expression); kept in the schema cache.
    ///
    /// The schema queries are not part of the region that an observation
    /// records.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createtable.html#rowid>
    ///
    /// - Throws: A ``DatabaseError``.
    func rowIDNames(ofTable tableName: String) throws -> Set<String> {
        try checkSchemaCacheVersion()
        let key = tableName.lowercased()
        if let names = state.schemaCache.rowIDNames[key] { return names }
        let outerRegion = state.recordedRegion
        state.recordedRegion = nil
        defer { state.recordedRegion = outerRegion }
        let names = try uncachedRowIDNames(ofTable: tableName)
        state.schemaCache.rowIDNames[key] = names
        return names
    }

    private func uncachedRowIDNames(ofTable tableName: String) throws -> Set<String> {
        guard try tableExists(tableName) else { return [] }
        let primaryKey = try primaryKey(tableName)
        guard primaryKey.tableHasRowID else { return [] }
        let columnNames = Set(try columns(in: tableName).map { $0.name.lowercased() })
        var names = Set(["rowid", "oid", "_rowid_"]).subtracting(columnNames)
        // An INTEGER PRIMARY KEY declared DESC is not an alias of the rowid,
        // and SQLite gives it an index, as to any other primary key.
        if let column = primaryKey.rowIDColumn,
           try !indexes(on: tableName).contains(where: { $0.origin == .primaryKeyConstraint })
        {
            names.insert(column.lowercased())
        }
        return names
    }
}
