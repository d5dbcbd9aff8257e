import Foundation
internal import CairnSQLiteShims

// Conversions of Foundation types: Data, Date, DateComponents, UUID, URL and
// Decimal.

// MARK: - Data

extension Data: DatabaseValueConvertible, StatementColumnConvertible {
    /// A BLOB.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .blob(self)) }

    /// Binds a BLOB, copied by SQLite (an empty `Data` is an empty blob,
    /// not NULL).
    ///
    /// The corresponding C functions are `sqlite3_bind_blob64` and
    /// `sqlite3_bind_zeroblob`.
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        withUnsafeBytes { buffer in
            bindBlob(buffer, to: sqliteStatement, at: index)
        }
    }

    /// Converts a BLOB, or the UTF-8 bytes of a TEXT; nil otherwise.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Data? {
        switch dbValue.storage {
        case .blob(let data): return data
        case .string(let string): return Data(string.utf8)
        default: return nil
        }
    }

    /// Reads a BLOB, or the bytes of a TEXT; nil otherwise.
    ///
    /// The corresponding C functions are `sqlite3_column_blob` and
    /// `sqlite3_column_bytes`.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_BLOB, SQLITE_TEXT:
            // Read the blob first: it is the bytes, whatever the type.
            let bytes = sqlite3_column_blob(sqliteStatement, index)
            let count = Int(sqlite3_column_bytes(sqliteStatement, index))
            self = bytes.map { Data(bytes: $0, count: count) } ?? Data()
        default:
            return nil
        }
    }
}

// MARK: - Date

extension Date: DatabaseValueConvertible, StatementColumnConvertible {
    /// Text in the `YYYY-MM-DD HH:MM:SS.SSS` format, in UTC, with millisecond
    /// precision (the date is rounded to the nearest millisecond).
    ///
    /// The calendar is Foundation's Gregorian calendar, as in GRDB: the
    /// Julian calendar before 1582-10-15 (year 1 starts on `0001-01-03` of
    /// the proleptic Gregorian calendar that SQLite's date functions use).
    ///
    /// SQLite's date functions understand this format. Dates outside the years
    /// 0000 to 9999, which the format cannot represent, are stored as their
    /// number of seconds since 1970 (a REAL), which reads back as the same date.
    public var databaseValue: DatabaseValue {
        let milliseconds = (timeIntervalSince1970 * 1000).rounded()
        guard let totalMilliseconds = Int64(exactly: milliseconds) else {
            return DatabaseValue(storage: .double(timeIntervalSince1970))
        }
        let millisecondsPerDay: Int64 = 86_400_000
        var days = totalMilliseconds / millisecondsPerDay
        var millisecondOfDay = totalMilliseconds % millisecondsPerDay
        if millisecondOfDay < 0 {
            days -= 1
            millisecondOfDay += millisecondsPerDay
        }
        let (year, month, day) = civilDate(fromDaysSince1970: Int(days))
        guard (0...9999).contains(year) else {
            return DatabaseValue(storage: .double(timeIntervalSince1970))
        }
        var components = DateComponents()
        components.year = year
        components.month = month
        components.day = day
        let ms = Int(millisecondOfDay)
        components.hour = ms / 3_600_000
        components.minute = ms / 60_000 % 60
        components.second = ms / 1000 % 60
        components.nanosecond = ms % 1000 * 1_000_000
        return DatabaseDateComponents(components, format: .YMD_HMSS).databaseValue
    }

