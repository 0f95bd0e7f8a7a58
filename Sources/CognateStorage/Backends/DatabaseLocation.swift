import Foundation

/// Which database a location (`--database`, `COGNATE_DATABASE`) names.
///
/// Contract: `postgres://…` and `postgresql://…` are PostgreSQL (``PostgresURL`` reads the
/// rest); `sqlite://PATH`, `file://PATH` (`file:///var/lib/x.sqlite` is `/var/lib/x.sqlite`) and
/// anything that does not start with `scheme://` are an SQLite file path. Any other `scheme://`
/// is refused, so that a misspelt URL (`postgress://…`) never becomes a SQLite file under a
/// directory named after it.
public enum DatabaseLocation: Sendable, Equatable {
    case sqlite(path: String)
    case postgres(url: String)

    public init(_ location: String) throws {
        let lowered = location.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
            self = .postgres(url: location)
        } else if let scheme = Self.scheme(of: location) {
            guard ["sqlite", "file"].contains(scheme.lowercased()) else {
                throw StorageError.invalidLocation(
                    "Unknown database scheme \"\(scheme)://\" in \(SQLStore.redacted(location)): the database is a path "
                        + "(or file:// or sqlite:// and a path) of a SQLite file, or a postgres:// or postgresql:// URL.")
            }
            let path = String(location.dropFirst(scheme.count + 3))
            guard !path.isEmpty else { throw StorageError.invalidLocation("\(location) names no file.") }
            self = .sqlite(path: path.removingPercentEncoding ?? path)
        } else {
            self = .sqlite(path: location)
        }
    }

    /// The `scheme` of a location that starts with `scheme://` (RFC 3986's characters: a letter,
    /// then letters, digits, `+`, `-` or `.`), nil for any other.
    static func scheme(of location: String) -> String? {
        guard let separator = location.range(of: "://") else { return nil }
        let scheme = location[..<separator.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return String(scheme)
    }

    /// Where this is, for messages: a SQLite file's absolute path (relative paths are relative
    /// to the current directory), a URL without its password.
    public var shown: String {
        switch self {
        case .sqlite(let path): URL(fileURLWithPath: path).standardizedFileURL.path
        case .postgres(let url): SQLStore.redacted(url)
        }
    }
}
