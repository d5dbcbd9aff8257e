#if SQLITE_ENABLE_SESSION
import Foundation

/// The changes that a ``DatabaseSession`` recorded, in SQLite's changeset
/// (or patchset) format: data you can store, send, inspect, invert,
/// concatenate, and apply to another database with
/// ``Database/apply(_:filter:onConflict:)``.
///
/// Available when Cairn is built with the `SQLITE_ENABLE_SESSION` trait.
/// Changesets do not need a connection: their methods can run anywhere.
///
/// ```swift
/// let changeset = try dbQueue.write { db in
///     let session = try DatabaseSession(db)
///     try session.attach("player")
///     try db.execute(sql: "UPDATE player SET score = 1000 WHERE id = 1")
///     return try session.changeset()
/// }
/// for operation in try changeset.operations() {
///     print(operation.kind, operation.tableName, operation.newValues)
/// }
/// let undo = try changeset.inverted()
/// ```
///
/// See <https://www.sqlite.org/sessionintro.html>.
public struct Changeset: Sendable, Hashable {
    /// The bytes of the changeset.
    public let data: Data

    /// Creates a changeset from its bytes (made by a session, maybe in
    /// another process). The bytes are checked when they are read:
    /// ``operations()``, ``inverted()`` and
    /// ``Database/apply(_:filter:onConflict:)`` throw a ``DatabaseError``
    /// with the `SQLITE_CORRUPT` code when they are not a changeset.
    ///
    /// - Parameter data: The bytes of a changeset or a patchset.
    public init(data: Data) {
        self.data = data
    }

    /// Whether the changeset holds no change.
    public var isEmpty: Bool { data.isEmpty }

    /// Whether the changeset is a patchset (see
    /// ``DatabaseSession/patchset()``): its first table header says so.
    public var isPatchset: Bool { data.first == UInt8(ascii: "P") }

    // MARK: Reading

    /// The changes of the changeset, table after table.
    ///
    /// - Throws: A ``DatabaseError`` with the `SQLITE_CORRUPT` code when the
    ///   bytes are not a valid changeset.
    ///
    /// The corresponding C functions are `sqlite3changeset_start`,
    /// `sqlite3changeset_next`, `sqlite3changeset_op`, `sqlite3changeset_pk`,
    /// `sqlite3changeset_old` and `sqlite3changeset_new`.
    public func operations() throws -> [ChangesetOperation] {
        try withUnsafeBytes { count, bytes in
            var iterator: OpaquePointer?
            var code = sqlite3changeset_start(&iterator, count, bytes)
            guard code == SQLITE_OK, let iterator else {
                throw Changeset.error(code, "the changeset cannot be read")
            }
            var operations: [ChangesetOperation] = []
            var readError: (any Error)?
            while true {
                code = sqlite3changeset_next(iterator)
                guard code == SQLITE_ROW else { break }
                do {
                    operations.append(try ChangesetOperation(iterator: iterator))
                } catch {
                    readError = error
                    break
                }
            }
            let finalizeCode = sqlite3changeset_finalize(iterator)
            if let readError { throw readError }
            guard code == SQLITE_DONE else {
                throw Changeset.error(code, "the changeset is corrupt")
            }
            guard finalizeCode == SQLITE_OK else {
                throw Changeset.error(finalizeCode, "the changeset is corrupt")
            }
            return operations
        }
    }

    // MARK: Transforming

    /// The changeset that undoes this one: inserts become deletes, deletes
    /// inserts, and updates swap their former and new values.
    ///
    /// - Throws: A ``DatabaseError``: `SQLITE_CORRUPT` for bytes that are
    ///   not a changeset, and for a patchset, which cannot be inverted.
    ///
    /// The corresponding C function is `sqlite3changeset_invert`.
    public func inverted() throws -> Changeset {
        if isPatchset {
            throw DatabaseError(
                resultCode: .SQLITE_CORRUPT,
                message: "a patchset cannot be inverted: it does not keep the former values of the rows")
        }
        return try withUnsafeBytes { count, bytes in
            try Changeset.output("the changeset cannot be inverted") { outCount, outBuffer in
                sqlite3changeset_invert(count, bytes, &outCount, &outBuffer)
            }
        }
    }

