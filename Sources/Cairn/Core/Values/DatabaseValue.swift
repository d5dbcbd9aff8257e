import Foundation

/// A value stored in, or read from, an SQLite database: NULL, an integer, a
/// double, a string, or a blob.
///
/// You rarely need `DatabaseValue` directly: fetch and bind Swift values
/// instead (see ``DatabaseValueConvertible``). It is useful when the type of a
/// column is not known in advance:
///
/// ```swift
/// let dbValue: DatabaseValue = row["value"]
/// switch dbValue.storage {
/// case .null:                 print("NULL")
/// case .int64(let int64):     print("Int64: \(int64)")
/// case .double(let double):   print("Double: \(double)")
/// case .string(let string):   print("String: \(string)")
/// case .blob(let data):       print("Data: \(data)")
/// }
/// ```
///
/// Two values compare as SQLite compares them: an integer equals a double of
/// the same numerical value (`1 == 1.0`).
///
/// Text that is not valid UTF-8 cannot become a Swift `String`; when a row is
/// copied, such text is kept byte for byte as ``Storage/blob(_:)``, and
/// decoding it as a `String` throws an error that says the text is not UTF-8.
///
/// Related SQLite documentation: <https://www.sqlite.org/datatype3.html>
public struct DatabaseValue: Sendable {
    /// The SQLite storage classes.
    public enum Storage: Sendable, Equatable {
        /// The NULL storage class.
        case null
        /// The INTEGER storage class, wrapping an Int64.
        case int64(Int64)
        /// The REAL storage class, wrapping a Double.
        case double(Double)
        /// The TEXT storage class, wrapping a String.
        case string(String)
        /// The BLOB storage class, wrapping Data.
        case blob(Data)

        /// The wrapped value: an `Int64`, a `Double`, a `String` or a
        /// `Data`; nil for NULL.
        ///
        /// ```swift
        /// let dbValue = try DatabaseValue.fetchOne(db, sql: "SELECT 'Arthur'")!
        /// dbValue.storage.value is String  // true
        /// ```
        public var value: (any DatabaseValueConvertible)? {
            switch self {
            case .null: return nil
            case .int64(let int64): return int64
            case .double(let double): return double
            case .string(let string): return string
            case .blob(let data): return data
            }
        }

