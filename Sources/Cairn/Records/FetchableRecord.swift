import Foundation

/// A type that can be decoded from a database row.
///
/// ```swift
/// struct Player: FetchableRecord {
///     var id: Int64
///     var name: String
///     var score: Int?
///
///     init(row: Row) {
///         id = row["id"]
///         name = row["name"]
///         score = row["score"]
///     }
/// }
///
/// let players = try Player.fetchAll(db, sql: "SELECT * FROM player")
/// ```
///
/// `Decodable` types get the initializer for free: each property is read
/// from the column named after its coding key.
///
/// ```swift
/// struct Player: Decodable, FetchableRecord {
///     var id: Int64
///     var name: String
///     var score: Int?
/// }
/// ```
///
/// A decoding failure throws a ``RowDecodingError`` that names the column.
/// Note that during the iteration of a fetch, the `row` argument of
/// ``init(row:)`` is reused: copy it if you keep it.
public protocol FetchableRecord {
    /// Creates a record from a row.
    ///
    /// - Throws: An error when the row cannot be decoded, such as a
    ///   ``RowDecodingError``.
    init(row: Row) throws

    /// The `userInfo` of the decoder of `Decodable` records, and of the JSON
    /// decoders of their nested values (unless ``databaseJSONDecoder(for:)``
    /// makes its own).
    ///
    /// ```swift
    /// struct Player: Decodable, FetchableRecord {
    ///     static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] {
    ///         [CodingUserInfoKey(rawValue: "source")!: "database"]
    ///     }
    /// }
    /// ```
    static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { get }

    /// The JSON decoder for a column of a `Decodable` record that holds a
    /// nested `Decodable` value stored as JSON.
    ///
    /// - Parameter column: The coding key of the property (its
    ///   `stringValue`), as in GRDB: `"homeAddress"` even when
    ///   ``databaseColumnDecodingStrategy`` reads it from `home_address`.
    static func databaseJSONDecoder(for column: String) -> JSONDecoder

    /// How `Decodable` records decode dates, for all columns (see
    /// ``databaseDateDecodingStrategy(for:)``).
    static var databaseDateDecodingStrategy: DatabaseDateDecodingStrategy { get }

    /// How a `Decodable` record decodes the date of a column.
    ///
    /// The default implementation returns ``databaseDateDecodingStrategy``.
    /// Override it when columns store dates differently:
    ///
    /// ```swift
    /// struct Event: Decodable, FetchableRecord {
    ///     var start: Date   // stored as a Unix timestamp
    ///     var end: Date     // stored as "YYYY-MM-DD HH:MM:SS.SSS" text
    ///
    ///     static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
    ///         column == "start" ? .timeIntervalSince1970 : .deferredToDate
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter column: The name of the column of the decoded date.
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy

    /// How a `Decodable` record decodes the `Data` of a column.
    ///
    /// The default implementation returns
    /// ``DatabaseDataDecodingStrategy/deferredToData``:
    ///
    /// ```swift
    /// struct Document: Decodable, FetchableRecord {
    ///     var payload: Data   // stored as Base64 text
    ///
    ///     static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
    ///         .custom { dbValue in
    ///             String.fromDatabaseValue(dbValue).flatMap { Data(base64Encoded: $0) }
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter column: The name of the column of the decoded data.
    static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy

    /// How `Decodable` records map coding keys to column names.
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { get }
}

extension FetchableRecord {
    /// Empty.
    public static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [:] }

    /// A JSON decoder for the data, date and float formats that Cairn's JSON
    /// encoder uses.
    public static func databaseJSONDecoder(for column: String) -> JSONDecoder {
        let decoder = JSONCoding.makeDecoder()
        decoder.userInfo = sendableUserInfo(databaseDecodingUserInfo)
        return decoder
    }

    /// ``DatabaseDateDecodingStrategy/deferredToDate``.
    public static var databaseDateDecodingStrategy: DatabaseDateDecodingStrategy { .deferredToDate }

    /// ``databaseDateDecodingStrategy``, whatever the column.
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        databaseDateDecodingStrategy
    }

    /// ``DatabaseDataDecodingStrategy/deferredToData``, whatever the column.
    public static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
        .deferredToData
    }

    /// ``DatabaseColumnDecodingStrategy/useDefaultKeys``.
    public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .useDefaultKeys }
}

