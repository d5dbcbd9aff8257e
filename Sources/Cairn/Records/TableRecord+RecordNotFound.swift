// The errors of records that are not found, as `find` and `update` throw
// them, for code that looks records up by itself.

extension TableRecord {
    /// The error of a record that is not found by unique key:
    /// ``RecordError/recordNotFound(databaseTableName:key:)``.
    ///
    /// ```swift
    /// guard let player = try Player.fetchOne(db, key: ["email": email]) else {
    ///     throw Player.recordNotFound(key: ["email": email])
    /// }
    /// ```
    ///
    /// - Parameter key: The columns and values of the key.
    public static func recordNotFound(key: [String: (any DatabaseValueConvertible)?]) -> RecordError {
        RecordError.recordNotFound(databaseTableName: databaseTableName, key: key.mapValues { $0?.databaseValue ?? .null })
    }

    /// The error of a record that is not found by primary key:
    /// ``RecordError/recordNotFound(databaseTableName:key:)`` with the column
    /// of the primary key (`rowid` for a table without explicit primary
    /// key), or the ``DatabaseError`` that reading the schema threw.
    ///
    /// For a table whose primary key has several columns, the error is
    /// ``RecordError/invalidKey(databaseTableName:message:)``, as
    /// `find(_:key:)` throws it (GRDB stops the program).
    ///
    /// ```swift
    /// guard let player = try Player.fetchOne(db, key: 42) else {
    ///     throw Player.recordNotFound(db, key: 42)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - db: A database connection.
    ///   - key: The primary key.
    public static func recordNotFound(_ db: Database, key: some DatabaseValueConvertible) -> any Error {
        do {
            let columns = try db.primaryKey(databaseTableName).columns
            guard columns.count == 1 else {
                return RecordError.invalidKey(
                    databaseTableName: databaseTableName,
                    message: "the primary key has several columns (\(columns.joined(separator: ", ")))")
            }
            return RecordError.recordNotFound(databaseTableName: databaseTableName, key: [columns[0]: key.databaseValue])
        } catch {
            return error
        }
    }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// The error of a record that is not found by id: see
    /// ``TableRecord/recordNotFound(_:key:)``.
    ///
    /// - Parameters:
    ///   - db: A database connection.
    ///   - id: The id of the record.
    public static func recordNotFound(_ db: Database, id: ID) -> any Error {
        recordNotFound(db, key: id)
    }
}

extension TableRecord where Self: EncodableRecord {
    /// The error of this record when it is not found in the database:
    /// ``RecordError/recordNotFound(databaseTableName:key:)`` with the
    /// values of its primary key, as `update` throws it.
    ///
    /// - Parameter db: A database connection.
    public func recordNotFound(_ db: Database) -> any Error {
        let tableName = Self.databaseTableName
        do {
            let primaryKey = try db.primaryKey(tableName)
            let container = try databaseContainer()
            var key: [String: DatabaseValue] = [:]
            for column in primaryKey.columns {
                key[column] = container.databaseValue(forColumn: column) ?? .null
            }
            return RecordError.recordNotFound(databaseTableName: tableName, key: key)
        } catch {
            return error
        }
    }
}
