// Prefetching associated records for `including(all:)`: one extra query
// per association, whatever the number of fetched records.
//
//     SELECT * FROM "author"
//     SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE "authorId" IN (1, 2, 3)
//
// The prefetched rows carry the columns that match them with their parent
// (`grdb_authorId`), and are grouped by their values.

extension SQLRelation {
    /// The largest number of parent keys in one prefetch query: SQLite
    /// limits the number of parameters of a statement.
    static let maximumPrefetchedKeyCount = 10_000

    /// Fetches the prefetched children of the relation, and attaches them
    /// to the rows fetched from it, or to their scopes.
    ///
    /// The prefetch queries start from the rows themselves: the tables
    /// joined between the rows and a prefetched association (included or
    /// not) are joined again by its query, and the keys are columns of the
    /// rows (`grdb_` columns name the columns of the table next to them).
    ///
    /// - Parameters:
    ///   - rows: The fetched rows (copied rows).
    ///   - scopePath: The scope of the rows where this relation's prefetched
    ///     rows are attached (empty for the rows themselves).
    ///   - pivots: The joined tables between the rows and this relation.
    /// - Throws: A ``DatabaseError``.
    func prefetch(_ db: Database, into rows: [Row], scopePath: [String], pivots: [AssociationStep] = []) throws {
        for child in children {
            if child.kind == .prefetch {
                var child = child
                child.prefetchSteps = pivots + child.prefetchSteps!
                try prefetch(db, child: child, into: rows, attachedAt: scopePath)
            } else if child.relation.hasPrefetchedChildren {
                // The joined table is joined again by the prefetch queries,
                // without its selection, ordering and other joins.
                var pivot = child.relation
                pivot.children.removeAll()
                pivot.selection = []
                pivot.ordering = []
                pivot.ordersByPrimaryKey = false
                pivot.isReversed = false
                let step = AssociationStep(key: .fixed(child.key), condition: child.condition, relation: pivot, isToMany: false)
                let hasScope = child.mode == .scope || child.relation.hasScopes
                try child.relation.prefetch(
                    db, into: rows,
                    scopePath: hasScope ? scopePath + [child.key] : scopePath,
                    pivots: pivots + [step])
            }
        }
    }

    /// Whether a child, at any depth, has a scope in the fetched rows.
    var hasScopes: Bool {
        children.contains { $0.kind != .prefetch && ($0.mode == .scope || $0.relation.hasScopes) }
    }

    /// The relation that fetches the rows of a prefetched child, and the
    /// columns that match them with their parent (unqualified names of the
    /// table next to the parent, and the selections that fetch them as
    /// `grdb_` columns).
    private static func prefetchRelation(
        _ child: Child,
        condition: @escaping @Sendable (Database, [(joined: String, parent: String)]) throws -> SQLExpression)
        -> (relation: SQLRelation, pivotAlias: AliasIdentity?)
    {
        var steps = child.prefetchSteps!
        steps[steps.count - 1].relation = child.relation
        let association = _SQLAssociation(steps: steps)
        if steps.count == 1 {
            return (association.reversedRelation(condition: condition), nil)
        }
        // The columns of the pivot next to the parent are selected through
        // an alias of the pivot.
        // The alias of the user, if any, keeps naming the pivot.
        let pivotAlias = association.steps[0].relation.alias ?? AliasIdentity(userName: nil)
        var aliased = association
        aliased.steps[0].relation.alias = pivotAlias
        return (aliased.reversedRelation(condition: condition), pivotAlias)
    }

