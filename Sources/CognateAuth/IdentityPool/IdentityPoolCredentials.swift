import CognateIdentityProtocol
import CognateProtocol
import Foundation

/// Identity ids and AWS credentials of one identity pool for one ``AuthClient``, as Amplify's
/// credentials provider gets them: `GetId` (without Logins for a guest, with the user pool's ID
/// token for a signed-in user), then `GetCredentialsForIdentity` with the same Logins.
///
/// - The identity id is kept in the profile (``StoredIdentity``): a guest keeps its identity
///   across launches, and a guest who signs in sends that identity with the Logins, so the
///   server turns it into the user's (same id).
/// - Credentials are kept in memory until ``AuthConfiguration/credentialsRefreshMargin``
///   before they expire, for the principal they were fetched for (a guest, or one user):
///   another principal never sees them. ``forget()`` drops them (sign-out).
/// - Concurrent callers for the same principal share one fetch.
actor IdentityPoolCredentials {
    /// The signed-in user as the identity pool sees them.
    struct Login: Sendable {
        var userId: String
        var idToken: String
    }

    /// How the identity is read from and written to the profile (the client's record).
    struct Storage: Sendable {
        var load: @Sendable () async throws -> StoredIdentity?
        var save: @Sendable (StoredIdentity) async throws -> Void
    }

    typealias Fetched = (identityId: String, credentials: AWSCredentials)

    let identityPoolId: String
    /// The Logins key of the user pool: `cognito-idp.<region>.amazonaws.com/<pool id>`.
    let providerName: String
    let margin: TimeInterval
    private let channel: CognitoChannel

    private var cached: (principal: String?, fetched: Fetched)?
    private var inFlight: (principal: String?, number: Int, task: Task<Fetched, any Error>)?
    private var fetchCount = 0
    /// Bumped by ``forget()``: a fetch started before does not fill the cache.
    private var generation = 0

    init?(configuration: AuthConfiguration) {
        guard let poolId = configuration.identityPoolId else { return nil }
        identityPoolId = poolId
        providerName = configuration.identityProviderName
        margin = configuration.credentialsRefreshMargin
        channel = CognitoChannel(endpoint: configuration.identityEndpoint, transport: configuration.transport)
    }

    /// The identity and credentials for `login` (nil: a guest), cached or fetched.
    func credentials(for login: Login?, storage: Storage) async throws -> Fetched {
        let principal = login?.userId
        if let cached, cached.principal == principal, !cached.fetched.credentials.expires(within: margin) {
            return cached.fetched
        }
        if let inFlight, inFlight.principal == principal { return try await inFlight.task.value }
        fetchCount += 1
        let number = fetchCount, started = generation
        let task = Task { try await self.fetchAndCache(login, storage: storage, number: number, generation: started) }
        inFlight = (principal, number, task)
        return try await task.value
    }

    /// Drops cached credentials and any fetch in flight (its result is not cached).
    func forget() {
        generation += 1
        cached = nil
        inFlight = nil
    }

    private func fetchAndCache(_ login: Login?, storage: Storage, number: Int, generation started: Int) async throws
        -> Fetched
    {
        defer { if inFlight?.number == number { inFlight = nil } }
        let fetched = try await fetch(login, storage: storage)
        if generation == started { cached = (login?.userId, fetched) }
        return fetched
    }

    private func fetch(_ login: Login?, storage: Storage) async throws -> Fetched {
        let logins = login.map { [providerName: $0.idToken] }
        var kept = try await storage.load()
        var reusable = kept.flatMap { serves($0, login) ? $0 : nil }
        while true {
            let identityId: String
            if let reusable {
                identityId = reusable.identityId
            } else {
                let response = try await channel.send(
                    CognitoIdentityAPI.GetId.self, GetIdInput(identityPoolId: identityPoolId, logins: logins))
                guard let id = response.identityId else { throw AuthError.invalidResponse("GetId answered without an IdentityId.") }
                identityId = id
                // Kept at once: a guest stays the same guest even when its credentials fail.
                let identity = StoredIdentity(identityPoolId: identityPoolId, identityId: id, userId: login?.userId)
                try await storage.save(identity)
                kept = identity
            }
            let response: GetCredentialsForIdentityResponse
            do {
                response = try await channel.send(
                    CognitoIdentityAPI.GetCredentialsForIdentity.self,
                    GetCredentialsForIdentityInput(identityId: identityId, logins: logins))
            } catch AuthError.resourceNotFound where reusable != nil {
                // The kept identity is gone on the server (deleted, merged away): get a new one.
                reusable = nil
                continue
            }
            guard let given = response.credentials, let accessKeyId = given.accessKeyId, let secretKey = given.secretKey,
                let sessionToken = given.sessionToken, let expiration = given.expiration
            else { throw AuthError.invalidResponse("GetCredentialsForIdentity answered without complete Credentials.") }
            // The server may answer another identity (the login's own, into which a guest merged).
            let identity = StoredIdentity(
                identityPoolId: identityPoolId, identityId: response.identityId ?? identityId, userId: login?.userId)
            if identity != kept { try await storage.save(identity) }
            return (identity.identityId, AWSCredentials(
                accessKeyId: accessKeyId, secretAccessKey: secretKey, sessionToken: sessionToken, expiration: expiration))
        }
    }

    /// Whether a kept identity serves `login`: one of this pool, and a guest's (a guest's
    /// identity becomes the user's at the user's first login) or that user's own.
    private func serves(_ stored: StoredIdentity, _ login: Login?) -> Bool {
        stored.identityPoolId == identityPoolId && (stored.userId == nil || stored.userId == login?.userId)
    }
}
