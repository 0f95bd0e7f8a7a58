import CognateIdentityProtocol
import CognateProtocol
import Foundation

/// Logins whose tokens are opaque access tokens, checked by asking the provider:
/// Facebook (`graph.facebook.com`: `/app` names the app the token was issued to, which must be
/// the pool's app id; `/me` the user) and Login with Amazon (`www.amazon.com`:
/// `/auth/o2/tokeninfo` names the client (`aud`) and the user). The base URLs are the
/// providers' own unless configured (`IdentityPoolSettings.providerURLs`).
struct TokenInspection: Sendable {
    let upstream: any UpstreamHTTP
    let providerURLs: [String: String]
    let log: @Sendable (String) -> Void

    func facebook(_ token: String, appId: String) async throws -> VerifiedLogin {
        let base = providerURLs["graph.facebook.com"] ?? "https://graph.facebook.com"
        let app = try await get(base + "/app", token: token, provider: "graph.facebook.com")
        guard app["id"]?.claimString.map(LoginVerifier.audiences(appId).contains) == true else {
            throw CognitoIdentityError.invalidLoginToken("Incorrect token audience.")
        }
        let me = try await get(base + "/me", token: token, provider: "graph.facebook.com")
        guard let user = me["id"]?.claimString, !user.isEmpty else {
            throw CognitoIdentityError.invalidLoginToken("The provider did not name the user.")
        }
        return VerifiedLogin(
            provider: "graph.facebook.com", subject: user, amr: "graph.facebook.com:\(appId):\(user)",
            claims: me, clientId: nil)
    }

    func amazon(_ token: String, appIds: Set<String>) async throws -> VerifiedLogin {
        let base = providerURLs["www.amazon.com"] ?? "https://api.amazon.com"
        let info = try await get(base + "/auth/o2/tokeninfo", token: token, provider: "www.amazon.com")
        guard let audience = info["aud"]?.stringValue, appIds.contains(audience) else {
            throw CognitoIdentityError.invalidLoginToken("Incorrect token audience.")
        }
        guard let user = info["user_id"]?.stringValue, !user.isEmpty else {
            throw CognitoIdentityError.invalidLoginToken("The provider did not name the user.")
        }
        return VerifiedLogin(
            provider: "www.amazon.com", subject: user, amr: "www.amazon.com:\(audience):\(user)", claims: info, clientId: nil)
    }

    /// A GET with the token as `access_token`; a 4xx answer is the token's fault
    /// (NotAuthorizedException), anything else but 200 the provider's (ExternalServiceException).
    private func get(_ url: String, token: String, provider: String) async throws -> [String: JSONValue] {
        var components = URLComponents(string: url)
        components?.queryItems = [URLQueryItem(name: "access_token", value: token)]
        guard let target = components?.url else { throw CognitoIdentityError.externalService("\(provider) is misconfigured.") }
        let answer: UpstreamAnswer
        do {
            answer = try await upstream.send(method: "GET", url: target, headers: ["Accept": "application/json"], body: nil)
        } catch {
            log("identity pools: \(provider) did not answer")
            throw CognitoIdentityError.externalService("\(provider) did not answer.")
        }
        if (400..<500).contains(answer.status) { throw CognitoIdentityError.invalidLoginToken("The provider refused the token.") }
        guard answer.status == 200, case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: answer.body) else {
            log("identity pools: \(provider) answered \(answer.status)")
            throw CognitoIdentityError.externalService("\(provider) answered \(answer.status).")
        }
        return fields
    }
}
