// The identity of a function, as SQLite identifies functions: name (without
// regard to ASCII case) and number of arguments.

extension DatabaseFunction: Identifiable {
    /// The identity of a function: its name, compared without regard to
    /// ASCII case, and its number of arguments. SQLite keeps one function
    /// per identity: adding a function replaces the function of the same
    /// identity.
    ///
    /// ```swift
    /// let f1 = DatabaseFunction("succ", argumentCount: 1) { ... }
    /// let f2 = DatabaseFunction("SUCC", argumentCount: 1) { ... }
    /// f1.id == f2.id // true
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/create_function.html>
    public struct ID: Hashable, Sendable {
        /// The name of the function.
        let name: String
        /// The number of arguments; nil for a variable number.
        let argumentCount: CInt?

        /// Compares names without regard to ASCII case, and argument counts.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.name.equalsIgnoringASCIICase(rhs.name) && lhs.argumentCount == rhs.argumentCount
        }

        /// Hashes the lowercased name and the argument count.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(name.lowercased())
            hasher.combine(argumentCount)
        }
    }

    /// The identity of the function: its name and number of arguments.
    public var id: ID {
        ID(name: name, argumentCount: argumentCount)
    }
}
