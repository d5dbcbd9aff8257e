/// A row whose foreign key refers to a row that does not exist: a row of
/// `PRAGMA foreign_key_check`.
///
/// You get violations from ``Database/foreignKeyViolations()`` and
/// ``Database/foreignKeyViolations(in:in:)``:
///
/// ```swift
/// try dbQueue.read { db in
///     let violations = try db.foreignKeyViolations()
///     while let violation = try violations.next() {
///         violation.originTable      // "player": the table of the foreign key
///         violation.originRowID      // 1: the rowid of the faulty row
///         violation.destinationTable // "team": the table it refers to
///         violation.foreignKeyId     // the id of the ForeignKeyInfo
///
///         // "FOREIGN KEY constraint violation - from player to team, in rowid 1"
///         print(violation)
///         // "FOREIGN KEY constraint violation - from player(teamId) to team(id),
///         //  in [id:1 teamId:2 name:"O'Brien"]"
///         print(try violation.failureDescription(db))
///     }
/// }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_foreign_key_check>
public struct ForeignKeyViolation: Sendable {
    /// The table that holds the foreign key.
    public var originTable: String

    /// The rowid of the row whose foreign key refers to a missing row; nil
    /// when the table is a `WITHOUT ROWID` table.
    public var originRowID: Int64?

    /// The table that the foreign key refers to.
    public var destinationTable: String

    /// The id of the foreign key in its table: the ``ForeignKeyInfo/id`` of
    /// one of the ``Database/foreignKeys(on:in:)`` of ``originTable``.
    public var foreignKeyId: Int

    /// A description of the violation with the columns of the foreign key,
    /// and the faulty row when it can be read:
    ///
    /// ```
    /// FOREIGN KEY constraint violation - from player(teamId) to team(id), in [id:1 teamId:2 name:"O'Brien"]
    /// ```
    ///
    /// The description shows the values of the row: do not log it where
    /// they should not appear. See also ``description``.
    ///
    /// - Parameter db: A connection to the database of the violation.
    /// - Throws: A ``DatabaseError`` when the schema or the row cannot be
    ///   read.
    public func failureDescription(_ db: Database) throws -> String {
        try failureDescription(db, showingRow: true)
    }

    /// The violation as an error of extended code
    /// `SQLITE_CONSTRAINT_FOREIGNKEY`, whose message describes it, with the
    /// columns of the foreign key.
    ///
    /// ```swift
    /// if let violation = try db.foreignKeyViolations().next() {
    ///     throw violation.databaseError(db)
    /// }
    /// ```
    ///
    /// The message shows the values of the faulty row only when
    /// ``Configuration/publicStatementArguments`` is set, since values may
    /// hold private data; otherwise it names the row by its rowid. When the
    /// schema cannot be read, the message is ``description``.
    ///
    /// - Parameter db: A connection to the database of the violation.
    public func databaseError(_ db: Database) -> DatabaseError {
        let message = (try? failureDescription(db, showingRow: db.configuration.publicStatementArguments))
            ?? description
        return DatabaseError(resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY, message: message)
    }

    private func failureDescription(_ db: Database, showingRow: Bool) throws -> String {
        let foreignKey = try db.foreignKeys(on: originTable).first { $0.id == foreignKeyId }
        var description = "FOREIGN KEY constraint violation - from "
        if let foreignKey {
            description += originTable + "(" + foreignKey.originColumns.joined(separator: ", ") + ") to "
                + destinationTable + "(" + foreignKey.destinationColumns.joined(separator: ", ") + ")"
        } else {
            description += originTable + " to " + destinationTable
        }
        guard let originRowID else { return description }
        if showingRow, let row = try Row.fetchOne(
            db, sql: "SELECT * FROM \(originTable.quotedDatabaseIdentifier) WHERE rowid = ?",
            arguments: [originRowID])
        {
            description += ", in \(row)"
        } else {
            description += ", in rowid \(originRowID)"
        }
        return description
    }
}

extension ForeignKeyViolation: FetchableRecord {
    /// Creates a violation from a row of `PRAGMA foreign_key_check`: the
    /// columns, in order, are the origin table, the rowid, the destination
    /// table, and the foreign key id.
    ///
    /// A missing value, or a value of another type, gives an empty table
    /// name, a nil rowid, or the id 0.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_foreign_key_check>
    public init(row: Row) {
        // `try?` flattens the optional of a NULL or missing column.
        originTable = (try? row.decode(String?.self, atIndex: 0)) ?? ""
        originRowID = try? row.decode(Int64?.self, atIndex: 1)
        destinationTable = (try? row.decode(String?.self, atIndex: 2)) ?? ""
        foreignKeyId = (try? row.decode(Int?.self, atIndex: 3)) ?? 0
    }
}

extension ForeignKeyViolation: CustomStringConvertible {
    /// A description of the violation, without the values of the row:
    ///
    /// ```
    /// FOREIGN KEY constraint violation - from player to team, in rowid 1
    /// ```
    ///
    /// See also ``failureDescription(_:)``.
    public var description: String {
        var description = "FOREIGN KEY constraint violation - from \(originTable) to \(destinationTable)"
        if let originRowID {
            description += ", in rowid \(originRowID)"
        }
        return description
    }
}
