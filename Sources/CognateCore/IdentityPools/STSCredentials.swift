import CognateIdentityProtocol
import CognateProtocol
import Foundation

/// AWS credentials for an OpenID token: AssumeRoleWithWebIdentity at the configured STS
/// endpoint (AWS's STS takes it unsigned; moto, MinIO and LocalStack answer it too), through
/// the server's outbound HTTP (``UpstreamHTTP``: a timeout, no redirects followed).
///
/// Contract: without an endpoint configured, ExternalServiceException naming the setting; an
/// STS that refuses the role or the token (4xx) is InvalidIdentityPoolConfigurationException
/// with STS's own message; an STS that does not answer, or answers 5xx or nonsense,
/// ExternalServiceException.
struct STSCredentials: Sendable {
    let upstream: any UpstreamHTTP
    let endpoint: URL?
    let log: @Sendable (String) -> Void

    static let notConfigured = CognitoIdentityError.externalService(
        "No STS endpoint is configured: start Cognate with --sts-endpoint URL (COGNATE_STS_ENDPOINT, or sts_endpoint "
            + "in the configuration file) to exchange OpenID tokens for AWS credentials, or use GetOpenIdToken and call "
            + "AssumeRoleWithWebIdentity yourself.")

    func assumeRole(_ roleArn: String, webIdentityToken: String) async throws -> Credentials {
        guard let endpoint else { throw Self.notConfigured }
        let form = [
            ("Action", "AssumeRoleWithWebIdentity"), ("Version", "2011-06-15"), ("RoleArn", roleArn),
            ("RoleSessionName", "CognitoIdentityCredentials"), ("WebIdentityToken", webIdentityToken),
        ].map { "\($0)=\(Self.formEscaped($1))" }.joined(separator: "&")
        let answer: UpstreamAnswer
        do {
            answer = try await upstream.send(
                method: "POST", url: endpoint, headers: ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"],
                body: Data(form.utf8))
        } catch {
            log("identity pools: STS at \(endpoint.absoluteString) did not answer: \(error)")
            throw CognitoIdentityError.externalService("The STS endpoint did not answer.")
        }
        let text = String(decoding: answer.body, as: UTF8.self)
        if (400..<500).contains(answer.status) {
            let message = Self.element("Message", in: text) ?? "STS refused AssumeRoleWithWebIdentity (\(answer.status))."
            throw CognitoIdentityError(.invalidIdentityPoolConfiguration,
                "Invalid identity pool configuration. Check assigned IAM roles for this pool. (STS: \(message))")
        }
        guard answer.status == 200, let accessKey = Self.element("AccessKeyId", in: text),
            let secret = Self.element("SecretAccessKey", in: text), let session = Self.element("SessionToken", in: text),
            let expirationText = Self.element("Expiration", in: text), let expiration = Self.date(expirationText)
        else {
            log("identity pools: STS at \(endpoint.absoluteString) answered \(answer.status) without credentials")
            throw CognitoIdentityError.externalService("The STS endpoint answered \(answer.status) without credentials.")
        }
        return Credentials(accessKeyId: accessKey, secretKey: secret, sessionToken: session, expiration: expiration)
    }

    /// The text of the first `<name>…</name>` of an XML answer, entities decoded.
    static func element(_ name: String, in xml: String) -> String? {
        guard let start = xml.range(of: "<\(name)>"), let end = xml.range(of: "</\(name)>", range: start.upperBound..<xml.endIndex)
        else { return nil }
        return String(xml[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    static func formEscaped(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
