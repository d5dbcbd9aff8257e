// The refinements of the request protocols (see RequestProtocols.swift),
// written once for requests and associations. On an association, they
// apply to the associated records.

// MARK: - Selection

extension SelectionRequest {
    /// Replaces the selection. On an association, it selects the columns
    /// of the associated records.
    ///
    /// ```swift
    /// // SELECT "book".*, "author"."id", "author"."name" FROM "book" JOIN "author" ON ...
    /// let request = Book.including(required: Book.author.select(Column("id"), Column("name")))
    /// ```
    public func select(_ selection: any SQLSelectable...) -> Self {
        select(selection)
    }

    /// Replaces the selection.
    public func select(_ selection: [any SQLSelectable]) -> Self {
        let selection = selection.map(\.sqlSelection)
        return mapSQLRelation {
            $0.selection = selection
            $0.hasCustomSelection = true
        }
    }

    /// Replaces the selection with raw SQL.
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        select(SQL(sql: sql, arguments: arguments))
    }

    /// Replaces the selection with an SQL literal.
    public func select(literal sqlLiteral: SQL) -> Self {
        select(sqlLiteral)
    }

    /// Replaces the selection with columns that `selection` returns when
    /// the request runs, with the database connection.
    ///
    /// ```swift
    /// // The columns of the table, but the blobs:
    /// let request = Player.all().selectWhenConnected { db in
    ///     try db.columns(in: "player").filter { $0.type != "BLOB" }.map { Column($0.name) }
    /// }
    /// ```
    ///
    /// - Parameter selection: Returns the selection; its error is thrown
    ///   by the fetch.
    public func selectWhenConnected(
        _ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self
    {
        select([SQLSelection.whenConnected(selection)])
    }

    /// Appends to the selection.
    public func annotated(with selection: any SQLSelectable...) -> Self {
        annotated(with: selection)
    }

    /// Appends to the selection.
    public func annotated(with selection: [any SQLSelectable]) -> Self {
        let selection = selection.map(\.sqlSelection)
        return mapSQLRelation { $0.selection.append(contentsOf: selection) }
    }

    /// Appends to the selection the columns that `selection` returns when
    /// the request runs, with the database connection.
    ///
    /// - Parameter selection: Returns the appended selection; its error is
    ///   thrown by the fetch.
    public func annotatedWhenConnected(
        with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self
    {
        annotated(with: [SQLSelection.whenConnected(selection)])
    }
}

extension SelectionRequest where RowDecoder: TableRecord {
    /// The type of the values that the closures of the refinements receive:
    /// the record type's ``TableRecord/DatabaseComponents`` (its `Columns`
    /// by default).
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// Selects columns of the record type's `Columns`.
    ///
    /// ```swift
    /// let partialAuthor = Book.author.select { [$0.name, $0.country] }
    /// ```
    public func select(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        select(try selection(RowDecoder.databaseComponents))
    }

    /// Selects one column of the record type's `Columns`: `select(\.title)`.
    public func select(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        select([try selection(RowDecoder.databaseComponents)])
    }

    /// Appends columns of the record type's `Columns` to the selection.
    public func annotated(with selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        annotated(with: try selection(RowDecoder.databaseComponents))
    }

    /// Appends one column of the record type's `Columns` to the selection.
    public func annotated(with selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        annotated(with: [try selection(RowDecoder.databaseComponents)])
    }
}

// MARK: - Filter

extension FilteredRequest {
    /// Adds a condition, joined with AND to the existing ones. On an
    /// association, the condition applies to the associated records, in
    /// the ON clause of the join.
    ///
    /// ```swift
    /// let frenchAuthor = Book.author.filter(Column("countryCode") == "FR")
    /// ```
    public func filter(_ predicate: some SQLExpressible) -> Self {
        let expression = predicate.sqlExpression
        return mapSQLRelation { $0.filters.append { _ in expression } }
    }

    /// Adds a condition that `predicate` returns when the request runs,
    /// with the database connection.
    ///
    /// ```swift
    /// let request = Player.all().filterWhenConnected { db in
    ///     try db.tableExists("ban") ? Column("id") != nil : true
    /// }
    /// ```
    ///
    /// - Parameter predicate: Returns the condition; its error is thrown by
    ///   the fetch.
    public func filterWhenConnected(
        _ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self
    {
        mapSQLRelation { $0.filters.append { db in try predicate(db).sqlExpression } }
    }

    /// A request that fetches nothing: it is filtered by a false value,
    /// bound as an argument (`WHERE ?`, as GRDB writes it).
    ///
    /// ```swift
    /// // SELECT * FROM "player" WHERE ("score" > ?) AND ?
    /// let request = Player.filter(Column("score") > 1000).none()
    /// ```
    public func none() -> Self {
        filter(false).mapSQLRelation { $0.selectsNothing = true }
    }

    /// The request itself, unfiltered by this call: `Player.all()` reads
    /// better than `Player.filter(true)` in generic code.
    public func all() -> Self { self }

    /// Adds a condition written in SQL.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        filter(SQL(sql: sql, arguments: arguments))
    }

    /// Adds a condition written as an SQL literal.
    public func filter(literal sqlLiteral: SQL) -> Self {
        filter(sqlLiteral)
    }
}

extension FilteredRequest where RowDecoder: TableRecord {
    /// The type of the values that the closures of the refinements receive:
    /// the record type's ``TableRecord/DatabaseComponents`` (its `Columns`
    /// by default).
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// Adds a condition on the record type's `Columns`.
    ///
    /// ```swift
    /// let frenchAuthor = Book.author.filter { $0.countryCode == "FR" }
    /// ```
    public func filter(_ predicate: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        filter(try predicate(RowDecoder.databaseComponents))
    }
}

// MARK: - Order

extension OrderedRequest {
    /// Replaces the ordering.
    public func order(_ orderings: any SQLOrderingTerm...) -> Self {
        order(orderings)
    }

    /// Replaces the ordering.
    public func order(_ orderings: [any SQLOrderingTerm]) -> Self {
        let orderings = orderings.map(\.sqlOrdering)
        return mapSQLRelation {
            $0.ordering = orderings
            $0.ordersByPrimaryKey = false
            $0.isReversed = false
        }
    }

    /// Replaces the ordering with raw SQL.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        order([SQL(sql: sql, arguments: arguments)])
    }

    /// Replaces the ordering with an SQL literal.
    public func order(literal sqlLiteral: SQL) -> Self {
        order([sqlLiteral])
    }

    /// Replaces the ordering with terms that `orderings` returns when the
    /// request runs, with the database connection.
    ///
    /// - Parameter orderings: Returns the terms; its error is thrown by the
    ///   fetch.
    public func orderWhenConnected(
        _ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> Self
    {
        order([SQLOrdering.whenConnected(orderings)])
    }

    /// Makes the ordering total, so that the rows come in the same order
    /// at each fetch: the current ordering, then the primary key of each
    /// table of the request (`rowid` for tables without explicit primary
    /// key). Views and common table expressions, which have no primary key,
    /// are sorted by all their columns.
    ///
    /// ```swift
    /// // SELECT * FROM "player" ORDER BY "score", "id"
    /// let request = Player.order(Column("score")).withStableOrder()
    /// ```
    ///
    /// The associations that the request already includes are ordered the
    /// same way: the rows that `including(all:)` prefetches come ordered
    /// by their own ordering, then their primary key.
    ///
    /// Useful in tests, whose expected results must not depend on the
    /// order SQLite happens to choose.
    public func withStableOrder() -> Self {
        mapSQLRelation { $0.makeOrderStable() }
    }

    /// Reverses the ordering: ascending terms become descending, and the
    /// opposite.
    ///
    /// A request without ordering stays unordered: reversing does not
    /// invent an order (use ``withStableOrder()`` first to sort by primary
    /// key, then reverse it).
    ///
    /// ```swift
    /// // SELECT * FROM player ORDER BY score DESC
    /// let request = Player.order(Column("score")).reversed()
    /// // SELECT * FROM player ORDER BY id DESC
    /// let request = Player.all().withStableOrder().reversed()
    /// ```
    public func reversed() -> Self {
        mapSQLRelation { $0.isReversed.toggle() }
    }

    /// Removes the ordering: that of the request, and that of the
    /// associations it includes or joins, as GRDB does.
    ///
    /// ```swift
    /// // SELECT book.* FROM book JOIN author ON author.id = book.authorId
    /// let request = Book
    ///     .joining(required: Book.author.order(Column("name")))
    ///     .order(Column("title"))
    ///     .unordered()
    /// ```
    public func unordered() -> Self {
        mapSQLRelation { $0.removeOrdering() }
    }
}

extension OrderedRequest where RowDecoder: TableRecord {
    /// The type of the values that the closures of the refinements receive:
    /// the record type's ``TableRecord/DatabaseComponents`` (its `Columns`
    /// by default).
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// Sorts by terms built from the record type's `Columns`.
    ///
    /// ```swift
    /// let request = Book.including(required: Book.author.order { [$0.name, $0.id] })
    /// ```
    public func order(_ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> Self {
        order(try orderings(RowDecoder.databaseComponents))
    }

    /// Sorts by one term built from the record type's `Columns`:
    /// `order(\.name)`, `order { $0.score.desc }`.
    public func order(_ ordering: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> Self {
        order([try ordering(RowDecoder.databaseComponents)])
    }
}

// MARK: - Grouping

extension AggregatingRequest {
    /// Groups the rows: `GROUP BY ...`.
    public func group(_ expressions: any SQLExpressible...) -> Self {
        group(expressions)
    }

    /// Groups the rows: `GROUP BY ...`.
    public func group(_ expressions: [any SQLExpressible]) -> Self {
        let expressions = expressions.map(\.sqlExpression)
        return mapSQLRelation { $0.groupExpressions = [{ _ in expressions }] }
    }

    /// Groups the rows by expressions that `expressions` returns when the
    /// request runs, with the database connection.
    ///
    /// - Parameter expressions: Returns the expressions; its error is
    ///   thrown by the fetch.
    public func groupWhenConnected(
        _ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible]) -> Self
    {
        mapSQLRelation { $0.groupExpressions = [{ db in try expressions(db).map(\.sqlExpression) }] }
    }

    /// Groups the rows with raw SQL.
    public func group(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        group([SQL(sql: sql, arguments: arguments)])
    }

    /// Groups the rows with an SQL literal.
    public func group(literal sqlLiteral: SQL) -> Self {
        group([sqlLiteral])
    }

    /// Adds a condition on groups: `HAVING ...`, joined with AND.
    public func having(_ predicate: some SQLExpressible) -> Self {
        let expression = predicate.sqlExpression
        return mapSQLRelation { $0.havingExpressions.append(expression) }
    }

    /// Adds a condition on groups that `predicate` returns when the request
    /// runs, with the database connection.
    ///
    /// - Parameter predicate: Returns the condition; its error is thrown by
    ///   the fetch.
    public func havingWhenConnected(
        _ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self
    {
        having(SQLExpression.whenConnected(predicate))
    }

    /// Adds a condition on groups, written in SQL.
    public func having(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        having(SQL(sql: sql, arguments: arguments))
    }

    /// Adds a condition on groups, written as an SQL literal.
    public func having(literal sqlLiteral: SQL) -> Self {
        having(sqlLiteral)
    }
}

extension AggregatingRequest where RowDecoder: TableRecord {
    /// The type of the values that the closures of the refinements receive:
    /// the record type's ``TableRecord/DatabaseComponents`` (its `Columns`
    /// by default).
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// Groups the rows by expressions built from the record type's
    /// `Columns`: `group(\.kind)`.
    public func group(_ expressions: (DatabaseComponents) throws -> [any SQLExpressible]) rethrows -> Self {
        group(try expressions(RowDecoder.databaseComponents))
    }

    /// Groups the rows by one expression built from the record type's
    /// `Columns`.
    public func group(_ expression: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        group([try expression(RowDecoder.databaseComponents)])
    }

    /// Adds a condition on groups, built from the record type's `Columns`.
    public func having(_ predicate: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        having(try predicate(RowDecoder.databaseComponents))
    }
}

// MARK: - Table

extension TableRequest {
    /// The name of the table of the request (of the associated records, for
    /// an association).
    public var databaseTableName: String { _relation.relation.tableName }

    /// Sorts by primary key (by `rowid` for a table without explicit
    /// primary key).
    ///
    /// ```swift
    /// // SELECT * FROM "player" ORDER BY "id"
    /// let request = Player.all().orderByPrimaryKey()
    /// ```
    public func orderByPrimaryKey() -> Self {
        mapSQLRelation {
            $0.ordering = []
            $0.ordersByPrimaryKey = true
            $0.isReversed = false
        }
    }

    /// Groups the rows by primary key.
    ///
    /// ```swift
    /// // SELECT * FROM "player" GROUP BY "id"
    /// let request = Player.all().groupByPrimaryKey()
    /// ```
    public func groupByPrimaryKey() -> Self {
        mapSQLRelation { relation in
            let tableName = relation.tableName
            relation.groupExpressions = [{ db in
                // A composite primary key of a table with a rowid: the
                // rowid identifies the rows as well, in one column.
                let primaryKey = try db.primaryKey(tableName)
                if primaryKey.columns.count > 1 && primaryKey.tableHasRowID {
                    return [SQLExpression(impl: .rowID(qualifier: nil))]
                }
                return try SQLSelection.primaryKeyExpressions(db, tableName: tableName)
            }]
        }
    }

    /// Gives the table an alias, so that expressions can refer to its
    /// columns, even when it is joined (see ``TableAlias``).
    public func aliased<T>(_ alias: TableAlias<T>) -> Self {
        mapSQLRelation { relation in
            alias.identity.bind(to: relation.tableName)
            if let existing = relation.alias, existing !== alias.identity {
                alias.identity.redirect(to: existing)
            } else {
                relation.alias = alias.identity
            }
        }
    }

    /// Filters the rows of a full-text table that match a pattern:
    /// `WHERE "table" MATCH ?`. A nil pattern matches nothing. On an
    /// association, it filters the associated full-text rows.
    ///
    /// ```swift
    /// let documents = try Document.matching(FTS3Pattern(matchingAllTokensIn: "sqlite database")).fetchAll(db)
    /// let books = try Book.joining(required: Book.fullText.matching(pattern)).fetchAll(db)
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts5.html#full_text_query_syntax>
    public func matching(_ pattern: (some DatabaseValueConvertible)?) -> Self {
        guard let pattern else {
            return mapSQLRelation { relation in
                relation.filters.append { _ in SQLExpression.false }
                relation.selectsNothing = true
            }
        }
        let value = pattern.databaseValue
        return mapSQLRelation { relation in
            let tableName = relation.tableName
            let match = SQL(elements: [.deferred { context in
                // The table itself, or the name that qualifies it.
                (context.defaultQualifier ?? tableName).quotedDatabaseIdentifier
            }])
            let expression = SQLExpression(impl: .binary("MATCH", .literal(match), .value(value)))
            relation.filters.append { _ in expression }
        }
    }
}

// MARK: - Other refinements

extension DerivableRequest {
    /// Makes the selection DISTINCT.
    public func distinct() -> Self {
        mapSQLRelation { $0.isDistinct = true }
    }

    /// Limits the number of fetched rows: `LIMIT limit OFFSET offset`.
    public func limit(_ limit: Int, offset: Int? = nil) -> Self {
        mapSQLRelation { $0.limit = (limit, offset) }
    }
}
