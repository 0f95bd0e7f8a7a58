import CognateProtocol
import CognateWebAuthn
import Foundation

/// Passkeys a signed-in user registers, lists and deletes (StartWebAuthnRegistration,
/// CompleteWebAuthnRegistration, ListWebAuthnCredentials, DeleteWebAuthnCredential). Signing in
/// with them is ``SignIn``'s (USER_AUTH, WEB_AUTHN), through ``PasskeyAssertions``. The hosted
/// pages' `/passkeys/add` registers through the same two steps
/// (``creationOptions(for:)``, ``register(_:for:)``), for the user a recent sign-in in the
/// browser speaks for instead of an access token.
public struct Passkeys: Sendable {
    let store: any Store
    let time: any TimeSource
    let random: any RandomSource
    let configuration: CoreConfiguration
    let authenticator: AccessTokenAuthenticator
    let authSessions: AuthSessionBook
    let relyingParties: PasskeyRelyingParties
}

extension Passkeys {
    /// Passkeys a user may have, as in Cognito.
    static let maximumPerUser = 20
    /// How long a registration challenge waits for its answer.
    static let registrationLifetime: TimeInterval = 5 * 60
    /// The `timeout` the creation options suggest (milliseconds), as Cognito's.
    static let registrationTimeout = 60_000
    /// A pool tag (Cognate's own, off by default): `true` lets only a sign-in of at most
    /// ``recentSignInLimit`` ago register a passkey, so that a stolen access token (or a token
    /// from a refresh) cannot add one.
    static let recentSignInTag = "cognate:PasskeyRegistrationNeedsRecentSignIn"
    static let recentSignInLimit: TimeInterval = 5 * 60

    /// StartWebAuthnRegistration: creation options for a new passkey of the signed-in user —
    /// a new challenge (stored, one per user: a new start replaces the last), the pool's
    /// relying party, the user (its handle is its `sub`), ES256 and RS256 keys, a discoverable
    /// credential, the pool's user verification, and the user's passkeys to exclude.
    public func startWebAuthnRegistration(_ request: StartWebAuthnRegistrationRequest) async throws
        -> StartWebAuthnRegistrationResponse
    {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        return StartWebAuthnRegistrationResponse(credentialCreationOptions: try await creationOptions(for: caller))
    }

