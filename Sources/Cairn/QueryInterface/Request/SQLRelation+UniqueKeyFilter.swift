// Requests whose filters pin a unique key fetch one row at most: their
// `fetchOne` needs no `LIMIT 1`.
//
//     SELECT * FROM "player" WHERE "id" = 1
//     SELECT * FROM "player" WHERE "name" = 'Arthur' LIMIT 1

extension SQLRelation {
    /// Whether the filters of the relation compare all the columns of a
    /// unique key of its table with values, joined by AND: `"id" = 1`,
    /// `"id" IS NULL`, `("a" = 1) AND ("b" = 2)`. The relation then has one
    /// row at most (unless joins multiply it).
    ///
    /// A table that cannot be introspected (a common table expression, a
    /// missing table) has no unique key here: the request keeps its
    /// `LIMIT 1`, and its statement reports a missing table.
    ///
    /// - Throws: The error of a filter.
    func filtersUniqueKey(_ db: Database) throws -> Bool {
        guard !filters.isEmpty else { return false }
        if commonTableExpressions.contains(where: { $0.tableName.equalsIgnoringASCIICase(tableName) }) {
            return false
        }
        var columns: Set<String> = []
        for filter in filters {
            SQLRelation.collectPinnedColumns(of: try filter(db), into: &columns)
        }
        guard !columns.isEmpty else { return false }
        return (try? db.table(tableName, hasUniqueKey: columns)) ?? false
    }

    /// Collects the columns that a condition compares with values, in the
    /// operands of AND.
    private static func collectPinnedColumns(of condition: SQLExpression, into columns: inout Set<String>) {
        switch condition.impl {
        case let .associative(op, operands) where op == .and:
            for operand in operands {
                collectPinnedColumns(of: operand, into: &columns)
            }
        case .parenthesized(let operand):
            collectPinnedColumns(of: operand, into: &columns)
        case let .binary(op, lhs, rhs) where op == "=" || op == "IS":
            if let column = pinnedColumn(lhs, comparedTo: rhs) ?? pinnedColumn(rhs, comparedTo: lhs) {
                columns.insert(column.lowercased())
            }
        default:
            break
        }
    }

    /// The name of a column compared with a value, or nil.
    private static func pinnedColumn(_ expression: SQLExpression, comparedTo other: SQLExpression) -> String? {
        guard case .value = other.impl else { return nil }
        switch expression.impl {
        case .column(let name, _): return name
        case .rowID: return "rowid"
        default: return nil
        }
    }
}
