import CognateProtocol
import CognateWebAuthn
import Foundation

/// Passkey sign-in's two halves: the WEB_AUTHN challenge (request options for the user's
/// passkeys, a new challenge stored with the session) and the check of its answer.
struct PasskeyAssertions: Sendable {
    let time: any TimeSource
    let random: any RandomSource
    let decoys: Decoys
    let authSessions: AuthSessionBook
    let relyingParties: PasskeyRelyingParties
}

extension PasskeyAssertions {
    /// The `timeout` the request options suggest (milliseconds), as Cognito's.
    static let timeout = 180_000

    /// The WEB_AUTHN challenge for `user` (nil: a name that is no user, `typed`, which gets a
    /// decoy of the same shape asking for a credential that does not exist): its session, and
    /// `CREDENTIAL_REQUEST_OPTIONS` naming the user's passkeys.
    func challenge(for user: UserRecord?, typed: String, userVerificationRequired: Bool, device: String?,
                   pool: PoolRecord, client: ClientRecord, in transaction: any StoreTransaction) async throws -> AuthOutcome {
        let relyingParty = try await relyingParties.relyingParty(of: pool)
        let allowed: [PublicKeyCredentialDescriptor]
        if let user {
            allowed = try await transaction.passkeys(
                poolId: pool.id, userSub: user.sub, after: nil, limit: Passkeys.maximumPerUser
            ).items.map(\.descriptor)
        } else {
            allowed = [PublicKeyCredentialDescriptor(
                credentialId: decoys.decoyCredentialId(for: typed, pool: pool), transports: ["internal", "hybrid"])]
        }
        let challenge = random.bytes(32)
        let uvRequired = userVerificationRequired || relyingParty.requiresUserVerification
        let username = user?.username ?? typed
        let state = PasskeySignInState(
            username: username, challenge: WebAuthnBase64URL.encode(challenge), relyingPartyId: relyingParty.id,
            userVerificationRequired: uvRequired, deviceKey: device,
            decoySubject: user == nil ? decoys.decoySubject(for: typed, pool: pool) : nil)
        let session = try await authSessions.openAuthSession(
            .challenge(.webAuthn), state: state, user: user, pool: pool, client: client, encoding: .session, in: transaction)
        let options = PublicKeyCredentialRequestOptionsJSON(
            challenge: challenge, rpId: relyingParty.id, allowCredentials: allowed,
            userVerification: uvRequired ? .required : .preferred, timeout: Self.timeout)
        let json = String(decoding: try JSONEncoder().encode(options), as: UTF8.self)
        return .challenge(.webAuthn, parameters: ["CREDENTIAL_REQUEST_OPTIONS": json, "USERNAME": username], session: session)
    }

    /// Checks a WEB_AUTHN answer against its challenge and the user's passkey it names, inside
    /// the answer's transaction (the user locked), and records the passkey's new signature
    /// counter. Any failure is NotAuthorizedException (InvalidParameterException for a
    /// malformed answer).
    func verify(_ response: PasskeyAssertionResponse, state: PasskeySignInState, user: UserRecord,
                in transaction: any StoreTransaction) async throws {
        let credentialId = WebAuthnBase64URL.encode(response.credentialId)
        guard let passkey = try await transaction.passkey(poolId: user.poolId, credentialId: credentialId),
            passkey.userSub == user.sub
        else { throw CognitoError.notAuthorized("The passkey is not registered for this user.") }
        guard passkey.relyingPartyId == state.relyingPartyId, let challenge = WebAuthnBase64URL.decode(state.challenge) else {
            throw CognitoError.notAuthorized("The passkey was registered for another relying party.")
        }
        let party = PasskeyRelyingParty(
            id: state.relyingPartyId, name: "", userVerification: state.userVerificationRequired ? .required : .preferred)
        let verified: VerifiedAssertion
        do {
            verified = try AssertionVerifier(relyingParty: try party.verifying(clientDataJSON: response.clientDataJSON)).verify(
                credentialId: response.credentialId, authenticatorData: response.authenticatorData,
                clientDataJSON: response.clientDataJSON, signature: response.signature, userHandle: response.userHandle,
                credential: StoredCredential(
                    id: response.credentialId, publicKey: passkey.publicKey, signCount: passkey.signCount,
                    userHandle: Array(user.sub.utf8), isBackupEligible: passkey.backupEligible),
                expectedChallenge: challenge, requireUserVerification: state.userVerificationRequired)
        } catch let error as CognitoError where error.code == .webAuthnOriginNotAllowed {
            throw CognitoError.notAuthorized(error.message)
        } catch {
            throw error.signInError
        }
        try await transaction.recordPasskeyUse(
            poolId: user.poolId, credentialId: credentialId, signCount: verified.signCount, at: time.now)
    }
}
