import Foundation

/// A short description of the device a request came from, from its `User-Agent`: the browser
/// or app and the operating system, e.g. "Chrome on macOS", "Boto3 on Linux" — what user
/// sessions show as `DeviceType`.
enum DeviceDescription {
    static func of(userAgent: String?) -> String? {
        guard let agent = userAgent?.trimmingCharacters(in: .whitespaces), !agent.isEmpty else { return nil }
        let system: String? =
            if agent.contains("iPhone") || agent.contains("iPad") { "iOS" }
            else if agent.contains("Android") { "Android" }
            else if agent.contains("Windows") { "Windows" }
            else if agent.contains("Mac OS X") || agent.contains("Macintosh") || agent.contains("Darwin") { "macOS" }
            else if agent.contains("Linux") { "Linux" }
            else { nil }
        let application: String =
            if agent.contains("Edg/") { "Edge" }
            else if agent.contains("Chrome/") || agent.contains("Chromium/") || agent.contains("HeadlessChrome/") { "Chrome" }
            else if agent.contains("Firefox/") { "Firefox" }
            else if agent.contains("Safari/") { "Safari" }
            else { String(agent.prefix { $0 != "/" && $0 != " " }.prefix(64)) }
        let text = system.map { "\(application) on \($0)" } ?? application
        return String(text.prefix(1024))
    }
}