        /// Returns whether two storages have the same storage class and
        /// equal payloads.
        ///
        /// Unlike ``DatabaseValue``, which compares as SQLite does, an
        /// integer storage never equals a real storage:
        /// `Storage.int64(1) != Storage.double(1)`.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            switch (lhs, rhs) {
            case (.null, .null): return true
            case let (.int64(lhs), .int64(rhs)): return lhs == rhs
            case let (.double(lhs), .double(rhs)): return lhs == rhs
            case let (.string(lhs), .string(rhs)): return lhs == rhs
            case let (.blob(lhs), .blob(rhs)): return lhs == rhs
            default: return false
            }
        }
    }

    /// The SQLite storage of the value.
    public let storage: Storage

    /// The NULL database value.
    public static let null = DatabaseValue(storage: .null)

    /// Whether the value is NULL.
    @inlinable
    public var isNull: Bool {
        if case .null = storage { return true }
        return false
    }

    /// Creates a database value from its storage.
    @inlinable
    public init(storage: Storage) {
        self.storage = storage
    }

    /// Creates a database value from a value of any type, or returns nil
    /// if the value is not ``DatabaseValueConvertible``.
    ///
    /// ```swift
    /// DatabaseValue(value: 42)            // 42
    /// DatabaseValue(value: "Arthur")      // "Arthur"
    /// DatabaseValue(value: Int?.none)     // NULL
    /// DatabaseValue(value: NSObject())    // nil
    /// ```
    ///
    /// - Parameter value: A value, such as an element of a dictionary of
    ///   type `[String: Any]`.
    public init?(value: Any) {
        guard let convertible = value as? any DatabaseValueConvertible else { return nil }
        self = convertible.databaseValue
    }

    /// Reads the value of a column of the current row of a statement.
    ///
    /// - Parameters:
    ///   - sqliteStatement: A statement that has just returned `SQLITE_ROW`.
    ///   - index: A valid column index.
    ///
    /// The corresponding C functions are `sqlite3_column_type`,
    /// `sqlite3_column_int64`, `sqlite3_column_double`, `sqlite3_column_text`
    /// and `sqlite3_column_blob`.
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_INTEGER:
            storage = .int64(sqlite3_column_int64(sqliteStatement, index))
        case SQLITE_FLOAT:
            storage = .double(sqlite3_column_double(sqliteStatement, index))
        case SQLITE_TEXT:
            let bytes = sqlite3_column_text(sqliteStatement, index)
            let count = Int(sqlite3_column_bytes(sqliteStatement, index))
            storage = DatabaseValue.textStorage(UnsafeRawPointer(bytes), count: count)
        case SQLITE_BLOB:
            let bytes = sqlite3_column_blob(sqliteStatement, index)
            let count = Int(sqlite3_column_bytes(sqliteStatement, index))
            storage = .blob(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        default:
            storage = .null
        }
    }

    /// Reads an SQLite value, such as an argument of an SQL function.
    ///
    /// The corresponding C functions are `sqlite3_value_type`,
    /// `sqlite3_value_int64`, `sqlite3_value_double`, `sqlite3_value_text`
    /// and `sqlite3_value_blob`.
    public init(sqliteValue: OpaquePointer) {
        switch sqlite3_value_type(sqliteValue) {
        case SQLITE_INTEGER:
            storage = .int64(sqlite3_value_int64(sqliteValue))
        case SQLITE_FLOAT:
            storage = .double(sqlite3_value_double(sqliteValue))
        case SQLITE_TEXT:
            let bytes = sqlite3_value_text(sqliteValue)
            let count = Int(sqlite3_value_bytes(sqliteValue))
            storage = DatabaseValue.textStorage(UnsafeRawPointer(bytes), count: count)
        case SQLITE_BLOB:
            let bytes = sqlite3_value_blob(sqliteValue)
            let count = Int(sqlite3_value_bytes(sqliteValue))
            storage = .blob(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        default:
            storage = .null
        }
    }

    /// TEXT storage for UTF-8 bytes, or BLOB storage when they are not valid
    /// UTF-8 (so that no byte is lost or replaced).
    private static func textStorage(_ bytes: UnsafeRawPointer?, count: Int) -> Storage {
        guard let bytes, count > 0 else { return .string("") }
        let buffer = UnsafeRawBufferPointer(start: bytes, count: count)
        if let string = String(validatingUTF8Bytes: buffer) {
            return .string(string)
        }
        return .blob(Data(buffer))
    }
}

// MARK: - Equatable, Hashable

extension DatabaseValue: Hashable {
    /// Returns whether two values are equal, as SQLite compares them: NULL
    /// equals NULL here, and an integer equals a double of the same value.
    public static func == (lhs: DatabaseValue, rhs: DatabaseValue) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.null, .null):
            return true
        case let (.int64(lhs), .int64(rhs)):
            return lhs == rhs
        case let (.double(lhs), .double(rhs)):
            return lhs == rhs
        case let (.int64(lhs), .double(rhs)):
            return Int64(exactly: rhs) == lhs
        case let (.double(lhs), .int64(rhs)):
            return Int64(exactly: lhs) == rhs
        case let (.string(lhs), .string(rhs)):
            // SQLite compares text byte for byte (BINARY collation).
            return lhs.utf8.elementsEqual(rhs.utf8)
        case let (.blob(lhs), .blob(rhs)):
            return lhs == rhs
        default:
            return false
        }
    }

    /// Hashes the value consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .null:
            hasher.combine(0)
        case .int64(let int64):
            hasher.combine(1)
            hasher.combine(int64)
        case .double(let double):
            if let int64 = Int64(exactly: double) {
                hasher.combine(1)
                hasher.combine(int64)
            } else {
                hasher.combine(2)
                hasher.combine(double)
            }
        case .string(let string):
            hasher.combine(3)
            for byte in string.utf8 { hasher.combine(byte) }
        case .blob(let data):
            hasher.combine(4)
            hasher.combine(data)
        }
    }
}

