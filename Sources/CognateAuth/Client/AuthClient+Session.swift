import CognateProtocol
import Foundation

extension AuthClient {
    /// Valid tokens for the signed-in user, refreshed first when the access token expires
    /// within ``AuthConfiguration/refreshMargin``.
    ///
    /// Concurrent callers share one refresh request. A refresh the server refuses
    /// (`NotAuthorizedException`: signed out elsewhere, revoked, expired, user disabled) clears
    /// the local tokens, announces ``AuthState/sessionExpired`` and throws
    /// ``AuthError/sessionExpired(_:)``; a network failure throws ``AuthError/network(_:)`` and
    /// keeps the tokens (try again later).
    /// - Throws: ``AuthError/notSignedIn`` when the profile has no tokens.
    public func currentSession() async throws -> AuthTokens {
        guard let tokens = try await loadRecord().tokens else { throw AuthError.notSignedIn }
        guard tokens.expires(within: configuration.refreshMargin) else { return tokens }
        return try await refresh(tokens)
    }

    /// Refreshes now, whatever the expiry (e.g. to see attribute changes in a new ID token).
    /// Same sharing and failure rules as ``currentSession()``.
    @discardableResult
    public func refreshSession() async throws -> AuthTokens {
        guard let tokens = try await loadRecord().tokens else { throw AuthError.notSignedIn }
        return try await refresh(tokens)
    }

    /// Joins the refresh in flight for this profile, or starts one.
    func refresh(_ tokens: AuthTokens) async throws -> AuthTokens {
        let name = profile
        if let running = refreshTasks[name] { return try await running.value }
        let task = Task { try await self.performRefresh(tokens, profile: name) }
        refreshTasks[name] = task
        defer { refreshTasks[name] = nil }
        return try await task.value
    }

    /// `REFRESH_TOKEN_AUTH`, with `SECRET_HASH` over the internal username (`cognito:username`):
    /// the sign-in name would not match in pools that sign in with email; with the device's
    /// `DEVICE_KEY` when the profile has one, as Cognito expects in pools that track devices.
    /// For a client with refresh token rotation, `GetTokensFromRefreshToken` instead (see
    /// ``renewTokens(_:deviceKey:)``): its new refresh token is stored with the new ID and
    /// access tokens in one write.
    private func performRefresh(_ tokens: AuthTokens, profile name: String) async throws -> AuthTokens {
        let result: AuthenticationResultType
        let deviceKey = (try? await loadRecord(of: name))?.deviceKey(forUser: tokens.user)
        do {
            result = try await renewTokens(tokens, deviceKey: deviceKey)
        } catch AuthError.notAuthorized(let message) {
            var ended = false
            try await updateRecord(of: name) { record in
                guard record.tokens?.refreshToken == tokens.refreshToken else { return }
                record.tokens = nil
                ended = true
            }
            // Not if another sign-in replaced these tokens meanwhile: that session lives on.
            if ended && name == profile { broadcaster.publish(.sessionExpired) }
            throw AuthError.sessionExpired(message)
        }
        let fresh = try AuthTokens(result, previousRefreshToken: tokens.refreshToken)
        let stored = try await updateRecord(of: name) { record in
            // A sign-out or another sign-in meanwhile wins over this refresh.
            if record.tokens?.refreshToken == tokens.refreshToken { record.tokens = fresh }
        }
        if name == profile { publishDerived(from: stored) }
        return fresh
    }

