/// The `Date` field's value (RFC 9110 §5.6.7, IMF-fixdate), without
/// Foundation: `Sun, 06 Nov 1994 08:49:37 GMT`.
public enum HTTPDate {
    private static let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The IMF-fixdate of `seconds` since 1970-01-01 00:00:00 UTC.
    public static func format(secondsSince1970 seconds: Int64) -> String {
        let (dayNumber, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (day, second) = secondOfDay < 0 ? (dayNumber - 1, secondOfDay + 86_400) : (dayNumber, secondOfDay)
        let (year, month, dayOfMonth) = civil(fromDays: day)
        let weekday = days[Int(((day % 7) + 7) % 7)]
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday), \(two(dayOfMonth)) \(months[Int(month - 1)]) \(year) \(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60)) GMT"
    }

    /// Year, month (1–12) and day (1–31) of day `days` since 1970-01-01
    /// (the proleptic Gregorian calendar, from the days in each 400 years).
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// The `Date` value of the current second, formatted once per second: a
/// server's loop keeps one and asks it for every response.
public struct HTTPDateCache: Sendable {
    private var second: Int64 = .min
    private var formatted = ""

    /// An empty cache.
    public init() {}

    /// The IMF-fixdate of `seconds`, formatted again only when the second
    /// changed.
    public mutating func value(secondsSince1970 seconds: Int64) -> String {
        if seconds != second {
            second = seconds
            formatted = HTTPDate.format(secondsSince1970: seconds)
        }
        return formatted
    }
}
