/// A request that can be refined: query interface requests, and
/// associations.
///
/// Extend it to write refinements once, for requests and associations
/// alike:
///
/// ```swift
/// extension DerivableRequest<Author> {
///     func filter(country: String) -> Self {
///         filter { $0.country == country }
///     }
/// }
///
/// let frenchAuthors = try Author.all().filter(country: "FR").fetchAll(db)
/// let booksOfFrenchAuthors = try Book
///     .joining(required: Book.author.filter(country: "FR"))
///     .fetchAll(db)
/// ```
///
/// ``QueryInterfaceRequest`` and the association types adopt it; you do not
/// adopt it yourself.
public protocol DerivableRequest<RowDecoder>: Sendable {
    /// The type of the records of the request.
    associatedtype RowDecoder

    /// Returns the request with its relation changed. Not for use by
    /// applications.
    func _mapRelation(_ transform: (inout _SQLRelationBox) -> Void) -> Self
}

/// The relation of a request. Not for use by applications.
public struct _SQLRelationBox: Sendable {
    var relation: SQLRelation
}

extension QueryInterfaceRequest: DerivableRequest {
    /// See ``DerivableRequest/_mapRelation(_:)``.
    public func _mapRelation(_ transform: (inout _SQLRelationBox) -> Void) -> Self {
        var box = _SQLRelationBox(relation: relation)
        transform(&box)
        return QueryInterfaceRequest(relation: box.relation)
    }
}

// MARK: - Refinements

extension DerivableRequest {
    private func map(_ transform: (inout SQLRelation) -> Void) -> Self {
        _mapRelation { transform(&$0.relation) }
    }

    /// Adds a condition, joined with AND to the existing ones. On an
    /// association, the condition applies to the associated records, in
    /// the ON clause of the join.
    ///
    /// ```swift
    /// let frenchAuthor = Book.author.filter(Column("countryCode") == "FR")
    /// ```
    public func filter(_ predicate: some SQLExpressible) -> Self {
        let expression = predicate.sqlExpression
        return map { $0.filters.append { _ in expression } }
    }

    /// Filters the rows of a full-text table that match a pattern:
    /// `WHERE "table" MATCH ?`. A nil pattern matches nothing. On an
    /// association, it filters the associated full-text rows.
    ///
    /// ```swift
    /// let documents = try Document.matching(FTS3Pattern(matchingAllTokensIn: "sqlite database")).fetchAll(db)
    /// let books = try Book.joining(required: Book.fullText.matching(pattern)).fetchAll(db)
    /// ```
    public func matching(_ pattern: (some DatabaseValueConvertible)?) -> Self {
        guard let pattern else { return none() }
        let value = pattern.databaseValue
        return map { relation in
            let tableName = relation.tableName
            let match = SQL(elements: [.deferred { context in
                // The table itself, or the name that qualifies it.
                (context.defaultQualifier ?? tableName).quotedDatabaseIdentifier
            }])
            let expression = SQLExpression(impl: .binary("MATCH", .literal(match), .value(value)))
            relation.filters.append { _ in expression }
        }
    }

    /// A request that fetches nothing: `WHERE 0`.
    public func none() -> Self {
        filter(SQLExpression.false).map { $0.selectsNothing = true }
    }

