import Foundation

/// A CIMD policy's URL pattern, and the client metadata document URLs it admits.
///
/// A pattern is `https://host[:port]/path`: no user info, query or fragment, no `.` or `..`
/// path segment. `*` stands for any run of characters, with two limits: in the host it may
/// only be the whole leftmost label (`https://*.example.com/…`) and then stands for exactly one
/// label (never a dot); in the path it stands for anything but `?` and `#`, slashes included
/// (`https://example.com/clients/*`). Hosts compare without regard to case, paths exactly.
/// A URL is admitted only when it is itself a well-formed document URL (the same rules, without
/// `*`, and a path beyond `/`).
struct CIMDURLPattern: Sendable, Equatable {
    let hostLabelWildcard: Bool
    /// The host after the wildcard label and its dot, or the whole host; lower case, with `:port`.
    let authority: String
    let path: String

    /// Parses a pattern; nil with the reason when it is not one.
    static func parse(_ text: String) -> Result<CIMDURLPattern, Refusal> {
        guard let parts = Parts(text, allowingWildcards: true) else {
            return .failure(Refusal("\(text) is not an https URL pattern of a host and a path."))
        }
        var authority = parts.authority
        var wildcard = false
        if authority.hasPrefix("*.") {
            wildcard = true
            authority.removeFirst(2)
        }
        guard !authority.contains("*"), !authority.isEmpty, !authority.hasPrefix(".") else {
            return .failure(Refusal("\(text): * may only be the whole first label of the host (https://*.example.com/…)."))
        }
        // `*.com` would admit every site under a top-level domain: a wildcard stands before a
        // registered name of at least two labels.
        let host = authority.split(separator: ":", maxSplits: 1).first ?? ""
        if wildcard, host.split(separator: ".").count < 2 {
            return .failure(Refusal("\(text): * must stand before a name of two labels or more (https://*.example.com/…)."))
        }
        return .success(CIMDURLPattern(hostLabelWildcard: wildcard, authority: authority, path: parts.path))
    }

    /// Whether `url` is a well-formed client metadata document URL this pattern admits.
    func admits(_ url: String) -> Bool {
        guard let parts = Parts(url, allowingWildcards: false), parts.path != "/" else { return false }
        if hostLabelWildcard {
            let suffix = "." + authority
            guard parts.authority.hasSuffix(suffix) else { return false }
            let label = parts.authority.dropLast(suffix.count)
            guard !label.isEmpty, !label.contains("."), !label.contains(":") else { return false }
        } else if parts.authority != authority {
            return false
        }
        return Self.glob(Array(path.unicodeScalars), Array(parts.path.unicodeScalars))
    }

    /// Whether `url` is a well-formed document URL whose host is a name in canonical form —
    /// lower-case letters, digits, `-` and `.`, no percent-encoding — so that one document has
    /// one URL (and one cache entry), and a host wildcard matches the host that is fetched.
    static func isCanonicalDocumentURL(_ url: String) -> Bool {
        guard let parts = Parts(url, allowingWildcards: false), parts.path != "/" else { return false }
        let written = url.dropFirst("https://".count).prefix { $0 != "/" }
        let host = parts.authority.prefix { $0 != ":" }
        return written == parts.authority
            && host.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "." }
    }

    /// Whether `text` matches `pattern`, where `*` is any run of characters (greedy, with backtracking).
    private static func glob(_ pattern: [Unicode.Scalar], _ text: [Unicode.Scalar]) -> Bool {
        var p = 0, t = 0
        var star: Int? = nil, resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = t
                p += 1
            } else if p < pattern.count, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let star {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    struct Refusal: Error, Equatable {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// An https URL cut into its lower-cased authority and its path.
    private struct Parts {
        let authority: String
        let path: String

        init?(_ text: String, allowingWildcards: Bool) {
            let scheme = "https://"
            guard text.lowercased().hasPrefix(scheme) else { return nil }
            let rest = text.dropFirst(scheme.count)
            guard !rest.contains(where: { $0 == "?" || $0 == "#" || $0 == "\\" || $0.isWhitespace }),
                allowingWildcards || !rest.contains("*"),
                let slash = rest.firstIndex(of: "/")
            else { return nil }
            let authority = rest[..<slash].lowercased()
            let path = String(rest[slash...])
            guard !authority.isEmpty, !authority.contains("@") else { return nil }
            let hostAndPort = authority.split(separator: ":", omittingEmptySubsequences: false)
            guard hostAndPort.count <= 2, !hostAndPort[0].isEmpty,
                hostAndPort.count == 1 || (!hostAndPort[1].isEmpty && hostAndPort[1].allSatisfy(\.isASCII)
                    && hostAndPort[1].allSatisfy(\.isNumber))
            else { return nil }
            let segments = path.split(separator: "/", omittingEmptySubsequences: false)
            guard !segments.contains(where: { [".", "..", "%2e", "%2e%2e", ".%2e", "%2e."].contains($0.lowercased()) }) else {
                return nil
            }
            self.authority = authority
            self.path = path
        }
    }
}
