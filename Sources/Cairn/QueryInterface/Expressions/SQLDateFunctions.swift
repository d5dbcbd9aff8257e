import Foundation

// The date and time functions of SQLite, and the modifiers they take.
//
// Related SQLite documentation: <https://www.sqlite.org/lang_datefunc.html>

/// A modifier of the date and time functions of SQLite (``julianDay(_:_:)``,
/// ``dateTime(_:_:)``): a shift, or a start of period.
///
/// ```swift
/// // DATETIME("date", '+1 days', 'start of day')
/// dateTime(Column("date"), .day(1), .startOfDay)
/// ```
public enum SQLDateModifier: Sendable, Hashable {
    /// Adds days: `'+N days'`.
    case day(Int)
    /// Adds hours: `'+N hours'`.
    case hour(Int)
    /// Adds minutes: `'+N minutes'`.
    case minute(Int)
    /// Adds seconds: `'+N seconds'`.
    case second(Double)
    /// Adds months: `'+N months'`.
    case month(Int)
    /// Adds years: `'+N years'`.
    case year(Int)
    /// `'start of day'`.
    case startOfDay
    /// `'start of month'`.
    case startOfMonth
    /// `'start of year'`.
    case startOfYear
    /// Advances to the next day whose weekday is N (0 is Sunday):
    /// `'weekday N'`.
    case weekday(Int)
    /// The value is a number of seconds since 1970: `'unixepoch'`.
    case unixEpoch
    /// The value is a Julian day number: `'julianday'`.
    case julianDayNumber
    /// Converts from UTC to local time: `'localtime'`.
    case localTime
    /// Converts from local time to UTC: `'utc'`.
    case utc

    /// The SQL string of the modifier.
    var sqlString: String {
        func shift(_ value: some Numeric & Comparable & CustomStringConvertible, _ unit: String) -> String {
            (value >= .zero ? "+" : "") + value.description + " " + unit
        }
        switch self {
        case .day(let value): return shift(value, "days")
        case .hour(let value): return shift(value, "hours")
        case .minute(let value): return shift(value, "minutes")
        case .second(let value): return shift(value, "seconds")
        case .month(let value): return shift(value, "months")
        case .year(let value): return shift(value, "years")
        case .startOfDay: return "start of day"
        case .startOfMonth: return "start of month"
        case .startOfYear: return "start of year"
        case .weekday(let value): return "weekday \(value)"
        case .unixEpoch: return "unixepoch"
        case .julianDayNumber: return "julianday"
        case .localTime: return "localtime"
        case .utc: return "utc"
        }
    }
}

extension SQLDateModifier: SQLSpecificExpressible {
    /// The modifier, as a string argument: `'+1 days'`, `'start of day'`.
    ///
    /// ```swift
    /// // DATETIME(?, ?) with arguments ["now", "start of day"]
    /// let today: SQL = "DATETIME(\("now"), \(SQLDateModifier.startOfDay))"
    /// ```
    public var sqlExpression: SQLExpression {
        sqlString.sqlExpression
    }
}

/// `JULIANDAY(value, modifiers...)`: the Julian day number of a date.
///
/// ```swift
/// // JULIANDAY("date", '+1 days')
/// let tomorrow = julianDay(Column("date"), .day(1))
/// ```
public func julianDay(_ value: some SQLSpecificExpressible, _ modifiers: SQLDateModifier...) -> SQLExpression {
    .function("JULIANDAY", [value.sqlExpression] + modifiers.map(\.sqlExpression))
}

/// `DATETIME(value, modifiers...)`: a date as `YYYY-MM-DD HH:MM:SS`.
///
/// ```swift
/// // DATETIME("date", 'start of month')
/// let month = dateTime(Column("date"), .startOfMonth)
/// ```
public func dateTime(_ value: some SQLSpecificExpressible, _ modifiers: SQLDateModifier...) -> SQLExpression {
    .function("DATETIME", [value.sqlExpression] + modifiers.map(\.sqlExpression))
}
