import CognateAuth
import CognateCore
import CognateIdentityProtocol
import CognateProtocol
import Foundation
import Testing

/// AWS credentials from an identity pool (``AuthClient/authSession()``), against a live server
/// whose STS is a real moto_server.
struct IdentityPoolTests {
    static let guestRole = "arn:aws:iam::123456789012:role/guest"
    static let userRole = "arn:aws:iam::123456789012:role/user"

    @Test(.enabled(if: MotoServer.executable != nil, Comment(rawValue: MotoServer.missing)))
    func guestIdentityAndCredentials() async throws {
        try await withIdentityPool { live, moto, setup in
            let counting = CountingTransport()
            let store = InMemoryTokenStore()
            let client = setup.client(store: store, transport: counting)

            let session = try await client.authSession()
            #expect(!session.isSignedIn)
            #expect(session.identityId.hasPrefix("us-east-1:"))
            Self.expectUsable(session.credentials)
            #expect(try await moto.callerARN(session.credentials).contains(":assumed-role/guest/"))
            #expect(counting.count("GetId") == 1)
            #expect(counting.sentBodies("GetId").first?["Logins"] == nil)

            // Cached: no second request; awsCredentials() answers the same.
            #expect(try await client.awsCredentials() == session.credentials)
            #expect(counting.count("GetCredentialsForIdentity") == 1)

            // The identity id is kept in the profile: a client after a relaunch is the same guest.
            #expect(try await store.load(profile: "default")?.identity?.identityId == session.identityId)
            let relaunched = setup.client(store: store, transport: counting)
            let again = try await relaunched.authSession()
            #expect(again.identityId == session.identityId)
            #expect(counting.count("GetId") == 1)
            #expect(counting.count("GetCredentialsForIdentity") == 2)
        }
    }

    @Test(.enabled(if: MotoServer.executable != nil, Comment(rawValue: MotoServer.missing)))
    func signInTurnsTheGuestIdentityIntoTheUsers() async throws {
        try await withIdentityPool { live, moto, setup in
            let counting = CountingTransport()
            let client = setup.client(transport: counting)
            let guest = try await client.authSession()

            try await live.confirmedUser(client, username: "ida", email: uniqueEmail())
            #expect(try await client.signIn(username: "ida", password: "Passw0rd1").isSignedIn)
            let signedIn = try await client.authSession()
            #expect(signedIn.isSignedIn)
            #expect(signedIn.identityId == guest.identityId)
            #expect(signedIn.credentials != guest.credentials)
            Self.expectUsable(signedIn.credentials)
            #expect(try await moto.callerARN(signedIn.credentials).contains(":assumed-role/user/"))
            let tokens = try await client.currentSession()
            #expect(signedIn.tokens == tokens)

            // The guest identity was sent with the Logins, and no new identity was asked for.
            #expect(counting.count("GetId") == 1)
            let sent = try #require(counting.sentBodies("GetCredentialsForIdentity").last)
            #expect(sent["IdentityId"] as? String == guest.identityId)
            #expect(sent["Logins"] as? [String: String] == [setup.configuration().identityProviderName: tokens.idToken])
            let described = try await live.service.identities.describeIdentity(
                DescribeIdentityInput(identityId: guest.identityId))
            #expect(described.logins == [setup.configuration().identityProviderName])
        }
    }

    @Test(.enabled(if: MotoServer.executable != nil, Comment(rawValue: MotoServer.missing)))
    func credentialsCachedThenFetchedAgainAfterSignOut() async throws {
        try await withIdentityPool { live, moto, setup in
            let counting = CountingTransport()
            let client = setup.client(transport: counting)
            try await live.confirmedUser(client, username: "cache", email: uniqueEmail())
            #expect(try await client.signIn(username: "cache", password: "Passw0rd1").isSignedIn)

            // Concurrent callers share one fetch; later ones use the cache.
            let sessions = try await withThrowingTaskGroup(of: AuthSession.self) { group in
                for _ in 0..<8 { group.addTask { try await client.authSession() } }
                return try await group.reduce(into: [AuthSession]()) { $0.append($1) }
            }
            #expect(Set(sessions.map(\.identityId)).count == 1)
            #expect(Set(sessions.map(\.credentials.accessKeyId)).count == 1)
            #expect(counting.count("GetId") == 1)
            #expect(counting.count("GetCredentialsForIdentity") == 1)
            let user = sessions[0]
            #expect(try await client.awsCredentials() == user.credentials)
            #expect(counting.count("GetCredentialsForIdentity") == 1)

            // Signed out: the user's identity and credentials are forgotten; a new guest.
            try await client.signOut().expectComplete()
            #expect(try await live.service.identities.describeIdentity(
                DescribeIdentityInput(identityId: user.identityId)).logins?.isEmpty == false)
            let guest = try await client.authSession()
            #expect(!guest.isSignedIn)
            #expect(guest.identityId != user.identityId)
            #expect(guest.credentials != user.credentials)
            #expect(counting.count("GetId") == 2)
            #expect(counting.count("GetCredentialsForIdentity") == 2)
            #expect(counting.sentBodies("GetCredentialsForIdentity").last?["Logins"] == nil)
            #expect(try await moto.callerARN(guest.credentials).contains(":assumed-role/guest/"))

