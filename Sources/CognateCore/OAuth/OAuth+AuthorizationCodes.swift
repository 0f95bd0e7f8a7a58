import CognateProtocol
import Crypto
import Foundation

/// What an authorization code stands for until the token endpoint exchanges it.
///
/// The refresh token of the sign-in is kept sealed (AES-GCM) under a key derived from the code
/// itself, which is stored only as a hash: the database alone does not yield the tokens.
struct AuthorizationCodeState: Codable, Sendable {
    /// The metadata document URL the client was named by (nil: by its app client's ID); only
    /// the same name redeems the code.
    var metadataURL: String?
    var redirectURI: String
    var scopes: [String]
    var codeChallenge: String?
    var nonce: String?
    var originJti: String
    var sealedRefreshToken: String
}

extension OAuth {
    /// How long an authorization code may wait for its exchange (as in Cognito).
    static let authorizationCodeLifetime: TimeInterval = 300

    /// The end of a hosted sign-in: the address the browser goes back to — the redirect URI
    /// with a new authorization code (`code`), or with the tokens in the fragment (`token`).
    func finishHostedSignIn(_ request: AuthorizationRequest, tokens: IssuedTokens, pool: PoolRecord, client: ClientRecord)
        async throws -> String
    {
        guard let originJti = tokens.originJti, let refreshToken = tokens.refreshToken else {
            throw CognitoError.internalError("The sign-in issued no token family.")
        }
        var query: [(String, String)] = []
        if request.responseType == "token" {
            let issued = try await grantScopes(
                request.scopes, toFamilyOf: refreshToken, nonce: request.nonce, pool: pool, client: client)
            query = [("access_token", issued.accessToken), ("token_type", "Bearer"), ("expires_in", String(issued.expiresIn))]
            if request.scopes.contains("openid") { query.insert(("id_token", issued.idToken), at: 0) }
            if let state = request.state { query.append(("state", state)) }
            return request.redirectURI + "#" + Self.formEncoded(query)
        }
        let code = AuthSessions.newToken(random, encoding: .session)
        let state = AuthorizationCodeState(
            metadataURL: request.metadataURL, redirectURI: request.redirectURI, scopes: request.scopes, codeChallenge: request.codeChallenge,
            nonce: request.nonce, originJti: originJti, sealedRefreshToken: try Self.seal(refreshToken, with: code))
        _ = try await store.write { transaction in
            try await authSessions.openAuthSession(
                .authorizationCode, state: state, user: nil, pool: pool, client: client, encoding: .session, token: code,
                lifetime: Self.authorizationCodeLifetime, in: transaction)
        }
        query = [("code", code)]
        if let state = request.state { query.append(("state", state)) }
        return request.redirectURI + (request.redirectURI.contains("?") ? "&" : "?") + Self.formEncoded(query)
    }