    /// Converts SQLite time values:
    ///
    /// - text in one of SQLite's date formats with a date (`YYYY-MM-DD`,
    ///   `YYYY-MM-DD HH:MM[:SS[.SSS]]` with a space or `T`, with an optional
    ///   `Z` or `±HH:MM` suffix), read in UTC unless a time zone is given, to
    ///   the millisecond (further digits are ignored), with components out
    ///   of their ranges carried over as Foundation's calendar does for GRDB
    ///   (`2001-13-01` is 2002-01-01, `2001-01-01 24:00` is 2001-01-02
    ///   00:00); a time without a date
    ///   (`HH:MM`) is not a date, and gives nil (decode it as
    ///   `DatabaseDateComponents`), and neither is a number in text (a
    ///   Unix time or a Julian day written as text), as in GRDB;
    /// - an INTEGER or REAL: a number of seconds since 1970-01-01 00:00:00 UTC
    ///   (a Unix timestamp).
    ///
    /// Returns nil for other values.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Date? {
        switch dbValue.storage {
        case .int64(let int64):
            return Date(timeIntervalSince1970: TimeInterval(int64))
        case .double(let double):
            guard double.isFinite else { return nil }
            return Date(timeIntervalSince1970: double)
        case .string(let string):
            return date(fromText: string)
        default:
            return nil
        }
    }

    /// The date of a text in one of SQLite's date formats; nil for a time
    /// without a date, and for other text.
    static func date(fromText string: String) -> Date? {
        if let components = SQLiteDateParser.parse(string) {
            // A time without a date is not a date (DateComponents
            // decode it).
            guard components.format.hasDatePart else { return nil }
            return Date(databaseDateComponents: components)
        }
        // A number in text (a Unix time, a Julian day) is not a date, as
        // in GRDB: numbers are stored as numbers.
        return nil
    }

    /// Reads a date from a column, as ``fromDatabaseValue(_:)`` converts
    /// its value: a Unix timestamp (INTEGER or REAL), text in one of
    /// SQLite's date formats; nil otherwise.
    ///
    /// - Parameters:
    ///   - sqliteStatement: A statement that has just returned `SQLITE_ROW`.
    ///   - index: A valid column index.
    ///
    /// The corresponding C functions are `sqlite3_column_int64`,
    /// `sqlite3_column_double` and `sqlite3_column_text`.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        var int64: Int64 = 0
        var double: Double = 0
        switch _cairn_column_number(sqliteStatement, index, &int64, &double) {
        case SQLITE_INTEGER:
            self.init(timeIntervalSince1970: TimeInterval(int64))
        case SQLITE_FLOAT:
            guard double.isFinite else { return nil }
            self.init(timeIntervalSince1970: double)
        case SQLITE_TEXT:
            guard let string = String(sqliteStatement: sqliteStatement, index: index),
                  let date = Date.date(fromText: string)
            else { return nil }
            self = date
        default:
            return nil
        }
    }

    init(databaseDateComponents: DatabaseDateComponents) {
        let c = databaseDateComponents.dateComponents
        let days: Int
        if databaseDateComponents.format.hasDatePart {
            // Months out of 1...12 (text such as `2001-13-01`) move to
            // another year, as Foundation's calendar does for GRDB: the
            // 13th month of 2001 is January 2002. Days, hours, minutes and
            // seconds out of their ranges add up the same way below.
            let monthsSinceYear0 = (c.year ?? 0) * 12 + (c.month ?? 1) - 1
            let year = floorDivision(monthsSinceYear0, 12)
            let month = monthsSinceYear0 - year * 12 + 1
            days = daysSince1970(year: year, month: month, day: c.day ?? 1)
        } else {
            days = daysSince1970(year: 2000, month: 1, day: 1)
        }
        let seconds = days * 86_400 + (c.hour ?? 0) * 3600 + (c.minute ?? 0) * 60 + (c.second ?? 0)
            - (c.timeZone?.secondsFromGMT() ?? 0)
        // Milliseconds, the precision of the stored format: further digits
        // are ignored.
        let fraction = TimeInterval((c.nanosecond ?? 0) / 1_000_000) / 1000
        // The sum is made on the interval since 2001, the one a `Date`
        // stores: made since 1970, it would round to another double, and
        // `.123` would read back as `.1229999`.
        let secondsSince2001 = seconds - Int(Date.timeIntervalBetween1970AndReferenceDate)
        self.init(timeIntervalSinceReferenceDate: TimeInterval(secondsSince2001) + fraction)
    }
}

// Dates are written and read in the calendar of Foundation's Gregorian
// calendar, which GRDB's date formatter uses: the Gregorian calendar from
// 1582-10-15, and the Julian calendar before (1582-10-04 is the day before
// 1582-10-15). Text written by GRDB for the year 1 reads back the same.

/// The first day of the Gregorian calendar, 1582-10-15, in days since
/// 1970-01-01.
private let firstGregorianDay = -141_427

/// Days since 1970-01-01 of a date: a date of the Gregorian calendar from
/// 1582-10-15, of the Julian calendar before.
func daysSince1970(year: Int, month: Int, day: Int) -> Int {
    if (year, month, day) < (1582, 10, 15) {
        // The Julian day number of a date of the Julian calendar.
        let a = (14 - month) / 12
        let y = year + 4800 - a
        let m = month + 12 * a - 3
        let julianDayNumber = day + (153 * m + 2) / 5 + 365 * y + floorDivision(y, 4) - 32_083
        return julianDayNumber - 2_440_588
    }
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
}

