/// The columns that link two tables, for associations whose foreign key is
/// not declared in the database schema, or is ambiguous.
///
/// A foreign key is always defined from the table that holds the origin
/// columns: `book.authorId` for both `Book.author` and `Person.writtenBooks`.
///
/// ```swift
/// extension Book {
///     static let authorForeignKey = ForeignKey([Column("authorId")])
///     static let translatorForeignKey = ForeignKey([Column("translatorId")])
///     static let author = belongsTo(Person.self, using: authorForeignKey)
///     static let translator = belongsTo(Person.self, using: translatorForeignKey)
/// }
/// extension Person {
///     static let writtenBooks = hasMany(Book.self, using: Book.authorForeignKey)
/// }
/// ```
///
/// When the destination columns are not given, they are those of the
/// foreign key declared in the schema, or the primary key of the destination
/// table (its `rowid` when it has no explicit primary key).
///
/// Related SQLite documentation: <https://www.sqlite.org/foreignkeys.html>
public struct ForeignKey: Sendable, Hashable {
    /// The columns of the table that holds the foreign key.
    public let originColumns: [String]

    /// The columns of the referenced table, or nil for its primary key.
    public let destinationColumns: [String]?

    /// Creates a foreign key from column names.
    ///
    /// - Parameters:
    ///   - originColumns: The columns of the table that holds the key.
    ///   - destinationColumns: The referenced columns; nil for the primary
    ///     key of the referenced table.
    public init(_ originColumns: [String], to destinationColumns: [String]? = nil) {
        self.originColumns = originColumns
        self.destinationColumns = destinationColumns
    }

    /// Creates a foreign key from columns.
    ///
    /// - Parameters:
    ///   - originColumns: The columns of the table that holds the key.
    ///   - destinationColumns: The referenced columns; nil for the primary
    ///     key of the referenced table.
    public init(_ originColumns: [any ColumnExpression], to destinationColumns: [any ColumnExpression]? = nil) {
        self.init(originColumns.map(\.name), to: destinationColumns?.map(\.name))
    }
}

extension ForeignKey {
    /// Resolves the column pairs of a foreign key from `originTable` to
    /// `destinationTable`: the given foreign key, or the one declared in
    /// the schema.
    ///
    /// - Throws: A ``DatabaseError`` that names both tables when no foreign
    ///   key, or several, link them, or when the columns do not match.
    static func resolve(
        _ db: Database,
        _ foreignKey: ForeignKey?,
        from originTable: String,
        to destinationTable: String) throws -> [(origin: String, destination: String)]
    {
        func error(_ message: String) -> DatabaseError {
            db.makeError(resultCode: .SQLITE_ERROR, message: message, sql: nil, arguments: nil)
        }
        let declared = try db.cachedForeignKeys(on: originTable)
            .filter { $0.destinationTable.equalsIgnoringASCIICase(destinationTable) }
        guard let foreignKey else {
            switch declared.count {
            case 1:
                return declared[0].mapping.map { (origin: $0.origin, destination: $0.destination) }
            case 0:
                throw error("could not infer the foreign key from \"\(originTable)\" to \"\(destinationTable)\": "
                    + "the database schema declares none. Give the association a ForeignKey, such as "
                    + "ForeignKey([Column(\"\(Inflections.default.singularize(destinationTable))Id\")])")
            default:
                let candidates = declared.map { "[" + $0.originColumns.joined(separator: ", ") + "]" }
                throw error("ambiguous foreign key from \"\(originTable)\" to \"\(destinationTable)\": "
                    + "the database schema declares several, from the columns "
                    + candidates.joined(separator: " and ")
                    + ". Give the association the ForeignKey to use")
            }
        }
        let destinationColumns: [String]
        if let columns = foreignKey.destinationColumns {
            destinationColumns = columns
        } else if let match = declared.first(where: {
            $0.originColumns.map { $0.lowercased() } == foreignKey.originColumns.map { $0.lowercased() }
        }) {
            destinationColumns = match.destinationColumns
        } else {
            destinationColumns = try db.primaryKey(destinationTable).columns
        }
        guard destinationColumns.count == foreignKey.originColumns.count, !destinationColumns.isEmpty else {
            throw error("the foreign key from \"\(originTable)\" [\(foreignKey.originColumns.joined(separator: ", "))] "
                + "does not match the columns [\(destinationColumns.joined(separator: ", "))] of \"\(destinationTable)\"")
        }
        return zip(foreignKey.originColumns, destinationColumns).map { (origin: $0, destination: $1) }
    }
}

