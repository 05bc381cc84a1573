/// The `Date` field's value (RFC 9110 §5.6.7, IMF-fixdate), without
/// Foundation: `Sun, 06 Nov 1994 08:49:37 GMT`.
public enum HTTPDate {
    /// The IMF-fixdate of `seconds` since 1970-01-01 00:00:00 UTC, 29
    /// bytes; any thread. Years outside 0...9999 are written in full.
    public static func format(secondsSince1970 seconds: Int64) -> String {
        let (dayNumber, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (day, second) = secondOfDay < 0 ? (dayNumber - 1, secondOfDay + 86_400) : (dayNumber, secondOfDay)
        let (year, month, dayOfMonth) = civil(fromDays: day)
        guard (0...9999).contains(year) else {
            func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
            return "\(weekdayNames[Int(((day % 7) + 7) % 7)]), \(two(dayOfMonth)) \(monthNames[Int(month - 1)]) \(year) "
                + "\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60)) GMT"
        }
        return String(unsafeUninitializedCapacity: 29) { text in
            var at = 0
            func put(_ name: StaticString) {
                name.withUTF8Buffer {
                    for byte in $0 {
                        text[at] = byte
                        at += 1
                    }
                }
            }
            func put(_ byte: UInt8) {
                text[at] = byte
                at += 1
            }
            func put(_ value: Int64, digits: Int) {
                var divisor: Int64 = 1
                for _ in 1..<digits { divisor *= 10 }
                while divisor > 0 {
                    put(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                    divisor /= 10
                }
            }
            put(weekdayNames[Int(((day % 7) + 7) % 7)])
            put(", ")
            put(dayOfMonth, digits: 2)
            put(UInt8(ascii: " "))
            put(monthNames[Int(month - 1)])
            put(UInt8(ascii: " "))
            put(year, digits: 4)
            put(UInt8(ascii: " "))
            put(second / 3600, digits: 2)
            put(UInt8(ascii: ":"))
            put(second / 60 % 60, digits: 2)
            put(UInt8(ascii: ":"))
            put(second % 60, digits: 2)
            put(" GMT")
            return at
        }
    }

    private static let weekdayNames: [StaticString] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let monthNames: [StaticString] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The seconds since 1970 of an IMF-fixdate (`Sun, 06 Nov 1994
    /// 08:49:37 GMT`), as `If-Modified-Since` carries it; `nil` for any
    /// other text (RFC 9110 §13.1.3: a date that cannot be read is
    /// ignored, so the obsolete formats need not be read).
    public static func parse(_ text: some StringProtocol) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 0x20, bytes[7] == 0x20, bytes[11] == 0x20,
            bytes[16] == 0x20, bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"), bytes[25] == 0x20,
            String(decoding: bytes[26...], as: UTF8.self) == "GMT",
            weekdayNames.contains(where: { $0.description == String(decoding: bytes[0..<3], as: UTF8.self) }),
            let month = monthNames.firstIndex(where: { $0.description == String(decoding: bytes[8..<11], as: UTF8.self) }),
            let day = number(bytes[5..<7]), let year = number(bytes[12..<16]),
            let hour = number(bytes[17..<19]), let minute = number(bytes[20..<22]), let second = number(bytes[23..<25]),
            (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        return days(fromCivil: year, Int64(month + 1), day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// The decimal number of `digits` (all of them digits), or `nil`.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int64(digit - UInt8(ascii: "0"))
        }
        return value
    }

    /// Days since 1970-01-01 of `year`-`month`-`day` (the inverse of
    /// `civil(fromDays:)`).
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
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