/// The date that is a number of days after 1970-01-01: in the Gregorian
/// calendar from 1582-10-15, in the Julian calendar before.
func civilDate(fromDaysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
    if days < firstGregorianDay {
        let c = days + 2_440_588 + 32_082
        let d = floorDivision(4 * c + 3, 1461)
        let e = c - floorDivision(1461 * d, 4)
        let m = (5 * e + 2) / 153
        let day = e - (153 * m + 2) / 5 + 1
        let month = m + 3 - 12 * (m / 10)
        return (d - 4800 + m / 10, month, day)
    }
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
}

/// The quotient rounded down, for negative numerators too.
private func floorDivision(_ numerator: Int, _ denominator: Int) -> Int {
    let quotient = numerator / denominator
    return numerator % denominator < 0 ? quotient - 1 : quotient
}

// MARK: - DateComponents

extension DateComponents: DatabaseValueConvertible {
    /// Text in the most precise SQLite date format that the set components
    /// fill: `YYYY-MM-DD` when only the date is set, `HH:MM:SS` when only the
    /// time is set, `YYYY-MM-DD HH:MM:SS.SSS` when the nanoseconds are set…
    /// NULL when neither a date nor a time is set.
    ///
    /// Use ``DatabaseDateComponents`` to choose the format.
    public var databaseValue: DatabaseValue {
        let hasDate = year != nil || month != nil || day != nil
        let hasTime = hour != nil || minute != nil
        let format: DatabaseDateComponents.Format
        switch (hasDate, hasTime, second != nil, nanosecond != nil) {
        case (false, false, _, _): return .null
        case (true, false, _, _): format = .YMD
        case (true, true, false, _): format = .YMD_HM
        case (true, true, true, false): format = .YMD_HMS
        case (true, true, true, true): format = .YMD_HMSS
        case (false, true, false, _): format = .HM
        case (false, true, true, false): format = .HMS
        case (false, true, true, true): format = .HMSS
        }
        return DatabaseDateComponents(self, format: format).databaseValue
    }

    /// Parses text in one of SQLite's date formats; nil for other values.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DateComponents? {
        DatabaseDateComponents.fromDatabaseValue(dbValue)?.dateComponents
    }
}

// MARK: - UUID

extension UUID: DatabaseValueConvertible, StatementColumnConvertible {
    /// A 16-byte BLOB.
    public var databaseValue: DatabaseValue {
        withUnsafeBytes(of: uuid) { DatabaseValue(storage: .blob(Data($0))) }
    }

    /// Converts a 16-byte BLOB, or text such as
    /// `"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"` (any case, with its
    /// hyphens); nil otherwise.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UUID? {
        switch dbValue.storage {
        case .blob(let data):
            return data.withUnsafeBytes { UUID(bytes: $0) }
        case .string(let string):
            return UUID(text: string)
        default:
            return nil
        }
    }

    /// Reads a 16-byte BLOB or UUID text; nil otherwise.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_BLOB:
            guard let bytes = sqlite3_column_blob(sqliteStatement, index),
                  let uuid = UUID(bytes: UnsafeRawBufferPointer(
                    start: bytes, count: Int(sqlite3_column_bytes(sqliteStatement, index))))
            else { return nil }
            self = uuid
        case SQLITE_TEXT:
            guard let string = String(sqliteStatement: sqliteStatement, index: index),
                  let uuid = UUID(text: string)
            else { return nil }
            self = uuid
        default:
            return nil
        }
    }

    private init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 16 else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: bytes) }
        self.init(uuid: uuid)
    }

    private init?(text: String) {
        // The hyphens are required, as in GRDB.
        guard let uuid = UUID(uuidString: text) else { return nil }
        self = uuid
    }
}

// MARK: - URL

extension URL: DatabaseValueConvertible {
    /// The absolute string of the URL, as TEXT.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(absoluteString)) }

    /// Converts TEXT, or a BLOB of UTF-8 text, that is a valid URL; nil
    /// otherwise.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> URL? {
        switch dbValue.storage {
        case .string(let string):
            return URL(string: string)
        case .blob(let data):
            // UTF-8 text stored as a BLOB.
            return String(data: data, encoding: .utf8).flatMap { URL(string: $0) }
        default:
            return nil
        }
    }
}

// MARK: - Decimal

