// How a joined table of a request matches its parent (see `SQLRelation`).

/// How a joined table matches its parent: pairs of columns that must be
/// equal, resolved from the database schema when the query renders.
struct JoinCondition: Sendable {
    /// The condition of an association to a common table expression,
    /// written by the user: the expression for the names of the parent and
    /// joined tables, or nil for no condition.
    typealias Custom = @Sendable (_ parentName: String, _ joinedName: String) -> SQLExpression?

    /// Identifies the condition: two associations joined under one key
    /// must have the same condition.
    let identity: String

    /// Returns the pairs (column of the joined table, column of the parent
    /// table).
    let columnPairs: SQLRelation.Promise<[(joined: String, parent: String)]>

    /// The condition written by the user, if any: it replaces the pairs of
    /// columns.
    let custom: Custom?

    init(identity: String, columnPairs: @escaping SQLRelation.Promise<[(joined: String, parent: String)]>) {
        self.identity = identity
        self.columnPairs = columnPairs
        self.custom = nil
    }

    /// A condition written by the user, that no foreign key describes.
    init(custom: @escaping Custom) {
        self.identity = "a condition of association(to:on:)"
        self.custom = custom
        self.columnPairs = { db in
            throw db.makeError(
                resultCode: .SQLITE_MISUSE,
                message: "an association made with association(to:on:) has no foreign key: it cannot be used "
                    + "with including(all:), request(for:), or as the pivot of a through association",
                sql: nil, arguments: nil)
        }
    }

    /// Whether the condition was written by the user.
    var isCustom: Bool { custom != nil }

    /// The condition seen from the other side: the parent is joined to
    /// the child.
    var reversed: JoinCondition {
        if let custom {
            return JoinCondition(custom: { parentName, joinedName in custom(joinedName, parentName) })
        }
        let columnPairs = self.columnPairs
        return JoinCondition(identity: "reversed " + identity) { db in
            try columnPairs(db).map { (joined: $0.parent, parent: $0.joined) }
        }
    }

    /// The expression of the condition, for a joined table and its parent,
    /// with the given names; nil when there is no condition.
    func expression(_ db: Database, joinedName: String, parentName: String) throws -> SQLExpression? {
        if let custom {
            return custom(parentName, joinedName)
        }
        let conditions = try columnPairs(db).map { pair in
            SQLExpression(impl: .binary("=",
                SQLRelation.column(pair.joined, qualifier: joinedName),
                SQLRelation.column(pair.parent, qualifier: parentName)))
        }
        return .associative(.and, conditions)
    }
}
