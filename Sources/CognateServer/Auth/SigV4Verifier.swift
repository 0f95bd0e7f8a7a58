import CognateCore
import Crypto
import Foundation
import HTTPTypes

/// Verifies AWS Signature Version 4 on admin operations (service `cognito-idp`), against the
/// access keys the server was configured with.
///
/// Contract: the `Authorization` header must name a known access key, be scoped to this
/// server's region and the `cognito-idp` service, and sign at least `host`, `x-amz-date`,
/// `x-amz-target` (the operation) and `content-type`; the date must be within `allowedSkew` of
/// the server clock; the signature is recomputed over the request exactly as received and
/// compared in constant time.
struct SigV4Verifier: Sendable {
    /// Secret access key by access key id.
    let credentials: [String: String]
    /// The region credentials must be scoped to (`--region`).
    let region: String
    /// The service credentials must be scoped to.
    var service = "cognito-idp"
    /// Headers every signature must cover: where the request goes, when, and what it does.
    var requiredSignedHeaders = ["host", "x-amz-date", "x-amz-target", "content-type"]
    var allowedSkew: TimeInterval = 15 * 60

    struct Authorization: Equatable {
        var accessKeyId: String
        var date: String      // yyyyMMdd
        var region: String
        var service: String
        var signedHeaders: [String]
        var signature: String
    }

    /// - Parameter authority: the request's host, which HTTP/1 servers parse out of the `Host`
    ///   header into the `:authority` pseudo-header (it is signed as `host`).
    func verify(method: String, path: String, query: String, authority: String?, headers: HTTPFields, body: Data,
                now: Date) throws {
        guard let header = headers[.authorization], header.hasPrefix("AWS4-HMAC-SHA256") else {
            throw WireFault.missingAuthentication
        }
        let authorization = try Self.parse(header)
        guard let secret = credentials[authorization.accessKeyId] else { throw WireFault.unknownAccessKey }
        guard let amzDate = headers[HTTPField.Name("x-amz-date")!], let requestTime = Self.parseAmzDate(amzDate)
        else { throw WireFault.incompleteSignature("Missing or malformed X-Amz-Date header.") }
        guard abs(requestTime.timeIntervalSince(now)) <= allowedSkew else { throw WireFault.signatureExpired }
        guard amzDate.hasPrefix(authorization.date) else {
            throw WireFault.incompleteSignature("Credential date does not match X-Amz-Date.")
        }
        guard authorization.service == service else {
            throw WireFault.invalidSignature("Credential should be scoped to correct service: '\(service)'.")
        }
        guard authorization.region == region else {
            throw WireFault.invalidSignature("Credential should be scoped to a valid region, not '\(authorization.region)'.")
        }
        if let unsigned = requiredSignedHeaders.first(where: { !authorization.signedHeaders.contains($0) }) {
            throw WireFault.incompleteSignature("The \(unsigned) header must be signed.")
        }

        let canonicalHeaders = try authorization.signedHeaders.map { name -> String in
            guard let fieldName = HTTPField.Name(name) else { throw WireFault.signatureMismatch }
            var values = headers[values: fieldName]
            if name == "host", values.isEmpty, let authority { values = [authority] }
            guard !values.isEmpty else { throw WireFault.incompleteSignature("Signed header \(name) is missing.") }
            return name + ":" + values.map(Self.normalizedValue).joined(separator: ",") + "\n"
        }.joined()
        let payloadHash = Self.hex(SHA256.hash(data: body))
        let canonicalRequest = [
            method, Self.canonicalPath(path), Self.canonicalQuery(query), canonicalHeaders,
            authorization.signedHeaders.joined(separator: ";"), payloadHash,
        ].joined(separator: "\n")
        let scope = "\(authorization.date)/\(authorization.region)/\(authorization.service)/aws4_request"
        let stringToSign = [
            "AWS4-HMAC-SHA256", amzDate, scope, Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8))),
        ].joined(separator: "\n")
        let key = Self.signingKey(
            secret: secret, date: authorization.date, region: authorization.region, service: authorization.service)
        let expected = Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
        guard ConstantTime.equals(expected, authorization.signature.lowercased()) else { throw WireFault.signatureMismatch }
    }

    /// `AWS4-HMAC-SHA256 Credential=AKID/20261121/us-east-1/cognito-idp/aws4_request, SignedHeaders=a;b, Signature=hex`
    static func parse(_ header: String) throws -> Authorization {
        var fields: [String: String] = [:]
        for part in header.dropFirst("AWS4-HMAC-SHA256".count).split(separator: ",") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
        }
        guard let credential = fields["Credential"], let signed = fields["SignedHeaders"], let signature = fields["Signature"]
        else { throw WireFault.incompleteSignature("Authorization header requires Credential, SignedHeaders and Signature.") }
        let scope = credential.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard scope.count == 5, scope[4] == "aws4_request" else {
            throw WireFault.incompleteSignature("Credential should be scoped to a valid region and service.")
        }
        return Authorization(
            accessKeyId: scope[0], date: scope[1], region: scope[2], service: scope[3],
            signedHeaders: signed.split(separator: ";").map { $0.lowercased() }, signature: signature)
    }

    static func signingKey(secret: String, date: String, region: String, service: String) -> SymmetricKey {
        func hmac(_ key: SymmetricKey, _ text: String) -> SymmetricKey {
            SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key)))
        }
        let kDate = hmac(SymmetricKey(data: Data("AWS4\(secret)".utf8)), date)
        return hmac(hmac(hmac(kDate, region), service), "aws4_request")
    }

    static func normalizedValue(_ value: String) -> String {
        value.trimmingCharacters(in: .whitespaces).split(separator: " ", omittingEmptySubsequences: true)
            .joined(separator: " ")
    }

    /// URI-encodes each path segment (Cognito's path is `/`).
    static func canonicalPath(_ path: String) -> String {
        guard !path.isEmpty else { return "/" }
        return path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            String(segment).addingPercentEncoding(withAllowedCharacters: unreserved) ?? String(segment)
        }.joined(separator: "/")
    }

    static func canonicalQuery(_ query: String) -> String {
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

    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func parseAmzDate(_ text: String) -> Date? {
        // yyyyMMdd'T'HHmmss'Z'
        let chars = Array(text)
        guard chars.count == 16, chars[8] == "T", chars[15] == "Z",
            let year = Int(String(chars[0..<4])), let month = Int(String(chars[4..<6])), let day = Int(String(chars[6..<8])),
            let hour = Int(String(chars[9..<11])), let minute = Int(String(chars[11..<13])),
            let second = Int(String(chars[13..<15]))
        else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (hour, minute, second)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: components)
    }

    static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