/// How `Decodable` records decode dates.
public enum DatabaseDateDecodingStrategy: Sendable {
    /// As `Date` reads database values: text in SQLite formats, or Unix
    /// timestamps (the default).
    case deferredToDate
    /// A number of seconds since 1970-01-01.
    case timeIntervalSince1970
    /// A number of seconds since 2001-01-01.
    case timeIntervalSinceReferenceDate
    /// A number of milliseconds since 1970-01-01.
    case millisecondsSince1970
    /// ISO-8601 text.
    case iso8601
    /// Text that a date formatter parses.
    ///
    /// The formatter is used from the threads that decode records: do not
    /// modify it after it is given to the strategy.
    case formatted(DateFormatter)
    /// A custom decoding, from the database value; nil fails.
    case custom(@Sendable (DatabaseValue) -> Date?)

    func decode(_ dbValue: DatabaseValue) -> Date? {
        switch self {
        case .deferredToDate:
            return Date.fromDatabaseValue(dbValue)
        case .timeIntervalSince1970:
            return Double.fromDatabaseValue(dbValue).map { Date(timeIntervalSince1970: $0) }
        case .timeIntervalSinceReferenceDate:
            return Double.fromDatabaseValue(dbValue).map { Date(timeIntervalSinceReferenceDate: $0) }
        case .millisecondsSince1970:
            return Double.fromDatabaseValue(dbValue).map { Date(timeIntervalSince1970: $0 / 1000) }
        case .iso8601:
            return String.fromDatabaseValue(dbValue).flatMap { ISO8601DateFormatter().date(from: $0) }
        case .formatted(let formatter):
            return String.fromDatabaseValue(dbValue).flatMap { formatter.date(from: $0) }
        case .custom(let decode):
            return decode(dbValue)
        }
    }
}

/// How `Decodable` records decode `Data` (see
/// ``FetchableRecord/databaseDataDecodingStrategy(for:)``).
public enum DatabaseDataDecodingStrategy: Sendable {
    /// As `Data` reads database values: a blob, or the UTF-8 bytes of a
    /// text (the default).
    case deferredToData
    /// A custom decoding, from the database value; nil fails.
    ///
    /// ```swift
    /// // Base64 text
    /// .custom { dbValue in String.fromDatabaseValue(dbValue).flatMap { Data(base64Encoded: $0) } }
    /// ```
    case custom(@Sendable (DatabaseValue) -> Data?)

    func decode(_ dbValue: DatabaseValue) -> Data? {
        switch self {
        case .deferredToData:
            return Data.fromDatabaseValue(dbValue)
        case .custom(let decode):
            return decode(dbValue)
        }
    }
}

/// How `Decodable` records map column names to coding keys.
public enum DatabaseColumnDecodingStrategy: Sendable {
    /// The coding key is the column name (the default).
    case useDefaultKeys
    /// The coding key is the camelCase version of the snake_case column
    /// name, as `JSONDecoder` converts keys: the `player_name` column is
    /// read for `playerName`, and the `createdAt` column for `createdAt`.
    ///
    /// A key whose snake_case version does not convert back to it
    /// (`playerID`, whose column `player_id` converts to `playerId`) reads
    /// the snake_case column anyway.
    case convertFromSnakeCase
    /// A custom mapping from column name to coding key: a key reads the
    /// column whose key has the same string value (the last one when
    /// several columns give the same key, as in GRDB).
    ///
    /// ```swift
    /// struct Player: Decodable, FetchableRecord {
    ///     // Reads the "player_name" column for `name`.
    ///     static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.custom { column in
    ///         CodingKeys(stringValue: column.replacingOccurrences(of: "player_", with: "")) ?? CodingKeys.name
    ///     }
    ///     var name: String
    /// }
    /// ```
    case custom(@Sendable (String) -> any CodingKey)

    /// The column of a row that `key` reads; the key itself when no column
    /// maps to it (the column is missing).
    func column(for key: some CodingKey, in row: Row) -> String {
        switch self {
        case .useDefaultKeys:
            return key.stringValue
        case .convertFromSnakeCase:
            // As GRDB, the column whose camelCase name is the key; the last
            // one when several are.
            let wanted = key.stringValue
            let column = row.columnNames.last { $0.snakeCaseIdentifier(convertsTo: wanted) }
            // Otherwise the snake_case key, which names the missing column
            // in errors.
            return column ?? wanted.snakeCased
        case .custom(let keyForColumn):
            let wanted = key.stringValue
            return row.columnNames.last { keyForColumn($0).stringValue == wanted } ?? wanted
        }
    }
}

