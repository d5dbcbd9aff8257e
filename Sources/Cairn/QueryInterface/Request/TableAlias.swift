/// A name for a table in a request, that lets expressions refer to its
/// columns, even when the table is joined.
///
/// ```swift
/// // SELECT "p".* FROM "player" "p" WHERE "p"."score" > ?
/// let alias = TableAlias(name: "p")
/// let request = Player.aliased(alias).filter(alias[Column("score")] > 1000)
///
/// // Books published after the death of their author:
/// // SELECT "book".* FROM "book"
/// // JOIN "person" ON "person"."id" = "book"."authorId"
/// // WHERE "book"."publishDate" >= "person"."deathDate"
/// let authorAlias = TableAlias<Person>()
/// let request = Book
///     .joining(required: Book.author.aliased(authorAlias))
///     .filter { $0.publishDate >= authorAlias.deathDate }
/// ```
///
/// An alias with a name is used as is in the SQL. An alias without a name
/// takes the name that the request gives to its table: the table name, or a
/// numbered name when the table is joined several times (`"person1"`).
///
/// An alias refers to one table: using it for two tables is a programmer
/// error that stops the program.
///
/// With a record type (`TableAlias<Person>`), the columns of the record's
/// `Columns` are members of the alias: `authorAlias.deathDate`.
@dynamicMemberLookup
public final class TableAlias<RowDecoder>: TableAliasBase, @unchecked Sendable {
    // Unchecked Sendable: the class adds no stored property to its base,
    // which only holds an immutable Sendable identity.

    /// Creates an alias for the table of a record type.
    ///
    /// ```swift
    /// let authorAlias = TableAlias(for: Author.self)
    /// let named = TableAlias<Author>(name: "a")
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name of the alias in the SQL; nil uses the name that
    ///     the request gives to the table.
    ///   - record: The record type of the table.
    public init(name: String? = nil, for record: RowDecoder.Type = RowDecoder.self) {
        super.init(identity: AliasIdentity(userName: name))
    }

    /// All columns of the aliased table: `"alias".*`.
    public var allColumns: SQLSelection {
        self[AllColumns()]
    }

    /// Whether the aliased table has a row: its primary key is not NULL.
    /// Useful with optional joins.
    ///
    /// ```swift
    /// // SELECT "book".* FROM "book"
    /// // LEFT JOIN "author" ON ... WHERE "author"."id" IS NOT NULL
    /// let authorAlias = TableAlias<Author>()
    /// let request = Book
    ///     .joining(optional: Book.author.aliased(authorAlias))
    ///     .filter(authorAlias.exists)
    /// ```
    public var exists: SQLExpression {
        let identity = self.identity
        return .literal(SQL(elements: [.deferred { context in
            guard let tableName = identity.tableName else {
                throw context.db.makeError(
                    resultCode: .SQLITE_MISUSE,
                    message: "TableAlias.exists is used before the alias is given to a request",
                    sql: nil, arguments: nil)
            }
            let primaryKey = try context.db.primaryKey(tableName)
            let columns: [SQLExpression] = primaryKey.isRowID && primaryKey.rowIDColumn == nil
                ? [SQLExpression(impl: .rowID(qualifier: nil))]
                : primaryKey.columns.map { SQLExpression.column($0) }
            let condition = SQLExpression.associative(.and, columns.map { column in
                SQLExpression(impl: .binary("IS NOT", column, .value(.null)))
            })
            return try identity.qualifying(context) { try condition.sql(context) }
        }]))
    }
}

extension TableAlias where RowDecoder == Void {
    /// Creates an alias that is not tied to a record type.
    ///
    /// - Parameter name: The name of the alias in the SQL; nil uses the name
    ///   that the request gives to the table.
    public convenience init(name: String? = nil) {
        self.init(name: name, for: Void.self)
    }
}

extension TableAlias where RowDecoder: TableRecord {
    /// The type of the values of the dynamic members of the alias: the
    /// record type's ``TableRecord/DatabaseComponents``.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// A column of the record's `Columns`, qualified by the alias:
    /// `authorAlias.name` is `"author"."name"`.
    public subscript<T: SQLSpecificExpressible>(dynamicMember keyPath: KeyPath<DatabaseComponents, T>) -> SQLExpression {
        self[RowDecoder.databaseComponents[keyPath: keyPath]]
    }
}

/// What all table aliases are, whatever their record type: ``TableAlias``.
/// Two aliases are equal when they name the same table of a request.
///
/// The subscripts qualify columns and expressions with the alias:
///
/// ```swift
/// let alias = TableAlias(name: "p")
/// alias[Column("score")]           // "p"."score"
/// alias[Column("score") + 1]       // "p"."score" + 1
/// alias[Column("score").desc]      // "p"."score" DESC
/// alias["name"]                    // "p"."name"
/// alias[AllColumns()]              // "p".*
/// ```
public class TableAliasBase: Hashable, @unchecked Sendable {
    // Unchecked Sendable: the class is not final (TableAlias inherits from
    // it, and it cannot be subclassed outside of Cairn, having no public
    // initializer), and holds nothing but an immutable Sendable identity.
    let identity: AliasIdentity

    init(identity: AliasIdentity) {
        self.identity = identity
    }

    /// Whether two aliases name the same table (an alias merged with
    /// another, when a request joins one association twice, is equal to it).
    public static func == (lhs: TableAliasBase, rhs: TableAliasBase) -> Bool {
        lhs.identity.resolved === rhs.identity.resolved
    }

