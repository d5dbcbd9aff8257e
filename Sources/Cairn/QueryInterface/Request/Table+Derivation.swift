// The refinements of a Table, which start a request of all its rows, and
// the associations that start from a Table.

extension Table {
    /// See ``SelectionRequest/select(sql:arguments:)``.
    public func select(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> {
        all().select(literal: sqlLiteral)
    }

    /// Selects an SQL literal, and changes the type of the fetched values.
    ///
    /// ```swift
    /// let maxScore = try Table("player").select(literal: "MAX(score)", as: Int.self).fetchOne(db)
    /// ```
    public func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(literal: sqlLiteral, as: type)
    }

    /// Selects raw SQL, and changes the type of the fetched values.
    public func select<T>(
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        as type: T.Type = T.self) -> QueryInterfaceRequest<T>
    {
        all().select(sql: sql, arguments: arguments, as: type)
    }

    /// Selects the primary key of the table (`rowid` for a table without
    /// explicit primary key), decoded as `PrimaryKey`.
    public func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self) -> QueryInterfaceRequest<PrimaryKey> {
        all().selectPrimaryKey(as: type)
    }

    /// See ``OrderedRequest/order(literal:)``.
    public func order(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> {
        all().order(literal: sqlLiteral)
    }

    /// See ``TableRequest/orderByPrimaryKey()``.
    public func orderByPrimaryKey() -> QueryInterfaceRequest<RowDecoder> {
        all().orderByPrimaryKey()
    }

    /// See ``DerivableRequest/annotated(with:)-(AssociationAggregate<RowDecoder>...)``.
    public func annotated(with aggregates: AssociationAggregate<RowDecoder>...) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: aggregates)
    }

    /// See ``DerivableRequest/annotated(with:)-(AssociationAggregate<RowDecoder>...)``.
    public func annotated(with aggregates: [AssociationAggregate<RowDecoder>]) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: aggregates)
    }

    /// See ``DerivableRequest/having(_:)-(AssociationAggregate<RowDecoder>)``.
    public func having(_ predicate: AssociationAggregate<RowDecoder>) -> QueryInterfaceRequest<RowDecoder> {
        all().having(predicate)
    }

    // MARK: Joins

    /// See ``JoinableRequest/including(required:)``.
    public func including<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().including(required: association)
    }

    /// See ``JoinableRequest/including(optional:)``.
    public func including<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().including(optional: association)
    }

    /// See ``JoinableRequest/including(all:)``.
    public func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().including(all: association)
    }

    /// See ``JoinableRequest/joining(required:)``.
    public func joining<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().joining(required: association)
    }

    /// See ``JoinableRequest/joining(optional:)``.
    public func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().joining(optional: association)
    }

    /// See ``JoinableRequest/annotated(withRequired:)``.
    public func annotated<A: Association>(withRequired association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().annotated(withRequired: association)
    }

    /// See ``JoinableRequest/annotated(withOptional:)``.
    public func annotated<A: Association>(withOptional association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().annotated(withOptional: association)
    }

    // MARK: Declaring associations

    /// Declares a ``BelongsToAssociation`` from this table: it has a foreign
    /// key to the table of `destination`.
    ///
    /// ```swift
    /// let bookTable = Table("book")
    /// let author = bookTable.belongsTo(Table("author"))
    /// let rows = try bookTable.including(required: author).fetchAll(db)
    /// ```
    ///
    /// - Parameters:
    ///   - destination: The associated record type.
    ///   - key: The association key; by default, the singular table name of
    ///     the destination.
    ///   - foreignKey: The foreign key, when the schema does not declare
    ///     exactly one from this table to the destination.
    public func belongsTo<Destination: TableRecord>(
        _ destination: Destination.Type,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> BelongsToAssociation<RowDecoder, Destination>
    {
        BelongsToAssociation(_sqlAssociation: _SQLAssociation.belongsTo(
            from: tableName, to: Destination.associationRelation, key: key, using: foreignKey))
    }

    /// Declares a ``BelongsToAssociation`` from this table to another
    /// table.
    public func belongsTo<Destination>(
        _ destination: Table<Destination>,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> BelongsToAssociation<RowDecoder, Destination>
    {
        BelongsToAssociation(_sqlAssociation: _SQLAssociation.belongsTo(
            from: tableName, to: destination.all().relation, key: key, using: foreignKey))
    }

    /// Declares a ``HasManyAssociation`` from this table: the table of
    /// `destination` has a foreign key to it.
    ///
    /// - Parameters:
    ///   - destination: The associated record type.
    ///   - key: The association key; by default, the table name of the
    ///     destination.
    ///   - foreignKey: The foreign key, when the schema does not declare
    ///     exactly one from the destination to this table.
    public func hasMany<Destination: TableRecord>(
        _ destination: Destination.Type,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasManyAssociation<RowDecoder, Destination>
    {
        HasManyAssociation(_sqlAssociation: _SQLAssociation.has(
            from: tableName, to: Destination.associationRelation, key: key, using: foreignKey, isToMany: true))
    }

    /// Declares a ``HasManyAssociation`` from this table to another table.
    public func hasMany<Destination>(
        _ destination: Table<Destination>,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasManyAssociation<RowDecoder, Destination>
    {
        HasManyAssociation(_sqlAssociation: _SQLAssociation.has(
            from: tableName, to: destination.all().relation, key: key, using: foreignKey, isToMany: true))
    }

    /// Declares a ``HasOneAssociation`` from this table: the table of
    /// `destination` has a foreign key to it.
    ///
    /// - Parameters:
    ///   - destination: The associated record type.
    ///   - key: The association key; by default, the singular table name of
    ///     the destination.
    ///   - foreignKey: The foreign key, when the schema does not declare
    ///     exactly one from the destination to this table.
    public func hasOne<Destination: TableRecord>(
        _ destination: Destination.Type,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasOneAssociation<RowDecoder, Destination>
    {
        HasOneAssociation(_sqlAssociation: _SQLAssociation.has(
            from: tableName, to: Destination.associationRelation, key: key, using: foreignKey, isToMany: false))
    }

    /// Declares a ``HasOneAssociation`` from this table to another table.
    public func hasOne<Destination>(
        _ destination: Table<Destination>,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasOneAssociation<RowDecoder, Destination>
    {
        HasOneAssociation(_sqlAssociation: _SQLAssociation.has(
            from: tableName, to: destination.all().relation, key: key, using: foreignKey, isToMany: false))
    }

    /// Declares a ``HasManyThroughAssociation`` from this table: the records
    /// that `target` leads to, from the records that `pivot` leads to.
    ///
    /// - Parameters:
    ///   - destination: The associated record type.
    ///   - pivot: An association from this table.
    ///   - target: An association from the records of `pivot`.
    ///   - key: The association key; by default, the key of `target`.
    public func hasMany<Pivot: Association, Target: Association>(
        _ destination: Target.RowDecoder.Type,
        through pivot: Pivot,
        using target: Target,
        key: String? = nil) -> HasManyThroughAssociation<RowDecoder, Target.RowDecoder>
    where Pivot.OriginRowDecoder == RowDecoder, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        HasManyThroughAssociation(_sqlAssociation: _SQLAssociation.through(
            pivot._sqlAssociation, target._sqlAssociation, key: key, isToMany: true))
    }

    /// Declares a ``HasOneThroughAssociation`` from this table: the record
    /// that `target` leads to, from the record that `pivot` leads to.
    ///
    /// - Parameters:
    ///   - destination: The associated record type.
    ///   - pivot: An association to one record, from this table.
    ///   - target: An association to one record, from the record of
    ///     `pivot`.
    ///   - key: The association key; by default, the key of `target`.
    public func hasOne<Pivot: AssociationToOne, Target: AssociationToOne>(
        _ destination: Target.RowDecoder.Type,
        through pivot: Pivot,
        using target: Target,
        key: String? = nil) -> HasOneThroughAssociation<RowDecoder, Target.RowDecoder>
    where Pivot.OriginRowDecoder == RowDecoder, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        HasOneThroughAssociation(_sqlAssociation: _SQLAssociation.through(
            pivot._sqlAssociation, target._sqlAssociation, key: key, isToMany: false))
    }
}

extension Table where RowDecoder: TableRecord {
    /// The type of the values that the closures of requests receive: the
    /// record type's ``TableRecord/DatabaseComponents``.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents
}

extension Table where RowDecoder: Identifiable {
    /// Selects the primary key of the table, decoded as the id of the
    /// record type.
    public func selectID() -> QueryInterfaceRequest<RowDecoder.ID> {
        selectPrimaryKey(as: RowDecoder.ID.self)
    }

    /// Selects the primary key of the table, decoded as the wrapped type of
    /// the optional id of the record type: a primary key is never NULL.
    public func selectID<Wrapped>() -> QueryInterfaceRequest<Wrapped> where RowDecoder.ID == Wrapped? {
        selectPrimaryKey(as: Wrapped.self)
    }
}
