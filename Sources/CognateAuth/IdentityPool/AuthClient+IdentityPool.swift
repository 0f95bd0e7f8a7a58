import Foundation

extension AuthClient {
    /// The identity-pool identity of this profile and AWS credentials for it, as Amplify's
    /// `fetchAuthSession`: a guest's (no user signed in; the pool must allow unauthenticated
    /// identities) or the signed-in user's (Logins with the user's ID token, tokens refreshed
    /// first when needed).
    ///
    /// The identity id is kept in the profile; credentials are kept in memory until
    /// ``AuthConfiguration/credentialsRefreshMargin`` before they expire, and concurrent callers
    /// share one fetch. A guest who signs in keeps the identity id: the server turns the guest
    /// identity into the user's. A sign-out forgets the identity and the credentials: the next
    /// guest session is a new guest identity.
    ///
    /// - Throws: ``AuthError/invalidState(_:)`` without ``AuthConfiguration/identityPoolId``;
    ///   ``AuthError/notAuthorized(_:)`` for a guest of a pool without guest access, or a login
    ///   the pool does not accept; ``AuthError/externalService(_:)`` when the server has no STS
    ///   (or it did not answer); ``AuthError/invalidIdentityPoolConfiguration(_:)`` when the pool
    ///   lacks the role; ``AuthError/sessionExpired(_:)`` when the user's session ended.
    public func authSession() async throws -> AuthSession {
        guard let identityPool else {
            throw AuthError.invalidState("No identity pool is configured (AuthConfiguration.identityPoolId).")
        }
        let tokens: AuthTokens?
        do {
            tokens = try await currentSession()
        } catch AuthError.notSignedIn {
            tokens = nil
        }
        let login = tokens.map { IdentityPoolCredentials.Login(userId: $0.user.userId, idToken: $0.idToken) }
        let fetched = try await identityPool.credentials(for: login, storage: identityStorage)
        return AuthSession(identityId: fetched.identityId, credentials: fetched.credentials, tokens: tokens)
    }

    /// Only the AWS credentials of ``authSession()`` (same caching and errors).
    public func awsCredentials() async throws -> AWSCredentials { try await authSession().credentials }

    /// The profile's identity, read and written through the client's record.
    private var identityStorage: IdentityPoolCredentials.Storage {
        IdentityPoolCredentials.Storage(
            load: { [self] in try await loadRecord().identity },
            save: { [self] identity in try await saveIdentity(identity) })
    }

    private func saveIdentity(_ identity: StoredIdentity) async throws {
        try await updateRecord(publish: false) { $0.identity = identity }
    }
}