    /// Adds a condition written in SQL.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        filter(SQL(sql: sql, arguments: arguments))
    }

    /// Adds a condition written as an SQL literal.
    public func filter(literal sqlLiteral: SQL) -> Self {
        filter(sqlLiteral)
    }

    /// Replaces the ordering.
    public func order(_ orderings: any SQLOrderingTerm...) -> Self {
        order(orderings)
    }

    /// Replaces the ordering.
    public func order(_ orderings: [any SQLOrderingTerm]) -> Self {
        let orderings = orderings.map(\.sqlOrdering)
        return map {
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

    /// Sorts by primary key (by `rowid` for a table without explicit
    /// primary key).
    ///
    /// ```swift
    /// // SELECT * FROM "player" ORDER BY "id"
    /// let request = Player.all().orderByPrimaryKey()
    /// ```
    public func orderByPrimaryKey() -> Self {
        map {
            $0.ordering = []
            $0.ordersByPrimaryKey = true
            $0.isReversed = false
        }
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
    /// Useful in tests, whose expected results must not depend on the
    /// order SQLite happens to choose.
    public func withStableOrder() -> Self {
        map { $0.hasStableOrder = true }
    }

    /// Reverses the ordering. A request without ordering is sorted by
    /// primary key, descending.
    public func reversed() -> Self {
        map { $0.isReversed.toggle() }
    }

    /// Removes the ordering.
    public func unordered() -> Self {
        map {
            $0.ordering = []
            $0.ordersByPrimaryKey = false
            $0.isReversed = false
        }
    }

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
        return map {
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

    /// Appends to the selection.
    public func annotated(with selection: any SQLSelectable...) -> Self {
        annotated(with: selection)
    }

    /// Appends to the selection.
    public func annotated(with selection: [any SQLSelectable]) -> Self {
        let selection = selection.map(\.sqlSelection)
        return map { $0.selection.append(contentsOf: selection) }
    }

    /// Makes the selection DISTINCT.
    public func distinct() -> Self {
        map { $0.isDistinct = true }
    }

    /// Groups the rows: `GROUP BY ...`.
    public func group(_ expressions: any SQLExpressible...) -> Self {
        group(expressions)
    }

    /// Groups the rows: `GROUP BY ...`.
    public func group(_ expressions: [any SQLExpressible]) -> Self {
        let expressions = expressions.map(\.sqlExpression)
        return map { $0.groupExpressions = [{ _ in expressions }] }
    }

    /// Groups the rows by primary key.
    ///
    /// ```swift
    /// // SELECT * FROM "player" GROUP BY "id"
    /// let request = Player.all().groupByPrimaryKey()
    /// ```
    public func groupByPrimaryKey() -> Self {
        map { relation in
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

    /// Adds a condition on groups: `HAVING ...`, joined with AND.
    public func having(_ predicate: some SQLExpressible) -> Self {
        let expression = predicate.sqlExpression
        return map { $0.havingExpressions.append(expression) }
    }

    /// Groups the rows with raw SQL.
    public func group(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        group([SQL(sql: sql, arguments: arguments)])
    }

    /// Adds a condition on groups, written in SQL.
    public func having(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        having(SQL(sql: sql, arguments: arguments))
    }

    /// Limits the number of fetched rows: `LIMIT limit OFFSET offset`.
    public func limit(_ limit: Int, offset: Int? = nil) -> Self {
        map { $0.limit = (limit, offset) }
    }

    /// Gives the table an alias, so that expressions can refer to its
    /// columns, even when it is joined (see ``TableAlias``).
    public func aliased<T>(_ alias: TableAlias<T>) -> Self {
        map { relation in
            alias.identity.bind(to: relation.tableName)
            if let existing = relation.alias, existing !== alias.identity {
                alias.identity.redirect(to: existing)
            } else {
                relation.alias = alias.identity
            }
        }
    }
}

// MARK: - Closure refinements

extension DerivableRequest where RowDecoder: TableRecord {
    /// Adds a condition on the record type's `Columns`.
    ///
    /// ```swift
    /// let frenchAuthor = Book.author.filter { $0.countryCode == "FR" }
    /// ```
    public func filter(_ predicate: (RowDecoder.Columns.Type) -> some SQLExpressible) -> Self {
        filter(predicate(RowDecoder.Columns.self))
    }

    /// Sorts by terms built from the record type's `Columns`.
    ///
    /// ```swift
    /// let request = Book.including(required: Book.author.order { [$0.name, $0.id] })
    /// ```
    public func order(_ orderings: (RowDecoder.Columns.Type) -> [any SQLOrderingTerm]) -> Self {
        order(orderings(RowDecoder.Columns.self))
    }

    /// Sorts by one term built from the record type's `Columns`:
    /// `order(\.name)`, `order { $0.score.desc }`.
    public func order(_ ordering: (RowDecoder.Columns.Type) -> some SQLOrderingTerm) -> Self {
        order([ordering(RowDecoder.Columns.self)])
    }

    /// Selects columns of the record type's `Columns`.
    ///
    /// ```swift
    /// let partialAuthor = Book.author.select { [$0.name, $0.country] }
    /// ```
    public func select(_ selection: (RowDecoder.Columns.Type) -> [any SQLSelectable]) -> Self {
        select(selection(RowDecoder.Columns.self))
    }

    /// Selects one column of the record type's `Columns`: `select(\.title)`.
    public func select(_ selection: (RowDecoder.Columns.Type) -> some SQLSelectable) -> Self {
        select([selection(RowDecoder.Columns.self)])
    }

    /// Appends columns of the record type's `Columns` to the selection.
    public func annotated(with selection: (RowDecoder.Columns.Type) -> [any SQLSelectable]) -> Self {
        annotated(with: selection(RowDecoder.Columns.self))
    }

    /// Appends one column of the record type's `Columns` to the selection.
    public func annotated(with selection: (RowDecoder.Columns.Type) -> some SQLSelectable) -> Self {
        annotated(with: [selection(RowDecoder.Columns.self)])
    }

    /// Groups the rows by expressions built from the record type's
    /// `Columns`: `group(\.kind)`.
    public func group(_ expressions: (RowDecoder.Columns.Type) -> [any SQLExpressible]) -> Self {
        group(expressions(RowDecoder.Columns.self))
    }

    /// Groups the rows by one expression built from the record type's
    /// `Columns`.
    public func group(_ expression: (RowDecoder.Columns.Type) -> some SQLExpressible) -> Self {
        group([expression(RowDecoder.Columns.self)])
    }

    /// Adds a condition on groups, built from the record type's `Columns`.
    public func having(_ predicate: (RowDecoder.Columns.Type) -> some SQLExpressible) -> Self {
        having(predicate(RowDecoder.Columns.self))
    }
}

// MARK: - Joining methods

extension DerivableRequest {
    private func join<A: Association>(_ association: A, kind: SQLRelation.Child.Kind, mode: SQLRelation.Child.Mode) -> Self {
        let child = association._sqlAssociation.child(kind: kind, mode: mode)
        return _mapRelation { $0.relation.add(child) }
    }

    /// Fetches the associated record along with each record: the rows
    /// without an associated record are not fetched.
    ///
    /// ```swift
    /// // SELECT "book".*, "author".* FROM "book"
    /// // JOIN "author" ON "author"."id" = "book"."authorId"
    /// struct BookInfo: Decodable, FetchableRecord {
    ///     var book: Book
    ///     var author: Author
    /// }
    /// let infos = try Book.including(required: Book.author).asRequest(of: BookInfo.self).fetchAll(db)
    /// ```
    ///
    /// The columns of the associated record are in the scope of the
    /// association key of the fetched rows (`row.scopes["author"]`).
    public func including<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        join(association, kind: .required, mode: .scope)
    }

    /// Fetches the associated record along with each record, or NULL
    /// columns when there is none (`LEFT JOIN`).
    ///
    /// ```swift
    /// // SELECT "book".*, "author".* FROM "book"
    /// // LEFT JOIN "author" ON "author"."id" = "book"."authorId"
    /// let request = Book.including(optional: Book.author)
    /// ```
    public func including<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        join(association, kind: .optional, mode: .scope)
    }

    /// Joins the associated record, without selecting its columns: the
    /// rows without an associated record are not fetched.
    ///
    /// ```swift
    /// // SELECT "book".* FROM "book"
    /// // JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."country" = ?)
    /// let request = Book.joining(required: Book.author.filter(Column("country") == "France"))
    /// ```
    public func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        join(association, kind: .required, mode: .join)
    }

    /// Joins the associated record with `LEFT JOIN`, without selecting its
    /// columns.
    public func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        join(association, kind: .optional, mode: .join)
    }

    /// Appends the selected columns of the associated record to the
    /// columns of each record: the rows without an associated record are
    /// not fetched.
    ///
    /// ```swift
    /// // SELECT "book".*, "author"."name" FROM "book"
    /// // JOIN "author" ON "author"."id" = "book"."authorId"
    /// let request = Book.annotated(withRequired: Book.author.select(Column("name")))
    /// ```
    public func annotated<A: Association>(withRequired association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        join(association, kind: .required, mode: .annotation)
    }

    /// Appends the selected columns of the associated record to the
    /// columns of each record, NULL when there is none (`LEFT JOIN`).
    public func annotated<A: Association>(withOptional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        join(association, kind: .optional, mode: .annotation)
    }

    /// Prefetches all associated records of each record, with one extra
    /// query per association (not one per record).
    ///
    /// ```swift
    /// // SELECT * FROM "author"
    /// // SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE "authorId" IN (1, 2, 3)
    /// struct AuthorInfo: Decodable, FetchableRecord {
    ///     var author: Author
    ///     var books: [Book]
    /// }
    /// let infos = try Author.including(all: Author.books).asRequest(of: AuthorInfo.self).fetchAll(db)
    /// ```
    ///
    /// The associated rows are the prefetched rows of the association key
    /// (`row.prefetchedRows["books"]`). Requests that prefetch cannot be
    /// iterated with a cursor: `fetchCursor` throws.
    public func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        let definition = association._sqlAssociation
        let last = definition.steps[definition.steps.count - 1]
        let child = SQLRelation.Child(
            key: definition.prefetchKeyName, kind: .prefetch, mode: .scope,
            condition: last.condition, relation: last.relation,
            prefetchSteps: definition.steps)
        return _mapRelation { $0.relation.add(child) }
    }
}

