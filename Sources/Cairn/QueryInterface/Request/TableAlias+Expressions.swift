// JSON values of a table alias: `alias[jsonValue]`, `alias[jsonColumn]`.

extension TableAliasBase {
    /// A JSON value whose columns are the columns of the aliased table.
    ///
    /// ```swift
    /// // SELECT "p"."info" ->> 'score' FROM "player" "p"
    /// let alias = TableAlias(name: "p")
    /// let request = Player.aliased(alias).select(alias[Column("info").asJSON]["score"])
    /// ```
    ///
    /// - Parameter expression: A JSON value (see ``SQLJSONExpressible``).
    public subscript(_ expression: some SQLJSONExpressible) -> AnySQLJSONExpressible {
        AnySQLJSONExpressible(jsonValue: identity.qualify(expression.sqlExpression))
    }

    /// A JSON column of the aliased table: `"alias"."column"`.
    ///
    /// ```swift
    /// // SELECT "p"."info" ->> 'score' FROM "player" "p"
    /// let alias = TableAlias(name: "p")
    /// let request = Player.aliased(alias).select(alias[JSONColumn("info")]["score"])
    /// ```
    ///
    /// - Parameter column: A JSON column, such as a ``JSONColumn``.
    public subscript<C: ColumnExpression & SQLJSONExpressible>(_ column: C) -> AnySQLJSONExpressible {
        AnySQLJSONExpressible(jsonValue: identity.column(column.name))
    }
}

extension TableAlias where RowDecoder: TableRecord {
    /// A JSON column of the record's `Columns`, qualified by the alias:
    /// `playerAlias.info` is `"player"."info"`, a JSON value.
    public subscript<C: ColumnExpression & SQLJSONExpressible>(
        dynamicMember keyPath: KeyPath<RowDecoder.DatabaseComponents, C>) -> AnySQLJSONExpressible
    {
        AnySQLJSONExpressible(jsonValue: identity.column(RowDecoder.databaseComponents[keyPath: keyPath].name))
    }
}

extension AliasIdentity {
    /// An expression whose unqualified columns are qualified by the alias
    /// (or left unqualified, as the columns of the alias are, in a request
    /// of one table).
    func qualify(_ expression: SQLExpression) -> SQLExpression {
        SQLExpression(
            impl: .qualified({ [self] context in
                context.unqualifiedAliases.contains(ObjectIdentifier(self.resolved)) ? nil : try self.name(context)
            }, expression),
            jsonInterpretation: expression.jsonInterpretation)
    }
}
