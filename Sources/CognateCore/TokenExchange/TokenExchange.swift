import CognateProtocol
import Foundation

/// GetDerivedToken: OAuth 2.0 Token Exchange (RFC 8693) as Cognito serves it. An app client
/// presents a user's token (the subject) and gets a new one for a downstream service — its
/// audience (`Audiences`, or the pool's resource servers named by `Resources`) and the scopes
/// the subject, the request and the client all have. With an actor token (an intermediary
/// service's own token, or a user's), the new token says who acts for the user (`act`).
///
/// Contract: the requesting client must allow `ALLOW_TOKEN_EXCHANGE_IMPERSONATION` (no actor)
/// or `ALLOW_TOKEN_EXCHANGE_DELEGATION` (an actor) and give its secret when it has one; the
/// subject must be a token of the client's pool of a sign-in that stands. The new token
/// belongs to the subject's sign-in (its `origin_jti`): signing that sign-in out, or revoking
/// it, ends it too. Tokens of other providers and SAML assertions are refused.
public struct TokenExchange: Sendable {
    let store: any Store
    let time: any TimeSource
    let directory: PoolDirectory
    let exchangedTokens: ExchangedTokens
    let tokens: TokenIssuer
}

extension TokenExchange {
    /// The scope every sign-in through the API carries, which any client may pass on.
    static let userAdminScope = "aws.cognito.signin.user.admin"

    public func getDerivedToken(_ request: GetDerivedTokenRequest) async throws -> GetDerivedTokenResponse {
        let (pool, client) = try await directory.requireClient(request.clientId)
        if client.secret != nil {
            guard let given = request.clientSecret, client.accepts(secret: given) else {
                throw CognitoError.notAuthorized("Client \(client.clientId) secret is incorrect.")
            }
        }
        let delegated = request.actorToken != nil
        let flow: ExplicitAuthFlowsType = delegated ? .allowTokenExchangeDelegation : .allowTokenExchangeImpersonation
        guard ClientSettings.allowedFlows(client.settings).contains(flow) else {
            throw CognitoError.notAuthorized("Token exchange is not enabled for this client (\(flow.rawValue)).")
        }
        if request.audiences?.isEmpty == false, request.resources?.isEmpty == false {
            throw CognitoError.invalidParameter("You can't request both Audiences and Resources.")
        }
        if delegated, request.actorTokenType == nil {
            throw CognitoError.invalidParameter("ActorTokenType is required with an ActorToken.")
        }
        let subject = try await exchangedTokens.verify(
            request.subjectToken, type: request.subjectTokenType, providerName: request.subjectTokenProviderName,
            role: "subject", pool: pool, allowingClientTokens: false)
        guard let caller = subject.user else { throw ExchangedTokens.invalid("subject") }
        var actor: [String: JSONValue]?
        if let actorToken = request.actorToken, let actorType = request.actorTokenType {
            let verified = try await exchangedTokens.verify(
                actorToken, type: actorType, providerName: request.actorTokenProviderName, role: "actor", pool: pool,
                allowingClientTokens: true)
            actor = ["sub": .string(verified.subject), "client_id": .string(verified.clientId)]
        }
        let audience = try await self.audience(request, pool: pool)
        let scopes = try Self.grantedScopes(requested: request.scopes, subject: subject, client: client)
        let groups = try await store.read { try await $0.groups(ofUser: caller.user.sub, poolId: pool.id) }
        let minted = try await tokens.issue(
            TokenContext(pool: pool, client: client, user: caller.user, originJti: caller.originJti, authTime: caller.authTime,
                         groups: groups, scopes: scopes, audience: audience, actor: actor),
            now: time.now)
        let issuedType = request.requestedTokenType ?? .accessToken
        return GetDerivedTokenResponse(
            issuedToken: issuedType == .idToken ? minted.idToken : minted.accessToken, issuedTokenType: issuedType,
            tokenType: .bearer, expiresIn: minted.expiresIn, scopes: scopes)
    }

    /// The new token's audience: `Audiences` as given, or `Resources`, each the identifier of a
    /// resource server of the pool; nil when neither is given.
    private func audience(_ request: GetDerivedTokenRequest, pool: PoolRecord) async throws -> [String]? {
        if let audiences = request.audiences, !audiences.isEmpty { return audiences }
        guard let resources = request.resources, !resources.isEmpty else { return nil }
        for identifier in resources {
            guard try await store.read({ try await $0.resourceServer(poolId: pool.id, identifier: identifier) }) != nil else {
                throw CognitoError(.resourceNotFound, "Resource server \(identifier) does not exist in the user pool.")
            }
        }
        return resources
    }

    /// The requested scopes (or the subject's) that the subject has and the client may grant;
    /// an ID token's subject has the client's. Refused when none is left.
    static func grantedScopes(requested: [String]?, subject: ExchangedToken, client: ClientRecord) throws -> [String] {
        let clientScopes = Set(client.settings.allowedOAuthScopes ?? []).union([userAdminScope])
        let subjectScopes = subject.scopes.map(Set.init) ?? clientScopes
        let asked = requested.flatMap { $0.isEmpty ? nil : $0 } ?? subject.scopes ?? Array(clientScopes).sorted()
        var granted: [String] = []
        for scope in asked where subjectScopes.contains(scope) && clientScopes.contains(scope) && !granted.contains(scope) {
            granted.append(scope)
        }
        guard !granted.isEmpty else {
            throw CognitoError.invalidParameter("None of the requested scopes is both the subject token's and the client's.")
        }
        return granted
    }
}
