import Foundation

/// Date components stored in one of the text formats that SQLite's date and
/// time functions understand, such as `"2025-03-14"` or `"13:45:00"`.
///
/// Use it to store a date without time, a time without date, or a date and
/// time without time zone, which `Date` cannot represent:
///
/// ```swift
/// var components = DateComponents()
/// components.year = 1973
/// components.month = 9
/// components.day = 18
/// let birthDate = DatabaseDateComponents(components, format: .YMD)
/// try db.execute(sql: "INSERT INTO player (birthDate) VALUES (?)", arguments: [birthDate])
/// // Stored as "1973-09-18"
///
/// let stored = try DatabaseDateComponents.fetchOne(db, sql: "SELECT birthDate FROM player")!
/// stored.format             // .YMD
/// stored.dateComponents.day // 18
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_datefunc.html>
public struct DatabaseDateComponents: Hashable, Sendable, DatabaseValueConvertible, StatementColumnConvertible {
    /// The SQLite formats for date components.
    public enum Format: String, Sendable, CaseIterable {
        /// `YYYY-MM-DD`
        case YMD = "yyyy-MM-dd"
        /// `YYYY-MM-DD HH:MM`
        case YMD_HM = "yyyy-MM-dd HH:mm"
        /// `YYYY-MM-DD HH:MM:SS`
        case YMD_HMS = "yyyy-MM-dd HH:mm:ss"
        /// `YYYY-MM-DD HH:MM:SS.SSS`
        case YMD_HMSS = "yyyy-MM-dd HH:mm:ss.SSS"
        /// `HH:MM`
        case HM = "HH:mm"
        /// `HH:MM:SS`
        case HMS = "HH:mm:ss"
        /// `HH:MM:SS.SSS`
        case HMSS = "HH:mm:ss.SSS"

        var hasDatePart: Bool {
            switch self {
            case .YMD, .YMD_HM, .YMD_HMS, .YMD_HMSS: return true
            case .HM, .HMS, .HMSS: return false
            }
        }

        var hasTimePart: Bool { self != .YMD }
        var hasSeconds: Bool { [.YMD_HMS, .YMD_HMSS, .HMS, .HMSS].contains(self) }
        var hasFraction: Bool { self == .YMD_HMSS || self == .HMSS }
    }

    /// The date components.
    public let dateComponents: DateComponents

    /// The database format.
    public let format: Format

    /// Creates date components stored in the given format.
    ///
    /// - Parameters:
    ///   - dateComponents: The components. Missing components are stored as
    ///     zero, except for the month and day, stored as 01.
    ///   - format: The format used to store the components.
    public init(_ dateComponents: DateComponents, format: Format) {
        self.dateComponents = dateComponents
        self.format = format
    }

    /// The components as text, in their format.
    public var databaseValue: DatabaseValue {
        var text = ""
        let c = dateComponents
        if format.hasDatePart {
            text += pad(c.year ?? 0, 4) + "-" + pad(c.month ?? 1, 2) + "-" + pad(c.day ?? 1, 2)
            if format.hasTimePart { text += " " }
        }
        if format.hasTimePart {
            text += pad(c.hour ?? 0, 2) + ":" + pad(c.minute ?? 0, 2)
            if format.hasSeconds {
                text += ":" + pad(c.second ?? 0, 2)
            }
            if format.hasFraction {
                // Rounded to the nearest millisecond, as GRDB does; 999.5 ms
                // and more stay .999 (GRDB writes `.1000`, which SQLite and
                // GRDB read back as 100 ms).
                let milliseconds = ((c.nanosecond ?? 0) + 500_000) / 1_000_000
                text += "." + pad(min(max(milliseconds, 0), 999), 3)
            }
        }
        return DatabaseValue(storage: .string(text))
    }

    /// Parses text in one of SQLite's date formats (with an optional `T`
    /// separator and time zone suffix), as GRDB does: the fraction of a
    /// second is read to the millisecond, and further digits are ignored
    /// (`"23:59:59.999123"` has 999,000,000 nanoseconds). Nil for other
    /// values.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseDateComponents? {
        guard case .string(let string) = dbValue.storage else { return nil }
        return SQLiteDateParser.parse(string)
    }

    /// Reads text in one of SQLite's date formats from a column; nil for
    /// other values.
    ///
    /// - Parameters:
    ///   - sqliteStatement: A statement that has just returned `SQLITE_ROW`.
    ///   - index: A valid column index.
    ///
    /// The corresponding C function is `sqlite3_column_text`.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let string = String(sqliteStatement: sqliteStatement, index: index),
              let components = SQLiteDateParser.parse(string)
        else { return nil }
        self = components
    }
}

/// The number padded with zeros to `width` characters, the sign included,
/// as GRDB writes it with `%04d` and `%02d` (`-1` is `-001` in a width of 4).
private func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value.magnitude)
    let sign = value < 0 ? "-" : ""
    return sign + String(repeating: "0", count: max(0, width - sign.count - digits.count)) + digits
}

