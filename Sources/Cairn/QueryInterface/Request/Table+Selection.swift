// Selections of a table given as arrays.

extension Table {
    /// A request of the table that selects the given array of columns and
    /// expressions.
    ///
    /// ```swift
    /// // SELECT "id", "name" FROM "player"
    /// let columns: [any SQLSelectable] = [Column("id"), Column("name")]
    /// let request = Table("player").select(columns)
    /// ```
    ///
    /// See ``SelectionRequest/select(_:)-([SQLSelectable])``.
    public func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> {
        all().select(selection)
    }

    /// A request of the table that selects the given array of columns and
    /// expressions, and fetches values of type `T`.
    ///
    /// See ``QueryInterfaceRequest/select(_:as:)-([SQLSelectable],_)``.
    public func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }
}