// MARK: - Fetching records

/// A cursor of records, decoded from the rows of a statement.
///
/// The row given to ``FetchableRecord/init(row:)`` is reused at each step.
public final class RecordCursor<Record: FetchableRecord>: DatabaseCursor {
    /// The elements of the cursor: records.
    public typealias Element = Record

    @usableFromInline let storage: DatabaseCursorStorage
    @usableFromInline let row: Row

    /// The statement that the cursor iterates.
    public var statement: Statement { storage.state.statement }

    @usableFromInline
    init(statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws {
        storage = DatabaseCursorStorage(try DatabaseCursorState(statement: statement, arguments: arguments))
        row = try Row.cursorRow(statement: statement, adapter: adapter)
    }

    /// Returns the next record, or nil when there is no more row.
    ///
    /// - Throws: A ``DatabaseError`` when the statement fails, and the error
    ///   of ``FetchableRecord/init(row:)``.
    @inlinable
    public func next() throws -> Record? {
        guard try storage.state.step() else { return nil }
        return try Record(row: row)
    }
}

extension FetchableRecord {
    /// Returns a cursor over the records of a prepared statement.
    ///
    /// - Throws: A ``DatabaseError`` when the arguments do not fit; the
    ///   cursor throws the errors of the statement and of decoding.
    @inlinable
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> RecordCursor<Self> {
        try RecordCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// Returns an array of the records of a prepared statement.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    @inlinable
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> [Self] {
        // A loop without the cursor object, in which the row is known to
        // outlive the loop: this saves retaining and releasing it around
        // each record (about 30 instructions per record).
        var state = try DatabaseCursorState(statement: statement, arguments: arguments, oneShot: true)
        defer { state.finish() }
        let row = try Row.reusableRow(of: statement, adapter: adapter)
        var records: [Self] = []
        try withExtendedLifetime(row) {
            while try state.step() {
                records.append(try Self(row: row))
            }
        }
        return records
    }

    /// Returns the first record of a prepared statement, or nil.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    @inlinable
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Self? {
        // A cursor without the cursor object: one step.
        var state = try DatabaseCursorState(statement: statement, arguments: arguments, oneShot: true)
        defer { state.finish() }
        let row = try Row.reusableRow(of: statement, adapter: adapter)
        guard try state.step() else { return nil }
        return try Self(row: row)
    }

    /// Returns a cursor over the records of an SQL query.
    ///
    /// ```swift
    /// let players = try Player.fetchCursor(db, sql: "SELECT * FROM player")
    /// while let player = try players.next() { ... }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` when the SQL is invalid or the
    ///   arguments do not fit; the cursor throws the errors of the statement
    ///   and of decoding.
    @inlinable
    public static func fetchCursor(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> RecordCursor<Self>
    {
        try fetchCursor(db.implicitStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns an array of the records of an SQL query.
    ///
    /// ```swift
    /// let players = try Player.fetchAll(db, sql: "SELECT * FROM player WHERE score > ?", arguments: [1000])
    /// ```
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    @inlinable
    public static func fetchAll(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> [Self]
    {
        try fetchAll(db.implicitStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns the first record of an SQL query, or nil.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    @inlinable
    public static func fetchOne(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Self?
    {
        try fetchOne(db.implicitStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}

extension FetchableRecord where Self: Hashable {
    /// Returns a set of the records of a prepared statement.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Set<Self> {
        // See fetchAll(_:arguments:adapter:). The two loops are not one
        // generic helper that takes a closure: the record then went through
        // an extra copy (workload 15: +114 instructions per row).
        var state = try DatabaseCursorState(statement: statement, arguments: arguments, oneShot: true)
        defer { state.finish() }
        let row = try Row.reusableRow(of: statement, adapter: adapter)
        var records: Set<Self> = []
        try withExtendedLifetime(row) {
            while try state.step() {
                records.insert(try Self(row: row))
            }
        }
        return records
    }

    /// Returns a set of the records of an SQL query.
    ///
    /// - Throws: A ``DatabaseError``, and the errors of decoding.
    public static func fetchSet(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Set<Self>
    {
        try fetchSet(db.implicitStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}
