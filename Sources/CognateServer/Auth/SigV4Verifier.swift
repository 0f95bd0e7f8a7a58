import CognateCore
import CognateProtocol
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
        guard let header = headers[.authorization], header.hasPrefix(SigV4.algorithm) else {
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

        let signedHeaders = try authorization.signedHeaders.map { name -> SigV4.Header in
            guard let fieldName = HTTPField.Name(name) else { throw WireFault.signatureMismatch }
            var values = headers[values: fieldName]
            if name == "host", values.isEmpty, let authority { values = [authority] }
            guard !values.isEmpty else { throw WireFault.incompleteSignature("Signed header \(name) is missing.") }
            return SigV4.Header(name: name, values: values)
        }
        let canonicalRequest = SigV4.canonicalRequest(
            method: method, path: path, query: query, headers: signedHeaders, payloadHash: SigV4.payloadHash(body))
        let scope = SigV4.scope(date: authorization.date, region: authorization.region, service: authorization.service)
        let key = SigV4.signingKey(
            secret: secret, date: authorization.date, region: authorization.region, service: authorization.service)
        let expected = SigV4.signature(
            stringToSign: SigV4.stringToSign(amzDate: amzDate, scope: scope, canonicalRequest: canonicalRequest), key: key)
        guard ConstantTime.equals(expected, authorization.signature.lowercased()) else { throw WireFault.signatureMismatch }
    }

    /// `AWS4-HMAC-SHA256 Credential=AKID/20261121/us-east-1/cognito-idp/aws4_request, SignedHeaders=a;b, Signature=hex`
    static func parse(_ header: String) throws -> Authorization {
        var fields: [String: String] = [:]
        for part in header.dropFirst(SigV4.algorithm.count).split(separator: ",") {
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

    static func parseAmzDate(_ text: String) -> Date? { SigV4.parseAmzDate(text) }
}
