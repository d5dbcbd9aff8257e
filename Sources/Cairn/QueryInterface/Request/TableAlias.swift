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
public final class TableAlias<RowDecoder>: Sendable {
    let identity: AliasIdentity

    /// Creates an alias.
    ///
    /// - Parameter name: The name of the alias in the SQL; nil uses the name
    ///   that the request gives to the table.
    public init(name: String? = nil) {
        identity = AliasIdentity(userName: name)
    }

    /// A column of the aliased table: `"alias"."column"`.
    public subscript(_ column: some ColumnExpression) -> SQLExpression {
        identity.column(column.name)
    }

    /// A column of the aliased table, by name.
    public subscript(_ columnName: String) -> SQLExpression {
        identity.column(columnName)
    }

    /// All columns of the aliased table: `"alias".*`.
    public var allColumns: SQLSelection {
        let identity = self.identity
        return SQLSelection(impl: .literal(SQL(elements: [.deferred { context in
            if context.unqualifiedAliases.contains(ObjectIdentifier(identity.resolved)) { return "*" }
            return try identity.name(context).quotedDatabaseIdentifier + ".*"
        }])))
    }
}

extension TableAlias where RowDecoder == Void {
    /// Creates an alias that is not tied to a record type.
    ///
    /// - Parameter name: The name of the alias in the SQL; nil uses the name
    ///   that the request gives to the table.
    public convenience init(name: String? = nil) {
        self.init(untypedName: name)
    }

    private convenience init(untypedName: String?) {
        self.init(typedName: untypedName)
    }
}

extension TableAlias {
    fileprivate convenience init(typedName: String?) {
        self.init(name: typedName)
    }
}

extension TableAlias where RowDecoder: TableRecord {
    /// A column of the record's `Columns`, qualified by the alias:
    /// `authorAlias.name` is `"author"."name"`.
    public subscript<C: ColumnExpression>(dynamicMember keyPath: KeyPath<RowDecoder.Columns.Type, C>) -> SQLExpression {
        identity.column(RowDecoder.Columns.self[keyPath: keyPath].name)
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
                precondition(bound.equalsIgnoringASCIICase(tableName),
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
