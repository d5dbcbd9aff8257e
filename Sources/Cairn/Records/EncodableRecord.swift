import Foundation

/// A type that can encode itself into database columns.
///
/// ```swift
/// struct Player: EncodableRecord {
///     var id: Int64?
///     var name: String
///     func encode(to container: inout PersistenceContainer) {
///         container["id"] = id
///         container["name"] = name
///     }
/// }
/// ```
///
/// `Encodable` types get the method for free: each property is stored in the
/// column named after its coding key; nested `Encodable` values that are not
/// ``DatabaseValueConvertible`` are stored as JSON text.
public protocol EncodableRecord {
    /// Encodes the record into a container of column values.
    ///
    /// - Throws: An error that makes the persistence method fail.
    func encode(to container: inout PersistenceContainer) throws

    /// The `userInfo` of the encoder of `Encodable` records, and of the
    /// JSON encoders of their nested values (unless
    /// ``databaseJSONEncoder(for:)`` makes its own).
    ///
    /// ```swift
    /// struct Player: Encodable, PersistableRecord {
    ///     static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] {
    ///         [CodingUserInfoKey(rawValue: "destination")!: "database"]
    ///     }
    /// }
    /// ```
    static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { get }

    /// The JSON encoder for a column of an `Encodable` record that holds a
    /// nested `Encodable` value.
    ///
    /// - Parameter column: The coding key of the property (its
    ///   `stringValue`), as in GRDB: `"homeAddress"` even when
    ///   ``databaseColumnEncodingStrategy`` stores it in `home_address`.
    static func databaseJSONEncoder(for column: String) -> JSONEncoder

    /// How `Encodable` records encode dates.
    static var databaseDateEncodingStrategy: DatabaseDateEncodingStrategy { get }

    /// How `Encodable` records encode the dates of a column. The default
    /// is ``databaseDateEncodingStrategy``.
    ///
    /// - Parameter column: The column name.
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy

    /// How `Encodable` records encode UUIDs.
    static var databaseUUIDEncodingStrategy: DatabaseUUIDEncodingStrategy { get }

    /// How `Encodable` records encode the UUIDs of a column, and the UUID
    /// keys of their requests (`filter(id:)`). The default is
    /// ``databaseUUIDEncodingStrategy``.
    ///
    /// - Parameter column: The column name.
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy

    /// How `Encodable` records encode the `Data` of a column, and the `Data`
    /// keys of their requests. The default is
    /// ``DatabaseDataEncodingStrategy/deferredToData`` (a blob).
    ///
    /// ```swift
    /// struct Document: Encodable, PersistableRecord {
    ///     static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
    ///         column == "body" ? .text : .deferredToData
    ///     }
    ///     var id: Int64
    ///     var body: Data
    /// }
    /// ```
    ///
    /// - Parameter column: The column name.
    static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy

    /// How `Encodable` records map coding keys to column names.
    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { get }
}

