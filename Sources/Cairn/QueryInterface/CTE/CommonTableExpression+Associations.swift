// Embedding common table expressions in requests (`with(_:)`), in SQL
// literals, and joining them with associations (`association(to:on:)`).

// MARK: - Embedding

extension DerivableRequest {
    /// Returns the request with a common table expression in its `WITH`
    /// clause. A CTE of the same name that the request already embeds is
    /// replaced.
    ///
    /// On an association, the CTE goes in the `WITH` clause of the request
    /// that joins the association.
    ///
    /// ```swift
    /// // WITH "playerName" AS (SELECT 'O''Brien')
    /// // SELECT * FROM "player" WHERE "name" = (SELECT * FROM "playerName")
    /// let request = Player
    ///     .with(playerNameCTE)
    ///     .filter(Column("name") == playerNameCTE.all())
    /// ```
    ///
    /// SQLite: https://sqlite.org/lang_with.html
    public func with<T>(_ cte: CommonTableExpression<T>) -> Self {
        _mapRelation { $0.relation.addCTE(cte.definition) }
    }
}

extension TableRecord {
    /// The request of all records, with a common table expression in its
    /// `WITH` clause.
    ///
    /// ```swift
    /// let request = Player.with(playerNameCTE).filter(Column("name") == playerNameCTE.all())
    /// ```
    public static func with<T>(_ cte: CommonTableExpression<T>) -> QueryInterfaceRequest<Self> {
        all().with(cte)
    }
}

extension Table {
    /// The request of all rows of the table, with a common table
    /// expression in its `WITH` clause.
    public func with<T>(_ cte: CommonTableExpression<T>) -> QueryInterfaceRequest<RowDecoder> {
        all().with(cte)
    }
}

extension SQL.StringInterpolation {
    /// Interpolates the name of a common table expression, to select from
    /// it: `SELECT * FROM \(cte)` renders `SELECT * FROM "cte"`.
    public mutating func appendInterpolation<T>(_ cte: CommonTableExpression<T>) {
        elements.append(.sql(cte.tableName.quotedDatabaseIdentifier, StatementArguments()))
    }

    /// Interpolates the definition of a common table expression, for the
    /// `WITH` clause of an SQL literal: `"cte"("a") AS (SELECT ...)`.
    ///
    /// ```swift
    /// let request: SQLRequest<Player> = """
    ///     WITH \(definitionFor: playerNameCTE)
    ///     SELECT * FROM player WHERE name = (SELECT * FROM \(playerNameCTE))
    ///     """
    /// ```
    ///
    /// Rendering throws a ``DatabaseError`` when one literal defines two
    /// CTEs of the same name.
    public mutating func appendInterpolation<T>(definitionFor cte: CommonTableExpression<T>) {
        let definition = cte.definition
        elements.append(.deferred { context in
            guard context.definedCTENames.insert(definition.tableName.lowercased()).inserted else {
                throw context.db.makeError(
                    resultCode: .SQLITE_MISUSE,
                    message: "the common table expression \"\(definition.tableName)\" is defined twice "
                        + "in one WITH clause: give one of them another name",
                    sql: nil, arguments: nil)
            }
            return try definition.sql(context)
        })
    }
}

// MARK: - Associations

/// A to-one association to or from a common table expression, whose join
/// condition is given by a closure (see
/// ``TableRecord/association(to:on:)-(CommonTableExpression<Destination>,_)``).
///
/// ```swift
/// // WITH "latestMessage" AS (...)
/// // SELECT "chat".*, "latestMessage".* FROM "chat"
/// // LEFT JOIN "latestMessage" ON "chat"."id" = "latestMessage"."chatId"
/// let latestMessage = Chat.association(to: latestMessageCTE) { chat, message in
///     chat[Column("id")] == message[Column("chatId")]
/// }
/// let request = Chat.with(latestMessageCTE).including(optional: latestMessage)
/// ```
///
/// Being to-one, it cannot be used with `including(all:)`.
public struct JoinAssociation<Origin, Destination>: AssociationToOne {
    /// The type of the rows the association starts from.
    public typealias OriginRowDecoder = Origin
    /// The type of the associated rows.
    public typealias RowDecoder = Destination

    /// The definition of the association. Not for use by applications.
    public var _sqlAssociation: _SQLAssociation

    /// Creates the association from its definition. Not for use by
    /// applications.
    public init(_sqlAssociation: _SQLAssociation) {
        self._sqlAssociation = _sqlAssociation
    }
}

