// Types whose raw value is a database value, an expression, a selection or
// an ordering term get the same abilities for free: declare the conformance,
// without implementing anything.
//
// ```swift
// enum Grape: String, DatabaseValueConvertible, StatementColumnConvertible {
//     case chardonnay, merlot, riesling
// }
//
// struct Identifier<RawValue>: RawRepresentable { var rawValue: RawValue }
// extension Identifier: DatabaseValueConvertible where RawValue: DatabaseValueConvertible { }
// ```

extension DatabaseValueConvertible where Self: RawRepresentable, Self.RawValue: DatabaseValueConvertible {
    /// The database value of the raw value.
    public var databaseValue: DatabaseValue { rawValue.databaseValue }

    /// The value whose raw value is converted from the database value, or
    /// nil if there is none.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(dbValue).flatMap { self.init(rawValue: $0) }
    }

    /// The database value, as an expression that renders as a statement
    /// argument.
    ///
    /// Raw representable values that are ``DatabaseValueConvertible`` could
    /// use the implementation of either protocol: this one, more specific,
    /// settles the choice.
    public var sqlExpression: SQLExpression {
        .value(databaseValue)
    }

    /// Binds the database value (see ``StatementBinding``).
    ///
    /// The corresponding C functions are the `sqlite3_bind_*` functions.
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        databaseValue.bind(to: sqliteStatement, at: index)
    }
}

extension SQLExpressible where Self: RawRepresentable, Self.RawValue: SQLExpressible {
    /// The expression of the raw value.
    public var sqlExpression: SQLExpression {
        rawValue.sqlExpression
    }
}

extension StatementBinding where Self: RawRepresentable, Self.RawValue: StatementBinding {
    /// Binds the raw value (see ``StatementBinding``).
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        rawValue.bind(to: sqliteStatement, at: index)
    }
}

extension StatementColumnConvertible where Self: RawRepresentable, Self.RawValue: StatementColumnConvertible {
    /// Reads the raw value from a column, and returns the value that has
    /// this raw value, or nil if the raw value cannot be read or has no
    /// value.
    ///
    /// - Parameters:
    ///   - sqliteStatement: A statement that has just returned `SQLITE_ROW`.
    ///   - index: A valid column index.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let rawValue = RawValue(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self.init(rawValue: rawValue)
    }
}

extension SQLSelectable where Self: RawRepresentable, Self.RawValue: SQLSelectable {
    /// The selection of the raw value.
    public var sqlSelection: SQLSelection {
        rawValue.sqlSelection
    }
}

extension SQLOrderingTerm where Self: RawRepresentable, Self.RawValue: SQLOrderingTerm {
    /// The ordering of the raw value.
    public var sqlOrdering: SQLOrdering {
        rawValue.sqlOrdering
    }
}
