// The identity of a collation, as SQLite identifies collations: the name,
// without regard to ASCII case.

extension DatabaseCollation: Identifiable {
    /// The identity of a collation: its name, compared without regard to
    /// ASCII case. SQLite keeps one collation per name: adding a collation
    /// replaces the collation of the same name.
    ///
    /// ```swift
    /// DatabaseCollation.localizedCompare.id == DatabaseCollation("LOCALIZEDCOMPARE") { _, _ in .orderedSame }.id // true
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/create_collation.html>
    public struct ID: Hashable, Sendable {
        /// The name of the collation.
        let name: String

        /// Compares names without regard to ASCII case.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.name.equalsIgnoringASCIICase(rhs.name)
        }

        /// Hashes the lowercased name.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(name.lowercased())
        }
    }

    /// The identity of the collation: its name.
    public var id: ID {
        ID(name: name)
    }
}
