/// A record type that can be inserted, updated and deleted, and that may
/// change when it is inserted (to store its auto-incremented id).
///
/// ```swift
/// struct Player: Codable, MutablePersistableRecord {
///     var id: Int64?
///     var name: String
///     var score: Int
///
///     // Store the auto-incremented id.
///     mutating func didInsert(_ inserted: InsertionSuccess) {
///         id = inserted.rowID
///     }
/// }
///
/// var player = Player(id: nil, name: "Arthur", score: 100)
/// try player.insert(db)
/// print(player.id) // Some(1)
///
/// player.score = 1000
/// try player.update(db)
/// try player.delete(db)
/// ```
///
/// Persistence methods run SQL of the form
/// `INSERT INTO "player" ("id", "name", "score") VALUES (?, ?, ?)`, with the
/// columns that ``EncodableRecord/encode(to:)`` fills, and find records by
/// the primary key of the table (an explicit primary key, or the hidden
/// rowid).
///
/// The callbacks `willInsert`, `aroundInsert`, `didInsert` (and the same for
/// update, save and delete) let records act around persistence.
public protocol MutablePersistableRecord: EncodableRecord, TableRecord {
    /// The conflict resolutions of inserts and updates (default: abort).
    static var persistenceConflictPolicy: PersistenceConflictPolicy { get }

    /// Called before the record is inserted.
    ///
    /// - Throws: An error that cancels the insertion.
    mutating func willInsert(_ db: Database) throws

    /// Called around the insertion of the record: call `insert` once. It
    /// encodes the record and runs the INSERT statement.
    ///
    /// - Throws: The error of `insert`, or an error that cancels the
    ///   insertion.
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws

    /// Called after the record was inserted, with its rowid: store an
    /// auto-incremented id here.
    mutating func didInsert(_ inserted: InsertionSuccess)

    /// Called before the record is updated.
    ///
    /// - Throws: An error that cancels the update.
    func willUpdate(_ db: Database, columns: Set<String>) throws

    /// Called around the update of the record: call `update` once.
    ///
    /// - Throws: The error of `update`, or an error that cancels the update.
    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws

    /// Called after the record was updated.
    func didUpdate(_ updated: PersistenceSuccess)

    /// Called before the record is inserted or updated.
    ///
    /// - Throws: An error that cancels the operation.
    func willSave(_ db: Database) throws

    /// Called around the insertion or update of the record: call `save`
    /// once.
    ///
    /// - Throws: The error of `save`, or an error that cancels the operation.
    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws

    /// Called after the record was inserted or updated.
    func didSave(_ saved: PersistenceSuccess)

    /// Called before the record is deleted.
    ///
    /// - Throws: An error that cancels the deletion.
    func willDelete(_ db: Database) throws

    /// Called around the deletion of the record: call `delete` once.
    ///
    /// - Throws: The error of `delete`, or an error that cancels the
    ///   deletion.
    func aroundDelete(_ db: Database, delete: () throws -> Bool) throws

    /// Called after the record was deleted, or not found.
    func didDelete(deleted: Bool)
}

/// The result of an insertion: the rowid of the new row, and the inserted
/// values.
public struct InsertionSuccess: Sendable {
    /// The rowid of the inserted row.
    public var rowID: Int64

    /// The column that is an alias of the rowid (an `INTEGER PRIMARY KEY`),
    /// if any.
    public var rowIDColumn: String?

    /// The inserted values.
    public var persistenceContainer: PersistenceContainer
}

/// The result of an update or save: the persisted values.
public struct PersistenceSuccess: Sendable {
    /// The persisted values.
    public var persistenceContainer: PersistenceContainer

    /// Creates a success.
    public init(persistenceContainer: PersistenceContainer) {
        self.persistenceContainer = persistenceContainer
    }

    /// The success of an insert: its container, which holds the rowid in
    /// the column that aliases the rowid, if any (the insert sets it).
    @inlinable @inline(__always)
    init(_ inserted: consuming InsertionSuccess) {
        self.persistenceContainer = inserted.persistenceContainer
    }
}

extension MutablePersistableRecord {
    /// Abort for inserts and updates.
    public static var persistenceConflictPolicy: PersistenceConflictPolicy { PersistenceConflictPolicy() }

    /// Does nothing.
    public mutating func willInsert(_ db: Database) throws { }

    /// Calls `insert`.
    public func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        _ = try insert()
    }

    /// Does nothing.
    public mutating func didInsert(_ inserted: InsertionSuccess) { }

    /// Does nothing.
    public func willUpdate(_ db: Database, columns: Set<String>) throws { }

    /// Calls `update`.
    public func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        _ = try update()
    }

    /// Does nothing.
    public func didUpdate(_ updated: PersistenceSuccess) { }

    /// Does nothing.
    public func willSave(_ db: Database) throws { }

    /// Calls `save`.
    public func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        _ = try save()
    }

    /// Does nothing.
    public func didSave(_ saved: PersistenceSuccess) { }

    /// Does nothing.
    public func willDelete(_ db: Database) throws { }

    /// Calls `delete`.
    public func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        _ = try delete()
    }

    /// Does nothing.
    public func didDelete(deleted: Bool) { }
}

/// A record type that can be inserted, updated and deleted, and that does
/// not change when it is inserted.
///
/// ```swift
/// struct Country: Codable, PersistableRecord {
///     var isoCode: String
///     var name: String
/// }
/// try Country(isoCode: "FR", name: "France").insert(db)
/// ```
public protocol PersistableRecord: MutablePersistableRecord {
    /// Called before the record is inserted; the non-mutating version of
    /// ``MutablePersistableRecord/willInsert(_:)``. The default does
    /// nothing.
    ///
    /// ```swift
    /// struct Country: Codable, PersistableRecord {
    ///     var isoCode: String
    ///     func willInsert(_ db: Database) throws {
    ///         guard isoCode.count == 2 else { throw ValidationError() }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter db: The connection that inserts the record.
    /// - Throws: An error that cancels the insert.
    func willInsert(_ db: Database) throws

    /// Called after the record was inserted; the non-mutating version of
    /// ``MutablePersistableRecord/didInsert(_:)``. The default does
    /// nothing.
    ///
    /// - Parameter inserted: The rowid and the inserted values.
    func didInsert(_ inserted: InsertionSuccess)
}

extension PersistableRecord {
    /// Does nothing.
    public func willInsert(_ db: Database) throws { }

    /// Does nothing.
    public func didInsert(_ inserted: InsertionSuccess) { }
}