    /// New tokens for a refresh token. A client that rotates refresh tokens
    /// (``AuthConfiguration/refreshTokenRotation``, or found out earlier) uses
    /// `GetTokensFromRefreshToken`; others `REFRESH_TOKEN_AUTH`. Cognito refuses that flow for a
    /// rotating client (Cognate answers `InvalidParameterException` naming
    /// GetTokensFromRefreshToken, as Cognito does); on a refusal — `InvalidParameter` or
    /// `NotAuthorized`, whatever the message — the refresh is tried once with
    /// `GetTokensFromRefreshToken`, and when that succeeds this client uses it from then on.
    /// A dead refresh token costs one more refused request.
    private func renewTokens(_ tokens: AuthTokens, deviceKey: String?) async throws -> AuthenticationResultType {
        if configuration.refreshTokenRotation || refreshesByRotation {
            return try await tokensFromRefreshToken(tokens, deviceKey: deviceKey)
        }
        var parameters = ["REFRESH_TOKEN": tokens.refreshToken]
        if let deviceKey { parameters["DEVICE_KEY"] = deviceKey }
        let response: InitiateAuthResponse
        do {
            response = try await channel.send(CognitoAPI.InitiateAuth.self, InitiateAuthRequest(
                authFlow: .refreshTokenAuth,
                authParameters: withSecretHash(parameters, username: tokens.user.username),
                clientId: configuration.clientId))
        } catch let refusal as AuthError {
            switch refusal {
            case .invalidParameter, .notAuthorized: break
            default: throw refusal
            }
            let result: AuthenticationResultType
            do {
                result = try await tokensFromRefreshToken(tokens, deviceKey: deviceKey)
            } catch let error as AuthError {
                switch error {
                case .notAuthorized, .network: throw error   // a dead token; no answer at all
                default: throw refusal   // the server does not offer the other way either: its first answer stands
                }
            }
            refreshesByRotation = true
            return result
        }
        guard let result = response.authenticationResult else {
            throw AuthError.invalidResponse("The refresh answered without tokens.")
        }
        return result
    }

    /// `GetTokensFromRefreshToken`: the client secret itself (not a hash), the device's key.
    private func tokensFromRefreshToken(_ tokens: AuthTokens, deviceKey: String?) async throws -> AuthenticationResultType {
        let response = try await channel.send(CognitoAPI.GetTokensFromRefreshToken.self, GetTokensFromRefreshTokenRequest(
            refreshToken: tokens.refreshToken, clientId: configuration.clientId, clientSecret: configuration.clientSecret,
            deviceKey: deviceKey))
        guard let result = response.authenticationResult else {
            throw AuthError.invalidResponse("The refresh answered without tokens.")
        }
        return result
    }

    /// Reads the record of profile `name` (this client's or the one a refresh started in),
    /// applies `change` and writes it back; announces nothing.
    @discardableResult
    private func updateRecord(of name: String, _ change: (inout ProfileRecord) -> Void) async throws -> ProfileRecord {
        var record = try await loadRecord(of: name)
        change(&record)
        try await write(record, to: name)
        return record
    }

    /// Runs a token-authenticated call with a valid access token, so that a dead session
    /// always ends as ``AuthError/sessionExpired(_:)``.
    ///
    /// Cognito answers `NotAuthorizedException` both when it refuses the access token (revoked,
    /// expired by its clock, user disabled) and when it refuses the request (a wrong previous
    /// password). The SDK tells them apart by asking the server, not by reading the message:
    /// after a refusal it presents the same token to `GetUser`. Refused there too, the token is
    /// dead: the session is refreshed and the call retried once (a refused refresh ends as
    /// `sessionExpired`). Accepted there, the refusal was about the request and is thrown as is
    /// (so a wrong password is not sent twice).
    func withAccessToken<Result>(_ call: (String) async throws -> Result) async throws -> Result {
        let tokens = try await currentSession()
        do {
            return try await call(tokens.accessToken)
        } catch AuthError.notAuthorized(let message) {
            guard try await serverRefuses(accessToken: tokens.accessToken) else { throw AuthError.notAuthorized(message) }
            return try await call(try await refresh(tokens).accessToken)
        }
    }

    /// Whether the server refuses the access token itself (`GetUser` answers `NotAuthorized`).
    private func serverRefuses(accessToken: String) async throws -> Bool {
        do {
            _ = try await channel.send(CognitoAPI.GetUser.self, GetUserRequest(accessToken: accessToken))
            return false
        } catch AuthError.notAuthorized {
            return true
        }
    }
}
