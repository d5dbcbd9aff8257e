import Foundation

/// A class to subclass for records that fetch, persist, and track their
/// changes.
///
/// `Record` adopts ``FetchableRecord``, ``TableRecord`` and
/// ``PersistableRecord``. A subclass overrides ``databaseTableName``,
/// ``init(row:)`` and ``encode(to:)``, and gets the fetching and
/// persistence methods of those protocols:
///
/// ```swift
/// class Player: Record {
///     var id: Int64?
///     var name: String
///     var score: Int
///
///     init(id: Int64? = nil, name: String, score: Int) {
///         self.id = id
///         self.name = name
///         self.score = score
///         super.init()
///     }
///
///     override class var databaseTableName: String { "player" }
///
///     required init(row: Row) throws {
///         id = row["id"]
///         name = row["name"]
///         score = row["score"]
///         try super.init(row: row)
///     }
///
///     override func encode(to container: inout PersistenceContainer) throws {
///         container["id"] = id
///         container["name"] = name
///         container["score"] = score
///     }
///
///     override func didInsert(_ inserted: InsertionSuccess) {
///         super.didInsert(inserted)
///         id = inserted.rowID
///     }
/// }
///
/// let player = Player(name: "Arthur", score: 100)
/// try player.insert(db)                 // INSERT INTO "player" ...
/// player.score = 1000
/// try player.updateChanges(db)          // UPDATE "player" SET "score"=? WHERE "id"=?
/// ```
///
/// ## Changes tracking
///
/// A record remembers the values it was fetched with, or last inserted or
/// updated with: ``hasDatabaseChanges`` and ``databaseChanges`` compare
/// them with what ``encode(to:)`` gives now, and ``updateChanges(_:onConflict:)``
/// updates only the columns that changed (and nothing when none did). A
/// record created with ``init()``, or from a row that was not fetched
/// (`Row(["name": "Arthur"])`), has not been saved: all its columns count
/// as changes. So does a deleted record.
///
/// Subclasses that override a persistence callback (``aroundInsert(_:insert:)``,
/// ``aroundUpdate(_:columns:update:)``, ``aroundDelete(_:delete:)``, …)
/// call the implementation of `super`, which keeps the tracking up to date.
///
/// `Record` is not `Sendable`: a record is a mutable object, used by one
/// task at a time. Send its values, or fetch it again, instead.
open class Record: FetchableRecord, TableRecord, PersistableRecord {
    /// The values of the row the record was fetched from, or last saved
    /// with; nil when the record was never fetched or saved, or was
    /// deleted since.
    private var referenceRow: Row?

    // MARK: Initializers

    /// Creates a record that has not been saved: all its columns are
    /// changes (see ``hasDatabaseChanges``).
    public init() { }

    /// Creates a record from a row.
    ///
    /// Subclasses read their properties from the row, then call
    /// `super.init(row:)`. When the row was fetched (see ``Row/isFetched``),
    /// the record keeps a copy of it: the record then has no changes until
    /// its properties are modified.
    ///
    /// - Throws: Nothing here; the initializers of subclasses may throw, such
    ///   as a ``RowDecodingError``.
    public required init(row: Row) throws {
        if row.isFetched {
            // A cursor reuses its row at each step: keep a copy.
            referenceRow = row.copy()
        }
    }

    // MARK: Table

    /// The name of the database table.
    ///
    /// Override it in each subclass: the default derives a name from the
    /// name of the class (`Player` → `player`), as ``TableRecord`` does for
    /// other types, and a subclass of a subclass would otherwise get a
    /// table of its own name.
    ///
    /// ```swift
    /// override class var databaseTableName: String { "player" }
    /// ```
    open class var databaseTableName: String {
        defaultDatabaseTableName(forTypeName: String(describing: self))
    }

    /// The conflict resolutions of inserts and updates (`ABORT` by default).
    open class var persistenceConflictPolicy: PersistenceConflictPolicy {
        PersistenceConflictPolicy()
    }

    /// The columns that requests select by default (all columns by
    /// default).
    open class var databaseSelection: [any SQLSelectable] {
        defaultDatabaseSelection
    }