extension JoinAssociation {
    /// An association to a relation, with a condition on the aliases of
    /// both tables (nil for no condition), and the key of the destination
    /// table name.
    static func make(
        to destination: SQLRelation,
        condition: (@Sendable (TableAlias<Origin>, TableAlias<Destination>) -> any SQLExpressible)?) -> Self
    {
        let custom: JoinCondition.Custom = { parentName, joinedName in
            condition.map { condition in
                condition(TableAlias<Origin>(name: parentName), TableAlias<Destination>(name: joinedName)).sqlExpression
            }
        }
        return JoinAssociation(_sqlAssociation: _SQLAssociation(steps: [AssociationStep(
            key: .table(destination.tableName),
            condition: JoinCondition(custom: custom),
            relation: destination,
            isToMany: false)]))
    }
}

extension TableRecord {
    /// Declares an association from this record type to a common table
    /// expression, joined on the condition that the closure returns from
    /// the aliases of both tables.
    ///
    /// ```swift
    /// // ... JOIN "cte" ON "player"."id" = "cte"."playerId"
    /// let association = Player.association(to: cte) { player, cte in
    ///     player[Column("id")] == cte[Column("playerId")]
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - cte: The common table expression, which requests embed with
    ///     `with(_:)`.
    ///   - condition: The join condition.
    public static func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition: @escaping @Sendable (_ left: TableAlias<Self>, _ right: TableAlias<Destination>) -> any SQLExpressible)
        -> JoinAssociation<Self, Destination>
    {
        .make(to: cte.relation, condition: condition)
    }

    /// Declares an association from this record type to a common table
    /// expression, without join condition: `JOIN "cte"`. Filters of the
    /// association go in the ON clause.
    public static func association<Destination>(to cte: CommonTableExpression<Destination>) -> JoinAssociation<Self, Destination> {
        .make(to: cte.relation, condition: nil)
    }
}

extension Table {
    /// Declares an association from this table to a common table
    /// expression, joined on the condition that the closure returns.
    ///
    /// See ``TableRecord/association(to:on:)-(CommonTableExpression<Destination>,_)``.
    public func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition: @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible)
        -> JoinAssociation<RowDecoder, Destination>
    {
        .make(to: cte.relation, condition: condition)
    }

    /// Declares an association from this table to a common table
    /// expression, without join condition.
    public func association<Destination>(to cte: CommonTableExpression<Destination>) -> JoinAssociation<RowDecoder, Destination> {
        .make(to: cte.relation, condition: nil)
    }
}

extension CommonTableExpression {
    /// The relation of the rows of the CTE, as a joined table.
    var relation: SQLRelation {
        SQLRelation(tableName: tableName, selection: [AllColumns().sqlSelection])
    }

    /// Declares an association from this CTE to another one, joined on the
    /// condition that the closure returns.
    ///
    /// ```swift
    /// let association = cte1.association(to: cte2) { left, right in
    ///     left[Column("id")] == right[Column("parentId")]
    /// }
    /// ```
    public func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition: @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible)
        -> JoinAssociation<RowDecoder, Destination>
    {
        .make(to: cte.relation, condition: condition)
    }

    /// Declares an association from this CTE to another one, without join
    /// condition.
    public func association<Destination>(to cte: CommonTableExpression<Destination>) -> JoinAssociation<RowDecoder, Destination> {
        .make(to: cte.relation, condition: nil)
    }

    /// Declares an association from this CTE to a record type, joined on
    /// the condition that the closure returns.
    public func association<Destination: TableRecord>(
        to destination: Destination.Type,
        on condition: @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible)
        -> JoinAssociation<RowDecoder, Destination>
    {
        .make(to: Destination.associationRelation, condition: condition)
    }

    /// Declares an association from this CTE to a record type, without
    /// join condition.
    public func association<Destination: TableRecord>(to destination: Destination.Type) -> JoinAssociation<RowDecoder, Destination> {
        .make(to: Destination.associationRelation, condition: nil)
    }

    /// Declares an association from this CTE to a table, joined on the
    /// condition that the closure returns.
    public func association<Destination>(
        to destination: Table<Destination>,
        on condition: @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible)
        -> JoinAssociation<RowDecoder, Destination>
    {
        .make(to: destination.all().relation, condition: condition)
    }

    /// Declares an association from this CTE to a table, without join
    /// condition.
    public func association<Destination>(to destination: Table<Destination>) -> JoinAssociation<RowDecoder, Destination> {
        .make(to: destination.all().relation, condition: nil)
    }
}
