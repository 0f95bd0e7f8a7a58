import Foundation
import Synchronization

/// The `Date` header's value (RFC 9110's IMF-fixdate, "Sun, 06 Nov 1994 08:49:37 GMT"),
/// formatted once per second.
enum HTTPDate {
    private static let cached = Mutex<(second: Int, text: String)>((-1, ""))

    static var now: String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        let second = time.tv_sec
        return cached.withLock { cached in
            if cached.second != second { cached = (second, format(second)) }
            return cached.text
        }
    }

    static func format(_ second: Int) -> String {
        var seconds = time_t(second)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