extension EncodableRecord {
    /// Empty.
    public static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [:] }

    /// GRDB's JSON encoder: sorted keys, so that equal values give equal
    /// text, slashes escaped (`"a\/b"`), data in base64, dates in
    /// milliseconds since 1970.
    public static func databaseJSONEncoder(for column: String) -> JSONEncoder {
        let encoder = JSONCoding.makeEncoder()
        encoder.userInfo = sendableUserInfo(databaseEncodingUserInfo)
        return encoder
    }

    /// ``DatabaseDateEncodingStrategy/deferredToDate``.
    public static var databaseDateEncodingStrategy: DatabaseDateEncodingStrategy { .deferredToDate }

    /// ``DatabaseUUIDEncodingStrategy/deferredToUUID``.
    public static var databaseUUIDEncodingStrategy: DatabaseUUIDEncodingStrategy { .deferredToUUID }

    /// ``databaseDateEncodingStrategy``, for all columns.
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        databaseDateEncodingStrategy
    }

    /// ``databaseUUIDEncodingStrategy``, for all columns.
    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        databaseUUIDEncodingStrategy
    }

    /// ``DatabaseDataEncodingStrategy/deferredToData``, for all columns.
    public static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
        .deferredToData
    }

    /// The database value of a key of a request (`filter(id:)`,
    /// `fetchOne(db, key:)`), encoded as the record encodes the values of
    /// the column: with the UUID, `Data` and date strategies.
    static func databaseValue(ofKey value: some DatabaseValueConvertible, forColumn column: String) -> DatabaseValue {
        if let date = value as? Date {
            return databaseDateEncodingStrategy(for: column).encode(date)
        } else if let uuid = value as? UUID {
            return databaseUUIDEncodingStrategy(for: column).encode(uuid)
        } else if let data = value as? Data {
            // Bytes that the strategy cannot encode were never stored by
            // it: their blob matches no row the strategy wrote.
            return (try? databaseDataEncodingStrategy(for: column).encode(data)) ?? data.databaseValue
        }
        return value.databaseValue
    }

    /// ``DatabaseColumnEncodingStrategy/useDefaultKeys``.
    public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .useDefaultKeys }

    /// The values of the record, keyed by column.
    ///
    /// - Throws: The error of ``encode(to:)``.
    public var databaseDictionary: [String: DatabaseValue] {
        get throws { try databaseContainer().dictionary }
    }

    /// Whether two records have the same column values.
    ///
    /// ```swift
    /// if !newPlayer.databaseEquals(oldPlayer) {
    ///     try newPlayer.update(db)
    /// }
    /// ```
    ///
    /// A record whose ``encode(to:)`` throws is not equal to any record:
    /// its values are not known.
    public func databaseEquals(_ record: Self) -> Bool {
        guard let lhs = try? databaseContainer(), let rhs = try? record.databaseContainer() else {
            return false
        }
        return lhs.columns == rhs.columns && lhs.values == rhs.values
    }

    /// The columns whose values differ from those of another record, with
    /// the values of the other record.
    ///
    /// A column that the other record does not encode counts as NULL in
    /// the other record. Columns are compared without regard to case, as
    /// SQLite does.
    ///
    /// ```swift
    /// var player = try Player.find(db, id: 1)  // score 100
    /// let old = player
    /// player.score = 1000
    /// try player.databaseChanges(from: old)    // ["score": 100]
    /// ```
    ///
    /// - Parameter record: The record to compare with, usually a former
    ///   version of this one.
    /// - Throws: The error of ``encode(to:)``.
    public func databaseChanges(from record: some EncodableRecord) throws -> [String: DatabaseValue] {
        try databaseChanges(from: record.databaseContainer())
    }

    /// The columns whose values differ from those of `old`, with the values
    /// of `old`.
    func databaseChanges(from old: PersistenceContainer) throws -> [String: DatabaseValue] {
        var changes: [String: DatabaseValue] = [:]
        for (column, value) in try databaseContainer().storage {
            let oldValue = old.databaseValue(forColumn: column) ?? .null
            if oldValue != value {
                changes[column] = oldValue
            }
        }
        return changes
    }

    /// Modifies the record, and returns the columns that changed, with their
    /// former values.
    ///
    /// ```swift
    /// var player = try Player.find(db, id: 1)  // name "Arthur"
    /// let changes = try player.databaseChanges {
    ///     $0.name = "Barbara"
    /// }
    /// // changes == ["name": "Arthur"]
    /// ```
    ///
    /// - Parameter modify: A function that modifies the record.
    /// - Returns: The changed columns, with their values before `modify`.
    /// - Throws: The error of ``encode(to:)``, or of `modify`.
    public mutating func databaseChanges(modify: (inout Self) throws -> Void) throws -> [String: DatabaseValue] {
        // Encoded before the modification: for a class, `self` and a copy
        // of it are the same object.
        let old = try databaseContainer()
        try modify(&self)
        return try databaseChanges(from: old)
    }

    /// The encoded values of the record.
    ///
    /// - Parameter cached: The insert statement of the previous insert of
    ///   the record type, if any: the container expects its columns (see
    ///   ``PersistenceContainer/init(template:)``), reuses the storage of
    ///   its values, and `Encodable` records reuse its encoder.
    func databaseContainer(cached: CachedInsertStatement? = nil) throws -> PersistenceContainer {
        var container: PersistenceContainer
        let encoder: RecordEncoder?
        if let cached {
            container = PersistenceContainer(template: cached.columns)
            container.recycleValues(from: cached)
            encoder = cached.encoder
        } else {
            container = PersistenceContainer()
            encoder = nil
        }
        if let encoder {
            try RecordEncoder.withReusable(encoder) {
                try encode(to: &container)
            }
        } else {
            try encode(to: &container)
        }
        container.dropRecycledValues()
        return container
    }
}

