import Foundation

/// The INSERT statement of a record type, with what it was built for.
///
/// A class, so that each insert updates it in place.
final class CachedInsertStatement {
    let tableName: String
    let resolution: Database.ConflictResolution
    /// The columns of the statement: the template of the next containers
    /// of the record type (see ``PersistenceContainer/init(template:)``).
    let columns: PersistenceContainer.ColumnTemplate
    let statement: Statement
    /// The encoder that the next record of the type may reuse, when the
    /// type is `Encodable`.
    let encoder: RecordEncoder?
    /// The values of the previous insert, whose storage the next container
    /// of the record type takes (see
    /// ``PersistenceContainer/recycleValues(from:)``). Empty when they
    /// are too large to keep (see ``recycle(_:)``).
    var recycledValues: [DatabaseValue] = []
    /// The rowid alias of the table, valid while the schema cache keeps
    /// its generation.
    var rowIDColumn: String?
    var schemaGeneration: UInt64

    init(
        recordType: any EncodableRecord.Type,
        tableName: String,
        resolution: Database.ConflictResolution,
        columns: PersistenceContainer.ColumnTemplate,
        statement: Statement,
        schemaGeneration: UInt64)
    {
        self.encoder = recordType is any Encodable.Type ? RecordEncoder(recordType: recordType, reusable: true) : nil
        self.tableName = tableName
        self.resolution = resolution
        self.columns = columns
        self.statement = statement
        self.schemaGeneration = schemaGeneration
    }

    /// Keeps the values of an insert, for the next container of the record
    /// type to reuse their storage.
    ///
    /// The values stay in memory until the next insert of the record type.
    /// Values that hold large strings or blobs are not kept.
    func recycle(_ values: [DatabaseValue]) {
        let isSmall = values.withUnsafeBufferPointer { buffer in
            for index in buffer.indices {
                switch buffer[index].storage {
                case .null, .int64, .double:
                    continue
                case .string(let string):
                    if string.utf8.count > 256 { return false }
                case .blob(let data):
                    if data.count > 256 { return false }
                }
            }
            return true
        }
        if isSmall {
            recycledValues = values
        }
    }
}

/// The INSERT statements of record types, kept on the connection in its
/// opaque ``Database/recordCaches`` slot.
final class RecordInsertCache: ConnectionRecordCaches {
    /// The last INSERT statement of each record type.
    var statements: [ObjectIdentifier: CachedInsertStatement] = [:] {
        didSet { last = nil }
    }

    /// The entry of `statements` that was used last: a loop of inserts of
    /// one record type finds it without hashing.
    private var last: (recordType: ObjectIdentifier, insert: CachedInsertStatement)?

    /// The cached INSERT statement of a record type, if any.
    func insertStatement(forRecordType recordType: ObjectIdentifier) -> CachedInsertStatement? {
        if let last, last.recordType == recordType {
            return last.insert
        }
        let insert = statements[recordType]
        if let insert {
            last = (recordType, insert)
        }
        return insert
    }
}

extension Database {
    /// The INSERT statements of record types on this connection.
    var insertStatementCache: RecordInsertCache {
        if let recordCaches {
            // See the invariant of `recordCaches`: the cast is checked
            // anyway.
            return recordCaches as! RecordInsertCache
        }
        let cache = RecordInsertCache()
        recordCaches = cache
        return cache
    }

    /// The cached INSERT statement of a record type, if any.
    func cachedInsertStatement(forRecordType recordType: ObjectIdentifier) -> CachedInsertStatement? {
        guard let recordCaches else { return nil }
        // See the invariant of `recordCaches`.
        return (recordCaches as! RecordInsertCache).insertStatement(forRecordType: recordType)
    }
}