    private func prefetch(_ db: Database, child: Child, into rows: [Row], attachedAt scopePath: [String]) throws {
        let steps = child.prefetchSteps!
        let pairs = try steps[0].condition.columnPairs(db)

        guard !rows.isEmpty else { return }
        // The rows of one fetch share their columns: the indexes of the
        // parent columns are looked up once.
        let parentIndexes = try pairs.map { pair -> Int in
            guard let index = rows.first?.index(forColumn: pair.parent) else {
                throw db.makeError(
                    resultCode: .SQLITE_MISUSE,
                    message: "including(all: \(child.key)) needs the column \"\(pair.parent)\" "
                        + "in the selection of the request",
                    sql: nil, arguments: nil)
            }
            return index
        }
        let hiddenColumns = pairs.map { "grdb_" + $0.joined }
        let chunkSize = max(1, SQLRelation.maximumPrefetchedKeyCount / max(pairs.count, 1))
        let path = scopePath[...]

        if parentIndexes.count == 1 {
            // One column, the common case: values are the keys, without an
            // array per row. Each distinct key gets a slot, hashed once per
            // parent row and once per prefetched row.
            let parentIndex = parentIndexes[0]
            var slotOfKey: [DatabaseValue: Int] = Dictionary(minimumCapacity: rows.count)
            var parentSlots: [Int] = []
            parentSlots.reserveCapacity(rows.count)
            var distinctKeys: [[DatabaseValue]] = []
            for row in rows {
                let value: DatabaseValue = row[parentIndex]
                // NULL matches nothing, as in SQL.
                if value.isNull {
                    parentSlots.append(-1)
                    continue
                }
                // One hash for a new key; a repeated key (parents that
                // share a key) puts its first slot back.
                let slot = distinctKeys.count
                if let existing = slotOfKey.updateValue(slot, forKey: value) {
                    slotOfKey[value] = existing
                    parentSlots.append(existing)
                } else {
                    parentSlots.append(slot)
                    distinctKeys.append([value])
                }
            }
            var groups = [[Row]](repeating: [], count: distinctKeys.count)
            var start = 0
            while start < distinctKeys.count {
                let chunk = Array(distinctKeys[start..<min(start + chunkSize, distinctKeys.count)])
                start += chunk.count
                let prefetched = try fetchPrefetchedRows(db, child: child, pairs: pairs, keys: chunk)
                guard let keyIndex = prefetched.first?.index(forColumn: hiddenColumns[0]) else { continue }
                for row in prefetched {
                    let key: DatabaseValue = row[keyIndex]
                    if let slot = slotOfKey[key] {
                        groups[slot].append(row)
                    }
                }
            }
            for (row, slot) in zip(rows, parentSlots) {
                var tree = row.prefetchTree ?? PrefetchedRowsTree()
                tree.set(slot < 0 ? [] : groups[slot], forKey: child.key, scopePath: path)
                row.prefetchTree = tree
            }
            return
        }

        // Several columns: arrays of values are the keys.
        var parentKeys: [[DatabaseValue]?] = []
        parentKeys.reserveCapacity(rows.count)
        var distinctKeys: [[DatabaseValue]] = []
        var seen = Set<[DatabaseValue]>()
        for row in rows {
            let values = parentIndexes.map { index -> DatabaseValue in row[index] }
            // NULL matches nothing, as in SQL.
            if values.contains(where: \.isNull) {
                parentKeys.append(nil)
                continue
            }
            parentKeys.append(values)
            if seen.insert(values).inserted {
                distinctKeys.append(values)
            }
        }
        var groups: [[DatabaseValue]: [Row]] = [:]
        var start = 0
        while start < distinctKeys.count {
            let chunk = Array(distinctKeys[start..<min(start + chunkSize, distinctKeys.count)])
            start += chunk.count
            let prefetched = try fetchPrefetchedRows(db, child: child, pairs: pairs, keys: chunk)
            guard let first = prefetched.first else { continue }
            let keyIndexes = hiddenColumns.map { first.index(forColumn: $0) }
            for row in prefetched {
                let key = keyIndexes.map { index -> DatabaseValue in index.map { row[$0] } ?? .null }
                groups[key, default: []].append(row)
            }
        }
        for (row, key) in zip(rows, parentKeys) {
            var tree = row.prefetchTree ?? PrefetchedRowsTree()
            tree.set(key.flatMap { groups[$0] } ?? [], forKey: child.key, scopePath: path)
            row.prefetchTree = tree
        }
    }

