import Foundation

/// The `TIMESTAMP` of a password claim: `EEE MMM d HH:mm:ss 'UTC' yyyy` in English, UTC,
/// day of month not padded, time fields zero-padded (`Tue Nov 3 04:05:06 UTC 2026`).
public enum SRPTimestamp {
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    public static func format(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = seconds - days * 86400
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        let weekday = ((days % 7) + 11) % 7  // 1970-01-01 was a Thursday (index 4)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(weekdays[weekday]) \(months[month - 1]) \(day) "
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) UTC \(year)"
    }

    /// Parses a timestamp and returns its date only if `format` renders it back to the same
    /// string (so a padded day or a wrong weekday is refused, as Cognito refuses them).
    public static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[4] == "UTC",
            let month = months.firstIndex(of: String(parts[1])),
            let day = Int(parts[2]), let year = Int(parts[5]), (1...31).contains(day), (1970...9999).contains(year)
        else { return nil }
        let time = parts[3].split(separator: ":")
        guard time.count == 3, let h = Int(time[0]), let m = Int(time[1]), let s = Int(time[2]),
            (0..<24).contains(h), (0..<60).contains(m), (0..<60).contains(s)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month + 1, day: day)
        let date = Date(timeIntervalSince1970: TimeInterval(days * 86400 + h * 3600 + m * 60 + s))
        return format(date) == text ? date : nil
    }

    /// Whether the text has the shape of a timestamp at all (to tell "unparseable" from "wrong").
    public static func isWellFormed(_ text: String) -> Bool {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        return parts.count == 6 && parts[4] == "UTC" && weekdays.contains(String(parts[0]))
            && months.contains(String(parts[1])) && Int(parts[2]) != nil && Int(parts[5]) != nil
            && parts[3].split(separator: ":").count == 3
    }

    // Howard Hinnant's civil-calendar algorithms (proleptic Gregorian).
    static func civilDate(daysSinceEpoch z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysSinceEpoch(year y0: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }
}