    /// The authorization_code grant: the code (once, within five minutes, by the client it was
    /// issued to, with the same redirect URI and — when the request had a challenge — the PKCE
    /// verifier) for the sign-in's tokens with the granted scopes.
    func exchangeAuthorizationCode(_ code: String, redirectURI: String?, codeVerifier: String?, pool: PoolRecord,
                                   client: ClientRecord, metadataURL: String?, withRefreshToken: Bool = true) async throws
        -> TokenResponse
    {
        guard !code.isEmpty, code.count <= 256 else { throw OAuthError.invalidRequest("code is missing.") }
        let state: AuthorizationCodeState
        do {
            state = try await store.transaction { transaction in
                // Any exchange uses the code up, even one by another client: a code presented
                // by the wrong party is a code that leaked.
                if let record = try await transaction.authSession(tokenHash: AuthSessions.hash(code)),
                    record.poolId == pool.id, record.challenge == PendingStep.authorizationCode.storedName,
                    record.clientId != client.clientId
                {
                    _ = try await transaction.consumeAuthSession(tokenHash: record.tokenHash)
                    throw CommitAndFail(AuthSessions.invalid)
                }
                let pending = try await authSessions.readAuthSession(
                    code, challenge: .authorizationCode, as: AuthorizationCodeState.self, pool: pool, client: client,
                    in: transaction)
                try await authSessions.consumeAuthSession(pending.record, in: transaction)
                return pending.state
            }
        } catch is CognitoError {
            throw OAuthError.invalidGrant("The code is invalid, expired, already used or issued to another client.")
        }
        guard metadataURL == state.metadataURL else {
            throw OAuthError.invalidGrant("The code is invalid, expired, already used or issued to another client.")
        }
        guard redirectURI == state.redirectURI else {
            throw OAuthError.invalidGrant("redirect_uri does not match the authorization request.")
        }
        if let challenge = state.codeChallenge {
            guard let verifier = codeVerifier,
                ConstantTime.equals(Base64URL.encode(Array(SHA256.hash(data: Data(verifier.utf8)))), challenge)
            else { throw OAuthError.invalidGrant("The code_verifier does not match the code_challenge.") }
        } else if codeVerifier != nil {
            // RFC 9700 §4.8.2: a verifier for a code issued without a challenge is a downgrade
            // (an attacker who stripped the challenge from the request); refuse it.
            throw OAuthError.invalidGrant("The authorization request had no code_challenge; a code_verifier is not expected.")
        }
        guard let refreshToken = Self.unseal(state.sealedRefreshToken, with: code) else {
            throw OAuthError.invalidGrant("The code cannot be redeemed.")
        }
        let issued: IssuedTokens
        do {
            issued = try await grantScopes(state.scopes, toFamilyOf: refreshToken, nonce: state.nonce, pool: pool, client: client)
        } catch let error as CognitoError {
            throw OAuthError.invalidGrant(error.message)
        }
        return TokenResponse(
            accessToken: issued.accessToken, idToken: state.scopes.contains("openid") ? issued.idToken : nil,
            refreshToken: withRefreshToken ? refreshToken : nil, expiresIn: issued.expiresIn)
    }

    /// Gives the family of `refreshToken` its OAuth scopes and mints its ID and access tokens.
    private func grantScopes(_ scopes: [String], toFamilyOf refreshToken: String, nonce: String?, pool: PoolRecord,
                             client: ClientRecord) async throws -> IssuedTokens {
        var (family, user, groups) = try await tokenFamilies.refreshableFamily(refreshToken, pool: pool, client: client)
        let origin = family.originJti
        try await store.write { try await $0.setTokenFamilyScopes(originJti: origin, scopes: scopes) }
        family.scopes = scopes
        return try await tokenFamilies.renewTokens(
            of: family, user: user, groups: groups, source: "TokenGeneration_HostedAuth", clientMetadata: nil, nonce: nonce,
            pool: pool, client: client)
    }

    static func seal(_ secret: String, with code: String) throws -> String {
        let sealed = try AES.GCM.seal(Data(secret.utf8), using: codeKey(code))
        guard let combined = sealed.combined else { throw CognitoError.internalError("AES-GCM sealing failed.") }
        return combined.base64EncodedString()
    }

    static func unseal(_ sealed: String, with code: String) -> String? {
        guard let data = Data(base64Encoded: sealed), let box = try? AES.GCM.SealedBox(combined: data),
            let opened = try? AES.GCM.open(box, using: codeKey(code))
        else { return nil }
        return String(data: opened, encoding: .utf8)
    }

    private static func codeKey(_ code: String) -> SymmetricKey {
        SymmetricKey(data: SHA256.hash(data: Data("cognate authorization code|\(code)".utf8)))
    }

    /// `application/x-www-form-urlencoded` of `pairs`, in order.
    /// The pairs of an `application/x-www-form-urlencoded` text (`+` a space); the first of a
    /// repeated name wins.
    public static func formDecoded(_ text: String) -> [String: String] {
        var pairs: [String: String] = [:]
        for part in text.split(separator: "&") {
            let halves = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ value: Substring) -> String? {
                String(value).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
            guard let name = decode(halves[0]), !name.isEmpty, pairs[name] == nil else { continue }
            pairs[name] = halves.count > 1 ? decode(halves[1]) ?? "" : ""
        }
        return pairs
    }

    public static func formEncoded(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return pairs.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }
}
