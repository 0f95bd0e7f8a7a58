import Foundation

/// A database location as messages, logs and `cognate config check` may show it.
public enum DatabaseLocationText {
    /// A URL's password becomes `***`, whether in its user part or in a `password=` parameter
    /// (libpq reads both).
    public static func redacted(_ location: String) -> String {
        guard var components = URLComponents(string: location) else { return location }
        let hidesParameter = components.queryItems?.contains { $0.name == "password" } ?? false
        guard components.password != nil || hidesParameter else { return location }
        if components.password != nil { components.password = "***" }
        if hidesParameter {
            components.queryItems = components.queryItems?.map {
                $0.name == "password" ? URLQueryItem(name: "password", value: "***") : $0
            }
        }
        return components.string ?? location
    }
}
