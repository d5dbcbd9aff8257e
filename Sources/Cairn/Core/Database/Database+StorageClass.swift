// The storage classes of SQLite values.

extension Database {
    /// A storage class of SQLite: how a value is stored, as the `typeof()`
    /// SQL function reports it, and as `CAST(… AS …)` converts values.
    ///
    /// ```swift
    /// // SELECT CAST(score AS REAL) FROM player
    /// let scores = try Double.fetchAll(db, Player.select(cast(Column("score"), as: .real)))
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/datatype3.html#storage_classes_and_datatypes>
    public struct StorageClass: RawRepresentable, Hashable, Sendable {
        /// The SQL name of the storage class, such as `"INTEGER"`.
        public let rawValue: String

        /// Creates a storage class from its SQL name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The `INTEGER` storage class: signed integers of up to 8 bytes.
        public static let integer = StorageClass(rawValue: "INTEGER")

        /// The `REAL` storage class: 8-byte IEEE floating point numbers.
        public static let real = StorageClass(rawValue: "REAL")

        /// The `TEXT` storage class: strings in the database encoding.
        public static let text = StorageClass(rawValue: "TEXT")

        /// The `BLOB` storage class: bytes, stored as they are given.
        public static let blob = StorageClass(rawValue: "BLOB")
    }
}
