extension Database {
    /// The conflict resolution algorithms of SQLite: what happens when an
    /// INSERT or UPDATE violates a UNIQUE, NOT NULL, CHECK or PRIMARY KEY
    /// constraint.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_conflict.html>
    public enum ConflictResolution: String, Sendable {
        /// The statement fails, and the whole transaction is rolled back.
        case rollback = "ROLLBACK"
        /// The statement fails, and its changes are undone (the default).
        case abort = "ABORT"
        /// The statement fails, and its changes made so far are kept.
        case fail = "FAIL"
        /// The row that violates the constraint is skipped.
        case ignore = "IGNORE"
        /// The rows that prevent the change are deleted first.
        case replace = "REPLACE"
    }
}

/// The conflict resolutions of a record type, for inserts and updates.
///
/// ```swift
/// struct Player: MutablePersistableRecord {
///     static let persistenceConflictPolicy = PersistenceConflictPolicy(
///         insert: .replace,
///         update: .rollback)
/// }
/// // INSERT OR REPLACE INTO "player" ...
/// try player.insert(db)
/// ```
public struct PersistenceConflictPolicy: Sendable {
    /// The conflict resolution of inserts.
    public let conflictResolutionForInsert: Database.ConflictResolution

    /// The conflict resolution of updates.
    public let conflictResolutionForUpdate: Database.ConflictResolution

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - insertResolution: The conflict resolution of inserts (default
    ///     abort).
    ///   - updateResolution: The conflict resolution of updates (default
    ///     abort).
    public init(
        insert insertResolution: Database.ConflictResolution = .abort,
        update updateResolution: Database.ConflictResolution = .abort)
    {
        conflictResolutionForInsert = insertResolution
        conflictResolutionForUpdate = updateResolution
    }
}

extension Database.ConflictResolution {
    /// The `OR ...` clause of INSERT and UPDATE statements; empty for the
    /// default, abort.
    var orClause: String {
        self == .abort ? "" : " OR \(rawValue)"
    }
}
