/// An assignment of a column, in a batch update (see
/// ``QueryInterfaceRequest/updateAll(_:onConflict:_:)-(Database,Database.ConflictResolution?,ColumnAssignment...)``)
/// or in the `DO UPDATE` clause of an upsert.
///
/// ```swift
/// Column("score").set(to: 0)      // "score" = ?
/// Column("score") += 10           // "score" = "score" + ?
/// Column("name").set(to: nil)     // "name" = NULL
/// Column("name").noOverwrite      // an upsert keeps the stored name
/// ```
public struct ColumnAssignment: Sendable {
    let columnName: String
    /// Nil for ``ColumnExpression/noOverwrite``.
    let value: SQLExpression?

    /// Renders `"column" = value`. Not for a `noOverwrite` assignment.
    func sql(_ context: SQLGenerationContext) throws -> String {
        guard let value else {
            throw context.db.makeError(
                resultCode: .SQLITE_MISUSE,
                message: "the noOverwrite assignment of column \(columnName) is only for the DO UPDATE clause of an upsert",
                sql: nil, arguments: nil)
        }
        return columnName.quotedDatabaseIdentifier + " = " + (try value.sql(context))
    }
}

extension ColumnExpression {
    /// Sets the column to a value.
    public func set(to value: (any SQLExpressible)?) -> ColumnAssignment {
        ColumnAssignment(columnName: name, value: value.sqlExpressionOrNull)
    }

    /// In the `DO UPDATE` clause of an upsert, keeps the stored value of the
    /// column, instead of overwriting it with the value of the record.
    ///
    /// ```swift
    /// // INSERT INTO "vocabulary" ("word", "kind", "isTainted") VALUES (?, ?, ?)
    /// // ON CONFLICT("word") DO UPDATE SET "count" = "count" + ?, "kind" = "excluded"."kind"
    /// // RETURNING *, "rowid"
    /// let upserted = try vocabulary.upsertAndFetch(db, onConflict: ["word"]) { _ in
    ///     [Column("count") += 1, Column("isTainted").noOverwrite]
    /// }
    /// ```
    public var noOverwrite: ColumnAssignment {
        ColumnAssignment(columnName: name, value: nil)
    }
}
