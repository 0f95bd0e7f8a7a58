/// The `Date` header's format (RFC 5322 §3.3) in UTC: `Fri, 20 Nov 2026 09:05:03 +0000`.
/// Computed from the Unix time directly, so no locale or time-zone setting can change it.
enum RFC5322Date {
    static func format(secondsSince1970: Int64) -> String {
        let days = secondsSince1970 >= 0 ? secondsSince1970 / 86_400 : (secondsSince1970 - 86_399) / 86_400
        let secondOfDay = secondsSince1970 - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        // 1970-01-01 was a Thursday.
        let weekday = ((days % 7) + 7 + 4) % 7
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(weekdays[Int(weekday)]), \(day) \(months[month - 1]) \(year) "
            + "\(twoDigits(secondOfDay / 3600)):\(twoDigits(secondOfDay / 60 % 60)):\(twoDigits(secondOfDay % 60)) +0000"
    }

    /// Howard Hinnant's `civil_from_days`: the proleptic Gregorian date of a day count.
    private static func civilDate(daysSince1970: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = daysSince1970 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func twoDigits(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