    /// This changeset followed by another one, as one changeset: applying
    /// it has the effect of applying both, in order. Changes of the same row
    /// are merged (an insert then an update becomes one insert).
    ///
    /// - Parameter other: A changeset, of the same kind (two changesets, or
    ///   two patchsets).
    /// - Throws: A ``DatabaseError``: `SQLITE_CORRUPT` for invalid bytes,
    ///   `SQLITE_ERROR` when a changeset meets a patchset or when the two
    ///   disagree on a table's columns or primary key.
    ///
    /// The corresponding C function is `sqlite3changeset_concat`.
    public func concatenated(with other: Changeset) throws -> Changeset {
        try withUnsafeBytes { count, bytes in
            try other.withUnsafeBytes { otherCount, otherBytes in
                try Changeset.output("the changesets cannot be concatenated") { outCount, outBuffer in
                    sqlite3changeset_concat(count, bytes, otherCount, otherBytes, &outCount, &outBuffer)
                }
            }
        }
    }

    /// Several changesets, one after the other, as one changeset (see
    /// ``concatenated(with:)``).
    ///
    /// - Parameter changesets: Changesets of the same kind.
    /// - Throws: A ``DatabaseError``, as ``concatenated(with:)``.
    public static func concatenating(_ changesets: some Sequence<Changeset>) throws -> Changeset {
        var result: Changeset?
        for changeset in changesets {
            result = try result.map { try $0.concatenated(with: changeset) } ?? changeset
        }
        return result ?? Changeset(data: Data())
    }

    // MARK: Support

    /// Runs `body` with the size and bytes of the changeset, which SQLite
    /// reads but does not write (its functions take a non-const pointer).
    func withUnsafeBytes<T>(_ body: (CInt, UnsafeMutableRawPointer?) throws -> T) throws -> T {
        guard data.count <= Int(CInt.max) else {
            throw DatabaseError(resultCode: .SQLITE_TOOBIG, message: "the changeset is too large (\(data.count) bytes)")
        }
        // A copy that SQLite may read through a mutable pointer.
        var bytes = [UInt8](data)
        let count = CInt(bytes.count)
        return try bytes.withUnsafeMutableBytes { buffer in
            try body(count, count > 0 ? buffer.baseAddress : nil)
        }
    }

    /// A changeset made by a C function, whose buffer is freed.
    static func output(
        _ message: String,
        _ body: (inout CInt, inout UnsafeMutableRawPointer?) -> CInt) throws -> Changeset
    {
        var count: CInt = 0
        var buffer: UnsafeMutableRawPointer?
        let code = body(&count, &buffer)
        defer { sqlite3_free(buffer) }
        guard code == SQLITE_OK else { throw error(code, message) }
        guard let buffer, count > 0 else { return Changeset(data: Data()) }
        return Changeset(data: Data(bytes: buffer, count: Int(count)))
    }

    /// The error of a changeset function.
    static func error(_ code: CInt, _ message: String) -> DatabaseError {
        let resultCode = ResultCode(rawValue: code)
        return DatabaseError(resultCode: resultCode, message: "\(message) (\(String(cString: sqlite3_errstr(code))))")
    }
}

/// One change of a ``Changeset``: the insertion, update or deletion of a
/// row of a table.
///
/// Values are given column by column, in the order of the table's columns.
/// A value that the changeset does not hold is nil: the former values of an
/// insertion, the new values of a deletion, and the unchanged columns of an
/// update (but for the primary key, whose former value is always there).
/// A NULL of the database is `DatabaseValue.null`.
public struct ChangesetOperation: Sendable, Hashable {
    /// The kinds of changes.
    public enum Kind: Sendable, Hashable {
        /// A row was inserted.
        case insert
        /// A row was updated.
        case update
        /// A row was deleted.
        case delete
    }