extension Decimal: DatabaseValueConvertible {
    /// The decimal as TEXT (such as `"12.5"`), so that no digit is lost:
    /// SQLite has no decimal type, and a REAL would round the value.
    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .string(description))
    }

    /// Converts an INTEGER, a REAL, or TEXT holding a decimal number; nil
    /// otherwise.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Decimal? {
        switch dbValue.storage {
        case .int64(let int64):
            return Decimal(int64)
        case .double(let double):
            guard double.isFinite else { return nil }
            return Decimal(double)
        case .string(let string):
            guard isDecimalNumber(string) else { return nil }
            return Decimal(string: string, locale: Locale(identifier: "en_US_POSIX"))
        default:
            return nil
        }
    }
}

/// Whether the whole string is a decimal number: an optional sign, digits
/// with an optional fraction, and an optional exponent. `Decimal(string:)`
/// alone would accept a prefix such as the "12" of "12 apples".
private func isDecimalNumber(_ string: String) -> Bool {
    var bytes = Substring(string).utf8[...]
    func skipDigits() -> Int {
        let count = bytes.prefix(while: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }).count
        bytes = bytes.dropFirst(count)
        return count
    }
    if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
        bytes = bytes.dropFirst()
    }
    var digitCount = skipDigits()
    if bytes.first == UInt8(ascii: ".") {
        bytes = bytes.dropFirst()
        digitCount += skipDigits()
    }
    guard digitCount > 0 else { return false }
    if let first = bytes.first, first == UInt8(ascii: "e") || first == UInt8(ascii: "E") {
        bytes = bytes.dropFirst()
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            bytes = bytes.dropFirst()
        }
        guard skipDigits() > 0 else { return false }
    }
    return bytes.isEmpty
}

// MARK: - Julian day numbers

extension Date {
    /// Creates a date from a Julian day number (the days since noon in
    /// Greenwich on November 24, 4714 B.C.), as SQLite's `julianday()`
    /// returns; nil when the number is not finite, or too large for a date.
    ///
    /// The number is read as GRDB reads it, with the computation of SQLite's
    /// date functions: truncated to the millisecond (so that the Julian day
    /// of `julianday('2013-01-01 00:30:00')` is that exact time), and turned
    /// into a date of the proleptic Gregorian calendar, which is then read
    /// in Foundation's Gregorian calendar (the Julian calendar before
    /// 1582-10-15).
    ///
    /// ```swift
    /// let date = Date(julianDay: 2_456_293.520833) // 2013-01-01 00:29:59.971 UTC
    /// ```
    public init?(julianDay: Double) {
        guard julianDay.isFinite,
              let milliseconds = Int64(exactly: (julianDay * 86_400_000).rounded(.towardZero)),
              let shifted = Int(exactly: milliseconds).flatMap({ $0.addingReportingOverflow(43_200_000) }),
              !shifted.overflow
        else { return nil }
        // The day and the time of day, counted from midnight.
        let day = shifted.partialValue / 86_400_000
        let millisecondOfDay = shifted.partialValue % 86_400_000
        // SQLite's conversion of a day number to a date of the proleptic
        // Gregorian calendar (Meeus' algorithm, as in SQLite's date.c).
        var a = Int((Double(day) - 1_867_216.25) / 36_524.25)
        a = day + 1 + a - a / 4
        let b = a + 1524
        let c = Int((Double(b) - 122.1) / 365.25)
        let d = (36_525 * (c & 32_767)) / 100
        let e = Int(Double(b - d) / 30.6001)
        let dayOfMonth = b - d - Int(30.6001 * Double(e))
        let month = e < 14 ? e - 1 : e - 13
        let year = month > 2 ? c - 4716 : c - 4715

        var components = DateComponents()
        components.year = year
        components.month = month
        components.day = dayOfMonth
        components.hour = millisecondOfDay / 3_600_000
        components.minute = millisecondOfDay / 60_000 % 60
        components.second = millisecondOfDay / 1000 % 60
        components.nanosecond = millisecondOfDay % 1000 * 1_000_000
        self.init(databaseDateComponents: DatabaseDateComponents(components, format: .YMD_HMSS))
    }
}

// MARK: - NSNull

extension NSNull: DatabaseValueConvertible {
    /// NULL.
    public var databaseValue: DatabaseValue { .null }

    /// Always nil: a NULL database value decodes as a nil optional, never
    /// as an `NSNull` instance.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        nil
    }
}