// MARK: - Declaring associations

extension TableRecord {
    /// The relation of the records of a table, with their default
    /// selection.
    static var associationRelation: SQLRelation {
        SQLRelation(tableName: databaseTableName, selection: databaseSelection.map(\.sqlSelection))
    }

    /// Declares a ``BelongsToAssociation``: this type has a foreign key to
    /// `destination`.
    ///
    /// ```swift
    /// extension Book {
    ///     static let author = belongsTo(Author.self)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - destination: The associated record type.
    ///   - key: The association key; by default, the singular table name of
    ///     the destination.
    ///   - foreignKey: The foreign key, when the schema does not declare
    ///     exactly one from this table to the destination.
    public static func belongsTo<Destination: TableRecord>(
        _ destination: Destination.Type,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> BelongsToAssociation<Self, Destination>
    {
        BelongsToAssociation(_sqlAssociation: _SQLAssociation.belongsTo(
            from: databaseTableName, to: Destination.associationRelation, key: key, using: foreignKey))
    }

    /// Declares a ``BelongsToAssociation`` to a table whose rows are
    /// decoded as `Destination`.
    ///
    /// ```swift
    /// static let author = belongsTo(Table("author"))
    /// ```
    public static func belongsTo<Destination>(
        _ destination: Table<Destination>,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> BelongsToAssociation<Self, Destination>
    {
        BelongsToAssociation(_sqlAssociation: _SQLAssociation.belongsTo(
            from: databaseTableName, to: destination.all().relation, key: key, using: foreignKey))
    }

    /// Declares a ``HasManyAssociation``: `destination` has a foreign key
    /// to this type.
    ///
    /// ```swift
    /// extension Author {
    ///     static let books = hasMany(Book.self)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - destination: The associated record type.
    ///   - key: The association key; by default, the plural table name of
    ///     the destination.
    ///   - foreignKey: The foreign key (from the destination table), when
    ///     the schema does not declare exactly one from the destination to
    ///     this table.
    public static func hasMany<Destination: TableRecord>(
        _ destination: Destination.Type,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasManyAssociation<Self, Destination>
    {
        HasManyAssociation(_sqlAssociation: _SQLAssociation.has(
            from: databaseTableName, to: Destination.associationRelation, key: key, using: foreignKey, isToMany: true))
    }

    /// Declares a ``HasManyAssociation`` to a table whose rows are decoded
    /// as `Destination`.
    public static func hasMany<Destination>(
        _ destination: Table<Destination>,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasManyAssociation<Self, Destination>
    {
        HasManyAssociation(_sqlAssociation: _SQLAssociation.has(
            from: databaseTableName, to: destination.all().relation, key: key, using: foreignKey, isToMany: true))
    }

    /// Declares a ``HasOneAssociation``: `destination` has a foreign key to
    /// this type, and there is one such record at most.
    ///
    /// ```swift
    /// extension Country {
    ///     static let demographics = hasOne(Demographics.self, key: "demographics")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - destination: The associated record type.
    ///   - key: The association key; by default, the singular table name of
    ///     the destination.
    ///   - foreignKey: The foreign key (from the destination table), when
    ///     the schema does not declare exactly one from the destination to
    ///     this table.
    public static func hasOne<Destination: TableRecord>(
        _ destination: Destination.Type,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasOneAssociation<Self, Destination>
    {
        HasOneAssociation(_sqlAssociation: _SQLAssociation.has(
            from: databaseTableName, to: Destination.associationRelation, key: key, using: foreignKey, isToMany: false))
    }

    /// Declares a ``HasOneAssociation`` to a table whose rows are decoded as
    /// `Destination`.
    public static func hasOne<Destination>(
        _ destination: Table<Destination>,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasOneAssociation<Self, Destination>
    {
        HasOneAssociation(_sqlAssociation: _SQLAssociation.has(
            from: databaseTableName, to: destination.all().relation, key: key, using: foreignKey, isToMany: false))
    }

    /// Declares a ``HasManyThroughAssociation``: the records that `target`
    /// leads to, from the records that `pivot` leads to.
    ///
    /// ```swift
    /// extension Country {
    ///     static let passports = hasMany(Passport.self)
    ///     static let citizens = hasMany(Citizen.self, through: passports, using: Passport.citizen)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - destination: The associated record type.
    ///   - pivot: An association from this type.
    ///   - target: An association from the records of `pivot`.
    ///   - key: The association key; by default, the key of `target`.
    public static func hasMany<Pivot: Association, Target: Association>(
        _ destination: Target.RowDecoder.Type,
        through pivot: Pivot,
        using target: Target,
        key: String? = nil) -> HasManyThroughAssociation<Self, Target.RowDecoder>
    where Pivot.OriginRowDecoder == Self, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        HasManyThroughAssociation(_sqlAssociation: _SQLAssociation.through(
            pivot._sqlAssociation, target._sqlAssociation, key: key, isToMany: true))
    }

    /// Declares a ``HasOneThroughAssociation``: the record that `target`
    /// leads to, from the record that `pivot` leads to.
    ///
    /// ```swift
    /// extension Book {
    ///     static let library = belongsTo(Library.self)
    ///     static let returnAddress = hasOne(Address.self, through: library, using: Library.address)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - destination: The associated record type.
    ///   - pivot: An association to one record, from this type.
    ///   - target: An association to one record, from the record of
    ///     `pivot`.
    ///   - key: The association key; by default, the key of `target`.
    public static func hasOne<Pivot: AssociationToOne, Target: AssociationToOne>(
        _ destination: Target.RowDecoder.Type,
        through pivot: Pivot,
        using target: Target,
        key: String? = nil) -> HasOneThroughAssociation<Self, Target.RowDecoder>
    where Pivot.OriginRowDecoder == Self, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        HasOneThroughAssociation(_sqlAssociation: _SQLAssociation.through(
            pivot._sqlAssociation, target._sqlAssociation, key: key, isToMany: false))
    }
}

extension _SQLAssociation {
    /// A belongs-to association: the origin table has a foreign key to the
    /// destination.
    static func belongsTo(
        from originTable: String, to destination: SQLRelation,
        key: String?, using foreignKey: ForeignKey?) -> _SQLAssociation
    {
        let destinationTable = destination.tableName
        let identity = "\(originTable) belongs to \(destinationTable) with \(foreignKey.map { "\($0.originColumns)" } ?? "the schema's foreign key")"
        let condition = JoinCondition(identity: identity) { db in
            try ForeignKey.resolve(db, foreignKey, from: originTable, to: destinationTable)
                .map { (joined: $0.destination, parent: $0.origin) }
        }
        return _SQLAssociation(steps: [AssociationStep(
            key: key.map { .fixed($0) } ?? .table(destinationTable),
            condition: condition, relation: destination, isToMany: false)])
    }

    /// A has-one or has-many association: the destination has a foreign
    /// key to the origin table.
    static func has(
        from originTable: String, to destination: SQLRelation,
        key: String?, using foreignKey: ForeignKey?, isToMany: Bool) -> _SQLAssociation
    {
        let destinationTable = destination.tableName
        let identity = "\(destinationTable) belongs to \(originTable) with \(foreignKey.map { "\($0.originColumns)" } ?? "the schema's foreign key")"
        let condition = JoinCondition(identity: identity) { db in
            try ForeignKey.resolve(db, foreignKey, from: destinationTable, to: originTable)
                .map { (joined: $0.origin, parent: $0.destination) }
        }
        return _SQLAssociation(steps: [AssociationStep(
            key: key.map { .fixed($0) } ?? .table(destinationTable),
            condition: condition, relation: destination, isToMany: isToMany)])
    }

    /// A through association: the steps of `pivot`, then those of
    /// `target`.
    static func through(
        _ pivot: _SQLAssociation, _ target: _SQLAssociation, key: String?, isToMany: Bool) -> _SQLAssociation
    {
        var association = pivot.appending(target)
        if isToMany {
            // A to-many association: its default key is plural.
            association.steps[association.steps.count - 1].isToMany = true
        }
        if let key {
            association.steps[association.steps.count - 1].key = .fixed(key)
        }
        return association
    }
}
