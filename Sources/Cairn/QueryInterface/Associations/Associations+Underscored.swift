// The methods that GRDB declares with an underscore on joinable and table
// requests, for its companion libraries: they take the definition of an
// association (`_SQLAssociation`, from `Association._sqlAssociation`) or
// the base class of table aliases, where the public methods take the
// typed values. They build the same joins as the public methods.

extension JoinableRequest {
    /// Prefetches the records of an association, as
    /// ``JoinableRequest/including(all:)`` does.
    ///
    /// ```swift
    /// let request = Author.all()._including(all: Author.books._sqlAssociation)
    /// ```
    ///
    /// - Parameter association: The definition of an association that
    ///   starts from the records of this request.
    /// - Note: This method exists for the companion libraries of GRDB.
    public func _including(all association: _SQLAssociation) -> Self {
        let last = association.steps[association.steps.count - 1]
        let child = SQLRelation.Child(
            key: association.prefetchKeyName, kind: .prefetch, mode: .scope,
            condition: last.condition, relation: last.relation,
            prefetchSteps: association.steps)
        return _mapRelation { $0.relation.addPrefetched(child) }
    }

    /// Includes the associated record, or NULL columns when there is none
    /// (`LEFT JOIN`), as ``JoinableRequest/including(optional:)`` does.
    ///
    /// - Parameter association: The definition of an association that
    ///   starts from the records of this request.
    /// - Note: This method exists for the companion libraries of GRDB.
    public func _including(optional association: _SQLAssociation) -> Self {
        let child = association.child(kind: .optional, mode: .scope)
        return _mapRelation { $0.relation.add(child) }
    }

    /// Includes the associated record, and leaves out the rows without one
    /// (`JOIN`), as ``JoinableRequest/including(required:)`` does.
    ///
    /// - Parameter association: The definition of an association that
    ///   starts from the records of this request.
    /// - Note: This method exists for the companion libraries of GRDB.
    public func _including(required association: _SQLAssociation) -> Self {
        let child = association.child(kind: .required, mode: .scope)
        return _mapRelation { $0.relation.add(child) }
    }

    /// Joins the associated record with `LEFT JOIN`, without selecting its
    /// columns, as ``JoinableRequest/joining(optional:)`` does.
    ///
    /// - Parameter association: The definition of an association that
    ///   starts from the records of this request.
    /// - Note: This method exists for the companion libraries of GRDB.
    public func _joining(optional association: _SQLAssociation) -> Self {
        let child = association.child(kind: .optional, mode: .join)
        return _mapRelation { $0.relation.add(child) }
    }

    /// Joins the associated record, without selecting its columns, and
    /// leaves out the rows without one, as
    /// ``JoinableRequest/joining(required:)`` does.
    ///
    /// - Parameter association: The definition of an association that
    ///   starts from the records of this request.
    /// - Note: This method exists for the companion libraries of GRDB.
    public func _joining(required association: _SQLAssociation) -> Self {
        let child = association.child(kind: .required, mode: .join)
        return _mapRelation { $0.relation.add(child) }
    }
}

extension TableRequest {
    /// Gives the table of the request an alias, as
    /// ``TableRequest/aliased(_:)`` does, from an alias of any record type.
    ///
    /// - Parameter alias: A table alias.
    /// - Note: This method exists for the companion libraries of GRDB,
    ///   which handle aliases through their base class.
    public func _aliased(_ alias: TableAliasBase) -> Self {
        mapSQLRelation { relation in
            alias.identity.bind(to: relation.tableName)
            if let existing = relation.alias, existing !== alias.identity {
                alias.identity.redirect(to: existing)
            } else {
                relation.alias = alias.identity
            }
        }
    }
}
