// CAST(… AS …) to a storage class. The overloads that take a column type
// are preferred for literals such as `.real` (both give the same SQL).

/// `CAST(value AS storageClass)`: the value converted to a storage class.
///
/// ```swift
/// let storageClass = Database.StorageClass.real
/// cast(Column("score"), as: storageClass)   // CAST("score" AS REAL)
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_expr.html#castexpr>
@_disfavoredOverload
public func cast(_ expression: some SQLSpecificExpressible, as storageClass: Database.StorageClass) -> SQLExpression {
    SQLExpression(impl: .cast(expression.sqlExpression, storageClass.rawValue))
}

/// An aggregate converted to a storage class: `CAST(aggregate AS
/// storageClass)`. The aggregate keeps its name.
///
/// ```swift
/// let storageClass = Database.StorageClass.real
/// let request = Team.annotated(with: cast(Team.players.average(Column("score")), as: storageClass))
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_expr.html#castexpr>
@_disfavoredOverload
public func cast<RowDecoder>(
    _ aggregate: AssociationAggregate<RowDecoder>,
    as storageClass: Database.StorageClass) -> AssociationAggregate<RowDecoder>
{
    AssociationAggregate(
        children: aggregate.children,
        expression: cast(aggregate.expression, as: storageClass),
        key: aggregate.key)
}
