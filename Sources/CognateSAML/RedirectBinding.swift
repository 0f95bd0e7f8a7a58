import CXMLSecurity
import Foundation

/// Signs a request sent by the redirect binding: `algorithm` is the SigAlg URI, `sign` signs
/// the query's bytes.
public struct RequestSigner: Sendable {
    public static let rsaSHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"
    public var algorithm: String
    public var sign: @Sendable (Data) throws -> Data

    public init(algorithm: String, sign: @escaping @Sendable (Data) throws -> Data) {
        self.algorithm = algorithm
        self.sign = sign
    }
}

/// SAML's HTTP-Redirect binding: a message deflated, base64'd and sent in the query, with its
/// RelayState and, when signed, `SigAlg` and `Signature` over the query as sent.
public enum RedirectBinding {
    /// `destination` with the message as `parameter` (`SAMLRequest` or `SAMLResponse`).
    public static func url(destination: String, parameter: String, message: String, relayState: String?,
                           signer: RequestSigner?) throws -> String {
        guard let deflated = deflate(Data(message.utf8)) else { throw SAMLError("The request cannot be compressed.") }
        var query = parameter + "=" + encode(deflated.base64EncodedString())
        if let relayState { query += "&RelayState=" + encode(relayState) }
        if let signer {
            query += "&SigAlg=" + encode(signer.algorithm)
            query += "&Signature=" + encode(try signer.sign(Data(query.utf8)).base64EncodedString())
        }
        return destination + (destination.contains("?") ? "&" : "?") + query
    }

    /// The message of a redirect-binding parameter's value (base64 of deflated XML), at most
    /// `limit` bytes once inflated.
    public static func message(_ value: String, limit: Int = 200_000) -> Data? {
        guard let compressed = Data(base64Encoded: value.filter { !$0.isWhitespace }) else { return nil }
        return inflate(compressed, limit: limit)
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters (as form encoders do for
    /// these values, so a verifier re-encoding them gets the same bytes).
    static func encode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    static func deflate(_ data: Data) -> Data? {
        var length: Int32 = 0
        let out = data.withUnsafeBytes { cognate_deflate_raw($0.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32($0.count), &length) }
        guard let out else { return nil }
        defer { free(out) }
        return Data(bytes: out, count: Int(length))
    }

    static func inflate(_ data: Data, limit: Int) -> Data? {
        var length: Int32 = 0
        let out = data.withUnsafeBytes {
            cognate_inflate_raw($0.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32($0.count), Int32(limit), &length)
        }
        guard let out else { return nil }
        defer { free(out) }
        return Data(bytes: out, count: Int(length))
    }
}

/// Text made safe for XML content and attribute values.
func xmlEscaped(_ text: String) -> String {
    var out = ""
    for character in text {
        switch character {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        default: out.append(character)
        }
    }
    return out
}

/// An xs:dateTime in UTC, as SAML writes and reads instants.
enum SAMLInstant {
    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