    /// The name of the changed table.
    public var tableName: String

    /// The kind of change.
    public var kind: Kind

    /// Whether the change is indirect: made by a trigger or a foreign key
    /// action, or recorded while ``DatabaseSession/setIndirect(_:)`` was on.
    public var isIndirect: Bool

    /// For each column, whether it is part of the primary key.
    public var primaryKeyColumns: [Bool]

    /// The former values (see the type's description for nil values).
    public var oldValues: [DatabaseValue?]

    /// The new values (see the type's description for nil values).
    public var newValues: [DatabaseValue?]

    /// Creates an operation.
    ///
    /// - Parameters:
    ///   - tableName: The name of the table.
    ///   - kind: The kind of change.
    ///   - isIndirect: Whether the change is indirect.
    ///   - primaryKeyColumns: For each column, whether it is part of the
    ///     primary key.
    ///   - oldValues: The former values.
    ///   - newValues: The new values.
    public init(
        tableName: String, kind: Kind, isIndirect: Bool,
        primaryKeyColumns: [Bool], oldValues: [DatabaseValue?], newValues: [DatabaseValue?])
    {
        self.tableName = tableName
        self.kind = kind
        self.isIndirect = isIndirect
        self.primaryKeyColumns = primaryKeyColumns
        self.oldValues = oldValues
        self.newValues = newValues
    }

    /// Reads the current change of a changeset iterator (one that
    /// `sqlite3changeset_next` moved to a change, or one given to a conflict
    /// handler).
    ///
    /// - Throws: A ``DatabaseError`` when the change cannot be read.
    init(iterator: OpaquePointer) throws {
        var tableName: UnsafePointer<CChar>?
        var columnCount: CInt = 0
        var op: CInt = 0
        var indirect: CInt = 0
        var code = sqlite3changeset_op(iterator, &tableName, &columnCount, &op, &indirect)
        guard code == SQLITE_OK, let tableName else {
            throw Changeset.error(code, "the change cannot be read")
        }
        self.tableName = String(cString: tableName)
        switch op {
        case SQLITE_INSERT: kind = .insert
        case SQLITE_UPDATE: kind = .update
        case SQLITE_DELETE: kind = .delete
        default: throw Changeset.error(SQLITE_CORRUPT, "unknown change kind \(op)")
        }
        isIndirect = indirect != 0
        var primaryKey: UnsafeMutablePointer<UInt8>?
        var primaryKeyCount: CInt = 0
        code = sqlite3changeset_pk(iterator, &primaryKey, &primaryKeyCount)
        guard code == SQLITE_OK, let primaryKey else {
            throw Changeset.error(code, "the primary key of the change cannot be read")
        }
        let count = Int(columnCount)
        primaryKeyColumns = (0..<Int(primaryKeyCount)).map { primaryKey[$0] != 0 }
        let kind = kind
        oldValues = try (0..<count).map { column in
            guard kind != .insert else { return nil }
            return try ChangesetOperation.value(iterator, column, sqlite3changeset_old)
        }
        newValues = try (0..<count).map { column in
            guard kind != .delete else { return nil }
            return try ChangesetOperation.value(iterator, column, sqlite3changeset_new)
        }
    }

    /// A value read by `sqlite3changeset_old`, `_new` or `_conflict`: nil
    /// when the change does not hold it.
    static func value(
        _ iterator: OpaquePointer,
        _ column: Int,
        _ read: (OpaquePointer?, CInt, UnsafeMutablePointer<OpaquePointer?>?) -> CInt) throws -> DatabaseValue?
    {
        var value: OpaquePointer?
        let code = read(iterator, CInt(column), &value)
        guard code == SQLITE_OK else {
            throw Changeset.error(code, "a value of the change cannot be read")
        }
        return value.map { DatabaseValue(sqliteValue: $0) }
    }
}
#endif
