import Crypto
import Foundation

/// The pieces of AWS Signature Version 4 (`AWS4-HMAC-SHA256`) that signing a request and
/// verifying one share: the canonical request, the string to sign, the signing key and the
/// signature. Both sides must compute these byte for byte alike, so there is one copy:
/// ``SigV4Signer`` (clients) and the server's verifier build on it.
public enum SigV4 {
    public static let algorithm = "AWS4-HMAC-SHA256"

    /// One signed header: its lowercase name and its values as sent, in order.
    public struct Header: Sendable, Equatable {
        public var name: String
        public var values: [String]
        public init(name: String, values: [String]) {
            self.name = name.lowercased()
            self.values = values
        }
    }

    /// The canonical request: method, URI-encoded path, sorted query, `name:values` lines of the
    /// signed headers (in the order given, which must be sorted for AWS clients to agree), the
    /// signed-header list and the hex SHA-256 of the payload.
    public static func canonicalRequest(method: String, path: String, query: String, headers: [Header],
                                        payloadHash: String) -> String {
        let canonicalHeaders = headers.map { header in
            header.name + ":" + header.values.map(normalizedValue).joined(separator: ",") + "\n"
        }.joined()
        return [
            method, canonicalPath(path), canonicalQuery(query), canonicalHeaders,
            headers.map(\.name).joined(separator: ";"), payloadHash,
        ].joined(separator: "\n")
    }

    /// `date/region/service/aws4_request`, with `date` as yyyyMMdd.
    public static func scope(date: String, region: String, service: String) -> String {
        "\(date)/\(region)/\(service)/aws4_request"
    }

    public static func stringToSign(amzDate: String, scope: String, canonicalRequest: String) -> String {
        [algorithm, amzDate, scope, hex(SHA256.hash(data: Data(canonicalRequest.utf8)))].joined(separator: "\n")
    }

    public static func signingKey(secret: String, date: String, region: String, service: String) -> SymmetricKey {
        func hmac(_ key: SymmetricKey, _ text: String) -> SymmetricKey {
            SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key)))
        }
        let kDate = hmac(SymmetricKey(data: Data("AWS4\(secret)".utf8)), date)
        return hmac(hmac(hmac(kDate, region), service), "aws4_request")
    }

    /// The lowercase hex HMAC of `stringToSign` under `key`: the `Signature=` of the header.
    public static func signature(stringToSign: String, key: SymmetricKey) -> String {
        hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
    }

    public static func payloadHash(_ body: Data) -> String {
        hex(SHA256.hash(data: body))
    }

    /// Trims and collapses runs of spaces, as the canonical headers require.
    public static func normalizedValue(_ value: String) -> String {
        value.trimmingCharacters(in: .whitespaces).split(separator: " ", omittingEmptySubsequences: true)
            .joined(separator: " ")
    }

    /// URI-encodes each path segment (Cognito's path is `/`).
    public static func canonicalPath(_ path: String) -> String {
        guard !path.isEmpty else { return "/" }
        return path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            String(segment).addingPercentEncoding(withAllowedCharacters: unreserved) ?? String(segment)
        }.joined(separator: "/")
    }

    /// The query's pairs, decoded, re-encoded with only unreserved characters left bare, sorted.
    public static func canonicalQuery(_ query: String) -> String {
        guard !query.isEmpty else { return "" }
        return query.split(separator: "&").map { pair -> (String, String) in
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0].removingPercentEncoding ?? parts[0]
            let value = parts.count > 1 ? (parts[1].removingPercentEncoding ?? parts[1]) : ""
            return (
                name.addingPercentEncoding(withAllowedCharacters: unreserved) ?? name,
                value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
            )
        }.sorted { $0 == $1 ? false : ($0.0, $0.1) < ($1.0, $1.1) }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    public static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `yyyyMMdd'T'HHmmss'Z'` (UTC), the `X-Amz-Date` format; nil when malformed.
    public static func parseAmzDate(_ text: String) -> Date? {
        let chars = Array(text)
        guard chars.count == 16, chars[8] == "T", chars[15] == "Z",
            let year = Int(String(chars[0..<4])), let month = Int(String(chars[4..<6])), let day = Int(String(chars[6..<8])),
            let hour = Int(String(chars[9..<11])), let minute = Int(String(chars[11..<13])),
            let second = Int(String(chars[13..<15]))
        else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (hour, minute, second)
        return utcCalendar.date(from: components)
    }

    /// `date` as `X-Amz-Date` (`yyyyMMdd'T'HHmmss'Z'`, UTC, whole seconds).
    public static func amzDate(_ date: Date) -> String {
        let c = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return pad(c.year, 4) + pad(c.month, 2) + pad(c.day, 2) + "T" + pad(c.hour, 2) + pad(c.minute, 2) + pad(c.second, 2) + "Z"
    }

    static var utcCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    /// Lowercase hex, as SigV4 writes hashes and signatures (the project's one hex encoder).
    public static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        SRPEncoding.hexString(bytes)
    }
}