    /// Runs one prefetch query, for some parent keys.
    private func fetchPrefetchedRows(
        _ db: Database,
        child: Child,
        pairs: [(joined: String, parent: String)],
        keys: [[DatabaseValue]]) throws -> [Row]
    {
        let (prefetched, extraSelection) = try SQLRelation.prefetchQuery(db, child: child, pairs: pairs, keys: keys)
        let context = SQLGenerationContext(db)
        let query = try ResolvedQuery(prefetched, context)
        let sql = try query.selectSQL(singleResult: false, selection: nil, extraSelection: extraSelection)
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(context.arguments)
        let adapter = try query.rowAdapter(columnCount: statement.columnCount, extraColumnCount: extraSelection.count)
        let rows = try Row.fetchAll(statement, adapter: adapter)
        if !rows.isEmpty && prefetched.hasPrefetchedChildren {
            try prefetched.prefetch(db, into: rows, scopePath: [])
        }
        return rows
    }

    /// The relation of a prefetch query, for some parent keys, and the
    /// `grdb_` columns that it appends to its selection.
    static func prefetchQuery(
        _ db: Database,
        child: Child,
        pairs: [(joined: String, parent: String)],
        keys: [[DatabaseValue]]) throws -> (relation: SQLRelation, extraSelection: [SQLSelection])
    {
        let (relation, pivotAlias) = SQLRelation.prefetchRelation(child) { _, pairs in
            SQLRelation.matching(columns: pairs.map(\.joined), keys: keys)
        }
        var prefetched = relation
        let extraSelection = pairs.map { pair -> SQLSelection in
            let column = pivotAlias.map { $0.column(pair.joined) } ?? SQLRelation.column(pair.joined, qualifier: nil)
            return SQLSelection(impl: .aliased(column, "grdb_" + pair.joined))
        }
        if !prefetched.groupExpressions.isEmpty || prefetched.groupsByPrimaryKey {
            // Groups do not mix the records of several parents.
            let columns = pairs.map { pair in
                pivotAlias.map { $0.column(pair.joined) } ?? SQLRelation.column(pair.joined, qualifier: nil)
            }
            if prefetched.groupExpressions.isEmpty {
                let tableName = prefetched.tableName
                prefetched.groupExpressions = [{ db in try SQLSelection.primaryKeyExpressions(db, tableName: tableName) }]
            }
            prefetched.groupExpressions.append { _ in columns }
        }
        if prefetched.limit != nil {
            throw db.makeError(
                resultCode: .SQLITE_MISUSE,
                message: "including(all: \(child.key)) does not support a limit on the association",
                sql: nil, arguments: nil)
        }
        return (prefetched, extraSelection)
    }

    /// `"a" IN (?, ?)`, or `("a", "b") IN (VALUES (?, ?), (?, ?))` for
    /// several columns, with unqualified columns.
    static func matching(columns: [String], keys: [[DatabaseValue]]) -> SQLExpression {
        if columns.count == 1 {
            return SQLExpression(impl: .isIn(
                SQLRelation.column(columns[0], qualifier: nil),
                keys.map { .value($0[0]) }, negated: false))
        }
        return .literal(SQL(elements: [.deferred { context in
            let columnsSQL = try columns.map { try SQLRelation.column($0, qualifier: nil).sql(context) }
            let rowsSQL = keys.map { key in
                "(" + key.map { context.append(argument: $0) }.joined(separator: ", ") + ")"
            }
            return "(" + columnsSQL.joined(separator: ", ") + ") IN (VALUES " + rowsSQL.joined(separator: ", ") + ")"
        }]))
    }

    /// Adds the region of the prefetch queries of the relation.
    func formPrefetchRegion(_ db: Database, into region: inout DatabaseRegion) throws {
        for child in children {
            if child.kind == .prefetch {
                // An association that selects nothing reads nothing.
                if child.relation.selectsNothing { continue }
                // The query for any parent key: the region does not depend
                // on the parent rows.
                let pairs = try child.prefetchSteps![0].condition.columnPairs(db)
                let (relation, extraSelection) = try SQLRelation.prefetchQuery(
                    db, child: child, pairs: pairs, keys: [pairs.map { _ in .null }])
                let context = SQLGenerationContext(db)
                let sql = try relation.selectSQL(context, extraSelection: extraSelection)
                let statement = try db.cachedStatement(sql: sql)
                region.formUnion(statement.databaseRegion)
                try relation.formPrefetchRegion(db, into: &region)
            } else {
                try child.relation.formPrefetchRegion(db, into: &region)
            }
        }
    }
}
