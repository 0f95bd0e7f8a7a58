import Foundation

/// What a `Cache-Control` header says of an answer's lifetime.
enum CacheControl {
    /// The seconds `max-age` states (quoted or not); 0 for `no-store` or `no-cache`; nil when
    /// the header says nothing usable. The first `max-age` counts.
    static func maxAge(_ header: String?) -> TimeInterval? {
        guard let header else { return nil }
        var stated: TimeInterval?
        for directive in header.lowercased().split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            switch parts.first {
            case "no-store", "no-cache": stated = 0
            case "max-age" where parts.count == 2:
                if stated == nil { stated = Double(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))) }
            default: break
            }
        }
        guard let stated, stated.isFinite else { return nil }
        return stated
    }
}
