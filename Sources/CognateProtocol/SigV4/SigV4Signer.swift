import Foundation

/// Signs requests with AWS Signature Version 4, as the AWS SDKs do, so a server that verifies
/// signatures (Cognate in production mode, or AWS) accepts them.
///
/// Contract: ``sign(method:url:headers:body:date:)`` returns the headers to send in addition to
/// `headers`: `X-Amz-Date` and `Authorization`. The signature covers `host` (from the URL,
/// without a default port, as HTTP clients send it), `x-amz-date` and every header in `headers`.
public struct SigV4Signer: Sendable {
    public var accessKeyId: String
    public var secretAccessKey: String
    public var region: String
    public var service: String

    public init(accessKeyId: String, secretAccessKey: String, region: String, service: String = "cognito-idp") {
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
        self.region = region
        self.service = service
    }

    public func sign(method: String, url: URL, headers: [String: String], body: Data, date: Date = Date()) -> [String: String] {
        let amzDate = SigV4.amzDate(date)
        let day = String(amzDate.prefix(8))
        var signed = [SigV4.Header(name: "host", values: [Self.host(of: url)]),
                      SigV4.Header(name: "x-amz-date", values: [amzDate])]
        for (name, value) in headers where !["host", "x-amz-date", "authorization"].contains(name.lowercased()) {
            signed.append(SigV4.Header(name: name, values: [value]))
        }
        signed.sort { $0.name < $1.name }
        let canonical = SigV4.canonicalRequest(
            method: method, path: url.path, query: url.query ?? "", headers: signed, payloadHash: SigV4.payloadHash(body))
        let scope = SigV4.scope(date: day, region: region, service: service)
        let key = SigV4.signingKey(secret: secretAccessKey, date: day, region: region, service: service)
        let signature = SigV4.signature(
            stringToSign: SigV4.stringToSign(amzDate: amzDate, scope: scope, canonicalRequest: canonical), key: key)
        let authorization = "\(SigV4.algorithm) Credential=\(accessKeyId)/\(scope), "
            + "SignedHeaders=\(signed.map(\.name).joined(separator: ";")), Signature=\(signature)"
        return ["X-Amz-Date": amzDate, "Authorization": authorization]
    }

    /// The `Host` header an HTTP client sends for `url`: the host, and the port unless it is the
    /// scheme's default.
    public static func host(of url: URL) -> String {
        let name = url.host ?? ""
        let host = name.contains(":") && !name.hasPrefix("[") ? "[\(name)]" : name   // IPv6 literal
        guard let port = url.port else { return host }
        let defaultPort = url.scheme?.lowercased() == "https" ? 443 : 80
        return port == defaultPort ? host : "\(host):\(port)"
    }
}