/// How `Encodable` records encode dates.
public enum DatabaseDateEncodingStrategy: Sendable {
    /// As `Date` stores itself: `YYYY-MM-DD HH:MM:SS.SSS` text in UTC (the
    /// default).
    case deferredToDate
    /// A number of seconds since 1970-01-01.
    case timeIntervalSince1970
    /// A number of seconds since 2001-01-01.
    case timeIntervalSinceReferenceDate
    /// A whole number of seconds since 1970-01-01, as an integer (rounded
    /// down: 1.9 seconds is 1, -0.1 second is -1).
    case secondsSince1970
    /// A whole number of milliseconds since 1970-01-01, as an integer
    /// (rounded down, as GRDB does: 0.9876 second is 987).
    case millisecondsSince1970
    /// ISO-8601 text.
    case iso8601
    /// Text that a date formatter makes.
    ///
    /// The formatter is used from the threads that encode records: do not
    /// modify it after it is given to the strategy.
    case formatted(DateFormatter)
    /// A custom encoding.
    case custom(@Sendable (Date) -> (any DatabaseValueConvertible)?)

    func encode(_ date: Date) -> DatabaseValue {
        switch self {
        case .deferredToDate:
            return date.databaseValue
        case .timeIntervalSince1970:
            return date.timeIntervalSince1970.databaseValue
        case .timeIntervalSinceReferenceDate:
            return date.timeIntervalSinceReferenceDate.databaseValue
        case .secondsSince1970:
            // Dates too far away for an integer keep their value as a real.
            let seconds = date.timeIntervalSince1970.rounded(.down)
            return Int64(exactly: seconds)?.databaseValue ?? seconds.databaseValue
        case .millisecondsSince1970:
            let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
            return Int64(exactly: milliseconds)?.databaseValue ?? milliseconds.databaseValue
        case .iso8601:
            return ISO8601DateFormatter().string(from: date).databaseValue
        case .formatted(let formatter):
            return formatter.string(from: date).databaseValue
        case .custom(let encode):
            return encode(date)?.databaseValue ?? .null
        }
    }
}

/// How `Encodable` records encode UUIDs.
public enum DatabaseUUIDEncodingStrategy: Sendable {
    /// As `UUID` stores itself: a 16-byte blob (the default).
    case deferredToUUID
    /// Uppercase text: `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
    case uppercaseString
    /// Lowercase text: `e621e1f8-c36c-495a-93fc-0c247a3e6e5f`.
    case lowercaseString

    func encode(_ uuid: UUID) -> DatabaseValue {
        switch self {
        case .deferredToUUID: return uuid.databaseValue
        case .uppercaseString: return uuid.uuidString.databaseValue
        case .lowercaseString: return uuid.uuidString.lowercased().databaseValue
        }
    }
}

/// How `Encodable` records encode `Data`.
public enum DatabaseDataEncodingStrategy: Sendable {
    /// As `Data` stores itself: a blob (the default).
    case deferredToData
    /// UTF-8 text: the bytes as a string.
    ///
    /// Bytes that are not valid UTF-8 are not stored: encoding the record
    /// throws an `EncodingError`, as in GRDB, and nothing is written.
    case text
    /// A custom encoding.
    case custom(@Sendable (Data) -> (any DatabaseValueConvertible)?)

    /// The database value of `data`.
    ///
    /// - Throws: `EncodingError.invalidValue` when the strategy is ``text``
    ///   and the bytes are not valid UTF-8.
    func encode(_ data: Data, codingPath: @autoclosure () -> [any CodingKey] = []) throws -> DatabaseValue {
        switch self {
        case .deferredToData:
            return data.databaseValue
        case .text:
            let string = data.withUnsafeBytes { String(validatingUTF8Bytes: $0) }
            guard let string else {
                throw EncodingError.invalidValue(data, EncodingError.Context(
                    codingPath: codingPath(),
                    debugDescription: "Data that is not valid UTF-8 cannot be stored as text"))
            }
            return string.databaseValue
        case .custom(let encode):
            return encode(data)?.databaseValue ?? .null
        }
    }
}

/// How `Encodable` records map coding keys to column names.
public enum DatabaseColumnEncodingStrategy: Sendable {
    /// The column name is the coding key (the default).
    case useDefaultKeys
    /// The column name is the snake_case version of the coding key.
    case convertToSnakeCase
    /// A custom mapping from coding key to column name.
    case custom(@Sendable (any CodingKey) -> String)

    func column(for key: some CodingKey) -> String {
        switch self {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return key.stringValue.snakeCased
        case .custom(let column): return column(key)
        }
    }
}
