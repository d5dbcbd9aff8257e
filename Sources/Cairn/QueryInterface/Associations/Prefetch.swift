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

    /// The largest number of parent keys in one prefetch query by several
    /// columns: the keys are written `((a = ?) AND (b = ?)) OR …`, as in
    /// GRDB, and SQLite limits the depth of an expression (1,000 by
    /// default), which each `OR` deepens.
    static let maximumPrefetchedCompoundKeyCount = 400

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
    ///   - observer: Sees the prefetch queries (support for
    ///     `Database.dumpRequest(_:format:to:)`).
    /// - Throws: A ``DatabaseError``, or the error of the observer.
    func prefetch(
        _ db: Database,
        into rows: [Row],
        scopePath: [String],
        pivots: [AssociationStep] = [],
        observer: PrefetchObserver? = nil) throws
    {
        for child in children {
            if child.kind == .prefetch {
                var child = child
                child.prefetchSteps = pivots + child.prefetchSteps!
                try prefetch(db, child: child, into: rows, attachedAt: scopePath, observer: observer)
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
                    pivots: pivots + [step],
                    observer: observer)
            }
        }
    }

    /// Adds a prefetched child (`including(all:)`), or merges it with the
    /// child of the same key.
    ///
    /// As in GRDB, prefetched associations that go through pivots of the
    /// same key share them: the filters of such a pivot apply to all of
    /// them, at each step that they share from the origin.
    ///
    /// ```swift
    /// // Both queries join "team" ON … AND ("name" = 'a') AND ("name" <> 'a')
    /// Player
    ///     .including(all: Player.hasMany(Coach.self, through: Player.team.filter(name == "a"), …).forKey("a"))
    ///     .including(all: Player.hasMany(Coach.self, through: Player.team.filter(name != "a"), …).forKey("b"))
    /// ```
    mutating func addPrefetched(_ child: Child) {
        var child = child
        if var steps = child.prefetchSteps, steps.count > 1 {
            var sharing = children.indices.filter { (children[$0].prefetchSteps?.count ?? 0) > 1 }
            for level in 0..<(steps.count - 1) {
                let step = steps[level]
                sharing = sharing.filter { index in
                    let other = children[index].prefetchSteps!
                    return level < other.count - 1
                        && other[level].keyName(plural: false) == step.keyName(plural: false)
                        && other[level].relation.tableName == step.relation.tableName
                        && other[level].condition.identity == step.condition.identity
                }
                guard let first = sharing.first else { break }
                // The children that share the pivot already share its filters.
                let filters = children[first].prefetchSteps![level].relation.filters + step.relation.filters
                steps[level].relation.filters = filters
                for index in sharing {
                    children[index].prefetchSteps![level].relation.filters = filters
                }
            }
            child.prefetchSteps = steps
        }
        add(child)
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

    /// Fetches the rows of one prefetched child, for all parent rows, and
    /// attaches them to the parent rows at `scopePath`.
    private func prefetch(
        _ db: Database,
        child: Child,
        into rows: [Row],
        attachedAt scopePath: [String],
        observer: PrefetchObserver?) throws
    {
        // The observer of the prefetched rows sees their key path.
        let observer = observer.map { observer in
            var observer = observer
            observer.keyPath += scopePath + [child.key]
            return observer
        }
        let pairs = try child.prefetchSteps![0].condition.columnPairs(db)
        guard let firstRow = rows.first else { return }
        // The rows of one fetch share their columns: the indexes of the
        // parent columns are looked up once.
        let parentIndexes = try pairs.map { pair -> Int in
            guard let index = firstRow.index(forColumn: pair.parent) else {
                throw db.makeError(
                    resultCode: .SQLITE_MISUSE,
                    message: "including(all: \(child.key)) needs the column \"\(pair.parent)\" "
                        + "in the selection of the request",
                    sql: nil, arguments: nil)
            }
            return index
        }
        let query = PrefetchQuery(child: child, pairs: pairs, observer: observer)
        if parentIndexes.count == 1 {
            try prefetch(db, query, parentIndex: parentIndexes[0], into: rows, attachedAt: scopePath[...])
        } else {
            try prefetch(db, query, parentIndexes: parentIndexes, into: rows, attachedAt: scopePath[...])
        }
    }

    /// The prefetch queries of one child: what they fetch, and how many
    /// keys each one takes.
    private struct PrefetchQuery {
        let child: Child
        let pairs: [(joined: String, parent: String)]
        let observer: PrefetchObserver?
        /// The `grdb_` columns that hold the keys of the prefetched rows.
        let hiddenColumns: [String]
        /// The number of parent keys of one query.
        let chunkSize: Int

        init(child: Child, pairs: [(joined: String, parent: String)], observer: PrefetchObserver?) {
            self.child = child
            self.pairs = pairs
            self.observer = observer
            hiddenColumns = pairs.map { "grdb_" + $0.joined }
            chunkSize = pairs.count > 1 ? SQLRelation.maximumPrefetchedCompoundKeyCount : SQLRelation.maximumPrefetchedKeyCount
        }

        /// Runs one query, for some parent keys.
        func fetch(_ db: Database, keys: [[DatabaseValue]], asValues: Bool) throws -> FetchedRows {
            try SQLRelation.fetchPrefetchedRows(
                db, child: child, pairs: pairs, keys: keys, asValues: asValues, observer: observer)
        }
    }

    /// Prefetches by one column, the common case: values are the keys,
    /// without an array per row. Each distinct key gets a slot, hashed once
    /// per parent row and once per prefetched row.
    private func prefetch(
        _ db: Database,
        _ query: PrefetchQuery,
        parentIndex: Int,
        into rows: [Row],
        attachedAt path: ArraySlice<String>) throws
    {
        let (parentSlots, distinctKeys, lookup) = Self.slots(of: rows, parentIndex: parentIndex)
        // The prefetched rows of each slot.
        var groups = [PrefetchedRows](repeating: .empty, count: distinctKeys.count)
        var start = 0
        while start < distinctKeys.count {
            let slots = start..<min(start + query.chunkSize, distinctKeys.count)
            start = slots.upperBound
            switch try query.fetch(db, keys: Array(distinctKeys[slots]), asValues: true) {
            case .rows(let prefetched):
                Self.group(prefetched, keyColumn: query.hiddenColumns[0], lookup: lookup, slots: slots, into: &groups)
            case .values(let values):
                try Self.group(
                    db, values, keyColumn: query.hiddenColumns[0], lookup: lookup, slots: slots,
                    child: query.child, into: &groups)
            }
        }
        for (row, slot) in zip(rows, parentSlots) {
            var tree = row.prefetchTree ?? PrefetchedRowsTree()
            tree.set(slot < 0 ? .empty : groups[slot], forKey: query.child.key, scopePath: path)
            row.prefetchTree = tree
        }
    }

    /// The slot of the key of each parent row (-1 for NULL, which matches
    /// nothing, as in SQL), the distinct keys in the order of their slots,
    /// and the lookup of the slots of the keys.
    private static func slots(
        of rows: [Row],
        parentIndex: Int) -> (parentSlots: [Int], distinctKeys: [[DatabaseValue]], lookup: SlotLookup)
    {
        var slotOfKey: [DatabaseValue: Int] = Dictionary(minimumCapacity: rows.count)
        var parentSlots: [Int] = []
        parentSlots.reserveCapacity(rows.count)
        var distinctKeys: [[DatabaseValue]] = []
        for row in rows {
            let value: DatabaseValue = row[parentIndex]
            if value.isNull {
                parentSlots.append(-1)
                continue
            }
            // One hash for a new key; a repeated key (parents that share a
            // key) puts its first slot back.
            let slot = distinctKeys.count
            if let existing = slotOfKey.updateValue(slot, forKey: value) {
                slotOfKey[value] = existing
                parentSlots.append(existing)
            } else {
                parentSlots.append(slot)
                distinctKeys.append([value])
            }
        }
        // The query lists the keys in SQLite's order, as GRDB does
        // (`IN (1, 2, 3)` for parents ordered by descending ids): the slots
        // follow, which costs one pass over keys that are already sorted.
        if !distinctKeys.indices.dropFirst().allSatisfy({ sortsBefore(distinctKeys[$0 - 1][0], distinctKeys[$0][0]) }) {
            let order = distinctKeys.indices.sorted { sortsBefore(distinctKeys[$0][0], distinctKeys[$1][0]) }
            var newSlot = [Int](repeating: 0, count: order.count)
            for (slot, oldSlot) in order.enumerated() {
                newSlot[oldSlot] = slot
            }
            distinctKeys = order.map { distinctKeys[$0] }
            for index in parentSlots.indices where parentSlots[index] >= 0 {
                parentSlots[index] = newSlot[parentSlots[index]]
            }
            for (key, slot) in slotOfKey {
                slotOfKey[key] = newSlot[slot]
            }
        }
        return (parentSlots, distinctKeys, SlotLookup(slotOfKey, distinctKeys: distinctKeys))
    }

    /// Whether `lhs` comes before `rhs` in the order of SQLite without
    /// collation: NULL, numbers, text (by UTF-8 bytes), blobs.
    private static func sortsBefore(_ lhs: DatabaseValue, _ rhs: DatabaseValue) -> Bool {
        func rank(_ storage: DatabaseValue.Storage) -> Int {
            switch storage {
            case .null: 0
            case .int64, .double: 1
            case .string: 2
            case .blob: 3
            }
        }
        switch (lhs.storage, rhs.storage) {
        case let (.int64(lhs), .int64(rhs)):
            return lhs < rhs
        case let (.double(lhs), .double(rhs)):
            return lhs < rhs
        case let (.int64(lhs), .double(rhs)):
            return Double(lhs) < rhs
        case let (.double(lhs), .int64(rhs)):
            return lhs < Double(rhs)
        case let (.string(lhs), .string(rhs)):
            return lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
        case let (.blob(lhs), .blob(rhs)):
            return lhs.lexicographicallyPrecedes(rhs)
        case let (lhs, rhs):
            return rank(lhs) < rank(rhs)
        }
    }

    /// Groups the prefetched rows of one query by the slots of their keys.
    private static func group(
        _ prefetched: [Row],
        keyColumn: String,
        lookup: SlotLookup,
        slots: Range<Int>,
        into groups: inout [PrefetchedRows])
    {
        guard let keyIndex = prefetched.first?.index(forColumn: keyColumn) else { return }
        var rowGroups = [[Row]](repeating: [], count: slots.count)
        for row in prefetched {
            let key: DatabaseValue = row[keyIndex]
            // A key of another chunk (SQL may match a key of another type,
            // '1' for 1): that chunk has the row.
            if let slot = lookup.slot(of: key), slots.contains(slot) {
                rowGroups[slot - slots.lowerBound].append(row)
            }
        }
        for (offset, group) in rowGroups.enumerated() {
            groups[slots.lowerBound + offset] = PrefetchedRows(.rows(group))
        }
    }

    /// Groups the prefetched values of one query by the slots of their
    /// keys: the slot of each row, then the rows in the order of their
    /// slots (a counting sort, which keeps the order of the query within a
    /// slot). 32-bit numbers keep the arrays small.
    private static func group(
        _ db: Database,
        _ values: PrefetchedValues,
        keyColumn: String,
        lookup: SlotLookup,
        slots: Range<Int>,
        child: Child,
        into groups: inout [PrefetchedRows]) throws
    {
        guard values.rowCount > 0,
              let keyIndex = values.columnNames.firstIndex(where: { $0.equalsIgnoringASCIICase(keyColumn) })
        else { return }
        guard values.rowCount <= Int(Int32.max) else {
            throw db.makeError(
                resultCode: .SQLITE_TOOBIG,
                message: "including(all: \(child.key)) fetched \(values.rowCount) rows in one query: "
                    + "the limit is \(Int32.max)",
                sql: nil, arguments: nil)
        }
        var rowSlots: [Int32] = []
        rowSlots.reserveCapacity(values.rowCount)
        var counts = [Int](repeating: 0, count: slots.count)
        for rowIndex in 0..<values.rowCount {
            if let slot = lookup.slot(of: values.value(row: rowIndex, column: keyIndex)), slots.contains(slot) {
                let local = slot - slots.lowerBound
                rowSlots.append(Int32(truncatingIfNeeded: local))
                counts[local] += 1
            } else {
                rowSlots.append(-1)
            }
        }
        var starts: [Int] = []
        starts.reserveCapacity(slots.count)
        var total = 0
        for count in counts {
            starts.append(total)
            total += count
        }
        var order = [Int32](repeating: 0, count: total)
        var next = starts
        for (rowIndex, local) in rowSlots.enumerated() where local >= 0 {
            order[next[Int(local)]] = Int32(truncatingIfNeeded: rowIndex)
            next[Int(local)] += 1
        }
        let set = PrefetchedRowSet(values: values, order: order)
        for local in 0..<slots.count {
            groups[slots.lowerBound + local] = PrefetchedRows(.set(set, starts[local]..<(starts[local] + counts[local])))
        }
    }

    /// Prefetches by several columns: arrays of values are the keys.
    private func prefetch(
        _ db: Database,
        _ query: PrefetchQuery,
        parentIndexes: [Int],
        into rows: [Row],
        attachedAt path: ArraySlice<String>) throws
    {
        var parentKeys: [[DatabaseValue]?] = []
        parentKeys.reserveCapacity(rows.count)
        for row in rows {
            let values = parentIndexes.map { index -> DatabaseValue in row[index] }
            // NULL matches nothing, as in SQL.
            parentKeys.append(values.contains(where: \.isNull) ? nil : values)
        }
        // As in GRDB, the query lists the key of each parent row, in the
        // order of the rows, repeated keys included. A key that an earlier
        // query fetched is not fetched again.
        let queryKeys = parentKeys.compactMap { $0 }
        var fetchedKeys = Set<[DatabaseValue]>()
        var groups: [[DatabaseValue]: [Row]] = [:]
        var start = 0
        while start < queryKeys.count {
            let end = min(start + query.chunkSize, queryKeys.count)
            let chunk = queryKeys[start..<end].filter { !fetchedKeys.contains($0) }
            start = end
            if chunk.isEmpty { continue }
            fetchedKeys.formUnion(chunk)
            let prefetched = try query.fetch(db, keys: chunk, asValues: false).rows
            guard let first = prefetched.first else { continue }
            let keyIndexes = query.hiddenColumns.map { first.index(forColumn: $0) }
            for row in prefetched {
                let key = keyIndexes.map { index -> DatabaseValue in index.map { row[$0] } ?? .null }
                groups[key, default: []].append(row)
            }
        }
        for (row, key) in zip(rows, parentKeys) {
            var tree = row.prefetchTree ?? PrefetchedRowsTree()
            tree.set(PrefetchedRows(.rows(key.flatMap { groups[$0] } ?? [])), forKey: query.child.key, scopePath: path)
            row.prefetchTree = tree
        }
    }

    /// Finds the slot of the key of a prefetched row, among the distinct
    /// keys of the parent rows: in an array indexed by the key when the
    /// keys are integers of a narrow range (ids, most of the time), in a
    /// dictionary otherwise. Both find what `DatabaseValue` equality finds.
    private struct SlotLookup {
        private let dictionary: [DatabaseValue: Int]
        /// The smallest key, and the slot of each key from it (-1 for none).
        private let dense: (minimum: Int64, slots: [Int])?

        init(_ dictionary: [DatabaseValue: Int], distinctKeys: [[DatabaseValue]]) {
            self.dictionary = dictionary
            var minimum = Int64.max, maximum = Int64.min
            for key in distinctKeys {
                guard case .int64(let value) = key[0].storage else {
                    dense = nil
                    return
                }
                minimum = min(minimum, value)
                maximum = max(maximum, value)
            }
            // At most four array entries per key (and a few more for small
            // sets): beyond, the dictionary.
            let (span, overflow) = maximum.subtractingReportingOverflow(minimum)
            guard !distinctKeys.isEmpty, !overflow, span < 4 * Int64(distinctKeys.count) + 64 else {
                dense = nil
                return
            }
            var slots = [Int](repeating: -1, count: Int(span) + 1)
            for (slot, key) in distinctKeys.enumerated() {
                if case .int64(let value) = key[0].storage {
                    slots[Int(value - minimum)] = slot
                }
            }
            dense = (minimum, slots)
        }

        /// The slot of a key, or nil when no parent has it.
        @inline(__always)
        func slot(of key: DatabaseValue) -> Int? {
            guard let dense else { return dictionary[key] }
            let value: Int64
            switch key.storage {
            case .int64(let int64):
                value = int64
            case .double(let double):
                // A double equals the integer it represents exactly.
                guard let int64 = Int64(exactly: double) else { return nil }
                value = int64
            default:
                // NULL, text and blobs equal no integer.
                return nil
            }
            let (offset, overflow) = value.subtractingReportingOverflow(dense.minimum)
            guard !overflow, offset >= 0, offset < Int64(dense.slots.count) else { return nil }
            let slot = dense.slots[Int(offset)]
            return slot < 0 ? nil : slot
        }
    }

    /// The rows of one prefetch query.
    private enum FetchedRows {
        /// Rows with scopes or prefetched rows of their own.
        case rows([Row])
        /// Plain rows, as their values.
        case values(PrefetchedValues)

        /// The rows, one object each.
        var rows: [Row] {
            switch self {
            case .rows(let rows):
                return rows
            case .values(let values):
                return (0..<values.rowCount).map(values.makeRow)
            }
        }
    }

    /// Runs one prefetch query, for some parent keys.
    ///
    /// - Parameters:
    ///   - asValues: Whether plain rows (no scope, no prefetched rows of
    ///     their own) are returned as values rather than as rows.
    ///   - observer: Sees the query, without the `grdb_` columns that match
    ///     rows with their parents, before it runs.
    private static func fetchPrefetchedRows(
        _ db: Database,
        child: Child,
        pairs: [(joined: String, parent: String)],
        keys: [[DatabaseValue]],
        asValues: Bool = true,
        observer: PrefetchObserver? = nil) throws -> FetchedRows
    {
        let (prefetched, extraSelection) = try SQLRelation.prefetchQuery(db, child: child, pairs: pairs, keys: keys)
        if let observer {
            let observedContext = SQLGenerationContext(db)
            let observedSQL = try ResolvedQuery(prefetched, observedContext)
                .selectSQL(singleResult: false, selection: nil, extraSelection: [])
            let observedStatement = try db.makeStatement(sql: observedSQL)
            try observedStatement.setArguments(observedContext.arguments)
            try observer.willFetch(db, observedStatement, observer.keyPath)
        }
        let context = SQLGenerationContext(db)
        let query = try ResolvedQuery(prefetched, context)
        let sql = try query.selectSQL(singleResult: false, selection: nil, extraSelection: extraSelection)
        let statement = try db.generatedStatement(sql: sql)
        try statement.setArguments(context.arguments)
        let adapter = try query.rowAdapter(columnCount: statement.columnCount, extraColumnCount: extraSelection.count)
        if asValues && adapter == nil && !prefetched.hasPrefetchedChildren {
            return try .values(PrefetchedValues.fetch(statement))
        }
        let rows = try Row.fetchAll(statement, adapter: adapter)
        if !rows.isEmpty && prefetched.hasPrefetchedChildren {
            try prefetched.prefetch(db, into: rows, scopePath: [], observer: observer)
        }
        return .rows(rows)
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

    /// `"a" IN (?, ?)`, or `(("a" = ?) AND ("b" = ?)) OR (("a" = ?) AND
    /// ("b" = ?))` for several columns, as GRDB writes them, with
    /// unqualified columns. The conditions of several columns stay one
    /// operand of the conditions around them, never merged with them:
    /// `("name" = ?) AND (("a" = ?) AND ("b" = ?))`.
    static func matching(columns: [String], keys: [[DatabaseValue]]) -> SQLExpression {
        if columns.count == 1 {
            return SQLExpression(impl: .isIn(
                SQLRelation.column(columns[0], qualifier: nil),
                keys.map { .value($0[0]) }, negated: false))
        }
        return .literal(SQL(elements: [.deferred { context in
            let terms = keys.map { key in
                SQLExpression(impl: .associative(.and, zip(columns, key).map { column, value in
                    SQLRelation.column(column, qualifier: nil) == value
                }))
            }
            let condition = terms.count == 1 ? terms[0] : SQLExpression(impl: .associative(.or, terms))
            return try condition.sql(context)
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
                let statement = try db.generatedStatement(sql: sql)
                region.formUnion(statement.databaseRegion)
                try relation.formPrefetchRegion(db, into: &region)
            } else {
                try child.relation.formPrefetchRegion(db, into: &region)
            }
        }
    }
}

/// Sees the queries that fetch prefetched rows, before they run: support
/// for `Database.dumpRequest(_:format:to:)`, which prints their rows.
struct PrefetchObserver {
    /// The keys of the associations that lead to the prefetched rows, from
    /// the rows of the request (`["players", "awards"]`).
    var keyPath: [String] = []

    /// Called with a statement that fetches prefetched rows (their own
    /// columns only), and the key path of the rows.
    var willFetch: (_ db: Database, _ statement: Statement, _ keyPath: [String]) throws -> Void
}