// MARK: - CustomStringConvertible

extension DatabaseValue: CustomStringConvertible, CustomDebugStringConvertible {
    /// A short description of the value, meant for logs and debugging:
    /// `NULL`, `1`, `1.5`, `"text"`, and `Data(3 bytes)` for a blob, whose
    /// bytes are not printed.
    ///
    /// The description of a blob is not an SQL literal. Code that needs
    /// one writes the value as an argument, or uses the `quote` dump format
    /// (``QuoteDumpFormat``).
    public var description: String {
        switch storage {
        case .null:
            return "NULL"
        case .int64(let int64):
            return String(int64)
        case .double(let double):
            return String(double)
        case .string(let string):
            return String(reflecting: string)
        case .blob(let data):
            return "Data(\(data.count) bytes)"
        }
    }

    /// Same as ``description``.
    public var debugDescription: String { description }
}

// MARK: - DatabaseValueConvertible

extension DatabaseValue: DatabaseValueConvertible {
    /// Returns the value itself.
    @inlinable
    public var databaseValue: DatabaseValue { self }

    /// Returns the value itself.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseValue? { dbValue }
}

// MARK: - Binding

extension DatabaseValue: StatementBinding {
    /// Binds the value to a parameter of a statement of the SQLite C
    /// interface, and returns the result code of SQLite (see
    /// ``StatementBinding``).
    ///
    /// ```swift
    /// let code = DatabaseValue(storage: .int64(42)).bind(to: sqliteStatement, at: 1)
    /// ```
    ///
    /// - Parameters:
    ///   - sqliteStatement: A statement that is not running.
    ///   - index: The index of the parameter, starting at 1.
    /// - Returns: `SQLITE_OK`, or the error code of SQLite.
    ///
    /// The corresponding C functions are `sqlite3_bind_null`,
    /// `sqlite3_bind_int64`, `sqlite3_bind_double`, `sqlite3_bind_text64` and
    /// `sqlite3_bind_blob64`.
    @inline(__always)
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        switch storage {
        case .null:
            return sqlite3_bind_null(sqliteStatement, index)
        case .int64(let int64):
            return sqlite3_bind_int64(sqliteStatement, index, int64)
        case .double(let double):
            return sqlite3_bind_double(sqliteStatement, index, double)
        case .string(let string):
            return bindText(string, to: sqliteStatement, at: index)
        case .blob(let data):
            return data.withUnsafeBytes { buffer in
                bindBlob(buffer, to: sqliteStatement, at: index)
            }
        }
    }
}

extension DatabaseValue {
    /// Sets the result of an SQL function.
    ///
    /// The corresponding C functions are `sqlite3_result_null`,
    /// `sqlite3_result_int64`, `sqlite3_result_double`, `sqlite3_result_text`
    /// and `sqlite3_result_blob`.
    func setResult(of sqliteContext: OpaquePointer) {
        switch storage {
        case .null:
            sqlite3_result_null(sqliteContext)
        case .int64(let int64):
            sqlite3_result_int64(sqliteContext, int64)
        case .double(let double):
            sqlite3_result_double(sqliteContext, double)
        case .string(var string):
            string.withUTF8 { buffer in
                guard let base = buffer.baseAddress else {
                    sqlite3_result_text(sqliteContext, "", 0, nil)
                    return
                }
                sqlite3_result_text64(
                    sqliteContext, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                    sqlite3_uint64(buffer.count), SQLITE_TRANSIENT, UInt8(SQLITE_UTF8))
            }
        case .blob(let data):
            data.withUnsafeBytes { buffer in
                if let baseAddress = buffer.baseAddress {
                    sqlite3_result_blob64(sqliteContext, baseAddress, sqlite3_uint64(buffer.count), SQLITE_TRANSIENT)
                } else {
                    sqlite3_result_zeroblob(sqliteContext, 0)
                }
            }
        }
    }
}