    // MARK: Encoding

    /// Writes the values of the record in a container, keyed by column.
    ///
    /// The default writes nothing: subclasses override it and write each
    /// persisted property.
    ///
    /// - Throws: Nothing here; the implementations of subclasses may throw.
    open func encode(to container: inout PersistenceContainer) throws { }

    // MARK: Copy

    /// Returns a copy of the record, with the same changes.
    ///
    /// The copy is created by ``init(row:)`` from the values ``encode(to:)``
    /// writes, so a subclass must be able to read back what it writes
    /// (override `copy()` otherwise). A failure to do so is a programming
    /// error, which stops the program.
    open func copy() -> Self {
        let copy: Self
        do {
            let container = try databaseContainer()
            copy = try Self(row: Row(columnNames: container.columns, values: container.values))
        } catch {
            stopProgram(
                "\(type(of: self)).copy(): \(type(of: self)).init(row:) cannot read the values of encode(to:) "
                    + "(\(error)). Override copy() in this class.")
        }
        copy.referenceRow = referenceRow
        return copy
    }

    // MARK: Changes tracking

    /// Whether the record has values that differ from the database row it
    /// was fetched from, or last saved to.
    ///
    /// True for a record created with ``init()``, from a row that was not
    /// fetched, or deleted: saving it writes all its columns (unless
    /// ``encode(to:)`` writes none). Set it to
    /// `false` to make the current values the reference (after you saved the
    /// record by other means), and to `true` to forget the reference.
    ///
    /// ```swift
    /// let player = try Player.find(db, id: 1)
    /// player.hasDatabaseChanges  // false
    /// player.score += 10
    /// player.hasDatabaseChanges  // true
    /// ```
    ///
    /// When ``encode(to:)`` throws, the record counts as changed.
    public var hasDatabaseChanges: Bool {
        get {
            guard let container = try? databaseContainer() else { return true }
            // A record that encodes no column has no change, as in GRDB.
            guard let referenceRow else { return !container.isEmpty }
            return !Record.changes(of: container, from: referenceRow).isEmpty
        }
        set {
            if newValue {
                referenceRow = nil
            } else if let container = try? databaseContainer() {
                referenceRow = Row(columnNames: container.columns, values: container.values)
            } else {
                referenceRow = nil
            }
        }
    }

    /// The columns whose values differ from the database row the record was
    /// fetched from or last saved to, with their former values.
    ///
    /// A former value is nil when it is not known: for all columns of a
    /// record that was not fetched or saved, and for a column that the
    /// fetched row did not have.
    ///
    /// ```swift
    /// let player = try Player.find(db, id: 1)
    /// player.score = 1000
    /// try player.databaseChanges  // ["score": 100]
    /// ```
    ///
    /// - Throws: The error of ``encode(to:)``.
    public var databaseChanges: [String: DatabaseValue?] {
        get throws {
            let container = try databaseContainer()
            guard let referenceRow else {
                var changes: [String: DatabaseValue?] = [:]
                for column in container.columns {
                    changes[column] = .some(nil)
                }
                return changes
            }
            return Record.changes(of: container, from: referenceRow)
        }
    }

    /// The changed columns of `container`, with their values in `reference`
    /// (nil when `reference` lacks the column). Columns are compared without
    /// regard to case, as SQLite does.
    private static func changes(of container: PersistenceContainer, from reference: Row) -> [String: DatabaseValue?] {
        var changes: [String: DatabaseValue?] = [:]
        let referenceValues = reference.databaseValues
        for (column, value) in container.storage {
            guard let index = reference.index(forColumn: column) else {
                changes[column] = .some(nil)
                continue
            }
            let old = referenceValues[index]
            if old != value {
                changes[column] = old
            }
        }
        return changes
    }