/// Parses the time value formats of SQLite's date and time functions.
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_datefunc.html#time_values>
enum SQLiteDateParser {
    /// Parses formats 1 to 10 of SQLite's time values, with an optional time
    /// zone suffix (`Z`, `+HH:MM`, `-HH:MM`).
    static func parse(_ string: String) -> DatabaseDateComponents? {
        var scanner = ByteScanner(Array(string.utf8))
        var components = DateComponents()
        let format: DatabaseDateComponents.Format

        if let year = scanner.digits(4), scanner.skip(UInt8(ascii: "-")) {
            // As in GRDB, two digits are enough: the ranges of the
            // components are not checked (`24:00`, a leap second
            // `23:59:60`, or a month `13` parse; a `Date` normalizes them
            // as Foundation's calendar does).
            guard let month = scanner.digits(2), scanner.skip(UInt8(ascii: "-")),
                  let day = scanner.digits(2)
            else { return nil }
            components.year = year
            components.month = month
            components.day = day
            if scanner.isAtEnd {
                return DatabaseDateComponents(components, format: .YMD)
            }
            guard scanner.skip(UInt8(ascii: " ")) || scanner.skip(UInt8(ascii: "T")) else { return nil }
            guard let timeFormat = parseTime(&scanner, into: &components) else { return nil }
            switch timeFormat {
            case .HM: format = .YMD_HM
            case .HMS: format = .YMD_HMS
            default: format = .YMD_HMSS
            }
        } else {
            scanner.position = 0
            guard let timeFormat = parseTime(&scanner, into: &components) else { return nil }
            format = timeFormat
        }

        // Optional time zone: `Z` (uppercase, as in GRDB), or an offset.
        if !scanner.isAtEnd {
            if scanner.skip(UInt8(ascii: "Z")) {
                components.timeZone = TimeZone(secondsFromGMT: 0)
            } else {
                let sign: Int
                if scanner.skip(UInt8(ascii: "+")) {
                    sign = 1
                } else if scanner.skip(UInt8(ascii: "-")) {
                    sign = -1
                } else {
                    return nil
                }
                guard let hours = scanner.digits(2), scanner.skip(UInt8(ascii: ":")),
                      let minutes = scanner.digits(2)
                else { return nil }
                // An offset beyond the range of time zones (18 hours) gives
                // no time zone, as in GRDB: the time reads as UTC.
                components.timeZone = TimeZone(secondsFromGMT: sign * (hours * 3600 + minutes * 60))
            }
        }
        guard scanner.isAtEnd else { return nil }
        return DatabaseDateComponents(components, format: format)
    }

    private static func parseTime(
        _ scanner: inout ByteScanner,
        into components: inout DateComponents
    ) -> DatabaseDateComponents.Format? {
        guard let hour = scanner.digits(2), scanner.skip(UInt8(ascii: ":")),
              let minute = scanner.digits(2)
        else { return nil }
        components.hour = hour
        components.minute = minute
        guard scanner.skip(UInt8(ascii: ":")) else { return .HM }
        guard let second = scanner.digits(2) else { return nil }
        components.second = second
        guard scanner.skip(UInt8(ascii: ".")) else { return .HMS }
        // Milliseconds, the precision of the stored format: further digits
        // are ignored, as GRDB does.
        var millisecond = 0
        var count = 0
        while let digit = scanner.digit() {
            if count < 3 { millisecond = millisecond * 10 + digit }
            count += 1
        }
        guard count > 0 else { return nil }
        for _ in min(count, 3)..<3 { millisecond *= 10 }
        components.nanosecond = millisecond * 1_000_000
        return .HMSS
    }
}

private struct ByteScanner {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { position == bytes.count }

    mutating func skip(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    mutating func digit() -> Int? {
        guard position < bytes.count else { return nil }
        let byte = bytes[position]
        guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
        position += 1
        return Int(byte - UInt8(ascii: "0"))
    }

    mutating func digits(_ count: Int) -> Int? {
        let start = position
        var value = 0
        for _ in 0..<count {
            guard let digit = digit() else {
                position = start
                return nil
            }
            value = value * 10 + digit
        }
        return value
    }
}

extension DatabaseDateComponents: Codable {
    /// Decodes date components from text in one of the formats of
    /// ``Format``, such as `"2018-12-31"`.
    ///
    /// - Throws: A `DecodingError` when the value is not text in one of
    ///   the formats.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let components = DatabaseDateComponents.fromDatabaseValue(string.databaseValue) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "not a date in one of the formats of DatabaseDateComponents: \(String(reflecting: string))")
        }
        self = components
    }

    /// Encodes the date components as text, in their format.
    ///
    /// - Throws: The error of the encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(String.fromDatabaseValue(databaseValue) ?? "")
    }
}
