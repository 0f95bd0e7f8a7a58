import CognateProtocol
import Foundation

/// `/passkeys/add` on the hosted pages, as Cognito's managed login serves it: a user who signed
/// in in this browser a moment ago adds a passkey, then goes back to the app. The proof of
/// that sign-in is a ``RecentSignIn`` — left in the browser by the hosted sign-in, or made by
/// the sign-in `/passkeys/add` asks for when there is none — and the passkey is registered by
/// ``Passkeys``' own two steps, as StartWebAuthnRegistration and CompleteWebAuthnRegistration
/// register it for an access token.
struct HostedPasskeyAddition: Sendable {
    let store: any Store
    let time: any TimeSource
    let passkeys: Passkeys
    let authenticator: AccessTokenAuthenticator
    let recentSignIns: RecentSignIns
}

extension HostedPasskeyAddition {
    /// The largest `RegistrationResponseJSON` a page may send (its form holds 16 KiB).
    static let maximumCredentialLength = 12 * 1024

    /// What a hosted sign-in proves for `/passkeys/add`: nil in a pool without passkeys
    /// (nothing to prove it for).
    func proof(of signIn: RecentSignIn, pool: PoolRecord) -> RecentSignIn? {
        PasskeyRelyingParty.enabled(in: pool) ? signIn : nil
    }

    func seal(_ proof: RecentSignIn) throws -> String { try recentSignIns.seal(proof) }

    /// The proof the browser carries (`sealed`), when it was made for this browser and `pool`
    /// and is recent.
    func open(_ sealed: String?, browser: BrowserBinding, pool: PoolRecord) -> RecentSignIn? {
        recentSignIns.open(sealed, browser: browser, now: time.now).flatMap { $0.poolId == pool.id ? $0 : nil }
    }

    /// The user `proof` speaks for, adding a passkey through `client`, while its sign-in stands
    /// (``AccessTokenAuthenticator/signedInUser(sub:originJti:authTime:pool:client:onlyToAnswer:)``).
    func caller(_ proof: RecentSignIn, pool: PoolRecord, client: ClientRecord) async throws -> AuthenticatedUser {
        try await authenticator.signedInUser(
            sub: proof.sub, originJti: proof.originJti, authTime: Date(timeIntervalSince1970: proof.authTime), pool: pool,
            client: client)
    }

    /// The page adding a passkey for `caller`: a registration begun (its creation options on
    /// the page), the proof kept in the flow for the answer.
    func addingState(for caller: AuthenticatedUser, proof: RecentSignIn, request: AuthorizationRequest) async throws
        -> HostedFlowState
    {
        let options = try await passkeys.creationOptions(for: caller)
        return HostedFlowState(
            request: request, binding: proof.binding, stage: .addPasskey, username: caller.user.username,
            page: HostedPageState(name: Self.displayName(of: caller.user, in: caller.pool),
                                  options: String(decoding: try JSONEncoder().encode(options), as: UTF8.self)),
            signedIn: proof)
    }

    /// The page's answer registered for `caller`: `credential`, the browser's
    /// `RegistrationResponseJSON`, checked against the registration the page began.
    func register(_ form: [String: String], for caller: AuthenticatedUser) async throws {
        let text = form["credential"] ?? ""
        guard !text.isEmpty, text.utf8.count <= Self.maximumCredentialLength,
            let credential = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        else { throw CognitoError.invalidParameter("The browser sent no passkey.") }
        try await passkeys.register(credential, for: caller)
    }

    /// The name a page shows for `user`: the email address or phone number in pools where it
    /// is the username (the username itself is then an opaque identifier), else the username.
    static func displayName(of user: UserRecord, in pool: PoolRecord) -> String {
        guard !(pool.settings.usernameAttributes ?? []).isEmpty else { return user.username }
        return user.attributes["email"] ?? user.attributes["phone_number"] ?? user.username
    }
}
