// The joining methods of ``JoinableRequest``, and the requests for the
// records associated to a record.

// MARK: - Joining methods

extension JoinableRequest {
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
        return _mapRelation { $0.relation.addPrefetched(child) }
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
