import Foundation

/// A custom string comparison for SQL: `ORDER BY name COLLATE ...`, or a
/// column declared with a collation.
///
/// ```swift
/// let collation = DatabaseCollation("byLength") { lhs, rhs in
///     lhs.count < rhs.count ? .orderedAscending
///         : lhs.count > rhs.count ? .orderedDescending : .orderedSame
/// }
/// db.add(collation: collation)
/// try db.execute(sql: "CREATE TABLE file (name TEXT COLLATE byLength)")
/// ```
///
/// Five collations based on Swift string comparison are registered on every
/// connection: ``unicodeCompare``, ``caseInsensitiveCompare``,
/// ``localizedCaseInsensitiveCompare``, ``localizedCompare`` and
/// ``localizedStandardCompare``. Their SQL names are GRDB's (`swiftCompare`,
/// `swiftCaseInsensitiveCompare`, `swiftLocalizedCaseInsensitiveCompare`,
/// `swiftLocalizedCompare`, `swiftLocalizedStandardCompare`), so that
/// databases written by GRDB, whose schema names them, open and sort the
/// same way:
///
/// ```swift
/// try db.execute(sql: "CREATE TABLE player (name TEXT COLLATE swiftLocalizedCaseInsensitiveCompare)")
/// let collation = DatabaseCollation.localizedStandardCompare
/// let players = try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY name COLLATE \(collation.name)")
/// ```
///
/// The names that earlier Cairn releases gave them (`unicodeCompare`,
/// `caseInsensitiveCompare`, `localizedCaseInsensitiveCompare`,
/// `localizedCompare`, `localizedStandardCompare`) stay registered too, with
/// the same comparisons: a schema written by those releases keeps working.
/// New SQL should use ``name``.
///
/// Related SQLite documentation: <https://www.sqlite.org/datatype3.html#collation>
public final class DatabaseCollation: Hashable, Sendable {
    /// The name of the collation.
    public let name: String

    let function: @Sendable (String, String) -> ComparisonResult

    /// Creates a collation.
    ///
    /// - Parameters:
    ///   - name: The SQL name of the collation.
    ///   - function: The comparison. It must be consistent: the same inputs
    ///     always give the same order.
    public init(_ name: String, function: @escaping @Sendable (String, String) -> ComparisonResult) {
        self.name = name
        self.function = function
    }

    /// Collations are identified by name, without regard to ASCII case.
    public static func == (lhs: DatabaseCollation, rhs: DatabaseCollation) -> Bool {
        lhs.name.equalsIgnoringASCIICase(rhs.name)
    }

    /// Hashes the lowercased name.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name.lowercased())
    }

    // MARK: Built-in collations

    /// Compares strings with the `<` and `==` operators of Swift strings,
    /// which compare Unicode canonical equivalence ("é" precomposed equals
    /// "e" + combining accent). Its SQL name is `swiftCompare`.
    public static let unicodeCompare = DatabaseCollation("swiftCompare") { lhs, rhs in
        lhs < rhs ? .orderedAscending : (lhs == rhs ? .orderedSame : .orderedDescending)
    }

    /// Compares strings with `caseInsensitiveCompare(_:)`. Its SQL name is
    /// `swiftCaseInsensitiveCompare`.
    public static let caseInsensitiveCompare = DatabaseCollation("swiftCaseInsensitiveCompare") { lhs, rhs in
        lhs.caseInsensitiveCompare(rhs)
    }

    /// Compares strings with `localizedCaseInsensitiveCompare(_:)`. Its SQL
    /// name is `swiftLocalizedCaseInsensitiveCompare`.
    public static let localizedCaseInsensitiveCompare = DatabaseCollation(
        "swiftLocalizedCaseInsensitiveCompare") { lhs, rhs in
        lhs.localizedCaseInsensitiveCompare(rhs)
    }

    /// Compares strings with `localizedCompare(_:)`. Its SQL name is
    /// `swiftLocalizedCompare`.
    public static let localizedCompare = DatabaseCollation("swiftLocalizedCompare") { lhs, rhs in
        lhs.localizedCompare(rhs)
    }

    /// Compares strings with `localizedStandardCompare(_:)`, as the Finder
    /// sorts file names ("file2" before "file10"). Its SQL name is
    /// `swiftLocalizedStandardCompare`.
    public static let localizedStandardCompare = DatabaseCollation("swiftLocalizedStandardCompare") { lhs, rhs in
        lhs.localizedStandardCompare(rhs)
    }

    /// The collations registered on every connection: the built-in ones
    /// under GRDB's names, then the same comparisons under the names of
    /// earlier Cairn releases, which schemas written by those releases
    /// declare.
    static let builtIn: [DatabaseCollation] = {
        let current = [
            unicodeCompare, caseInsensitiveCompare, localizedCaseInsensitiveCompare,
            localizedCompare, localizedStandardCompare,
        ]
        let legacyNames = [
            "unicodeCompare", "caseInsensitiveCompare", "localizedCaseInsensitiveCompare",
            "localizedCompare", "localizedStandardCompare",
        ]
        let legacy = zip(current, legacyNames).map { collation, legacyName in
            DatabaseCollation(legacyName, function: collation.function)
        }
        return current + legacy
    }()
}

extension Database {
    /// Registers a custom collation on this connection, replacing a collation
    /// with the same name.
    ///
    /// The corresponding C function is `sqlite3_create_collation_v2`.
    public func add(collation: DatabaseCollation) {
        preconditionInsideAccess()
        guard let sqliteConnection else { return }
        // SQLite owns the retained collation, and releases it in the destroy
        // callback, when the collation is replaced or the connection closes.
        let context = collation.retainedCContext()
        let code = sqlite3_create_collation_v2(
            sqliteConnection, collation.name, SQLITE_UTF8, context,
            collationCallback, collationDestroyCallback)
        if code != SQLITE_OK {
            // SQLite does not call the destroy callback when registration fails.
            DatabaseCollation.releaseCContext(context)
            stopProgram("Could not add collation \(collation.name): \(lastErrorMessage ?? "")")
        }
    }

    /// Unregisters a custom collation.
    ///
    /// The corresponding C function is `sqlite3_create_collation_v2`.
    public func remove(collation: DatabaseCollation) {
        preconditionInsideAccess()
        guard let sqliteConnection else { return }
        sqlite3_create_collation_v2(sqliteConnection, collation.name, SQLITE_UTF8, nil, nil, nil)
    }
}

/// SQLite keeps a registered collation as the context of its C callbacks.
extension DatabaseCollation: CCallbackContext { }