// MARK: - Requests for associated records

extension TableRecord where Self: EncodableRecord {
    /// The request for the records associated to this record.
    ///
    /// ```swift
    /// extension Author {
    ///     static let books = hasMany(Book.self)
    ///     var books: QueryInterfaceRequest<Book> {
    ///         request(for: Author.books)
    ///     }
    /// }
    /// // SELECT * FROM "book" WHERE "authorId" = ?
    /// let books = try author.books.fetchAll(db)
    /// ```
    ///
    /// When the columns of the record that the association uses are NULL,
    /// the request fetches nothing.
    public func request<A: Association>(for association: A) -> QueryInterfaceRequest<A.RowDecoder> where A.OriginRowDecoder == Self {
        let values: [String: DatabaseValue]
        do {
            values = try databaseDictionary
        } catch {
            var relation = association._sqlAssociation.steps.last!.relation
            relation.buildError = "the record could not be encoded: \(error)"
            return QueryInterfaceRequest(relation: relation)
        }
        let lookup = Dictionary(values.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        let originTable = Self.databaseTableName
        let relation = association._sqlAssociation.reversedRelation { db, pairs in
            // The values of the record for the origin columns.
            let conditions = try pairs.map { pair -> SQLExpression in
                guard let value = lookup[pair.parent.lowercased()] else {
                    throw db.makeError(
                        resultCode: .SQLITE_MISUSE,
                        message: "the record of \"\(originTable)\" has no value for the column \"\(pair.parent)\" "
                            + "that its association uses: encode it in encode(to:)",
                        sql: nil, arguments: nil)
                }
                return value.isNull ? .false : SQLExpression(impl: .binary("=", .column(pair.joined), .value(value)))
            }
            // NULL matches nothing.
            if conditions.contains(where: { $0.isFalseLiteral }) { return .false }
            return .associative(.and, conditions)
        }
        return QueryInterfaceRequest(relation: relation)
    }
}

extension _SQLAssociation {
    /// The relation of the associated records, joined back to the tables
    /// of the pivots, with a condition on the columns of the table next to
    /// the origin.
    ///
    /// - Parameter condition: Builds the condition on the first table of
    ///   the association (unqualified columns), from the column pairs
    ///   (column of that table, column of the origin).
    func reversedRelation(
        condition: @escaping @Sendable (Database, [(joined: String, parent: String)]) throws -> SQLExpression) -> SQLRelation
    {
        let first = steps[0]
        let firstCondition = first.condition
        let filter: SQLRelation.Promise<SQLExpression> = { db in try condition(db, firstCondition.columnPairs(db)) }
        guard steps.count > 1 else {
            var relation = first.relation
            relation.filters.append(filter)
            return relation
        }
        // Join the pivots back from the associated records, in reverse:
        // D JOIN Pn-1 ... JOIN P0, with the condition on P0.
        var pivot = steps[0].relation
        pivot.filters.append(filter)
        // The keys of the pivots do not collide with the keys of the
        // associations of the destination.
        var child = SQLRelation.Child(
            key: "grdb_" + steps[0].keyName(plural: false), kind: .required, mode: .join,
            condition: steps[1].condition.reversed, relation: pivot)
        for index in 1..<(steps.count - 1) {
            var relation = steps[index].relation
            relation.add(child)
            child = SQLRelation.Child(
                key: "grdb_" + steps[index].keyName(plural: false), kind: .required, mode: .join,
                condition: steps[index + 1].condition.reversed, relation: relation)
        }
        var destination = steps[steps.count - 1].relation
        destination.add(child)
        return destination
    }
}