    /// Updates the columns that changed (see ``databaseChanges``), and
    /// returns whether there was something to update. Without changes, the
    /// database is not accessed.
    ///
    /// ```swift
    /// let player = try Player.find(db, id: 1)
    /// player.score = 1000
    /// try player.updateChanges(db)  // UPDATE "player" SET "score"=? WHERE "id"=?
    /// try player.updateChanges(db)  // false: nothing to update
    /// ```
    ///
    /// - Parameters:
    ///   - db: A database connection.
    ///   - conflictResolution: The conflict resolution of the UPDATE; nil
    ///     for the one of ``persistenceConflictPolicy``.
    /// - Returns: Whether the record had changes, and was updated.
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` when
    ///   no row has the primary key of the record, a ``DatabaseError``, or
    ///   the error of ``encode(to:)`` or of a callback.
    @discardableResult
    public final func updateChanges(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Bool
    {
        let changedColumns = try Set(databaseChanges.keys)
        guard !changedColumns.isEmpty else { return false }
        try update(db, onConflict: conflictResolution, columns: changedColumns)
        return true
    }

    /// Updates the columns that changed (see ``databaseChanges``), and
    /// returns whether there was something to update: see
    /// ``updateChanges(_:onConflict:)``.
    ///
    /// - Parameter db: A database connection.
    /// - Returns: Whether the record had changes, and was updated.
    /// - Throws: See ``updateChanges(_:onConflict:)``.
    @discardableResult
    public final func updateChanges(_ db: Database) throws -> Bool {
        try updateChanges(db, onConflict: nil)
    }

    // MARK: Persistence callbacks

    /// Called before the record is inserted. The default does nothing.
    ///
    /// - Throws: An error that cancels the insert.
    open func willInsert(_ db: Database) throws { }

    /// Wraps the insert: call `insert` once. The default inserts, and makes
    /// the inserted values the reference of changes tracking; overrides call
    /// `super`.
    ///
    /// - Throws: The error of `insert`, or an error that cancels the insert.
    open func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        let inserted = try insert()
        var container = inserted.persistenceContainer
        if let rowIDColumn = inserted.rowIDColumn {
            container[rowIDColumn] = inserted.rowID
        }
        referenceRow = Row(columnNames: container.columns, values: container.values)
    }

    /// Called after the record was inserted, with its rowid. The default
    /// does nothing; override it to store an auto-incremented primary key.
    open func didInsert(_ inserted: InsertionSuccess) { }

    /// Called before the record is updated. The default does nothing.
    ///
    /// - Throws: An error that cancels the update.
    open func willUpdate(_ db: Database, columns: Set<String>) throws { }

    /// Wraps the update: call `update` once. The default updates, and makes
    /// all the encoded values the reference of changes tracking, as GRDB
    /// does: after an update of some columns, the record has no change,
    /// even in the columns that were not updated. Overrides call `super`.
    ///
    /// - Throws: The error of `update`, or an error that cancels the
    ///   update.
    open func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        let updated = try update()
        let container = updated.persistenceContainer
        referenceRow = Row(columnNames: container.columns, values: container.values)
    }

    /// Called after the record was updated. The default does nothing.
    open func didUpdate(_ updated: PersistenceSuccess) { }

    /// Called before the record is inserted or updated. The default does
    /// nothing.
    ///
    /// - Throws: An error that cancels the insert or update.
    open func willSave(_ db: Database) throws { }

    /// Wraps an insert or update: call `save` once. The default just calls
    /// it.
    ///
    /// - Throws: The error of `save`, or an error that cancels the save.
    open func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        _ = try save()
    }

    /// Called after the record was inserted or updated. The default does
    /// nothing.
    open func didSave(_ saved: PersistenceSuccess) { }

    /// Called before the record is deleted. The default does nothing.
    ///
    /// - Throws: An error that cancels the delete.
    open func willDelete(_ db: Database) throws { }

    /// Wraps the delete: call `delete` once. The default deletes, and
    /// forgets the reference of changes tracking: a deleted record has
    /// changes, and saving it inserts it again. Overrides call `super`.
    ///
    /// - Throws: The error of `delete`, or an error that cancels the delete.
    open func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        _ = try delete()
        referenceRow = nil
    }

    /// Called after the delete, with whether a row was deleted. The default
    /// does nothing.
    open func didDelete(deleted: Bool) { }
}