    /// Hashes the identity of the alias.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(identity.resolved))
    }

    /// A selection whose columns are qualified by the alias: `"alias".*`
    /// for all columns.
    public subscript(_ selectable: some SQLSelectable) -> SQLSelection {
        let identity = self.identity
        let selection = selectable.sqlSelection
        return SQLSelection(impl: .literal(SQL(elements: [.deferred { context in
            try identity.qualifying(context) { try selection.sql(context) }
        }])))
    }

    /// An expression whose columns are qualified by the alias:
    /// `alias[Column("score") + 1]` is `"alias"."score" + 1`.
    public subscript(_ expression: some SQLSpecificExpressible) -> SQLExpression {
        identity.qualify(expression.sqlExpression)
    }

    /// A column of the aliased table: `"alias"."column"`.
    public subscript(_ column: some ColumnExpression) -> SQLExpression {
        identity.column(column.name)
    }

    /// An ordering whose columns are qualified by the alias:
    /// `alias[Column("score").desc]` is `"alias"."score" DESC`.
    public subscript(_ ordering: some SQLOrderingTerm) -> SQLOrdering {
        let ordering = ordering.sqlOrdering
        switch ordering.impl {
        case .expression(let expression): return SQLOrdering(impl: .expression(self[expression]))
        case .asc(let expression): return SQLOrdering(impl: .asc(self[expression]))
        case .desc(let expression): return SQLOrdering(impl: .desc(self[expression]))
        case .ascNullsLast(let expression): return SQLOrdering(impl: .ascNullsLast(self[expression]))
        case .descNullsFirst(let expression): return SQLOrdering(impl: .descNullsFirst(self[expression]))
        case .literal:
            // Raw SQL is rendered as written.
            return ordering
        case let .deferred(orderings, reversed):
            return SQLOrdering(impl: .deferred({ [self] db in try orderings(db).map { self[$0] } }, reversed: reversed))
        }
    }

    /// A column of the aliased table, by name: `"alias"."column"`.
    public subscript(_ columnName: String) -> SQLExpression {
        identity.column(columnName)
    }
}

/// The identity of a table alias, shared by the copies of the requests that
/// use it: the name it resolves to is looked up by identity when a request
/// renders (see `SQLGenerationContext.aliasNames`).
final class AliasIdentity: Sendable {
    /// The name given by the user.
    let userName: String?

    /// The table the alias refers to, and the alias it was merged with
    /// (two aliases for one table, in requests that join the same
    /// association twice).
    private let state = Locked<(tableName: String?, target: AliasIdentity?)>((nil, nil))

    init(userName: String?) {
        self.userName = userName
    }

    /// Ties the alias to a table.
    ///
    /// - Precondition: The alias is not tied to another table.
    func bind(to tableName: String) {
        state.withLock { state in
            if let bound = state.tableName {
                stopUnless(bound.equalsIgnoringASCIICase(tableName),
                    "A TableAlias must not be used to refer to several tables: "
                    + "it refers to \"\(bound)\", and is used for \"\(tableName)\". Create one alias per table.")
            } else {
                state.tableName = tableName
            }
        }
    }

    /// Makes this alias resolve to the name of another one (both name one
    /// table of a request).
    func redirect(to other: AliasIdentity) {
        // Redirect the ends of both chains: no cycle.
        let from = resolved, to = other.resolved
        guard from !== to else { return }
        from.state.withLock { $0.target = to }
    }

    /// The alias this one resolves through.
    var resolved: AliasIdentity {
        var current = self
        while let target = current.state.withLock({ $0.target }) {
            current = target
        }
        return current
    }

    /// The name of the alias in the query being rendered.
    ///
    /// - Throws: A ``DatabaseError`` when the alias is not used by the
    ///   request.
    func name(_ context: SQLGenerationContext) throws -> String {
        let resolved = self.resolved
        if let name = context.aliasNames[ObjectIdentifier(resolved)] { return name }
        if let name = resolved.userName { return name }
        if let tableName = resolved.state.withLock({ $0.tableName }) { return tableName }
        throw context.db.makeError(
            resultCode: .SQLITE_MISUSE,
            message: "a TableAlias without name is used by a request that does not alias any table with it",
            sql: nil, arguments: nil)
    }

    /// The table the alias is tied to, if any.
    var tableName: String? {
        resolved.state.withLock { $0.tableName } ?? state.withLock { $0.tableName }
    }

    /// Renders SQL whose unqualified columns are qualified by the alias
    /// (or not at all, for an alias without name of a request of one
    /// table, whose columns are not qualified).
    func qualifying(_ context: SQLGenerationContext, _ render: () throws -> String) throws -> String {
        let qualifier = context.unqualifiedAliases.contains(ObjectIdentifier(resolved)) ? nil : try name(context)
        return try context.withDefaultQualifier(qualifier, render)
    }

    /// A column qualified by the alias.
    func column(_ name: String) -> SQLExpression {
        .literal(SQL(elements: [.deferred { [self] context in
            // An alias without name of a request of one table does not
            // qualify its columns, as the table does not.
            let qualifier = context.unqualifiedAliases.contains(ObjectIdentifier(self.resolved)) ? nil : try self.name(context)
            let column = SQLRelation.column(name, qualifier: qualifier)
            return try column.sql(context)
        }]))
    }
}