            // Signing in again finds the user's identity (the new guest is merged into it).
            #expect(try await client.signIn(username: "cache", password: "Passw0rd1").isSignedIn)
            #expect(try await client.authSession().identityId == user.identityId)
        }
    }

    @Test func poolWithoutGuestAccessRefusesGuests() async throws {
        try await LiveServer.with { live in
            let setup = try await Setup.make(live, guests: false)
            let client = setup.client()
            let error = await expectAuthError({ _ = try await client.authSession() }) {
                $0 == .notAuthorized("Unauthenticated access is not supported for this identity pool.")
            }
            #expect(error?.identityCode == .notAuthorized)
            // Nothing was kept for the refused guest.
            #expect(try await setup.store.load(profile: "default") == nil)
        }
    }

    @Test func withoutSTSTheServersMessage() async throws {
        try await LiveServer.with { live in
            let setup = try await Setup.make(live)
            let client = setup.client()
            let error = await expectAuthError({ _ = try await client.awsCredentials() }) {
                if case .externalService(let message) = $0 { message.contains("--sts-endpoint") } else { false }
            }
            #expect(error?.identityCode == .externalService)
            #expect(error?.cognitoCode == nil)
            // The guest identity itself was made, and is kept for the next try.
            #expect(try await setup.store.load(profile: "default")?.identity != nil)
        }
    }

    @Test func withoutIdentityPoolAnInvalidState() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            await expectAuthError({ _ = try await client.authSession() }) {
                if case .invalidState = $0 { true } else { false }
            }
        }
    }

    // MARK: - Helpers

    static func expectUsable(_ credentials: AWSCredentials, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!credentials.accessKeyId.isEmpty, sourceLocation: sourceLocation)
        #expect(!credentials.secretAccessKey.isEmpty, sourceLocation: sourceLocation)
        #expect(!credentials.sessionToken.isEmpty, sourceLocation: sourceLocation)
        #expect(credentials.expiration > Date().addingTimeInterval(600), sourceLocation: sourceLocation)
    }

    /// A user pool, its app client and an identity pool trusting it (guest and user roles).
    struct Setup {
        let live: LiveServer
        let userPool: String
        let app: LiveServer.AppClient
        let identityPoolId: String
        let store: InMemoryTokenStore

        static func make(_ live: LiveServer, guests: Bool = true) async throws -> Setup {
            let userPool = try await live.makePool()
            let app = try await live.makeClient(pool: userPool)
            let providerName = live.configuration(pool: userPool, client: app).identityProviderName
            let pool = try await live.service.identityPools.createIdentityPool(CreateIdentityPoolInput(
                identityPoolName: "ids-\(UUID().uuidString.prefix(8))", allowUnauthenticatedIdentities: guests,
                cognitoIdentityProviders: [CognitoIdentityProvider(providerName: providerName, clientId: app.id)]))
            _ = try await live.service.identityPools.setIdentityPoolRoles(SetIdentityPoolRolesInput(
                identityPoolId: pool.identityPoolId,
                roles: ["unauthenticated": IdentityPoolTests.guestRole, "authenticated": IdentityPoolTests.userRole]))
            return Setup(live: live, userPool: userPool, app: app, identityPoolId: pool.identityPoolId,
                         store: InMemoryTokenStore())
        }

        func configuration(store: (any TokenStore)? = nil, transport: any HTTPTransport = URLSessionTransport())
            -> AuthConfiguration
        {
            live.configuration(
                pool: userPool, client: app, store: store ?? self.store, transport: transport, identityPoolId: identityPoolId)
        }

        func client(store: (any TokenStore)? = nil, transport: any HTTPTransport = URLSessionTransport()) -> AuthClient {
            AuthClient(configuration: configuration(store: store, transport: transport))
        }
    }

    /// A moto_server, a live server using it as its STS, and a Setup on that server.
    private func withIdentityPool(_ body: (LiveServer, MotoServer, Setup) async throws -> Void) async throws {
        try await MotoServer.with { moto in
            try await LiveServer.with(stsEndpoint: moto.endpoint) { live in
                try await body(live, moto, try await Setup.make(live))
            }
        }
    }
}