    /// A registration's first step for `caller` (StartWebAuthnRegistration's, and the hosted
    /// pages'): the creation options (`PublicKeyCredentialCreationOptionsJSON`).
    func creationOptions(for caller: AuthenticatedUser) async throws -> JSONValue {
        let relyingParty = try await registeringParty(for: caller)
        let challenge = random.bytes(32)
        let state = PasskeyRegistrationState(
            challenge: WebAuthnBase64URL.encode(challenge), relyingPartyId: relyingParty.id,
            userVerificationRequired: relyingParty.requiresUserVerification)
        let existing = try await store.write { transaction in
            let existing = try await transaction.passkeys(
                poolId: caller.pool.id, userSub: caller.user.sub, after: nil, limit: Self.maximumPerUser)
            guard existing.items.count < Self.maximumPerUser else {
                throw CognitoError(.limitExceeded, "The user has \(Self.maximumPerUser) passkeys, the most a user may have.")
            }
            let name = Self.registrationSessionName(of: caller.user)
            _ = try await transaction.consumeAuthSession(tokenHash: AuthSessions.hash(name))
            _ = try await authSessions.openAuthSession(
                .passkeyRegistration, state: state, user: caller.user, pool: caller.pool, client: caller.client,
                encoding: .session, token: name, lifetime: Self.registrationLifetime, in: transaction)
            return existing.items
        }
        let options = PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(id: relyingParty.id, name: relyingParty.name),
            user: PublicKeyCredentialUserEntity(
                handle: Array(caller.user.sub.utf8), name: caller.user.username, displayName: caller.user.username),
            challenge: challenge, timeout: Self.registrationTimeout,
            excludeCredentials: existing.map(\.descriptor), residentKey: .required,
            userVerification: relyingParty.requiresUserVerification ? .required : .preferred)
        var json = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(options))
        if case .object(var members) = json, case .object(var selection)? = members["authenticatorSelection"] {
            selection["requireResidentKey"] = .bool(true)
            members["authenticatorSelection"] = .object(selection)
            json = .object(members)
        }
        return json
    }

    /// CompleteWebAuthnRegistration: the authenticator's answer to the user's registration
    /// challenge, verified (client data, the origin against the RP ID, the RP ID hash, user
    /// presence, user verification when the pool requires it, the key, the attestation
    /// statement) and stored as the user's passkey. The challenge is used up whatever the
    /// outcome; it answers only for the app client that started it.
    public func completeWebAuthnRegistration(_ request: CompleteWebAuthnRegistrationRequest) async throws
        -> CompleteWebAuthnRegistrationResponse
    {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        try await register(request.credential, for: caller)
        return CompleteWebAuthnRegistrationResponse()
    }

    /// A registration's second step for `caller` (CompleteWebAuthnRegistration's, and the hosted
    /// pages'): `credential` (`RegistrationResponseJSON`) verified against the challenge of
    /// ``creationOptions(for:)`` and stored as the user's passkey.
    func register(_ credential: JSONValue, for caller: AuthenticatedUser) async throws {
        let relyingParty = try await registeringParty(for: caller)
        let response = try PasskeyRegistrationResponse(credential)
        let state = try await store.write { transaction in
            let name = Self.registrationSessionName(of: caller.user)
            guard let session = try await transaction.authSession(tokenHash: AuthSessions.hash(name)),
                session.challenge == PendingStep.passkeyRegistration.storedName, time.now < session.expiresAt
            else {
                throw CognitoError(
                    .webAuthnChallengeNotFound, "No passkey registration was started for this user, or it expired.")
            }
            guard session.clientId == caller.client.clientId else {
                throw CognitoError(.webAuthnClientMismatch, "The passkey registration was started by another app client.")
            }
            _ = try await transaction.consumeAuthSession(tokenHash: session.tokenHash)
            return try JSONDecoder().decode(PasskeyRegistrationState.self, from: Data(session.state.utf8))
        }
        guard state.relyingPartyId == relyingParty.id, let challenge = WebAuthnBase64URL.decode(state.challenge) else {
            throw CognitoError(.webAuthnRelyingPartyMismatch, "The pool's relying party changed during the registration.")
        }
        let registered: RegisteredCredential
        do {
            let verifier = RegistrationVerifier(
                relyingParty: try relyingParty.verifying(clientDataJSON: response.clientDataJSON),
                allowedAlgorithms: [.es256, .rs256])
            registered = try verifier.verify(
                attestationObject: response.attestationObject, clientDataJSON: response.clientDataJSON,
                transports: response.transports, expectedChallenge: challenge,
                requireUserVerification: state.userVerificationRequired)
        } catch { throw error.cognitoError }
        guard registered.id == response.credentialId else {
            throw CognitoError.invalidParameter("Credential.rawId is not the credential the authenticator created.")
        }
        let passkey = PasskeyRecord(
            credentialId: WebAuthnBase64URL.encode(registered.id), poolId: caller.pool.id, userSub: caller.user.sub,
            publicKey: registered.publicKey, signCount: registered.signCount, backupEligible: registered.isBackupEligible,
            relyingPartyId: relyingParty.id, friendlyName: nil,
            attachment: response.authenticatorAttachment.flatMap { ["platform", "cross-platform"].contains($0) ? $0 : nil },
            transports: Array(registered.transports.prefix(8).filter { $0.count <= 32 }), aaguid: registered.aaguidString,
            createdAt: time.now)
        do {
            try await store.write { transaction in
                guard try await transaction.passkeyCount(poolId: caller.pool.id, userSub: caller.user.sub) < Self.maximumPerUser
                else {
                    throw CognitoError(.limitExceeded, "The user has \(Self.maximumPerUser) passkeys, the most a user may have.")
                }
                try await transaction.insertPasskey(passkey)
            }
        } catch StoreError.conflict(.passkey) {
            throw CognitoError.invalidParameter("This passkey is registered already.")
        }
    }

    /// ListWebAuthnCredentials: the signed-in user's passkeys, at most 20 a page.
    public func listWebAuthnCredentials(_ request: ListWebAuthnCredentialsRequest) async throws
        -> ListWebAuthnCredentialsResponse
    {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        let after = try PageToken.decode(request.nextToken)
        let limit = min(max(request.maxResults ?? Self.maximumPerUser, 1), Self.maximumPerUser)
        let page = try await store.read {
            try await $0.passkeys(poolId: caller.pool.id, userSub: caller.user.sub, after: after, limit: limit)
        }
        return ListWebAuthnCredentialsResponse(credentials: page.items.map(\.wire), nextToken: PageToken.encode(page.next))
    }

    /// DeleteWebAuthnCredential: removes one of the signed-in user's passkeys.
    public func deleteWebAuthnCredential(_ request: DeleteWebAuthnCredentialRequest) async throws
        -> DeleteWebAuthnCredentialResponse
    {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        let deleted = try await store.write {
            try await $0.deletePasskey(poolId: caller.pool.id, userSub: caller.user.sub, credentialId: request.credentialId)
        }
        guard deleted else { throw CognitoError.resourceNotFound("The user has no passkey with this credential ID.") }
        return DeleteWebAuthnCredentialResponse()
    }

    /// The relying party a registration of `caller` is for, once the pool allows passkeys
    /// (WebAuthnNotEnabledException) and — with ``recentSignInTag`` — the caller signed in
    /// recently.
    private func registeringParty(for caller: AuthenticatedUser) async throws -> PasskeyRelyingParty {
        guard PasskeyRelyingParty.enabled(in: caller.pool) else {
            throw CognitoError(.webAuthnNotEnabled, "Passkeys are not enabled for this user pool: add WEB_AUTHN to its "
                + "Policies.SignInPolicy.AllowedFirstAuthFactors.")
        }
        if caller.pool.settings.userPoolTags?[Self.recentSignInTag]?.lowercased() == "true",
            time.now.timeIntervalSince(caller.authTime) > Self.recentSignInLimit
        {
            throw CognitoError.notAuthorized(
                "Registering a passkey needs a recent sign-in: sign in again, then register it within "
                    + "\(Int(Self.recentSignInLimit / 60)) minutes.")
        }
        return try await relyingParties.relyingParty(of: caller.pool)
    }

    /// The name a user's registration challenge is stored under: one at a time per user.
    static func registrationSessionName(of user: UserRecord) -> String {
        "passkey-registration|\(user.poolId)|\(user.sub)"
    }
}

extension PasskeyRecord {
    var wire: WebAuthnCredentialDescription {
        WebAuthnCredentialDescription(
            credentialId: credentialId, friendlyCredentialName: friendlyName ?? "Passkey", relyingPartyId: relyingPartyId,
            authenticatorAttachment: attachment, authenticatorTransports: transports, createdAt: createdAt)
    }

    /// The credential as creation and request options name it.
    var descriptor: PublicKeyCredentialDescriptor {
        PublicKeyCredentialDescriptor(
            credentialId: WebAuthnBase64URL.decode(credentialId) ?? [], transports: transports.isEmpty ? nil : transports)
    }
}
